"""Sequence gaps for floor processes on one shared subscription: the seqs live in the shared database.

A chain's central floors split every table's stream between them (MQTT 5 `$share`), so no process sees a
whole stream and none can tell a hole from a message its peer took. Each process therefore writes the
(table, session, seq) of every numbered message it takes into `stream_seqs`, in the same transaction as the
message itself, and the newest `last` a table's state announced into `stream_last`. One process at a time
holds a lease (a row renewed every second, taken over when it runs out) and rebuilds the streams from
those rows; the gap tracker (controller/floor/gaps.py) then marks the tables degraded and asks for the
holes on `<prefix>/<room>/<table>/cmd/resend`, which each room's bridge carries back into the room
(config/mosquitto/bridge.conf), where the table answers from its outbox.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from controller.floor.errors import StoreError
from controller.floor.store import Store

if TYPE_CHECKING:
    from controller.floor.gaps import Streams

log = logging.getLogger("cardtable.floor")

LEASE_S = 10.0  # a leader that stops renewing is replaced after this long
# Rows are read again this far behind the newest id seen: ids are taken at insert, so a peer's batch can
# commit after rows with higher ids were already read (a batch holds at most MAX_BATCH messages).
MARGIN_IDS = 2_000

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS stream_seqs (id {serial}, table_id TEXT NOT NULL, session TEXT NOT NULL,"
    " seq BIGINT NOT NULL, UNIQUE (table_id, session, seq))",
    "CREATE TABLE IF NOT EXISTS stream_last (table_id TEXT NOT NULL, session TEXT NOT NULL,"
    " last BIGINT NOT NULL, PRIMARY KEY (table_id, session))",
    "CREATE TABLE IF NOT EXISTS stream_lease (name TEXT PRIMARY KEY, owner TEXT NOT NULL,"
    " until DOUBLE PRECISION NOT NULL)",
)

Key = tuple[str, str]


class Ledger:
    """One floor process's part in the shared gap tracking (see the module docstring)."""

    def __init__(self, store: Store, owner: str, *, clock: Callable[[], float] = time.time,
                 lease_s: float = LEASE_S) -> None:
        self._store = store
        self.owner = owner  # the process's MQTT client id: unique among the floors of one database
        self._clock = clock
        self._lease_s = lease_s
        self._lasts: dict[Key, int] = {}  # newest `last` seen per stream, not yet written
        self._cursor = 0  # the newest stream_seqs id this leader has read
        self.leader = False

    async def create(self) -> None:
        for stmt in _SCHEMA:
            await self._store._query(stmt.format(serial=self._store.serial))
        await self._store._query("INSERT INTO stream_lease (name, owner, until) VALUES ('gaps', '', 0)"
                                 " ON CONFLICT (name) DO NOTHING")

    async def record(self, key: Key, seq: int) -> None:
        """Note a taken numbered message; runs inside the ingest batch, so it commits with the message."""
        await self._store._query("INSERT INTO stream_seqs (table_id, session, seq) VALUES (?, ?, ?)"
                                 " ON CONFLICT (table_id, session, seq) DO NOTHING", (key[0], key[1], seq))

    def saw_last(self, key: Key, last: int) -> None:
        if last > self._lasts.get(key, -1):
            self._lasts[key] = last

    async def flush(self) -> None:
        """Write the `last` values seen since the previous flush (the greatest one stays)."""
        rows, self._lasts = sorted((t, s, n) for (t, s), n in self._lasts.items()), {}
        if not rows:
            return
        try:
            await self._store._many(
                "INSERT INTO stream_last (table_id, session, last) VALUES (?, ?, ?) ON CONFLICT (table_id,"
                " session) DO UPDATE SET last = CASE WHEN excluded.last > stream_last.last THEN excluded.last"
                " ELSE stream_last.last END", rows)
        except StoreError:
            for table, session, last in rows:  # written next time, unless a newer one came meanwhile
                self.saw_last((table, session), last)
            raise

    async def sync(self, streams: Streams) -> None:
        """Renew or take the lease; as the leader, bring `streams` up to the database's rows."""
        leader = await self._lease()
        if leader != self.leader:
            log.info("floor: %s %s the sequence-gap lease", self.owner, "took" if leader else "lost")
            streams.reset()  # a new leader reads every row once; one that lost it stops asking
            self._cursor, self.leader = 0, leader
        if not leader:
            return
        rows = await self._store._query("SELECT id, table_id, session, seq FROM stream_seqs WHERE id > ?"
                                        " ORDER BY id", (max(0, self._cursor - MARGIN_IDS),))
        for row_id, table, session, seq in rows:
            streams.absorb((str(table), str(session)), seq=int(seq))
            self._cursor = max(self._cursor, int(row_id))
        lasts = await self._store._query("SELECT table_id, session, last FROM stream_last")
        for table, session, last in lasts:
            streams.absorb((str(table), str(session)), last=int(last))

    async def _lease(self) -> bool:
        now = self._clock()
        try:
            rows = await self._store._query(
                "UPDATE stream_lease SET owner = ?, until = ? WHERE name = 'gaps'"
                " AND (owner = ? OR until < ?) RETURNING owner",
                (self.owner, now + self._lease_s, self.owner, now))
        except StoreError:
            return False  # the store is away: nobody can read the rows either
        return bool(rows)
