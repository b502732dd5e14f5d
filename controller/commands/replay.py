"""`cardtable replay LOG.jsonl`: feed an event log through the rules core and print its alerts."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import IO

from controller.core.alerts import Alert
from controller.core.engine import Engine, HandSummary
from controller.core.eventlog import LogError, read_events
from controller.core.events import GAMES
from controller.core.history import PhhCollector
from controller.core.levels import TableGame
from controller.core.profiles import DEFAULT_PROFILE, PROFILES
from controller.errors import UsageError

NAME = "replay"
HELP = "replay a table event log (JSON Lines) and print the alerts it raises"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="event log, JSON Lines (interfaces.md §1); '-' for standard input")
    p.add_argument("--json", action="store_true", help="print alerts as JSON Lines")
    p.add_argument("--config", metavar="FILE",
                   help="the table's TOML config (as `cardtable run`): its [table] id, profile with the "
                        "timing overrides, and game for levels that name none, so a journal replays as the "
                        "daemon played it; the options below override it")
    p.add_argument("--profile", choices=sorted(PROFILES),
                   help=f"rulebook profile (default: the config's, else {DEFAULT_PROFILE})")
    p.add_argument("--table", help="table id used in alert ids (default: the config's, else t1)")
    p.add_argument("--game", choices=GAMES,
                   help="the game of levels that name none (default: the config's [table] game, else "
                        "holdem); a level or hand_start that names a game still wins")
    p.add_argument("--phh", metavar="OUT.phhs", help="also write every finished hand in PHH format (a PHHS "
                   "file); the last hand is settled at the end of the log for it (its alerts not printed)")
    p.add_argument("--keep-going", action="store_true",
                   help="print events the rules reject (BAD_EVENT) like any alert instead of stopping with "
                        "exit 2 (the daemon replays its journal this way)")
    p.add_argument("--summaries", action="store_true",
                   help="with --json, also print each finished hand's summary as {\"type\": \"hand\", …}")


def _engine(args: argparse.Namespace) -> Engine:
    """The engine as the options and the config describe the table (ConfigError: a bad config); the
    options beat the config."""
    if args.config is None:  # no pydantic import for a plain replay
        game = TableGame(game=args.game or "holdem")
        return Engine(table=args.table or "t1", profile=PROFILES[args.profile or DEFAULT_PROFILE], game=game)
    from controller.config import load_config
    table = load_config(args.config).table
    if args.profile is not None:
        table = table.model_copy(update={"profile": args.profile})
    game = table.table_game()
    if args.game is not None and args.game != game.game:
        # Another game than the config's: the config's limit and amounts were written for its own game.
        game = TableGame(game=args.game)
    return Engine(table=args.table or table.id, profile=table.rule_profile(), game=game)


def run(args: argparse.Namespace) -> int:
    try:
        engine = _engine(args)
    except UsageError as exc:  # a bad config: one line per problem, as `cardtable run` says them
        from controller.config import ConfigError
        lines = [f"{exc.path}: {e}" for e in exc.errors] if isinstance(exc, ConfigError) else [str(exc)]
        for line in lines:
            print(f"cardtable replay: {line}", file=sys.stderr)
        return 2
    profile = engine.profile
    try:
        stream = sys.stdin.buffer if args.log == "-" else open(args.log, "rb")  # noqa: SIM115
    except OSError as exc:
        print(f"cardtable replay: cannot read {args.log}: {exc.strerror}", file=sys.stderr)
        return 2
    out = sys.stdout
    phh = PhhCollector() if args.phh else None
    try:
        with stream:
            for line, event in read_events(_text_lines(stream), max_seat=profile.max_seats):
                outcomes = engine.feed(event)
                if phh is not None:  # the level and the cards of each hand, for FT and F7S
                    phh.event(event, engine.hand, engine.current.level if engine.hand else None)
                for outcome in outcomes:
                    if phh is not None:
                        _collect(phh, outcome)
                    if isinstance(outcome, Alert):
                        if outcome.code == "BAD_EVENT" and not args.keep_going:
                            out.flush()
                            print(f"cardtable replay: {args.log}: line {line}: {outcome.message} "
                                  f"(use --keep-going to continue past it)", file=sys.stderr)
                            return 2
                        out.write((outcome.dumps() if args.json else outcome.line()) + "\n")
                    elif args.json and args.summaries:
                        body = {"type": "hand", "hand": outcome.hand, "t": outcome.t, **outcome.payload}
                        out.write(json.dumps(body, separators=(",", ":"), sort_keys=True, default=str) + "\n")
    except LogError as exc:
        out.flush()
        print(f"cardtable replay: {args.log}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"cardtable replay: {args.log}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if phh is not None:
        for outcome in engine.finish(engine.last_t):
            _collect(phh, outcome)
        try:
            with open(args.phh, "w", encoding="utf-8") as fh:
                fh.write(phh.text())
        except OSError as exc:
            print(f"cardtable replay: cannot write {args.phh}: {exc.strerror}", file=sys.stderr)
            return 2
    return 0


def _text_lines(stream: IO[bytes]) -> Iterator[str]:
    """The log's lines as text; a line that is not UTF-8 is a LogError naming it."""
    for number, raw in enumerate(stream, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", line=number) from None


def _collect(phh: PhhCollector, outcome: Alert | HandSummary) -> None:
    if isinstance(outcome, Alert):
        phh.alert(outcome)
    else:
        if outcome.payload.get("ended") == "unfinished":  # said once, not silently left out or settled
            print(f"cardtable replay: hand {outcome.hand} stopped before it was over (the log or the next "
                  f"hand cut it short): its result is unknown", file=sys.stderr)
        phh.summary(outcome.hand, outcome.payload)
