"""A full disk under the daemon (issue #12, item 4): it keeps following the table, raises a HEALTH alert,
holds what it cannot write in memory, retries, and once there is room again the journal is complete and
every alert reached the broker — nothing lost, no crash.

Two ways to fill the disk: a fault-injecting layer (os.write of the journal and the outbox's SQLite
connection refuse writes with ENOSPC / "database or disk is full"), which runs everywhere; and, when the
tests run as root, a real 16 MiB tmpfs filled up with a ballast file that is removed afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import sqlite3
import subprocess
import time
import types
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.config import parse_config
from controller.core.alerts import Alert
from controller.core.engine import Engine
from controller.core.eventlog import read_events
from controller.core.events import Event, SessionEnd, SessionStart
from controller.daemon import journal as journal_mod
from controller.daemon.app import Daemon
from controller.daemon.journal import iter_journal
from controller.hardware.base import Emit
from tests.daemon.broker import Broker, Subscriber

ROOT = Path(__file__).resolve().parents[2]


def table_events() -> list[Event]:
    lines = (ROOT / "tests" / "data" / "fuzz" / "base.jsonl").read_text().splitlines()
    return [e for _, e in read_events(lines) if not isinstance(e, SessionStart | SessionEnd)]


class FullDisk:
    """The fault-injecting file layer: while `full`, journal writes fail with ENOSPC and the outbox's
    database refuses every write as SQLite does on a full disk."""

    def __init__(self) -> None:
        self.full = False
        self.refused = 0

    @contextlib.contextmanager
    def under(self, daemon: Daemon) -> Iterator[None]:
        disk = self

        def write(fd: int, data: bytes) -> int:
            if disk.full:
                disk.refused += 1
                raise OSError(errno.ENOSPC, "No space left on device")
            return os.write(fd, data)

        real_db = daemon.outbox._db

        class Db:
            def execute(self, sql: str, params: Any = ()) -> Any:
                if disk.full and sql.split()[0].upper() in ("BEGIN", "INSERT", "UPDATE", "DELETE"):
                    disk.refused += 1
                    raise sqlite3.OperationalError("database or disk is full")
                return real_db.execute(sql, params)

            def __getattr__(self, name: str) -> Any:
                return getattr(real_db, name)

        fake_os = types.SimpleNamespace(**{k: getattr(os, k) for k in dir(os) if not k.startswith("__")})
        fake_os.write = write
        saved_os = journal_mod.os
        journal_mod.os = fake_os  # type: ignore[assignment]
        daemon.outbox._db = Db()  # type: ignore[assignment]
        try:
            yield
        finally:
            journal_mod.os = saved_os
            daemon.outbox._db = real_db


class Script:
    """The table's events, a few ms apart; the disk fills at event `full_at` and has room again at
    `room_at`."""

    name = "script"

    def __init__(self, events: list[Event], full_at: int, room_at: int, fill: Callable[[], None],
                 free: Callable[[], None]) -> None:
        self.events, self.full_at, self.room_at, self.fill, self.free = events, full_at, room_at, fill, free
        self.done = asyncio.Event()

    async def run(self, emit: Emit) -> None:
        for i, ev in enumerate(self.events):
            if i == self.full_at:
                self.fill()
            if i == self.room_at:
                self.free()
            emit(ev)
            await asyncio.sleep(0.002)
        self.done.set()
        await asyncio.Event().wait()

    def statistics(self) -> dict[str, Any]:
        return {}


def run_table(state: Path, port: int, script: Script, wrap: Callable[[Daemon], Any]) -> tuple[Daemon, Path]:
    cfg = parse_config({"state_dir": str(state), "table": {"id": "t1"},
                        "mqtt": {"port": port, "backoff_min_s": 0.05, "backoff_max_s": 0.2},
                        "journal": {"fsync_interval_s": 0.05}, "health": {"interval_s": 0.1}})
    daemon = Daemon(cfg)
    stop = asyncio.Event()

    async def watch() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            idle = daemon.queue.empty() and not (daemon._unjournaled or daemon._unrecorded)
            if script.done.is_set() and idle and daemon.outbox.pending_count() == 0:
                return stop.set()
            await asyncio.sleep(0.05)
        stop.set()
        raise AssertionError(f"not drained: {daemon.statistics()}")

    async def main() -> None:
        with wrap(daemon):
            async with asyncio.TaskGroup() as tg:
                tg.create_task(daemon.run([script], stop=stop))
                tg.create_task(watch())

    asyncio.run(main())
    return daemon, daemon.session.path


def check_nothing_lost(daemon: Daemon, journal: Path, events: list[Event], sub: Subscriber) -> None:
    journaled = [e for e in iter_journal(journal) if not isinstance(e, SessionStart)]
    assert [(type(e), e.t) for e in journaled] == [(type(e), e.t) for e in events]  # complete, in order
    engine = Engine(table="t1")
    expected = [o.id for e in iter_journal(journal) for o in engine.feed(e) if isinstance(o, Alert)]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        got = [json.loads(p) for p in sub.on("/alerts")]
        if {a["id"] for a in got if a["code"] != "HEALTH"} >= set(expected):
            break
        time.sleep(0.05)
    ids = [a["id"] for a in got if a["code"] != "HEALTH"]
    assert sorted(set(ids)) == sorted(expected)  # every alert, none made up (duplicates are allowed)
    health = [a["message"] for a in got if a["code"] == "HEALTH"]
    assert any("disk full" in m for m in health), health  # the floor was told
    assert daemon.spool_lost == 0


def test_disk_full_fault_injection(tmp_path: Path, broker: Broker) -> None:
    events = table_events()
    disk = FullDisk()
    sub = Subscriber(broker.port, ["cardtable/t1/#"], client_id=f"sub-{uuid.uuid4().hex[:6]}")
    script = Script(events, 30, 150, lambda: setattr(disk, "full", True),
                    lambda: setattr(disk, "full", False))
    daemon, journal = run_table(tmp_path / "state", broker.port, script, disk.under)
    assert disk.refused > 0
    check_nothing_lost(daemon, journal, events, sub)
    sub.close()


def _can_mount() -> bool:
    return os.geteuid() == 0 and subprocess.run(["which", "mount"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _can_mount(), reason="a real full disk needs root to mount a tmpfs")
def test_disk_full_on_a_real_tmpfs(tmp_path: Path, broker: Broker) -> None:
    mnt = tmp_path / "small"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode().strip()}")
    try:
        events = table_events()
        ballast = mnt / "ballast"

        def fill() -> None:
            with contextlib.suppress(OSError), open(ballast, "wb", buffering=0) as fh:
                while True:
                    fh.write(b"\0" * 4096)

        sub = Subscriber(broker.port, ["cardtable/t1/#"], client_id=f"sub-{uuid.uuid4().hex[:6]}")
        script = Script(events, 30, 150, fill, lambda: ballast.unlink(missing_ok=True))
        daemon, journal = run_table(mnt / "state", broker.port, script, lambda d: contextlib.nullcontext())
        assert daemon.journal.write_failures > 0 or daemon.health.raised > 0
        check_nothing_lost(daemon, journal, events, sub)
        sub.close()
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
