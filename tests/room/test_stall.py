"""Must show: the floor stalls (SIGSTOP) longer than the broker's queue lasts, under the shipped broker
config; after it resumes every alert is stored exactly once, the hole was shown (health JSON) while it
lasted, and `cmd/resend` filled it. Again with the broker SIGKILLed and restarted during the stall."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from controller.sim.room import Room
from tests.floor.broker import Broker
from tests.room.harness import FloorProcess, expected_ids, poll, synthetic_room
from tests.room.shipped import SHIPPED

QUEUE = int(next(line.split()[1] for line in SHIPPED.read_text().splitlines()
                 if line.startswith("max_queued_messages ")))
TABLES = 12
ALERTS = QUEUE // TABLES + 250  # together about 3,000 more than the broker queues for the stalled floor


def broker_health_alerts(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM alerts WHERE table_id = 'broker' AND code = 'HEALTH'"
                                ).fetchone()[0])


def stored(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT table_id, alert_id FROM alerts WHERE code != 'HEALTH'")
        return [(t, a) for t, a in rows]


async def stall_and_resume(room: Room, floor: FloorProcess, broker: Broker, *, kill_broker: bool
                           ) -> dict[str, Any]:
    """Stall the floor while the room publishes more than the queue holds; resume; wait until whole."""
    floor.pause()
    stalled = time.monotonic()
    await room.played()
    assert await room.drained(120) == 0, "the tables could not hand everything to the broker"
    if kill_broker:  # everything the broker held in memory since its last save is gone
        assert broker.proc is not None
        broker.proc.send_signal(signal.SIGKILL)
        broker.proc.wait()
        broker.start()
    await asyncio.sleep(1.0)
    floor.resume()
    stall_s = time.monotonic() - stalled
    want = len(expected_ids(room))
    seen: dict[str, Any] = {"degraded_max": 0, "stall_s": stall_s}

    def whole() -> bool:
        h = floor.health()
        streams = h["broker"]["streams"]
        missing = sum(d["missing"] for d in streams["degraded"].values())
        seen["degraded_max"] = max(seen["degraded_max"], missing)
        seen["last"] = h
        return bool(h["ingest"]["alerts"] >= want and not streams["degraded"] and seen["degraded_max"])

    seen["whole"] = await poll(whole, 240, every=0.1)
    return seen


def run_case(tmp_path: Path, broker: Broker, *, kill_broker: bool) -> None:
    floor = FloorProcess(tmp_path / "floor", broker.port, {"sqlite": str(tmp_path / "floor.sqlite3")})
    floor.start()
    room = synthetic_room(tmp_path / "room", broker.port, tables=TABLES, alerts=ALERTS)
    result: dict[str, Any] = {}

    async def until(r: Room) -> None:
        assert await poll(lambda: floor.health()["broker"]["connected"], 30), "floor never connected"
        result.update(await stall_and_resume(r, floor, broker, kill_broker=kill_broker))

    try:
        asyncio.run(room.run(until))
    finally:
        floor.stop()
    expected = expected_ids(room)
    got = stored(tmp_path / "floor.sqlite3")
    h = result["last"]
    streams = h["broker"]["streams"]
    resent = sum(s.daemon.resender.resent for s in room.seats)
    print(f"\n{'broker killed, ' if kill_broker else ''}{TABLES} tables, {len(expected)} alerts, queue "
          f"{QUEUE}: floor stalled {result['stall_s']:.1f} s; most missing at once "
          f"{result['degraded_max']}; broker drops seen {streams['broker_drops']}; resend requests "
          f"{streams['resend_requests']}, rows resent {resent}; stored {len(got)}, "
          f"duplicates dropped {streams['duplicates']}")
    assert len(expected) == TABLES * ALERTS > QUEUE + 2000
    assert result["whole"], f"not whole: {h}"
    assert len(got) == len(set(got)) and set(got) == expected  # every alert, exactly once
    assert result["degraded_max"] > 0 and resent > 0  # the hole was shown, and the resend filled it
    if not kill_broker:  # the broker's own count moved, the floor saw it and said so in the feed
        assert streams["broker_drops"] > 0 and broker_health_alerts(tmp_path / "floor.sqlite3") >= 1


@pytest.mark.timeout(600)
def test_floor_stalled_past_the_broker_queue_loses_nothing(tmp_path: Path, broker: Broker) -> None:
    run_case(tmp_path, broker, kill_broker=False)


@pytest.mark.timeout(600)
def test_broker_killed_while_the_floor_is_stalled_loses_nothing(tmp_path: Path, broker: Broker) -> None:
    run_case(tmp_path, broker, kill_broker=True)
