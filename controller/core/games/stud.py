"""Seven-card stud (rulebook 002): its plan, the bring-in, who acts first from 4th street, and how a hand
begins (no button: seats are numbered clockwise from the dealer's left). The hand is studhand.py.

Pure functions over card codes; the rules and where they come from are in docs/rules.md (002 rows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import itemgetter

from controller.core.cards import RANKS, SUITS
from controller.core.events import HandStart
from controller.core.games.base import GamePlan, Start, TableState
from controller.core.record import HandRecord
from controller.core.table import Level

NAME = "stud7"
_RANK = {r: i for i, r in enumerate(RANKS)}
_RANK_OF = itemgetter(0)  # a card code's rank character

# Betting structures in which the bring-in goes to the highest up-card (002 §3).
HIGH_BRING_IN: frozenset[str] = frozenset({"pot", "no"})


def card_key(card: str) -> tuple[int, int]:
    """Rank, then suit (clubs < diamonds < hearts < spades, 002 §3); the ace is high."""
    return RANKS.index(card[0]), SUITS.index(card[1])


_NO_CARD = (-1, -1)  # a seat none of whose cards was read ranks below every card


def high_card(cards: Sequence[str]) -> tuple[int, int]:
    """The key of the highest card by rank, then suit, among `cards` (unread stand-ins `??n` skipped)."""
    return max((card_key(c) for c in cards if c[0] in _RANK and c[1] in SUITS), default=_NO_CARD)


def odd_chip_order(winners: Sequence[int], record: HandRecord) -> list[int]:
    """Tied stud winners for the odd chips (TDA 2024, "Awarding Odd Chips"; 002 is silent): the one holding
    the highest card by suit first. Every card the seat was dealt counts, down-cards too, not just the five
    that make the hand; 7th street's common card (in `record.board`) belongs to every seat and decides
    nothing, so it is left out (docs/rules.md "Seven-card stud (002)"). Seats with no readable card keep
    deal order, last.
    """
    pos = {s: i for i, s in enumerate(record.dealt_in)}

    def key(seat: int) -> tuple[int, int, int]:
        rank, suit = high_card(record.hole.get(seat) or record.shown.get(seat) or ())
        return -rank, -suit, pos.get(seat, len(pos) + seat)

    return sorted(winners, key=key)


PLAN = GamePlan(name=NAME, streets=("third", "fourth", "fifth", "sixth", "seventh"), hole_cards=3,
                deal_up=(False, False, True), board_cards={"seventh": 1},
                street_cards={"fourth": 1, "fifth": 1, "sixth": 1, "seventh": 1},
                street_up={"fourth": True, "fifth": True, "sixth": True, "seventh": False}, button=False,
                odd_chip_order=odd_chip_order)


def bring_in_seat(door: Mapping[int, str], limit: str) -> int:
    """The seat that must open with the forced bet: the lowest up-card, in pot and no limit the highest
    (002 §3); equal ranks are decided by suit."""
    pick = max if limit in HIGH_BRING_IN else min
    return pick(door, key=lambda s: card_key(door[s]))


def showing_key(cards: Sequence[str]) -> tuple[int, tuple[int, ...]]:
    """How strong a partial board of up-cards is: quads > trips > two pair > pair > high card, then the
    ranks that make it. Straights and flushes do not count on a partial board (the usual stud reading;
    002 §4 speaks only of the highest showing hand)."""
    # Only the ranks count, in any order: the few thousand sorted rank strings of up to four up-cards fit
    # a small cache, so the order of every street is a few lookups (replay speed, issue 13).
    return _ranks_key("".join(sorted(map(_RANK_OF, cards))))


@lru_cache(maxsize=1 << 12)
def _ranks_key(ranks: str) -> tuple[int, tuple[int, ...]]:
    """`showing_key` of up-cards with these ranks (one character each, in any order)."""
    counts: dict[int, int] = {}
    for ch in ranks:
        r = _RANK[ch]
        counts[r] = counts.get(r, 0) + 1
    groups = sorted([(n, r) for r, n in counts.items()], reverse=True)  # by count, then by rank
    shape = [n for n, _ in groups]
    if shape[:1] == [4]:
        category = 5
    elif shape[:1] == [3]:
        category = 4 if shape[1:2] != [2] else 6  # a full house needs five up-cards: never before 7th
    elif shape[:2] == [2, 2]:
        category = 3
    elif shape[:1] == [2]:
        category = 2
    else:
        category = 1
    return category, tuple([r for _, r in groups])


# The up-cards that set the order: the door card and 4th-6th street. A 7th-street card dealt face up by
# mistake does not change who acts first on 7th street (the hand that was high on 6th keeps the lead; 002 is
# silent, this is the usual stud practice), so the order does not depend on which seat it was dealt to.
ORDER_UP_CARDS = 4


def first_to_act(showing: Mapping[int, Sequence[str]], order: Sequence[int]) -> int:
    """The highest showing hand acts first from 4th street; equal hands: the seat nearest the dealer's
    left, i.e. first in `order` (002 §4). Seats without up-cards come last; only the first
    `ORDER_UP_CARDS` up-cards of a seat count."""
    best = order[0]
    best_key: tuple[int, tuple[int, ...]] = (0, ())
    for seat in order:
        cards = showing.get(seat)
        if not cards:
            continue  # no up-card: never ahead of anyone
        # `showing_key`, inlined: asked for every live seat at every street (replay speed, issue 13)
        key = _ranks_key("".join(sorted(map(_RANK_OF, cards[:ORDER_UP_CARDS]))))
        if key > best_key:
            best, best_key = seat, key
    return best


def open_pair(cards: Sequence[str]) -> bool:
    """Two up-cards of the same rank (4th street: the open pair of 002 §4)."""
    return len(cards) == 2 and cards[0][0] == cards[1][0]


def begin(state: TableState, ev: HandStart, level: Level) -> Start:
    """Stud has no button and no blinds: every seat with chips is dealt in, from the dealer's left (the
    lowest seat number, interfaces.md §1a); a misdeal is simply dealt again."""
    state.redeal = False
    state.disputed = None
    return Start(positions=None, dealt_in=state.seats.occupied(), level=level, findings=[])
