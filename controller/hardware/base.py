"""The interface every event source (RFID hub, tap sensor, console, camera, simulator) implements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from controller.core.events import Event

Emit = Callable[[Event], None]  # called on the event-loop thread only
Clock = Callable[[], float]  # session clock in seconds (monotonic); stamps the events' `t`


class Source(Protocol):
    """A long-lived producer of table events, run as one named task in the daemon's task group."""

    name: str

    async def run(self, emit: Emit) -> None:
        """Produce events until cancelled; raise only for faults the daemon cannot recover from."""
        ...

    def statistics(self) -> dict[str, Any]:
        """Counters for the health report (trio-style statistics())."""
        ...
