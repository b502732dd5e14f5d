"""Allows `python -m controller` as an alias of the `cardtable` console script."""

from controller.cli import main

raise SystemExit(main())
