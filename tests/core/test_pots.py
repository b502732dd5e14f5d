"""Pots: uncalled bets, main and side pots, merging, dead money, splits in chip units with odd chips."""

from __future__ import annotations

import pytest

from controller.core.pots import Pot, build_pots, odd_chip_rule, order_from_button, split, uncalled_bet
from controller.core.profiles import PROFILES


def test_uncalled_bet_is_the_excess_over_the_second_largest() -> None:
    assert uncalled_bet({1: 100, 2: 700, 3: 300}) == (2, 400)
    assert uncalled_bet({1: 300, 2: 300}) is None
    assert uncalled_bet({1: 50}) == (1, 50)
    assert uncalled_bet({}) is None


def test_three_all_ins_and_a_caller_make_main_and_two_side_pots() -> None:
    pots = build_pots({1: 100, 2: 300, 3: 600, 4: 600}, live=[1, 2, 3, 4])
    assert pots == [
        Pot(amount=400, eligible=(1, 2, 3, 4)),
        Pot(amount=600, eligible=(2, 3, 4)),
        Pot(amount=600, eligible=(3, 4)),
    ]


def test_folded_chips_stay_in_the_pots_but_give_no_claim() -> None:
    # Seat 2 folded after putting in 250: its chips fill the levels it reached; no extra pot for it.
    pots = build_pots({1: 100, 2: 250, 3: 400, 4: 400}, live=[1, 3, 4])
    assert pots == [Pot(amount=400, eligible=(1, 3, 4)), Pot(amount=750, eligible=(3, 4))]
    assert sum(p.amount for p in pots) == 1150


def test_antes_are_dead_money_in_the_main_pot() -> None:
    pots = build_pots({1: 0, 2: 200, 3: 200}, live=[1, 2, 3], dead_money=300)
    assert pots == [Pot(amount=300, eligible=(1, 2, 3)), Pot(amount=400, eligible=(2, 3))]


def test_chips_above_every_live_level_stay_in_the_last_pot() -> None:
    # Seat 3's hand was declared dead after it bet 500 into two live seats' 200.
    pots = build_pots({1: 200, 2: 200, 3: 500}, live=[1, 2])
    assert pots == [Pot(amount=900, eligible=(1, 2))]


def test_the_tournament_example_of_000_4_1() -> None:
    """SB 7,000, BB 14,000, pot 35,000, smallest chip 1,000: 18,000 left of the button, 17,000 the other."""
    assert split(35_000, [2, 3], 1_000, "all_to_first") == {2: 18_000, 3: 17_000}
    assert split(35_000, [2, 3], 1_000, "one_each") == {2: 18_000, 3: 17_000}


def test_two_odd_units_among_three_winners_by_profile() -> None:
    # 310 in 5-chips: 62 units, 20 each, 2 odd units.
    assert split(310, [4, 6, 1], 5, "one_each") == {4: 105, 6: 105, 1: 100}
    assert split(310, [4, 6, 1], 5, "all_to_first") == {4: 110, 6: 100, 1: 100}


def test_amount_below_one_chip_goes_with_the_first_winner() -> None:
    assert split(1_003, [1, 2], 5, "one_each") == {1: 503, 2: 500}


def test_split_needs_a_winner() -> None:
    with pytest.raises(ValueError, match="winner"):
        split(10, [], 1, "one_each")


def test_order_from_button_is_deal_order() -> None:
    assert order_from_button([1, 7, 3], deal_order=[6, 7, 1, 3]) == [7, 1, 3]


def test_profiles_choose_the_odd_chip_rule() -> None:
    assert odd_chip_rule(PROFILES["handbuch"]) == "one_each"
    assert odd_chip_rule(PROFILES["cuca"]) == "all_to_first"
    assert odd_chip_rule(PROFILES["tda"]) == "all_to_first"


def test_a_dead_or_folded_seat_gets_no_uncalled_chips_back() -> None:
    # The dead big blind put in 100, the small blind 50: the 50 above stay in the pot.
    assert uncalled_bet({1: 50, 2: 100, 3: 0}, live=[1, 3]) is None
    assert uncalled_bet({1: 50, 2: 100, 3: 0}, live=[1, 2, 3]) == (2, 50)
