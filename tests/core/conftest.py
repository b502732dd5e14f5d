"""Hypothesis profiles for the core's property tests: the default run is bounded and derandomized;
`--hypothesis-profile long` is the nightly-style run (tests/core/test_follow_stateful.py reads it)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("long", max_examples=300, stateful_step_count=40, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Filled by the stateful machine: hands played, faults injected, by reaction; printed at the end.
FOLLOW_TOTALS: Counter[str] = Counter()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if FOLLOW_TOTALS:
        parts = ", ".join(f"{k} {v}" for k, v in sorted(FOLLOW_TOTALS.items()))
        terminalreporter.write_line(f"follow state machine: {parts}")
