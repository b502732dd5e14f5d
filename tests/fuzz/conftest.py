"""Prints how many inputs each fuzzer ran (for the long-mode figures)."""

from __future__ import annotations

from typing import Any

from tests.fuzz.common import LONG, RAN


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if RAN:
        mode = "long" if LONG else "default"
        counts = ", ".join(f"{name} {n}" for name, n in sorted(RAN.items()))
        terminalreporter.write_line(f"fuzz inputs ({mode} mode): {counts}")
