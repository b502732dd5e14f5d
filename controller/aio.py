"""Asyncio waits with a timeout that never swallow a cancellation.

Python 3.11's asyncio.wait_for returns the inner result when a cancellation arrives in the same loop
iteration as that result (gh-86296, fixed in 3.12), so a task cancelled at that moment keeps running and
a TaskGroup shutting down waits for it forever. asyncio.wait has no such race.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def wait_event(event: asyncio.Event, timeout: float) -> bool:
    """True if `event` is set within `timeout` seconds."""
    if event.is_set():
        return True
    waiter = asyncio.ensure_future(event.wait())
    try:
        done, _ = await asyncio.wait({waiter}, timeout=timeout)
    finally:
        waiter.cancel()
    return bool(done)


async def cancel_firmly(aw: Awaitable[T], retry_s: float = 0.5) -> T:
    """Run `aw` in its own task and return its result; when cancelled, cancel it again every `retry_s`
    until it has really stopped, then raise CancelledError whatever the task ended with.

    A task group cancels each task once; a task that swallowed that cancellation (3.11 wait_for, also
    inside libraries) would keep the daemon from ever shutting down. A task that turned it into a result
    or another error (aiomqtt's `__aexit__` raises MqttError when the disconnect it awaits times out)
    must not make a reconnect loop around it go on: the loop runs each attempt through this, so the
    cancellation reaches the loop itself.
    """
    inner = asyncio.ensure_future(aw)
    try:
        await asyncio.wait({inner})
    except asyncio.CancelledError:
        while not inner.done():
            inner.cancel()
            await asyncio.wait({inner}, timeout=retry_s)
        if not inner.cancelled():
            inner.exception()  # retrieved: the cancellation is what we report
        raise
    return inner.result()  # or re-raise the task's own exception
