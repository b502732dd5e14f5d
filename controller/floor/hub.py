"""Fan-out of live events to connected browsers: one bounded queue per stream, slow streams are dropped."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

Event = dict[str, Any]
# A browser that falls this far behind is cut off; its EventSource reconnects and catches up from the store.
QUEUE_LIMIT = 2000


class Subscriber:
    """One browser stream's queue. A table state waiting in it is replaced in place by a newer one of the same
    table (latest wins), so a browser that reads slowly (a phone, a busy wall PC) has at most one state per
    table in front of the next alert, not every state since it fell behind."""

    def __init__(self, owner: str) -> None:
        self.owner = owner  # the session the stream belongs to
        self.queue: asyncio.Queue[Event | None] = asyncio.Queue(QUEUE_LIMIT)
        self.overflowed = False
        self.coalesced = 0
        self._states: dict[Any, Event] = {}  # table → its state event still in the queue

    def offer(self, event: Event) -> None:
        """Queue an event (QueueFull when the browser is too far behind)."""
        if event.get("type") != "state":
            self.queue.put_nowait(event)
            return
        table = event.get("table")
        waiting = self._states.get(table)
        if waiting is not None:
            waiting.clear()
            waiting.update(event)
            self.coalesced += 1
            return
        own = dict(event)  # our own copy: it may be updated in place while it waits
        self.queue.put_nowait(own)
        self._states[table] = own

    def took(self, event: Event | None) -> None:
        """The stream took `event` off the queue (a newer state of that table queues afresh)."""
        if event is not None and event.get("type") == "state":
            table = event.get("table")
            if self._states.get(table) is event:
                del self._states[table]


class Hub:
    def __init__(self) -> None:
        self._subs: set[Subscriber] = set()
        self.sent = 0
        self.dropped_streams = 0
        self._held: list[Event] | None = None  # events of an ingest batch not yet committed
        # seconds from the floor taking an alert to writing it to a browser's stream (the floor's own share
        # of the publish → page latency; the broker, the network and the browser come on top)
        self.latencies: deque[float] = deque(maxlen=20_000)

    def written(self, received: float) -> None:
        """An alert the floor took at `received` (its clock) was just written to a browser's stream."""
        self.latencies.append(time.time() - received)

    def hold(self) -> None:
        """Keep what is published from now on until release(): an ingest batch's events go to the browsers
        only once the batch is committed, so a browser never sees an alert (and its seq) that a rollback
        takes back."""
        self._held = []

    def release(self, *, committed: bool = True) -> None:
        """Send the held events (committed) or drop those about stored rows (rolled back: the broker
        delivers those messages again)."""
        held, self._held = self._held or [], None
        for event in held:
            if committed or event.get("type") not in ("alert", "hand", "open"):
                self.publish(event)

    def subscribe(self, owner: str = "") -> Subscriber:
        sub = Subscriber(owner)
        self._subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        self._subs.discard(sub)

    def publish(self, event: Event) -> None:
        if self._held is not None:
            self._held.append(event)
            return
        for sub in list(self._subs):
            try:
                sub.offer(event)
                self.sent += 1
            except asyncio.QueueFull:
                # Never block the MQTT loop for one slow browser: end its stream instead (it catches up).
                sub.overflowed = True
                self._subs.discard(sub)
                self.dropped_streams += 1
                self._wake(sub)

    def close_owner(self, owner: str) -> None:
        """End the streams of one session (logout)."""
        for sub in [s for s in self._subs if s.owner == owner]:
            self._subs.discard(sub)
            self._wake(sub)

    def close(self) -> None:
        """End every stream (service shutdown)."""
        for sub in list(self._subs):
            self._wake(sub)
        self._subs.clear()

    @staticmethod
    def _wake(sub: Subscriber) -> None:
        # Make room for the end-of-stream marker if needed; the stream stops at the marker anyway.
        while True:
            try:
                sub.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                sub.queue.get_nowait()

    def statistics(self) -> dict[str, int]:
        lat = sorted(self.latencies)

        def q(p: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

        return {"streams": len(self._subs), "events_sent": self.sent, "streams_dropped": self.dropped_streams,
                "states_coalesced": sum(s.coalesced for s in self._subs),
                "taken_to_stream_ms": {"n": len(lat), "p50": q(0.5), "p99": q(0.99), "max": q(1.0)}}
