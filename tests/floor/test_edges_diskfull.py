"""A full disk under the floor's database (issue #12, item 4): the consumer keeps taking messages, holds
them in memory while the store refuses writes, says so on the health endpoint and to the browsers, and
stores every one, exactly once and in order, when there is room again. A ruling posted meanwhile gets a
clear 503, not a crash.

Fault-injecting layer (the SQLite connection refuses writes as on a full disk) everywhere; as root also a
real 16 MiB tmpfs filled with a ballast file."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from controller.floor.app import FloorService
from controller.floor.store import SqliteStore
from tests.floor.conftest import make_config
from tests.floor.publisher import alert


class FullDisk:
    def __init__(self, store: SqliteStore) -> None:
        self.full = False
        real = store._db
        disk = self

        class Db:
            def execute(self, sql: str, params: Any = ()) -> Any:
                if disk.full and sql.split()[0].upper() in ("INSERT", "UPDATE", "DELETE"):
                    raise sqlite3.OperationalError("database or disk is full")
                return real.execute(sql, params)  # type: ignore[union-attr]

            def __getattr__(self, name: str) -> Any:
                return getattr(real, name)

        store._db = Db()  # type: ignore[assignment]


async def scenario(svc: FloorService, fill: Callable[[], None], free: Callable[[], None],
                   during: Callable[[], Awaitable[None]]) -> None:
    alerts = [alert("t1", 1 + n // 5, 1 + n % 5, "TURN_PREMATURE") for n in range(60)]
    seen: list[str] = []
    sub = svc.hub.subscribe(owner="test")
    for n, a in enumerate(alerts):
        if n == 10:
            fill()
        if n == 40:
            await during()
            free()
        await svc.ingest.handle("cardtable/t1/alerts", json.dumps(a).encode())  # never raises here
        if n == 20:
            assert svc.ingest.counts["held"] > 0 and svc.ingest.store_error
    for _ in range(100):
        await svc.ingest.retry_held()
        if not svc.ingest.counts["held"]:
            break
        await asyncio.sleep(0.05)
    stored = await svc.store.alerts_after(0)
    assert [a["id"] for a in stored] == [a["id"] for a in alerts]  # all, once, in order
    assert not svc.ingest.store_error
    while not sub.queue.empty():
        ev = sub.queue.get_nowait()
        if ev and ev["type"] == "alert":
            seen.append(ev["alert"]["id"])
        elif ev and ev["type"] == "store":
            seen.append(f"store:{ev['ok']}")
    assert seen.count("store:False") == 1 and seen.count("store:True") == 1  # told once, and told again
    assert seen.index("store:False") < seen.index("store:True")
    assert [s for s in seen if not s.startswith("store:")] == [a["id"] for a in alerts]


@contextlib.asynccontextmanager
async def logged_in(svc: FloorService) -> AsyncIterator[Callable[[], Awaitable[None]]]:
    """Log in while the disk has room (a login writes its session); yields the check to run while the
    disk is full: the health endpoint says so, and an ack is a 503, not a crash."""
    from tests.floor.test_web import login, page_csrf, session

    async with session() as http:
        await login(http, svc.url)
        csrf = await page_csrf(http, svc.url)

        async def during_full() -> None:
            async with http.post(svc.url + "/api/ack", headers={"X-CSRF-Token": csrf},
                                 json={"table": "t1", "id": "t1-h1-1", "ruling": "ok"}) as r:
                assert r.status == 503 and "store is unavailable" in (await r.json())["error"]
            async with http.get(svc.url + "/api/health") as r:
                health = await r.json()
            assert health["store_error"] and health["ingest"]["held"] > 0

        yield during_full


def run(tmp: Path, body: Callable[[FloorService], Awaitable[None]], sqlite: Path) -> None:
    async def main() -> None:
        svc = FloorService(make_config({"sqlite": str(sqlite)}))
        await svc.start()
        try:
            await body(svc)
        finally:
            with contextlib.suppress(Exception):
                await svc.stop()

    asyncio.run(main())


def test_floor_store_full_fault_injection(tmp_path: Path) -> None:
    async def body(svc: FloorService) -> None:
        assert isinstance(svc.store, SqliteStore)
        disk = FullDisk(svc.store)
        async with logged_in(svc) as during:
            await scenario(svc, lambda: setattr(disk, "full", True), lambda: setattr(disk, "full", False),
                           during)

    run(tmp_path, body, tmp_path / "floor.sqlite3")


@pytest.mark.skipif(os.geteuid() != 0, reason="a real full disk needs root to mount a tmpfs")
def test_floor_store_full_on_a_real_tmpfs(tmp_path: Path) -> None:
    mnt = tmp_path / "small"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode().strip()}")
    ballast = mnt / "ballast"

    def fill() -> None:
        with contextlib.suppress(OSError), open(ballast, "wb", buffering=0) as fh:
            while True:
                fh.write(b"\0" * 4096)

    async def body(svc: FloorService) -> None:
        async with logged_in(svc) as during:
            await scenario(svc, fill, lambda: ballast.unlink(missing_ok=True), during)

    try:
        run(tmp_path, body, mnt / "floor.sqlite3")
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
