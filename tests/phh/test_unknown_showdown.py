"""Never invent a card: unshown showdown hands are settled from what the history records, or "unknown"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

from controller.core.cards import is_card
from controller.core.engine import Engine, HandSummary
from controller.core.eventlog import LogError, parse_line
from controller.phh import parse_phh
from controller.phh.importer import hands_to_events
from tests.conformance.oracle import kit_final_stacks

ROOT = Path(__file__).resolve().parents[2]
BASE = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 {p3}', 'p3 f', 'p1 cc', 'p2 cc', 'd db 2c7dKs',
  'p1 cbr 10', 'p2 cc', 'd db 9h', 'p1 cc', 'p2 cc', 'd db Jd', 'p1 cc', 'p2 cc', 'p1 sm {s1}', 'p2 sm ????']
"""


def _settle(text: str) -> tuple[dict[str, object], list[str]]:
    hands = parse_phh(text)
    engine = Engine()
    out = []
    events = hands_to_events(hands)
    for ev in events:
        out += engine.feed(ev)
    out += engine.finish(events[-1].t + 1)
    summaries = [o.payload for o in out if isinstance(o, HandSummary)]
    assert len(summaries) == 1
    return summaries[0], [o.message for o in out if not isinstance(o, HandSummary)]


def _cards_in(events_text: str) -> set[str]:
    return {json.loads(x)["card"] for x in events_text.splitlines() if '"card":' in x}


def test_nothing_shown_and_no_winnings_is_result_unknown() -> None:
    summary, messages = _settle(BASE.format(p3="????", s1="????"))
    assert summary.get("result") == "unknown"
    assert any("result unknown" in m for m in messages)
    assert summary["shown"] == {}
    ends = [int(s["end"]) for s in summary["seats"]]  # type: ignore[index]
    assert ends == [88, 88, 100]  # nothing won, nothing made up: 24 in a pot nobody is declared winner of


def test_recorded_winnings_decide_when_no_card_was_shown() -> None:
    text = BASE.format(p3="????", s1="????") + "winnings = [0, 24, 0]\n"
    summary, _ = _settle(text)
    assert "result" not in summary and summary["shown"] == {}
    assert [int(s["end"]) for s in summary["seats"]] == [88, 112, 100]  # type: ignore[index]


def test_all_zero_winnings_say_nothing() -> None:
    summary, _ = _settle(BASE.format(p3="????", s1="????") + "winnings = [0, 0, 0]\n")
    assert summary.get("result") == "unknown"


def test_a_tabled_hand_beats_a_hand_kept_face_down_as_pokerkit_says() -> None:
    text = BASE.format(p3="????", s1="AcAd")
    summary, _ = _settle(text)
    ends = [int(s["end"]) for s in summary["seats"]]  # type: ignore[index]
    assert ends == [112, 88, 100] == kit_final_stacks(parse_phh(text)[0])
    assert summary["shown"] == {"1": ["Ac", "Ad"]} or list(summary["shown"].values()) == [["Ac", "Ad"]]  # type: ignore[union-attr]


def test_cli_log_and_export_hold_only_recorded_cards(tmp_path: Path) -> None:
    src = tmp_path / "h.phhs"
    first, second = BASE.format(p3="7h2s", s1="????"), BASE.format(p3="????", s1="AcAd")
    src.write_text(f"[1]\n{first}\n[2]\n{second}", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log, out = tmp_path / "log.jsonl", tmp_path / "out.phhs"
    for args in (("import-phh", str(src), "-o", str(log)), ("replay", str(log), "--phh", str(out))):
        done = subprocess.run([sys.executable, "-m", "controller", *args], capture_output=True, text=True,
                              env=env, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
    recorded = {"7h", "2s", "Ac", "Ad", "2c", "7d", "Ks", "9h", "Jd"}
    assert _cards_in(log.read_text(encoding="utf-8")) <= recorded
    exported = tomllib.loads(out.read_text(encoding="utf-8"), parse_float=Decimal)
    assert exported["1"]["_result"] == "unknown" and "finishing_stacks" not in exported["1"]
    assert exported["2"]["finishing_stacks"] == [112, 88, 100]
    written = {w[i:i + 2] for hand in exported.values() for a in hand["actions"]
               for w in a.split()[-1:] if a.split()[1] in ("dh", "db", "sm") for i in range(0, len(w), 2)}
    assert written - {"??"} <= recorded and all(is_card(c) for c in written - {"??"})


def test_unread_cards_only_where_a_face_down_card_can_be() -> None:
    assert parse_line('{"t":1,"type":"card","zone":"seat2","unread":true}').unread is True  # type: ignore[union-attr]
    for zone in ("board", "deck"):
        with pytest.raises(LogError, match="card"):
            parse_line(f'{{"t":1,"type":"card","zone":"{zone}","unread":true}}')
    with pytest.raises(LogError, match="card"):  # without the flag: as before, one of card/uid is needed
        parse_line('{"t":1,"type":"card","zone":"seat2"}')
