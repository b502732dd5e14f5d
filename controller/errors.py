"""Errors of the controller package outside the core; each carries structured fields and a built-in base."""

from __future__ import annotations


class CardtableError(Exception):
    """Base of all controller errors that are reported to the user as one clear line."""

    exit_code = 1


class UsageError(CardtableError, ValueError):
    """Bad input from the user: a file, a flag or a config value."""

    exit_code = 2
