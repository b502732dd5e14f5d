"""Stateful property for seven-card stud: the core follows random stud hands to settlement through the stud
dealer errors and the dealer's reaction to each (issue 13, the stud half of test_follow_stateful.py).

The hold'em machine is driven by the virtual table (controller/sim), which deals hold'em only; this one
plays PokerKit-decided fixed-limit stud hands (tests/conformance/stud_oracle.py) one after another into
one `Engine`, each with one chosen error injected into its event log and one reaction, chosen so that
PokerKit's result still stands:

- `up_card_down`: an up-card (the door card or a 4th–6th street card) is dealt face down; `followed`:
  the dealer turns it up right after the street's first action; `ignored`: never.
- `seventh_up`: a 7th-street card is dealt face up (it stays up and plays).
- `first_wrong`: on a later street whose first two actions are checks, the second seat checks first.
- `bring_in_wrong`: another seat brings in first; `followed`: its chips go back and the right seat brings
  in; `ignored`: not possible without changing the hand, so always followed.

Invariants after every event: no BAD_EVENT or internal error, no seat below zero. After every hand: it
was over when the next started, its settled stacks are PokerKit's, no fault alert but the injected code
and at most one CORRECTION_NOT_FOLLOWED, and the next hand starts tracked.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from controller.core.alerts import FAULT_SEVERITIES, Alert
from controller.core.engine import Engine, HandSummary
from controller.core.eventlog import read_events
from controller.core.profiles import PROFILES, get_profile
from controller.sim.follow import hand_over
from tests.conformance.stud_oracle import random_stud_hand
from tests.core.conftest import FOLLOW_TOTALS

CURRENT = settings()
_LONG = settings.get_profile("long")
LONG = (CURRENT.max_examples, CURRENT.stateful_step_count) == (_LONG.max_examples, _LONG.stateful_step_count)
ERRORS: dict[str | None, str | None] = {None: None, "up_card_down": "STUD_STREET_CARD_WRONG",
                                        "seventh_up": "STUD_STREET_CARD_WRONG",
                                        "first_wrong": "STUD_FIRST_TO_ACT_WRONG",
                                        "bring_in_wrong": "STUD_BRING_IN_WRONG"}
pytestmark = [pytest.mark.timeout(3600)] if LONG else []
Ev = dict[str, Any]


def _street_of(events: list[Ev]) -> list[int]:
    """For each event the street it belongs to (0 = third … 4 = seventh), counted by the burns."""
    out, street = [], 0
    for ev in events:
        if ev["type"] == "card" and ev["zone"] == "burn":
            street += 1
        out.append(street)
    return out


def _up_card_down(events: list[Ev], followed: bool) -> bool:
    streets = _street_of(events)
    for i, ev in enumerate(events):
        if ev["type"] == "exposed" and streets[i] < 4 and any(
                e["type"] == "action" and streets[j] == streets[i] for j, e in enumerate(events) if j > i):
            nxt = next(j for j in range(i + 1, len(events)) if events[j]["type"] == "action")
            moved = events.pop(i)
            if followed:
                events.insert(nxt, moved)  # after the street's first action
            return True
    return False


def _seventh_up(events: list[Ev]) -> bool:
    streets = _street_of(events)
    for i, ev in enumerate(events):
        if ev["type"] == "card" and ev["zone"].startswith("seat") and streets[i] == 4:
            events.insert(i + 1, {"t": 0.0, "type": "exposed", "zone": ev["zone"], "card": ev["card"]})
            return True
    return False


def _first_wrong(events: list[Ev]) -> bool:
    streets = _street_of(events)
    for s in range(1, 5):
        acts = [i for i, e in enumerate(events) if e["type"] == "action" and streets[i] == s]
        if len(acts) >= 3 and all(events[i]["action"] == "check" for i in acts[:2]):
            a, b = acts[:2]
            events[a], events[b] = events[b], events[a]
            return True
    return False


def _bring_in_wrong(events: list[Ev]) -> bool:
    first = next((i for i, e in enumerate(events) if e["type"] == "action"), None)
    if first is None:  # every seat but one all in on the antes: nobody acts, nobody brings in
        return False
    right = events[first]["seat"]
    if events[first]["action"] != "bet":
        return False
    level = next(e for e in events if e["type"] == "level")
    amount, ante = level["bring_in"], level.get("ante", 0)
    # the wrong seat must have the bring-in behind its ante (a seat all in on its ante cannot bet: the
    # long run drew one and the core rightly called its bet a BAD_EVENT)
    stacks = {e["seat"]: e["stack"] for e in events if e["type"] == "seat" and e.get("player")}
    wrong = next((s for s in sorted(stacks) if s != right and stacks[s] - ante >= amount), None)
    if wrong is None:
        return False
    events[first:first] = [{"t": 0.0, "type": "action", "seat": wrong, "action": "bet", "amount": amount},
                           {"t": 0.0, "type": "chips", "seat": wrong, "amount": 0}]
    return True


def inject(events: list[Ev], kind: str | None, followed: bool) -> bool:
    if kind == "up_card_down":
        return _up_card_down(events, followed)
    if kind == "seventh_up":
        return _seventh_up(events)
    if kind == "first_wrong":
        return _first_wrong(events)
    if kind == "bring_in_wrong":
        return _bring_in_wrong(events)
    return False


class StudFollowMachine(RuleBasedStateMachine):
    """One engine, stud hand after stud hand."""

    def __init__(self) -> None:
        super().__init__()
        self.engine = Engine()
        self.t = 0.0
        self.hands = 0
        self.pending: dict[int, int] | None = None  # PokerKit's stacks of the last hand, until settled

    @initialize(profile=st.sampled_from(sorted(PROFILES)))
    def sit_down(self, profile: str) -> None:
        self.engine = Engine(profile=get_profile(profile))

    @rule(seed=st.integers(0, 100_000), kind=st.sampled_from(sorted(ERRORS, key=str)),
          followed=st.booleans())
    def play_hand(self, seed: int, kind: str | None, followed: bool) -> None:
        hand = random_stud_hand(seed)
        events = [e for e in hand.events if e["type"] != "session_end"]
        n = len(hand.final_stacks)
        gone = range(n + 1, 7)  # seats of a bigger last hand leave
        events[:0] = [{"t": 0.0, "type": "seat", "seat": s, "player": None, "stack": 0} for s in gone]
        injected = inject(events, kind, followed)
        FOLLOW_TOTALS["stud hands"] += 1
        FOLLOW_TOTALS["stud faults"] += injected
        alerts, summaries = self._feed(events)
        if self.pending is not None:
            self._check_settled(summaries)
        self.pending = hand.final_stacks
        own = [a for a in alerts if a.hand == self.engine.hand]
        allowed = {ERRORS[kind], "CORRECTION_NOT_FOLLOWED"} if injected else set()
        false = [a.code for a in own if a.severity in FAULT_SEVERITIES and a.code not in allowed]
        assert false == [], f"seed {seed} ({kind}, followed={followed}): {false}"
        if injected:
            assert ERRORS[kind] in {a.code for a in own}, f"seed {seed}: {kind} not detected"
        assert Counter(a.code for a in own)["CORRECTION_NOT_FOLLOWED"] <= 1

    def _feed(self, events: list[Ev]) -> tuple[list[Alert], list[HandSummary]]:
        alerts: list[Alert] = []
        summaries: list[HandSummary] = []
        for ev in events:
            self.t = round(self.t + 0.5, 3)
            ev["t"] = self.t
            if ev["type"] == "hand_start":
                assert self.hands == 0 or hand_over(self.engine), "the last hand was not over"
        text = "".join(json.dumps(e) + "\n" for e in events)
        for _line, event in read_events(io.StringIO(text), max_seat=10):
            out = self.engine.feed(event)
            alerts += [a for a in out if isinstance(a, Alert)]
            summaries += [o for o in out if isinstance(o, HandSummary)]
            assert not [a.message for a in alerts if a.code == "BAD_EVENT"]
            assert self.engine.stats["internal_errors"] == 0
            cur = self.engine.current
            assert all(cur.stack_now(s) >= 0 for s in cur.record.dealt_in)
        self.hands += 1
        assert self.engine.current.phase in ("showdown", "ended")  # followed to the end
        return alerts, summaries

    def _check_settled(self, summaries: list[HandSummary]) -> None:
        assert self.pending is not None and summaries, "the last hand was not settled"
        ends = {row["seat"]: row["end"] for row in summaries[0].payload["seats"]}
        assert ends == self.pending

    @invariant()
    def nothing_broke(self) -> None:
        assert self.engine.stats["bad_events"] == 0

    def teardown(self) -> None:
        if self.pending is not None:
            out = self.engine.finish(self.t + 1)
            self._check_settled([o for o in out if isinstance(o, HandSummary)])


StudFollowMachine.TestCase.settings = settings(
    max_examples=CURRENT.max_examples if LONG else 8, stateful_step_count=40 if LONG else 6,
    deadline=None, derandomize=not LONG, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TestStudFollowStateful = StudFollowMachine.TestCase
