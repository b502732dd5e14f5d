"""Shared helpers for the betting tests (no tests here): build rounds, make events, read findings."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from controller.core.alerts import Finding
from controller.core.betting import BettingRound
from controller.core.catalogue import entry
from controller.core.chips import DEFAULT_CHIP_VALUES
from controller.core.events import ActionEvent, ActionName, ChipsEvent
from controller.core.profiles import get_profile
from controller.core.record import BetStreet


def make_round(*, profile: str = "cuca", street: BetStreet = "flop", seats: Sequence[int] = (1, 2, 3),
               first: int | None = None, stacks: Mapping[int, int] | int = 1000,
               posted: Mapping[int, int] | None = None, bb: int = 2, t: float = 0.0,
               absent: Collection[int] = (),
               chip_values: Collection[int] = DEFAULT_CHIP_VALUES) -> BettingRound:
    st = {s: stacks for s in seats} if isinstance(stacks, int) else dict(stacks)
    return BettingRound(street=street, seats=seats, first_to_act=seats[0] if first is None else first,
                        stacks=st, posted=posted or {}, bb=bb, profile=get_profile(profile), t=t,
                        absent=absent, chip_values=chip_values)


def preflop(*, profile: str = "cuca", seats: Sequence[int] = (1, 2, 3), bb: int = 2,
            stacks: Mapping[int, int] | int = 1000, t: float = 0.0) -> BettingRound:
    """Button = seats[0]; SB and BB are the next two seats (heads-up: button is the SB and acts first)."""
    if len(seats) == 2:
        sb, bbs, first = seats[0], seats[1], seats[0]
    else:
        sb, bbs, first = seats[1], seats[2], seats[3 % len(seats)]
    st = {s: stacks for s in seats} if isinstance(stacks, int) else dict(stacks)
    posted = {sb: min(bb // 2, st[sb]), bbs: min(bb, st[bbs])}
    behind = {s: st[s] - posted.get(s, 0) for s in seats}
    return BettingRound(street="preflop", seats=seats, first_to_act=first, stacks=behind, posted=posted,
                        bb=bb, profile=get_profile(profile), t=t)


def act(seat: int, action: ActionName, amount: int | None = None, t: float = 1.0) -> ActionEvent:
    return ActionEvent(t=t, seat=seat, action=action, amount=amount)


def chips(seat: int, amount: int, declared: str | None = None, declared_amount: int | None = None,
          t: float = 1.0) -> ChipsEvent:
    return ChipsEvent(t=t, seat=seat, amount=amount, declared=declared,  # type: ignore[arg-type]
                      declared_amount=declared_amount)


def codes(findings: Sequence[Finding]) -> list[str]:
    return [f.code for f in findings]


def severity(f: Finding) -> str:
    return f.severity or entry(f.code).severity


def feed_ok(rnd: BettingRound, *events: ActionEvent | ChipsEvent) -> None:
    """Feed events that must raise nothing."""
    for ev in events:
        out = rnd.feed(ev)
        assert out == [], f"{ev}: {[f.message for f in out]}"


def chips_total(rnd: BettingRound) -> int:
    return sum(rnd.committed.values()) + sum(rnd.stacks.values())
