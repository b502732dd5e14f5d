"""Chips in the bet zone: oversized chip, the under-raise rule per profile, short calls, declarations."""

import pytest

from controller.core.betting import BettingRound
from tests.core.test_betting_kit import act, chips, chips_total, codes, feed_ok, make_round, preflop


def facing_bet_of_40(profile: str) -> BettingRound:
    r = make_round(profile=profile, seats=(1, 2, 3), bb=20, stacks=2000)
    feed_ok(r, chips(1, 40))
    return r


# --- the under-raise rule (000 §3.1 vs 001 §8), at and around the 50 % boundary -----------------------

@pytest.mark.parametrize(("profile", "placed", "kind", "total"), [
    # a full raise is 40 (to 80); exactly half of it is a raise to 60
    ("handbuch", 60, "raise", 80),   # 50 % or more stands as a raise, completed to 80
    ("cuca", 60, "call", 40),        # at most half is a call, 20 returned
    ("handbuch", 59, "call", 40),    # under 50 %: a call
    ("cuca", 59, "call", 40),
    ("handbuch", 61, "raise", 80),
    ("cuca", 61, "raise", 80),       # more than half: a raise, completed
    ("tda", 60, "raise", 80),        # TDA: 50 % or more of a full raise must be completed
    ("tda", 59, "call", 40),
])
def test_undeclared_raise_short_of_the_minimum(profile: str, placed: int, kind: str, total: int) -> None:
    r = facing_bet_of_40(profile)
    before = chips_total(r)
    out = r.feed(chips(2, placed))
    assert codes(out) == ["BET_BELOW_MINIMUM"]
    assert str(total) in out[0].message
    assert r.committed[2] == total and r.records[-1].action == kind
    assert chips_total(r) == before


@pytest.mark.parametrize(("profile", "placed", "kind", "total"), [
    # bet 40, re-raised to 120 (an increment of 80): a full raise goes to 200. 000 §3.1 takes the 50 % of
    # the bet the player faces (120: at least 60 more, to 180); 001 §8 and TDA of the increment (80: 40)
    ("handbuch", 180, "raise", 200),
    ("handbuch", 179, "call", 120),
    ("handbuch", 170, "call", 120),  # 50 more: half the increment, but not half the bet faced
    ("tda", 170, "raise", 200),
    ("tda", 159, "call", 120),
    ("cuca", 170, "raise", 200),
    ("cuca", 160, "call", 120),
])
def test_undeclared_raise_after_a_re_raise(profile: str, placed: int, kind: str, total: int) -> None:
    r = facing_bet_of_40(profile)
    feed_ok(r, chips(2, 120))
    before = chips_total(r)
    out = r.feed(chips(3, placed))
    assert codes(out) == ["BET_BELOW_MINIMUM"]
    assert r.committed[3] == total and r.records[-1].action == kind
    assert chips_total(r) == before


def test_opening_bet_below_the_big_blind_per_profile() -> None:
    # bb 20: a bet of 10 is exactly half the minimum bet
    hb = make_round(profile="handbuch", seats=(1, 2), bb=20)
    out = hb.feed(chips(1, 10))
    assert codes(out) == ["BET_BELOW_MINIMUM"] and hb.committed[1] == 20 and hb.current_bet == 20
    cu = make_round(profile="cuca", seats=(1, 2), bb=20)
    out = cu.feed(chips(1, 10))
    assert codes(out) == ["BET_BELOW_MINIMUM"] and "counts as a check" in out[0].message
    assert cu.committed[1] == 0 and cu.to_act == 2


def test_declared_raise_below_minimum_stands_under_handbuch_but_not_cuca() -> None:
    hb = facing_bet_of_40("handbuch")
    out = hb.feed(chips(2, 50, declared="raise"))
    assert codes(out) == ["BET_BELOW_MINIMUM"] and hb.committed[2] == 80
    cu = facing_bet_of_40("cuca")
    out = cu.feed(chips(2, 50, declared="raise"))
    assert codes(out) == ["BET_BELOW_MINIMUM"] and cu.committed[2] == 40


def test_console_raise_below_minimum_is_completed_when_it_stands() -> None:
    r = make_round(profile="cuca", seats=(1, 2, 3), bb=20)
    feed_ok(r, act(1, "bet", 40))
    out = r.feed(act(2, "raise", 70))
    assert codes(out) == ["BET_BELOW_MINIMUM"] and r.committed[2] == 80 and r.min_raise_to == 120


def test_short_raise_completes_all_in_when_the_stack_is_short() -> None:
    r = make_round(profile="cuca", seats=(1, 2, 3), stacks={1: 1000, 2: 70, 3: 1000}, bb=20)
    feed_ok(r, act(1, "bet", 40))
    out = r.feed(chips(2, 65))  # raise by 25 of 40: stands, but only 70 in total
    assert codes(out)[0] == "BET_BELOW_MINIMUM" and "all-in to 70" in out[0].message
    assert r.committed[2] == 70 and 2 in r.all_in


# --- oversized chip (000 §3.1; 001 §8) -------------------------------------------------------------

def test_one_oversized_chip_facing_a_bet_is_a_call() -> None:
    r = make_round(seats=(1, 2, 3), bb=100, stacks=5000)
    feed_ok(r, act(1, "bet", 300))
    out = r.feed(chips(2, 1000))
    assert codes(out) == ["OVERSIZED_CHIP"] and "return 700" in out[0].message
    assert r.committed[2] == 300 and r.records[-1].action == "call" and r.to_act == 3
    assert r.feed(chips(2, 300)) == []  # the dealer gave change: the zone now shows the call


def test_one_oversized_chip_preflop_is_a_call_even_for_the_big_blind() -> None:
    r = preflop(seats=(1, 2, 3), bb=100, stacks=5000)
    out = r.feed(chips(1, 500))
    assert codes(out) == ["OVERSIZED_CHIP"] and r.committed[1] == 100
    feed_ok(r, chips(2, 100))
    out = r.feed(chips(3, 600))  # the BB drops a 500 chip: a check, not a raise
    assert codes(out) == ["OVERSIZED_CHIP"] and "a check" in out[0].message and r.closed


def test_one_chip_opening_a_postflop_round_is_a_bet_of_its_value() -> None:
    r = make_round(seats=(1, 2, 3), bb=100, stacks=5000)
    feed_ok(r, chips(1, 1000))
    assert r.current_bet == 1000 and r.records[-1].action == "bet"


def test_declared_raise_with_one_chip_is_a_raise_to_its_value() -> None:
    r = make_round(seats=(1, 2, 3), bb=100, stacks=5000)
    feed_ok(r, act(1, "bet", 300), chips(2, 1000, declared="raise"))
    assert r.current_bet == 1000 and r.last_aggressor == 2


def test_declared_raise_amount_below_the_chip_value_returns_change() -> None:
    r = make_round(seats=(1, 2, 3), bb=100, stacks=5000)
    feed_ok(r, act(1, "bet", 300), chips(2, 1000, declared="raise", declared_amount=600))
    assert r.current_bet == 600 and r.committed[2] == 600
    assert r.feed(chips(2, 600)) == []


def test_several_chips_over_the_call_are_a_raise() -> None:
    r = make_round(seats=(1, 2, 3), bb=100, stacks=5000)
    feed_ok(r, act(1, "bet", 300), chips(2, 900))
    assert r.current_bet == 900 and r.records[-1].action == "raise"


def test_chip_values_can_be_given_by_the_engine() -> None:
    r = make_round(seats=(1, 2, 3), bb=100, stacks=5000, chip_values={900})
    feed_ok(r, act(1, "bet", 300))
    assert codes(r.feed(chips(2, 900))) == ["OVERSIZED_CHIP"]


# --- short call (000 §3.1) -------------------------------------------------------------------------

@pytest.mark.parametrize("via_chips", [False, True])
def test_short_call_must_be_completed_without_a_raise(via_chips: bool) -> None:
    r = make_round(seats=(1, 2, 3), bb=20, stacks=1000)
    feed_ok(r, act(1, "bet", 40))
    out = r.feed(chips(2, 30) if via_chips else act(2, "call", 30))
    assert codes(out) == ["CALL_SHORT"] and "10 more" in out[0].message
    assert r.to_act == 2 and r.committed[2] == 30 and not r.can_raise(2)
    out = r.feed(chips(2, 200) if via_chips else act(2, "raise", 200))
    assert codes(out) == ["CALL_SHORT"] and "no raise allowed" in out[0].message
    assert r.committed[2] == 40 and r.current_bet == 40 and r.to_act == 3
    assert r.records[-1].added == 40  # the call as a whole


def test_short_call_then_fold_loses_the_chips_put_in() -> None:
    r = make_round(seats=(1, 2, 3), bb=20, stacks=1000)
    total = chips_total(r)
    feed_ok(r, act(1, "bet", 40))
    r.feed(chips(2, 30))
    feed_ok(r, act(2, "fold"))
    assert r.committed[2] == 30 and r.records[-1].added == 30 and chips_total(r) == total


def test_all_in_for_less_than_the_call_is_not_short() -> None:
    r = make_round(seats=(1, 2, 3), bb=20, stacks={1: 1000, 2: 30, 3: 1000})
    feed_ok(r, act(1, "bet", 40), chips(2, 30))
    assert 2 in r.all_in and r.to_act == 3


def test_declared_call_with_too_many_chips_is_a_call() -> None:
    r = make_round(seats=(1, 2, 3), bb=20, stacks=2000)
    feed_ok(r, act(1, "bet", 40), chips(2, 90, declared="call"))
    assert r.committed[2] == 40 and r.current_bet == 40 and r.to_act == 3
    assert r.feed(chips(2, 40)) == []  # the excess handed back


@pytest.mark.parametrize(("profile", "committed"), [("handbuch", 4), ("cuca", 2)])
def test_preflop_raise_of_half_the_big_blind(profile: str, committed: int) -> None:
    r = preflop(profile=profile, seats=(1, 2, 3), bb=2)
    out = r.feed(chips(1, 3))  # raise by 1: exactly half of the big blind increment
    assert codes(out) == ["BET_BELOW_MINIMUM"] and r.committed[1] == committed
