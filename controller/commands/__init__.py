"""Subcommands of `cardtable`; each module defines NAME, HELP, register(parser) and run(args) -> int."""
