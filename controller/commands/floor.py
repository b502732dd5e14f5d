"""`cardtable floor --config FILE` runs the floor screen; `cardtable floor hash-password` hashes one."""

from __future__ import annotations

import argparse
import asyncio
import errno
import getpass
import logging
import sys

from controller import __version__
from controller.errors import UsageError, port_error
from controller.logsetup import redact_url

NAME = "floor"
HELP = "serve the floor screen (alerts, table view, acknowledgements) from the MQTT broker"
DESCRIPTION = ("Subscribe to every table's alerts, state, hands and status, store them (SQLite, or "
               "PostgreSQL when store.dsn is set) and serve the floor page. "
               "`cardtable floor hash-password` prints a password hash for the config's [users] section.")
LOG_LEVEL = "info"

log = logging.getLogger("cardtable.floor")


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="floor config (TOML); see config/floor.example.toml")
    p.add_argument("--insecure-demo", action="store_true",
                   help="accept the example users of config/floor.example.toml (a local demo only)")
    sub = p.add_subparsers(dest="floor_command", title="subcommand (optional)", metavar="hash-password")
    h = sub.add_parser("hash-password", help="print a scrypt hash for users.<name>.hash")
    h.add_argument("--stdin", action="store_true", help="read the password from standard input (one line)")


def _hash_password(args: argparse.Namespace) -> int:
    from controller.floor.auth import hash_password

    if args.stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = getpass.getpass("Password: ")
        if getpass.getpass("Again: ") != password:
            raise UsageError("the two passwords differ")
    if len(password) < 8:
        raise UsageError("password too short (at least 8 characters)")
    print(hash_password(password))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.floor_command == "hash-password":
        return _hash_password(args)
    if not args.config:
        raise UsageError("--config FILE is required (see config/floor.example.toml)")
    from controller.floor.app import serve
    from controller.floor.config import check_example_credentials, load_config

    cfg = load_config(args.config)
    demo = check_example_credentials(cfg, args.config, insecure_demo=args.insecure_demo)
    if demo:
        log.warning("insecure demo: user(s) %s log in with the published example passwords; "
                    "never expose this floor", ", ".join(demo))
    b = cfg.broker
    scheme = "mqtts" if b.tls else "mqtt"
    log.info("cardtable %s floor starting", __version__, extra={"fields": {
        "version": __version__, "config": args.config, "listen": f"{cfg.web.host}:{cfg.web.port}",
        "broker": redact_url(scheme, b.host, b.port, b.username),
        "store": "postgresql" if cfg.store.dsn else str(cfg.store.sqlite)}})
    try:
        asyncio.run(serve(cfg))
    except OSError as exc:  # the web port: in use, privileged, or not an address of this machine
        if exc.errno not in (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL):
            raise
        raise port_error(cfg.web.host, cfg.web.port, exc, setting=f"[web] port in {args.config}") from None
    return 0
