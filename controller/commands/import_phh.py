"""`cardtable import-phh FILE.phh[s] -o LOG.jsonl`: real hand histories as physical table event logs."""

from __future__ import annotations

import argparse
import sys

from controller.core.eventlog import dumps_event
from controller.core.profiles import DEFAULT_PROFILE, PROFILES
from controller.phh import PhhError, parse_phh, require_holdem
from controller.phh.importer import hands_to_events

NAME = "import-phh"
HELP = "turn PHH/PHHS hand histories (no-limit hold'em) into table event logs for `cardtable replay`"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="hand history: .phh (one hand) or .phhs (tables [1], [2], …)")
    p.add_argument("-o", "--output", required=True, help="event log to write (JSON Lines); '-' for stdout")
    p.add_argument("--profile", default=DEFAULT_PROFILE, choices=sorted(PROFILES),
                   help="profile whose table size bounds the seats (default %(default)s)")
    p.add_argument("--skip-other-variants", action="store_true",
                   help="leave out hands that are not no-limit hold'em instead of failing")


def run(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        print(f"cardtable import-phh: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"cardtable import-phh: {args.file}: not UTF-8 text ({exc.reason})", file=sys.stderr)
        return 2
    try:
        hands = parse_phh(text, name=args.file)
        if args.skip_other_variants:
            skipped = [h for h in hands if h.variant != "NT"]
            for h in skipped:
                print(f"cardtable import-phh: skipped hand {h.key} (variant {h.variant})", file=sys.stderr)
            hands = [h for h in hands if h.variant == "NT"]
        for h in hands:
            require_holdem(h, args.file)
        if not hands:
            print(f"cardtable import-phh: {args.file}: no no-limit hold'em hands to import", file=sys.stderr)
            return 2
        events = hands_to_events(hands, name=args.file, max_seats=PROFILES[args.profile].max_seats)
    except PhhError as exc:
        print(f"cardtable import-phh: {exc}", file=sys.stderr)
        return 2
    lines = "".join(dumps_event(ev) + "\n" for ev in events)
    if args.output == "-":
        sys.stdout.write(lines)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(lines)
    except OSError as exc:
        print(f"cardtable import-phh: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return 2
    note = f"{len(hands)} hand(s), {len(events)} events → {args.output}"
    print(f"cardtable import-phh: {note}", file=sys.stderr)
    return 0
