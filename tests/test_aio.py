"""Waits with a timeout must not swallow a cancellation that races with the result (controller/aio.py)."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Awaitable, Callable

import pytest

from controller.aio import cancel_firmly, wait_event


async def _cancel_while_result_arrives(wait: Callable[[asyncio.Event], Awaitable[object]]) -> bool:
    """Set the event and cancel the waiting loop in the same iteration; True if the loop stopped."""
    ev = asyncio.Event()

    async def loop_forever() -> None:
        while True:
            await wait(ev)
            ev.clear()

    task = asyncio.create_task(loop_forever())
    await asyncio.sleep(0.01)
    ev.set()
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=0.5)
    if not done:
        task.cancel()  # a second cancel ends the leftover loop
        await asyncio.gather(task, return_exceptions=True)
    return bool(done) and task.cancelled()


def test_wait_event_never_swallows_the_cancellation() -> None:
    assert asyncio.run(_cancel_while_result_arrives(lambda ev: wait_event(ev, 10)))


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="wait_for was rewritten in 3.12")
def test_the_race_is_real_with_wait_for_on_3_11() -> None:
    assert not asyncio.run(_cancel_while_result_arrives(lambda ev: asyncio.wait_for(ev.wait(), 10)))


def test_wait_event_times_out_and_sees_a_set_event() -> None:
    async def main() -> None:
        ev = asyncio.Event()
        assert not await wait_event(ev, 0.01)
        ev.set()
        assert await wait_event(ev, 0.01)

    asyncio.run(main())


def test_cancel_firmly_stops_a_task_that_swallows_the_first_cancellation() -> None:
    async def main() -> None:
        async def stubborn() -> None:
            with contextlib.suppress(asyncio.CancelledError):  # swallowed, as 3.11's wait_for can do
                await asyncio.sleep(10)
            await asyncio.sleep(10)

        task = asyncio.create_task(cancel_firmly(stubborn(), retry_s=0.05))
        await asyncio.sleep(0.01)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=2)
        assert done and task.cancelled()

    asyncio.run(main())


def test_cancel_firmly_passes_the_task_exception_on() -> None:
    async def boom() -> None:
        raise ValueError("x")

    with pytest.raises(ValueError):
        asyncio.run(cancel_firmly(boom()))


def test_cancel_firmly_returns_the_result() -> None:
    async def seven() -> int:
        return 7

    assert asyncio.run(cancel_firmly(seven())) == 7


def test_cancel_firmly_reports_a_cancellation_the_task_turned_into_a_result() -> None:
    """A reconnect loop must stop even if one attempt converts its cancellation (aiomqtt's __aexit__)."""
    async def main() -> bool:
        async def converts() -> str:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                return "disconnect timed out"  # as if the cancellation were a broken link
            return "ended"

        async def reconnect_loop() -> None:
            while True:
                await cancel_firmly(converts())

        task = asyncio.create_task(reconnect_loop())
        await asyncio.sleep(0.01)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=2)
        return bool(done) and task.cancelled()

    assert asyncio.run(main())
