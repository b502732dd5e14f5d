"""MQTT reconnect loops (daemon publisher, floor link) stop when cancelled, even via an MqttError.

Regression for the likely cause of a CI hang (tests/daemon/test_tls.py, not reproduced in 25 runs since):
aiomqtt's `__aexit__` waits for the broker's goodbye with a timeout and raises MqttError in place of the
CancelledError when it expires; the publisher took that for a broken link and reconnected, so the daemon
never finished shutting down. The floor's link had the same loop.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from types import TracebackType
from typing import Any

import aiomqtt

from controller.config import MqttConfig
from controller.daemon.outbox import Outbox
from controller.daemon.publisher import Publisher
from controller.floor.config import BrokerConfig
from controller.floor.link import BrokerLink


class _Messages:
    def __aiter__(self) -> _Messages:
        return self

    async def __anext__(self) -> Any:
        await asyncio.Event().wait()  # no commands ever arrive


class _GoodbyeTimesOut:
    """A connected client whose disconnect always times out, as aiomqtt reports it."""

    entered = 0

    def __init__(self) -> None:
        self.messages = _Messages()

    async def __aenter__(self) -> _GoodbyeTimesOut:
        type(self).entered += 1
        if type(self).entered > 1:  # ends the run loop quickly when the bug is back
            raise RuntimeError("reconnected after being cancelled")
        return self

    async def __aexit__(self, et: type[BaseException] | None, e: BaseException | None,
                        tb: TracebackType | None) -> None:
        raise aiomqtt.MqttError("Operation timed out")

    async def publish(self, *_a: Any, **_k: Any) -> None:
        return None

    async def subscribe(self, *_a: Any, **_k: Any) -> None:
        return None


class _NoAcks:
    """The floor's store as the link uses it: no rulings to send, batches in a (no-op) transaction."""

    async def unpublished_acks(self) -> list[Any]:
        return []

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        yield


class _NoIngest:
    async def handle(self, _topic: str, _payload: bytes) -> None:
        return None


async def _cancel_once(run: Callable[[], Coroutine[Any, Any, None]], connected: Callable[[], bool]) -> bool:
    """Start `run`, cancel it once when connected (as a TaskGroup does); True if it then stopped."""
    task = asyncio.create_task(run())
    while not connected():
        await asyncio.sleep(0.005)
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=2.0)
    if done and not task.cancelled():
        task.exception()  # retrieved: the failure is reported by the caller's assert
    return bool(done) and task.cancelled()


def test_daemon_publisher_stops_although_disconnect_raises(tmp_path: Path) -> None:
    _GoodbyeTimesOut.entered = 0
    pub = Publisher(MqttConfig(backoff_min_s=0.01, backoff_max_s=0.02), table="t1",
                    outbox=Outbox(tmp_path / "o.db"), on_command=lambda *_: None,
                    on_auth_failure=lambda _m: None, on_connected=lambda: None)
    pub._client = _GoodbyeTimesOut  # type: ignore[method-assign]
    stopped = asyncio.run(_cancel_once(pub.run, lambda: pub.connected))
    assert stopped, "publisher reconnected instead of stopping"
    assert _GoodbyeTimesOut.entered == 1


def test_floor_link_stops_although_disconnect_raises() -> None:
    _GoodbyeTimesOut.entered = 0
    link = BrokerLink(BrokerConfig(backoff_initial=0.01, backoff_max=0.02), ingest=_NoIngest(),  # type: ignore[arg-type]
                      store=_NoAcks())  # type: ignore[arg-type]
    link._client = _GoodbyeTimesOut  # type: ignore[method-assign]
    stopped = asyncio.run(_cancel_once(link.run, lambda: link.connected))
    assert stopped, "floor link reconnected instead of stopping"
    assert _GoodbyeTimesOut.entered == 1
