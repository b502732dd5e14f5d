"""Replay equivalence check for speed work on the rules core: the same simulated logs through the Engine,
every output hashed, so a tree before and a tree after a change can be compared (the lines must be equal).

The logs are drawn once (`gen`, by this tree's simulator) and kept in a pickle, so both trees replay the very
same events: stud, mixed and hold'em tables of 3–9 seats, clean and with injected errors (30 % and 60 % of the
hands, the remedy alone or every dealer reaction), seeds 0–2, the five profiles in turn. `hash` feeds them to
a fresh Engine per table and hashes each event's outcomes (alerts, hand summaries), the public state every 7th
event and at the end, the last hand's settlement and the statistics.

Usage: python bench/replay_hash.py gen LOGS.pkl [--hands N]   (once, in either tree)
       python bench/replay_hash.py hash LOGS.pkl               (in each tree: the lines must be equal)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.core.engine import Engine
from controller.core.events import Event
from controller.core.profiles import get_profile

PROFILES = ("cuca", "handbuch", "uesg", "classic", "tda")
REACTIONS = ("remedy", "ignore", "ruling", "second")


def setups() -> list[dict[str, Any]]:
    """The simulated tables: game and seats × error rate and dealer reactions × seed."""
    out = []
    for game, seats in (("stud", 6), ("stud", 7), ("holdem", 6), ("holdem", 9), ("mixed", 5), ("stud", 3)):
        for inject in (0.0, 0.3, 0.6):
            for reactions in (("remedy",), REACTIONS):
                if inject == 0.0 and len(reactions) > 1:
                    continue
                for seed in (0, 1, 2):
                    out.append({"game": game, "seats": seats, "inject": inject, "reactions": reactions,
                                "seed": seed, "profile": PROFILES[(seed + seats) % 5],
                                "style": "mixed" if seed else "showdown",
                                **({"ante": "bb"} if game == "holdem" and seed == 2 else {})})
    return out


def gen(path: Path, hands: int) -> None:
    from controller.sim import VirtualTable

    logs = [(s, [ev for h in VirtualTable(**s).hands(hands) for ev in h.events]) for s in setups()]
    path.write_bytes(pickle.dumps(logs))


def digest(path: Path) -> str:
    logs: list[tuple[dict[str, Any], list[Event]]] = pickle.loads(path.read_bytes())
    total = hashlib.sha256()
    events = outputs = 0
    start = time.process_time()
    for setup, evs in logs:
        h = hashlib.sha256()
        engine = Engine(table="eq", profile=get_profile(setup["profile"]))
        for i, ev in enumerate(evs):
            out = engine.feed(ev)
            outputs += len(out)
            h.update(repr(out).encode())
            if i % 7 == 0:
                h.update(json.dumps(engine.public_state(), sort_keys=True, default=repr).encode())
        out = engine.finish(engine.last_t)
        outputs += len(out)
        h.update(repr(out).encode())
        h.update(json.dumps(engine.public_state(), sort_keys=True, default=repr).encode())
        h.update(repr(sorted(engine.statistics().items())).encode())
        events += len(evs)
        total.update(h.digest())
    return (f"tables {len(logs)} events {events} outputs {outputs} sha256 {total.hexdigest()} "
            f"({time.process_time() - start:.1f} s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("gen", "hash"))
    ap.add_argument("logs", type=Path)
    ap.add_argument("--hands", type=int, default=60, help="hands per table (gen)")
    args = ap.parse_args(argv)
    if args.what == "gen":
        gen(args.logs, args.hands)
    else:
        print(digest(args.logs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
