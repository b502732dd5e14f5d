"""Asyncio waits with a timeout that never swallow a cancellation.

Python 3.11's asyncio.wait_for returns the inner result when a cancellation arrives in the same loop
iteration as that result (gh-86296, fixed in 3.12), so a task cancelled at that moment keeps running and
a TaskGroup shutting down waits for it forever. asyncio.wait has no such race.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable


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


async def cancel_firmly(aw: Awaitable[None], retry_s: float = 0.5) -> None:
    """Run `aw`; when cancelled, cancel it again every `retry_s` until it has really stopped.

    A task group cancels each task once; a task that swallowed that cancellation (3.11 wait_for, also
    inside libraries) would keep the daemon from ever shutting down.
    """
    inner = asyncio.ensure_future(aw)
    try:
        await asyncio.wait({inner})
    except asyncio.CancelledError:
        while not inner.done():
            inner.cancel()
            await asyncio.wait({inner}, timeout=retry_s)
        raise
    inner.result()  # re-raise the task's own exception


def raise_if_cancelling() -> None:
    """Re-raise a cancellation of the current task that an except clause has turned into another error.

    Libraries may replace a CancelledError (aiomqtt's `__aexit__` raises MqttError when the disconnect
    it awaits times out); a reconnect loop that treats that error as a broken link never stops.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
