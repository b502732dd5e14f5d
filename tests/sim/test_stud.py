"""The stud and mixed virtual table: the physical procedure of 002 and §1a, checked on the logs."""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from pathlib import Path

import pytest

from controller.core.eventlog import dumps_event, read_events
from controller.core.events import ActionEvent, CardSeen, Exposed, HandStart, LevelEvent, SeatEvent
from controller.sim import VirtualTable
from controller.sim.limits import CAP_RAISES
from controller.sim.stud import bring_in_seat, first_to_act, showing_value
from controller.sim.studfaults import NOT_FIXED, STUD_FAULTS
from controller.sim.table import SimHand
from tests.sim.replay_model import Zones

ROOT = Path(__file__).resolve().parents[2]


def _hands(game: str = "stud", n: int = 60, seed: int = 5, seats: int = 7, **kw: object) -> list[SimHand]:
    return list(VirtualTable(seats=seats, seed=seed, game=game, use_uids=False, **kw).hands(n))  # type: ignore[arg-type]


def test_bring_in_is_the_lowest_up_card_ties_by_suit() -> None:
    assert bring_in_seat({1: "5h", 2: "2s", 3: "2c", 4: "Ad"}) == 3  # clubs lowest (002 §3)
    assert bring_in_seat({1: "2d", 2: "2h"}) == 1
    assert bring_in_seat({1: "Kd", 2: "Ks"}, high=True) == 2  # pot-/no-limit: highest


def test_highest_showing_hand_acts_first_ties_nearest_the_dealers_left() -> None:
    assert showing_value(["9c", "9d"]) > showing_value(["Ac", "Kd"])
    assert showing_value(["9c", "9d", "2s", "2h"]) > showing_value(["Ac", "Ad", "Ks", "Qh"])
    assert first_to_act({2: ["Kc", "7d"], 4: ["Kh", "7s"], 6: ["Qc", "Qd"]}, [2, 4, 6]) == 6
    assert first_to_act({2: ["Kc", "7d"], 4: ["Kh", "7s"]}, [2, 4]) == 2  # equal: the earlier seat


def test_same_seed_same_stud_hands() -> None:
    a = [e for h in _hands(n=15) for e in h.events]
    b = [e for h in _hands(n=15) for e in h.events]
    assert a == b


def test_stud_deal_plan_up_cards_and_bring_in() -> None:
    """2 down + 1 up from the lowest seat, 4th–6th up, 7th down; the bring-in by the lowest up-card."""
    streets_seen = Counter[int]()
    for hand in _hands(n=80):
        starts = [i for i, e in enumerate(hand.events) if isinstance(e, HandStart)]
        assert starts and hand.events[starts[0]].button is None  # type: ignore[union-attr]
        ev = hand.events[starts[0]:]
        cards = [e for e in ev if isinstance(e, CardSeen) and e.zone.startswith("seat")]
        first_act = next(i for i, e in enumerate(ev) if isinstance(e, ActionEvent))
        dealt_up = {e.card for e in ev[:first_act] if isinstance(e, Exposed)}
        exposed = {e.card for e in ev if isinstance(e, Exposed)}
        seats = sorted({int(e.zone[4:]) for e in cards})
        n = len(seats)
        first3 = cards[:3 * n]
        assert [int(e.zone[4:]) for e in first3] == seats * 3  # one at a time, from the dealer's left
        assert all((e.card in dealt_up) == (i >= 2 * n) for i, e in enumerate(first3))
        ups = {int(e.zone[4:]): e.card for e in first3[2 * n:]}
        acts = [e for e in ev if isinstance(e, ActionEvent)]
        assert acts[0].action == "bet" and acts[0].seat == bring_in_seat(ups)  # type: ignore[arg-type]
        per_seat = Counter(int(e.zone[4:]) for e in cards)
        for seat, k in per_seat.items():
            streets_seen[k] += 1
            seat_cards = [e.card for e in cards if e.zone == f"seat{seat}"]
            if k == 7:  # 7th street face down until the showdown exposes it
                last = seat_cards[6]
                i_last = next(i for i, e in enumerate(ev) if isinstance(e, CardSeen) and e.card == last)
                assert not any(isinstance(e, Exposed) and e.card == last
                               for e in ev[i_last + 1:i_last + 2])
            for c in seat_cards[3:6]:
                assert c in exposed  # 4th–6th face up
    assert streets_seen[7] > 10 and streets_seen[3] > 10


def test_fixed_limit_amounts_and_cap() -> None:
    """Every bet and raise is one fixed step (the bring-in below it), at most a bet and three raises
    per round, and showdown-style players hit the cap."""
    small = 0
    capped = 0
    for hand in _hands(n=150, style="showdown"):
        step_count = 0
        for e in hand.events:
            if isinstance(e, LevelEvent):
                small = e.small_bet
            if isinstance(e, CardSeen) and e.zone.startswith("seat"):
                step_count = 0
            if isinstance(e, ActionEvent) and e.action in ("bet", "raise") and e.amount is not None:
                if e.amount < small:
                    continue  # the bring-in
                assert e.amount % small == 0
                step_count += 1
                assert step_count <= CAP_RAISES + 1
                capped += step_count == CAP_RAISES + 1
    assert capped > 0


@pytest.mark.parametrize("game", ["stud", "mixed"])
def test_cards_and_chips_are_conserved(game: str) -> None:
    """No card is in two places or appears from nowhere; between fresh tables the chips stay constant."""
    zones = Zones()
    before: int | None = None
    checked = 0
    for hand in VirtualTable(seats=7, seed=11, game=game, use_uids=True).hands(150):
        zones.feed_all(hand.events)
        assert not zones.doubled and not zones.foreign
        reseated = any(isinstance(e, SeatEvent) and e.player is not None for e in hand.events)
        total = sum(hand.stacks.values())
        if before is not None and not reseated:
            assert total == before
            checked += 1
        before = total
    assert checked > 100


def test_mixed_rotates_limit_holdem_and_stud() -> None:
    hands = _hands("mixed", n=40, rotate=5)
    games = [next(e.game for e in h.events if isinstance(e, HandStart)) for h in hands]
    assert games[:5] == ["holdem"] * 5 and games[5:10] == ["stud7"] * 5
    levels = [e for h in hands for e in h.events if isinstance(e, LevelEvent)]
    assert {(lv.game, lv.limit) for lv in levels} == {("holdem", "fixed"), ("stud7", "fixed")}


def test_stud_refuses_more_than_seven_seats() -> None:
    with pytest.raises(ValueError, match="at most 7"):
        VirtualTable(seats=9, game="stud")


@pytest.mark.parametrize("kind", sorted(STUD_FAULTS))
def test_every_stud_fault_fires_with_a_valid_log(kind: str) -> None:
    limit = "pot" if kind in NOT_FIXED else "fixed"  # a string bet needs room above the wager
    vt = VirtualTable(seats=6, seed=3, inject=1.0, faults=(kind,), game="stud", use_uids=True, limit=limit)
    hands = list(vt.hands(25))
    fired = [h for h in hands if h.injected == STUD_FAULTS[kind].code]
    assert len(fired) >= 3, f"{kind} fired {len(fired)} times in 25 hands"
    zones = Zones()
    for h in hands:
        zones.feed_all(h.events)
        assert not zones.doubled and not zones.foreign
    lines = [dumps_event(e) for h in hands for e in h.events]
    times = [e.t for _, e in read_events(lines)]
    assert all(b > a for a, b in itertools.pairwise(times))


def test_stud_bench_rows() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("stud_bench", ROOT / "bench" / "stud_bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["stud_bench"] = bench  # its dataclass needs its module registered
    spec.loader.exec_module(bench)
    rows = bench.run(hands=12, seats=4, runs=1, seed=2)
    assert [r.game for r in rows] == ["stud", "limit hold'em", "no-limit hold'em"]
    assert all(r.seconds > 0 and r.events > 0 for r in rows)
    assert rows[0].events > rows[2].events  # seven cards a seat: more events per stud hand
    assert "vs NLHE" in bench.table(rows)
