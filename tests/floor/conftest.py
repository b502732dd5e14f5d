"""Fixtures for the floor tests: broker, store back ends (SQLite file, PostgreSQL schema), users, config."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.floor.auth import hash_password
from controller.floor.config import FloorConfig, parse_config
from tests.floor.broker import USERS, Broker, available
from tests.floor.harness import LoopThread

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PG_DSN = os.environ.get("CARDTABLE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
PASSWORDS = {"anna": "anna-floor-pw", "wall": "wall-display-pw"}
# Cheap scrypt cost for tests; the hash records its own parameters, so verification is unchanged.
_HASHES = {name: hash_password(pw, n=2**12) for name, pw in PASSWORDS.items()}


def users_config() -> dict[str, Any]:
    return {"anna": {"hash": _HASHES["anna"], "role": "floor"},
            "wall": {"hash": _HASHES["wall"], "role": "wall"}}


def _pg_reason() -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        with psycopg.connect(PG_DSN, connect_timeout=3):
            return None
    except psycopg.Error as exc:
        return f"PostgreSQL at {PG_DSN} unavailable: {str(exc).strip().splitlines()[0]}"


@pytest.fixture(scope="session")
def pg_dsn() -> str:
    reason = _pg_reason()
    if reason:
        pytest.skip(reason)
    return PG_DSN


@pytest.fixture(params=["sqlite", "postgres"])
def store_section(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The [store] section for each back end; the PostgreSQL schema is unique per test and dropped after."""
    if request.param == "sqlite":
        yield {"sqlite": str(tmp_path / "floor.sqlite3")}
        return
    dsn = request.getfixturevalue("pg_dsn")
    schema = f"floor_test_{uuid.uuid4().hex[:12]}"
    yield {"dsn": dsn, "schema": schema}
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if not available():
        pytest.skip("mosquitto / mosquitto_passwd not installed (apt-get install mosquitto)")
    b = Broker(tmp_path / "broker")
    b.start()
    yield b
    b.stop()


def make_config(store: dict[str, Any], broker_port: int = 1, **web: Any) -> FloorConfig:
    return parse_config({
        "broker": {"host": "127.0.0.1", "port": broker_port, "username": "floor", "password": USERS["floor"],
                   "client_id": f"floor-{uuid.uuid4().hex[:8]}", "backoff_initial": 0.1, "backoff_max": 0.5,
                   "keepalive": 10},
        "store": store,
        "web": {"host": "127.0.0.1", "port": 0, **web},
        "users": users_config(),
        "dealers": {"t1": "D-01", "t2": "D-02"},
    })


# Module scope: a session-wide sync Playwright would hold an event loop in the main thread that breaks the
# asyncio.run() of the non-browser tests.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def loop() -> Iterator[LoopThread]:
    lt = LoopThread()
    yield lt
    lt.close()
