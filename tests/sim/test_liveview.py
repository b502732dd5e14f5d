"""The view of `cardtable simulate`: a live rich table on a terminal, plain lines in a pipe, quiet, JSON."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from controller.core.alerts import Alert
from controller.sim.liveview import View, choose_mode

ROOT = Path(__file__).resolve().parents[2]

STATE = {"table": "sim", "hand": 3, "street": "flop", "button": 2, "blinds": {"sb": 25, "bb": 50},
         "pots": [{"amount": 450}], "board": ["Ah", "7c", "2d"], "to_act": 4,
         "seats": [{"seat": 1, "player": "Anna", "stack": 1200, "bet": 0, "status": "folded", "cards": 0},
                   {"seat": 4, "player": "Dmitri", "stack": 3050, "bet": 100, "status": "live", "cards": 2,
                    "shown": []}]}
ALERT = Alert(id="a1", t=12.5, table="sim", hand=3, code="TURN_PREMATURE", severity="error", street="flop",
              seat=None, cards=("Jh",), message="Turn card Jh dealt before flop betting closed",
              remedy="", rule="000 §2.6")


class FakeHand:
    number = 3


def test_modes() -> None:
    assert choose_mode(json_mode=True, quiet=True, tty=True) == "json"
    assert choose_mode(json_mode=False, quiet=True, tty=True) == "quiet"
    assert choose_mode(json_mode=False, quiet=False, tty=True) == "live"
    assert choose_mode(json_mode=False, quiet=False, tty=False) == "lines"


def test_live_view_draws_seats_stacks_bets_board_pot_to_act_and_alerts() -> None:
    out = io.StringIO()
    view = View(out=out, mode="live", total=10)
    view.update(None, STATE, [ALERT])
    view.hand_done(FakeHand())  # type: ignore[arg-type]
    view.close()
    text = out.getvalue()
    for needle in ("table sim  hand 3  flop", "pot 450", "[Ah] [7c] [2d]", "to act: 4", "Dmitri", "3,050",
                   "100", "TURN_PREMATURE", "Turn card Jh dealt", "hand 1/10 played", "fault alerts 1"):
        assert needle in text, needle
    assert "\x1b[" in text  # drawn for a terminal


def test_lines_mode_prints_alerts_and_a_line_per_hand_without_escapes() -> None:
    out = io.StringIO()
    view = View(out=out, mode="lines", total=2)
    view.update(None, STATE, [ALERT])
    view.update(None, {**STATE, "board": [], "street": "between"}, [])  # the dealer gathered the cards
    view.hand_done(FakeHand())  # type: ignore[arg-type]
    lines = out.getvalue().splitlines()
    assert lines[0] == ALERT.line()
    assert lines[1].startswith("table sim  hand 3  flop") and "[Ah] [7c] [2d]" in lines[1]
    assert lines[1].endswith("(1/2 hands)")
    assert "\x1b" not in out.getvalue()


def test_quiet_and_json_modes() -> None:
    out = io.StringIO()
    quiet = View(out=out, mode="quiet", total=1)
    quiet.update(None, STATE, [ALERT])
    quiet.hand_done(FakeHand())  # type: ignore[arg-type]
    assert out.getvalue() == ""
    js = View(out=out, mode="json", total=1)
    js.update(None, STATE, [ALERT])
    assert json.loads(out.getvalue())["code"] == "TURN_PREMATURE"


def test_simulate_quiet_prints_only_the_summary() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-m", "controller", "simulate", "--hands", "3", "--quiet"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[1].startswith("hands 3 (clean")  # a blank line, then the score
