"""Capped exponential backoff with jitter: the one reconnect schedule of daemon, floor and camera."""

from __future__ import annotations

import random
from collections.abc import Iterator


def backoff_delays(lo: float, hi: float, rng: random.Random | None = None) -> Iterator[float]:
    """Waits of lo, 2·lo, 4·lo … capped at hi, each drawn from [delay/2, delay] (no thundering herd)."""
    rng = rng or random.Random()
    delay = lo
    while True:
        yield rng.uniform(delay / 2, delay)
        delay = min(delay * 2, hi)
