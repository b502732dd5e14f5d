"""Alert bursts from many tables into one open page: every alert arrives, within 1 s, none twice.

Default: 4 tables × 25 alerts at ~100 alerts/s on SQLite. CARDTABLE_FULL=1: 10 tables × 300 alerts at
~200 alerts/s on SQLite and PostgreSQL (the figures in docs/floor.md come from that run).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.floor.broker import Broker
from tests.floor.conftest import make_config
from tests.floor.harness import LoopThread
from tests.floor.publisher import Publisher, alert
from tests.floor.test_e2e import _login, _start_service

pytestmark = pytest.mark.broker
FULL = os.environ.get("CARDTABLE_FULL") == "1"
TABLES, PER_TABLE, RATE = (10, 300, 200.0) if FULL else (4, 25, 100.0)
CODES = ("KNOCK_MISSING", "BURN_MISSING_TURN", "MISDEAL_CALLED", "ACTION_OUT_OF_TURN", "POT_AWARD",
         "FLOP_PREMATURE", "HOLE_CARD_IN_MUCK", "BET_BELOW_MINIMUM")


def _backends() -> list[str]:
    return ["sqlite", "postgres"] if FULL else ["sqlite"]


@pytest.mark.parametrize("store_section", _backends(), indirect=True)
def test_burst_from_many_tables(store_section: dict[str, Any], broker: Broker, browser: Any,
                                loop: LoopThread) -> None:
    svc = _start_service(loop, make_config(store_section, broker.port))
    tables = tuple(f"t{i}" for i in range(1, TABLES + 1))
    pub = Publisher(broker.port, tables=tables)
    loop.run(_connect_as_sim(pub))  # broker users exist for t1..t3; `sim` may publish for any table
    page = browser.new_page()
    page.set_default_timeout(10000)
    try:
        _login(page, svc.url)

        async def burst() -> dict[str, float]:
            sent: dict[str, float] = {}
            gap = 1.0 / RATE
            start = time.monotonic()
            for n in range(PER_TABLE):
                for i, t in enumerate(tables):
                    a = alert(t, n + 1, i + 1, CODES[(n + i) % len(CODES)])
                    sent[f"{t}/{a['id']}"] = await pub.alert(a)
                    k = len(sent)
                    await asyncio.sleep(max(0.0, start + k * gap - time.monotonic()))  # paced, not bunched
            return sent

        t0 = time.monotonic()
        sent = loop.run(burst(), timeout=120)
        spent = time.monotonic() - t0
        page.wait_for_function("n => Object.keys(window.cardtable.shown).length >= n", arg=len(sent),
                               timeout=30000)
        arrivals: dict[str, float] = page.evaluate("() => window.cardtable.shown")  # drawn in the feed
        assert set(arrivals) == set(sent)  # every alert, and nothing else
        lat = sorted(arrivals[k] / 1000.0 - t for k, t in sent.items())
        p99 = lat[int(0.99 * (len(lat) - 1))]
        kind = "postgres" if "dsn" in store_section else "sqlite"
        print(f"\nfloor load [{kind}]: {len(sent)} alerts from {TABLES} tables at {len(sent) / spent:.0f}/s; "
              f"publish→page p50 {statistics.median(lat) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
              f"max {lat[-1] * 1000:.1f} ms", file=sys.stderr)
        assert lat[-1] < 1.0
        assert loop.run(svc.store.counts())["alerts"] == len(sent)
        page.check("#show-info")  # info alerts (pot awards) are behind the toggle
        assert page.locator("#feed li").count() == min(len(sent), 500)  # the page shows the newest 500
    finally:
        page.close()
        loop.run(pub.__aexit__(None, None, None))
        loop.run(svc.stop())


async def _connect_as_sim(pub: Publisher) -> None:
    import aiomqtt

    from tests.floor.broker import USERS

    for t in pub.tables:
        c = aiomqtt.Client("127.0.0.1", pub.port, username="sim", password=USERS["sim"],
                           identifier=f"sim-{t}")
        await c.__aenter__()
        pub.clients[t] = c


def test_alerts_in_the_snapshot_count_as_shown(broker: Broker, browser: Any, loop: LoopThread,
                                               tmp_path: Path) -> None:
    """An alert that reached the store before the page's snapshot is drawn from the snapshot; its live
    event is then a duplicate. The page must still record it as shown (the likely reason the CI burst
    test timed out: the first alerts of a burst raced the snapshot)."""
    svc = _start_service(loop, make_config({"sqlite": str(tmp_path / "floor.sqlite3")}, broker.port))
    pub = Publisher(broker.port)
    page = browser.new_page()
    page.set_default_timeout(5000)
    try:
        async def before() -> list[str]:
            await pub.__aenter__()
            keys = []
            for n in range(1, 6):
                a = alert("t1", 7, n, CODES[n])
                await pub.alert(a)
                keys.append(f"t1/{a['id']}")
            for _ in range(250):  # until the floor has stored them all
                if (await svc.store.counts())["alerts"] == len(keys):
                    break
                await asyncio.sleep(0.02)
            return keys

        keys = loop.run(before())
        _login(page, svc.url)
        shown: dict[str, float] = page.evaluate("() => window.cardtable.shown")
        assert set(shown) == set(keys)
        page.check("#show-info")  # info alerts (pot awards) are behind the toggle
        assert page.locator("#feed li").count() == len(keys)
    finally:
        page.close()
        loop.run(pub.__aexit__(None, None, None))
        loop.run(svc.stop())
