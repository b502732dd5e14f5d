"""Test plumbing: an asyncio loop in a background thread (service, publisher, proxy) beside Playwright."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

import aiomqtt

from tests.floor.broker import USERS

T = TypeVar("T")


class LoopThread:
    """Runs coroutines on a private event loop so the test's own thread can drive a (sync) browser."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="floor-test-loop", daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        async def _cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self.run(_cancel_all())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


class Observer:
    """A subscriber that records everything on a topic filter (e.g. the acks the floor publishes)."""

    def __init__(self, port: int, topic: str, *, identifier: str | None = None) -> None:
        self.port = port
        self.topic = topic
        self.identifier = identifier
        self.messages: list[tuple[str, Any]] = []
        self.times: list[float] = []  # wall-clock receipt time of each message
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="observer")
        await asyncio.wait_for(self._ready.wait(), 5)

    async def _run(self) -> None:
        # With an identifier the session persists: QoS 1 messages wait for us across a broker restart.
        while True:
            try:
                async with aiomqtt.Client("127.0.0.1", self.port, username="observer",
                                          password=USERS["observer"], identifier=self.identifier,
                                          clean_session=False if self.identifier else None) as c:
                    await c.subscribe(self.topic, qos=1)
                    self._ready.set()
                    async for msg in c.messages:
                        raw = bytes(msg.payload) if isinstance(msg.payload, bytes | bytearray) else b""
                        self.times.append(time.time())
                        self.messages.append((str(msg.topic), json.loads(raw.decode())))
            except aiomqtt.MqttError:
                await asyncio.sleep(0.1)

    async def wait_for(self, n: int, timeout: float = 5) -> list[tuple[str, Any]]:
        async def _wait() -> None:
            while len(self.messages) < n:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(_wait(), timeout)
        return self.messages

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


class CuttableProxy:
    """A TCP proxy in front of the web server whose connections the test can cut, like a dropped Wi-Fi."""

    def __init__(self, target_port: int, port: int) -> None:
        self.target_port = target_port
        self.port = port
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port, reuse_address=True)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_w}

        async def pipe(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            try:
                while data := await r.read(65536):
                    w.write(data)
                    await w.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                w.close()

        await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer))
        self._writers -= {writer, up_w}

    async def cut(self) -> None:
        """Drop every open connection and refuse new ones until resume()."""
        if self._server:
            self._server.close()
            self._server = None
        for w in list(self._writers):
            w.transport.abort()
        self._writers.clear()

    async def resume(self) -> None:
        await self.start()
