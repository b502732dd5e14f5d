"""`cardtable run --config FILE`: the table daemon (systemd runs this)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from controller.config import ConfigError, load_config
from controller.daemon.app import Daemon, preflight
from controller.daemon.sources import hardware_sources
from controller.errors import UsageError

NAME = "run"
HELP = "run the table daemon: sensors → rules core → journal, outbox, MQTT"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, metavar="FILE",
                   help="TOML config (see config/table.example.toml)")
    p.add_argument("--new-session", action="store_true",
                   help="start a new journal session instead of resuming the current one")
    p.add_argument("--check", action="store_true", help="validate the config and exit")
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")


def report_errors(command: str, exc: UsageError) -> int:
    """One line per problem on stderr, no traceback; exit code 2."""
    lines = [f"{exc.path}: {e}" for e in exc.errors] if isinstance(exc, ConfigError) else [str(exc)]
    for line in lines:
        print(f"cardtable {command}: {line}", file=sys.stderr)
    return 2


async def _main(daemon: Daemon) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await daemon.run(hardware_sources(daemon.cfg, daemon.clock, daemon.health), stop=stop)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg = load_config(args.config)
        if args.check:
            preflight(cfg)  # what run would refuse before it starts, --check refuses too
            print(f"{args.config}: OK")
            return 0
        daemon = Daemon(cfg, new_session=args.new_session)
        asyncio.run(_main(daemon))
    except UsageError as exc:
        return report_errors(NAME, exc)
    except OSError as exc:  # a file the daemon needs at start-up (state dir, journal, outbox)
        where = exc.filename or "state_dir"
        print(f"cardtable {NAME}: {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
