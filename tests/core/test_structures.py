"""Contract v1.1 (§1a) level/hand_start fields and the pure betting-structure API (structures.py)."""

from __future__ import annotations

import json

import pytest

from controller.core.eventlog import LogError, dumps_event, parse_line
from controller.core.events import HandStart, LevelEvent
from controller.core.structures import BettingStructure, Situation
from controller.core.table import Level

GOOD_LEVELS = [
    {"t": 1.0, "type": "level", "sb": 50, "bb": 100, "ante": 0, "limit": "fixed"},
    {"t": 1.0, "type": "level", "sb": 50, "bb": 100, "ante": 0, "limit": "fixed", "small_bet": 100,
     "big_bet": 200},
    {"t": 1.0, "type": "level", "sb": 50, "bb": 100, "ante": 0, "limit": "pot"},
    {"t": 1.0, "type": "level", "sb": 50, "bb": 100, "ante": 0, "limit": "spread", "small_bet": 100,
     "big_bet": 500},
    {"t": 1.0, "type": "level", "sb": 0, "bb": 0, "ante": 10, "game": "stud7", "limit": "fixed",
     "bring_in": 25, "small_bet": 100, "big_bet": 200},
    {"t": 1.0, "type": "level", "sb": 0, "bb": 0, "ante": 10, "game": "stud7", "limit": "split",
     "bring_in": 50, "small_bet": 100, "big_bet": 200},
    {"t": 1.0, "type": "level", "sb": 0, "bb": 0, "ante": 10, "game": "stud7", "limit": "step_spread",
     "bring_in": 10, "small_bet": 50, "big_bet": 100},
    {"t": 1.0, "type": "level", "sb": 0, "bb": 0, "ante": 10, "game": "stud7", "limit": "pot",
     "bring_in": 10},
]


@pytest.mark.parametrize("obj", GOOD_LEVELS)
def test_level_structure_round_trips(obj: dict) -> None:
    event = parse_line(json.dumps(obj))
    assert json.loads(dumps_event(event)) == obj


def test_defaults_are_omitted_and_old_levels_unchanged() -> None:
    text = '{"t":1.0,"type":"level","sb":50,"bb":100,"ante":0}'
    event = parse_line(text)
    assert isinstance(event, LevelEvent)
    got = (event.game, event.limit, event.bring_in, event.small_bet, event.big_bet)
    assert got == (None, None, 0, 0, 0)  # not given: the table's game applies (levels.py), not "holdem"
    assert dumps_event(event) == text
    level = Level.from_event(event)  # without a table game: hold'em no limit, as before
    assert (level.game, level.limit) == ("holdem", "no")
    # An explicit game is kept when written: it overrides the table's, so it must survive a journal.
    explicit = '{"t":1.0,"type":"level","sb":50,"bb":100,"ante":0,"game":"holdem","limit":"no"}'
    assert dumps_event(parse_line(explicit)) == explicit


def test_stud_level_may_leave_out_the_blinds() -> None:
    event = parse_line('{"t":1,"type":"level","ante":5,"game":"stud7","limit":"fixed","bring_in":10,'
                       '"small_bet":20}')
    assert isinstance(event, LevelEvent) and (event.sb, event.bb, event.big_bet) == (0, 0, 0)
    level = Level.from_event(event)
    assert (level.game, level.limit, level.bring_in, level.small_bet) == ("stud7", "fixed", 10, 20)
    assert BettingStructure.from_level(level).big_bet == 40  # the big bet defaults to twice the small bet


def test_hand_start_game_round_trips() -> None:
    event = parse_line('{"t":3.0,"type":"hand_start","button":2,"game":"stud7"}')
    assert isinstance(event, HandStart) and event.game == "stud7"
    assert dumps_event(event) == '{"t":3.0,"type":"hand_start","button":2,"game":"stud7"}'
    assert dumps_event(parse_line('{"t":3.0,"type":"hand_start"}')) == '{"t":3.0,"type":"hand_start"}'


@pytest.mark.parametrize(("extra", "field"), [
    ({"game": "razz"}, "game"),
    ({"game": "stud7"}, "bring_in"),  # a stud level needs its bring-in
    ({"game": "stud7", "bring_in": 10, "limit": "fixed"}, "small_bet"),
    ({"limit": "nolimit"}, "limit"),
    ({"limit": "spread", "small_bet": 100}, "big_bet"),
    ({"limit": "spread", "big_bet": 100}, "small_bet"),
    ({"limit": "fixed", "small_bet": 200, "big_bet": 100}, "big_bet"),
    ({"limit": "no", "small_bet": 200}, "small_bet"),
    ({"game": "holdem", "bring_in": 5}, "bring_in"),  # hold'em has no bring-in
    ({"limit": "fixed", "bring_in": 30, "small_bet": 20}, "bring_in"),  # no game: fits neither game
    ({"limit": "fixed", "small_bet": 0}, "small_bet"),
    ({"limit": "fixed", "small_bet": "20"}, "small_bet"),
    ({"game": "stud7", "limit": "fixed", "bring_in": 30, "small_bet": 20}, "bring_in"),
])
def test_bad_structure_fields_name_the_field(extra: dict, field: str) -> None:
    obj = {"t": 1.0, "type": "level", "sb": 50, "bb": 100} | extra
    with pytest.raises(LogError) as err:
        parse_line(json.dumps(obj), line=7)
    assert err.value.field == field
    assert str(err.value).startswith(f"line 7, field '{field}': ")
    assert "\n" not in str(err.value)


def test_hand_start_bad_game_names_the_field() -> None:
    with pytest.raises(LogError) as err:
        parse_line('{"t":1,"type":"hand_start","game":"omaha"}')
    assert err.value.field == "game"


def test_holdem_still_needs_its_big_blind() -> None:
    with pytest.raises(LogError) as err:
        parse_line('{"t":1,"type":"level","sb":0,"limit":"fixed"}')
    assert err.value.field == "bb"


# ---------------------------------------------------------------------- the structure API

def fixed(**kw: int | str) -> BettingStructure:
    level = Level(sb=50, bb=100, limit="fixed", **kw)  # type: ignore[arg-type]
    return BettingStructure.from_level(level, raise_cap=3)


def test_holdem_fixed_limit_defaults_to_big_blind_and_twice_it() -> None:
    s = fixed()
    assert (s.small_bet, s.big_bet, s.raise_cap) == (100, 200, 3)
    assert [s.big_round("holdem", i) for i in range(4)] == [False, False, True, True]


def test_fixed_limit_amounts_are_exact_and_capped() -> None:
    s = fixed()
    pre = s.wager(Situation(current_bet=100, last_increment=100, wagers=1))
    assert pre is not None and pre.exact == (200,) and pre.kind == "raise" and pre.allows(200)
    assert not pre.allows(250)
    river = s.wager(Situation(current_bet=0, big=True))
    assert river is not None and river.kind == "bet" and river.exact == (200,)
    assert s.wager(Situation(current_bet=800, wagers=4, big=True)) is None  # bet + 3 raises
    assert s.wager(Situation(current_bet=800, wagers=4, big=True, live=2)) is None  # TDA 48: still capped
    hu = BettingStructure.from_level(Level(sb=50, bb=100, limit="fixed"), heads_up_uncapped=True)
    assert hu.wager(Situation(current_bet=800, wagers=4, big=True, live=2)) is not None
    assert hu.wager(Situation(current_bet=800, wagers=4, big=True, live=3)) is None


def test_limit_short_all_in_reopens_at_half_a_bet() -> None:
    s = fixed()
    sit = Situation(current_bet=100, last_increment=100, wagers=1)
    assert s.short_all_in_reopens(sit, 150)  # exactly half a bet: reopens (TDA 2024 Rule 47-B)
    assert not s.short_all_in_reopens(sit, 149)
    assert s.counts_toward_cap(sit, 150) and not s.counts_toward_cap(sit, 149)
    assert s.counts_toward_cap(sit, 200)


def test_pot_limit_maximum_is_the_pot_after_the_call() -> None:
    s = BettingStructure.from_level(Level(sb=50, bb=100, limit="pot"))
    # Preflop, blinds 50/100, first to act: pot 150; call 100 makes 250; raise by 250 to 350.
    w = s.wager(Situation(current_bet=100, last_increment=100, wagers=1, pot=150))
    assert w is not None and (w.min_to, w.max_to, w.exact) == (200, 350, ())
    # Dead money (antes 30) and this round's bets count: bet 200 into 300 + antes → pot 530.
    w2 = s.wager(Situation(current_bet=200, last_increment=200, pot=530, committed=0))
    assert w2 is not None and w2.max_to == 200 + 530 + 200
    assert s.raise_cap is None and s.wager(Situation(current_bet=100, wagers=40)) is not None


def test_no_limit_matches_todays_minimum() -> None:
    s = BettingStructure.from_level(Level(sb=50, bb=100))
    w = s.wager(Situation(current_bet=400, last_increment=300))
    assert w is not None and w.min_to == 700 and w.max_to > 10**15


def test_spread_limit_bounds() -> None:
    s = BettingStructure.from_level(Level(sb=50, bb=100, limit="spread", small_bet=100, big_bet=500))
    w = s.wager(Situation(current_bet=0))
    assert w is not None and (w.min_to, w.max_to) == (100, 500)
    w = s.wager(Situation(current_bet=300, last_increment=300, wagers=1))
    assert w is not None and (w.min_to, w.max_to) == (600, 800)  # at least the last raise, at most 500 more


def stud(limit: str) -> BettingStructure:
    level = Level(sb=0, bb=0, ante=5, game="stud7", limit=limit, bring_in=10, small_bet=20, big_bet=40)
    return BettingStructure.from_level(level)


def test_split_limit_completion_is_not_a_raise() -> None:
    s = stud("split")
    sit = Situation(current_bet=10, wagers=0, bring_in_open=True)
    w = s.wager(sit)
    assert w is not None and (w.kind, w.exact, w.counts) == ("complete", (20,), False)
    assert s.is_completion(sit, 20) and not s.counts_toward_cap(sit, 20)
    after = s.wager(Situation(current_bet=20, last_increment=20, wagers=1))
    assert after is not None and after.exact == (40,) and after.kind == "raise"


def test_open_pair_allows_the_higher_limit_and_raises_follow_it() -> None:
    s = stud("split")
    bet = s.wager(Situation(current_bet=0, big_allowed=True))
    assert bet is not None and bet.exact == (20, 40)
    raise_ = s.wager(Situation(current_bet=20, last_increment=20, wagers=1, big_allowed=True))
    assert raise_ is not None and raise_.exact == (60,)  # 002 §4: every raise at the higher limit
    assert [s.big_round("stud7", i) for i in range(5)] == [False, False, True, True, True]


def test_step_spread_limit_steps_up() -> None:
    s = stud("step_spread")
    early = s.wager(Situation(current_bet=0))
    late = s.wager(Situation(current_bet=0, big=True))
    pair = s.wager(Situation(current_bet=0, big_allowed=True))
    assert early is not None and (early.min_to, early.max_to) == (10, 20)
    assert late is not None and (late.min_to, late.max_to) == (10, 40)
    assert pair is not None and pair.max_to == 40
