"""The daemon's durability work off the event loop (journal group fsync, outbox checkpoints), and the
per-table rate limit of the retained state."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from controller.config import parse_config
from controller.core.events import Knock
from controller.daemon import journal as journal_mod
from controller.daemon.journal import Journal
from controller.daemon.outbox import CHECKPOINT_BYTES, Message, Outbox
from controller.daemon.publisher import Publisher
from tests.daemon.broker import Broker, Subscriber
from tests.daemon.fakes import KnockEngine, ListSource, knocks
from tests.daemon.test_daemon import config, run_until


def _slow_fsync(monkeypatch: pytest.MonkeyPatch, seconds: float) -> list[int]:
    """os.fsync in the journal takes `seconds`; returns the list of thread ids it ran on."""
    threads: list[int] = []
    real = journal_mod.os.fsync

    def slow(fd: int) -> None:
        threads.append(threading.get_ident())
        time.sleep(seconds)
        real(fd)

    monkeypatch.setattr(journal_mod.os, "fsync", slow)
    return threads


def test_group_fsync_does_not_stall_the_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads = _slow_fsync(monkeypatch, 0.4)

    async def main() -> float:
        j = Journal(tmp_path / "j.jsonl", fsync_interval_s=0.01)
        j.recover()
        task = asyncio.create_task(j.run())
        j.append(Knock(t=1.0))
        await asyncio.sleep(0.05)  # the sync has started in its thread
        worst = 0.0
        for _ in range(10):  # the loop keeps its pace while the card syncs
            t0 = time.perf_counter()
            await asyncio.sleep(0.01)
            worst = max(worst, time.perf_counter() - t0)
        j.append(Knock(t=2.0))  # written while the sync runs: not covered by it, so dirty again
        while j.fsyncs < 2:
            await asyncio.sleep(0.02)
        task.cancel()
        j.close()
        return worst

    worst = asyncio.run(main())
    assert worst < 0.3, f"the loop stalled {worst:.3f} s"
    assert threads and threading.get_ident() not in threads
    assert len(threads) == 2  # the line written during the first sync got a second one


def test_fsync_per_event_stays_before_the_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fsync_interval_s = 0 promises the event is on disk before append() returns (before the core)."""
    threads = _slow_fsync(monkeypatch, 0.0)
    j = Journal(tmp_path / "j.jsonl", fsync_interval_s=0)
    j.recover()
    j.append(Knock(t=1.0))
    assert threads == [threading.get_ident()] and j.fsyncs == 1
    j.close()


def test_close_waits_for_a_sync_in_flight(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _slow_fsync(monkeypatch, 0.3)

    async def main() -> None:
        j = Journal(tmp_path / "j.jsonl", fsync_interval_s=0.01)
        j.recover()
        task = asyncio.create_task(j.run())
        j.append(Knock(t=1.0))
        await asyncio.sleep(0.05)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)  # as the daemon's task group does
        j.close()  # must not close the descriptor under the running fsync (EBADF, or another file's fd)
        assert j.write_failures == 0 and j.fsyncs == 2  # the one in flight, then one more of its own

    asyncio.run(main())


def _wal(outbox: Outbox) -> int:
    p = Path(f"{outbox.path}-wal")
    return p.stat().st_size if p.exists() else 0


def test_outbox_checkpoints_aside_not_in_the_commit(tmp_path: Path) -> None:
    aside = Outbox(tmp_path / "a.sqlite3")
    inline = Outbox(tmp_path / "b.sqlite3", checkpoint_aside=False)
    assert aside.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    assert inline.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
    big = b"x" * 8000
    for n in range(600):  # about 5 MB: several automatic checkpoints' worth
        for box in (aside, inline):
            box.record([Message(key=f"alert:{n}", topic="alerts", payload=big)])
    assert _wal(aside) > CHECKPOINT_BYTES * 4  # no commit checkpointed it
    assert _wal(inline) < CHECKPOINT_BYTES * 5
    aside.checkpoint()  # what run() does in a worker thread
    assert aside.checkpoints == 1
    aside.record([Message(key="alert:last", topic="alerts", payload=b"{}")])  # the WAL starts over
    assert _wal(aside) <= 4 << 20  # journal_size_limit
    assert aside.pending_count() == 601
    aside.close()
    inline.close()


def test_outbox_task_checkpoints_in_a_worker_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    box = Outbox(tmp_path / "a.sqlite3")
    ran_on: list[int] = []
    real = box.checkpoint

    def spy() -> None:
        ran_on.append(threading.get_ident())
        real()

    monkeypatch.setattr(box, "checkpoint", spy)
    for n in range(200):
        box.record([Message(key=f"alert:{n}", topic="alerts", payload=b"y" * 8000)])

    async def main() -> None:
        task = asyncio.create_task(box.run())
        await asyncio.sleep(1.5)
        task.cancel()

    asyncio.run(main())
    assert ran_on and threading.get_ident() not in ran_on and box.checkpoints >= 1
    box.close()


def _publisher(tmp_path: Path, interval: float) -> Publisher:
    cfg = parse_config({"mqtt": {"state_interval_s": interval}}).mqtt
    box = Outbox(tmp_path / "o.sqlite3")
    return Publisher(cfg, table="t1", outbox=box, on_command=lambda *_: None, on_auth_failure=lambda _: None,
                     on_connected=lambda: None)


def test_state_waits_for_its_interval_alerts_do_not(tmp_path: Path) -> None:
    pub = _publisher(tmp_path, 1.0)
    pub.outbox.record([Message(key="state", topic="state", payload=b"1", qos=0, retain=True),
                       Message(key="alert:a", topic="alerts", payload=b"{}")])
    rows = pub.outbox.pending()
    assert [r.key for r in pub._due(rows)] == ["state", "alert:a"]  # nothing sent yet: the state goes
    pub._state_sent = time.monotonic()
    assert [r.key for r in pub._due(rows)] == ["alert:a"]  # too soon: the alert goes, the state waits
    assert 0.9 < pub._state_wait() <= 1.0 and pub.states_deferred == 1
    pub._due(rows)
    assert pub.states_deferred == 1  # counted once per state held back
    pub._state_sent -= 1.0
    assert [r.key for r in pub._due(rows)] == ["state", "alert:a"]
    pub.outbox.close()


def test_state_rate_limited_per_table_latest_wins(tmp_path: Path, broker: Broker) -> None:
    """72 events in well under a second each change the state: a handful of states go out (not 72), the
    alerts are not held back, and the last retained state is the final one."""
    sub = Subscriber(broker.port, ["cardtable/t1/#"])
    from controller.daemon.app import Daemon

    daemon = Daemon(config(tmp_path, broker.port, mqtt={"state_interval_s": 0.5}), engine=KnockEngine())
    started = time.monotonic()
    asyncio.run(run_until(daemon, [ListSource(knocks(60))], lambda: len(sub.on("/alerts")) >= 60))
    took = time.monotonic() - started
    time.sleep(0.2)
    states = [json.loads(p) for p in sub.on("/state")]
    assert len(sub.on("/alerts")) == 60
    assert 1 <= len(states) <= took / 0.5 + 2, (len(states), took)
    final: dict[str, Any] = states[-1]
    assert final["hand"] == 12 and final["events"] == 72 and final["stream"]["last"] == 60
    sub.close()
