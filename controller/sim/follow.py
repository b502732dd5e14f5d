"""Does the core follow every simulated hand to settlement? Stuck hands, BAD_EVENTs, wrong stacks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from controller.core.alerts import Alert
from controller.core.engine import Engine
from controller.core.events import HandStart, SeatEvent
from controller.core.profiles import get_profile
from controller.sim.table import SimHand

# Phases in which a hand is over (settled at the next hand_start): anything else at the next hand's
# start means the core lost the hand (it still waits for an action, a card or a correction).
OVER = ("showdown", "ended", "void")


@dataclass(kw_only=True)
class FollowStats:
    """What the replay of simulated hands through the real engine showed."""

    hands: int = 0
    faults: int = 0  # hands with an injected dealer error
    stuck: int = 0  # a hand not over when the next hand started (or the session ended)
    bad_events: int = 0
    internal_errors: int = 0
    wrong_stacks: int = 0  # settled stacks differ from the simulator's own settlement
    stuck_hands: list[int] = field(default_factory=list)
    wrong_stack_hands: list[int] = field(default_factory=list)
    bad_codes: Counter[str] = field(default_factory=Counter)  # injected code of hands with a BAD_EVENT

    @property
    def clean(self) -> bool:
        return not (self.stuck or self.bad_events or self.internal_errors or self.wrong_stacks)

    def summary(self) -> str:
        return (f"hands {self.hands} (with an injected error {self.faults}): stuck {self.stuck}, "
                f"BAD_EVENT {self.bad_events}, internal errors {self.internal_errors}, "
                f"stacks differing from the simulator's {self.wrong_stacks}")


def follow(hands: Iterable[SimHand], profile: str, *, table: str = "t1") -> tuple[FollowStats, list[Alert]]:
    """Feed every hand's events to a fresh engine; check each hand is over when the next one starts and
    that the engine's settled stacks are the simulator's."""
    engine = Engine(table=table, profile=get_profile(profile))
    stats = FollowStats()
    alerts: list[Alert] = []
    prev: SimHand | None = None
    for hand in hands:
        stats.hands += 1
        stats.faults += hand.injected is not None
        reseated = False  # players sat down before this hand: their new stacks are not a settlement
        for ev in hand.events:
            reseated = reseated or isinstance(ev, SeatEvent)
            if isinstance(ev, HandStart) and prev is not None:
                _check_over(engine, prev, stats)
            out = engine.feed(ev)
            if isinstance(ev, HandStart) and prev is not None and not reseated:
                _check_stacks(engine, prev, stats)
            alerts += _count(out, hand, stats)
        prev = hand
    if prev is not None:
        _check_over(engine, prev, stats)
        alerts += _count(engine.finish(engine.last_t), prev, stats)
        _check_stacks(engine, prev, stats)
    stats.internal_errors = engine.stats["internal_errors"]
    return stats, alerts


def _count(out: Iterable[object], hand: SimHand, stats: FollowStats) -> list[Alert]:
    alerts = [a for a in out if isinstance(a, Alert)]
    for a in alerts:
        if a.code == "BAD_EVENT":
            stats.bad_events += 1
            stats.bad_codes[hand.injected or "clean"] += 1
    return alerts


def hand_over(engine: Engine) -> bool:
    """The engine's current hand is over (or was restarted before any card): it can be settled."""
    hand = engine.current
    return hand.settled or hand.phase in OVER or (hand.phase == "deal" and not hand.deal_cards)


def stacks_differ(engine: Engine, prev: SimHand) -> list[int]:
    """Seats whose settled stack differs from the simulator's own settlement of `prev`."""
    if prev.void:
        return []
    seats = engine.seats.seats
    return [s for s, stack in prev.stacks.items() if stack > 0 and s in seats and seats[s].stack != stack]


def _check_over(engine: Engine, prev: SimHand, stats: FollowStats) -> None:
    if not hand_over(engine):
        stats.stuck += 1
        stats.stuck_hands.append(prev.number)


def _check_stacks(engine: Engine, prev: SimHand, stats: FollowStats) -> None:
    if stacks_differ(engine, prev):
        stats.wrong_stacks += 1
        stats.wrong_stack_hands.append(prev.number)
