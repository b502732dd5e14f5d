"""Golden scenarios for antes read as chips (`level.ante_chips`) and straddles from the wrong seat, each
played from physical events to settlement: the right posts, an ante not posted, the big-blind or button
ante from the wrong seat, every-seat antes, a short big blind, and the same logs without ante readers."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from controller.core.alerts import Alert
from controller.core.engine import Engine
from controller.core.eventlog import LogError, dumps_event, parse_line
from controller.core.events import CardSeen, ChipsEvent, Event, LevelEvent
from controller.phh import parse_phh
from tests.conformance.oracle import kit_final_stacks
from tests.conformance.test_forced_golden import _ends, _hand, _settle

BB_ANTE = """variant = 'NT'
antes = [0, {ante}, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, {bb_stack}, 1000]
actions = ['d dh p1 AcKd', 'd dh p2 7h2c', 'd dh p3 8s3d', 'p3 cc', 'p1 cc', 'p2 cc', 'd db 4c3c9d',
  'p1 cbr 200', 'p2 f', 'p3 cc', 'd db 5d', 'p1 cc', 'p3 cc', 'd db 9h', 'p1 cc', 'p3 cc', 'p1 sm AcKd',
  'p3 sm 8s3d']
"""


def _text(ante: int = 100, bb_stack: int = 1000, antes: str | None = None) -> str:
    text = BB_ANTE.format(ante=ante, bb_stack=bb_stack)
    return text if antes is None else text.replace(f"antes = [0, {ante}, 0]", antes)


def _with_chips(text: str, pre_deal: list[tuple[int, int]], *, during_deal: Sequence[tuple[int, int]] = (),
                readers: bool = True) -> list[Event]:
    """The imported hand with the level's `ante_chips` set and these chips events instead of the blinds:
    `pre_deal` before the first hole card, `during_deal` after it (seat, bet-zone total)."""
    events = _hand(text)
    out: list[Event] = []
    first_card = next(i for i, e in enumerate(events)
                      if isinstance(e, CardSeen) and e.zone.startswith("seat"))
    for i, ev in enumerate(events):
        if isinstance(ev, LevelEvent):
            ev = dataclasses.replace(ev, ante_chips=readers)
        if isinstance(ev, ChipsEvent) and i < first_card:
            continue  # the importer's blinds: replaced below
        if i == first_card:
            t = events[i - 1].t
            out += [ChipsEvent(t=t + 0.01 * (k + 1), seat=s, amount=a) for k, (s, a) in enumerate(pre_deal)]
            out.append(ev)
            out += [ChipsEvent(t=ev.t + 0.001 * (k + 1), seat=s, amount=a)
                    for k, (s, a) in enumerate(during_deal)]
            continue
        out.append(ev)
    return out


def _codes(faults: list[str]) -> list[str]:
    return [f.split(":")[0] for f in faults]


def test_big_blind_ante_in_as_chips_then_swept_no_alert_settles_as_pokerkit() -> None:
    text = _text()
    summary, faults = _settle(_with_chips(text, [(1, 50), (2, 200), (2, 100)]))
    assert faults == []
    assert _ends(summary) == kit_final_stacks(parse_phh(text)[0])
    # Left in the bet zone (no sweep) is right too.
    summary, faults = _settle(_with_chips(text, [(1, 50), (2, 200)]))
    assert faults == [] and _ends(summary) == kit_final_stacks(parse_phh(text)[0])


def test_big_blind_ante_not_posted_is_alerted_and_the_hand_settles_with_the_ante_taken() -> None:
    text = _text()
    summary, faults = _settle(_with_chips(text, [(1, 50), (2, 100)]))
    assert _codes(faults) == ["ANTE_NOT_POSTED"]
    assert "seat 2 owes 100 on top of its blind 100" in faults[0]
    # The remedy: the ante goes in during the deal; nothing more is said, the ante is dead money.
    summary2, faults2 = _settle(_with_chips(text, [(1, 50), (2, 100)], during_deal=[(2, 200)]))
    assert _codes(faults2) == ["ANTE_NOT_POSTED"]
    for s in (summary, summary2):
        assert _ends(s) == kit_final_stacks(parse_phh(text)[0])
        assert ("post_ante", 2, 100) in [(a["action"], a["seat"], a["added"]) for a in s.payload["actions"]]


def test_alert_carries_remedy_and_rule() -> None:
    engine = Engine()
    alerts = [o for ev in _with_chips(_text(), [(1, 50), (2, 100)]) for o in engine.feed(ev)
              if isinstance(o, Alert) and o.code == "ANTE_NOT_POSTED"]
    assert len(alerts) == 1 and alerts[0].seat == 2
    assert "ante in now" in alerts[0].remedy and "TDA 2024" in alerts[0].rule


@pytest.mark.parametrize("wrong", [(1, 150), (3, 100)], ids=["small-blind-adds-it", "button-posts-it"])
def test_big_blind_ante_from_the_wrong_seat(wrong: tuple[int, int]) -> None:
    text = _text()
    seat, amount = wrong
    sb = [(1, 50)] if seat != 1 else []
    # Not corrected: one alert (the missing big-blind ante is part of it, no second alert).
    summary, faults = _settle(_with_chips(text, [*sb, (seat, amount), (2, 100)]))
    assert _codes(faults) == ["ANTE_WRONG_SEAT"] and f"Seat {seat} put in {amount}" in faults[0]
    assert _ends(summary) == kit_final_stacks(parse_phh(text)[0])  # played as the remedy says
    # Corrected before the deal: the chips go back, the big blind antes. Still only the one alert.
    back = amount - 100
    summary, faults = _settle(_with_chips(text, [*sb, (seat, amount), (seat, back), (2, 200)]))
    assert _codes(faults) == ["ANTE_WRONG_SEAT"]
    assert _ends(summary) == kit_final_stacks(parse_phh(text)[0])


SHORT_BB = """variant = 'NT'
antes = [0, 100, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 150, 1000]
actions = ['d dh p1 7c2d', 'd dh p2 AsAh', 'd dh p3 KsKh', 'p3 cc', 'p1 cc', 'd db 8d9cJs', 'p1 cc',
  'p3 cbr 200', 'p1 cc', 'd db 3h', 'p1 cc', 'p3 cc', 'd db 4c', 'p1 cc', 'p3 cc', 'p3 sm KsKh',
  'p2 sm AsAh', 'p1 sm 7c2d']
"""


def test_short_big_blind_ante_is_what_is_left_after_the_blind() -> None:
    # 150 for a 100 blind and a 100 ante: the blind first, 50 of ante (TDA 2024); all 150 in is right.
    summary, faults = _settle(_with_chips(SHORT_BB, [(1, 50), (2, 150), (2, 100)]))
    assert faults == [] and _ends(summary) == [700, 350, 1100]
    summary, faults = _settle(_with_chips(SHORT_BB, [(1, 50), (2, 100)]))
    assert _codes(faults) == ["ANTE_NOT_POSTED"] and "seat 2 owes 50" in faults[0]
    posts = [(a["action"], a["added"]) for a in summary.payload["actions"] if a["seat"] == 2]
    assert ("post_ante", 50) in posts and ("post_bb", 100) in posts
    assert _ends(summary) == [700, 350, 1100]


def test_every_seat_ante_one_seat_without_ante() -> None:
    text = _text(antes="antes = [25, 25, 25]")
    right = [(1, 75), (2, 125), (3, 25), (1, 50), (2, 100), (3, 0)]  # each antes, the dealer sweeps
    summary, faults = _settle(_with_chips(text, right))
    assert faults == [] and _ends(summary) == kit_final_stacks(parse_phh(text)[0])
    summary, faults = _settle(_with_chips(text, [(1, 75), (2, 125)]))
    assert _codes(faults) == ["ANTE_NOT_POSTED"] and "seat 3 owes 25" in faults[0]
    assert _ends(summary) == kit_final_stacks(parse_phh(text)[0])
    # Nobody anted: one alert naming all three seats.
    summary, faults = _settle(_with_chips(text, [(1, 50), (2, 100)]))
    assert _codes(faults) == ["ANTE_NOT_POSTED"] and "seat 1 owes 25" in faults[0]
    assert "seat 3 owes 25" in faults[0]


def test_button_ante_posted_by_the_big_blind_is_the_wrong_seat() -> None:
    text = _text(antes="antes = [0, 0, 100]")
    summary, faults = _settle(_with_chips(text, [(1, 50), (2, 100), (3, 100)]))
    assert faults == [] and _ends(summary) == kit_final_stacks(parse_phh(text)[0])
    summary, faults = _settle(_with_chips(text, [(1, 50), (2, 200)]))
    assert _codes(faults) == ["ANTE_WRONG_SEAT"] and "button ante is seat 3's" in faults[0]
    assert _ends(summary) == kit_final_stacks(parse_phh(text)[0])


def test_without_ante_readers_the_ante_is_taken_as_posted() -> None:
    # The same chips (blinds only) on a table whose readers do not report antes: no alert, same result.
    text = _text()
    summary, faults = _settle(_with_chips(text, [(1, 50), (2, 100)], readers=False))
    assert faults == [] and _ends(summary) == kit_final_stacks(parse_phh(text)[0])
    # And with ante readers but no chips before the deal at all: taken as a table without readers.
    summary, faults = _settle(_with_chips(text, []))
    assert faults == []


def test_straddle_out_of_turn_corrected_settles_as_pokerkit() -> None:
    text = """variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = ['d dh p1 AcKd', 'd dh p2 7h2c', 'd dh p3 8s3d', 'd dh p4 QsQh', 'p4 cc', 'p1 cc', 'p2 f', 'p3 cc',
  'd db 4c3c9d', 'p1 cc', 'p3 cc', 'p4 cc', 'd db 5d', 'p1 cc', 'p3 cc', 'p4 cc', 'd db 9h', 'p1 cc',
  'p3 cc', 'p4 cc', 'p1 sm AcKd', 'p3 sm 8s3d', 'p4 sm QsQh']
"""
    # Seat 4 (the button) straddles instead of seat 3; the chips go back and seat 3 posts its straddle.
    events = _with_chips(text, [(1, 1), (2, 2), (4, 4), (4, 0), (3, 4)], readers=False)
    summary, faults = _settle(events)
    assert _codes(faults) == ["STRADDLE_OUT_OF_TURN"] and "straddle seat: 3" in faults[0]
    assert _ends(summary) == kit_final_stacks(parse_phh(text)[0])


def test_level_ante_chips_round_trips_and_is_checked() -> None:
    ev = LevelEvent(t=1.0, sb=50, bb=100, ante=100, ante_mode="bb", ante_chips=True)
    assert parse_line(dumps_event(ev)) == ev
    assert "ante_chips" not in dumps_event(dataclasses.replace(ev, ante_chips=False))
    with pytest.raises(LogError, match="ante_chips"):
        parse_line('{"t": 1, "type": "level", "sb": 1, "bb": 2, "ante_chips": 1}')
