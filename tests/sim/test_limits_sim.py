"""The simulator plays fixed-limit and pot-limit hold'em; the core follows every hand (issue 13).

The simulator's betting round (controller/sim/rounds.py) is its own code: fixed limit bets the big blind
preflop and flop and twice it on turn and river, a bet and three raises at most; pot limit raises at most
the pot after the call. With errors injected the core must detect every one, raise no false alert and
follow every hand to the simulator's stacks.
"""

from __future__ import annotations

import pytest

from controller.core.events import ActionEvent, LevelEvent
from controller.sim.follow import follow
from controller.sim.rounds import Round
from controller.sim.score import score
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
