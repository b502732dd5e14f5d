"""A room in one process: many virtual tables, each a full daemon (journal, outbox, MQTT), on one event loop.

`cardtable simulate --tables N` plays N tables at once against one broker, so a 250-table room fits on a
small machine without one process per table. Table ids are `<table>001 …`; each table has its own state
directory, session, outbox and MQTT connection, exactly as `cardtable run` would. Real-time runs start
the tables staggered so that the room does not deal every hand in lock-step.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from controller.config import Config, parse_config
from controller.core.alerts import Alert
from controller.core.engine import Outcome
from controller.core.events import Event
from controller.daemon.app import Daemon
from controller.hardware.base import Emit
from controller.sim.driver import SimDriver, VirtualClock


@dataclass(kw_only=True)
class Staggered:
    """Starts a source after `delay_s` (tables of a room do not all shuffle up at the same second)."""

    source: Any
    delay_s: float
    name: str = "sim"

    async def run(self, emit: Emit) -> None:
        await asyncio.sleep(self.delay_s)
        await self.source.run(emit)

    def statistics(self) -> dict[str, Any]:
        return dict(self.source.statistics())


@dataclass(kw_only=True)
class Seat:
    """One table of the room: its daemon, what feeds it, and when that is done."""

    daemon: Daemon
    source: Any
    finished: asyncio.Event
    end_session: bool = True  # journal a session_end after the last hand (simulated hands)


def table_ids(base: str, n: int) -> list[str]:
    width = max(3, len(str(n)))
    return [f"{base}{i:0{width}d}" for i in range(1, n + 1)]


def room_config(table: str, state_dir: Path, mqtt: dict[str, Any], *, seats: int = 9, profile: str = "cuca",
                health_s: float = 5.0) -> Config:
    """One table's config in the room (the heartbeat every `health_s` carries the last sequence number).

    The journal syncs every 10 s instead of 0.2 s: a real table syncs its own SD card, but hundreds of
    tables in one process would queue their fsyncs on one event loop and one disk and measure that.
    """
    return parse_config({"state_dir": str(state_dir), "mqtt": {**mqtt, "client_id": f"cardtable-{table}"},
                         "table": {"id": table, "seats": seats, "profile": profile},
                         "health": {"interval_s": health_s}, "journal": {"fsync_interval_s": 10.0}})


def raise_fd_limit(need: int) -> None:
    """Each table holds a journal, an SQLite outbox (3 files) and a socket: lift the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, need))
    if want > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


@dataclass
class Room:
    """Runs the seats' daemons on one loop; `alerts` collects every alert with the wall time it was raised."""

    seats: list[Seat] = field(default_factory=list)
    alerts: list[tuple[float, Alert]] = field(default_factory=list)
    on_alert: Callable[[float, Alert], None] | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    started: float = field(default_factory=time.monotonic)

    def add(self, seat: Seat) -> None:
        def observe(_event: Event | None, outcomes: list[Outcome]) -> None:
            now = time.time()
            for o in outcomes:
                if isinstance(o, Alert):
                    self.alerts.append((now, o))
                    if self.on_alert is not None:
                        self.on_alert(now, o)

        seat.daemon.observers.append(observe)
        self.seats.append(seat)

    def pending(self) -> int:
        return sum(s.daemon.outbox.pending_count() for s in self.seats)

    async def played(self) -> None:
        """Every seat's source has sent everything; the simulated ones journal their session's end, each
        as soon as its own last hand is dealt (waiting for the seats in order would close every table that
        finished early in one burst behind a late one, which no real room does)."""

        async def one(seat: Seat) -> None:
            await seat.finished.wait()
            if seat.end_session:
                seat.daemon.end_session()

        await asyncio.gather(*(one(seat) for seat in self.seats))

    async def drained(self, timeout_s: float) -> int:
        """Wait until every outbox is empty (or the timeout); what is left."""
        deadline = time.monotonic() + timeout_s
        while self.pending() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return self.pending()

    async def run(self, until: Callable[[Room], Any]) -> None:
        """Run every daemon until `until(room)` (a coroutine function) returns, then stop them all."""
        raise_fd_limit(8 * len(self.seats) + 256)

        async def conductor() -> None:
            await until(self)
            self.stop.set()

        async with asyncio.TaskGroup() as tg:
            for seat in self.seats:
                tg.create_task(seat.daemon.run([seat.source], stop=self.stop), name=seat.daemon.cfg.table.id)
            tg.create_task(conductor(), name="room")


def simulated_seat(cfg: Config, *, hands: int, seed: int, inject: float, speed: float | None,
                   stagger_s: float) -> Seat:
    """A virtual table dealing `hands` hands into its own daemon, events handed over directly."""
    from controller.sim.table import VirtualTable

    daemon = Daemon(cfg, new_session=True)
    clock = VirtualClock(daemon.journal.last_t)
    daemon.clock = clock  # type: ignore[assignment]  # health alerts carry simulated time too
    daemon.health.clock = clock
    table = VirtualTable(seats=cfg.table.seats, seed=seed, inject=inject, profile=cfg.table.profile)
    driver = SimDriver(table.hands(hands), clock=clock, speed=speed)
    daemon.observers.append(driver.observe)
    return Seat(daemon=daemon, source=Staggered(source=driver, delay_s=stagger_s), finished=driver.finished)


def run_cli(args: Any, mqtt: dict[str, Any], root: Path, out: TextIO) -> dict[str, Any]:
    """`cardtable simulate --tables N`: play the room, print alerts (--json) and return the summary."""
    rng = random.Random(args.seed)
    # Real time: spread the starts over one average hand (about two minutes of table time).
    spread = 0.0 if args.speed is None else 120.0 / args.speed
    room = Room()
    if args.json:
        room.on_alert = lambda at, a: out.write(json.dumps({**a.to_json(), "raised": round(at, 6)},
                                                           separators=(",", ":")) + "\n")
    for i, table in enumerate(table_ids(args.table, args.tables)):
        cfg = room_config(table, root / table, mqtt, seats=args.seats, profile=args.profile)
        room.add(simulated_seat(cfg, hands=args.hands, seed=args.seed + i, inject=args.inject,
                                speed=args.speed, stagger_s=rng.uniform(0, spread)))
    left = {"pending": 0}

    async def until(r: Room) -> None:
        await r.played()
        left["pending"] = await r.drained(args.drain) if mqtt.get("enabled") else 0

    cpu0 = time.process_time()
    asyncio.run(room.run(until))
    alerts = [a for _t, a in room.alerts]
    return {"type": "summary", "tables": len(room.seats), "hands": args.hands * len(room.seats),
            "alerts": len(alerts), "by_code": dict(Counter(a.code for a in alerts)),
            "events": sum(s.daemon.events for s in room.seats),
            "published": sum(s.daemon.publisher.published for s in room.seats if s.daemon.publisher),
            "resent": sum(s.daemon.resender.resent for s in room.seats), "unpublished": left["pending"],
            "seconds": round(time.monotonic() - room.started, 2),
            "cpu_s": round(time.process_time() - cpu0, 2),
            "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}
