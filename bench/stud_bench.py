"""Stud replay benchmark: seven-card stud hands vs hold'em hands through the same Engine, in one run.

The virtual table (controller/sim) plays N hands of each game at the same table size, every hand to the
showdown (players never fold but bet and raise): fixed-limit seven-card stud, fixed-limit hold'em and
no-limit hold'em. Each game's logs are then replayed through `controller.core.engine.Engine.feed`, event by
event, exactly as `cardtable replay` would (tags resolved by uid, antes and blinds as chips, every card,
exposure and action). A stud hand has more events than a hold'em hand (seven cards per seat, up-cards
with their `exposed`), so the comparison that says whether the core follows stud as efficiently is per
event; per hand is printed too. CPU seconds of this process (time.process_time), best of --runs.

Usage: python bench/stud_bench.py [--hands N] [--seats N] [--runs R] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.core.alerts import FAULT_SEVERITIES, Alert
from controller.core.engine import Engine
from controller.core.events import Event
from controller.sim import VirtualTable

CLOCK = time.process_time
GAMES = (("stud", "stud"), ("limit hold'em", "mixed-limit"), ("no-limit hold'em", "holdem"))


@dataclass
class Row:
    game: str
    hands: int
    events: int
    seconds: float
    fault_alerts: int

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds

    @property
    def events_per_s(self) -> float:
        return self.events / self.seconds


def logs(game: str, hands: int, seats: int, seed: int) -> list[Event]:
    """The events of `hands` clean hands of `game`, all to the showdown."""
    if game == "mixed-limit":  # limit hold'em only: a rotation longer than the run
        vt = VirtualTable(seats=seats, seed=seed, game="mixed", rotate=hands + 1, style="showdown")
    else:
        vt = VirtualTable(seats=seats, seed=seed, game=game, style="showdown")
    return [e for h in vt.hands(hands) for e in h.events]


def replay(events: list[Event]) -> tuple[float, int]:
    """CPU seconds to feed every event through a fresh Engine; fault alerts raised (expected 0)."""
    engine = Engine(table="bench")
    faults = 0
    start = CLOCK()
    for ev in events:
        for out in engine.feed(ev):
            if isinstance(out, Alert) and out.severity in FAULT_SEVERITIES:
                faults += 1
    return CLOCK() - start, faults


def run(hands: int, seats: int, runs: int, seed: int) -> list[Row]:
    """Best of `runs` per game; the games take turns within each run, so a load that changes during the
    benchmark (a shared machine) falls on all of them alike."""
    logs_of = {title: logs(game, hands, seats, seed) for title, game in GAMES}
    best: dict[str, tuple[float, int]] = {}
    for _ in range(runs):
        for title, _game in GAMES:
            took = replay(logs_of[title])
            best[title] = min(best.get(title, took), took)
    return [Row(game=title, hands=hands, events=len(logs_of[title]), seconds=best[title][0],
                fault_alerts=best[title][1]) for title, _ in GAMES]


def table(rows: list[Row]) -> str:
    peer = next(r for r in rows if r.game == "no-limit hold'em")
    lines = [f"{'game':<18} {'hands':>6} {'events/hand':>11} {'hands/s':>9} {'vs NLHE':>8} {'events/s':>10} "
             f"{'vs NLHE':>8} {'fault alerts':>12}"]
    for r in rows:
        lines.append(f"{r.game:<18} {r.hands:>6} {r.events / r.hands:>11.1f} {r.hands_per_s:>9.0f} "
                     f"{r.hands_per_s / peer.hands_per_s:>7.2f}x {r.events_per_s:>10.0f} "
                     f"{r.events_per_s / peer.events_per_s:>7.2f}x {r.fault_alerts:>12}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--seats", type=int, default=6)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = run(args.hands, args.seats, args.runs, args.seed)
    if args.json:
        print(json.dumps([{**r.__dict__, "hands_per_s": r.hands_per_s, "events_per_s": r.events_per_s}
                          for r in rows]))
    else:
        print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
