"""The hand's explicit transition table: every (phase, event kind) pair is handled or an irregularity."""

from __future__ import annotations

import pytest

from controller.core.betting import BettingRound
from controller.core.events import (
    ActionEvent,
    BoardCountEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    ConsoleEvent,
    Event,
    Exposed,
    Knock,
)
from controller.core.hand import KINDS, PHASES, TRANSITIONS, Hand
from controller.core.profiles import get_profile
from controller.core.table import Level, Positions
from controller.core.zones import Zones


def sample(kind: str) -> tuple[Event, str | None]:
    """One event of each kind, as the engine would dispatch it."""
    zone = {"hole": "seat2", "board": "board", "burn": "burn", "muck": "muck", "deck": "deck"}
    if kind in zone:
        return CardSeen(t=5.0, zone=zone[kind], card="9d"), "9d"
    return {
        "gone": (CardGone(t=5.0, zone="board", card="9d"), "9d"),
        "exposed": (Exposed(t=5.0, zone="board", card="9d"), "9d"),
        "knock": (Knock(t=5.0), None),
        "action": (ActionEvent(t=5.0, seat=2, action="check"), None),
        "chips": (ChipsEvent(t=5.0, seat=2, amount=0), None),
        "board_count": (BoardCountEvent(t=5.0, zone="board", count=3), None),
        "misdeal": (ConsoleEvent(t=5.0, button="misdeal"), None),
        "clock": (ConsoleEvent(t=5.0, button="clock"), None),
    }[kind]


def hand_in(phase: str) -> Hand:
    pos = Positions(button=1, sb_pos=2, sb_seat=2, bb_seat=3, heads_up=False)
    hand = Hand(number=1, t=0.0, table="t1", profile=get_profile("cuca"), zones=Zones(), positions=pos,
                level=Level(sb=50, bb=100), dealt_in=(2, 3, 1), players={1: "A", 2: "B", 3: "C"},
                stacks={1: 1000, 2: 1000, 3: 1000}, absent=set(), round_factory=BettingRound,
                showdown_factory=None)
    hand.phase = phase
    return hand


def test_every_handler_named_in_the_table_exists() -> None:
    for (phase, kind), name in TRANSITIONS.items():
        assert phase in PHASES and kind in KINDS, (phase, kind)
        assert callable(getattr(Hand, name, None)), name


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("kind", KINDS)
def test_missing_pair_is_an_irregularity_naming_both(phase: str, kind: str) -> None:
    if (phase, kind) in TRANSITIONS:
        return
    ev, card = sample(kind)
    findings = hand_in(phase).dispatch(kind, ev, card)
    assert [f.code for f in findings] == ["BAD_EVENT"]
    assert f"{phase}/{kind}" in findings[0].message


def test_table_covers_the_pairs_a_table_produces() -> None:
    # Cards, knocks and camera counts can arrive in any phase; only betting and console buttons that
    # need a betting round (clock) or a live hand (misdeal) are left out.
    missing = {(p, k) for p in PHASES for k in KINDS} - set(TRANSITIONS)
    assert {k for _, k in missing} <= {"action", "misdeal", "clock"}
    assert (SHOWDOWN := "showdown", "misdeal") in missing
    # Actions after betting (a refused raise's call repeated) and while the street's cards are due
    # (the table moved on) are handled: a physically possible action is never BAD_EVENT by phase alone.
    assert {(SHOWDOWN, "action"), ("ended", "action"), ("due", "action")} <= set(TRANSITIONS)
