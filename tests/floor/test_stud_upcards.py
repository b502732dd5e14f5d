"""The floor shows a stud hand's up-cards, never the down-cards of a live hand (issue 13, Build 6).

Three layers: the engine's public state (controller/core/state.py) lists each seat's up-cards and nothing
of its down-cards while the hand is live; the floor's ingest keeps them; the page draws a back for each
down-card and the faces of the up-cards.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.core.engine import Engine
from controller.core.events import CardSeen, Exposed, HandStart
from controller.core.state import LIVE
from controller.floor.ingest import public_state as floor_state
from controller.sim import VirtualTable

STATIC = Path(__file__).resolve().parents[2] / "controller" / "floor" / "static"


def test_engine_state_shows_up_cards_and_never_a_live_down_card() -> None:
    engine = Engine(table="s1")
    shown_up = 0
    for hand in VirtualTable(seats=5, seed=4, game="stud", use_uids=False).hands(25):
        up: set[str] = set()
        down: set[str] = set()
        for ev in hand.events:
            engine.feed(ev)
            if isinstance(ev, HandStart):
                up, down = set(), set()
            elif isinstance(ev, CardSeen) and ev.zone.startswith("seat") and ev.card:
                down.add(ev.card)
            elif isinstance(ev, Exposed) and ev.card:
                down.discard(ev.card)
                up.add(ev.card)
            state = engine.public_state()
            if engine.current.phase not in LIVE:
                continue
            text = json.dumps(state)
            assert not [c for c in down if f'"{c}"' in text], (hand.number, ev)
            for seat in state["seats"]:
                assert set(seat.get("up", [])) <= up
                shown_up += len(seat.get("up", []))
    assert shown_up > 500


def test_floor_ingest_keeps_up_cards_and_drops_hole_cards() -> None:
    seat = {"seat": 3, "cards": 4, "up": ["Kd", "7s"], "hole_cards": ["2c", "9h"], "status": "live"}
    clean = floor_state({"seats": [seat]})
    assert clean["seats"] == [{"seat": 3, "cards": 4, "up": ["Kd", "7s"], "status": "live"}]


def test_page_draws_backs_for_down_cards_and_faces_for_up_cards(browser: Any) -> None:
    page = browser.new_page()
    try:
        metas = "".join(f'<meta name="{k}" content="{v}">' for k, v in
                        (("csrf", "x"), ("role", "floor"), ("wall", "0"), ("reminder", "0")))
        page.set_content(f"<html><head>{metas}</head><body></body></html>")
        page.add_script_tag(content=(STATIC / "common.js").read_text(encoding="utf-8"))
        page.add_script_tag(content=(STATIC / "floor.js").read_text(encoding="utf-8"))
        live = {"seat": 2, "status": "live", "cards": 5, "up": ["Kd", "7s", "Ah"]}
        html = page.evaluate("s => holeEl(s).outerHTML", live)
        assert html.count("card back") == 2 and "K♦" in html and "7♠" in html and "A♥" in html
        folded = {**live, "status": "folded"}
        assert page.evaluate("s => holeEl(s) === null || holeEl(s).outerHTML === ''", folded)
        holdem = {"seat": 1, "status": "live", "cards": 2}
        assert page.evaluate("s => holeEl(s).outerHTML", holdem).count("card back") == 2
    finally:
        page.close()
