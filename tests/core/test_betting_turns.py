"""Turn irregularities: out-of-turn action (both branches), skipped player, time allowance, clock, absence."""

from controller.core.betting import BettingRound
from controller.core.profiles import get_profile, with_overrides
from tests.core.test_betting_kit import act, chips, codes, feed_ok, make_round, severity

# --- out of turn (000 §3.1; 001 §3) ----------------------------------------------------------------

def test_out_of_turn_call_is_binding_when_the_action_does_not_change() -> None:
    r = make_round(seats=(1, 2, 3, 4))
    feed_ok(r, act(1, "bet", 10))
    out = r.feed(chips(3, 10))  # seat 2 is to act
    assert codes(out) == ["ACTION_OUT_OF_TURN"] and severity(out[0]) == "warning"
    assert r.to_act == 2 and r.committed[3] == 0 and r.pending == {3: 10}
    feed_ok(r, act(2, "call", 10))  # a call changes nothing: seat 3's call now stands
    assert r.committed[3] == 10 and r.to_act == 4 and r.pending == {}
    assert [a.seat for a in r.records] == [1, 2, 3]


def test_out_of_turn_bet_is_binding_after_checks() -> None:
    r = make_round(seats=(1, 2, 3))
    assert codes(r.feed(act(2, "bet", 20))) == ["ACTION_OUT_OF_TURN"]
    feed_ok(r, act(1, "check"))
    assert r.current_bet == 20 and r.last_aggressor == 2 and r.to_act == 3


def test_out_of_turn_action_is_void_when_the_action_changes() -> None:
    r = make_round(seats=(1, 2, 3, 4))
    feed_ok(r, act(1, "bet", 10))
    r.feed(chips(3, 10))
    out = r.feed(act(2, "raise", 30))  # the bet facing seat 3 changed
    assert codes(out) == ["ACTION_OUT_OF_TURN"] and severity(out[0]) == "info"
    assert "void" in out[0].message
    assert r.to_act == 3 and r.committed[3] == 0  # seat 3 acts again, in turn
    assert r.feed(chips(3, 0)) == []  # its chips come back
    feed_ok(r, chips(3, 30))
    assert r.committed[3] == 30 and r.to_act == 4


def test_out_of_turn_chips_taken_back_before_the_turn_cancel_it() -> None:
    r = make_round(seats=(1, 2, 3))
    r.feed(chips(3, 20))
    assert r.feed(chips(3, 0)) == [] and r.pending == {}
    feed_ok(r, act(1, "check"))
    assert r.to_act == 2


def test_out_of_turn_fold_is_binding_at_once() -> None:
    r = make_round(seats=(1, 2, 3))
    feed_ok(r, act(1, "bet", 10))
    out = r.feed(act(3, "fold"))
    assert codes(out) == ["ACTION_OUT_OF_TURN"] and 3 in r.folded and r.to_act == 2
    feed_ok(r, act(2, "call", 10))
    assert r.closed


def test_out_of_turn_action_still_pending_when_betting_closes_is_void() -> None:
    r = make_round(seats=(1, 2, 3))
    feed_ok(r, act(1, "check"), act(2, "check"))
    out = r.feed(act(1, "bet", 10))  # seat 1 already checked; seat 3 is to act
    assert codes(out) == ["ACTION_OUT_OF_TURN"]
    out = r.feed(act(3, "check"))
    assert r.closed and codes(out) == ["ACTION_OUT_OF_TURN"] and r.committed[1] == 0


# --- skipped player (001 §8) -----------------------------------------------------------------------

def test_two_later_seats_acting_fold_the_skipped_seat_and_their_actions_stand() -> None:
    r = make_round(seats=(1, 2, 3, 4))
    feed_ok(r, act(1, "bet", 10))
    assert codes(r.feed(act(3, "call", 10))) == ["ACTION_OUT_OF_TURN"]
    out = r.feed(act(4, "call", 10))
    assert codes(out) == ["ACTION_OUT_OF_TURN", "PLAYER_SKIPPED"]
    assert out[1].seat == 2 and 2 in r.folded
    assert r.committed == {1: 10, 2: 0, 3: 10, 4: 10} and r.closed


def test_skipped_seat_that_speaks_at_once_keeps_its_turn() -> None:
    r = make_round(seats=(1, 2, 3, 4))
    feed_ok(r, act(1, "bet", 10))
    r.feed(act(3, "call", 10))
    out = r.feed(act(2, "raise", 30))  # seat 2 objects and acts: seat 3's call is void
    assert codes(out) == ["ACTION_OUT_OF_TURN"] and 2 not in r.folded and r.to_act == 3


def test_the_same_seat_acting_twice_out_of_turn_is_not_a_skip() -> None:
    r = make_round(seats=(1, 2, 3))
    r.feed(chips(3, 10))
    out = r.feed(chips(3, 20))
    # 000 §3.1: the second motion is a string bet, out of turn too; the held action keeps its first amount
    # (the betting audit; this pinned a second ACTION_OUT_OF_TURN holding 20 before).
    assert codes(out) == ["STRING_BET"] and 1 not in r.folded and r.pending == {3: 10}
    out = r.feed(act(3, "raise", 20))  # a console raise is a different action: it replaces the held one
    assert codes(out) == ["ACTION_OUT_OF_TURN"] and 1 not in r.folded and r.pending == {3: 20}


# --- time (004 §11) --------------------------------------------------------------------------------

def test_action_time_is_reported_once_per_turn() -> None:
    r = make_round(seats=(1, 2, 3), t=100.0)
    assert r.tick(160.0) == []  # exactly the allowance is fine
    out = r.tick(160.5)
    assert codes(out) == ["ACTION_TIME"] and out[0].seat == 1
    assert r.tick(200.0) == []
    feed_ok(r, act(1, "check", t=201.0))
    assert r.tick(261.0) == [] and codes(r.tick(261.5)) == ["ACTION_TIME"]


def test_facing_an_all_in_the_allowance_is_two_minutes() -> None:
    r = make_round(seats=(1, 2), stacks={1: 50, 2: 500}, t=0.0)
    feed_ok(r, act(1, "allin", t=10.0))
    assert r.tick(100.0) == []
    assert codes(r.tick(130.5)) == ["ACTION_TIME"]


def test_clock_runs_out_and_the_hand_is_dead() -> None:
    r = make_round(seats=(1, 2, 3), t=0.0)
    feed_ok(r, act(1, "bet", 10, t=1.0))
    assert codes(r.tick(65.0)) == ["ACTION_TIME"]
    assert r.clock_called(70.0) == []
    assert r.tick(129.0) == []
    out = r.tick(130.0)
    assert codes(out) == ["DEAD_HAND_CLOCK"] and severity(out[0]) == "dead_hand" and out[0].seat == 2
    assert 2 in r.folded and r.to_act == 3


def test_clock_is_cancelled_when_the_seat_acts() -> None:
    r = make_round(seats=(1, 2, 3), t=0.0)
    r.clock_called(70.0)
    assert codes(r.feed(act(1, "check", t=100.0))) == ["ACTION_TIME"]  # late, but before the clock ran out
    assert codes(r.tick(131.0)) == []  # seat 2's turn began at 100: no clock, no time yet


def test_profile_time_allowances_are_used() -> None:
    quick = with_overrides(get_profile("cuca"), action_time_s=5.0, all_in_time_s=10.0)
    r = BettingRound(street="flop", seats=(1, 2), first_to_act=1, stacks={1: 100, 2: 100}, posted={},
                     bb=2, profile=quick, t=0.0)
    assert codes(r.tick(5.5)) == ["ACTION_TIME"]


# --- absent players (001 §5) -----------------------------------------------------------------------

def test_absent_player_checks_when_free_and_is_folded_facing_a_bet() -> None:
    r = make_round(seats=(1, 2, 3), absent={1})
    assert r.to_act == 2 and r.records[0].action == "check"
    feed_ok(r, act(2, "bet", 10), act(3, "call", 10))
    assert 1 in r.folded and r.closed


def test_player_leaving_while_to_act_facing_a_bet_is_folded() -> None:
    r = make_round(seats=(1, 2, 3))
    feed_ok(r, act(1, "bet", 10))
    assert r.set_present(2, False, 5.0) == []
    assert 2 in r.folded and r.to_act == 3
    assert r.set_present(2, True, 6.0) == []


def test_an_out_of_turn_fold_counts_towards_a_skip() -> None:
    r = make_round(seats=(1, 2, 3, 4))
    r.feed(act(3, "fold"))
    out = r.feed(act(4, "check"))
    assert codes(out) == ["ACTION_OUT_OF_TURN", "PLAYER_SKIPPED"] and out[1].seat == 1
    assert r.folded == {1, 3} and r.to_act == 2 and r.pending == {4: 0}
    feed_ok(r, act(2, "check"))  # seat 4's held check now stands and closes the round
    assert r.closed and [a.action for a in r.records[-2:]] == ["check", "check"]


def test_action_after_the_clock_ran_out_is_not_applied_even_without_a_tick() -> None:
    r = make_round(seats=(1, 2, 3), t=0.0)
    r.clock_called(10.0)
    out = r.feed(act(1, "bet", 10, t=75.0))
    assert codes(out) == ["DEAD_HAND_CLOCK"] and 1 in r.folded and r.committed[1] == 0 and r.to_act == 2


def test_late_action_reports_the_time_first() -> None:
    r = make_round(seats=(1, 2, 3), t=0.0)
    out = r.feed(act(1, "check", t=90.0))
    assert codes(out) == ["ACTION_TIME"] and out[0].seat == 1 and r.to_act == 2
    assert r.tick(90.0) == []  # the engine's own tick after the event adds nothing
