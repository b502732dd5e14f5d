"""The simulator plays fixed-limit and pot-limit hold'em, and pot- and no-limit stud; the core follows every
hand (issue 13).

The simulator's betting round (controller/sim/rounds.py) is its own code: fixed limit bets the big blind
preflop and flop and twice it on turn and river, a bet and three raises at most; pot limit raises at most
the pot after the call. With errors injected the core must detect every one, raise no false alert and
follow every hand to the simulator's stacks.
"""

from __future__ import annotations

import pytest

from controller.core.events import ActionEvent, Exposed, LevelEvent
from controller.sim.follow import follow
from controller.sim.rounds import Round
from controller.sim.score import score
from controller.sim.stud import bring_in_seat
from controller.sim.table import VirtualTable


@pytest.mark.parametrize("limit", ["fixed", "pot"])
def test_limit_hands_are_followed_and_scored(limit: str) -> None:
    table = VirtualTable(seats=6, seed=11, inject=0.4, profile="cuca", limit=limit)
    hands = list(table.hands(120))
    levels = [e for h in hands for e in h.events if isinstance(e, LevelEvent)]
    assert levels and all(e.limit == limit for e in levels)
    stats, alerts = follow(hands, "cuca")
    assert (stats.stuck, stats.bad_events, stats.internal_errors, stats.wrong_stacks) == (0, 0, 0, 0), \
        (stats.summary(), stats.stuck_hands[:5], stats.wrong_stack_hands[:5])
    scored = score(hands, alerts)
    assert dict(scored.false_alerts) == {} and dict(scored.missed) == {}
    assert sum(1 for h in hands if h.injected) > 20


def test_fixed_limit_hands_bet_the_fixed_amounts() -> None:
    hands = list(VirtualTable(seats=6, seed=4, limit="fixed", level_hands=0).hands(80))
    bb = 50  # the first level's big blind (level_hands=0 keeps it)
    amounts = {e.amount for h in hands for e in h.events
               if isinstance(e, ActionEvent) and e.action in ("bet", "raise")}
    assert amounts and all(a % bb == 0 for a in amounts if a is not None)


def test_sim_round_caps_fixed_limit_and_bounds_pot_limit() -> None:
    rnd = Round(seats=[1, 2, 3], stacks={1: 5000, 2: 5000, 3: 5000}, posted={}, bb=100, current_bet=0,
                limit="fixed", bet_size=200, cap=3)
    for seat, total in ((1, 200), (2, 400), (3, 600), (1, 800)):
        opt = rnd.options(seat)
        assert opt.may_raise and opt.min_total == opt.max_raise == total
        rnd.act(seat, total)
    assert not rnd.options(2).may_raise  # a bet and three raises
    pot = Round(seats=[1, 2], stacks={1: 5000, 2: 5000}, posted={}, bb=100, current_bet=0, limit="pot",
                pot=300)
    assert pot.options(1).max_raise == 300
    pot.act(1, 300)
    assert pot.options(2).max_raise == 300 + (300 + 300) + 300


@pytest.mark.parametrize("limit", ["pot", "no"])
def test_pot_and_no_limit_stud_is_followed_and_scored(limit: str) -> None:
    """Stud at pot and no limit: the highest up-card brings in (002 §3), the next seats call it or complete
    it to the small bet or more (pot limit: up to the pot); the core follows every hand to the
    simulator's stacks, finds every injected error and raises no false alert."""
    table = VirtualTable(seats=6, seed=5, inject=0.4, profile="cuca", game="stud", limit=limit)
    hands = list(table.hands(80))
    levels = [e for h in hands for e in h.events if isinstance(e, LevelEvent)]
    assert levels and all(e.limit == limit and e.game == "stud7" and not e.big_bet for e in levels)
    stats, alerts = follow(hands, "cuca")
    assert (stats.stuck, stats.bad_events, stats.internal_errors, stats.wrong_stacks) == (0, 0, 0, 0), \
        (stats.summary(), stats.stuck_hands[:5], stats.wrong_stack_hands[:5])
    scored = score(hands, alerts)
    assert dict(scored.false_alerts) == {} and dict(scored.missed) == {}
    assert sum(1 for h in hands if h.injected) > 15
    injected = {h.injected for h in hands if h.injected}
    assert "BET_ABOVE_LIMIT" not in injected and "BET_BELOW_MINIMUM" not in injected  # fixed-limit only


def test_pot_and_no_limit_stud_brings_in_with_the_highest_up_card() -> None:
    for limit, high in (("pot", True), ("no", True), ("fixed", False)):
        hands = list(VirtualTable(seats=5, seed=2, game="stud", limit=limit, use_uids=False).hands(30))
        checked = 0
        for h in hands:
            up: dict[int, str] = {}
            for e in h.events:
                if isinstance(e, Exposed) and e.zone.startswith("seat") and e.card is not None:
                    up.setdefault(int(e.zone[4:]), e.card)  # the door card: the first up-card
                if isinstance(e, ActionEvent):
                    if not h.injected and len(up) >= 2:
                        assert e.seat == bring_in_seat(up, high=high), (limit, h.number)
                        checked += 1
                    break
        assert checked > 10, limit


def test_mixed_rotation_is_fixed_limit_only() -> None:
    with pytest.raises(ValueError, match="fixed limit"):
        VirtualTable(seats=6, game="mixed", limit="pot")
    assert VirtualTable(seats=6, game="stud").limit == "fixed"
    assert VirtualTable(seats=6).limit == "no"
