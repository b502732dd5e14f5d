"""The terminal view (never a live hole card) and the score of alerts against injected errors."""

from __future__ import annotations

from controller.core.alerts import Alert
from controller.core.engine import Engine
from controller.core.events import CardSeen, Exposed, HandStart
from controller.sim import VirtualTable
from controller.sim.score import score
from controller.sim.view import render


def _alert(t: float, code: str, severity: str = "error", hand: int = 1) -> Alert:
    return Alert(id=f"t1-h{hand}-{t}", t=t, table="t1", hand=hand, code=code, severity=severity,  # type: ignore[arg-type]
                 street="flop", seat=None, cards=(), message="m", remedy="r", rule="x")


def test_view_never_shows_live_hole_cards_and_marks_the_seat_to_act() -> None:
    vt = VirtualTable(seats=6, seed=12, use_uids=False, style="passive")
    engine = Engine()
    alerts: list[Alert] = []
    hole: set[str] = set()
    shown: set[str] = set()
    frames = 0
    for hand in vt.hands(3):
        for ev in hand.events:
            alerts += [o for o in engine.feed(ev) if isinstance(o, Alert)]
            if isinstance(ev, HandStart):
                hole, shown = set(), set()
            if isinstance(ev, CardSeen) and ev.zone.startswith("seat") and ev.card:
                hole.add(ev.card)
            if isinstance(ev, Exposed) and ev.card:
                shown.add(ev.card)
            text = render(engine.public_state(), alerts)
            frames += 1
            for card in hole - shown:
                assert f" {card}" not in text.split("alerts:")[0], f"{card} visible:\n{text}"
            state = engine.public_state()
            if state.get("to_act") is not None:
                assert f">{state['to_act']:>3}" in text
    assert frames > 100
    assert "board [" in text and "hand 3" in text


def test_view_lists_the_last_alerts() -> None:
    state = {"table": "t1", "hand": 4, "street": "turn", "button": 2, "blinds": {"sb": 50, "bb": 100},
             "pots": [{"amount": 1200}], "board": ["Ah", "Kd", "7c", "2s"], "to_act": 3,
             "seats": [{"seat": 3, "player": "Cleo", "stack": 5000, "bet": 0, "status": "live", "cards": 2}]}
    alerts = [_alert(float(i), f"CODE_{i}") for i in range(10)]
    text = render(state, alerts, limit=3)
    assert "CODE_9" in text and "CODE_7" in text and "CODE_6" not in text
    assert "[Ah] [Kd] [7c] [2s] [  ]" in text and "pot 1,200" in text and "####" in text


def test_score_counts_detected_missed_and_false_alerts() -> None:
    hands = list(VirtualTable(seats=6, seed=1, inject=1.0, faults=("KNOCK_MISSING",)).hands(4))
    assert all(h.injected == "KNOCK_MISSING" for h in hands)
    mid = [(h.events[0].t + h.events[-1].t) / 2 for h in hands]
    alerts = [_alert(mid[0], "KNOCK_MISSING", "warning"),  # detected
              _alert(mid[1], "BURN_EXTRA"),  # a false alert, and hand 2 is missed
              _alert(hands[3].events[0].t, "KNOCK_MISSING", "warning"),  # at the start of hand 4
              _alert(mid[2], "POT_AWARD", "info")]  # info alerts are never false alerts
    sc = score(hands, alerts)
    assert sc.injected["KNOCK_MISSING"] == 4
    assert sc.detected["KNOCK_MISSING"] == 2 and sc.missed["KNOCK_MISSING"] == 2
    assert sc.false_alerts == {"BURN_EXTRA": 1} and not sc.clean_faults
    assert sc.alerts["POT_AWARD"] == 1 and not sc.all_detected
    assert "KNOCK_MISSING" in sc.summary() and "total" in sc.summary()


def test_score_late_alert_at_the_next_hand_start_counts_for_the_earlier_hand() -> None:
    hands = list(VirtualTable(seats=6, seed=1, inject=1.0, faults=("KNOCK_MISSING",)).hands(2))
    boundary = hands[1].events[0].t
    sc = score(hands, [_alert(boundary, "KNOCK_MISSING", "warning")])
    assert sc.detected["KNOCK_MISSING"] == 1 and not sc.false_alerts


def test_score_of_clean_hands_counts_fault_alerts_there() -> None:
    hands = list(VirtualTable(seats=6, seed=1).hands(3))
    sc = score(hands, [_alert(hands[1].events[3].t, "TURN_PREMATURE")])
    assert sc.clean_hands == 3 and sc.clean_faults == {"TURN_PREMATURE": 1}


def test_score_end_to_end_with_the_engine() -> None:
    vt = VirtualTable(seats=6, seed=5, inject=1.0, faults=("BURN_MISSING_TURN", "KNOCK_MISSING",
                                                            "RIVER_PREMATURE", "CARD_MISSING"),
                      style="passive")
    hands = list(vt.hands(20))
    engine = Engine()
    alerts = [o for h in hands for e in h.events for o in engine.feed(e) if isinstance(o, Alert)]
    alerts += [o for o in engine.finish(vt.t + 1.0) if isinstance(o, Alert)]  # the last hand's end
    sc = score(hands, alerts)
    assert sc.injected["CARD_MISSING"] >= 3  # reported at the next hand_start
    assert sum(sc.injected.values()) == 20 and sc.all_detected, sc.summary()
