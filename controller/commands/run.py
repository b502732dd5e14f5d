"""`cardtable run --config FILE`: the table daemon (systemd runs this)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

from controller import __version__
from controller.config import Config, ConfigError, load_config
from controller.daemon.app import Daemon, preflight
from controller.daemon.sources import hardware_sources
from controller.doctor import check_devices
from controller.errors import UsageError
from controller.hardware.base import Source
from controller.logsetup import redact_url

NAME = "run"
HELP = "run the table daemon: sensors → rules core → journal, outbox, MQTT"
LOG_LEVEL = "info"

log = logging.getLogger("cardtable.run")


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, metavar="FILE",
                   help="TOML config (see config/table.example.toml)")
    p.add_argument("--new-session", action="store_true",
                   help="start a new journal session instead of resuming the current one")
    p.add_argument("--check", action="store_true", help="validate the config and exit")


def report_errors(command: str, exc: UsageError) -> int:
    """One line per problem on stderr, no traceback; exit code 2."""
    lines = [f"{exc.path}: {e}" for e in exc.errors] if isinstance(exc, ConfigError) else [str(exc)]
    for line in lines:
        print(f"cardtable {command}: {line}", file=sys.stderr)
    return 2


def startup_fields(cfg: Config, config_path: str, sources: list[Source], session: str) -> dict[str, object]:
    """What an operator needs from the first line of the log: which build runs which table how."""
    m = cfg.mqtt
    user = None
    if m.enabled and m.credentials_file is not None:
        from controller.daemon.publisher import read_credentials
        user = read_credentials(m.credentials_file).username
    broker = redact_url("mqtts" if m.tls else "mqtt", m.host, m.port, user) if m.enabled else "off"
    return {"version": __version__, "config": str(Path(config_path).resolve()), "table": cfg.table.id,
            "profile": cfg.table.profile, "game": cfg.table.game, "broker": broker, "session": session,
            "adapters": ",".join(s.name for s in sources) or "none", "state_dir": str(cfg.state_dir)}


async def _main(daemon: Daemon, config_path: str) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    sources = hardware_sources(daemon.cfg, daemon.clock, daemon.health)
    fields = startup_fields(daemon.cfg, config_path, sources, daemon.session.name)
    log.info("cardtable %s starting: table %s, profile %s, broker %s", __version__, fields["table"],
             fields["profile"], fields["broker"], extra={"fields": fields})
    await daemon.run(sources, stop=stop)


def run(args: argparse.Namespace) -> int:
    try:
        cfg = load_config(args.config)
        if args.check:
            preflight(cfg)  # what run would refuse before it starts, --check refuses too
            print(f"{args.config}: OK")
            return 0
        check_devices(cfg)  # a missing or forbidden device: one line now, not a silent retry loop
        daemon = Daemon(cfg, new_session=args.new_session)
        asyncio.run(_main(daemon, args.config))
    except UsageError as exc:
        return report_errors(NAME, exc)
    except OSError as exc:  # a file the daemon needs at start-up (state dir, journal, outbox)
        where = exc.filename or "state_dir"
        print(f"cardtable {NAME}: {where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
