"""The one place where callbacks from other threads (gpiozero's edge thread) enter the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


class ThreadBridge:
    """Hands calls from any thread to the event loop with loop.call_soon_threadsafe, preserving order.

    Everything the hardware threads do is `bridge.post(fn, *args)`; `fn` then runs on the loop thread,
    so adapter state is only ever touched there and needs no locks.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.posted = 0
        self.dropped = 0  # calls that arrived after the loop closed (shutdown races)

    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            self.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closed: the daemon is shutting down
            self.dropped += 1
            return
        self.posted += 1
