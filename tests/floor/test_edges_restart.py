"""Two daemon sessions of one table (one state dir) and a floor on one broker: every alert of both sessions
reaches the floor exactly once (issue #12, item 1: alert ids were `t1-h1-1` again in the second session,
and the outbox and the floor dropped them as resends of the first session's alerts)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.config import parse_config
from controller.core.alerts import Alert
from controller.core.engine import Engine
from controller.core.events import Event, SessionEnd, SessionStart
from controller.daemon.app import Daemon
from controller.daemon.journal import iter_journal
from tests.daemon.fakes import ListSource
from tests.floor.broker import USERS, Broker
from tests.floor.conftest import make_config
from tests.floor.harness import LoopThread
from tests.floor.test_e2e import _start_service, _stop_service

pytestmark = pytest.mark.broker
ROOT = Path(__file__).resolve().parents[2]


def table_events(tmp: Path, hands: int = 5) -> list[Event]:
    """A simulated table's events (with injected faults, so there are alerts), without session markers."""
    log = tmp / "script.jsonl"
    res = subprocess.run([sys.executable, "-m", "controller", "simulate", "--hands", str(hands), "--seed",
                          "11", "--inject", "0.5", "--direct", "--json", "--table", "t1", "--log", str(log)],
                         cwd=tmp, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return [e for e in iter_journal(log) if not isinstance(e, SessionStart | SessionEnd)]


def session_alerts(journal: Path) -> list[str]:
    """The alert ids a replay of one session's journal raises."""
    engine = Engine(table="t1")
    return [o.id for e in iter_journal(journal) for o in engine.feed(e) if isinstance(o, Alert)]


async def one_session(state: Path, port: int, events: list[Event]) -> Path:
    """A daemon session (a new one, as after `cardtable run --new-session`) that plays `events` and
    stops once the outbox is drained."""
    creds = state.parent / "t1.credentials"
    creds.write_text(f"t1:{USERS['t1']}\n")
    cfg = parse_config({"state_dir": str(state), "table": {"id": "t1"},
                        "mqtt": {"port": port, "credentials_file": str(creds), "backoff_min_s": 0.05,
                                 "backoff_max_s": 0.2}, "journal": {"fsync_interval_s": 0.05}})
    daemon = Daemon(cfg, new_session=True)
    src = ListSource(events)
    stop = asyncio.Event()

    async def watch() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if src.done.is_set() and daemon.queue.empty() and daemon.outbox.pending_count() == 0:
                return stop.set()
            await asyncio.sleep(0.05)
        raise AssertionError("the daemon did not publish its alerts within 60 s")

    async with asyncio.TaskGroup() as tg:
        tg.create_task(daemon.run([src], stop=stop))
        tg.create_task(watch())
    assert src.done.is_set() and daemon.events == len(events)
    return daemon.session.path


def test_two_daemon_sessions_every_alert_once(broker: Broker, loop: LoopThread, tmp_path: Path) -> None:
    events = table_events(tmp_path)
    svc = _start_service(loop, make_config({"sqlite": str(tmp_path / "floor.sqlite3")}, broker.port))
    try:
        state = tmp_path / "state"
        journals = [asyncio.run(one_session(state, broker.port, events)) for _ in range(2)]
        assert journals[0] != journals[1]
        per_session = [session_alerts(j) for j in journals]
        assert per_session[0] and len(per_session[0]) == len(per_session[1])
        expected = per_session[0] + per_session[1]
        assert len(set(expected)) == len(expected)  # no id of session 1 comes back in session 2

        async def floor_ids() -> list[str]:
            rows = await svc.store.alerts_after(0)
            return [str(r["id"]) for r in rows if r.get("code") != "HEALTH"]

        deadline = time.monotonic() + 20
        while sorted(ids := loop.run(floor_ids())) != sorted(expected) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sorted(ids) == sorted(expected)  # every alert of both sessions, each exactly once
        assert svc.ingest.counts["rejected"] == 0
    finally:
        loop.run(_stop_service(svc))
