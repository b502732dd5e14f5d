"""Forced bets as data: antes (every seat, big blind, button), blinds, straddles, dead and missing blinds.

One pure function says who owes what before the cards are dealt, and in which order a short stack pays:
- `each`: every dealt-in seat posts the ante; the ante comes off first, the blind from what is left.
- `bb` (big-blind ante, TDA 2024): the big blind posts the ante for the whole table. When short, the
  blind is covered before the ante (TDA 2024 says so for the big-blind ante); an ante short of the
  level's is what the big blind had left. Antes are dead money for the main pot, so a short big-blind
  ante simply makes a smaller main pot (see docs/phh.md "Forced bets").
- `button`: the button posts the ante for the table; blind first when the button is also a blind.
Straddles are live posts by the seats after the big blind, in order; the last one is the bet to call
preflop and the first seat after it acts first. A dead small blind (the seat is empty, 001 §7) is not
posted at all; a `missing` small blind (the seat is there but posts nothing) likewise; a player coming
back after missing blinds posts `dead` chips (dead money, not part of the seat's bet) on top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

AnteMode = Literal["each", "bb", "button"]
ANTE_MODES: tuple[str, ...] = ("each", "bb", "button")
PostKind = Literal["ante", "sb", "bb", "straddle", "post", "dead"]

# A stack nobody recorded (PHH `inf`): played as this many units, written back as `inf`. Far above any
# real stack, so the hand never runs out of it, and small enough for exact integer arithmetic everywhere.
UNKNOWN_STACK = 10**15


@dataclass(frozen=True, kw_only=True, slots=True)
class Post:
    """One forced bet. `live` chips count towards the seat's bet this round; dead chips (antes, a dead
    blind) go to the main pot and do not."""

    seat: int
    kind: PostKind
    amount: int

    @property
    def live(self) -> bool:
        return self.kind in ("sb", "bb", "straddle", "post")


@dataclass(frozen=True, kw_only=True, slots=True)
class ForcedBets:
    """What a hand's forced bets are, as data (from the level and the hand_start event)."""

    sb: int
    bb: int
    ante: int = 0
    ante_mode: AnteMode = "each"
    straddles: tuple[int, ...] = ()  # amounts posted by the seats after the big blind, in order
    posts: Mapping[int, int] | None = None  # seat → live post out of position (a returning player)
    dead: Mapping[int, int] | None = None  # seat → dead chips (a missed small blind)
    sb_missing: bool = False  # the small-blind seat is there but posts nothing


@dataclass(frozen=True, kw_only=True, slots=True)
class Extras:
    """A hand's forced bets beyond the level (from `hand_start`)."""

    straddles: tuple[int, ...] = ()
    posts: Mapping[int, int] | None = None
    dead: Mapping[int, int] | None = None


NO_EXTRAS = Extras()


def posts_due(fb: ForcedBets, *, button: int, sb_seat: int | None, bb_seat: int | None,
              order: Sequence[int], stacks: Mapping[int, int]) -> list[Post]:
    """Every forced bet of the hand, each capped by what the seat has left.

    `order`: the dealt-in seats clockwise from the first seat left of the button.
    """
    left = {s: stacks.get(s, 0) for s in order}
    out: list[Post] = []

    def pay(seat: int | None, kind: PostKind, amount: int) -> None:
        if seat is None or seat not in left or amount <= 0:
            return
        paid = min(amount, left[seat])
        if paid > 0:
            left[seat] -= paid
            out.append(Post(seat=seat, kind=kind, amount=paid))

    ante_seat = {"bb": bb_seat, "button": button}.get(fb.ante_mode)
    if fb.ante_mode == "each":
        for s in order:
            pay(s, "ante", fb.ante)
    if not fb.sb_missing:
        pay(sb_seat, "sb", fb.sb)
    pay(bb_seat, "bb", fb.bb)
    for seat, amount in straddlers(fb, bb_seat, order):
        pay(seat, "straddle", amount)
    for seat, amount in sorted((fb.posts or {}).items()):
        pay(seat, "post", amount)
    for seat, amount in sorted((fb.dead or {}).items()):
        pay(seat, "dead", amount)
    if fb.ante_mode != "each":
        pay(ante_seat, "ante", fb.ante)  # blind first, then the ante from what is left (TDA 2024)
    return out


def straddlers(fb: ForcedBets, bb_seat: int | None, order: Sequence[int]) -> list[tuple[int, int]]:
    """(seat, amount) of each straddle: the seats clockwise after the big blind."""
    if not fb.straddles or bb_seat is None or bb_seat not in order:
        return []
    i = order.index(bb_seat)
    ring = list(order[i + 1:]) + list(order[:i])
    return list(zip(ring, fb.straddles, strict=False))


def preflop_bet(fb: ForcedBets) -> int:
    """The bet to call preflop and the first raise increment: the last straddle, else the big blind."""
    return max((fb.bb, *fb.straddles))
