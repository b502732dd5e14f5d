"""The `cardtable` command line: subcommands are discovered from modules in controller.commands."""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
import traceback
from collections.abc import Sequence
from types import ModuleType

import controller.commands as commands_pkg
from controller import __version__, logsetup
from controller.errors import CardtableError

log = logging.getLogger("cardtable")


def _command_modules() -> list[ModuleType]:
    """Every module in controller.commands with NAME, HELP, register() and run(); sorted by name.

    Discovery instead of a central list lets each subsystem ship its own subcommand file.
    """
    mods = []
    for info in sorted(pkgutil.iter_modules(commands_pkg.__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{commands_pkg.__name__}.{info.name}")
        if hasattr(mod, "NAME") and hasattr(mod, "run"):
            mods.append(mod)
    return mods


def _common_options() -> argparse.ArgumentParser:
    """Options every subcommand takes (after its name): logging and tracebacks."""
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("logging")
    group.add_argument("--log-level", choices=logsetup.LEVELS, metavar="LEVEL",
                       help=f"one of {', '.join(logsetup.LEVELS)} (default: the command's own, see below)")
    group.add_argument("--log-format", choices=logsetup.FORMATS, default="text",
                       help="text (default), logfmt or json: one record per line on stderr")
    group.add_argument("-v", "--debug", action="store_true",
                       help="debug logging, and a traceback with any error")
    return common


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardtable", description="Smart poker table controller")
    parser.add_argument("--version", action="version", version=f"cardtable {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    common = _common_options()
    for mod in _command_modules():
        default_level = getattr(mod, "LOG_LEVEL", "warning")
        p = sub.add_parser(mod.NAME, help=mod.HELP, parents=[common],
                           description=getattr(mod, "DESCRIPTION", mod.HELP),
                           epilog=f"default log level: {default_level}")
        mod.register(p)
        p.set_defaults(_run=mod.run, _log_level=default_level)
    return parser


def _user_error(exc: BaseException) -> CardtableError | None:
    """The CardtableError itself, or the first one inside a task group's ExceptionGroup."""
    if isinstance(exc, CardtableError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _user_error(inner)
            if found is not None:
                return found
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    level = args.log_level or ("debug" if args.debug else args._log_level)
    logsetup.setup(level, args.log_format)
    try:
        try:
            return int(args._run(args))
        except BaseExceptionGroup as group:
            raise (_user_error(group) or group) from None
    except CardtableError as exc:
        if args.debug:
            traceback.print_exc()
        print(f"cardtable {args.command}: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: one line for the user, the traceback with --debug or in the log
        if args.debug:
            traceback.print_exc()
        log.debug("unexpected error", exc_info=True)
        print(f"cardtable {args.command}: internal error: {type(exc).__name__}: {exc} "
              f"(run again with --debug for the traceback, and please report it)", file=sys.stderr)
        return 1
