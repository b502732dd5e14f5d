"""Golden scenarios: replay each <name>.jsonl here and compare its alerts with <name>.expected.jsonl."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.core.alerts import Alert
from controller.core.engine import Engine
from controller.core.eventlog import read_events
from controller.core.levels import TableGame
from controller.core.profiles import Profile, get_profile, with_overrides

HERE = Path(__file__).resolve().parent
LOGS = sorted(p for p in HERE.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


def run(log: Path, profile: str | Profile) -> tuple[list[Alert], Engine]:
    prof = get_profile(profile) if isinstance(profile, str) else profile
    engine = Engine(table="t1", profile=prof, strict=True, game=table_game(log))
    alerts: list[Alert] = []
    with log.open(encoding="utf-8") as fh:
        for _line, event in read_events(fh, max_seat=prof.max_seats):
            alerts += [o for o in engine.feed(event) if isinstance(o, Alert)]
    return alerts, engine


def replay(log: Path, profile: str) -> list[Alert]:
    return run(log, profile)[0]


def header(log: Path) -> dict[str, Any]:
    lines = log.with_suffix("").with_suffix(".expected.jsonl").read_text(encoding="utf-8").splitlines()
    head: dict[str, Any] = json.loads(lines[0])
    return head


def table_game(log: Path) -> TableGame:
    """The table config's game a scenario is played under (header `table_game`; default hold'em), for the
    levels that name no game (controller/core/levels.py)."""
    return TableGame(**header(log).get("table_game", {}))


def expected(log: Path) -> tuple[str, list[dict[str, object]]]:
    lines = log.with_suffix("").with_suffix(".expected.jsonl").read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    return head["profile"], [json.loads(x) for x in lines[1:] if x.strip()]


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_scenario(log: Path) -> None:
    profile, want = expected(log)
    # A header may change profile fields for one scenario (e.g. lift the limit raise cap heads-up).
    alerts, engine = run(log, with_overrides(get_profile(profile), **header(log).get("overrides", {})))
    got: list[dict[str, object]] = [{"code": a.code, "seat": a.seat, "street": a.street} for a in alerts]
    for g, w, a in zip(got, want, alerts, strict=False):
        if "severity" in w:  # the scenario is about the severity too (misdeal or not)
            g["severity"] = a.severity
    assert got == want, "\n".join(f"{a.code} seat={a.seat} {a.street}" for a in alerts)
    stacks = header(log).get("stacks")
    if stacks is not None:  # the hand was followed to settlement: every seat's chips as expected
        assert engine.current.settled
        got_stacks = {str(s): info.stack for s, info in sorted(engine.seats.seats.items())}
        assert got_stacks == stacks


def test_every_scenario_has_expectations() -> None:
    assert len(LOGS) >= 2
    for log in LOGS:
        assert log.with_suffix("").with_suffix(".expected.jsonl").exists(), log.name
