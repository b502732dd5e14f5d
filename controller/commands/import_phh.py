"""`cardtable import-phh FILE.phh[s] -o LOG.jsonl`: real hand histories as physical table event logs."""

from __future__ import annotations

import argparse
import sys

from controller.core.eventlog import dumps_event
from controller.core.profiles import DEFAULT_PROFILE, PROFILES
from controller.phh import PhhError
from controller.phh.hands import PLAYABLE, parse_phh_lenient
from controller.phh.importer import hands_to_events

NAME = "import-phh"
HELP = ("turn PHH/PHHS hand histories (no- and fixed-limit hold'em, fixed-limit seven-card stud) into table "
        "event logs for `cardtable replay`")
MAX_BYTES = 64 * 1024 * 1024  # a bound on what one file may ask of the importer


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="hand history: .phh (one hand) or .phhs (tables [1], [2], …)")
    p.add_argument("-o", "--output", required=True, help="event log to write (JSON Lines); '-' for stdout")
    p.add_argument("--profile", default=DEFAULT_PROFILE, choices=sorted(PROFILES),
                   help="profile whose table size bounds the seats (default %(default)s)")
    p.add_argument("--skip-other-variants", action="store_true",
                   help="import the hands that can be played and name every other one (another variant, "
                        "a hand that cannot be read) on stderr; exit 2 only when none could be imported")


def _say(message: str) -> None:
    print(f"cardtable import-phh: {message}", file=sys.stderr)


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        _say(f"cannot read {path}: {exc.strerror}")
        return None
    if len(data) > MAX_BYTES:
        _say(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MiB; split it")
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        _say(f"{path}: not UTF-8 text ({exc.reason})")
        return None


def _events(args: argparse.Namespace, text: str) -> tuple[int, str] | None:
    """How many hands were imported and the log text, or None after a one-line error."""
    skip = bool(args.skip_other_variants)
    hands, errors = parse_phh_lenient(text, name=args.file)
    if errors and not skip:
        raise errors[0]
    for exc in errors:
        _say(f"skipped: {exc}")
    if skip:
        for h in (h for h in hands if h.variant not in PLAYABLE):
            _say(f"skipped hand {h.key} (variant {h.variant})")
        hands = [h for h in hands if h.variant in PLAYABLE]
    skipped: list[PhhError] = []
    events = hands_to_events(hands, name=args.file, max_seats=PROFILES[args.profile].max_seats,
                             on_error=skipped.append if skip else None)
    for exc in skipped:
        _say(f"skipped: {exc}")
    played = len(hands) - len(skipped)
    if played == 0:
        _say(f"{args.file}: no hand could be imported (the table plays NT, FT and F7S)")
        return None
    return played, "".join(dumps_event(ev) + "\n" for ev in events)


def run(args: argparse.Namespace) -> int:
    text = _read(args.file)
    if text is None:
        return 2
    try:
        done = _events(args, text)
    except PhhError as exc:
        _say(str(exc).splitlines()[0] if str(exc) else "bad hand history")
        return 2
    if done is None:
        return 2
    played, lines = done
    if args.output == "-":
        sys.stdout.write(lines)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(lines)
    except OSError as exc:
        _say(f"cannot write {args.output}: {exc.strerror}")
        return 2
    _say(f"{played} hand(s), {lines.count(chr(10))} events → {args.output}")
    return 0
