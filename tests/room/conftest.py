"""Fixtures of the room tests: the floor tests' store back ends (SQLite file, PostgreSQL schema)."""

from tests.floor.conftest import pg_dsn, store_section

__all__ = ["pg_dsn", "store_section"]
