"""Stud replay benchmark: hands and events per second through the Engine, stud next to hold'em, same run.

Stud hands are the PokerKit-decided fixed-limit hands of the differential (tests/conformance/stud_oracle.py:
2–6 players, bring-in, completions, raises to the cap, all-ins, played to the end and shown down); hold'em
hands are the replay benchmark's (controller/sim, 6-max, every hand to the river). Both are parsed into
events before the clock starts; the Engine is timed on `feed` alone (CPU time, best of --runs). The
ratio column is stud's rate over hold'em's (issue 13 asks stud to replay within 20 % of hold'em).

Usage: python bench/stud_replay_bench.py [--hands N] [--runs R] [--json]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.core.engine import Engine
from controller.core.eventlog import read_events
from controller.core.events import Event
from controller.sim import VirtualTable
from tests.conformance.stud_oracle import random_stud_hand

CLOCK = time.process_time


def stud_events(hands: int) -> list[list[Event]]:
    out = []
    for seed in range(hands):
        text = "".join(json.dumps(e) + "\n" for e in random_stud_hand(seed).events)
        out.append([ev for _line, ev in read_events(io.StringIO(text), max_seat=10)])
    return out


def holdem_events(hands: int) -> list[list[Event]]:
    vt = VirtualTable(seats=6, seed=1, style="showdown", min_stack_bb=100, max_stack_bb=300, level_hands=0)
    return [list(h.events) for h in vt.hands(hands)]


def time_replay(logs: Sequence[Sequence[Event]], runs: int) -> float:
    """Each stud log is a session of its own (seats and level inside): one engine per log, as replay."""
    best = float("inf")
    for _ in range(runs):
        spent = 0.0
        for log in logs:
            feed = Engine().feed
            t0 = CLOCK()
            for ev in log:
                feed(ev)
            spent += CLOCK() - t0
        best = min(best, spent)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    stud = stud_events(args.hands)
    holdem = [[e for h in holdem_events(args.hands) for e in h]]  # one session, as the replay bench
    rows = []
    for game, logs in (("holdem", holdem), ("stud7", stud)):
        t = time_replay(logs, args.runs)
        events = sum(len(log) for log in logs)
        rows.append({"game": game, "hands": args.hands, "events": events, "hps": args.hands / t,
                     "eps": events / t})
    ratio = rows[1]["hps"] / rows[0]["hps"]
    if args.json:
        print(json.dumps({"rows": rows, "stud_over_holdem": ratio}, indent=2))
        return 0
    print(f"{'game':<7} {'hands':>6} {'events':>8} {'hands/s':>9} {'events/s':>10}")
    for r in rows:
        print(f"{r['game']:<7} {r['hands']:>6} {r['events']:>8} {r['hps']:>9,.0f} {r['eps']:>10,.0f}")
    print(f"stud / hold'em hands per second: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
