"""Times Python's garbage collections in the floor process: a long one stalls every table's alerts."""

from __future__ import annotations

import gc
import logging
import time
from typing import Any

log = logging.getLogger(__name__)
WARN_MS = 100.0  # a collection this long shows in the room's p99; say so in the log


class GcWatch:
    """Counts collections per generation and keeps the longest pause (health page, `gc` block)."""

    def __init__(self) -> None:
        self._started = 0.0
        self.collections = [0, 0, 0]
        self.max_ms = 0.0
        self.slow = 0  # collections of WARN_MS or more

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        ms = (time.perf_counter() - self._started) * 1000.0
        self.collections[int(info.get("generation", 0))] += 1
        self.max_ms = max(self.max_ms, ms)
        if ms >= WARN_MS:
            self.slow += 1
            log.warning("floor: a generation-%s garbage collection paused the floor for %.0f ms",
                        info.get("generation"), ms)

    def install(self) -> GcWatch:
        if self not in gc.callbacks:
            gc.callbacks.append(self)
        return self

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)

    def statistics(self) -> dict[str, Any]:
        return {"collections": list(self.collections), "max_ms": round(self.max_ms, 1), "slow": self.slow}
