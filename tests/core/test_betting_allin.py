"""All-in reopening per profile: 001 §8.2 worked examples 1-3, the half-raise boundary, RAISE_NOT_REOPENED.

Reading of 001 §8.2 (docs/betting.md): on the flop with bb = 2, A bets 3, so the minimum raise increment is
3. B's all-in to 4 raises by 1, less than half of 3 (1.5): under cuca it counts as a call for reopening
(ALL_IN_AS_CALL); the next raise must reach 4 + 3 = 7.
"""

import pytest

from controller.core.betting import BettingRound
from tests.core.test_betting_kit import act, chips, codes, feed_ok, make_round

A, B, C = 1, 2, 3


def example_start(profile: str = "cuca", via_chips: bool = False) -> tuple[BettingRound, list[str]]:
    """A bets 3, B goes all-in for 4 (stack 4)."""
    r = make_round(profile=profile, seats=(A, B, C), stacks={A: 100, B: 4, C: 100}, bb=2)
    feed_ok(r, chips(A, 3) if via_chips else act(A, "bet", 3))
    out = r.feed(chips(B, 4) if via_chips else act(B, "allin"))
    return r, codes(out)


@pytest.mark.parametrize("via_chips", [False, True])
def test_example_1_c_may_call_4_raise_to_7_or_fold(via_chips: bool) -> None:
    r, found = example_start(via_chips=via_chips)
    assert found == ["ALL_IN_AS_CALL"]
    assert (r.to_act, r.current_bet, r.to_call(C), r.min_raise_to) == (C, 4, 4, 7)
    assert r.can_raise(C)
    # raise to 6 is below the minimum 7 (increment 2 of 3: more than half → must complete to 7)
    out = r.feed(act(C, "raise", 6))
    assert codes(out) == ["BET_BELOW_MINIMUM"] and "complete it to 7" in out[0].message
    assert r.committed[C] == 7


@pytest.mark.parametrize("via_chips", [False, True])
def test_example_2_after_c_calls_a_may_not_raise(via_chips: bool) -> None:
    r, _ = example_start(via_chips=via_chips)
    feed_ok(r, chips(C, 4) if via_chips else act(C, "call", 4))
    assert r.to_act == A and not r.can_raise(A)
    out = r.feed(chips(A, 10) if via_chips else act(A, "raise", 10))
    assert codes(out) == ["RAISE_NOT_REOPENED"] and "stands as a call to 4" in out[0].message
    # The default consequence (TDA 2024 Rule 47 reading): the refused raise stands as a call, so the
    # round closes whether or not the dealer then repeats the call or hands back the excess.
    assert r.closed and r.committed == {A: 4, B: 4, C: 4}
    feed_ok(r, chips(A, 4) if via_chips else act(A, "call", 4))
    assert r.closed and r.committed == {A: 4, B: 4, C: 4}


@pytest.mark.parametrize("via_chips", [False, True])
def test_example_3_after_c_raises_to_7_a_may_reraise_to_10(via_chips: bool) -> None:
    r, _ = example_start(via_chips=via_chips)
    feed_ok(r, chips(C, 7) if via_chips else act(C, "raise", 7))
    assert r.to_act == A and r.can_raise(A) and r.min_raise_to == 10
    feed_ok(r, chips(A, 10) if via_chips else act(A, "raise", 10))
    assert r.last_aggressor == A and r.to_act == C


def test_examples_hold_under_handbuch_without_the_info() -> None:
    r, found = example_start(profile="handbuch")
    assert found == []  # a short all-in is simply not a full raise there
    assert r.min_raise_to == 7
    feed_ok(r, act(C, "call", 4))
    assert codes(r.feed(act(A, "raise", 10))) == ["RAISE_NOT_REOPENED"]


def half_raise_all_in(profile: str) -> BettingRound:
    """A bets 40, B all-in to 60: a raise by 20, exactly half of a full raise (40)."""
    r = make_round(profile=profile, seats=(A, B, C), stacks={A: 1000, B: 60, C: 1000}, bb=20)
    feed_ok(r, act(A, "bet", 40))
    return r


def test_all_in_of_exactly_half_a_raise_reopens_under_cuca() -> None:
    r = half_raise_all_in("cuca")
    feed_ok(r, act(B, "allin"), act(C, "call", 60))
    assert r.can_raise(A) and r.min_raise_to == 100  # unchanged increment 40 on top of 60
    feed_ok(r, act(A, "raise", 100))
    assert r.last_aggressor == A


@pytest.mark.parametrize("profile", ["handbuch", "classic", "tda"])
def test_all_in_of_exactly_half_a_raise_does_not_reopen_under_full_raise_profiles(profile: str) -> None:
    r = half_raise_all_in(profile)
    feed_ok(r, act(B, "allin"), act(C, "call", 60))
    assert not r.can_raise(A)
    out = r.feed(act(A, "raise", 100))
    assert codes(out) == ["RAISE_NOT_REOPENED"]
    feed_ok(r, act(A, "fold"))
    assert r.closed


def test_seat_that_has_not_acted_may_raise_after_a_short_all_in() -> None:
    r = make_round(profile="handbuch", seats=(A, B, C, 4), stacks={A: 1000, B: 50, C: 1000, 4: 1000}, bb=20)
    feed_ok(r, act(A, "bet", 40), act(B, "allin"), act(C, "call", 50))
    assert r.to_act == 4 and r.can_raise(4) and r.min_raise_to == 90
    feed_ok(r, act(4, "raise", 90))
    assert r.can_raise(A)  # a full raise reopens for everyone


def test_full_all_in_raise_reopens_and_sets_the_increment() -> None:
    r = make_round(profile="handbuch", seats=(A, B, C), stacks={A: 1000, B: 150, C: 1000}, bb=20)
    feed_ok(r, act(A, "bet", 40), act(B, "allin"), act(C, "call", 150))
    assert r.can_raise(A) and r.min_raise_to == 260


def test_all_in_call_for_less_keeps_the_full_bet_to_call() -> None:
    """001 §8.1: after an incomplete all-in call, the others must still call the full bet."""
    r = make_round(seats=(A, B, C), stacks={A: 1000, B: 25, C: 1000}, bb=20)
    feed_ok(r, act(A, "bet", 40), act(B, "allin"))
    assert r.current_bet == 40 and r.to_call(C) == 40 and r.records[-1].action == "allin"
    feed_ok(r, act(C, "call", 40))
    assert r.closed


def test_short_all_in_opening_bet_under_cuca() -> None:
    r = make_round(seats=(A, B), stacks={A: 1000, B: 5}, bb=20, first=B)
    out = r.feed(act(B, "allin"))
    assert codes(out) == ["ALL_IN_AS_CALL"]  # 5 is less than half the minimum bet of 20
    assert r.to_act == A and r.to_call(A) == 5
