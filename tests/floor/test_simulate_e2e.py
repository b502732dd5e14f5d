"""The real thing end to end: `cardtable simulate --inject` publishes a table through the daemon, the floor
shows it in headless Chromium, and a ruling from the page reaches the table's `cmd/ack`.

Latency here is measured from the moment a subscriber on the broker sees an alert to the moment the page
has drawn it (the simulator runs in fast mode, so its own clock says nothing about wall time).
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.floor.broker import USERS, Broker
from tests.floor.conftest import make_config
from tests.floor.harness import LoopThread, Observer
from tests.floor.test_e2e import _login, _start_service, _stop_service, _wait_alerts

pytestmark = [
    pytest.mark.broker,
    pytest.mark.skipif(importlib.util.find_spec("controller.commands.simulate") is None,
                       reason="`cardtable simulate` is not in this tree (the daemon branch is not merged)"),
]
ROOT = Path(__file__).resolve().parents[2]
HANDS = 200 if os.environ.get("CARDTABLE_FULL") == "1" else 24


@pytest.mark.parametrize("store_section", ["sqlite", "postgres"], indirect=True)
def test_simulated_table_on_the_floor(store_section: dict[str, Any], broker: Broker, browser: Any,
                                      loop: LoopThread, tmp_path: Path) -> None:
    svc = _start_service(loop, make_config(store_section, broker.port))
    alerts = Observer(broker.port, "cardtable/+/alerts")
    acks = Observer(broker.port, "cardtable/t9/cmd/ack")
    hands = Observer(broker.port, "cardtable/t9/hands")
    loop.run(hands.start())
    loop.run(alerts.start())
    loop.run(acks.start())
    page = browser.new_page(viewport={"width": 1600, "height": 900})
    page.set_default_timeout(10000)
    try:
        _login(page, svc.url)
        page.click("#sound")
        url = f"mqtt://sim:{USERS['sim']}@127.0.0.1:{broker.port}"
        sim = subprocess.run(
            [sys.executable, "-m", "controller", "simulate", "--broker", url, "--table", "t9", "--hands",
             str(HANDS), "--inject", "0.4", "--seed", "11", "--json", "--drain", "20"],
            env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path, capture_output=True, text=True,
            timeout=120)
        assert sim.returncode == 0, sim.stderr[-2000:]
        printed = [json.loads(line) for line in sim.stdout.splitlines() if line.startswith("{")]
        expected = [f"t9/{a['id']}" for a in printed if a.get("type") == "alert"]
        summary = next(a for a in printed if a.get("type") == "summary")
        assert expected and summary["hands"] == HANDS

        seen_at = _seen_times(loop, alerts, len(expected))
        shown = _wait_alerts(page, expected, timeout=15)
        lat = sorted(shown[k] / 1000.0 - seen_at[k] for k in expected)
        kind = "postgres" if "dsn" in store_section else "sqlite"
        print(f"\nfloor + simulate [{kind}]: {HANDS} hands, {len(expected)} alerts; broker→page p50 "
              f"{statistics.median(lat) * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms; injected "
              f"{sum(summary['injected'].values())}; floor ingest {svc.ingest.counts}", file=sys.stderr)
        assert lat[-1] < 1.0
        assert loop.run(svc.store.counts())["alerts"] == len(expected)  # every alert once
        page.check("#show-info")  # info alerts (pot awards, showdown order) are behind the toggle
        assert page.locator("#feed li").count() == min(len(expected), 500)  # the feed keeps the newest 500

        # The table at a glance reflects the daemon's retained state and status.
        card = page.locator(".tcard[data-table=t9]")
        page.wait_for_selector(".tcard[data-table=t9] .badge.offline, .tcard[data-table=t9] .badge.online")
        assert f"hand {HANDS}" in card.inner_text()

        # Rule on the latest misdeal or error: the daemon's cmd/ack topic receives it.
        faults = [a for a in printed if a.get("type") == "alert" and a["severity"] in ("misdeal", "error")]
        target = faults[-1]  # the newest: still in the feed however long the run
        page.click(f"#feed li[data-key='t9/{target['id']}']")
        page.fill("#ruling", "Procedure followed as shown")
        page.click("#ack-btn")
        page.wait_for_selector("#acked")
        topic, payload = loop.run(acks.wait_for(1))[0]
        assert topic == "cardtable/t9/cmd/ack" and payload["id"] == target["id"] and payload["by"] == "anna"
        page.wait_for_selector(f"#feed li.acked[data-key='t9/{target['id']}']")

        # Dealer statistics count the simulated hands.
        page.keyboard.press("Escape")
        page.click("#tab-dealers")
        page.wait_for_selector("#stats-dealers")
        n_hands = len(hands.messages)
        hands_col = page.eval_on_selector_all("#stats-dealers tbody tr",
                                              "rs => rs.map(r => r.cells[1].textContent)")
        assert n_hands > 0 and sum(int(h.replace(",", "")) for h in hands_col) == n_hands
        # The daemon's state reached the page with hole cards as counts only.
        seats = page.evaluate("() => window.cardtable.state.tables.get('t9').state.seats")
        assert seats and all(isinstance(s.get("cards", 0), int) and not {"hole", "hole_cards"} & set(s)
                             for s in seats), seats
    finally:
        page.close()
        loop.run(alerts.stop())
        loop.run(hands.stop())
        loop.run(acks.stop())
        loop.run(_stop_service(svc))


def _seen_times(loop: LoopThread, obs: Observer, n: int) -> dict[str, float]:
    """When the observer received each alert (its list is appended in arrival order)."""
    loop.run(obs.wait_for(n, timeout=15))
    return {f"{m['table']}/{m['id']}": t for (_, m), t in zip(obs.messages, obs.times, strict=True)}

