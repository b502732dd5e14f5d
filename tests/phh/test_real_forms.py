"""PHH forms met in the real data (tests/data/phh/real_more): each one played from physical events.

One hole card per `d dh` action (PokerKit's copies of the WSOP and Pluribus hands), stud's 3rd street
one card at a time, ten players at a ten-seat table, a dead small blind in a log's first hand followed by
bigger tables, a history that stops before the hand is over, and `sm ????` where the deal named the cards.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

from pokerkit import HandHistory

from controller.core.alerts import Alert
from controller.core.engine import Engine, HandSummary
from controller.core.events import CardSeen
from controller.phh import parse_phh
from controller.phh.importer import hands_to_events
from tests.conformance.oracle import kit_final_stacks

ROOT = Path(__file__).resolve().parents[2]
NT = """variant = 'NT'
antes = [{antes}]
blinds_or_straddles = [{blinds}]
min_bet = 2
starting_stacks = [{stacks}]
actions = {actions}
"""


def _nt(n: int, actions: list[str], blinds: str = "") -> str:
    zeros = ", ".join(["0"] * n)
    return NT.format(antes=zeros, blinds=blinds or "1, 2" + ", 0" * (n - 2),
                     stacks=", ".join(["100"] * n), actions=repr(actions))


def _replay(text: str) -> tuple[list[dict[str, Any]], list[Alert]]:
    engine = Engine()
    out = []
    events = hands_to_events(parse_phh(text))
    for ev in events:
        out += engine.feed(ev)
    out += engine.finish(events[-1].t + 1)
    return ([dict(o.payload) for o in out if isinstance(o, HandSummary)],
            [o for o in out if isinstance(o, Alert) and o.severity != "info"])


def _fold_to_bb(n: int) -> list[str]:
    return [f"d dh p{i} ????" for i in range(1, n + 1)] + [f"p{i} f" for i in [*range(3, n + 1), 1]]


def test_hole_cards_one_per_action_deal_as_two_per_action() -> None:
    play = ["p3 f", "p1 cc", "p2 cc", "d db 2c7dKs", "p1 cc", "p2 cc", "d db 9h", "p1 cc", "p2 cc",
            "d db Jd", "p1 cc", "p2 cc", "p1 sm AsAh", "p2 sm KdKc"]
    one = _nt(3, ["d dh p1 As", "d dh p2 Kd", "d dh p3 7c", "d dh p1 Ah", "d dh p2 Kc", "d dh p3 2d", *play])
    two = _nt(3, ["d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 7c2d", *play])

    def cards(text: str) -> list[tuple[str, str | None]]:
        return [(e.zone, e.card) for e in hands_to_events(parse_phh(text)) if isinstance(e, CardSeen)]

    assert cards(one) == cards(two)  # round by round from the button's left either way
    summaries, alerts = _replay(one)
    assert alerts == []
    assert [s["end"] for s in summaries[0]["seats"]] == [98, 102, 100] == kit_final_stacks(parse_phh(one)[0])


def test_stud_third_street_one_card_per_action() -> None:
    text = """variant = 'F7S'
antes = [5, 5, 5]
bring_in = 5
small_bet = 20
big_bet = 40
starting_stacks = [500, 500, 500]
actions = ['d dh p1 Qh', 'd dh p2 8s', 'd dh p3 7d', 'd dh p1 6c', 'd dh p2 5d', 'd dh p3 4d', 'd dh p1 Jd',
  'd dh p2 3c', 'd dh p3 Ts', 'p2 pb', 'p3 f', 'p1 cbr 20', 'p2 f']
"""
    summaries, alerts = _replay(text)
    assert alerts == []
    kit = list(HandHistory.load(io.BytesIO(text.encode())))[-1]
    assert [s["end"] for s in summaries[0]["seats"]] == [515, 490, 495] == list(kit.stacks)


def test_ten_players_at_a_ten_seat_table_and_a_dead_small_blind_first() -> None:
    hands = [_nt(10, _fold_to_bb(10)),
             _nt(5, ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", "d dh p5 ????",
                     "p2 f", "p3 f", "p4 f", "p5 f"], blinds="2, 0, 0, 0, 0"),
             _nt(7, _fold_to_bb(7)), _nt(10, _fold_to_bb(10))]
    for order in (hands, hands[1:]):  # the dead small blind also as the log's first hand
        text = "\n".join(f"[{k}]\n{h}" for k, h in enumerate(order, 1))
        summaries, alerts = _replay(text)
        assert alerts == []  # each hand's button and blinds where the history had them
        assert len(summaries) == len(order)
        for summary, hand in zip(summaries, parse_phh(text), strict=True):
            assert [s["end"] for s in summary["seats"]] == kit_final_stacks(hand)


def test_a_history_that_stops_mid_hand_ends_result_unknown(tmp_path: Path) -> None:
    stops = _nt(3, ["d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 ????", "p3 f", "p1 cbr 10", "p2 cc",
                    "d db 2c7dKs", "p1 cc", "p2 cc", "d db 9h"])
    later = _nt(3, _fold_to_bb(3))
    summaries, _ = _replay(f"[1]\n{stops}\n[2]\n{later}")
    assert summaries[0]["ended"] == "unfinished" and summaries[0]["result"] == "unknown"
    assert summaries[0]["pots"] == []  # nothing awarded: the river betting and the showdown never came
    src, log, out = tmp_path / "h.phhs", tmp_path / "log.jsonl", tmp_path / "out.phhs"
    src.write_text(f"[1]\n{later}\n[2]\n{stops}", encoding="utf-8")  # last in the file: the log ends
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in (("import-phh", str(src), "-o", str(log)), ("replay", str(log), "--phh", str(out))):
        done = subprocess.run([sys.executable, "-m", "controller", *args], capture_output=True, text=True,
                              env=env, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
    assert "hand 2 stopped before it was over" in done.stderr
    exported = tomllib.loads(out.read_text(encoding="utf-8"), parse_float=Decimal)
    assert exported["1"]["finishing_stacks"] == [99, 101, 100]
    assert exported["2"]["_result"] == "unknown" and exported["2"]["_unfinished"] is True
    assert "finishing_stacks" not in exported["2"]


def test_shows_of_unknown_cards_take_the_dealt_cards_only_when_every_hand_is_known() -> None:
    tail = ["p3 f", "p1 cc", "p2 cc", "d db 2c7dKs", "p1 cc", "p2 cc", "d db 9h", "p1 cc", "p2 cc",
            "d db Jd", "p1 cc", "p2 cc", "p1 sm ????", "p2 sm ????"]
    both = _nt(3, ["d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 ????", *tail])
    summaries, alerts = _replay(both)
    assert alerts == []  # tabled as dealt: no winner left unshown
    assert summaries[0]["shown"] == {"1": ["As", "Ah"], "2": ["Kd", "Kc"]}
    assert [s["end"] for s in summaries[0]["seats"]] == [98, 102, 100]  # three kings beat two aces
    one = _nt(3, ["d dh p1 AsAh", "d dh p2 ????", "d dh p3 ????", *tail])
    summaries, _ = _replay(one)
    assert summaries[0].get("result") == "unknown" and summaries[0]["shown"] == {}
