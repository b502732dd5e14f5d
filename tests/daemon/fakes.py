"""Test doubles: a scripted event source and a tiny engine that raises one alert per knock."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from controller.core.alerts import Alert
from controller.core.engine import Outcome
from controller.core.events import Event, HandStart, Knock, SessionStart
from controller.hardware.base import Emit


class ListSource:
    """Emits the given events with `gap_s` between them, then idles."""

    name = "script"

    def __init__(self, events: Sequence[Event], gap_s: float = 0.0) -> None:
        self.events = list(events)
        self.gap_s = gap_s
        self.sent = 0
        self.done = asyncio.Event()

    async def run(self, emit: Emit) -> None:
        for ev in self.events:
            emit(ev)
            self.sent += 1
            await asyncio.sleep(self.gap_s)
        self.done.set()
        await asyncio.Event().wait()

    def statistics(self) -> dict[str, Any]:
        return {"sent": self.sent}


class KnockEngine:
    """Stands in for the rules core in transport tests: every knock is an alert, every hand_start a hand."""

    def __init__(self, table: str = "t1") -> None:
        self.table = table
        self.hand = 0
        self.n = 0
        self.events = 0

    def feed(self, event: Event) -> list[Outcome]:
        if isinstance(event, SessionStart):  # the daemon's first journal line, not a table event
            return []
        self.events += 1
        if isinstance(event, HandStart):
            self.hand += 1
            self.n = 0
        if not isinstance(event, Knock):
            return []
        self.n += 1
        return [Alert(id=f"{self.table}-h{self.hand}-{self.n}", t=event.t, table=self.table, hand=self.hand,
                      code="KNOCK_EARLY", severity="warning", street="preflop", seat=None, cards=(),
                      message=f"knock {self.events}", remedy="", rule="")]

    def public_state(self) -> dict[str, Any]:
        return {"hand": self.hand, "events": self.events}

    def statistics(self) -> dict[str, int]:
        return {"events": self.events}


def knocks(n: int, *, per_hand: int = 5, t0: float = 1.0) -> list[Event]:
    out: list[Event] = []
    t = t0
    for i in range(n):
        if i % per_hand == 0:
            out.append(HandStart(t=t))
        t += 0.01
        out.append(Knock(t=t))
        t += 0.01
    return out
