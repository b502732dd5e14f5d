"""Writes the showdown golden scenarios as event logs, in the engine's scenario format (tests/scenarios).

Each scenario is a short PHH hand turned into a physical event log by `controller.phh.importer` (so the
deal, knocks, burns and showdown exposures are those of a real table), closed by a `seat` event that
empties an unused seat (the engine settles the hand before a seat changes). The expected alerts and
pots are written by hand from 000 §4.1/§4.2 and 001 §9–§10, not captured from the code. Run
`python tests/scenarios/showdown/build.py` after editing; tests/core/test_showdown_scenarios.py replays.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from controller.core.eventlog import dumps_event  # noqa: E402
from controller.core.events import LevelEvent, SeatEvent  # noqa: E402
from controller.phh import parse_phh  # noqa: E402
from controller.phh.importer import hands_to_events  # noqa: E402


def phh(stacks: list[int], blinds: list[int], actions: list[str], ante: int = 0) -> str:
    n = len(stacks)
    full = blinds + [0] * (n - len(blinds))
    return (f"variant = 'NT'\nantes = {[ante] * n}\nblinds_or_straddles = {full}\n"
            f"min_bet = {max(blinds)}\nstarting_stacks = {stacks}\nactions = {json.dumps(actions)}\n")


SCENARIOS: dict[str, dict[str, Any]] = {
    "s_three_way_all_in_two_side_pots": {
        "about": "three players all-in for 1,000 / 3,000 / 6,000, the button covers: main pot and two side "
                 "pots, each with its own winner, pushed last side pot first (000 §4.1)",
        "profile": "cuca",
        "phh": phh([1_000, 3_000, 6_000, 10_000], [50, 100], [
            "d dh p1 AsAd", "d dh p2 QsQd", "d dh p3 5s5d", "d dh p4 4s3s",
            "p3 cbr 6000", "p4 cc", "p1 cc", "p2 cc",
            "p1 sm AsAd", "p2 sm QsQd", "p3 sm 5s5d", "p4 sm 4s3s",
            "d db 2c7d9h", "d db Jc", "d db Ks"]),
        "expect": [("SHOWDOWN_ORDER", 1), ("POT_AWARD", 3)],
        "pots": [(4_000, [1, 2, 3, 4], {"1": 4_000}), (6_000, [2, 3, 4], {"2": 6_000}),
                 (6_000, [3, 4], {"3": 6_000})],
        "stacks": [4_000, 6_000, 6_000, 4_000],
    },
    "s_odd_chips_three_winners_cuca": {
        "about": "310 split three ways in 5-chips: the indivisible 10 go to the first winner left of the "
                 "button (001 §9.1)",
        "profile": "cuca", "chip": 5,
        "phh": phh([1_000] * 4, [10, 20], [
            "d dh p1 2h3h", "d dh p2 AcKd", "d dh p3 AhKh", "d dh p4 QsJd",
            "p3 cbr 100", "p4 cc", "p1 f", "p2 cc",
            "d db 5c6d7h", "p2 cc", "p3 cc", "p4 cc", "d db 8s", "p2 cc", "p3 cc", "p4 cc",
            "d db 9c", "p2 cc", "p3 cc", "p4 cc", "p2 sm AcKd", "p3 sm AhKh", "p4 sm QsJd"]),
        "expect": [("SHOWDOWN_ORDER", 2), ("POT_AWARD", 2)],
        "pots": [(310, [2, 3, 4], {"2": 110, "3": 100, "4": 100})],
        "stacks": [990, 1_010, 1_000, 1_000],
    },
    "s_odd_chips_three_winners_handbuch": {
        "about": "the same split under 000 §4.1: one odd 5-chip each to the first two winners left of the "
                 "button",
        "profile": "handbuch", "chip": 5, "same_as": "s_odd_chips_three_winners_cuca",
        "expect": [("SHOWDOWN_ORDER", 2), ("POT_AWARD", 2)],
        "pots": [(310, [2, 3, 4], {"2": 105, "3": 105, "4": 100})],
        "stacks": [990, 1_005, 1_005, 1_000],
    },
    "s_tournament_example_000_4_1": {
        "about": "000 §4.1: SB 7,000, BB 14,000, pot 35,000, smallest chip 1,000: 18,000 to the first winner "
                 "left of the button, 17,000 to the other",
        "profile": "handbuch", "chip": 1_000,
        "phh": phh([100_000] * 3, [7_000, 14_000], [
            "d dh p1 2h4h", "d dh p2 9c8c", "d dh p3 9d8d",
            "p3 cc", "p1 f", "p2 cc",
            "d db 2s3s5c", "p2 cc", "p3 cc", "d db Jd", "p2 cc", "p3 cc", "d db Kh", "p2 cc", "p3 cc",
            "p2 sm 9c8c", "p3 sm 9d8d"]),
        "expect": [("SHOWDOWN_ORDER", 2), ("POT_AWARD", 2)],
        "pots": [(35_000, [2, 3], {"2": 18_000, "3": 17_000})],
        "stacks": [93_000, 104_000, 103_000],
    },
    "s_uncalled_river_bet": {
        "about": "a river bet nobody calls goes back; the bettor wins without showing (000 §4.1)",
        "profile": "cuca",
        "phh": phh([1_000] * 3, [5, 10], [
            "d dh p1 AcAd", "d dh p2 7c2d", "d dh p3 9s8s",
            "p3 cbr 30", "p1 cc", "p2 cc",
            "d db Kc7d3h", "p1 cc", "p2 cc", "p3 cc", "d db 4s", "p1 cc", "p2 cc", "p3 cc",
            "d db 9c", "p1 cc", "p2 cbr 500", "p3 f", "p1 f"]),
        "expect": [("UNCALLED_BET", 2), ("POT_AWARD", 2)],
        "pots": [(90, [2], {"2": 90})],
        "stacks": [970, 1_060, 970],
    },
    "s_play_the_board_without_showing": {
        "about": "the board is a royal flush; one seat shows, two muck unseen: they lose their claim (000 "
                 "§4.2, 003 (11))",
        "profile": "cuca",
        "phh": phh([1_000] * 3, [5, 10], [
            "d dh p1 2c3d", "d dh p2 4c5d", "d dh p3 6c7d",
            "p3 cbr 200", "p1 cc", "p2 cc",
            "d db AhKhQh", "p1 cc", "p2 cc", "p3 cc", "d db Jh", "p1 cc", "p2 cc", "p3 cc",
            "d db Th", "p1 cc", "p2 cc", "p3 cc", "p1 sm 2c3d", "p2 sm", "p3 sm"]),
        "expect": [("SHOWDOWN_ORDER", 1), ("PLAY_THE_BOARD_UNDECLARED", 2), ("PLAY_THE_BOARD_UNDECLARED", 3),
                   ("POT_AWARD", 1)],
        "pots": [(600, [1, 2, 3], {"1": 600})],
        "stacks": [1_400, 800, 800],
    },
}


def events_for(name: str) -> list[dict[str, Any]]:
    spec = SCENARIOS[name]
    source = SCENARIOS[spec.get("same_as", name)]
    events = hands_to_events(parse_phh(source["phh"], name=name))
    chip = int(spec.get("chip", 1))
    events = [replace(e, chip=chip) if isinstance(e, LevelEvent) else e for e in events]
    events.append(SeatEvent(t=events[-1].t + 5.0, seat=10, player=None, stack=0))  # closes the hand
    return [json.loads(dumps_event(e)) for e in events]


def main() -> None:
    for old in HERE.glob("s_*.jsonl"):
        old.unlink()
    for name, spec in SCENARIOS.items():
        lines = [json.dumps(e, separators=(",", ":")) for e in events_for(name)]
        (HERE / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        head = {"profile": spec["profile"], "about": spec["about"],
                "pots": [{"amount": a, "eligible": el, "winners": w} for a, el, w in spec["pots"]],
                "stacks": spec["stacks"]}
        expected = [{"code": c, "seat": s, "street": "showdown"} for c, s in spec["expect"]]
        body = [json.dumps(head, ensure_ascii=False)] + [json.dumps(x) for x in expected]
        (HERE / f"{name}.expected.jsonl").write_text("\n".join(body) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
