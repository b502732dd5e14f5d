"""BettingRound basics: turn order, closure, minimum bet and raise, BB option, heads-up, all-in, BAD_EVENT."""

import pytest

from controller.core.betting import BettingRound
from controller.core.profiles import get_profile
from tests.core.test_betting_kit import act, chips, chips_total, codes, feed_ok, make_round, preflop


def test_preflop_limp_around_gives_the_big_blind_its_option() -> None:
    r = preflop(seats=(1, 2, 3))  # button 1, SB 2, BB 3: seat 1 acts first
    assert (r.to_act, r.current_bet, r.min_raise_to) == (1, 2, 4)
    feed_ok(r, act(1, "call", 2), act(2, "call", 2))
    assert r.to_act == 3 and not r.closed  # everyone matched, but the BB has not acted yet
    feed_ok(r, act(3, "check"))
    assert r.closed and r.to_act is None
    assert [(a.seat, a.action, a.total, a.added) for a in r.records] == [
        (1, "call", 2, 2), (2, "call", 2, 1), (3, "check", 2, 0)]
    assert r.actions_taken == 3


def test_big_blind_option_raise_reopens_for_the_limpers() -> None:
    r = preflop(seats=(1, 2, 3))
    feed_ok(r, act(1, "call", 2), act(2, "call", 2), act(3, "raise", 6))
    assert (r.to_act, r.current_bet, r.min_raise_to, r.last_aggressor) == (1, 6, 10, 3)
    feed_ok(r, act(1, "call", 6), act(2, "fold"))
    assert r.closed and r.folded == {2}


def test_heads_up_button_acts_first_preflop_and_bb_closes() -> None:
    r = preflop(seats=(4, 7))  # seat 4 is button and small blind
    assert r.to_act == 4 and r.committed == {4: 1, 7: 2}
    feed_ok(r, act(4, "call", 2))
    assert r.to_act == 7
    feed_ok(r, act(7, "raise", 8))
    assert r.to_act == 4 and r.min_raise_to == 14
    feed_ok(r, act(4, "call", 8))
    assert r.closed


def test_heads_up_fold_ends_the_round() -> None:
    r = preflop(seats=(4, 7))
    feed_ok(r, act(4, "fold"))
    assert r.closed and r.folded == {4}


def test_postflop_all_check_closes_after_each_seat_acted() -> None:
    r = make_round(seats=(2, 5, 9))
    feed_ok(r, act(2, "check"), act(5, "check"))
    assert r.to_act == 9
    feed_ok(r, act(9, "check"))
    assert r.closed and r.last_aggressor is None


def test_bet_call_fold_and_turn_returns_to_unmatched_seats() -> None:
    r = make_round(seats=(1, 2, 3))
    feed_ok(r, act(1, "check"), act(2, "bet", 10))
    assert r.to_act == 3 and r.last_aggressor == 2
    feed_ok(r, act(3, "call", 10))
    assert r.to_act == 1  # the checker faces the bet
    feed_ok(r, act(1, "fold"))
    assert r.closed and r.committed == {1: 0, 2: 10, 3: 10}


def test_minimum_raise_follows_the_last_full_raise() -> None:
    r = make_round(seats=(1, 2, 3, 4), bb=2)
    assert r.min_raise_to == 2  # opening bet: at least the big blind
    feed_ok(r, act(1, "bet", 2))
    assert r.min_raise_to == 4
    feed_ok(r, act(2, "raise", 10))  # raise by 8
    assert (r.current_bet, r.min_raise_inc, r.min_raise_to) == (10, 8, 18)
    feed_ok(r, act(3, "raise", 30))  # raise by 20
    assert r.min_raise_to == 50
    out = r.feed(act(4, "raise", 49))
    assert codes(out) == ["BET_BELOW_MINIMUM"]
    feed_ok(r, act(1, "raise", 80))  # raise by 30 (seat 4's raise was completed to 50)
    assert r.min_raise_to == 110


def test_everyone_all_in_closes_with_nobody_to_act() -> None:
    r = make_round(seats=(1, 2, 3), stacks={1: 50, 2: 80, 3: 30})
    total = chips_total(r)
    feed_ok(r, act(1, "allin"), act(2, "allin"), act(3, "allin"))
    assert r.closed and r.all_in == {1, 2, 3} and r.to_act is None
    assert r.committed == {1: 50, 2: 80, 3: 30} and chips_total(r) == total
    assert [a.action for a in r.records] == ["allin", "allin", "allin"]


def test_last_player_with_chips_need_not_act_against_smaller_all_ins() -> None:
    r = make_round(seats=(1, 2, 3), stacks={1: 50, 2: 500, 3: 30})
    feed_ok(r, act(1, "allin"), act(2, "call", 50), act(3, "allin"))
    assert r.closed  # seat 2 has matched; nobody left to bet against


def test_seats_all_in_from_the_blinds_never_act() -> None:
    r = preflop(seats=(1, 2, 3), stacks={1: 100, 2: 100, 3: 2}, bb=2)
    assert 3 in r.all_in
    feed_ok(r, act(1, "call", 2), act(2, "call", 2))
    assert r.closed  # the all-in big blind has no option


def test_short_big_blind_still_makes_the_full_blind_the_bet() -> None:
    r = BettingRound(street="preflop", seats=(1, 2, 3), first_to_act=1, stacks={1: 100, 2: 99, 3: 0},
                     posted={2: 1, 3: 1}, bb=2, profile=get_profile("cuca"), t=0.0)
    assert r.current_bet == 2 and r.to_call(1) == 2


def test_only_one_live_seat_left_closes_the_round() -> None:
    r = make_round(seats=(1, 2, 3))
    feed_ok(r, act(1, "bet", 4), act(2, "fold"), act(3, "fold"))
    assert r.closed and r.committed[1] == 4


def test_engine_fold_of_the_seat_to_act_moves_the_turn() -> None:
    r = make_round(seats=(1, 2, 3))
    assert r.fold(1, 1.0, "hole card in muck") == []
    assert r.to_act == 2 and r.records[-1].action == "fold"
    assert r.fold(1, 1.0, "again") == []  # idempotent


def test_engine_fold_of_another_seat_can_close_the_round() -> None:
    r = make_round(seats=(1, 2, 3))
    feed_ok(r, act(1, "bet", 10), act(2, "call", 10))
    r.fold(1, 2.0, "dead hand")
    assert r.to_act == 3
    r.fold(2, 2.0, "dead hand")
    assert r.closed


@pytest.mark.parametrize(("event", "needle"), [
    (act(1, "bet", 2000), "more than its 1000 chips"),
    (act(9, "check"), "not in this betting round"),
    (chips(9, 20), "not in this betting round"),
    (act(1, "bet"), "without an amount"),
    (chips(1, 1001), "more than its 1000 chips"),
    (act(1, "allin", 999), "all-in to 999"),
])
def test_bad_events_are_rejected_and_change_nothing(event: object, needle: str) -> None:
    r = make_round(seats=(1, 2, 3))
    before = (dict(r.committed), dict(r.stacks), r.to_act, len(r.records))
    out = r.feed(event)  # type: ignore[arg-type]
    assert codes(out) == ["BAD_EVENT"] and needle in out[0].message
    assert (dict(r.committed), dict(r.stacks), r.to_act, len(r.records)) == before
    feed_ok(r, act(1, "check"))  # tracking goes on
    assert r.to_act == 2


def test_bad_events_against_the_current_bet() -> None:
    r = make_round(seats=(1, 2, 3))
    feed_ok(r, act(1, "bet", 10))
    for ev, needle in [(act(2, "raise", 10), "not above the current bet"),
                       (act(2, "call", 12), "above the current bet"),
                       (act(1, "fold", t=1.0), "")]:
        if not needle:
            continue
        out = r.feed(ev)
        assert codes(out) == ["BAD_EVENT"] and needle in out[0].message, out
    assert r.to_act == 2 and r.current_bet == 10


def test_chips_taken_back_stand_as_placed() -> None:
    # 001 §8: the action placed is binding; taking chips back changes nothing (was BAD_EVENT, "check the
    # sensor", which told the dealer nothing about the player who took them).
    r = make_round(seats=(1, 2, 3))
    feed_ok(r, act(1, "bet", 10))
    out = r.feed(chips(1, 5))
    assert codes(out) == ["BET_TAKEN_BACK"] and "lower than the 10 already committed" in out[0].message
    assert r.to_act == 2 and r.current_bet == 10 and r.committed[1] == 10


def test_check_facing_a_bet_is_no_action_said_once() -> None:
    # The books are silent; TDA 2024 Rules 1, 3: the word binds nothing, the seat still acts.
    r = make_round(seats=(1, 2, 3))
    feed_ok(r, act(1, "bet", 10))
    out = r.feed(act(2, "check"))
    assert codes(out) == ["CHECK_FACING_BET"] and out[0].seat == 2
    assert r.feed(act(2, "check")) == [] and r.to_act == 2 and r.committed[2] == 0
    feed_ok(r, act(2, "call", 10))
    assert r.to_act == 3 and r.current_bet == 10


def test_actions_from_folded_or_all_in_seats_or_after_close_are_bad() -> None:
    r = make_round(seats=(1, 2, 3), stacks={1: 10, 2: 100, 3: 100})
    feed_ok(r, act(1, "allin"), act(2, "fold"))
    assert codes(r.feed(act(2, "call", 10))) == ["BAD_EVENT"]
    assert codes(r.feed(act(1, "raise", 20))) == ["BAD_EVENT"]
    feed_ok(r, act(3, "call", 10))
    assert r.closed
    assert codes(r.feed(act(3, "raise", 50))) == ["BAD_EVENT"]
    # More chips from the seat that just closed the round, nobody acting since: a string bet (000 §3.1),
    # physically possible, so not BAD_EVENT; the call stands.
    assert codes(r.feed(chips(3, 40))) == ["STRING_BET"] and r.committed[3] == 10
    assert r.feed(chips(3, 0)) == []  # the dealer sweeping the bets into the pot
    assert r.feed(act(3, "call", 10)) == []  # the same call reported twice (console and readers)


def test_set_up_errors_are_bugs_not_findings() -> None:
    with pytest.raises(ValueError):
        make_round(seats=(1, 2), first=5)
    with pytest.raises(ValueError):
        make_round(seats=(1, 2), bb=0)
