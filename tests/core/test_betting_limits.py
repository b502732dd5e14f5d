"""BettingRound under limit structures: fixed (cap, heads-up, short all-ins), pot, spread, split and
step-spread limit, and the stud bring-in with its completion (002 §3–5; TDA 2024 Rules 47-B, 48, 54)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.core.betting import BettingRound
from controller.core.profiles import get_profile, with_overrides
from controller.core.record import BetStreet
from controller.core.structures import BettingStructure
from controller.core.table import Level
from tests.core.test_betting_kit import act, chips, chips_total, codes, feed_ok, severity

FULL = os.environ.get("CARDTABLE_FULL") == "1"


def structure(limit: str, **kw: int | str) -> BettingStructure:
    return BettingStructure.from_level(Level(sb=50, bb=100, limit=limit, **kw))  # type: ignore[arg-type]


def limit_round(limit: str = "fixed", *, street: BetStreet = "flop", seats: Sequence[int] = (1, 2, 3),
                stacks: Mapping[int, int] | int = 10_000, posted: Mapping[int, int] | None = None,
                big: bool = False, pot: int = 0, heads_up_uncapped: bool = False, first: int | None = None,
                **kw: int | str) -> BettingRound:
    st = {s: stacks for s in seats} if isinstance(stacks, int) else dict(stacks)
    posted = dict(posted or {})
    behind = {s: st[s] - posted.get(s, 0) for s in seats}
    profile = with_overrides(get_profile("tda"), limit_heads_up_uncapped=heads_up_uncapped)
    struct = BettingStructure.from_level(Level(sb=50, bb=100, limit=limit, **kw),  # type: ignore[arg-type]
                                         raise_cap=profile.limit_raise_cap,
                                         heads_up_uncapped=profile.limit_heads_up_uncapped)
    return BettingRound(street=street, seats=seats, first_to_act=first or seats[0], stacks=behind,
                        posted=posted, bb=100, profile=profile, t=0.0, structure=struct, big=big, pot=pot)


def test_fixed_limit_bet_and_three_raises_then_the_cap() -> None:
    r = limit_round()
    assert r.min_raise_to == 100
    feed_ok(r, act(1, "bet", 100), act(2, "raise", 200), act(3, "raise", 300), act(1, "raise", 400))
    assert r.wagers == 4 and r.legal_wager(2) is None
    out = r.feed(act(2, "raise", 500))  # a 5th wager
    assert codes(out) == ["BET_ABOVE_LIMIT"] and "raise cap" in out[0].message
    assert r.committed[2] == 400 and r.to_act == 3  # it stands as a call
    feed_ok(r, act(3, "call", 400))
    assert r.closed and chips_total(r) == 30_000


def test_fixed_limit_preflop_big_blind_is_the_opening_bet() -> None:
    r = limit_round(street="preflop", posted={2: 50, 3: 100})
    feed_ok(r, act(1, "raise", 200), act(2, "raise", 300), act(3, "raise", 400))
    out = r.feed(act(1, "raise", 500))
    assert codes(out) == ["BET_ABOVE_LIMIT"] and r.committed[1] == 400


def test_heads_up_uncapped_only_when_the_profile_says_so() -> None:
    capped = limit_round(seats=(1, 2))
    feed_ok(capped, act(1, "bet", 100), act(2, "raise", 200), act(1, "raise", 300), act(2, "raise", 400))
    assert codes(capped.feed(act(1, "raise", 500))) == ["BET_ABOVE_LIMIT"]  # TDA 2024 Rule 48
    free = limit_round(seats=(1, 2), heads_up_uncapped=True)
    feed_ok(free, act(1, "bet", 100), act(2, "raise", 200), act(1, "raise", 300), act(2, "raise", 400),
            act(1, "raise", 500), act(2, "raise", 600), act(1, "call", 600))
    assert free.closed and free.wagers == 6


def test_heads_up_uncapped_after_a_fold_leaves_two() -> None:
    three = limit_round(heads_up_uncapped=True)
    feed_ok(three, act(1, "bet", 100), act(2, "raise", 200), act(3, "raise", 300), act(1, "raise", 400))
    assert codes(three.feed(act(2, "raise", 500))) == ["BET_ABOVE_LIMIT"]  # three players in: capped
    r = limit_round(heads_up_uncapped=True)
    feed_ok(r, act(1, "bet", 100), act(2, "raise", 200), act(3, "fold"))  # now heads-up: no cap
    feed_ok(r, act(1, "raise", 300), act(2, "raise", 400), act(1, "raise", 500))
    assert r.current_bet == 500 and r.to_act == 2 and r.wagers == 5


def test_fixed_limit_wrong_amounts() -> None:
    r = limit_round(big=True)
    out = r.feed(act(1, "bet", 300))  # the turn bet is 200
    assert codes(out) == ["BET_ABOVE_LIMIT"] and r.committed[1] == 200
    out = r.feed(act(2, "raise", 300))  # below the exact raise of 400; half a bet or more: completed (tda)
    assert codes(out) == ["BET_BELOW_MINIMUM"] and r.committed[2] == 400
    out = r.feed(chips(3, 450))  # less than half of a raise, undeclared: a call
    assert codes(out) == ["BET_BELOW_MINIMUM"] and r.committed[3] == 400


def test_short_all_in_of_half_a_bet_reopens_in_limit() -> None:
    r = limit_round(stacks={1: 10_000, 2: 150, 3: 10_000})
    feed_ok(r, act(1, "bet", 100), act(2, "allin", 150))  # 50 more = half a bet (TDA 2024 Rule 47-B)
    feed_ok(r, act(3, "call", 150))
    assert r.can_raise(1) and r.legal_wager(1) is not None
    feed_ok(r, act(1, "raise", 250))  # a full bet above the all-in
    assert r.to_act == 3 and r.current_bet == 250


def test_short_all_in_below_half_a_bet_does_not_reopen() -> None:
    r = limit_round(stacks={1: 10_000, 2: 140, 3: 10_000})
    feed_ok(r, act(1, "bet", 100))
    assert codes(r.feed(act(2, "allin", 140))) == ["ALL_IN_AS_CALL"]
    assert r.wagers == 1  # it does not count toward the cap
    feed_ok(r, act(3, "raise", 240))  # seat 3 had not acted: it may raise, a full bet above 140
    feed_ok(r, act(1, "call", 240))
    assert r.closed


def test_short_all_in_below_half_leaves_the_acted_seat_only_a_call() -> None:
    r = limit_round(stacks={1: 10_000, 2: 10_000, 3: 140})
    feed_ok(r, act(1, "bet", 100), act(2, "call", 100))
    assert codes(r.feed(act(3, "allin", 140))) == ["ALL_IN_AS_CALL"]
    assert not r.can_raise(1)
    out = r.feed(act(1, "raise", 240))
    assert codes(out) == ["RAISE_NOT_REOPENED"] and r.committed[1] == 140


def test_pot_limit_maximum() -> None:
    r = limit_round("pot", street="preflop", posted={2: 50, 3: 100}, pot=0)
    assert r.legal_wager(1) is not None and r.legal_wager(1).max_to == 350  # type: ignore[union-attr]
    feed_ok(r, act(1, "raise", 350))
    out = r.feed(act(2, "raise", 2000))  # pot: 500; call 300 more → 800; raise by 800 → 1150
    assert codes(out) == ["BET_ABOVE_LIMIT"] and r.committed[2] == 1150
    feed_ok(r, act(3, "fold"), act(1, "call", 1150))
    assert r.closed


def test_pot_limit_counts_dead_money() -> None:
    r = limit_round("pot", pot=300)  # earlier streets and antes: 300 in the middle
    feed_ok(r, act(1, "bet", 300))
    assert r.legal_wager(2).max_to == 300 + (300 + 300) + 300  # type: ignore[union-attr]
    feed_ok(r, act(2, "raise", 1200))
    assert r.current_bet == 1200


def test_spread_limit_bounds() -> None:
    r = limit_round("spread", small_bet=100, big_bet=500)
    out = r.feed(act(1, "bet", 700))
    assert codes(out) == ["BET_ABOVE_LIMIT"] and r.committed[1] == 500
    feed_ok(r, act(2, "raise", 1000))
    out = r.feed(chips(3, 1200))  # a raise must be at least the last one (500): undeclared, a call
    assert codes(out) == ["BET_BELOW_MINIMUM"] and r.committed[3] == 1000


def stud_round(limit: str = "split", *, seats: Sequence[int] = (1, 2, 3), opener: int = 2,
               big_allowed: bool = False, big: bool = False) -> BettingRound:
    level = Level(sb=0, bb=0, ante=5, game="stud7", limit=limit, bring_in=10, small_bet=20, big_bet=40)
    return BettingRound(street="preflop", seats=seats, first_to_act=opener, stacks={s: 1000 for s in seats},
                        posted={}, bb=0, profile=get_profile("cuca"), t=0.0,
                        structure=BettingStructure.from_level(level), forced_opener=opener if not big
                        and not big_allowed else None, big=big, big_allowed=big_allowed, pot=15)


def test_bring_in_cannot_check_or_fold_before_posting() -> None:
    r = stud_round()
    assert codes(r.feed(act(2, "check"))) == ["BAD_EVENT"]
    assert codes(r.feed(act(2, "fold"))) == ["BAD_EVENT"]
    assert r.to_act == 2 and not r.folded
    feed_ok(r, act(2, "bet", 10))
    assert r.bring_in_open and r.wagers == 0 and r.to_act == 3


def test_completion_is_not_a_raise_and_reopens_for_the_bring_in() -> None:
    r = stud_round()
    feed_ok(r, act(2, "bet", 10), act(3, "raise", 20))  # 002 §3: the completion
    assert not r.bring_in_open and r.wagers == 1 and r.last_aggressor == 3
    feed_ok(r, act(1, "raise", 40), act(2, "raise", 60), act(3, "raise", 80))
    assert r.legal_wager(1) is None  # completion + 3 raises: the cap
    feed_ok(r, act(1, "call", 80), act(2, "call", 80))
    assert r.closed and chips_total(r) == 3000


def test_bring_in_may_complete_at_once_and_all_callers_close() -> None:
    r = stud_round()
    feed_ok(r, act(2, "bet", 20))
    assert r.wagers == 1 and r.to_act == 3
    r2 = stud_round()
    feed_ok(r2, act(2, "bet", 10), act(3, "call", 10), act(1, "call", 10))
    assert r2.closed  # nobody completed: the bring-in has no option


def test_completion_amount_is_exact_in_split_limit() -> None:
    r = stud_round()
    feed_ok(r, act(2, "bet", 10))
    out = r.feed(act(3, "raise", 30))
    assert codes(out) == ["BET_ABOVE_LIMIT"] and r.committed[3] == 20


def test_open_pair_higher_limit_then_every_raise_is_high() -> None:
    r = stud_round(big_allowed=True, opener=1)
    feed_ok(r, act(1, "bet", 20))  # the lower limit is still allowed
    assert r.legal_wager(2).exact == (60,)  # type: ignore[union-attr]  # 002 §4: raises at the higher limit
    feed_ok(r, act(2, "raise", 60))
    r2 = stud_round(big_allowed=True, opener=1)
    feed_ok(r2, act(1, "bet", 40))
    assert r2.big and r2.legal_wager(2).exact == (80,)  # type: ignore[union-attr]


def test_step_spread_limit() -> None:
    r = stud_round("step_spread", big=True, opener=1)
    feed_ok(r, act(1, "bet", 35))
    out = r.feed(act(2, "raise", 100))
    assert codes(out) == ["BET_ABOVE_LIMIT"] and r.committed[2] == 75
    early = stud_round("step_spread", big_allowed=False, opener=1)
    feed_ok(early, act(1, "bet", 10))
    assert codes(early.feed(act(2, "bet", 20))) == []  # bring-in completed to 20 (the lower step's top)


def test_no_limit_is_unchanged_by_default() -> None:
    r = BettingRound(street="flop", seats=(1, 2), first_to_act=1, stacks={1: 1000, 2: 1000}, posted={},
                     bb=2, profile=get_profile("cuca"), t=0.0)
    assert r.structure.kind == "no" and r.min_raise_to == 2
    feed_ok(r, act(1, "bet", 600), act(2, "allin", 1000), act(1, "call", 1000))
    assert r.closed and r.committed == {1: 1000, 2: 1000}


def test_refused_limit_raise_called_is_taken_as_played() -> None:
    r = limit_round(stacks={1: 10_000, 2: 10_000, 3: 140, 4: 10_000}, seats=(1, 2, 3, 4))
    feed_ok(r, act(1, "bet", 100), act(2, "call", 100))
    assert codes(r.feed(act(3, "allin", 140))) == ["ALL_IN_AS_CALL"]
    feed_ok(r, act(4, "call", 140))
    assert codes(r.feed(act(1, "raise", 240))) == ["RAISE_NOT_REOPENED"]  # stands as a call to 140
    out = r.feed(act(2, "call", 240))  # the table let the raise stand: followed as played
    assert codes(out) == ["CORRECTION_NOT_FOLLOWED"]
    assert r.current_bet == 240 and r.committed[1] == 240 and r.to_act == 4


# ---------------------------------------------------------------------- properties
LIMIT_SETTINGS = settings(max_examples=20_000 if FULL else 60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


@LIMIT_SETTINGS
@given(data=st.data())
def test_random_legal_limit_rounds_close_conserve_chips_and_respect_the_cap(data: st.DataObject) -> None:
    """Every structure: legal wagers raise nothing above info, the round closes, chips are conserved,
    fixed amounts are exact, pot limit never exceeds the pot, and the cap holds unless heads-up-free."""
    limit = data.draw(st.sampled_from(["fixed", "pot", "spread", "split", "step_spread"]), label="limit")
    n = data.draw(st.integers(2, 7), label="seats")
    seats = tuple(range(1, n + 1))
    stacks = {s: data.draw(st.integers(1, 3000), label=f"stack{s}") for s in seats}
    hu_free = data.draw(st.booleans(), label="heads_up_uncapped")
    big = data.draw(st.booleans(), label="big")
    pot = data.draw(st.integers(0, 2000), label="pot")
    extra = {"small_bet": 100, "big_bet": 400} if limit in ("spread", "step_spread") else {}
    r = limit_round(limit, seats=seats, stacks=stacks, big=big, pot=pot, heads_up_uncapped=hu_free,
                    **extra)  # type: ignore[arg-type]
    start = chips_total(r)
    for _ in range(200):
        seat = r.to_act
        if seat is None:
            break
        w = r.legal_wager(seat) if r.can_raise(seat) else None
        cap = r.committed[seat] + r.stacks[seat]
        choice = data.draw(st.sampled_from(["fold", "call", "raise", "raise"]), label="choice")
        if choice == "raise" and w is not None and cap > r.current_bet:
            lo, hi = min(w.min_to, cap), min(w.max_to, cap)
            total = data.draw(st.sampled_from(w.exact), label="exact") if w.exact else \
                data.draw(st.integers(lo, hi), label="total")
            total = min(total, cap)
            if limit == "pot":  # at most the pot (the minimum bet when the pot is smaller)
                assert total <= max(w.min_to, r.structure.pot_limit_max(r.situation(seat)))
            out = r.feed(act(seat, "allin" if total == cap else "raise", total))
        elif choice == "fold" and r.to_call(seat) > 0:
            out = r.feed(act(seat, "fold"))
        else:
            out = r.feed(act(seat, "call" if r.to_call(seat) else "check",
                             r.committed[seat] + r.to_call(seat) if r.to_call(seat) else None))
        assert all(severity(f) == "info" for f in out), [f.message for f in out]
        assert chips_total(r) == start
        if r.structure.raise_cap is not None and not hu_free:
            assert r.wagers <= 1 + r.structure.raise_cap
    assert r.closed
