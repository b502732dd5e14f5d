"""Hold'em hand evaluation (phevaluator): rank, category name and the best five cards of 5–7 cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import cast

from phevaluator import _pheval  # type: ignore[import-untyped]  # C extension: pure computation

from controller.core.cards import RANKS, SUITS

# phevaluator ranks run 1 (royal flush) … 7462 (7-5-4-3-2 offsuit); smaller is stronger.
WORST_RANK = 7462
# Upper bound (inclusive) of each category's rank range, strongest first.
CATEGORY_BOUNDS: tuple[tuple[int, str], ...] = (
    (10, "straight flush"),
    (166, "four of a kind"),
    (322, "full house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three of a kind"),
    (3325, "two pair"),
    (6185, "one pair"),
    (7462, "high card"),
)
CATEGORIES: tuple[str, ...] = tuple(name for _, name in CATEGORY_BOUNDS)

_Eval = Callable[..., int]
_EVAL5 = cast(_Eval, _pheval.evaluate_5cards)
_BY_COUNT: dict[int, _Eval] = {
    5: _EVAL5,
    6: cast(_Eval, _pheval.evaluate_6cards),
    7: cast(_Eval, _pheval.evaluate_7cards),
}
_ID: dict[str, int] = {r + s: 4 * ri + si for ri, r in enumerate(RANKS) for si, s in enumerate(SUITS)}


@dataclass(frozen=True, kw_only=True, slots=True)
class HandValue:
    """How strong a hand is: `rank` (1 best … 7462 worst), its category and the five cards that make it."""

    rank: int
    category: str
    best5: tuple[str, ...]


def card_id(card: str) -> int:
    """phevaluator's card number: 4 × rank index + suit index (clubs, diamonds, hearts, spades)."""
    try:
        return _ID[card]
    except KeyError:
        raise ValueError(f"bad card code {card!r}") from None


def eval5_ids(a: int, b: int, c: int, d: int, e: int) -> int:
    """Rank of exactly five cards given as phevaluator ids (the fast path for exhaustive checks)."""
    return _EVAL5(a, b, c, d, e)


def rank_of(cards: Sequence[str]) -> int:
    """Rank of the best five of 5–7 distinct cards."""
    if len(set(cards)) != len(cards):
        raise ValueError(f"duplicate card in {list(cards)}")
    fn = _BY_COUNT.get(len(cards))
    if fn is None:
        raise ValueError(f"need 5 to 7 cards, got {len(cards)}")
    return fn(*_ids(cards))


def _ids(cards: Sequence[str]) -> list[int]:
    """`card_id` of every card; one dict lookup each (every showdown asks), the error names the card."""
    try:
        return [_ID[c] for c in cards]
    except KeyError:
        return [card_id(c) for c in cards]  # raises ValueError for the bad code


def category_of(rank: int) -> str:
    """The category name ('full house', …) of a phevaluator rank."""
    if not 1 <= rank <= WORST_RANK:
        raise ValueError(f"rank {rank} outside 1..{WORST_RANK}")
    for bound, name in CATEGORY_BOUNDS:
        if rank <= bound:
            return name
    raise AssertionError("unreachable")


def _display_order(five: Sequence[str]) -> tuple[str, ...]:
    """Order five cards as they are read aloud: bigger groups first, then by rank; the wheel is 5-4-3-2-A."""
    ranks = sorted((RANKS.index(c[0]) for c in five), reverse=True)
    wheel = ranks == [12, 3, 2, 1, 0]
    counts = {r: ranks.count(r) for r in ranks}

    def key(card: str) -> tuple[int, int, int]:
        r = RANKS.index(card[0])
        high = -1 if wheel and r == 12 else r
        return (-counts[r], -high, -SUITS.index(card[1]))

    return tuple(sorted(five, key=key))


def best_five(cards: Sequence[str]) -> tuple[int, tuple[str, ...]]:
    """The rank and the five cards that make the best hand (ties between fives: the first found)."""
    rank = rank_of(cards)
    if len(cards) == 5:
        return rank, _display_order(cards)
    ids = _ids(cards)
    card_of = dict(zip(ids, cards, strict=True))  # distinct cards (rank_of checked): one id each
    for five in combinations(ids, 5):  # the same order as over the positions: the same five found
        if _EVAL5(*five) == rank:
            return rank, _display_order([card_of[i] for i in five])
    raise AssertionError("phevaluator's best hand not among the fives")


def evaluate(hole: Sequence[str], board: Sequence[str]) -> HandValue:
    """Evaluate hole cards with the board (5–7 cards in all)."""
    rank, five = best_five([*hole, *board])
    return HandValue(rank=rank, category=category_of(rank), best5=five)


def plays_the_board(hole: Sequence[str], board: Sequence[str]) -> bool:
    """True when the five board cards alone are as good as the best hand with the hole cards."""
    if len(board) != 5:
        return False
    return rank_of(board) == rank_of([*hole, *board])
