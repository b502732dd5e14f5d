"""A four-card flop in an all-in runout: with no flop action possible it is still a flop error, not a turn."""

from __future__ import annotations

import pytest

from controller.core.alerts import FAULT_SEVERITIES, Alert
from controller.core.engine import Engine
from controller.core.events import HandStart, SeatEvent
from controller.core.profiles import PROFILES, get_profile
from controller.sim.table import VirtualTable


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_four_card_flop_in_a_runout_is_corrected_per_profile(profile: str) -> None:
    # Heads-up with 1-3 big blinds: most hands are all-in preflop, so the board is run out.
    vt = VirtualTable(seats=2, seed=5, inject=1.0, profile=profile, faults=("FLOP_TOO_MANY_CARDS",),
                      min_stack_bb=1, max_stack_bb=3)
    engine = Engine(profile=get_profile(profile), strict=True)
    want: dict[int, int] = {}
    checked = 0
    for hand in vt.hands(40):
        codes: list[str] = []
        for ev in hand.events:
            if isinstance(ev, SeatEvent):
                want[ev.seat] = ev.stack
            codes += [o.code for o in engine.feed(ev)
                      if isinstance(o, Alert) and (o.severity in FAULT_SEVERITIES or o.code == hand.injected)]
            if isinstance(ev, HandStart) and want:  # the previous hand is settled at this hand_start
                got = {s: i.stack for s, i in engine.seats.seats.items()}
                assert got == {s: v for s, v in want.items() if v > 0}, f"stacks before hand {hand.number}"
        want = dict(hand.stacks)
        if hand.injected == "FLOP_TOO_MANY_CARDS":
            checked += 1
            assert "FLOP_TOO_MANY_CARDS" in codes, f"hand {hand.number}: {codes}"
            assert set(codes) <= {"FLOP_TOO_MANY_CARDS", *hand.also}, f"hand {hand.number}: {codes}"
    assert checked >= 5
