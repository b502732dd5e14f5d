"""Drives a virtual table's hands into a running daemon, event by event, through routes (adapters or direct).

The driver is itself a Source (task `source:sim`). For each simulated event it sets the virtual clock to
the event's time, asks the route that owns the event type to make it happen (place a tag on an emulated
reader, press a mock GPIO button, or hand it over directly) and waits until the daemon's core has processed
one more event: lock-step, so events that travel different paths cannot overtake each other and the
adapters stamp exactly the simulated times.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.aio import wait_event
from controller.core.engine import Outcome
from controller.core.events import Event
from controller.hardware.base import Emit
from controller.sim.table import SimHand


class VirtualClock:
    """The session clock during a simulation: the driver sets it to each event's simulated time."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def set(self, t: float) -> None:
        self.t = max(self.t, t)

    def __call__(self) -> float:
        return self.t


class Route(Protocol):
    """Makes one kind of event happen through an adapter."""

    name: str

    def accepts(self, event: Event) -> bool: ...

    async def send(self, event: Event) -> int:
        """Make it happen; return how many events the daemon will receive for it."""
        ...

    async def after(self, event: Event) -> int:
        """Called once the daemon processed `event`; returns how many further events it caused."""
        ...


@dataclass(kw_only=True)
class DirectRoute:
    """Events no adapter produces (actions, chips, seats, levels, decks …) go straight to the queue."""

    emit: Emit
    name: str = "direct"

    def accepts(self, event: Event) -> bool:
        return True

    async def send(self, event: Event) -> int:
        self.emit(event)
        return 1

    async def after(self, event: Event) -> int:
        return 0


@dataclass(kw_only=True)
class DriveStats:
    sent: dict[str, int] = field(default_factory=dict)  # per route
    timeouts: int = 0  # events an adapter did not deliver within the timeout
    skipped: int = 0  # events already in a resumed journal
    hands_done: int = 0
    started: float = field(default_factory=time.monotonic)


class SimDriver:
    """Source `sim`: plays `hands` into the daemon in lock-step; `finished` is set after the last one."""

    name = "sim"

    def __init__(self, hands: Iterable[SimHand], *, clock: VirtualClock, routes: Sequence[Route] = (),
                 speed: float | None = None, skip: int = 0, timeout_s: float = 5.0,
                 on_hand: Callable[[SimHand], None] | None = None,
                 on_send: Callable[[Event, str], None] | None = None) -> None:
        self.hands = hands
        self.clock = clock
        self.routes = list(routes)
        self.speed = speed  # None: as fast as the daemon takes them; else × real time
        self.skip = skip
        self.timeout_s = timeout_s
        self.on_hand = on_hand
        self.on_send = on_send  # (event, route name) just before the route acts: benchmarks time it
        self.played: list[SimHand] = []
        self.stats = DriveStats()
        self.finished = asyncio.Event()
        self._processed = 0
        self._tick = asyncio.Event()

    def observe(self, event: Event | None, _outcomes: list[Outcome]) -> None:
        """Daemon observer: one more event went through the core."""
        if event is not None:
            self._processed += 1
            self._tick.set()

    async def _expect(self, before: int, n: int) -> None:
        """Wait until the core processed `n` more events than `before` (lock-step)."""
        if n <= 0:
            return
        target = before + n
        if not await self._until_processed(target):
            self.stats.timeouts += target - self._processed
            self._processed = target  # count them as lost; keep the lock-step aligned

    async def _until_processed(self, target: int) -> bool:
        deadline = time.monotonic() + self.timeout_s
        while self._processed < target:
            self._tick.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if not await wait_event(self._tick, left):
                return False
        return True

    async def run(self, emit: Emit) -> None:
        direct = DirectRoute(emit=emit)
        for r in self.routes:
            bind = getattr(r, "bind", None)
            if bind is not None:
                bind(emit)
        routes = [*self.routes, direct]
        to_skip = self.skip
        last_t: float | None = None
        for hand in self.hands:
            self.played.append(hand)
            for event in hand.events:
                if to_skip > 0:  # resuming: the journal already has this one
                    to_skip -= 1
                    self.stats.skipped += 1
                    self.clock.set(event.t)
                    last_t = event.t
                    continue
                if self.speed is not None and last_t is not None:
                    await asyncio.sleep(max(0.0, (event.t - last_t) / self.speed))
                last_t = event.t
                self.clock.set(event.t)
                route = next(r for r in routes if r.accepts(event))
                self.stats.sent[route.name] = self.stats.sent.get(route.name, 0) + 1
                before = self._processed
                if self.on_send is not None:
                    self.on_send(event, route.name)
                await self._expect(before, await route.send(event))
                for r in self.routes:
                    before = self._processed
                    await self._expect(before, await r.after(event))
            self.stats.hands_done += 1
            if self.on_hand is not None:
                self.on_hand(hand)
        self.finished.set()
        await asyncio.Event().wait()  # a source runs until the daemon stops

    def statistics(self) -> dict[str, Any]:
        return {"hands": self.stats.hands_done, "sent": dict(self.stats.sent),
                "timeouts": self.stats.timeouts, "skipped": self.stats.skipped}
