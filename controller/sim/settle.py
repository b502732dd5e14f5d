"""The simulator's own settlement: uncalled bets, side pots, winners and odd chips (001 §9.1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from phevaluator import evaluate_cards  # type: ignore[import-untyped]

from controller.core.profiles import OddChips, Profile


def odd_chips_for(profile: Profile) -> OddChips:
    """The profile's odd-chip rule (000 §4.1 one each; 001 §9.1 the rest to the first winner)."""
    return profile.odd_chips


@dataclass(frozen=True, kw_only=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]
    winners: Mapping[int, int]


def strength(hole: Sequence[str], board: Sequence[str]) -> int:
    """phevaluator rank: lower is stronger."""
    return int(evaluate_cards(*hole, *board))


def settle(*, committed: Mapping[int, int], live: Sequence[int], hole: Mapping[int, Sequence[str]],
           board: Sequence[str], order_from_button: Sequence[int],
           chip: int = 1, odd: OddChips = "all_to_first", dead: int = 0) -> tuple[dict[int, int], list[Pot]]:
    """Chips each seat receives back (uncalled bets and pots), and the pots, main pot first.

    `live`: seats with a claim; `order_from_button`: dealt-in seats clockwise from the first seat left
    of the button (odd chips go to the first winner in this order). `dead`: antes, dead money for the
    main pot.
    """
    paid: dict[int, int] = {s: 0 for s in committed}
    contrib = dict(committed)
    # uncalled part of the largest commitment goes straight back
    ranked = sorted(contrib.values(), reverse=True)
    if len(ranked) >= 1:
        top = max(contrib, key=lambda s: (contrib[s], -order_from_button.index(s)))
        second = ranked[1] if len(ranked) > 1 else 0
        if contrib[top] > second and top in live:
            paid[top] += contrib[top] - second
            contrib[top] = second
    levels = sorted({contrib[s] for s in live if contrib[s] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contrib.values()) + (dead if not pots else 0)
        eligible = tuple(s for s in order_from_button if s in live and contrib[s] >= level)
        previous = level
        if amount <= 0:
            continue
        pots.append(Pot(amount=amount, eligible=eligible, winners=_split(amount, eligible, hole, board,
                                                                         chip, odd)))
    # chips of folded seats above the highest live level (cannot happen after the uncalled return,
    # except when every live seat committed less): they go to the last pot
    rest = sum(max(0, c - previous) for c in contrib.values())
    if rest and pots:
        last = pots[-1]
        pots[-1] = Pot(amount=last.amount + rest, eligible=last.eligible,
                       winners=_split(last.amount + rest, last.eligible, hole, board, chip, odd))
    elif not pots and (rest or dead) and live:
        # Only dead money (antes, a dead hand's blind, 000 §1.5) and live seats that put nothing in: the
        # live hands share it (otherwise those chips would vanish); a lone live seat takes it all.
        eligible = tuple(s for s in order_from_button if s in live)
        pots.append(Pot(amount=rest + dead, eligible=eligible, winners=_split(rest + dead, eligible, hole,
                                                                              board, chip, odd)))
    for pot in pots:
        for seat, won in pot.winners.items():
            paid[seat] += won
    return paid, pots


def _split(amount: int, eligible: Sequence[int], hole: Mapping[int, Sequence[str]],
           board: Sequence[str], chip: int, odd_rule: OddChips) -> dict[int, int]:
    if len(eligible) == 1:
        return {eligible[0]: amount}
    scores = {s: strength(hole[s], board) for s in eligible}
    best = min(scores.values())
    winners = [s for s in eligible if scores[s] == best]  # already clockwise from the button
    units, odd = divmod(amount, chip)
    share, extra = divmod(units, len(winners))
    out = {s: share * chip for s in winners}
    if odd_rule == "one_each":
        for s in winners[:extra]:
            out[s] += chip
    else:  # the indivisible rest goes to the first winner left of the button (001 §9.1)
        out[winners[0]] += extra * chip
    out[winners[0]] += odd  # below the smallest chip
    return out
