"""Showdown golden scenarios as event logs through the engine: alerts, pots and finishing stacks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.core.alerts import Alert
from controller.core.engine import Engine, HandSummary, Outcome
from controller.core.eventlog import read_events
from controller.core.profiles import get_profile

HERE = Path(__file__).resolve().parents[1] / "scenarios" / "showdown"
LOGS = sorted(p for p in HERE.glob("s_*.jsonl") if not p.name.endswith(".expected.jsonl"))


def replay(log: Path, profile: str) -> list[Outcome]:
    prof = get_profile(profile)
    engine = Engine(table="t1", profile=prof)
    out: list[Outcome] = []
    with log.open(encoding="utf-8") as fh:
        for _line, event in read_events(fh, max_seat=prof.max_seats):
            out += engine.feed(event)
    return out


def expected(log: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = log.with_suffix("").with_suffix(".expected.jsonl").read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:] if x.strip()]


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_showdown_scenario(log: Path) -> None:
    head, want = expected(log)
    out = replay(log, head["profile"])
    alerts = [o for o in out if isinstance(o, Alert)]
    got = [{"code": a.code, "seat": a.seat, "street": a.street} for a in alerts]
    assert got == want, "\n".join(f"{a.code} seat={a.seat} {a.street}: {a.message}" for a in alerts)
    (award,) = [a for a in alerts if a.code == "POT_AWARD"]
    pots = [{k: p[k] for k in ("amount", "eligible", "winners")} for p in award.extra["pots"]]
    assert pots == head["pots"]
    (summary,) = [o for o in out if isinstance(o, HandSummary)]
    assert [s["end"] for s in summary.payload["seats"]] == head["stacks"]


def test_all_five_golden_scenarios_are_present() -> None:
    names = {p.stem for p in LOGS}
    assert {"s_three_way_all_in_two_side_pots", "s_odd_chips_three_winners_cuca",
            "s_odd_chips_three_winners_handbuch", "s_tournament_example_000_4_1", "s_uncalled_river_bet",
            "s_play_the_board_without_showing"} <= names


def test_stacks_carry_across_hands_and_busted_players_leave() -> None:
    """A simulated session: each hand starts from the last one's settlement unless the table re-seated."""
    from controller.core.events import SeatEvent
    from controller.sim.table import VirtualTable

    engine = Engine()
    summaries: list[HandSummary] = []
    reseated: set[int] = set()
    for sim_hand in VirtualTable(seats=6, seed=3).hands(120):
        if any(isinstance(ev, SeatEvent) for ev in sim_hand.events):
            reseated.add(sim_hand.number)
        for ev in sim_hand.events:
            summaries += [o for o in engine.feed(ev) if isinstance(o, HandSummary)]
    last: dict[int, int] = {}
    carried = 0
    for s in summaries:
        seats = s.payload["seats"]
        assert sum(x["start"] for x in seats) == sum(x["end"] for x in seats)  # chips conserved
        for x in seats:
            assert x["start"] > 0  # a busted player is not dealt in
            if s.hand not in reseated and x["seat"] in last:
                assert x["start"] == last[x["seat"]]
                carried += 1
        last = {x["seat"]: x["end"] for x in seats}
    assert len(summaries) >= 100 and carried > 400
