"""Illegal actions get the rulebook's default consequence, so the round never waits (issue 11).

String bet (000 §3.1), cumulative short all-ins (TDA 2024 Rule 47, PokerKit issue #45), min-raise with a
capped stack, a raise by a seat that showed a hole card (000 §4.1), a refused raise let stand.
"""

from __future__ import annotations

import pytest

from tests.core.test_betting_kit import act, chips, codes, feed_ok, make_round


def test_string_bet_stands_at_the_first_amount() -> None:
    r = make_round(seats=(1, 2, 3), bb=100)
    feed_ok(r, act(1, "bet", 200))
    feed_ok(r, chips(2, 200))  # seat 2 calls with chips …
    out = r.feed(chips(2, 600))  # … and reaches back for more: a string bet, not a raise
    assert codes(out) == ["STRING_BET"] and r.committed[2] == 200 and r.current_bet == 200
    assert r.to_act == 3
    assert r.feed(chips(2, 200)) == []  # the dealer hands back the extra
    feed_ok(r, act(3, "call", 200))
    assert r.closed and r.committed == {1: 200, 2: 200, 3: 200}


def test_string_bet_called_is_taken_as_played() -> None:
    """The extra is not handed back and the next seat calls the whole amount: the table let the string
    bet stand; one CORRECTION_NOT_FOLLOWED and the call is a raise to 600 as played."""
    r = make_round(seats=(1, 2, 3), bb=100)
    feed_ok(r, act(1, "bet", 200), chips(2, 200))
    assert codes(r.feed(chips(2, 600))) == ["STRING_BET"]
    out = r.feed(act(3, "call", 600))
    assert codes(out) == ["CORRECTION_NOT_FOLLOWED"] and r.current_bet == 600 and r.min_raise_inc == 400
    assert r.committed == {1: 200, 2: 600, 3: 600} and r.to_act == 1
    assert [(a.seat, a.action, a.total) for a in r.records][-2:] == [(2, "raise", 600), (3, "call", 600)]
    feed_ok(r, act(1, "call", 600))
    assert r.closed


def test_string_bet_returned_then_a_call_of_the_whole_amount_is_no_string() -> None:
    """Once the dealer handed the extra back, a call to the string amount is not the string standing."""
    r = make_round(seats=(1, 2, 3), bb=100)
    feed_ok(r, act(1, "bet", 200), chips(2, 200))
    assert codes(r.feed(chips(2, 600))) == ["STRING_BET"]
    assert r.feed(chips(2, 200)) == []
    assert "CORRECTION_NOT_FOLLOWED" not in codes(r.feed(act(3, "call", 600)))
    assert r.committed[2] == 200


def test_oversized_chip_change_given_then_a_call_of_the_chip_is_no_raise_standing() -> None:
    """The dealer handed the change back (a lower bet zone): the chip no longer lies there, so a later
    call of the chip's value is not the table letting it stand as a raise."""
    r = make_round(seats=(1, 2, 3), bb=100)
    feed_ok(r, act(1, "bet", 200))
    assert codes(r.feed(chips(2, 500))) == ["OVERSIZED_CHIP"] and r.committed[2] == 200
    assert r.feed(chips(2, 200)) == []  # the change goes back
    assert "CORRECTION_NOT_FOLLOWED" not in codes(r.feed(act(3, "call", 500)))
    assert r.committed[2] == 200 and r.current_bet == 200


def test_a_floor_acceptance_of_a_short_call_is_spent_once_the_call_is_completed() -> None:
    """Accepted, then completed after all: a later short call the table leaves standing is reported."""
    r = make_round(seats=(1, 2, 3, 4), bb=100)
    feed_ok(r, act(1, "bet", 200))
    assert codes(r.feed(act(2, "call", 150))) == ["CALL_SHORT"]
    r.accept_as_played()
    feed_ok(r, act(2, "call", 200))  # completed in its own turn after all
    assert codes(r.feed(act(3, "call", 150))) == ["CALL_SHORT"]
    assert codes(r.feed(act(4, "call", 200))) == ["CORRECTION_NOT_FOLLOWED"]
    assert r.committed[3] == 150 and r.closed


@pytest.mark.parametrize("profile", ["handbuch", "uesg", "classic", "tda"])
def test_cumulative_short_all_ins_reopen_under_full_raise_profiles(profile: str) -> None:
    """A bets 100; B all-in 150 and C all-in 200 are each short, together a full raise of 100 over
    A's bet: A may re-raise (TDA 2024 Rule 47)."""
    r = make_round(profile=profile, seats=(1, 2, 3, 4), bb=100, stacks={1: 5000, 2: 150, 3: 200, 4: 5000})
    feed_ok(r, act(1, "bet", 100), act(2, "allin"), act(3, "allin"), act(4, "call", 200))
    assert r.to_act == 1 and r.can_raise(1)
    feed_ok(r, act(1, "raise", 400))
    assert r.current_bet == 400 and r.to_act == 4


@pytest.mark.parametrize("profile", ["handbuch", "tda"])
def test_one_short_all_in_does_not_reopen(profile: str) -> None:
    r = make_round(profile=profile, seats=(1, 2, 3), bb=100, stacks={1: 5000, 2: 150, 3: 5000})
    feed_ok(r, act(1, "bet", 100), act(2, "allin"), act(3, "call", 150))
    assert r.to_act == 1 and not r.can_raise(1)
    out = r.feed(act(1, "raise", 400))
    assert codes(out) == ["RAISE_NOT_REOPENED"] and "stands as a call to 150" in out[0].message
    assert r.closed and r.committed == {1: 150, 2: 150, 3: 150}


def test_min_raise_with_a_capped_stack_is_an_all_in_not_an_under_raise() -> None:
    r = make_round(profile="tda", seats=(1, 2, 3), bb=100, stacks={1: 5000, 2: 250, 3: 5000})
    feed_ok(r, act(1, "bet", 200))
    feed_ok(r, act(2, "raise", 250))  # the minimum would be 400; 250 is everything seat 2 has
    assert r.current_bet == 250 and 2 in r.all_in and r.min_raise_to == 450
    feed_ok(r, act(3, "call", 250), act(1, "call", 250))
    assert r.closed


def test_a_seat_that_showed_a_card_may_only_call() -> None:
    r = make_round(seats=(1, 2), bb=100)
    r.show_card(2)
    feed_ok(r, act(1, "bet", 200))
    out = r.feed(act(2, "raise", 600))
    assert codes(out) == ["RAISE_AFTER_EXPOSED_CARD"] and r.committed[2] == 200 and r.closed


def test_a_refused_wager_called_says_what_the_first_alert_said() -> None:
    """The CORRECTION_NOT_FOLLOWED for a refused wager the table called names it as the first alert did:
    an opening bet that counted as a check, a raise that counted as a call (stud audit, case 39)."""
    r = make_round(seats=(1, 2, 3), bb=100)
    first = r.feed(act(1, "bet", 40))
    assert codes(first) == ["BET_BELOW_MINIMUM"] and "counts as a check" in first[0].message
    out = r.feed(act(2, "call", 40))
    assert codes(out) == ["CORRECTION_NOT_FOLLOWED"]
    assert "refused bet to 40" in out[0].message and "counts as a check" in out[0].message
    r = make_round(seats=(1, 2, 3), bb=100)
    feed_ok(r, act(1, "bet", 200))
    first = r.feed(act(2, "raise", 250))
    assert codes(first) == ["BET_BELOW_MINIMUM"] and "counts as a call" in first[0].message
    out = r.feed(act(3, "call", 250))
    assert codes(out) == ["CORRECTION_NOT_FOLLOWED"]
    assert "refused raise to 250" in out[0].message and "counts as a call" in out[0].message
