"""Errors of the floor screen; each is a CardtableError so the CLI prints one clear line."""

from __future__ import annotations

from controller.errors import CardtableError, UsageError


class FloorConfigError(UsageError):
    """The floor config file is missing, unreadable or invalid; `problems` lists every error with its path."""

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


class StoreError(CardtableError, ConnectionError):
    """The alert store (SQLite file or PostgreSQL server) cannot be opened or used."""

    exit_code = 1


class TransactionAborted(StoreError):
    """A statement inside a store transaction failed, so the transaction was rolled back, not committed."""
