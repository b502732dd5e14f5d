"""Shared settings of the fuzz tests: a fixed seed and a small budget by default, a long mode on demand.

CARDTABLE_FUZZ=long raises every fuzzer's budget (`max_examples`, default 20,000; CARDTABLE_FUZZ_EXAMPLES
overrides) and draws fresh random inputs; the default run is derandomized (same inputs every time) so the
suite stays quick and reproducible. Each fuzzer counts the inputs it ran; the counts are printed in the
terminal summary (see conftest.py), which is how the figures in docs/robustness.md were taken.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import HealthCheck, settings

LONG = os.environ.get("CARDTABLE_FUZZ") == "long"
EXAMPLES = int(os.environ.get("CARDTABLE_FUZZ_EXAMPLES", "20000" if LONG else "0")) or None
LIMIT_S = 1.0  # every input is answered within this

RAN: Counter[str] = Counter()


def fuzz_settings(default_examples: int) -> settings:
    return settings(max_examples=EXAMPLES or default_examples, deadline=None, derandomize=not LONG,
                    database=None, suppress_health_check=list(HealthCheck), print_blob=True)


@contextmanager
def answered_in_time(name: str, what: object) -> Iterator[None]:
    """Count one input of fuzzer `name` and fail if it took longer than LIMIT_S."""
    RAN[name] += 1
    start = time.perf_counter()
    yield
    took = time.perf_counter() - start
    assert took < LIMIT_S, f"{name}: {took:.2f} s for {str(what)[:200]!r}"
