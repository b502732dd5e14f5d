"""The table's game from its config (issue 13): a hand_start that names a game beats the level, a level that
names one beats the table's, and a level that names none is never read as an explicit "holdem"."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from controller.core.alerts import Alert
from controller.core.engine import Engine
from controller.core.eventlog import LogError, dumps_event, parse_line, read_events
from controller.core.events import Event, HandStart, LevelEvent, SeatEvent
from controller.core.games.studhand import StudHand
from controller.core.hand import Hand
from controller.core.levels import TableGame, structure_problem
from controller.core.profiles import get_profile

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
STUD7 = TableGame(game="stud7", limit="fixed")


def engine(game: TableGame | None = None, seats: int = 3) -> Engine:
    eng = Engine(profile=get_profile("cuca"), strict=True, game=game)
    for seat in range(1, seats + 1):
        eng.feed(SeatEvent(t=0.1, seat=seat, player=f"P{seat}", stack=500))
    return eng


def alerts(eng: Engine, ev: Event) -> list[Alert]:
    return [o for o in eng.feed(ev) if isinstance(o, Alert)]


def stud_log_without_game() -> str:
    """stud_clean_fixed with its level stripped of `game`, `sb` and `bb`: a stud log that names no game."""
    out = []
    for line in (SCENARIOS / "stud_clean_fixed.jsonl").read_text().splitlines():
        obj = json.loads(line)
        if obj["type"] == "level":
            for key in ("game", "sb", "bb"):
                obj.pop(key)
        out.append(json.dumps(obj))
    return "\n".join(out) + "\n"


def replay(text: str, game: TableGame | None) -> list[Alert]:
    eng = Engine(profile=get_profile("cuca"), strict=True, game=game)
    got: list[Alert] = []
    for _line, ev in read_events(io.StringIO(text)):
        got += [o for o in eng.feed(ev) if isinstance(o, Alert)]
    got += [o for o in eng.finish(eng.last_t) if isinstance(o, Alert)]
    return got


# --- the level that names no game ----------------------------------------------------------------------
def test_a_stud_log_without_game_replays_as_stud_when_the_table_deals_stud() -> None:
    text = stud_log_without_game()
    assert '"game"' not in text
    with (SCENARIOS / "stud_clean_fixed.jsonl").open() as fh:
        named = [(a.code, a.seat, a.street, a.message) for a in replay(fh.read(), None)]
    got = [(a.code, a.seat, a.street, a.message) for a in replay(text, STUD7)]
    assert got == named  # the same hand, alert for alert, as the log that names stud7 in its level
    assert [c for c, *_ in got] == ["SHOWDOWN_ORDER", "POT_AWARD"]


def test_the_same_log_at_a_holdem_table_is_refused_naming_the_level() -> None:
    eng = engine()
    ev = parse_line('{"t":1,"type":"level","ante":5,"limit":"fixed","bring_in":10,"small_bet":20}')
    (bad,) = alerts(eng, ev)
    assert bad.code == "BAD_EVENT" and "names no game" in bad.message and "'holdem'" in bad.message
    assert "field 'bb'" in bad.message and "[table] game" in bad.message
    assert eng.seats.level is None  # not applied: the next hand_start says no level is in force


def test_an_old_holdem_log_still_plays_holdem_without_a_table_game() -> None:
    eng = engine()
    eng.feed(LevelEvent(t=0.2, sb=5, bb=10))
    eng.feed(HandStart(t=1.0, button=1))
    assert type(eng.current) is Hand and eng.current.level.game == "holdem"
    assert eng.current.level.limit == "no"


def test_the_table_fills_in_limit_and_amounts_the_level_leaves_out() -> None:
    eng = engine(TableGame(game="stud7", limit="split", big_bet=50))
    eng.feed(LevelEvent(t=0.2, sb=0, bb=0, ante=5, bring_in=10, small_bet=20))
    lv = eng.seats.level
    assert lv is not None and (lv.game, lv.limit, lv.bring_in, lv.small_bet, lv.big_bet) == (
        "stud7", "split", 10, 20, 50)
    eng.feed(LevelEvent(t=0.3, sb=0, bb=0, ante=5, limit="fixed", bring_in=5, small_bet=10, big_bet=20))
    lv = eng.seats.level
    assert lv is not None and (lv.limit, lv.bring_in, lv.big_bet) == ("fixed", 5, 20)  # the level's win


def test_a_level_that_names_its_game_beats_the_table() -> None:
    eng = engine(STUD7)
    eng.feed(LevelEvent(t=0.2, sb=5, bb=10, game="holdem"))
    eng.feed(HandStart(t=1.0, button=1))
    assert type(eng.current) is Hand
    eng = engine(TableGame(game="holdem"))
    eng.feed(LevelEvent(t=0.2, sb=0, bb=0, ante=5, game="stud7", limit="fixed", bring_in=10, small_bet=20))
    eng.feed(HandStart(t=1.0))
    assert isinstance(eng.current, StudHand)


# --- hand_start beats the level: a mixed rotation --------------------------------------------------------
def test_hand_start_game_beats_level_and_table_in_a_mixed_rotation() -> None:
    """One level for the whole rotation, naming no game: blinds for the hold'em hands, the bring-in for the
    stud hands; the table deals stud at fixed limit; hand_start names hold'em for the hold'em hands."""
    eng = engine(STUD7)
    eng.feed(LevelEvent(t=0.2, sb=5, bb=10, ante=2, bring_in=5, small_bet=10, big_bet=20))
    kinds = []
    for i, game in enumerate((None, "holdem", "holdem", None, "stud7")):
        eng.feed(HandStart(t=1.0 + i, button=1 if game == "holdem" else None, game=game))
        hand = eng.current
        kinds.append((type(hand).__name__, hand.level.game, hand.level.limit))
    assert kinds == [("StudHand", "stud7", "fixed"), ("Hand", "holdem", "fixed"), ("Hand", "holdem", "fixed"),
                     ("StudHand", "stud7", "fixed"), ("StudHand", "stud7", "fixed")]


def test_hand_start_naming_a_game_the_level_cannot_serve_is_reported() -> None:
    eng = engine()
    eng.feed(LevelEvent(t=0.2, sb=5, bb=10, game="holdem"))
    (bad,) = alerts(eng, HandStart(t=1.0, game="stud7"))
    assert bad.code == "BAD_EVENT" and "field 'bring_in'" in bad.message and "'holdem'" in bad.message
    assert isinstance(eng.current, StudHand)  # followed as far as it goes, as before
    eng = engine(STUD7)
    eng.feed(LevelEvent(t=0.2, sb=0, bb=0, ante=5, bring_in=10, small_bet=20))
    (bad,) = alerts(eng, HandStart(t=1.0, button=1, game="holdem"))
    assert bad.code == "BAD_EVENT" and "field 'bb'" in bad.message


# --- the log reader and the shared check ------------------------------------------------------------------
def test_not_given_is_not_holdem_and_survives_a_journal() -> None:
    ev = parse_line('{"t":1,"type":"level","ante":5,"bring_in":10,"small_bet":20}')
    assert isinstance(ev, LevelEvent) and (ev.game, ev.limit, ev.sb, ev.bb) == (None, None, 0, 0)
    assert dumps_event(ev) == '{"t":1.0,"type":"level","sb":0,"bb":0,"ante":5,"bring_in":10,"small_bet":20}'
    mixed = parse_line('{"t":1,"type":"level","sb":5,"bb":10,"bring_in":5,"limit":"fixed","small_bet":10}')
    assert isinstance(mixed, LevelEvent) and (mixed.bb, mixed.bring_in) == (10, 5)


@pytest.mark.parametrize(("text", "field"), [
    ('{"t":1,"type":"level","sb":5}', "bb"),  # neither blinds nor a bring-in: fits no game
    ('{"t":1,"type":"level","sb":5,"bb":10,"small_bet":20}', "small_bet"),  # no limit, no bring-in
    ('{"t":1,"type":"level","bring_in":30,"small_bet":20,"limit":"fixed"}', "bring_in"),
])
def test_a_level_without_game_must_fit_some_game(text: str, field: str) -> None:
    with pytest.raises(LogError) as err:
        parse_line(text, line=3)
    assert err.value.field == field and str(err.value).startswith(f"line 3, field '{field}': ")


def test_structure_problem_is_one_check_for_reader_config_and_engine() -> None:
    assert structure_problem("holdem", "no", bring_in=5) == (
        "bring_in", "a bring-in belongs to stud (game 'stud7'), not hold'em")
    assert structure_problem("holdem", "no", bring_in=5, mixed=True) is None
    assert structure_problem("stud7", "fixed") == ("bring_in", "missing: a stud level needs the bring-in")
    assert structure_problem("stud7", "fixed", complete=False) is None  # the config may leave it out
    assert structure_problem("stud7", "fixed", bring_in=10, small_bet=20, big_bet=10)[0] == "big_bet"
    assert structure_problem("holdem", "fixed", bb=0) == (
        "bb", "missing: a hold'em level needs the big blind")
    assert TableGame(game="holdem", bring_in=3).problem() is not None
    assert TableGame(game="stud7", limit="fixed").problem() is None
