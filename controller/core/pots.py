"""Main and side pots from what each seat put in; uncalled bets; splitting a pot in units of the chip."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from controller.core.profiles import OddChips as OddChipRule
from controller.core.profiles import Profile
from controller.core.record import HandRecord

# Who gets a split pot's odd chips first: a game's rule (games/*.py `PLAN.odd_chip_order`), given the tied
# winners and the hand; the profile's `odd_chips` then says how many each gets (split below).
OddChipOrder = Callable[[Sequence[int], HandRecord], list[int]]


def odd_chip_rule(profile: Profile) -> OddChipRule:
    """How the profile places the odd units of a split pot (see Profile.odd_chips)."""
    return profile.odd_chips


@dataclass(frozen=True, kw_only=True, slots=True)
class Pot:
    """One pot: its chips and the live seats that can win it (in deal order)."""

    amount: int
    eligible: tuple[int, ...]


def uncalled_bet(contrib: Mapping[int, int], live: Collection[int] | None = None) -> tuple[int, int] | None:
    """(seat, chips) of the part of the largest commitment nobody matched, or None.

    Totals over the whole hand suffice: before the street of that bet every other seat had matched the
    bettor or was out of chips, so the excess over the second-largest total is exactly what was uncalled.
    Only a seat still in the hand (`live`) gets chips back: a dead hand's blinds stay in the pot.
    """
    if not contrib:
        return None
    ordered = sorted(contrib.items(), key=lambda kv: kv[1], reverse=True)
    top_seat, top = ordered[0]
    second = ordered[1][1] if len(ordered) > 1 else 0
    if live is not None and top_seat not in live:
        return None
    return (top_seat, top - second) if top > second else None


def build_pots(contrib: Mapping[int, int], live: Sequence[int], dead_money: int = 0) -> list[Pot]:
    """Main pot first, then side pots in the order they formed.

    `contrib`: chips each dealt-in seat put in over the hand, without antes and after the uncalled bet
    went back. `live`: seats with a claim, in deal order. `dead_money` (the antes) belongs to the main
    pot. Levels whose claimants are the same seats are one pot; chips above every live seat's level
    (only possible from a dead hand) stay in the last pot.
    """
    pots: list[Pot] = []
    amount = dead_money
    previous = 0
    for level in sorted(set(contrib.values())):
        amount += sum(min(c, level) - min(c, previous) for c in contrib.values())
        eligible = tuple(s for s in live if contrib.get(s, 0) >= level)
        if pots and (pots[-1].eligible == eligible or not eligible):
            merged = pots.pop()
            amount += merged.amount
            eligible = merged.eligible
        if amount:
            pots.append(Pot(amount=amount, eligible=eligible))
        amount = 0
        previous = level
    if amount and pots:  # only dead money and no levels: cannot happen with a dealt hand
        pots[-1] = Pot(amount=pots[-1].amount + amount, eligible=pots[-1].eligible)
    return pots


def order_from_button(seats: Sequence[int], deal_order: Sequence[int]) -> list[int]:
    """`seats` sorted clockwise starting with the first seat left of the button (deal order)."""
    pos = {s: i for i, s in enumerate(deal_order)}
    return sorted(seats, key=lambda s: pos.get(s, len(pos) + s))


def button_order(winners: Sequence[int], record: HandRecord) -> list[int]:
    """Games with a button: the odd chip goes to the first winner left of the button (000 §4.1, 001 §9.1,
    TDA 2024, "Awarding Odd Chips")."""
    return order_from_button(winners, record.dealt_in)


def split(amount: int, winners: Sequence[int], chip: int, rule: OddChipRule) -> dict[int, int]:
    """Share `amount` among `winners` (already in the game's odd-chip order, e.g. from the left of the
    button) in units of `chip`.

    Chips below one unit (an amount that is not a multiple of the smallest chip) go with the first
    winner, as an odd chip would.
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    unit = max(chip, 1)
    units, rest = divmod(amount, unit)
    each, odd = divmod(units, len(winners))
    shares = {s: each * unit for s in winners}
    if rule == "all_to_first":
        shares[winners[0]] += odd * unit
    else:
        for s in winners[:odd]:
            shares[s] += unit
    shares[winners[0]] += rest
    return shares
