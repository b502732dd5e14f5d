"""`cardtable doctor`: check a table installation and say what is wrong and how to fix it."""

from __future__ import annotations

import argparse

from controller.config import load_config
from controller.doctor import run_checks

NAME = "doctor"
HELP = "check this installation: serial hubs, GPIO, camera, broker, clock sync, disk space"
DESCRIPTION = ("Reads the table config and checks what the daemon needs: every reader hub's serial device, "
               "the GPIO chip for the tap sensor and console, the camera, a connection to the broker with "
               "the configured credentials, NTP clock sync and free disk space for the state directory. "
               "One line per check; exit 1 when any failed.")


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", default="/etc/cardtable/table.toml", metavar="FILE",
                   help="table config (default /etc/cardtable/table.toml)")


def run(args: argparse.Namespace) -> int:
    checks = run_checks(load_config(args.config))
    for check in checks:
        print(check.line())
    failed = [c.name for c in checks if not c.ok]
    print(f"{len(checks) - len(failed)} of {len(checks)} checks passed"
          + (f"; fix: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0
