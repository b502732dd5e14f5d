"""Hand evaluation: exhaustive five-card census, exact agreement with PokerKit on random 7-card hands."""

from __future__ import annotations

import os
import random
from collections import Counter
from itertools import combinations, starmap

import pytest
from pokerkit import StandardHighHand

from controller.core.cards import FULL_DECK
from controller.core.evaluate import (
    CATEGORIES,
    best_five,
    category_of,
    eval5_ids,
    evaluate,
    plays_the_board,
    rank_of,
)

FULL = os.environ.get("CARDTABLE_FULL") == "1"

EXPECTED_COUNTS = {
    "straight flush": 40,
    "four of a kind": 624,
    "full house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three of a kind": 54_912,
    "two pair": 123_552,
    "one pair": 1_098_240,
    "high card": 1_302_540,
}


def test_all_2598960_five_card_hands() -> None:
    ranks = Counter(starmap(eval5_ids, combinations(range(52), 5)))
    assert sum(ranks.values()) == 2_598_960
    assert len(ranks) == 7_462
    assert min(ranks) == 1 and max(ranks) == 7_462
    by_category: Counter[str] = Counter()
    for rank, n in ranks.items():
        by_category[category_of(rank)] += n
    assert dict(by_category) == EXPECTED_COUNTS
    # Distinct ranks per category (the standard 10/156/156/1277/10/858/858/2860/1277 table).
    distinct = Counter(category_of(r) for r in ranks)
    assert [distinct[c] for c in CATEGORIES] == [10, 156, 156, 1277, 10, 858, 858, 2860, 1277]


def test_card_ids_match_phevaluator_string_parsing() -> None:
    from phevaluator import evaluate_cards

    rng = random.Random(7)
    for _ in range(200):
        cards = rng.sample(FULL_DECK, 7)
        assert rank_of(cards) == evaluate_cards(*cards)


@pytest.mark.parametrize(
    ("cards", "category", "best5"),
    [
        (["As", "Ks", "Qs", "Js", "Ts", "2c", "3d"], "straight flush", ("As", "Ks", "Qs", "Js", "Ts")),
        (["Ac", "2d", "3s", "4s", "5h", "Kc", "Kd"], "straight", ("5h", "4s", "3s", "2d", "Ac")),
        (["Ac", "Ad", "Kc", "Ks", "Kh", "2c", "2d"], "full house", ("Ks", "Kh", "Kc", "Ad", "Ac")),
        (["9c", "9d", "9h", "9s", "2c", "3d", "Ah"], "four of a kind", ("9s", "9h", "9d", "9c", "Ah")),
        (["2c", "7d", "9h", "Js", "Kc", "3d", "4h"], "high card", ("Kc", "Js", "9h", "7d", "4h")),
        (["2c", "2d", "9h", "9s", "Kc", "Kd", "4h"], "two pair", ("Kd", "Kc", "9s", "9h", "4h")),
    ],
)
def test_names_and_best_five(cards: list[str], category: str, best5: tuple[str, ...]) -> None:
    value = evaluate(cards[:2], cards[2:])
    assert value.category == category
    assert value.best5 == best5
    assert rank_of(list(best5)) == value.rank


def test_playing_the_board() -> None:
    board = ["Ah", "Kh", "Qh", "Jh", "Th"]
    assert plays_the_board(["2c", "3d"], board)
    assert not plays_the_board(["9h", "3d"], ["9c", "Kh", "Qh", "Jh", "Th"])
    assert not plays_the_board(["2c", "3d"], board[:4])


def test_bad_input_is_rejected() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        rank_of(["As", "As", "Kd", "Qd", "Jd"])
    with pytest.raises(ValueError, match="5 to 7"):
        rank_of(["As", "Kd", "Qd", "Jd"])
    with pytest.raises(ValueError, match="bad card"):
        rank_of(["Xx", "Kd", "Qd", "Jd", "Td"])


def test_exact_against_pokerkit_on_random_seven_card_hands() -> None:
    """Rank, category and the ranks of the best five agree with PokerKit's StandardHighHand exactly."""
    rng = random.Random(2024)
    for _ in range(20_000 if FULL else 3_000):
        cards = rng.sample(FULL_DECK, 7)
        hand = StandardHighHand.from_game("".join(cards[:2]), "".join(cards[2:]))
        rank, five = best_five(cards)
        assert rank == 7462 - hand.entry.index, cards
        assert category_of(rank) == hand.entry.label.value.lower(), cards
        assert sorted(c[0] for c in five) == sorted(repr(c)[0] for c in hand.cards), cards
