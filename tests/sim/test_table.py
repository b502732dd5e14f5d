"""The virtual table's clean hands: deterministic, valid event logs, cards and chips conserved."""

from __future__ import annotations

import itertools
import time

import pytest

from controller.core.eventlog import dumps_event, parse_line, read_events
from controller.core.events import (
    ActionEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    Exposed,
    HandStart,
    Knock,
    SeatEvent,
)
from controller.core.profiles import PROFILES
from controller.sim import SimHand, VirtualTable
from tests.sim.replay_model import Zones


def _play(n: int, **kw: object) -> list[SimHand]:
    return list(VirtualTable(**kw).hands(n))  # type: ignore[arg-type]


def _lines(hands: list[SimHand]) -> list[str]:
    return [dumps_event(e) for h in hands for e in h.events]


def test_same_seed_same_log_other_seed_other_log() -> None:
    a = _lines(_play(40, seats=6, seed=7))
    b = _lines(_play(40, seats=6, seed=7))
    c = _lines(_play(40, seats=6, seed=8))
    assert a == b
    assert a != c


@pytest.mark.parametrize("use_uids", [True, False])
def test_log_round_trips_through_the_event_log_codec(use_uids: bool) -> None:
    lines = _lines(_play(60, seats=9, seed=3, use_uids=use_uids))
    parsed = [e for _, e in read_events(lines)]  # also checks that time never goes backwards
    assert [dumps_event(e) for e in parsed] == lines
    assert all(parse_line(x) == e for x, e in zip(lines, parsed, strict=True))


def test_time_strictly_increases_and_starts_at_start_t() -> None:
    hands = _play(50, seats=4, seed=2, start_t=1000.0)
    times = [e.t for h in hands for e in h.events]
    assert times[0] > 1000.0
    assert all(b > a for a, b in itertools.pairwise(times))


def test_hand_numbers_count_hand_starts() -> None:
    hands = _play(30, seats=5, seed=4)
    starts = 0
    for h in hands:
        starts += sum(isinstance(e, HandStart) for e in h.events)
        assert h.number == starts


@pytest.mark.parametrize("seats", [2, 3, 6, 9, 10])
def test_cards_are_conserved_and_dealt_two_each_clockwise(seats: int) -> None:
    zones = Zones()
    for h in _play(80, seats=seats, seed=seats):
        hole_order: list[int] = []
        button = None
        for ev in h.events:
            zones.feed(ev)
            if isinstance(ev, HandStart):
                button = ev.button
            if isinstance(ev, CardSeen) and ev.zone.startswith("seat"):
                hole_order.append(int(ev.zone[4:]))
        assert button is not None
        dealt = sorted(set(hole_order))
        n = len(dealt)
        assert hole_order[:n] == hole_order[n:2 * n], "two rounds in the same order"
        first = hole_order[0]
        assert first == min((s for s in dealt if s > button), default=dealt[0]), "first left of button"
        assert len(zones.in_zone("board")) <= 5
        assert len(zones.in_zone("burn")) == {0: 0, 3: 1, 4: 2, 5: 3}[len(zones.in_zone("board"))]
        assert len(zones.where) <= 52


def test_every_burn_follows_a_knock_with_at_least_the_profile_pause() -> None:
    pause = PROFILES["cuca"].knock_pause_s
    for h in _play(100, seats=6, seed=11):
        last_knock = None
        for ev in h.events:
            if isinstance(ev, Knock):
                last_knock = ev.t
            elif isinstance(ev, CardSeen) and ev.zone == "burn":
                assert last_knock is not None and ev.t - last_knock >= pause
                last_knock = None


def test_showdowns_expose_live_hands_and_muck_the_losers() -> None:
    showdowns = 0
    for h in _play(150, seats=6, seed=5):
        exposed = {e.zone for e in h.events if isinstance(e, Exposed)}
        if not exposed:
            continue
        showdowns += 1
        board = [e for e in h.events if isinstance(e, CardSeen) and e.zone == "board"]
        assert len(board) == 5
        mucked_after = {e.zone for e in h.events if isinstance(e, CardGone) and e.t > min(
            x.t for x in h.events if isinstance(x, Exposed))}
        assert mucked_after < exposed  # at least one winner keeps the cards
    assert showdowns > 10


def test_chips_are_conserved_between_seatings() -> None:
    vt = VirtualTable(seats=9, seed=21)
    total = None
    for h in vt.hands(300):
        if any(isinstance(e, SeatEvent) and e.player is not None for e in h.events):
            total = sum(s for s in h.stacks.values())  # fresh table: a new total
        assert sum(h.stacks.values()) == total


def test_busted_players_leave_and_blinds_are_posted_as_chips() -> None:
    left = 0
    for h in _play(200, seats=9, seed=9):
        left += sum(isinstance(e, SeatEvent) and e.player is None for e in h.events)
        chips = [e for e in h.events if isinstance(e, ChipsEvent)]
        first_card = next(e.t for e in h.events if isinstance(e, CardSeen) and e.zone.startswith("seat"))
        assert chips and all(c.t < first_card for c in chips), "blinds go in before the cards"
    assert left > 5


def test_many_all_ins() -> None:
    hands = _play(300, seats=9, seed=13)
    allins = sum(isinstance(e, ActionEvent) and e.action == "allin" for h in hands for e in h.events)
    assert allins >= 60


def test_passive_style_reaches_the_river() -> None:
    for h in _play(30, seats=6, seed=1, style="passive"):
        board = [e for e in h.events if isinstance(e, CardSeen) and e.zone == "board"]
        assert len(board) == 5


def test_generator_is_fast() -> None:
    t0 = time.process_time()  # CPU time: the test machine is shared
    _play(500, seats=9, seed=1)
    rate = 500 / (time.process_time() - t0)
    # ~1,500 hands/s on an idle core; CPU time still inflates when the 2 cores are shared (887 measured
    # at load 4), so the bound catches a 2× slow-down, not the neighbours.
    assert rate > 600, f"{rate:.0f} hands/s"


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="seats"):
        VirtualTable(seats=11)
    with pytest.raises(ValueError, match="inject"):
        VirtualTable(inject=1.5)
    with pytest.raises(ValueError, match="profile"):
        VirtualTable(profile="nope")
