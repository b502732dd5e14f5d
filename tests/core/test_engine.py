"""Engine behaviour outside the golden scenarios: bad input, numbering, state, decks, camera, stacks."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.core.alerts import Alert
from controller.core.cards import FULL_DECK
from controller.core.engine import Engine, HandSummary
from controller.core.events import (
    ActionEvent,
    BoardCountEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    ConsoleEvent,
    DeckEvent,
    Event,
    Exposed,
    HandStart,
    Knock,
    LevelEvent,
    PresentEvent,
    SeatEvent,
    SessionEnd,
)
from controller.core.profiles import get_profile

ROOT = Path(__file__).resolve().parents[2]
HOLES = {2: ("Ah", "Kd"), 3: ("7c", "7d"), 4: ("Qs", "Js"), 1: ("2h", "6c")}


class Run:
    """Feeds events with increasing time and keeps every outcome."""

    def __init__(self, profile: str = "cuca") -> None:
        self.engine = Engine(profile=get_profile(profile), strict=True)
        self.t = 0.0
        self.alerts: list[Alert] = []
        self.summaries: list[HandSummary] = []
        self.hook: Callable[[], None] | None = None  # called after every event

    def __call__(self, cls: type[Event], **fields: object) -> list[Alert]:
        self.t += 1.0
        out = self.engine.feed(cls(t=self.t, **fields))  # type: ignore[arg-type]
        got = [o for o in out if isinstance(o, Alert)]
        self.alerts += got
        self.summaries += [o for o in out if isinstance(o, HandSummary)]
        if self.hook is not None:
            self.hook()
        return got

    def setup(self, seats: tuple[int, ...] = (1, 2, 3, 4), stack: int = 10000) -> Run:
        for s in seats:
            self(SeatEvent, seat=s, player=f"P{s}", stack=stack)
        self(LevelEvent, sb=50, bb=100)
        return self

    def deal(self, order: tuple[int, ...] = (2, 3, 4, 1)) -> Run:
        for rnd in range(2):
            for s in order:
                self(CardSeen, zone=f"seat{s}", card=HOLES[s][rnd])
        return self

    def codes(self) -> list[str]:
        return [a.code for a in self.alerts]


def full_hand(r: Run) -> Run:
    r.setup()(HandStart, button=1)
    r(ChipsEvent, seat=2, amount=50)
    r(ChipsEvent, seat=3, amount=100)
    r.deal()
    r(ActionEvent, seat=4, action="call", amount=100)
    r(ActionEvent, seat=1, action="fold")
    r(ActionEvent, seat=2, action="call", amount=100)
    r(ActionEvent, seat=3, action="check")
    for burn, board in (("3s", ("Kh", "8d", "2c")), ("4s", ("Jh",)), ("5s", ("9c",))):
        r(Knock)
        r(CardSeen, zone="burn", card=burn)
        for c in board:
            r(CardSeen, zone="board", card=c)
        for s in (2, 3, 4):
            r(ActionEvent, seat=s, action="check")
    r(Exposed, zone="seat2", card="Ah")
    r(Exposed, zone="seat2", card="Kd")
    return r


def test_session_end_settles_the_last_hand_once() -> None:
    """session_end (extension) closes the last hand as a hand_start would: award and summary now, and the
    next hand_start of a resumed session does not close it a second time."""
    r = full_hand(Run())
    assert r.summaries == [] and "POT_AWARD" not in r.codes()
    r(SessionEnd)
    assert [s.hand for s in r.summaries] == [1] and r.codes().count("POT_AWARD") == 1
    r(SessionEnd)  # a second end changes nothing
    r(HandStart)
    assert [s.hand for s in r.summaries] == [1] and r.codes().count("POT_AWARD") == 1


# --- bad input, live -------------------------------------------------------------------------------
def test_bad_live_events_become_bad_event_alerts_and_are_not_applied() -> None:
    r = Run().setup()
    assert [a.code for a in r(ActionEvent, seat=7, action="fold")] == ["BAD_EVENT"]
    assert "seat 7" in r.alerts[-1].message
    assert [a.code for a in r(PresentEvent, seat=9, present=False)] == ["BAD_EVENT"]
    r.t -= 5
    assert [a.code for a in r(Knock)] == ["BAD_EVENT"]  # time going backwards
    assert "earlier than the previous event" in r.alerts[-1].message
    r.t += 10
    assert [a.code for a in r(CardSeen, zone="seat12", card="As")] == ["BAD_EVENT"]


def test_action_between_hands_names_phase_and_kind() -> None:
    r = full_hand(Run())
    alerts = r(ActionEvent, seat=2, action="bet", amount=100)
    assert [a.code for a in alerts] == ["BAD_EVENT"]
    assert "showdown" in alerts[0].message and "action" in alerts[0].message


def test_amount_above_the_stack_is_a_bad_event() -> None:
    r = Run().setup(stack=1000)
    r(HandStart, button=1)
    r.deal()
    alerts = r(ActionEvent, seat=4, action="raise", amount=5000)
    assert [a.code for a in alerts] == ["BAD_EVENT"]


def test_hand_start_without_level_or_players() -> None:
    r = Run()
    r(SeatEvent, seat=1, player="A", stack=100)
    assert [a.code for a in r(HandStart)] == ["BAD_EVENT"]
    r(SeatEvent, seat=2, player="B", stack=100)
    alerts = r(HandStart)
    assert [a.code for a in alerts] == ["BAD_EVENT"] and "no blind level" in alerts[0].message


def test_internal_errors_are_alerts_when_not_strict() -> None:
    engine = Engine()
    engine._dispatch[Knock] = lambda ev: 1 / 0  # type: ignore[assignment,index,misc]
    out = engine.feed(Knock(t=1.0))
    assert isinstance(out[0], Alert) and out[0].code == "BAD_EVENT" and "ZeroDivisionError" in out[0].message
    assert engine.statistics()["internal_errors"] == 1


# --- numbering, streets, determinism ---------------------------------------------------------------
def test_alert_ids_count_within_the_hand_and_continue_between_hands() -> None:
    r = full_hand(Run())
    r(ConsoleEvent, button="floor")
    r(HandStart)
    r(ConsoleEvent, button="floor")
    got = [(a.id, a.code, a.street) for a in r.alerts]
    assert got == [("t1-h1-1", "SHOWDOWN_ORDER", "showdown"), ("t1-h1-2", "FLOOR_CALLED", "showdown"),
                   ("t1-h1-3", "POT_AWARD", "showdown"), ("t1-h2-1", "FLOOR_CALLED", "deal")]


def test_replay_output_is_byte_identical() -> None:
    log = ROOT / "config" / "examples" / "basic.jsonl"
    env = {"PYTHONPATH": str(ROOT)}
    runs = [subprocess.run([sys.executable, "-m", "controller", "replay", str(log), "--json"], cwd=ROOT,
                           capture_output=True, env=env, timeout=60) for _ in range(2)]
    assert runs[0].returncode == 0 and runs[0].stdout == runs[1].stdout
    codes = [json.loads(x)["code"] for x in runs[0].stdout.decode().splitlines()]
    assert "RIVER_PREMATURE" in codes


def test_replay_bad_event_exits_2_naming_the_line_unless_keep_going(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"t":1,"type":"seat","seat":1,"player":"A","stack":100}\n'
                   '{"t":2,"type":"present","seat":5,"present":false}\n'
                   '{"t":3,"type":"console","button":"floor"}\n')
    env = {"PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "controller", "replay", str(log)]
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 2 and "line 2" in res.stderr and "Traceback" not in res.stderr
    res = subprocess.run([*cmd, "--keep-going"], capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 0 and "BAD_EVENT" in res.stdout and "FLOOR_CALLED" in res.stdout


# --- public state ------------------------------------------------------------------------------------
def test_public_state_never_shows_live_hole_cards() -> None:
    r = Run()
    hole = {c for cs in HOLES.values() for c in cs}
    seen_live: list[str] = []
    checked = [0]

    def check() -> None:
        state = json.dumps(r.engine.public_state())
        if r.engine.current.phase in ("deal", "betting", "due"):
            checked[0] += 1
            seen_live.extend(c for c in hole if f'"{c}"' in state)

    r.hook = check
    full_hand(r)
    assert seen_live == [] and checked[0] > 20
    shown = {s["seat"]: s["shown"] for s in r.engine.public_state()["seats"]}
    assert shown[3] == []  # seat 3 never showed, so its cards stay private after the hand too
    state = r.engine.public_state()
    assert state["board"] == ["Kh", "8d", "2c", "Jh", "9c"]
    assert {s["seat"]: s["status"] for s in state["seats"]}[1] == "folded"


def test_public_state_fields_during_betting() -> None:
    r = Run().setup()
    r(HandStart, button=1)
    r.deal()
    st = r.engine.public_state()
    assert (st["hand"], st["street"], st["button"], st["sb_seat"], st["bb_seat"], st["to_act"]) == (
        1, "preflop", 1, 2, 3, 4)
    assert st["blinds"] == {"sb": 50, "bb": 100, "ante": 0, "chip": 1}
    assert st["pots"] == [{"amount": 150}]
    seats = {s["seat"]: s for s in st["seats"]}
    assert seats[3]["bet"] == 100 and seats[3]["stack"] == 9900 and seats[2]["cards"] == 2


# --- decks and uids -----------------------------------------------------------------------------------
UIDS = {f"{i:02x}b0": c for i, c in enumerate(FULL_DECK)}


def test_uid_resolution_and_foreign_tags() -> None:
    r = Run().setup()
    r(DeckEvent, id="blue", cards=UIDS)
    r(HandStart, button=1)
    assert r(CardSeen, zone="seat2", uid="00b0") == []  # 2c
    assert r.engine.record is not None and r.engine.record.hole[2] == ["2c"]
    r(DeckEvent, id="red", cards={f"{i:02x}c0": c for i, c in enumerate(FULL_DECK)})
    alerts = r(CardSeen, zone="seat3", uid="01b0")
    assert [a.code for a in alerts] == ["FOREIGN_CARD"] and "deck 'blue'" in alerts[0].message
    alerts = r(CardSeen, zone="seat3", uid="beef")
    assert [a.code for a in alerts] == ["FOREIGN_CARD"] and "not enrolled" in alerts[0].message


def test_deck_enrolled_incomplete() -> None:
    r = Run()
    cards = dict(list(UIDS.items())[:51])
    assert [a.code for a in r(DeckEvent, id="short", cards=cards)] == ["DECK_INCOMPLETE"]


def test_deck_check_complete_duplicate_and_during_a_hand() -> None:
    r = Run().setup()
    r(DeckEvent, id="blue", cards=UIDS)
    r(ConsoleEvent, button="deck_check")
    for uid in UIDS:
        r(CardSeen, zone="deck", uid=uid)
    r(CardSeen, zone="deck", uid="00b0")  # the same tag read twice: one card passing twice
    assert r(ConsoleEvent, button="deck_check_done") == []
    r(ConsoleEvent, button="deck_check")
    for c in FULL_DECK:
        r(CardSeen, zone="deck", card=c)
    r(CardSeen, zone="deck", card="Ah")
    assert [a.code for a in r(ConsoleEvent, button="deck_check_done")] == ["DECK_DUPLICATE"]
    r(HandStart, button=1)
    assert [a.code for a in r(ConsoleEvent, button="deck_check")] == ["BAD_EVENT"]
    assert [a.code for a in r(ConsoleEvent, button="deck_check_done")] == ["BAD_EVENT"]


# --- camera --------------------------------------------------------------------------------------------
def test_camera_rfid_mismatch_and_board_count() -> None:
    r = Run().setup()
    r(HandStart, button=1)
    r.deal()
    for s, a in ((4, "call"), (1, "call"), (2, "call"), (3, "check")):
        r(ActionEvent, seat=s, action=a, amount=None if a == "check" else 100)
    r(Knock)
    r.t += 1
    r(CardSeen, zone="burn", card="3s")
    for c in ("Kh", "8d", "2c"):
        r(CardSeen, zone="board", card=c)
    assert [a.code for a in r(Exposed, zone="board", card="Qs")] == ["CAMERA_RFID_MISMATCH"]
    alerts = r(BoardCountEvent, zone="board", count=4)
    assert [a.code for a in alerts] == ["FLOP_TOO_MANY_CARDS"]
    assert r(BoardCountEvent, zone="board", count=4) == []  # already raised


# --- stacks, record, heads-up -----------------------------------------------------------------------
def test_chips_are_conserved_and_the_record_is_filled() -> None:
    r = full_hand(Run())
    r(HandStart)
    rec = r.summaries[0].payload
    ends = {s["seat"]: s["end"] for s in rec["seats"]}
    assert sum(ends.values()) == 40000 and ends[2] == 10200
    stacks = {s: info.stack for s, info in r.engine.seats.seats.items()}
    assert stacks == {1: 10000, 2: 10200, 3: 9900, 4: 9900}


def test_hand_record_contents() -> None:
    r = full_hand(Run())
    rec = r.engine.record
    assert rec is not None
    assert rec.board == ["Kh", "8d", "2c", "Jh", "9c"] and rec.burns == ["3s", "4s", "5s"]
    assert rec.hole[3] == ["7c", "7d"] and rec.dealt_in == (2, 3, 4, 1)
    assert rec.committed == {1: 0, 2: 100, 3: 100, 4: 100} and rec.folded == {1}
    assert [a.action for a in rec.actions[:2]] == ["post_sb", "post_bb"]


def test_busted_player_leaves_and_heads_up_button_posts_small_blind_and_acts_first() -> None:
    r = Run()
    r(SeatEvent, seat=1, player="A", stack=10000)
    r(SeatEvent, seat=2, player="B", stack=10000)
    r(SeatEvent, seat=3, player="C", stack=100)
    r(LevelEvent, sb=50, bb=100)
    r(HandStart, button=3)  # three players: button 3, SB 1, BB 2
    for rnd in range(2):
        for s, cards in ((1, ("Ah", "Ad")), (2, ("Kh", "Kd")), (3, ("2c", "7d"))):
            r(CardSeen, zone=f"seat{s}", card=cards[rnd])
    r(ActionEvent, seat=3, action="allin", amount=100)
    r(ActionEvent, seat=1, action="fold")
    r(ActionEvent, seat=2, action="check")
    for burn, board in (("3s", ("Kc", "8d", "4c")), ("4s", ("Jh",)), ("5s", ("9c",))):
        r(Knock)
        r.t += 1
        r(CardSeen, zone="burn", card=burn)
        for c in board:
            r(CardSeen, zone="board", card=c)
    r(HandStart)
    assert 3 not in r.engine.seats.seats  # seat 3 busted and left
    st = r.engine.public_state()
    # Heads-up: the BB moved on to seat 1; seat 2 is button and small blind and acts first preflop.
    assert (st["button"], st["sb_seat"], st["bb_seat"]) == (2, 2, 1)
    r(CardSeen, zone="seat1", card="Qs")
    r(CardSeen, zone="seat2", card="Qd")
    r(CardSeen, zone="seat1", card="Js")
    r(CardSeen, zone="seat2", card="Jd")
    assert r.engine.public_state()["to_act"] == 2


def test_misdeal_redeal_keeps_button_and_hand_numbers_go_on() -> None:
    r = Run().setup()
    r(HandStart, button=1)
    r(CardSeen, zone="seat2", card="Ah")
    assert [a.code for a in r(ConsoleEvent, button="misdeal")] == ["MISDEAL_CALLED"]
    r(HandStart)
    st = r.engine.public_state()
    assert (st["hand"], st["button"], st["bb_seat"]) == (2, 1, 3)
    assert r.summaries[-1].payload["ended"] == "misdeal"


def test_blinds_posted_automatically_without_chip_readers() -> None:
    r = Run().setup()
    r(HandStart, button=1)
    r.deal()
    assert r.alerts == [] and r.engine.record is not None
    assert r.engine.record.committed == {2: 50, 3: 100, 4: 0, 1: 0}


def test_board_gathered_before_the_next_hand_still_settles_the_showdown() -> None:
    r = full_hand(Run())
    for c in ("Kh", "8d", "2c", "Jh", "9c"):  # the dealer gathers the board before pressing "new hand"
        r(CardGone, zone="board", card=c)
    r(HandStart)
    award = next(a for a in r.alerts if a.code == "POT_AWARD")
    pot = award.extra["pots"][0]
    assert pot["winners"] == {"2": 300} and pot["hand"] == "one pair" and "Kh" in pot["best5"]


def test_unread_camera_exposure_stands_for_the_card_just_dealt() -> None:
    r = Run().setup()
    r(HandStart, button=1)
    r(ChipsEvent, seat=2, amount=50)
    r(ChipsEvent, seat=3, amount=100)
    for s in (2, 3, 4, 1):
        r(CardSeen, zone=f"seat{s}", card=HOLES[s][0])
    r(CardSeen, zone="seat2", card="Kd")
    got = r(Exposed, zone="seat2")  # the camera saw a face-up card but could not read it
    assert [(a.code, a.seat, a.cards) for a in got] == [("HOLE_CARD_EXPOSED", 2, ("Kd",))]


def test_clock_running_out_makes_the_hand_dead() -> None:
    r = Run().setup()
    r(HandStart, button=1)
    r(ChipsEvent, seat=2, amount=50)
    r(ChipsEvent, seat=3, amount=100)
    r.deal()
    r(ConsoleEvent, button="clock")  # seat 4 is to act; 004 §11(4): one more minute
    r.t += 61.0
    r(ActionEvent, seat=4, action="call", amount=100)
    assert "DEAD_HAND_CLOCK" in r.codes()
    rec = r.engine.record
    assert rec is not None and 4 in rec.dead and 4 not in rec.live_seats()


@pytest.mark.parametrize("profile", ["handbuch", "cuca", "uesg", "classic", "tda"])
def test_clean_hand_raises_no_fault_in_any_profile(profile: str) -> None:
    r = full_hand(Run(profile))
    assert [a.code for a in r.alerts if a.severity != "info"] == []


def test_dealer_insisting_on_a_disputed_button_at_the_redeal_is_followed() -> None:
    r = Run().setup()
    r(HandStart, button=1)
    r.deal()
    for s, a in ((4, "fold"), (1, "fold"), (2, "fold")):
        r(ActionEvent, seat=s, action=a)
    assert [a.code for a in r(HandStart, button=3)][-1] == "BUTTON_WRONG"  # the rule says button 2
    assert [a.code for a in r(CardSeen, zone="seat4", card="Ah")] == ["DEAL_WRONG_FIRST_SEAT"]
    assert r(HandStart, button=3) == []  # the floor kept button 3: no new alert, the table follows it
    st = r.engine.public_state()
    assert (st["button"], st["sb_seat"], st["bb_seat"]) == (3, 4, 1)
    assert r(CardSeen, zone="seat4", card="Ah") == []
