"""`cardtable simulate`: a virtual table plays hands through the adapters into the same daemon as `run`."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from controller.commands.run import report_errors
from controller.config import Config, parse_config
from controller.core.alerts import Alert
from controller.core.engine import HandSummary, Outcome
from controller.core.events import Event
from controller.core.profiles import DEFAULT_PROFILE, PROFILES
from controller.daemon.app import Daemon
from controller.doctor import broker_problem
from controller.errors import UsageError, require_camera
from controller.hardware.base import Source
from controller.sim.driver import Route, SimDriver, VirtualClock

NAME = "simulate"
HELP = "play a virtual table through the adapters into the daemon and score the rules core"
LOG_LEVEL = "warning"


def _speed(text: str) -> float | None:
    if text == "fast":
        return None
    if text == "real":
        return 1.0
    try:
        value = float(text.removesuffix("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected fast, real or a factor like 10, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("the speed factor must be positive")
    return value


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a share between 0 and 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a share between 0 and 1, got {text!r}")
    return value


def _reactions(text: str) -> tuple[str, ...]:
    from controller.sim.table import REACTIONS

    picked = REACTIONS if text == "all" else tuple(x.strip() for x in text.split(",") if x.strip())
    bad = [x for x in picked if x not in REACTIONS]
    if bad or not picked:
        raise argparse.ArgumentTypeError(f"unknown reaction {', '.join(bad) or text!r} (one of "
                                         f"{', '.join(REACTIONS)}, or all)")
    return picked


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hands", type=int, default=20, help="hands to play (default 20)")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same hands)")
    p.add_argument("--ante", choices=("none", "bb"), default="none",
                   help="bb: a big-blind ante of one big blind, TDA 2024 (level event ante_mode bb)")
    p.add_argument("--seats", type=int, default=None,
                   help="seats at the table, 2…10 (default 9; stud and mixed 2…7, default 7)")
    p.add_argument("--game", choices=("holdem", "stud", "mixed"), default="holdem",
                   help="holdem (no limit unless --limit, default), stud (seven-card stud, 002; fixed limit "
                        "unless --limit) or mixed (limit hold'em and stud alternating every --rotate hands, "
                        "HORSE's H and S)")
    p.add_argument("--rotate", type=int, default=8, metavar="N",
                   help="with --game mixed: hands per game before the rotation switches (default 8)")
    p.add_argument("--limit", choices=("no", "pot", "fixed"), default=None,
                   help="the betting structure: hold'em no limit (default), pot limit, or fixed limit (big "
                        "blind preflop and flop, twice it on turn and river); stud fixed limit (default), "
                        "pot or no limit (the highest up-card brings in, 002 §3); --game mixed is fixed "
                        "limit throughout")
    p.add_argument("--speed", type=_speed, default=None, metavar="fast|real|N",
                   help="fast (default: as fast as the daemon takes events), real, or N× real time")
    p.add_argument("--inject", type=_share, default=0.3, metavar="RATE",
                   help="share of hands with one dealer error from the catalogue (default 0.3)")
    p.add_argument("--profile", default=DEFAULT_PROFILE, choices=sorted(PROFILES), help="rulebook profile")
    p.add_argument("--reactions", type=_reactions, default=("remedy",), metavar="LIST",
                   help="what the dealer does after an injected error, drawn per error from this comma "
                        "list: remedy, ignore, ruling, second, or all (default remedy)")
    p.add_argument("--broker", metavar="URL",
                   help="publish to this MQTT broker (mqtt://[user:pass@]host[:port], mqtts:// for TLS); "
                        "without it nothing is published")
    p.add_argument("--log", type=Path, metavar="FILE", help="write the session's event journal here")
    p.add_argument("--json", action="store_true", help="alerts and the summary as JSON Lines, no view")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no live table and no per-hand lines: only the summary at the end")
    p.add_argument("--direct", action="store_true",
                   help="hand events straight to the daemon instead of through the emulated hardware")
    p.add_argument("--state-dir", type=Path, metavar="DIR",
                   help="keep journal and outbox here and resume a killed run (implies --direct)")
    p.add_argument("--table", default="sim", help="table id (default sim)")
    p.add_argument("--camera", action="store_true",
                   help="an overhead camera watches the virtual table: exposures and the board count come "
                        "from rendered frames through the real vision pipeline (slower: ~0.3 s per frame)")
    p.add_argument("--tables", type=int, default=1, metavar="N",
                   help="play a room of N tables in this process (ids <table>001…, events direct; "
                        "docs/room.md)")
    p.add_argument("--drain", type=float, default=10.0, metavar="S",
                   help="with --broker: wait up to S seconds after the last hand for the outbox to empty")


def broker_settings(url: str, tmp: Path) -> dict[str, Any]:
    parts = urlsplit(url if "://" in url else f"mqtt://{url}")
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise UsageError(f"--broker {url}: expected mqtt://host[:port] or mqtts://host[:port]")
    try:
        port = parts.port or (8883 if parts.scheme == "mqtts" else 1883)
    except ValueError:
        raise UsageError(f"--broker {url}: bad port") from None
    mqtt: dict[str, Any] = {"enabled": True, "host": parts.hostname, "port": port,
                            "tls": parts.scheme == "mqtts", "backoff_min_s": 0.2, "backoff_max_s": 5.0}
    if parts.username:
        creds = tmp / "mqtt.credentials"
        creds.write_text(f"{parts.username}:{parts.password or ''}\n", encoding="utf-8")
        creds.chmod(0o600)
        mqtt["credentials_file"] = str(creds)
    return mqtt


def seats_of(args: argparse.Namespace) -> int:
    """The table's seats: --seats, or the game's default (hold'em 9; stud and mixed 7, a deck's worth)."""
    return int(args.seats) if args.seats is not None else 9 if args.game == "holdem" else 7


def build_config(args: argparse.Namespace, state_dir: Path) -> Config:
    mqtt = broker_settings(args.broker, state_dir) if args.broker else {"enabled": False}
    return parse_config({"state_dir": str(state_dir), "mqtt": mqtt,
                         "table": {"id": args.table, "seats": max(seats_of(args), 2),
                                   "profile": args.profile},
                         "health": {"interval_s": 1.0}})


def hardware_routes(daemon: Daemon, clock: VirtualClock, seats: int) -> tuple[list[Source], list[Route]]:
    """The emulated hardware: reader hub behind a pty, MockFactory pins for the knock and the console.

    Falls back to direct delivery (with a note on stderr) when the bridge's emulator is not installed.
    """
    try:
        hw = importlib.import_module("controller.sim.hardware")
    except ImportError as exc:
        print(f"cardtable {NAME}: emulated hardware unavailable ({exc}); events go direct", file=sys.stderr)
        return [], []
    sources, routes = hw.build_hardware(clock=clock, seats=seats, health=daemon.health)
    return list(sources), list(routes)


async def _simulate(args: argparse.Namespace, daemon: Daemon, out: TextIO) -> dict[str, Any]:
    from controller.sim.liveview import View, choose_mode  # rich loads only for this command
    from controller.sim.score import score
    from controller.sim.table import VirtualTable

    clock = VirtualClock(daemon.journal.last_t)
    daemon.clock = clock  # type: ignore[assignment]  # health alerts carry simulated time too
    daemon.health.clock = clock
    table = VirtualTable(seats=seats_of(args), seed=args.seed, inject=args.inject, profile=args.profile,
                         ante=args.ante, reactions=args.reactions, game=args.game, rotate=args.rotate,
                         limit=args.limit)
    sources: list[Source] = []
    routes: list[Route] = []
    direct = args.direct or args.state_dir is not None
    if not direct:
        sources, routes = hardware_routes(daemon, clock, seats_of(args))
    if args.camera:
        from controller.vision.virtual import CameraRoute
        # The camera owns `exposed`: the card must be seen turned up, not announced.
        routes.insert(0, CameraRoute(seed=args.seed, seats=seats_of(args)))
    view = View(out=out, mode=choose_mode(json_mode=args.json, quiet=args.quiet, tty=out.isatty()),
                total=args.hands)
    driver = SimDriver(table.hands(args.hands), clock=clock, routes=routes, speed=args.speed,
                       skip=daemon.recovered, on_hand=view.hand_done)
    alerts: list[Alert] = []
    summaries: list[HandSummary] = []

    def observe(event: Event | None, outcomes: list[Outcome]) -> None:
        driver.observe(event, outcomes)
        summaries.extend(o for o in outcomes if isinstance(o, HandSummary))
        new = [o for o in outcomes if isinstance(o, Alert)]
        alerts.extend(a for a in new if a.code != "HEALTH")
        view.update(event, daemon.engine.public_state(), new)

    daemon.observers.append(observe)
    stop = asyncio.Event()
    left = {"pending": 0}

    async def finish() -> None:
        await driver.finished.wait()
        daemon.end_session()  # the last hand's summary goes out now, not at a hand_start that never comes
        if daemon.publisher is not None:  # give the outbox a chance to drain (the broker may be away)
            deadline = time.monotonic() + args.drain
            while daemon.outbox.pending_count() and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            left["pending"] = daemon.outbox.pending_count()
        stop.set()

    started = time.monotonic()
    async with asyncio.TaskGroup() as tg:
        tg.create_task(daemon.run([*sources, driver], stop=stop), name="daemon")
        tg.create_task(finish(), name="finish")
    view.close()
    if daemon.recovered:  # a resumed run: score the alerts of the whole session, from the journal
        from controller.core.engine import Engine
        from controller.daemon.journal import iter_journal
        engine = Engine(table=args.table, profile=daemon.profile, game=daemon.table_game)
        outs = [o for e in iter_journal(daemon.session.path) for o in engine.feed(e)]
        alerts = [o for o in outs if isinstance(o, Alert)]
        summaries = [o for o in outs if isinstance(o, HandSummary)]
    result = score(driver.played, alerts, summaries)
    pending = left["pending"]
    return {
        "hands": result.hands, "clean_hands": result.clean_hands,
        "injected": dict(result.injected), "detected": dict(result.detected), "missed": dict(result.missed),
        "alerts": dict(result.alerts), "false_alerts": dict(result.false_alerts),
        "clean_fault_alerts": dict(result.clean_faults), "missed_hands": result.missed_hands,
        "stuck_hands": result.stuck, "follow_up_false_alerts": result.follow_up_false,
        "by_severity": dict(Counter(a.severity for a in alerts)),
        "events": daemon.events, "routes": driver.stats.sent, "transport_timeouts": driver.stats.timeouts,
        "published": daemon.publisher.published if daemon.publisher else 0, "unpublished": pending,
        "journal": str(daemon.session.path), "seconds": round(time.monotonic() - started, 2),
        "_text": result.summary(),
    }


def _print_summary(res: dict[str, Any], args: argparse.Namespace, out: TextIO) -> None:
    text = res.pop("_text")
    if args.json:
        out.write(json.dumps({"type": "summary", **res}, separators=(",", ":")) + "\n")
        return
    out.write(f"\n{text}\n")
    routes = ", ".join(f"{k} {v}" for k, v in sorted(res["routes"].items()))
    out.write(f"events {res['events']} ({routes}); lost in transport {res['transport_timeouts']}; "
              f"{res['seconds']} s\n")
    if args.broker:
        out.write(f"published {res['published']} messages to {args.broker}; "
                  f"still queued {res['unpublished']}\n")
    if args.log or args.state_dir:
        out.write(f"journal: {res['journal']} (cardtable replay {res['journal']})\n")


def run_room(args: argparse.Namespace) -> int:
    """`--tables N`: the room load generator (controller/sim/room.py); prints its summary as JSON."""
    from controller.sim.room import run_cli

    if not 1 <= args.tables <= 2000 or args.camera or args.state_dir or args.log:
        print(f"cardtable {NAME}: --tables must be 1…2000 and goes without --camera, --state-dir, --log",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="cardtable-room-") as tmp:
        try:
            mqtt = broker_settings(args.broker, Path(tmp)) if args.broker else {"enabled": False}
            res = run_cli(args, mqtt, Path(tmp), sys.stdout)
        except UsageError as exc:
            return report_errors(NAME, exc)
    sys.stdout.write(json.dumps(res, separators=(",", ":")) + "\n")
    return 0


def run(args: argparse.Namespace) -> int:
    args.seats = seats_of(args)
    most = 10 if args.game == "holdem" else 7  # stud: 7 cards each from one deck (docs/simulator.md)
    if not 2 <= args.seats <= most:
        print(f"cardtable {NAME}: --seats must be 2…{most} for {args.game}, got {args.seats}",
              file=sys.stderr)
        return 2
    if args.rotate < 1:
        print(f"cardtable {NAME}: --rotate must be at least 1", file=sys.stderr)
        return 2
    if args.game == "mixed" and args.limit not in (None, "fixed"):
        print(f"cardtable {NAME}: --limit {args.limit}: --game mixed is dealt at fixed limit",
              file=sys.stderr)
        return 2
    if args.hands < 1:
        print(f"cardtable {NAME}: --hands must be at least 1", file=sys.stderr)
        return 2
    if args.tables != 1:
        return run_room(args)
    with tempfile.TemporaryDirectory(prefix="cardtable-sim-") as tmp:
        state_dir = args.state_dir or Path(tmp)
        if args.log is not None and args.state_dir is None:
            args.log.unlink(missing_ok=True)  # --log names a new journal, not one to resume
        if args.camera:
            require_camera()
        try:
            cfg = build_config(args, state_dir)
            if cfg.mqtt.enabled:  # a broker asked for must answer: an error now, not a silent queue
                problem = asyncio.run(broker_problem(cfg, timeout=5.0, setting="--broker"))
                if problem is not None:
                    raise problem
            daemon = Daemon(cfg, new_session=args.state_dir is None, journal_path=args.log)
            res = asyncio.run(_simulate(args, daemon, sys.stdout))
        except UsageError as exc:
            return report_errors(NAME, exc)
        _print_summary(res, args, sys.stdout)
    return 0
