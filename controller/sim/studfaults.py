"""Dealer-error injectors for stud and limit hold'em hands (issue 13): the erroneous sequence, then the
correction, on the hooks of controller/sim/stud.py. docs/simulator.md lists every sequence."""

from __future__ import annotations

from controller.sim.faults import FAULTS, Fault

# Hold'em injectors that mean the same at a fixed-limit table (the no-limit sizing ones are left out:
# BET_BELOW_MINIMUM, OVERSIZED_CHIP, RAISE_NOT_REOPENED assume no-limit amounts).
LIMIT_HOLDEM_FAULTS: dict[str, type[Fault]] = {
    code: cls for code, cls in FAULTS.items()
    if code not in ("BET_BELOW_MINIMUM", "OVERSIZED_CHIP", "RAISE_NOT_REOPENED")}

STUD_FAULTS: dict[str, type[Fault]] = {}
