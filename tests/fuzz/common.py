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
LIMIT_S = 1.0  # every input costs at most this much CPU time of the thread that answers it
# Wall time only catches a hang: on the shared 2-core machine a busy neighbour can hold this process off
# the core for a second (a 3 ms parse once took 1.01 s of wall time at load 7), which says nothing about
# the code under test.
WALL_LIMIT_S = 10.0

RAN: Counter[str] = Counter()


def fuzz_settings(default_examples: int) -> settings:
    return settings(max_examples=EXAMPLES or default_examples, deadline=None, derandomize=not LONG,
                    database=None, suppress_health_check=list(HealthCheck), print_blob=True)


@contextmanager
def answered_in_time(name: str, what: object) -> Iterator[None]:
    """Count one input of fuzzer `name`; fail if it cost more than LIMIT_S of CPU or hung for WALL_LIMIT_S."""
    RAN[name] += 1
    start, cpu_start = time.perf_counter(), time.thread_time()
    yield
    took, cpu = time.perf_counter() - start, time.thread_time() - cpu_start
    assert cpu < LIMIT_S, f"{name}: {cpu:.2f} s of CPU for {str(what)[:200]!r}"
    assert took < WALL_LIMIT_S, f"{name}: {took:.2f} s (hung?) for {str(what)[:200]!r}"
