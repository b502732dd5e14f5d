"""Property tests: random legal rounds raise nothing above info and conserve chips; random junk never crashes.

CARDTABLE_FULL=1 runs many more examples (see docs/betting.md).
"""

import os

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from controller.core.betting import BettingRound
from controller.core.events import ActionEvent, ChipsEvent
from controller.core.profiles import PROFILES, get_profile
from tests.core.test_betting_kit import chips_total, severity

FULL = os.environ.get("CARDTABLE_FULL") == "1"
SETTINGS = settings(max_examples=20_000 if FULL else 150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
pytestmark = pytest.mark.timeout(3600 if FULL else 300)


def random_round(data: st.DataObject) -> BettingRound:
    n = data.draw(st.integers(2, 10), label="seats")
    seats = tuple(sorted(data.draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True))))
    bb = data.draw(st.sampled_from([2, 10, 20, 100, 400]), label="bb")
    street = data.draw(st.sampled_from(["preflop", "flop", "turn", "river"]), label="street")
    low = 1 if street == "preflop" else 0
    stacks = {s: data.draw(st.integers(low, 60 * bb), label=f"stack{s}") for s in seats}
    posted: dict[int, int] = {}
    if street == "preflop":
        sb_seat, bb_seat = (seats[0], seats[1]) if n == 2 else (seats[1], seats[2])
        posted = {sb_seat: min(bb // 2, stacks[sb_seat]), bb_seat: min(bb, stacks[bb_seat])}
        first = seats[0] if n == 2 else seats[3 % n]
    else:
        first = seats[0]
    behind = {s: stacks[s] - posted.get(s, 0) for s in seats}
    profile = get_profile(data.draw(st.sampled_from(sorted(PROFILES)), label="profile"))
    return BettingRound(street=street, seats=seats, first_to_act=first, stacks=behind,  # type: ignore[arg-type]
                        posted=posted, bb=bb, profile=profile, t=0.0)


def legal_event(data: st.DataObject, r: BettingRound, t: float) -> ActionEvent | ChipsEvent:
    """A legal action for the seat to act, as a console action or as chips in its bet zone."""
    seat = r.to_act
    assert seat is not None
    committed, cap = r.committed[seat], r.committed[seat] + r.stacks[seat]
    options = ["fold", "call"]
    if r.can_raise(seat) and cap > r.current_bet:
        options.append("raise")
    choice = data.draw(st.sampled_from(options), label="action")
    via_chips = data.draw(st.booleans(), label="via_chips")
    if choice == "fold":
        return ActionEvent(t=t, seat=seat, action="fold")
    if choice == "call":
        total = min(r.current_bet, cap)
        if total == committed:
            return ActionEvent(t=t, seat=seat, action="check")
        if via_chips:
            return ChipsEvent(t=t, seat=seat, amount=total)
        return ActionEvent(t=t, seat=seat, action="allin" if total == cap else "call", amount=total)
    low = min(r.min_raise_to, cap)
    total = data.draw(st.integers(low, cap), label="raise_to")
    if via_chips:
        declared = data.draw(st.booleans(), label="declared")
        return ChipsEvent(t=t, seat=seat, amount=total, declared="raise" if declared else None)
    action = "allin" if total == cap else ("bet" if r.current_bet == 0 else "raise")
    return ActionEvent(t=t, seat=seat, action=action, amount=total)  # type: ignore[arg-type]


@SETTINGS
@given(st.data())
def test_random_legal_rounds_raise_only_info_and_conserve_chips(data: st.DataObject) -> None:
    r = random_round(data)
    start_total, posted = chips_total(r), dict(r.committed)
    t = 0.0
    for _ in range(400):
        if r.closed:
            break
        t += data.draw(st.floats(0.1, 50.0), label="dt")
        out = r.tick(t) + r.feed(legal_event(data, r, t))
        assert all(severity(f) == "info" for f in out), [f.message for f in out]
        assert chips_total(r) == start_total
    assert r.closed
    live = [s for s in r.seats if s not in r.folded]
    if len(live) > 1:
        assert all(r.committed[s] == r.current_bet for s in live if s not in r.all_in)
    for s in r.seats:
        added = sum(a.added for a in r.records if a.seat == s)
        assert posted[s] + added == r.committed[s]
        assert (r.stacks[s] == 0) == (s in r.all_in or (s in r.folded and r.stacks[s] == 0))


@SETTINGS
@given(st.data())
def test_random_events_never_crash_and_conserve_chips(data: st.DataObject) -> None:
    r = random_round(data)
    start_total = chips_total(r)
    seats = [*r.seats, 11]
    t = 0.0
    for _ in range(data.draw(st.integers(1, 40), label="events")):
        t += data.draw(st.floats(0.0, 90.0), label="dt")
        seat = data.draw(st.sampled_from(seats), label="seat")
        amount = data.draw(st.integers(0, 3000), label="amount")
        kind = data.draw(st.sampled_from(["fold", "check", "call", "bet", "raise", "allin", "chips",
                                          "declared", "announced", "tick", "clock", "engine_fold"]))
        if kind == "tick":
            r.tick(t)
        elif kind == "clock":
            r.clock_called(t)
        elif kind == "engine_fold":
            r.fold(seat, t, "test")
        elif kind == "chips":
            r.feed(ChipsEvent(t=t, seat=seat, amount=amount))
        elif kind == "declared":
            r.feed(ChipsEvent(t=t, seat=seat, amount=amount, declared="raise", declared_amount=amount // 2))
        elif kind == "announced":  # "raise" said, no amount: the call part may be held (000 §3.1 (c))
            r.feed(ChipsEvent(t=t, seat=seat, amount=amount, declared="raise"))
        else:
            r.feed(ActionEvent(t=t, seat=seat, action=kind, amount=amount))  # type: ignore[arg-type]
        assert chips_total(r) == start_total
        assert all(v >= 0 for v in r.stacks.values())
        assert r._n_can_act == sum(1 for s in r.seats if s not in r.folded and s not in r.all_in)
        assert r.closed == (r.to_act is None)


def inject(data: st.DataObject, r: BettingRound, t: float) -> tuple[str, ActionEvent | ChipsEvent]:
    """One betting fault that is possible in the current state, with the code it must raise."""
    seat = r.to_act
    assert seat is not None
    committed, cap = r.committed[seat], r.committed[seat] + r.stacks[seat]
    faults: list[tuple[str, ActionEvent | ChipsEvent]] = [
        ("BAD_EVENT", ActionEvent(t=t, seat=seat, action="raise", amount=cap + 1))]
    if r.current_bet - committed >= 2 and cap > r.current_bet:
        short = data.draw(st.integers(committed + 1, r.current_bet - 1), label="short")
        faults.append(("CALL_SHORT", ChipsEvent(t=t, seat=seat, amount=short)))
    if r.can_raise(seat) and r.min_raise_inc >= 2 and cap > r.min_raise_to:
        under = data.draw(st.integers(r.current_bet + 1, r.min_raise_to - 1), label="under")
        faults.append(("BET_BELOW_MINIMUM", ActionEvent(t=t, seat=seat, action="raise", amount=under)))
    if not r.can_raise(seat) and cap > r.current_bet:
        faults.append(("RAISE_NOT_REOPENED", ActionEvent(t=t, seat=seat, action="allin", amount=cap)))
    others = [s for s in r.seats if s != seat and s not in r.folded and s not in r.all_in
              and (r.committed[s] < r.current_bet or r.can_raise(s))]
    if others:
        other = data.draw(st.sampled_from(others), label="oot_seat")
        faults.append(("ACTION_OUT_OF_TURN", ActionEvent(t=t, seat=other, action="fold")))
    return data.draw(st.sampled_from(faults), label="fault")


@SETTINGS
@given(st.data())
def test_one_injected_fault_raises_its_code_and_tracking_goes_on(data: st.DataObject) -> None:
    r = random_round(data)
    start_total = chips_total(r)
    at = data.draw(st.integers(0, 4), label="inject_at")
    t, expected = 0.0, None
    for step in range(400):
        if r.closed:
            break
        t += 1.0
        if step == at and expected is None:
            expected, ev = inject(data, r, t)
            event(expected)
            out = r.feed(ev)
            assert expected in [f.code for f in out], (expected, [f.message for f in out])
            assert all(f.code == expected or severity(f) == "info" for f in out)
        else:
            out = r.feed(legal_event(data, r, t))
            assert all(severity(f) == "info" for f in out), [f.message for f in out]
        assert chips_total(r) == start_total
    assert r.closed
    assume(expected is not None)  # the round ended before the fault could be injected
