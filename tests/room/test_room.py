"""A room through one floor: `cardtable simulate --tables N` (real hands, 30 % injection) → shipped broker →
a floor process → its live stream read like a browser. Every alert exactly once in the store and on the
stream; publish → live-stream latency, the floor's CPU and RSS are printed.

Default: 50 tables, 3 hands each at 10× real time (about 80 s per back end). The manual room run sets
the size: CARDTABLE_ROOM_TABLES=250 CARDTABLE_ROOM_HANDS=2 CARDTABLE_ROOM_SPEED=2 pytest tests/room -k room -s
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.floor.broker import USERS, Broker
from tests.floor.harness import Observer
from tests.room.harness import ENV, ROOT, FloorProcess, LiveStream, poll

TABLES = int(os.environ.get("CARDTABLE_ROOM_TABLES", "50"))
HANDS = int(os.environ.get("CARDTABLE_ROOM_HANDS", "3"))
SPEED = os.environ.get("CARDTABLE_ROOM_SPEED", "10")
# The suite runs on a shared 2-core machine; the room target (p99 <= 100 ms) is checked in the manual run.
P99_LIMIT_S = float(os.environ.get("CARDTABLE_ROOM_P99_S", "2.0"))


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def proc_usage(pid: int) -> tuple[float, float]:
    """(CPU seconds, peak RSS MB) of a live process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    hwm = next(line for line in status if line.startswith("VmHWM"))
    return cpu, int(hwm.split()[1]) / 1024


@pytest.mark.timeout(3600)
def test_room_every_alert_once_on_the_floor(tmp_path: Path, broker: Broker, store_section: dict[str, Any]
                                            ) -> None:
    floor = FloorProcess(tmp_path / "floor", broker.port, store_section)
    floor.start()
    assert floor.proc is not None
    # The load generator stands for 250 tables, each its own Pi in a real room: on the floor's machine it
    # runs at the lowest CPU priority, so that it does not take the cores the floor and the broker need
    # (CARDTABLE_ROOM_NICE=0 runs it as an equal).
    nice = ["nice", "-n", os.environ.get("CARDTABLE_ROOM_NICE", "19")]
    cmd = [*nice, sys.executable, "-m", "controller", "simulate", "--tables", str(TABLES),
           "--hands", str(HANDS), "--speed", SPEED, "--inject", "0.3", "--json", "--drain", "60",
           "--table", "r", "--broker", f"mqtt://sim:{USERS['sim']}@127.0.0.1:{broker.port}"]
    live = LiveStream(floor)
    out: dict[str, Any] = {}
    # A second subscriber notes when the broker handed each alert out: broker → floor → stream is the
    # floor's own share of the latency (the room process's loop and outboxes come before it).
    broker_out = Observer(broker.port, "cardtable/+/alerts")

    async def run() -> None:
        await live.start()
        await broker_out.start()
        cpu0, _ = proc_usage(floor.proc.pid)  # type: ignore[union-attr]
        started = time.monotonic()
        res = await asyncio.to_thread(subprocess.run, cmd, cwd=ROOT, env=ENV, capture_output=True, text=True,
                                      timeout=3000)
        assert res.returncode == 0, res.stderr[-2000:]
        lines = [json.loads(x) for x in res.stdout.splitlines()]
        raised = {(a["table"], a["id"]): a["raised"] for a in lines if a["type"] == "alert"}
        out.update(raised=raised, summary=lines[-1], wall=time.monotonic() - started)
        out["whole"] = await poll(lambda: raised.keys() <= live.arrived.keys(), 60)
        cpu1, rss = proc_usage(floor.proc.pid)  # type: ignore[union-attr]
        out.update(cpu=cpu1 - cpu0, rss=rss, health=await asyncio.to_thread(floor.health))
        await live.stop()
        await broker_out.stop()
        pairs = zip(broker_out.messages, broker_out.times, strict=True)
        out["at_broker"] = {(m["table"], m["id"]): t for (_topic, m), t in pairs}

    try:
        asyncio.run(run())
    finally:
        floor.stop()
    raised, summary = out["raised"], out["summary"]
    lat = [live.arrived[k] - t for k, t in raised.items() if k in live.arrived]
    floor_lat = [live.arrived[k] - t for k, t in out["at_broker"].items() if k in live.arrived]
    h = out["health"]
    backend = "PostgreSQL" if "dsn" in store_section else "SQLite"
    share = 100 * out["cpu"] / out["wall"]

    def ms(xs: list[float]) -> str:
        return f"p50 {quantile(xs, 0.5) * 1000:.0f} ms, p99 {quantile(xs, 0.99) * 1000:.0f} ms, " \
               f"max {max(xs) * 1000:.0f} ms"

    print(f"\nroom on {backend}: {TABLES} tables x {HANDS} hands at {SPEED}x, {summary['events']} events, "
          f"{len(raised)} alerts in {out['wall']:.0f} s; raised -> live stream {ms(lat)}; "
          f"broker -> live stream {ms(floor_lat)}; floor CPU {out['cpu']:.1f} s ({share:.0f} % of a core), "
          f"peak RSS {out['rss']:.0f} MB; room process CPU {summary['cpu_s']} s, RSS "
          f"{summary['max_rss_mb']} MB; stored {h['store']['alerts']}, "
          f"duplicates {h['ingest']['duplicates']}, "
          f"resend requests {h['broker']['streams']['resend_requests']}, batches "
          f"{h['broker']['batches']} (largest {h['broker']['largest_batch']}); inside the floor, taken -> "
          f"written to the stream {h['hub']['taken_to_stream_ms']} ms; states coalesced for the stream "
          f"{h['hub']['states_coalesced']}, states in {h['ingest']['state']}; garbage collections "
          f"{h['gc']['collections']}, longest {h['gc']['max_ms']} ms")
    assert summary["tables"] == TABLES and summary["unpublished"] == 0
    assert out["whole"], f"{len(raised.keys() - live.arrived.keys())} alerts never reached the live stream"
    assert live.copies == 0  # nothing twice on the stream
    assert h["store"]["alerts"] == len(raised)  # nothing twice (or foreign) in the store
    assert not h["broker"]["streams"]["degraded"]
    assert quantile(floor_lat, 0.99) <= P99_LIMIT_S
