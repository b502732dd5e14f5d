"""Gap and duplicate detection on the tables' sequence numbers, `cmd/resend` requests, broker drop counters.

Each table numbers its alerts and hand summaries per session (`"stream": {"session", "seq"}`, see
controller/daemon/sequence.py) and says in its retained state and health heartbeat how far it has got
(`"stream": {"session", "last"}`). Per (table, session) the floor keeps the contiguous high-water mark and
what arrived above it; a hole older than a grace period marks the table degraded (health JSON) and is
asked for again on `…/cmd/resend`, bounded and rate-limited, until it is filled. The high-water marks are
stored, so a restarted floor does not ask for a whole session again. The broker's `$SYS` drop counter is
watched too: when it moves, a HEALTH alert goes into the feed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.aio import wait_event
from controller.core.catalogue import entry
from controller.floor.errors import StoreError
from controller.floor.ledger import Ledger
from controller.floor.store import CHUNK, Store

log = logging.getLogger("cardtable.floor")

MAX_RANGE = 500  # per request, as the table's responder bounds it (controller/daemon/sequence.py)
# The broker's count of messages it dropped (queue limits, QoS 0 to offline clients), Mosquitto 2.x.
DROP_TOPICS = ("$SYS/broker/publish/messages/dropped",)
BROKER_TABLE = "broker"  # the pseudo-table under which the floor files broker HEALTH alerts

_SCHEMA = """CREATE TABLE IF NOT EXISTS streams (
  table_id TEXT NOT NULL, session TEXT NOT NULL, high INTEGER NOT NULL, PRIMARY KEY (table_id, session))"""


class Handler(Protocol):
    async def handle(self, topic: str, payload: bytes) -> None: ...


@dataclass
class Stream:
    """What the floor has of one table session's numbered messages."""

    high: int = 0  # every seq 1..high is stored
    above: set[int] = field(default_factory=set)  # stored seqs beyond high
    last: int = 0  # the highest seq the table says it has sent
    since: float | None = None  # when the current gap was first seen
    arrived: float = float("-inf")  # when the newest numbered message came in
    asked: float = float("-inf")  # when a hole was last asked for
    wait: float = 0.0  # how long to wait before asking again (doubles while nothing fills)
    stored_high: int = 0  # high as last written to the store

    def received(self) -> int:
        return max(self.high, max(self.above, default=0))

    def top(self) -> int:
        return max(self.received(), self.last)

    def missing(self) -> int:
        return self.top() - self.high - len(self.above)

    def add(self, seq: int) -> bool:
        """Record seq; False if it was already there (a duplicate)."""
        if seq <= self.high or seq in self.above:
            return False
        self.above.add(seq)
        while self.high + 1 in self.above:
            self.high += 1
            self.above.discard(self.high)
        return True

    def gaps(self, budget: int = MAX_RANGE) -> Iterator[tuple[int, int]]:
        """The holes, lowest first, as inclusive ranges of at most `budget` seqs in total."""
        lo = self.high + 1
        for seq in [*sorted(self.above), self.top() + 1]:
            if seq > lo and budget > 0:
                hi = min(seq - 1, lo + budget - 1)
                budget -= hi - lo + 1
                yield lo, hi
            lo = seq + 1


def _stream_block(payload: bytes) -> dict[str, Any] | None:
    try:
        obj = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    block = obj.get("stream") if isinstance(obj, dict) else None
    if not isinstance(block, dict) or not isinstance(block.get("session"), str):
        return None
    return block


def _number(block: dict[str, Any], key: str) -> int | None:
    v = block.get(key)
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None


class Streams:
    """The gap tracker; wraps the ingest (`handle`) so a message counts only once it is stored."""

    def __init__(self, ingest: Handler, *, prefix: str, grace_s: float = 2.0, retry_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic, track: bool = True, rooms: bool = False,
                 ledger: Ledger | None = None) -> None:
        self._ingest = ingest
        self._prefix = prefix
        self._rooms = rooms  # a central floor: tables are `<room>/<table>`
        # False: every message goes straight to the ingest (the store's keys still drop duplicates), only
        # the broker drops are watched. A floor on a shared subscription sees only part of each stream: it
        # tracks through the shared database instead (`ledger`, controller/floor/ledger.py).
        self.track = track
        self._ledger = ledger
        self.grace_s = grace_s  # a hole younger than this may still be in flight (QoS 0 state overtakes)
        self.retry_s = retry_s  # ask again after this long (the answer queues behind other messages)
        self._clock = clock
        self.streams: dict[tuple[str, str], Stream] = {}
        self._holes: set[tuple[str, str]] = set()  # keys of the streams with a hole
        self._moved: set[tuple[str, str]] = set()  # keys whose high-water mark moved since the last save
        self.counts = {"numbered": 0, "duplicates": 0, "resend_requests": 0, "broker_drops": 0}
        self._drops_prev = 0
        self._drop_alerts = 0
        self.wake = asyncio.Event()

    def subscriptions(self) -> list[tuple[str, int]]:
        """What the floor subscribes to besides the contract's topics (heartbeat, broker counters)."""
        drops = [(t, 0) for t in DROP_TOPICS]
        if not self.track or self._rooms:  # the heartbeat is not bridged to head office
            return drops
        return [(f"{self._prefix}/+/health", 0), *drops]

    # --- incoming -----------------------------------------------------------------------------------
    async def handle(self, topic: str, payload: bytes) -> None:
        if topic in DROP_TOPICS:
            return await self._drops(payload)
        table, _, kind = topic.removeprefix(self._prefix + "/").rpartition("/")
        if kind != "health":
            await self._ingest.handle(topic, payload)  # a StoreError propagates: nothing is noted
        if not self.track:
            return None
        block = _stream_block(payload) if kind in ("alerts", "hands", "state", "health") else None
        if block is None or not table or table.count("/") != (1 if self._rooms else 0):
            return None
        key = (table, block["session"])
        seq, last = _number(block, "seq"), _number(block, "last")
        if self._ledger is not None:
            return await self._to_ledger(self._ledger, key, seq, last)
        if seq is not None and seq > 0:
            self.counts["numbered"] += 1
        if self.absorb(key, seq=seq, last=last) is False:
            self.counts["duplicates"] += 1
        return None

    async def _to_ledger(self, ledger: Ledger, key: tuple[str, str], seq: int | None, last: int | None
                         ) -> None:
        if last is not None:
            ledger.saw_last(key, last)
        # A message the ingest could only hold (the store refuses writes) is not noted: were it lost with
        # the process, the leader would see its hole and ask for it again.
        if seq is not None and seq > 0 and not getattr(self._ingest, "holding", False):
            self.counts["numbered"] += 1
            await ledger.record(key, seq)  # inside the message's own transaction

    def absorb(self, key: tuple[str, str], *, seq: int | None = None, last: int | None = None) -> bool | None:
        """Note a stored seq and/or a table's announced `last`; False if the seq was already there."""
        stream = self.streams.setdefault(key, Stream())
        new = None
        if seq is not None and seq > 0:
            stream.arrived = self._clock()
            high = stream.high
            new = stream.add(seq)
            if stream.high > high:
                stream.wait = 0.0  # progress: a partial answer is followed up without backing off
                self._moved.add(key)
        if last is not None:
            stream.last = max(stream.last, last)
        self._mark(key, stream)
        return new

    def reset(self) -> None:
        """Forget every stream (a shared-subscription floor that took or lost the gap lease)."""
        self.streams.clear()
        self._holes.clear()
        self._moved.clear()

    def _mark(self, key: tuple[str, str], stream: Stream) -> None:
        if stream.missing() <= 0:
            stream.since, stream.wait = None, 0.0
            self._holes.discard(key)
        elif stream.since is None:
            stream.since = self._clock()
            self._holes.add(key)
            self.wake.set()

    def _with_holes(self) -> list[tuple[str, str, Stream]]:
        # Only the streams with a hole: the floor keeps every session it ever saw.
        return [(t, sess, self.streams[(t, sess)]) for t, sess in sorted(self._holes)]

    # --- what is missing ------------------------------------------------------------------------------
    def degraded(self) -> dict[str, dict[str, Any]]:
        """Tables with a hole older than the grace period: {table: {session, missing, since_s}}."""
        now = self._clock()
        out: dict[str, dict[str, Any]] = {}
        for table, session, s in self._with_holes():
            if s.since is not None and now - s.since >= self.grace_s and s.missing() > 0:
                out[table] = {"session": session, "missing": s.missing(),
                              "since_s": round(now - s.since, 1), "have": s.high, "last": s.top()}
        return out

    def requests(self) -> list[tuple[str, dict[str, Any]]]:
        """The resend requests due now: (table, body).

        A table's messages arrive in order, so a hole below the newest one received is lost for sure and
        asked for at once; the tail (up to the `last` of its state or heartbeat) may still be on its way
        through a broker queue, so it is asked for only once nothing of that table came for `grace_s`.
        The same hole is asked for again after retry_s, doubling up to a minute while nothing fills it.
        """
        now = self._clock()
        out: list[tuple[str, dict[str, Any]]] = []
        for table, session, s in self._with_holes():
            if s.since is None or now - s.asked < s.wait:
                continue
            # the tail: a hole that has lasted the grace period, of a table quiet for as long (its
            # messages may queue behind others at the broker while its QoS 0 state overtakes them)
            quiet = now - max(s.arrived, s.since) >= self.grace_s
            # On a shared subscription a hole below the newest may be a peer's batch not yet committed
            # (or read): every hole waits like a tail there.
            got = s.received() if self._ledger is None else 0
            ranges = [(lo, hi) for lo, hi in s.gaps() if hi < got or quiet]
            if not ranges:
                continue
            s.asked = now
            s.wait = min(60.0, s.wait * 2 if s.wait else self.retry_s)
            out += [(table, {"session": session, "from": lo, "to": hi}) for lo, hi in ranges]
        return out

    async def pump(self, publish: Callable[[str, bytes], Any]) -> None:
        """Publish due resend requests (`publish(topic, payload)` is awaited); runs while connected."""
        while True:
            for table, body in self.requests():
                await publish(f"{self._prefix}/{table}/cmd/resend", json.dumps(body).encode())
                self.counts["resend_requests"] += 1
            self.wake.clear()
            await wait_event(self.wake, min(self.grace_s, self.retry_s) / 2)

    # --- broker drop counters -----------------------------------------------------------------------
    async def _drops(self, payload: bytes) -> None:
        """The counter counts from the broker's start (a restart resets it); any rise is reported."""
        try:
            value = int(payload.decode().strip())
        except (ValueError, UnicodeDecodeError):
            return
        prev, self._drops_prev = self._drops_prev, value
        moved = value - prev if value >= prev else value
        if moved > 0:
            self.counts["broker_drops"] += moved
            await self._drop_alert(moved, value)

    async def _drop_alert(self, moved: int, total: int) -> None:
        self._drop_alerts += 1
        cat = entry("HEALTH")
        alert = {"type": "alert", "id": f"broker-drops-{int(time.time() * 1000)}-{self._drop_alerts}",
                 "t": time.time(), "table": BROKER_TABLE, "hand": None, "code": "HEALTH",
                 "severity": cat.severity, "street": "between", "seat": None, "cards": [],
                 "message": f"broker dropped {moved} message(s) ({total} since it started): its queue for a "
                            "slow client was full; tables with a hole are asked to resend",
                 "remedy": cat.remedy, "rule": cat.rule}
        await self._ingest.handle(f"{self._prefix}/{BROKER_TABLE}/alerts", json.dumps(alert).encode())

    # --- persistence ----------------------------------------------------------------------------------
    async def load(self, store: Store) -> None:
        """Create the table and take up the stored high-water marks (after a restart of the floor)."""
        if not self.track:
            return  # nothing to take up (and no table to create alongside the other floor processes)
        if self._ledger is not None:
            return await self._ledger.create()
        await store._script(_SCHEMA)
        for table, session, high in await store._query("SELECT table_id, session, high FROM streams"):
            self.streams[(table, session)] = Stream(high=int(high), stored_high=int(high))

    async def save(self, store: Store) -> None:
        """Write the high-water marks that moved (lagging is harmless: a resend is deduplicated); on a
        shared subscription, write the `last` values seen and, as the leader, read the peers' seqs."""
        if self._ledger is not None:
            await self._ledger.flush()
            return await self._ledger.sync(self)
        moved, self._moved = self._moved, set()
        rows = [(t, sess, self.streams[(t, sess)].high) for t, sess in sorted(moved)
                if self.streams[(t, sess)].high != self.streams[(t, sess)].stored_high]
        if not rows:
            return
        # a transaction per CHUNK marks (a room moves dozens a second): ingest batches go in between
        for i in range(0, len(rows), CHUNK):
            chunk = rows[i:i + CHUNK]
            await store._many("INSERT INTO streams (table_id, session, high) VALUES (?, ?, ?)"
                              " ON CONFLICT (table_id, session) DO UPDATE SET high = excluded.high", chunk)
            for table, session, high in chunk:
                self.streams[(table, session)].stored_high = high

    async def run_saver(self, store: Store, every_s: float = 1.0) -> None:
        while True:
            await asyncio.sleep(every_s)
            try:
                await self.save(store)
            except StoreError as exc:  # the marks stay in memory and are written next time
                log.warning("floor: sequence marks not saved: %s", exc)

    def statistics(self) -> dict[str, Any]:
        shared = {} if self._ledger is None else {"gap_leader": self._ledger.leader}
        return {"streams": len(self.streams), **self.counts, "degraded": self.degraded(), **shared}
