"""The minimum raise over a straddle: the straddle again (a raise to 8 over a 4 straddle), as card rooms
play it; PokerKit allows a raise to 6. A deliberate difference (docs/phh.md "Forced bets"): the engine
flags a raise to 6, and PHH import refuses a hand that records one instead of settling it otherwise."""

from __future__ import annotations

import pytest
from pokerkit import HandHistory

from controller.core.alerts import Alert
from controller.core.engine import Engine
from controller.core.events import ActionEvent
from controller.phh import PhhError, parse_phh
from controller.phh.importer import hands_to_events
from tests.conformance.oracle import kit_final_stacks
from tests.conformance.test_forced_golden import _ends, _hand, _settle

P4_ACTS = "'p1 cc', 'p3 cc', 'p4 cc'"
HAND = """variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 2
starting_stacks = [100, 100, 100, {p4}]
actions = ['d dh p1 AcKd', 'd dh p2 7h2h', 'd dh p3 8s3d', 'd dh p4 QsQh', 'p4 cbr {to}', 'p1 cc', 'p2 f',
  'p3 cc', 'd db 2d3c4c', {street}, 'd db 5d', {street}, 'd db 9h', {street}, 'p1 sm AcKd', 'p3 sm 8s3d',
  'p4 sm QsQh']
"""


def test_pokerkit_allows_a_raise_to_6_over_a_4_straddle() -> None:
    text = HAND.format(p4=100, to=6, street=P4_ACTS)
    state = next(s for s in HandHistory.loads(text) if s.actor_index == 3)
    assert state.min_completion_betting_or_raising_to_amount == 6


def test_the_engine_takes_8_as_the_minimum() -> None:
    events = _hand(HAND.format(p4=100, to=8, street=P4_ACTS))
    i = next(k for k, e in enumerate(events) if isinstance(e, ActionEvent))
    short = [*events[:i], ActionEvent(t=events[i].t, seat=events[i].seat, action="raise", amount=6)]
    engine = Engine()
    alerts = [o for ev in short for o in engine.feed(ev) if isinstance(o, Alert)]
    assert [a.code for a in alerts] == ["BET_BELOW_MINIMUM"] and "minimum of 8" in alerts[0].message


def test_import_refuses_a_recorded_raise_below_the_tables_minimum() -> None:
    with pytest.raises(PhhError, match="raise to 6 over a straddle of 4: the table's minimum raise is to 8"):
        hands_to_events(parse_phh(HAND.format(p4=100, to=6, street=P4_ACTS)))


@pytest.mark.parametrize(("p4", "to"), [(100, 8), (6, 6)], ids=["full-raise", "all-in-short"])
def test_a_full_raise_or_a_short_all_in_settles_as_pokerkit(p4: int, to: int) -> None:
    text = HAND.format(p4=p4, to=to, street=P4_ACTS if p4 > to else "'p1 cc', 'p3 cc'")
    summary, faults = _settle(_hand(text))
    assert faults == [] and _ends(summary) == kit_final_stacks(parse_phh(text)[0])
