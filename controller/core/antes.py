"""Forced bets seen before the deal beyond the blinds: antes read as chips, a straddle from the wrong seat.

Antes are `chips` events before the first hole card (contract v1.1). The core checks them only when the
level says the table's chip readers report antes (`level.ante_chips`); a log without ante chips (older
tables, PHH imports, tables with readers that do not see the ante) plays as before, the antes taken as
posted. With `ante_chips`:
- a seat's chips before the deal may be its blind, or its blind plus its ante (a seat that owes only an
  ante: the ante). The dealer may sweep the antes into the pot before dealing (the readers then see the
  blind alone): what a seat put in is the sum of every rise of its bet zone before the first hole card;
- at the first hole card a seat that owes an ante and put in less than ante plus blind raises
  ANTE_NOT_POSTED, unless its blind is missing altogether (DEAL_BEFORE_BLINDS says that) or it was already
  told its forced bet is wrong (BLIND_WRONG, ANTE_WRONG_SEAT). As for blinds, the check runs only when the
  readers saw any chips before the deal;
- with a big-blind or button ante, another seat putting in the table's ante (alone, or on top of its own
  blind) raises ANTE_WRONG_SEAT.
A straddle amount from a seat that owes no forced bet, in a hand that has straddles, is
STRADDLE_OUT_OF_TURN (with or without ante readers). The rulebooks do not speak of hold'em antes or of
straddles; docs/rules.md "Antes and straddles" says what we follow (TDA 2024, room practice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from controller.core.alerts import Finding
from controller.core.forced import Post


@dataclass(slots=True)
class AnteLedger:
    """What each seat put into its bet zone before the first hole card, and who posted a wrong ante."""

    put_in: dict[int, int] = field(default_factory=dict)  # the sum of every rise, sweeps not deducted
    last: dict[int, int] = field(default_factory=dict)
    wrong_seat: int | None = None

    def see(self, seat: int, amount: int) -> None:
        rise = amount - self.last.get(seat, 0)
        if rise > 0:
            self.put_in[seat] = self.put_in.get(seat, 0) + rise
        self.last[seat] = amount


@dataclass(frozen=True, slots=True)
class Owed:
    """One seat's forced bets before the deal: its ante and its live blind or straddle."""

    ante: int = 0
    live: int = 0

    def amounts(self) -> set[int]:
        """The bet-zone totals that are right for this seat: the blind, blind plus ante, or the ante alone
        when it owes no blind."""
        if self.live:
            return {self.live, self.live + self.ante}
        return {self.ante} - {0}


def owed(posts: Sequence[Post]) -> dict[int, Owed]:
    """Each seat's ante and live post (dead chips of a returning player are not part of its bet)."""
    ante: dict[int, int] = {}
    live: dict[int, int] = {}
    for p in posts:
        if p.kind == "ante":
            ante[p.seat] = ante.get(p.seat, 0) + p.amount
        elif p.live:
            live[p.seat] = live.get(p.seat, 0) + p.amount
    return {s: Owed(ante=ante.get(s, 0), live=live.get(s, 0)) for s in {*ante, *live}}


@dataclass(frozen=True, kw_only=True, slots=True)
class PreDeal:
    """What the checks need to know of the hand: its forced bets and the level's ante."""

    posts: Sequence[Post]
    ante_chips: bool
    ante: int
    ante_mode: str
    straddles: Sequence[int]


def screen(ledger: AnteLedger, seat: int, amount: int, hand: PreDeal) -> list[Finding] | None:
    """A chips event before the first hole card (amount > 0). [] when right, findings when an ante or a
    straddle is wrong, None when the ordinary blind check (deal.py) decides."""
    dues = owed(hand.posts)
    own = dues.get(seat, Owed())
    if hand.ante_chips and hand.ante > 0:
        if amount in own.amounts():
            return []
        if hand.ante_mode != "each" and own.ante == 0 and amount - own.live == hand.ante:
            ledger.wrong_seat = seat
            return [_wrong_seat(seat, amount, hand, dues)]
    if own == Owed() and amount in hand.straddles:
        straddlers = [p.seat for p in hand.posts if p.kind == "straddle"]
        return [_straddle(seat, amount, straddlers)]
    return None


def late_amounts(seat: int, hand: PreDeal) -> set[int]:
    """Forced-bet totals a seat may still put in after the deal began (a late ante or blind)."""
    if not hand.ante_chips:
        return set()
    return owed(hand.posts).get(seat, Owed()).amounts()


def missing(ledger: AnteLedger, hand: PreDeal, *, pre_chips: Mapping[int, int],
            flagged: set[int]) -> list[Finding]:
    """At the first hole card: the antes owed and not put in (one finding for the hand)."""
    if not (hand.ante_chips and hand.ante > 0 and pre_chips) or ledger.wrong_seat is not None:
        return []
    short: list[tuple[int, Owed]] = []
    for seat, own in sorted(owed(hand.posts).items()):
        if own.ante == 0 or seat in flagged:
            continue
        if own.live and ledger.put_in.get(seat, 0) == 0:
            continue  # nothing at all: DEAL_BEFORE_BLINDS names the missing blind
        if ledger.put_in.get(seat, 0) < own.ante + own.live:
            short.append((seat, own))
    if not short:
        return []
    seats = ", ".join(str(s) for s, _ in short)
    what = "; ".join(f"seat {s} owes {o.ante}" + (f" on top of its blind {o.live}" if o.live else "")
                     for s, o in short)
    one = short[0][0] if len(short) == 1 else None
    who = {"bb": "the big blind's ante", "button": "the button's ante"}.get(hand.ante_mode, "the ante")
    verb = "puts its" if one is not None else "put their"
    return [Finding(code="ANTE_NOT_POSTED", seat=one,
                    message=f"First hole card dealt before {who} was in ({what})",
                    remedy=f"Seat{'s' if one is None else ''} {seats} {verb} ante in now; antes are dead "
                           f"money for the main pot")]


def _wrong_seat(seat: int, amount: int, hand: PreDeal, dues: Mapping[int, Owed]) -> Finding:
    right = next((s for s, o in dues.items() if o.ante), None)
    whose = "big blind" if hand.ante_mode == "bb" else "button"
    owner = f"seat {right}" if right is not None else f"the {whose}"
    return Finding(code="ANTE_WRONG_SEAT", seat=seat,
                   message=f"Seat {seat} put in {amount}, which includes the table's {whose} ante "
                           f"({hand.ante}); the {whose} ante is {owner}'s",
                   remedy=f"Give seat {seat} its ante back; {owner} posts the ante ({whose} ante, TDA 2024)")


def _straddle(seat: int, amount: int, straddlers: Sequence[int]) -> Finding:
    right = ", ".join(str(s) for s in straddlers) or "none"
    seats = "seats" if len(straddlers) > 1 else "seat"
    return Finding(code="STRADDLE_OUT_OF_TURN", seat=seat,
                   message=f"Seat {seat} put in a straddle ({amount}) before the deal; this hand's straddle "
                           f"{seats}: {right} (in order after the big blind)",
                   remedy=f"Give seat {seat} its chips back; a straddle is posted only by the seat after the "
                          f"big blind (then after the last straddle)")
