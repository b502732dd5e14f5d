"""The core follows every simulated hand to settlement, whatever the dealer does after an error (issue 11).

Every injector, every profile, every dealer reaction (remedy, ignored remedy, floor ruling, a second
error on the river): no hand is stuck, no BAD_EVENT, the engine's settled stacks are the simulator's, and
no fault alert beyond the injected error and its legitimate follow-ups. `CARDTABLE_FULL=1` replays
10,000 hands per profile at 50 % injection (the issue's figure).
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from controller.core.alerts import Alert
from controller.core.profiles import PROFILES
from controller.sim.faults import FAULTS
from controller.sim.follow import follow
from controller.sim.score import score
from controller.sim.table import REACTIONS, VirtualTable

FULL = os.environ.get("CARDTABLE_FULL") == "1"
HANDS = 10_000 if FULL else 400


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_hand_is_followed_to_settlement(profile: str) -> None:
    table = VirtualTable(seats=9, seed=23, inject=0.5, profile=profile, reactions=REACTIONS)
    hands = list(table.hands(HANDS))
    stats, alerts = follow(hands, profile)
    assert stats.faults > HANDS // 3
    assert (stats.stuck, stats.bad_events, stats.internal_errors, stats.wrong_stacks) == (0, 0, 0, 0), \
        (stats.summary(), stats.stuck_hands[:5], stats.wrong_stack_hands[:5])
    scored = score(hands, alerts)
    assert dict(scored.false_alerts) == {}  # no follow-up false alert, no cascade
    assert dict(scored.missed) == {}


def test_the_reactions_are_all_played() -> None:
    table = VirtualTable(seats=6, seed=5, inject=1.0, profile="cuca", reactions=REACTIONS,
                         faults=("BURN_EXTRA", "BOXED_CARD", "TURN_PREMATURE"))
    hands = list(table.hands(120))
    also = Counter(code for h in hands for code in h.also)
    assert also["CORRECTION_NOT_FOLLOWED"] > 0 and also["KNOCK_MISSING"] > 0  # ignored, second error
    stats, alerts = follow(hands, "cuca")
    codes = Counter(a.code for a in alerts)
    assert codes["FLOOR_RULING"] > 0 and codes["CORRECTION_NOT_FOLLOWED"] > 0
    assert stats.clean


def test_default_table_keeps_the_remedy_only() -> None:
    with pytest.raises(ValueError, match="reactions"):
        VirtualTable(reactions=("shrug",))
    hands = list(VirtualTable(seed=3, inject=1.0).hands(60))
    # (the variants that are about a correction not followed name it among their own codes)
    own = {k for k, cls in FAULTS.items() if "CORRECTION_NOT_FOLLOWED" in cls.also}
    assert not any("CORRECTION_NOT_FOLLOWED" in h.also and h.injected != "CORRECTION_NOT_FOLLOWED"
                   and h.kind not in own for h in hands)


def test_score_counts_stuck_hands_and_follow_up_false_alerts() -> None:
    """A hand cut off mid-betting is not followed to its end: the next hand_start's summary says so and
    the score (the closing table of `cardtable simulate`) counts it."""
    from controller.core.engine import Engine, HandSummary
    from controller.core.events import ActionEvent

    hands = list(VirtualTable(seats=4, seed=9, inject=0.0, style="passive").hands(2))
    first = hands[0]
    cut = [i for i, e in enumerate(first.events) if isinstance(e, ActionEvent)][1]
    engine = Engine()
    outs = [o for e in first.events[:cut] + hands[1].events for o in engine.feed(e)]
    outs += engine.finish(engine.last_t)
    summaries = [o for o in outs if isinstance(o, HandSummary)]
    result = score(hands, [o for o in outs if isinstance(o, Alert)], summaries)
    assert result.stuck == 1 and result.stuck_hands == [1]
    assert "stuck hands (not followed to their end): 1" in result.summary()
    assert result.follow_up_false == 0
