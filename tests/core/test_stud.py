"""Seven-card stud (002): the rules as pure functions, the public state, the game from level/hand_start."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.core.alerts import Alert
from controller.core.engine import Engine, HandSummary
from controller.core.eventlog import read_events
from controller.core.events import (
    ActionEvent,
    CardSeen,
    ChipsEvent,
    Exposed,
    HandStart,
    LevelEvent,
    SeatEvent,
)
from controller.core.games import stud
from controller.core.games.registry import GAMES, game_named
from controller.core.games.studhand import StudHand
from controller.core.hand import Hand
from controller.core.profiles import get_profile
from controller.core.record import HandRecord
from tests.scenarios.test_scenarios import table_game

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


# --- bring-in (002 §3) ------------------------------------------------------------------------------
def test_lowest_up_card_brings_in_at_fixed_and_split_limit() -> None:
    doors = {1: "7c", 2: "4d", 3: "2c", 4: "Jh"}
    assert stud.bring_in_seat(doors, "fixed") == 3
    assert stud.bring_in_seat(doors, "split") == 3


def test_highest_up_card_brings_in_at_pot_and_no_limit() -> None:
    doors = {1: "7c", 2: "4d", 3: "2c", 4: "Jh"}
    assert stud.bring_in_seat(doors, "pot") == 4
    assert stud.bring_in_seat(doors, "no") == 4


@pytest.mark.parametrize(("suits", "low", "high"), [("cd", 1, 2), ("dh", 1, 2), ("hs", 1, 2), ("sc", 2, 1)])
def test_suit_order_clubs_diamonds_hearts_spades_decides_equal_ranks(suits: str, low: int, high: int) -> None:
    doors = {1: "9" + suits[0], 2: "9" + suits[1]}
    assert stud.bring_in_seat(doors, "fixed") == low
    assert stud.bring_in_seat(doors, "pot") == high


def test_the_ace_is_high_for_the_bring_in() -> None:
    assert stud.bring_in_seat({1: "Ac", 2: "2s"}, "fixed") == 2


# --- first to act from 4th street (002 §4) ------------------------------------------------------------
def test_showing_hands_rank_quads_trips_two_pair_pair_high_card() -> None:
    order = [stud.showing_key(c) for c in (["9c", "9d", "9h", "9s"], ["2c", "2d", "2h", "Ks"],
                                             ["3c", "3d", "Ah", "As"], ["Ac", "Ad", "Kh", "Qs"],
                                             ["Ac", "Kd", "Qh", "Js"])]
    assert order == sorted(order, reverse=True)


def test_straights_and_flushes_do_not_count_on_a_partial_board() -> None:
    assert stud.showing_key(["5h", "6h", "7h", "8h"]) < stud.showing_key(["2c", "2d", "3h", "4s"])
    assert stud.showing_key(["5c", "6d", "7h", "8s"]) < stud.showing_key(["9c", "2d", "3h", "4s"])


def test_equal_showing_hands_go_to_the_seat_nearest_the_dealers_left() -> None:
    showing = {1: ["Kc", "7s"], 3: ["Kh", "7h"], 4: ["Qd", "Jd"]}
    assert stud.first_to_act(showing, [1, 3, 4]) == 1
    assert stud.first_to_act(showing, [3, 4, 1]) == 3  # order is the seats from the dealer's left


def test_open_pair_is_two_up_cards_of_one_rank() -> None:
    assert stud.open_pair(["Jh", "Jd"]) and not stud.open_pair(["Jh", "Qd"])
    assert not stud.open_pair(["Jh", "Jd", "3c"])  # only 4th street's two up-cards


# --- the odd chip of a split pot (TDA 2024 Rule 20; 002 is silent) ----------------------------------------
def _record(hole: dict[int, list[str]], board: list[str] | None = None) -> HandRecord:
    return HandRecord(table="t1", hand=1, t_start=0.0, button=0, sb_seat=None, bb_seat=None, sb=0, bb=0,
                      ante=0, chip=1, dealt_in=(1, 2, 3, 4), hole=hole, board=board or [])


def test_odd_chip_goes_to_the_highest_card_by_suit_of_any_of_the_seats_cards() -> None:
    rec = _record({1: ["Kd", "2c", "8c", "9d", "Th", "Jc", "Qd"],
                   3: ["2d", "3c", "8d", "9h", "Ts", "Jh", "Kh"],
                   4: ["As", "3d", "8h", "9s", "Tc", "Js", "Qc"]})
    assert stud.odd_chip_order([1, 3, 4], rec) == [4, 3, 1]  # As (a down-card), then Kh over Kd
    assert stud.odd_chip_order([1, 3], rec) == [3, 1]  # not the first winner from the dealer's left


def test_odd_chip_ignores_the_common_card_and_unread_cards() -> None:
    # 7th street's common card (the board) is every seat's: if it counted, both would hold the As
    rec = _record({1: ["Kd", "2c", "8c", "9d", "Th", "Jc"], 2: ["Ks", "3c", "8d", "9h", "Ts", "Jh"]}, ["As"])
    assert stud.odd_chip_order([1, 2], rec) == [2, 1]
    unread = _record({1: ["??1", "??2", "8c"], 2: ["??3", "??4", "7c"], 3: ["??5"], 4: []})
    assert stud.odd_chip_order([3, 4, 2, 1], unread) == [1, 2, 3, 4]  # no card read: deal order, last
    assert stud.high_card(["??1"]) == (-1, -1)


def test_each_game_names_its_odd_chip_order() -> None:
    rec = _record({1: ["2c"], 2: ["As"]})
    assert game_named("stud7").plan.odd_chip_order([1, 2], rec) == [2, 1]
    assert game_named("holdem").plan.odd_chip_order([2, 1], rec) == [1, 2]  # from the button's left


# --- games as modules -----------------------------------------------------------------------------------
def test_each_game_is_a_module_with_its_own_hand_class_and_plan() -> None:
    assert set(GAMES) == {"holdem", "stud7"}
    assert game_named(None).hand_class is Hand and game_named("stud7").hand_class is StudHand
    assert StudHand.PLAN.streets == ("third", "fourth", "fifth", "sixth", "seventh")
    assert StudHand.PLAN.deal_up == (False, False, True)
    assert [StudHand.PLAN.street_up[s] for s in StudHand.PLAN.streets[1:]] == [True, True, True, False]
    # the stud hand replaces only pairs of the shared transition table
    assert set(StudHand.TRANSITIONS) == set(Hand.TRANSITIONS)


def _stud_engine(limit: str = "fixed") -> Engine:
    eng = Engine(profile=get_profile("cuca"), strict=True)
    for seat in (1, 2, 3):
        eng.feed(SeatEvent(t=0.1, seat=seat, player=f"P{seat}", stack=500))
    eng.feed(LevelEvent(t=0.2, sb=0, bb=0, ante=5, game="stud7", limit=limit, bring_in=10, small_bet=20,
                        big_bet=40))
    return eng


def test_hand_start_names_the_game_of_a_mixed_rotation() -> None:
    eng = Engine(profile=get_profile("cuca"), strict=True)
    for seat in (1, 2, 3):
        eng.feed(SeatEvent(t=0.1, seat=seat, player=f"P{seat}", stack=500))
    eng.feed(LevelEvent(t=0.2, sb=5, bb=10, ante=0))
    eng.feed(HandStart(t=1.0, game="stud7"))
    assert isinstance(eng.current, StudHand) and eng.current.record.button == 0
    eng.feed(HandStart(t=2.0))
    assert type(eng.current) is Hand


def test_public_state_shows_up_cards_and_never_down_cards_of_a_live_hand() -> None:
    eng = _stud_engine()
    eng.feed(HandStart(t=1.0))
    t = 1.0
    downs = {1: ("As", "Kd"), 2: ("2h", "3h"), 3: ("Qc", "Qd")}
    ups = {1: "7c", 2: "4d", 3: "2c"}
    for rnd in range(2):
        for seat in (1, 2, 3):
            t += 0.5
            eng.feed(CardSeen(t=t, zone=f"seat{seat}", card=downs[seat][rnd]))
    for seat in (1, 2, 3):
        t += 0.5
        eng.feed(CardSeen(t=t, zone=f"seat{seat}", card=ups[seat]))
        eng.feed(Exposed(t=t, zone=f"seat{seat}", card=ups[seat]))
        text = json.dumps(eng.public_state())
        assert not any(c in text for d in downs.values() for c in d)
    state = eng.public_state()
    assert state["game"] == "stud7" and state["to_act"] == 3  # 2c brings in
    assert {s["seat"]: s["up"] for s in state["seats"]} == {1: ["7c"], 2: ["4d"], 3: ["2c"]}
    assert all(s["cards"] == 3 for s in state["seats"])
    eng.feed(ActionEvent(t=t + 1, seat=3, action="bet", amount=10))
    eng.feed(ChipsEvent(t=t + 1.5, seat=1, amount=10))
    assert eng.public_state()["to_act"] == 2


LOGS = sorted(p for p in SCENARIOS.glob("stud_*.jsonl") if not p.name.endswith(".expected.jsonl"))


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_stud_scenarios_never_publish_a_live_down_card(log: Path) -> None:
    eng = Engine(profile=get_profile("cuca"), strict=True, game=table_game(log))
    summaries: list[HandSummary] = []
    with log.open(encoding="utf-8") as fh:
        for _line, ev in read_events(fh, max_seat=10):
            out = eng.feed(ev)
            summaries += [o for o in out if isinstance(o, HandSummary)]
            hand = eng.current
            if not isinstance(hand, StudHand) or hand.phase not in ("deal", "betting", "due"):
                continue
            seen = {c for cs in hand.up.values() for c in cs} - hand.turn_owed
            down = {c for cs in hand.holes.values() for c in cs} - seen
            state = json.dumps(eng.public_state())
            assert not [c for c in down if f'"{c}"' in state], (ev, state)
            assert not [o for o in out if isinstance(o, Alert) and set(o.cards) & down
                        and o.code not in ("HOLE_CARD_EXPOSED", "HOLE_CARDS_EXPOSED_MULTIPLE",
                                           "STUD_STREET_CARD_WRONG", "CORRECTION_NOT_FOLLOWED")]
    assert summaries and all(s.payload.get("game") == "stud7" for s in summaries)


def test_every_stud_handler_named_in_the_table_exists() -> None:
    for pair, name in StudHand.TRANSITIONS.items():
        assert callable(getattr(StudHand, name, None)), (pair, name)
        assert StudHand.HANDLERS[pair] is getattr(StudHand, name)
    assert Hand.HANDLERS[("deal", "hole")] is Hand.h_hole_deal  # the hold'em table is untouched


def _replay(lines: list[str]) -> tuple[list[Alert], Engine]:
    eng = Engine(profile=get_profile("cuca"), strict=True)
    alerts: list[Alert] = []
    for _line, ev in read_events(iter(lines), max_seat=10):
        alerts += [o for o in eng.feed(ev) if isinstance(o, Alert)]
    return alerts, eng


def test_absent_bring_in_seat_posted_by_the_dealer_as_its_bet_is_not_a_second_bet() -> None:
    """The dealer may put an absent seat's bring-in in through the console (the seat's `bet`) instead of
    the chip reader: it is the bring-in the core already posted, not an action of a dead hand."""
    log = SCENARIOS / "stud_dead_hand_absent_bring_in.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    chips = next(i for i, x in enumerate(lines) if '"type":"chips","seat":3,"amount":10' in x)
    t = json.loads(lines[chips])["t"]
    as_bet = [*lines[:chips], json.dumps({"t": t, "type": "action", "seat": 3, "action": "bet", "amount": 10})
              + "\n", *lines[chips + 1:]]
    by_chips, eng_chips = _replay(lines)
    by_bet, eng_bet = _replay(as_bet)
    assert [a.code for a in by_bet] == [a.code for a in by_chips]
    assert "BAD_EVENT" not in [a.code for a in by_bet]
    assert {s: i.stack for s, i in eng_bet.seats.seats.items()} == \
        {s: i.stack for s, i in eng_chips.seats.seats.items()}


def test_a_wrong_bring_in_names_the_all_in_card_seat_not_the_next_seats_card() -> None:
    """The lowest up-card's seat is all-in on its ante, so the next seat with chips brings in: the alert
    says so instead of calling that seat's own card the lowest (scenario stud_bring_in_all_in_on_ante)."""
    log = SCENARIOS / "stud_bring_in_all_in_on_ante.jsonl"
    alerts, _eng = _replay(log.read_text(encoding="utf-8").splitlines(keepends=True))
    wrong = next(a for a in alerts if a.code == "STUD_BRING_IN_WRONG")
    assert "seat 4 is the next seat with chips on the left of seat 3" in wrong.message
    assert "2c" in wrong.message and "Jh" not in wrong.message
