"""PHH benchmark: import + replay of real hand histories through cardtable vs PokerKit, same file, same run.

cardtable: read the file (`parse_phh`), build the physical event log (`hands_to_events`, what
`cardtable import-phh` writes), serialise it to JSON Lines and read it back (`read_events`, what `cardtable
replay` reads) and feed every event through the rules `Engine`, settling each hand.
PokerKit 0.7.7: `HandHistory.load_all` on the same bytes, then play every hand through to its last state
(`list(hand_history)`), the work PokerKit does to reproduce a recorded hand.

Times are CPU seconds of this process (time.process_time), best of --runs; the ratio is PokerKit's time
over cardtable's (above 1: cardtable is faster). Only no-limit hold'em hands are timed on both sides.

Usage: python bench/phh_bench.py [FILE.phhs] [--runs N] [--json]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import HandHistory

from controller.core.engine import Engine
from controller.core.eventlog import dumps_event, read_events
from controller.phh import parse_phh
from controller.phh.importer import hands_to_events

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "phh" / "real" / "pluribus_dev.phhs"


def _holdem_text(text: str) -> str:
    """The file without its non-NT hands (both sides then time the same hands)."""
    hands = parse_phh(text)
    if all(h.variant == "NT" for h in hands):
        return text
    blocks = text.split("\n[")
    keep = [b for b in blocks if "variant = 'NT'" in b or "variant = \"NT\"" in b]
    return "\n[".join(keep) if keep[0].startswith("[") else "[" + "\n[".join(keep)


def run_cardtable(text: str) -> int:
    hands = parse_phh(text)
    lines = "".join(dumps_event(ev) + "\n" for ev in hands_to_events(hands))
    engine = Engine()
    for _, ev in read_events(io.StringIO(lines), max_seat=10):
        engine.feed(ev)
    engine.finish(engine.last_t)
    return len(hands)


def run_pokerkit(data: bytes) -> int:
    n = 0
    for hh in HandHistory.load_all(io.BytesIO(data)):
        list(hh)
        n += 1
    return n


def best(fn: Callable[[], int], runs: int) -> tuple[float, int]:
    times = []
    n = 0
    for _ in range(runs):
        t0 = time.process_time()
        n = fn()
        times.append(time.process_time() - t0)
    return min(times), n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    text = _holdem_text(Path(args.file).read_text(encoding="utf-8"))
    ours, n = best(lambda: run_cardtable(text), args.runs)
    kit, n_kit = best(lambda: run_pokerkit(text.encode()), args.runs)
    result = {"file": Path(args.file).name, "hands": n, "kit_hands": n_kit, "cardtable_s": round(ours, 3),
              "pokerkit_s": round(kit, 3), "cardtable_hands_per_s": round(n / ours, 1),
              "pokerkit_hands_per_s": round(n_kit / kit, 1), "ratio_kit_over_cardtable": round(kit / ours, 2)}
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>26}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
