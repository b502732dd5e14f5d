"""Stateful property: the core follows random hold'em hands to settlement through any dealer error and any
dealer reaction (issue 11).

A hypothesis RuleBasedStateMachine sits a virtual table (2–10 seats, every profile) next to a real
`Engine`. Each step plays one hand with a chosen injected error (any catalogue row the simulator can
inject, or none) and a chosen dealer reaction (remedy followed, remedy ignored, floor ruling, a second
error), and feeds its events one by one. Invariants after every event: no BAD_EVENT or internal error for
these physically possible events, no seat with negative chips and a pot made of what the seats put in;
after every hand: it was over when the next one started, its settled stacks are the simulator's (chips
conserved), no fault alert beyond the injected error and its legitimate follow-ups (at most one
CORRECTION_NOT_FOLLOWED: never a cascade), and the next hand starts tracked.

Default run: derandomized, a few seconds. `pytest tests/core/test_follow_stateful.py --hypothesis-profile
long` is the nightly-style run; the terminal summary prints how many hands and faults it played.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from controller.core.alerts import FAULT_SEVERITIES, Alert
from controller.core.engine import Engine
from controller.core.events import HandStart, SeatEvent
from controller.core.profiles import PROFILES, get_profile
from controller.sim.faults import FAULTS
from controller.sim.follow import hand_over, stacks_differ
from controller.sim.table import REACTIONS, SimHand, VirtualTable
from tests.core.conftest import FOLLOW_TOTALS

CURRENT = settings()  # the profile in force (`--hypothesis-profile long`, registered in conftest.py)
_LONG = settings.get_profile("long")
LONG = (CURRENT.max_examples, CURRENT.stateful_step_count) == (_LONG.max_examples, _LONG.stateful_step_count)
KINDS = [None, *sorted(FAULTS)]
# pytest-timeout stops a test after 300 s; the long run takes longer on purpose.
pytestmark = [pytest.mark.timeout(3600)] if LONG else []


class FollowMachine(RuleBasedStateMachine):
    """One table, one engine, hand after hand."""

    def __init__(self) -> None:
        super().__init__()
        self.engine = Engine()
        self.table: VirtualTable | None = None
        self.prev: SimHand | None = None
        self.profile = "cuca"

    @initialize(profile=st.sampled_from(sorted(PROFILES)), seats=st.integers(2, 10),
                seed=st.integers(0, 10_000))
    def sit_down(self, profile: str, seats: int, seed: int) -> None:
        self.profile = profile
        self.engine = Engine(profile=get_profile(profile))
        self.table = VirtualTable(seats=seats, seed=seed, inject=0.0, profile=profile)

    @rule(kind=st.sampled_from(KINDS), reaction=st.sampled_from(REACTIONS))
    def play_hand(self, kind: str | None, reaction: str) -> None:
        table = self.table
        assert table is not None
        table.inject = 0.0 if kind is None else 1.0
        table.fault_kinds = (kind,) if kind is not None else table.fault_kinds
        table.reactions = (reaction,)
        hand = table.next_hand()
        FOLLOW_TOTALS["hands"] += 1
        if hand.injected:
            FOLLOW_TOTALS["faults"] += 1
            FOLLOW_TOTALS[f"reaction {reaction}"] += 1
        alerts = self._feed(hand)
        self._check_hand(hand, alerts)
        self.prev = hand

    def _feed(self, hand: SimHand) -> list[Alert]:
        alerts: list[Alert] = []
        reseated = False
        for ev in hand.events:
            reseated = reseated or isinstance(ev, SeatEvent)
            if isinstance(ev, HandStart) and self.prev is not None:
                assert hand_over(self.engine), f"hand {self.prev.number} not over at the next hand_start"
            out = [a for a in self.engine.feed(ev) if isinstance(a, Alert)]
            if isinstance(ev, HandStart):
                self._check_started(reseated)
            assert not [a for a in out if a.code == "BAD_EVENT"], [a.message for a in out]
            assert self.engine.stats["internal_errors"] == 0
            self._check_chips()
            alerts += out
        return alerts

    def _check_started(self, reseated: bool) -> None:
        """The new hand is tracked, and the last one was settled to the simulator's stacks."""
        eng = self.engine
        assert eng.current.number == eng.hand and eng.current.phase == "deal"
        if self.prev is not None and not reseated:
            assert stacks_differ(eng, self.prev) == [], f"hand {self.prev.number} settled differently"

    def _check_chips(self) -> None:
        hand = self.engine.current
        rec = hand.record
        for seat in rec.dealt_in:
            assert rec.committed.get(seat, 0) >= 0 and hand.stack_now(seat) >= 0, seat

    def _check_hand(self, hand: SimHand, alerts: list[Alert]) -> None:
        # Alerts of this hand (those raised at its hand_start settle the previous hand).
        own = [a for a in alerts if a.hand == self.engine.hand]
        allowed = {hand.injected, *hand.also} if hand.injected else set()
        false = [a.code for a in own if a.severity in FAULT_SEVERITIES and a.code not in allowed]
        assert false == [], f"hand {hand.number} ({hand.injected}): follow-up alerts {false}"
        cnf = Counter(a.code for a in own)["CORRECTION_NOT_FOLLOWED"]
        assert cnf <= 1, f"hand {hand.number}: {cnf} CORRECTION_NOT_FOLLOWED (a cascade)"

    @invariant()
    def nothing_broke(self) -> None:
        assert self.engine.stats["bad_events"] == 0

    def teardown(self) -> None:
        if self.prev is not None:
            out = self.engine.finish(self.engine.last_t)
            assert not [a for a in out if isinstance(a, Alert) and a.code == "BAD_EVENT"]
            assert stacks_differ(self.engine, self.prev) == []


FollowMachine.TestCase.settings = settings(
    max_examples=CURRENT.max_examples if LONG else 30, stateful_step_count=40 if LONG else 8,
    deadline=None, derandomize=not LONG, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TestFollowStateful = FollowMachine.TestCase
