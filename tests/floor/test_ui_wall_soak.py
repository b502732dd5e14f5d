"""The wall under a busy room: 16 simulated tables at 30 % fault injection, a floorman ruling now and then,
a table dropping offline and a HEALTH fault; the 1920x1080 wall view is checked every couple of seconds.

Each check pauses the tables, waits until the page has everything the floor service has (same stream
cursor), and then requires: no scrolling, every table card on screen, every open fault either drawn or
counted in the visible "+N more open" line, the first table the one with the worst (then oldest) open fault
by the server's own records, the title count equal to the server's open faults, and no info alert open.
30 s by default (the CI budget); CARDTABLE_FULL=1 runs the 5 minutes of the issue, CARDTABLE_SOAK_S=N
any other length.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from controller.core.catalogue import CATALOGUE
from tests.floor.broker import Broker
from tests.floor.harness import LoopThread
from tests.floor.publisher import state
from tests.floor.test_ui_e2e import _assert_fits, stamped
from tests.floor.uihelp import floor_service, login, sim, watch

pytestmark = pytest.mark.broker

_DEFAULT_S = 300.0 if os.environ.get("CARDTABLE_FULL") == "1" else 30.0
SOAK_S = float(os.environ.get("CARDTABLE_SOAK_S") or _DEFAULT_S)
TABLES = [f"s{i:02d}" for i in range(1, 17)]
INJECT = 0.30
RANK = {"misdeal": 0, "error": 1, "dead_hand": 2, "warning": 3}
FAULT_CODES = sorted(c for c, e in CATALOGUE.items() if e.severity in RANK and c != "HEALTH")
STREETS = ("preflop", "flop", "turn", "river")


class Room:
    """The tables' side: each plays hands (a state per street, a pot award, sometimes a fault)."""

    def __init__(self, pub: Any) -> None:
        self.pub = pub
        self.rng = random.Random(19)
        self.running = asyncio.Event()
        self.running.set()
        self.idle = asyncio.Event()
        self.hands = 0
        self.faults = 0

    async def play(self, stop_at: float) -> None:
        hand = dict.fromkeys(TABLES, 0)
        n = dict.fromkeys(TABLES, 0)
        while time.time() < stop_at:
            self.idle.clear()
            table = self.rng.choice(TABLES)
            hand[table] += 1
            h = hand[table]
            for street in STREETS:
                await self.pub.send(table, "state", state(table, h, street, dealer="D-1"), retain=True)
            if self.rng.random() < INJECT:
                code = self.rng.choice(FAULT_CODES)
                n[table] += 1
                await self.pub.send(table, "alerts", stamped(table, h, n[table], code, time.time()))
                self.faults += 1
            n[table] += 1
            await self.pub.send(
                table, "alerts", stamped(table, h, n[table], "POT_AWARD", time.time(), street="showdown")
            )
            await self.pub.send(table, "hands", {"table": table, "hand": h, "t_start": 0.0, "t_end": 60.0})
            self.hands += 1
            self.idle.set()
            await asyncio.sleep(0.19)  # 16 tables at ~5 hands a second in all: a very busy room, sped up
            await self.running.wait()

    async def pause(self) -> None:
        self.running.clear()
        await self.idle.wait()

    def resume(self) -> None:
        self.running.set()


def expected_first(tables: list[dict[str, Any]], open_alerts: list[dict[str, Any]]) -> set[str]:
    """The tables that may come first, by the server's records: worst open severity (offline or HEALTH
    count as error), then the oldest open fault."""
    oldest: dict[str, float] = {}
    health = set()
    for a in open_alerts:
        t = a["table"]
        oldest[t] = min(oldest.get(t, float("inf")), _when(a))
        health |= {t} if a["code"] == "HEALTH" else set()
    keys = {}
    for t in tables:
        rank = min([RANK[s] for s, k in t["open"].items() if k] or [4])
        if t["status"] == "offline" or t["table"] in health:
            rank = min(rank, RANK["error"])
        keys[t["table"]] = (rank, oldest.get(t["table"], float("inf")))
    best = min(keys.values())
    return {t for t, k in keys.items() if k == best}


def _when(a: dict[str, Any]) -> float:
    from datetime import datetime

    return datetime.fromisoformat(a["ts"].replace("Z", "+00:00")).timestamp()


@pytest.mark.timeout(SOAK_S + 240)  # the soak itself plus start-up; 300 s of soak passed the default
def test_wall_with_16_tables_at_30_percent(
    broker: Broker, browser: Any, loop: LoopThread, tmp_path: Path
) -> None:
    with (
        floor_service(loop, broker, {"sqlite": str(tmp_path / "floor.sqlite3")}) as svc,
        sim(loop, broker) as pub,
    ):
        room = Room(pub)

        async def seed() -> None:
            for t in TABLES:
                await pub.send(t, "status", "online", retain=True)
                await pub.send(t, "state", state(t, 0, "preflop"), retain=True)

        loop.run(seed())
        wall_ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
        wall = wall_ctx.new_page()
        # Generous: the slow step runs this beside whole-room tests on two cores (it timed out at 5 s there
        # at load 8-10); a page that never catches up still fails.
        wall.set_default_timeout(20000)
        seen = watch(wall)
        floor_ctx = browser.new_context()
        floorman = floor_ctx.new_page()
        try:
            wall.goto(svc.url + "/?wall=1")
            wall.wait_for_function("() => window.cardtable.snapshots >= 1")
            login(floorman, svc.url, "anna")
            csrf = floorman.locator('meta[name="csrf"]').get_attribute("content")
            requests_before = len(seen["requests"])
            stop_at = time.time() + SOAK_S
            player = asyncio.run_coroutine_threadsafe(room.play(stop_at), loop.loop)
            checks = max_open = rulings = 0
            while time.time() < stop_at - 1:
                time.sleep(2.0)
                checks += 1
                event = _room_event(loop, pub, checks)
                loop.run(room.pause())
                try:
                    max_open = max(max_open, _check(wall, svc, loop))
                    if checks % 3 == 0:  # the floorman rules the oldest open fault
                        rulings += _rule_oldest(floorman, svc, csrf)
                finally:
                    room.resume()
                if event:
                    print(event, file=sys.stderr)
            player.result(30)
            loop.run(room.pause())
            _check(wall, svc, loop)
            assert seen["requests"][requests_before:] == []  # one stream: no request per alert
            assert seen["errors"] == [], seen["errors"]
            print(
                f"\nwall soak: {SOAK_S:.0f} s, 16 tables, {room.hands} hands, {room.faults} faults injected, "
                f"{checks} checks, up to {max_open} open at once, {rulings} rulings",
                file=sys.stderr,
            )
            assert room.faults > 0.2 * room.hands and checks >= SOAK_S / 3
        finally:
            wall_ctx.close()
            floor_ctx.close()


def _room_event(loop: LoopThread, pub: Any, n: int) -> str:
    """Now and then a table goes offline (and back), or raises a HEALTH fault."""
    if n % 7 == 3:
        loop.run(pub.send("s05", "status", "offline", retain=True))
        return "s05 offline"
    if n % 7 == 5:
        loop.run(pub.send("s05", "status", "online", retain=True))
        return "s05 online"
    if n % 11 == 6:
        loop.run(
            pub.send(
                "s11",
                "alerts",
                stamped("s11", 999, 900 + n, "HEALTH", time.time(), message="reader hub A down"),
            )
        )
        return "s11 HEALTH"
    return ""


def _check(wall: Any, svc: Any, loop: LoopThread) -> int:
    async def server() -> tuple[tuple[int, int], list[dict[str, Any]], list[dict[str, Any]]]:
        await asyncio.sleep(0.05)
        from controller.floor.store import Filters

        return (
            await svc.store.cursor(),
            await svc.ingest.tables(),
            await svc.store.history(Filters(status="open", limit=5000)),
        )

    cursor, tables, open_alerts = loop.run(server())
    wall.wait_for_function(
        "c => window.cardtable.state.cursor === c", arg=f"{cursor[0]}.{cursor[1]}", timeout=20000
    )
    wall.wait_for_timeout(80)  # the batched redraw (at most 25 ms) has happened
    assert all(a["severity"] != "info" for a in open_alerts)
    n_open = len(open_alerts)
    assert sum(sum(t["open"].values()) for t in tables) == n_open
    assert (
        wall.evaluate("() => Object.values(window.cardtable.openCounts()).reduce((a, b) => a + b, 0)")
        == n_open
    )
    title = wall.title()
    assert title.startswith(f"({n_open}) ") if n_open else title == "cardtable floor", (title, n_open)
    _assert_fits(wall, 16)
    drawn = wall.locator("#feed li.pinned:not(.overflow)").count()
    hidden = wall.locator("#feed li.pinned.overflow").count()
    assert drawn + hidden == n_open and wall.locator("#feed li.info.pinned").count() == 0
    if hidden:
        assert wall.locator("#more-open").is_visible()
        assert wall.locator("#more-open").inner_text() == f"+{hidden} more open"
    first = wall.evaluate("() => window.cardtable.tableOrder()[0]")
    assert first in expected_first(tables, open_alerts), (first, expected_first(tables, open_alerts))
    return n_open


def _rule_oldest(page: Any, svc: Any, csrf: str) -> int:
    rows = page.request.get(svc.url + "/api/alerts?status=open&limit=5000").json()
    if not rows:
        return 0
    oldest = min(rows, key=_when)
    r = page.request.post(
        svc.url + "/api/ack",
        headers={"X-CSRF-Token": csrf},
        data={"table": oldest["table"], "id": oldest["id"], "ruling": "Remedy applied as shown"},
    )
    assert r.ok, r.text()
    return 1
