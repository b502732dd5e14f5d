"""Chaos run (issue #12): `cardtable simulate` through the emulated reader hub, publishing to a broker that
is restarted, to a floor that is restarted, with hub reboots, and one poison message per 100 messages the
table sends. In the end the floor holds every alert the daemon raised exactly once, and its quarantine
holds exactly the poison messages.

The suite plays 120 hands (about a minute); CARDTABLE_CHAOS_HANDS=1000 runs the long version."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import sqlite3
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from controller.commands import simulate as sim_cmd
from controller.daemon.app import Daemon
from controller.floor.app import FloorService
from controller.floor.config import FloorConfig
from controller.sim import hardware as simhw
from tests.floor.broker import USERS, Broker
from tests.floor.conftest import make_config
from tests.floor.harness import LoopThread

HANDS = int(os.environ.get("CARDTABLE_CHAOS_HANDS", "120"))
# About 0.3 s per hand on two busy cores; the long version needs more than the suite's 300 s timeout.
pytestmark = [pytest.mark.broker, pytest.mark.timeout(max(300, HANDS))]
CHAOS_EVERY_S = 2.0  # one disturbance every this many seconds, in turn: broker, floor, hub


class Floor:
    """The floor service on its own loop, restartable with the same client id (the broker queues QoS 1
    messages for it while it is away)."""

    def __init__(self, loop: LoopThread, cfg: FloorConfig) -> None:
        self.loop, self.cfg = loop, cfg
        self.svc: FloorService | None = None
        self.tasks: list[asyncio.Task[Any]] = []
        self.restarts = 0
        self.start()

    def start(self) -> None:
        async def go() -> None:
            self.svc = FloorService(self.cfg)
            await self.svc.start()
            self.tasks = [asyncio.create_task(self.svc.link.run()),
                          asyncio.create_task(self.svc.ingest.run_state_writer())]

        self.loop.run(go())

    def stop(self) -> None:
        async def go() -> None:
            for t in self.tasks:
                t.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            assert self.svc is not None
            await self.svc.stop()

        self.loop.run(go())

    def restart(self) -> None:
        self.stop()
        self.start()
        self.restarts += 1

    def query(self) -> tuple[list[str], list[str]]:
        async def go() -> tuple[list[str], list[str]]:
            assert self.svc is not None
            alerts = [str(a["id"]) for a in await self.svc.store.alerts_after(0, 100_000)]
            q = await self.svc.store.quarantined(100_000)
            return alerts, [r["excerpt"] for r in q["recent"]]

        return self.loop.run(go())


async def publish_poison(port: int, n: int) -> None:
    """An alert whose id is a number (the floor needs a string): refused, quarantined, acknowledged."""
    body = json.dumps({"id": n, "code": "CHAOS", "severity": "error", "message": f"poison {n}"}).encode()
    async with aiomqtt.Client("127.0.0.1", port, username="sim", password=USERS["sim"], timeout=3) as c:
        await c.publish("cardtable/t9/alerts", body, qos=1)


def test_chaos_every_alert_once_quarantine_exactly_the_poison(
        broker: Broker, loop: LoopThread, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    floor = Floor(loop, make_config({"sqlite": str(tmp_path / "floor.sqlite3")}, broker.port))
    emulators: list[Any] = []
    real_build = simhw.build_hardware

    def build(**kw: Any) -> Any:
        sources, routes = real_build(**kw)
        emulators.extend(r.emu for r in routes if hasattr(r, "emu"))
        return sources, routes

    monkeypatch.setattr(simhw, "build_hardware", build)
    parser = argparse.ArgumentParser()
    sim_cmd.register(parser)
    args = parser.parse_args(["--hands", str(HANDS), "--seed", "7", "--inject", "0.3", "--table", "t9",
                              "--json", "--drain", "60",
                              "--broker", f"mqtt://sim:{USERS['sim']}@127.0.0.1:{broker.port}"])
    state = tmp_path / "state"
    state.mkdir()
    daemon = Daemon(sim_cmd.build_config(args, state), new_session=True)
    poison: list[int] = []
    done: Counter[str] = Counter()

    async def chaos(sim: asyncio.Task[Any]) -> None:
        actions = ["broker", "floor", "hub"]
        next_at = time.monotonic() + CHAOS_EVERY_S
        while not sim.done():
            await asyncio.sleep(0.05)
            published = daemon.publisher.published if daemon.publisher else 0
            if published // 100 > len(poison):  # one poison per 100 messages the table sent
                try:
                    await publish_poison(broker.port, len(poison))
                    poison.append(len(poison))
                except aiomqtt.MqttError:
                    pass  # the broker is restarting: next round
            if time.monotonic() >= next_at:
                what = actions[sum(done.values()) % len(actions)]
                if what == "broker":
                    await asyncio.to_thread(broker.restart)
                elif what == "floor":
                    await asyncio.to_thread(floor.restart)
                elif emulators:
                    emulators[0].reset()  # the hub reboots: a new boot id, its memory gone
                done[what] += 1
                next_at = time.monotonic() + CHAOS_EVERY_S

    async def main() -> dict[str, Any]:
        sim = asyncio.create_task(sim_cmd._simulate(args, daemon, io.StringIO()))
        await asyncio.gather(sim, chaos(sim))
        return sim.result()

    started = time.monotonic()
    result = asyncio.run(main())
    assert result["hands"] == HANDS and result["unpublished"] == 0, result
    with sqlite3.connect(state / "outbox.sqlite3") as db:  # every alert the daemon raised and sent
        expected = sorted(k.removeprefix("alert:") for (k,) in db.execute(
            "SELECT key FROM messages WHERE key LIKE 'alert:%'"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        alerts, quarantined = floor.query()
        if sorted(alerts) == expected and len(quarantined) >= len(poison):
            break
        time.sleep(0.2)
    floor.stop()
    print(f"\nchaos: {HANDS} hands in {time.monotonic() - started:.0f} s, {result['published']} messages, "
          f"{len(expected)} alerts, disturbances {dict(done)}, poison {len(poison)}, floor ingest "
          f"{floor.svc.ingest.counts if floor.svc else {}}", file=sys.stderr)
    assert done["broker"] and done["floor"] and done["hub"] and poison
    assert emulators and emulators[0].stats.resets == done["hub"]  # the hub really rebooted
    assert sorted(alerts) == expected and len(alerts) == len(set(alerts))  # every alert, exactly once
    assert sorted(json.loads(q)["id"] for q in quarantined) == poison  # exactly the poison messages
