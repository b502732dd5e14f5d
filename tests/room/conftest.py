"""Fixtures of the room tests: the floor tests' broker (shipped config) and store back ends."""

from tests.floor.conftest import broker, pg_dsn, store_section

__all__ = ["broker", "pg_dsn", "store_section"]
