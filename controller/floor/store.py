"""The floor's record: alerts, acknowledgements, table state and hand summaries in SQLite or PostgreSQL.

Both back ends run the same SQL (written with `?` placeholders; the PostgreSQL one rewrites them). A write
is a single statement in autocommit mode, one ingest batch's statements in one transaction
(`transaction()`), or one statement over many rows (`_many`: the coalesced table states). Writes go
through one connection behind a lock, which also keeps `seq` values committed in increasing order: the
browser catch-up ("everything after seq N") relies on that.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.core import strictjson
from controller.core.alerts import FAULT_SEVERITIES
from controller.floor import counts
from controller.floor.config import StoreConfig
from controller.floor.dealers import FaultRow, HandRow, hand_seconds
from controller.floor.errors import StoreError, TransactionAborted

_SCHEMA = """
CREATE TABLE IF NOT EXISTS alerts (
  seq {serial}, table_id TEXT NOT NULL, alert_id TEXT NOT NULL, t DOUBLE PRECISION, hand INTEGER,
  code TEXT NOT NULL, severity TEXT NOT NULL, street TEXT, seat INTEGER, dealer TEXT,
  received DOUBLE PRECISION NOT NULL, payload TEXT NOT NULL, UNIQUE (table_id, alert_id));
CREATE INDEX IF NOT EXISTS alerts_received ON alerts (received);
CREATE TABLE IF NOT EXISTS acks (
  seq {serial}, table_id TEXT NOT NULL, alert_id TEXT NOT NULL, by_user TEXT NOT NULL,
  ruling TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, published INTEGER NOT NULL DEFAULT 0,
  UNIQUE (table_id, alert_id));
CREATE TABLE IF NOT EXISTS tables (
  table_id TEXT PRIMARY KEY, status TEXT, status_at DOUBLE PRECISION, state TEXT,
  state_at DOUBLE PRECISION);
CREATE TABLE IF NOT EXISTS sessions (
  digest TEXT PRIMARY KEY, user_name TEXT NOT NULL, role TEXT NOT NULL, csrf TEXT NOT NULL,
  expires DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS quarantine (
  seq {serial}, digest TEXT NOT NULL UNIQUE, topic TEXT NOT NULL, reason TEXT NOT NULL,
  excerpt TEXT NOT NULL, received DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS hands (
  table_id TEXT NOT NULL, digest TEXT NOT NULL, hand INTEGER, dealer TEXT,
  received DOUBLE PRECISION NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (table_id, digest));
"""

# The floor screen's own additions (replay timelines); kept apart so the core schema above stays as it was.
_SCHEMA_REPLAY = """
CREATE TABLE IF NOT EXISTS replays (
  table_id TEXT NOT NULL, hand INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL, frames TEXT NOT NULL,
  PRIMARY KEY (table_id, hand));
"""

_ALERT_COLS = ("SELECT a.seq, a.payload, a.received, a.dealer, k.by_user, k.ruling, k.at, k.seq, k.published "
               "FROM alerts a LEFT JOIN acks k ON k.table_id = a.table_id AND k.alert_id = a.alert_id")
_FAULTS = tuple(sorted(FAULT_SEVERITIES))
CHECKPOINT_BYTES = 4 << 20  # SQLite: checkpoint the WAL (aside) once it holds this much


@dataclass(frozen=True, kw_only=True, slots=True)
class Filters:
    """History filters; None means "any"."""

    table: str | None = None
    code: str | None = None
    severity: str | None = None
    since: float | None = None  # floor clock (epoch seconds) when the alert arrived
    until: float | None = None
    status: str | None = None  # "open" or "acked"
    limit: int = 200
    hand: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Ack:
    seq: int
    table: str
    alert_id: str
    by: str
    ruling: str
    at: float
    published: bool = False  # sent to the table's cmd/ack (the broker acknowledged it)

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "table": self.table, "id": self.alert_id, "by": self.by,
                "ruling": self.ruling, "at": self.at, "published": self.published}


def _alert_row(row: Sequence[Any]) -> dict[str, Any]:
    """A stored alert as the browser sees it: the payload plus a `floor` block with our bookkeeping."""
    seq, payload, received, dealer, by, ruling, at, ack_seq, published = row
    out: dict[str, Any] = json.loads(payload)
    ack = None if by is None else {"by": by, "ruling": ruling, "at": at, "seq": ack_seq,
                                   "published": bool(published)}
    out["floor"] = {"seq": seq, "received": received, "dealer": dealer, "ack": ack}
    return out


CHUNK = 25  # rows per transaction of a background write (states, sequence marks): see set_states


class Store(ABC):
    """Back-end independent queries; subclasses supply `_query` and the serial column type."""

    serial = ""
    triggers: tuple[str, ...] = ()  # per back end: controller/floor/counts.py

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def _query(self, sql: str, params: Sequence[Any] = (), *, durable: bool = False
                     ) -> list[tuple[Any, ...]]: ...

    @abstractmethod
    async def _script(self, sql: str) -> None: ...

    _lock: asyncio.Lock
    _owner: asyncio.Task[Any] | None = None  # the task inside transaction() (holds the lock)
    _aborted = ""  # why a statement of the open transaction failed ("" while none has)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Several writes as one transaction (batched ingest, controller/floor/batch.py); every other
        task waits until it is committed, so `seq` values still become visible in increasing order.

        Once a statement inside has failed, the transaction never commits, even when the caller caught
        the error and went on: PostgreSQL aborts the whole transaction on a deadlock, SQLite rolls it back
        on a full disk, and a COMMIT after that would report success for writes that were undone (the
        chain test lost six alerts that way). TransactionAborted says so instead."""
        async with self._lock:
            self._owner, self._aborted = asyncio.current_task(), ""
            try:
                await self._query("BEGIN")
                try:
                    yield
                    if self._aborted:
                        raise TransactionAborted(self._aborted)
                except BaseException:
                    with contextlib.suppress(StoreError):
                        await self._query("ROLLBACK")
                    raise
                await self._query("COMMIT")
            finally:
                self._owner, self._aborted = None, ""

    def _failed(self, message: str) -> StoreError:
        """The StoreError for a failed statement; inside a transaction it also dooms the transaction."""
        if self._in_transaction() and not self._aborted:
            self._aborted = message
        return StoreError(message)

    def _guard(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """The store's lock, unless this task holds it already for a transaction."""
        return contextlib.nullcontext() if self._in_transaction() else self._lock

    def _in_transaction(self) -> bool:
        return self._owner is not None and asyncio.current_task() is self._owner

    async def _create_schema(self) -> None:
        await self._script(_SCHEMA.format(serial=self.serial))
        await self._script(_SCHEMA_REPLAY)
        # The pages' indexes and counts kept by triggers (controller/floor/counts.py); an older store is
        # counted once.
        for stmt in counts.TABLES:
            await self._query(stmt)
        if not await self._query("SELECT version FROM counts_version WHERE version = ?", (counts.VERSION,)):
            for stmt in counts.BACKFILL:
                await self._query(stmt)
        for stmt in self.triggers:
            await self._query(stmt)

    # --- writes -----------------------------------------------------------------------------------------
    async def add_alert(self, alert: Mapping[str, Any], *, dealer: str | None, received: float) -> int | None:
        """Store an alert; its seq, or None when this (table, id) is already stored (a resend)."""
        rows = await self._query(
            "INSERT INTO alerts (table_id, alert_id, t, hand, code, severity, street, seat, dealer, received,"
            " payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, alert_id) DO NOTHING"
            " RETURNING seq",
            (str(alert["table"]), str(alert["id"]), float(alert.get("t") or 0.0),
             _int_or_none(alert.get("hand")),
             str(alert["code"]), str(alert["severity"]), alert.get("street"), _int_or_none(alert.get("seat")),
             dealer, received, strictjson.dumps(alert, ensure_ascii=False)))
        return int(rows[0][0]) if rows else None

    async def add_ack(self, *, table: str, alert_id: str, by: str, ruling: str, at: float) -> Ack | None:
        """Record a ruling; None if the alert is unknown or already acknowledged (the first ruling stands)."""
        rows = await self._query(
            "INSERT INTO acks (table_id, alert_id, by_user, ruling, at)"
            " SELECT a.table_id, a.alert_id, ?, ?, ? FROM alerts a WHERE a.table_id = ? AND a.alert_id = ?"
            " ON CONFLICT (table_id, alert_id) DO NOTHING RETURNING seq",
            (by, ruling, at, table, alert_id), durable=True)
        if not rows:
            return None
        return Ack(seq=int(rows[0][0]), table=table, alert_id=alert_id, by=by, ruling=ruling, at=at)

    async def unpublished_acks(self) -> list[Ack]:
        rows = await self._query("SELECT seq, table_id, alert_id, by_user, ruling, at FROM acks"
                                 " WHERE published = 0 ORDER BY seq")
        return [Ack(seq=r[0], table=r[1], alert_id=r[2], by=r[3], ruling=r[4], at=r[5]) for r in rows]

    async def mark_published(self, seq: int) -> None:
        await self._query("UPDATE acks SET published = 1 WHERE seq = ?", (seq,))

    async def set_state(self, table: str, state: Mapping[str, Any], at: float) -> None:
        await self._query(
            "INSERT INTO tables (table_id, state, state_at) VALUES (?, ?, ?) ON CONFLICT (table_id)"
            " DO UPDATE SET state = excluded.state, state_at = excluded.state_at",
            (table, strictjson.dumps(state, ensure_ascii=False), at))

    async def set_states(self, states: Sequence[tuple[str, Mapping[str, Any], float]]) -> None:
        """The newest state of several tables, (table, state, at) each, in transactions of CHUNK rows:
        the store's lock is let go between them, so an ingest batch waits for one chunk at most (a room's
        250 states in one transaction held the alerts back 15 ms on PostgreSQL with small states)."""
        rows = [(t, strictjson.dumps(s, ensure_ascii=False), at) for t, s, at in states]
        for i in range(0, len(rows), CHUNK):
            await self._many(
                "INSERT INTO tables (table_id, state, state_at) VALUES (?, ?, ?) ON CONFLICT (table_id)"
                " DO UPDATE SET state = excluded.state, state_at = excluded.state_at", rows[i:i + CHUNK])

    @abstractmethod
    async def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """One statement for many parameter rows, in one transaction (outside any ingest batch)."""

    async def run_maintenance(self) -> None:
        """Housekeeping that must not sit in the ingest path (SQLite: the WAL checkpoint)."""
        return None

    async def set_status(self, table: str, status: str, at: float) -> None:
        await self._query(
            "INSERT INTO tables (table_id, status, status_at) VALUES (?, ?, ?) ON CONFLICT (table_id)"
            " DO UPDATE SET status = excluded.status, status_at = excluded.status_at",
            (table, status, at))

    async def add_hand(self, table: str, summary: Mapping[str, Any], *, dealer: str | None,
                       received: float) -> bool:
        """Store a finished hand's summary; False for an exact resend (deduplicated by content)."""
        payload = strictjson.dumps(summary, ensure_ascii=False, sort_keys=True)
        digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()
        rows = await self._query(
            "INSERT INTO hands (table_id, digest, hand, dealer, received, payload) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, digest) DO NOTHING RETURNING hand",
            (table, digest, _int_or_none(summary.get("hand")), dealer, received, payload))
        return bool(rows)

    async def save_session(self, digest: str, *, user: str, role: str, csrf: str, expires: float) -> None:
        await self._query("INSERT INTO sessions (digest, user_name, role, csrf, expires)"
                          " VALUES (?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING",
                          (digest, user, role, csrf, expires), durable=True)

    async def delete_session(self, digest: str) -> None:
        await self._query("DELETE FROM sessions WHERE digest = ?", (digest,))

    async def load_sessions(self, now: float) -> list[tuple[str, str, str, str, float]]:
        """Unexpired sessions (digest, user, role, csrf, expires); expired ones are deleted."""
        await self._query("DELETE FROM sessions WHERE expires <= ?", (now,))
        rows = await self._query("SELECT digest, user_name, role, csrf, expires FROM sessions")
        return [(r[0], r[1], r[2], r[3], float(r[4])) for r in rows]

    async def quarantine(self, *, topic: str, payload: bytes, reason: str, excerpt: str,
                         received: float) -> bool:
        """Keep a message the floor refused (a poison message), so staff can see what a table sent; False
        when this topic and payload are already there (the broker delivered it again: the floor stopped
        between storing it and acknowledging it)."""
        digest = hashlib.sha256(topic.encode("utf-8", "replace") + b"\0" + payload).hexdigest()
        rows = await self._query("INSERT INTO quarantine (digest, topic, reason, excerpt, received)"
                                 " VALUES (?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING RETURNING seq",
                                 (digest, topic, reason, excerpt, received))
        return bool(rows)

    # --- reads ------------------------------------------------------------------------------------------
    async def quarantined(self, limit: int = 50) -> dict[str, Any]:
        """How many messages are in quarantine and the newest `limit` of them, newest first."""
        total = await self._query("SELECT COUNT(*) FROM quarantine")
        rows = await self._query("SELECT seq, topic, reason, excerpt, received FROM quarantine"
                                 " ORDER BY seq DESC LIMIT ?", (limit,))
        return {"count": int(total[0][0]), "recent": [
            {"seq": r[0], "topic": r[1], "reason": r[2], "excerpt": r[3], "received": r[4]} for r in rows]}

    async def cursor(self) -> tuple[int, int]:
        """(highest alert seq, highest ack seq): where a browser's catch-up starts."""
        a = await self._query("SELECT COALESCE(MAX(seq), 0) FROM alerts")
        k = await self._query("SELECT COALESCE(MAX(seq), 0) FROM acks")
        return int(a[0][0]), int(k[0][0])

    async def alert(self, table: str, alert_id: str) -> dict[str, Any] | None:
        rows = await self._query(_ALERT_COLS + " WHERE a.table_id = ? AND a.alert_id = ?", (table, alert_id))
        return _alert_row(rows[0]) if rows else None

    async def alerts_after(self, seq: int, limit: int = 5000) -> list[dict[str, Any]]:
        rows = await self._query(_ALERT_COLS + " WHERE a.seq > ? ORDER BY a.seq LIMIT ?", (seq, limit))
        return [_alert_row(r) for r in rows]

    async def acks_after(self, seq: int, limit: int = 5000) -> list[Ack]:
        rows = await self._query("SELECT seq, table_id, alert_id, by_user, ruling, at, published FROM acks"
                                 " WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit))
        return [Ack(seq=r[0], table=r[1], alert_id=r[2], by=r[3], ruling=r[4], at=r[5], published=bool(r[6]))
                for r in rows]

    async def recent_alerts(self, limit: int) -> list[dict[str, Any]]:
        """The newest `limit` alerts plus every still-open fault alert, oldest first."""
        rows = await self._query(
            _ALERT_COLS + " WHERE a.seq IN (SELECT seq FROM (SELECT seq FROM alerts ORDER BY seq DESC"
            " LIMIT ?) AS newest UNION SELECT seq FROM open_faults) ORDER BY a.seq", (limit,))
        return [_alert_row(r) for r in rows]

    async def history(self, f: Filters) -> list[dict[str, Any]]:
        where: list[str] = ["1 = 1"]
        params: list[Any] = []
        for col, val in (("a.table_id", f.table), ("a.code", f.code), ("a.severity", f.severity)):
            if val:
                where.append(f"{col} = ?")
                params.append(val)
        if f.hand is not None:
            where.append("a.hand = ?")
            params.append(f.hand)
        if f.since is not None:
            where.append("a.received >= ?")
            params.append(f.since)
        if f.until is not None:
            where.append("a.received <= ?")
            params.append(f.until)
        if f.status == "open":  # open = an unacknowledged fault alert (info alerts are never open)
            where.append("a.seq IN (SELECT seq FROM open_faults)")
        elif f.status == "acked":
            where.append("k.seq IS NOT NULL")
        sql = _ALERT_COLS + " WHERE " + " AND ".join(where) + " ORDER BY a.seq DESC LIMIT ?"
        rows = await self._query(sql, (*params, max(1, min(f.limit, 5000))))
        return [_alert_row(r) for r in rows]

    async def tables(self) -> list[dict[str, Any]]:
        """Every table seen, with status, state and open fault alerts counted by severity."""
        rows = await self._query("SELECT table_id, status, status_at, state, state_at FROM tables")
        out: dict[str, dict[str, Any]] = {}
        for tid, status, status_at, state, state_at in rows:
            out[tid] = {"table": tid, "status": status, "status_at": status_at,
                        "state": json.loads(state) if state else None, "state_at": state_at, "open": {}}
        # every table that sent an alert has a row (trigger); open faults are counted as they change
        for tid, sev, n in await self._query("SELECT table_id, severity, COUNT(*) FROM open_faults"
                                             " GROUP BY table_id, severity"):
            out[tid]["open"][sev] = int(n)
        return [out[k] for k in sorted(out)]

    async def open_counts(self, table: str) -> dict[str, int]:
        """Unacknowledged fault alerts of one table, by severity."""
        rows = await self._query(
            "SELECT severity, COUNT(*) FROM open_faults WHERE table_id = ? GROUP BY severity", (table,))
        return {sev: int(n) for sev, n in rows}

    async def stats(self, since: float | None = None) -> dict[str, Any]:
        """Fault alerts per 100 hands, by dealer and by code (hands counted from `…/hands` summaries)."""
        if since is None:  # all time: the counts the triggers keep
            hand_rows = await self._query("SELECT dealer, SUM(n) FROM hand_tallies GROUP BY dealer")
            fault_rows = await self._query("SELECT dealer, code, SUM(n) FROM fault_tallies"
                                           " GROUP BY dealer, code")
            return build_stats({d: int(n) for d, n in hand_rows}, [(d, c, int(n)) for d, c, n in fault_rows])
        cond, params = ("WHERE received >= ?", (since,)) if since is not None else ("", ())
        hands = await self._query(f"SELECT COALESCE(dealer, ''), COUNT(*) FROM hands {cond} GROUP BY 1",
                                  params)
        sev_cond = "severity IN (?, ?, ?, ?)" + (" AND received >= ?" if since is not None else "")
        faults = await self._query(
            f"SELECT COALESCE(dealer, ''), code, COUNT(*) FROM alerts WHERE {sev_cond} GROUP BY 1, 2",
            (*_FAULTS, *params))
        return build_stats({d: int(n) for d, n in hands}, [(d, c, int(n)) for d, c, n in faults])

    async def dealer_rows(self, since: float) -> tuple[list[HandRow], list[FaultRow]]:
        """Hands (with their duration) and fault alerts since `since`, with the dealer each was booked to."""
        hands = await self._query("SELECT table_id, hand, COALESCE(dealer, ''), received, payload FROM hands"
                                  " WHERE received >= ? ORDER BY received", (since,))
        faults = await self._query(
            "SELECT table_id, hand, COALESCE(dealer, ''), code, received FROM alerts"
            " WHERE received >= ? AND severity IN (?, ?, ?, ?) ORDER BY received", (since, *_FAULTS))
        return ([HandRow(t, h, d, float(at), hand_seconds(json.loads(p))) for t, h, d, at, p in hands],
                [FaultRow(t, h, d, c, float(at)) for t, h, d, c, at in faults])

    async def save_replay(self, table: str, hand: int, frames: Sequence[Mapping[str, Any]],
                          at: float) -> None:
        """A hand's state timeline (public states only), written once when the table moves on."""
        await self._query(
            "INSERT INTO replays (table_id, hand, at, frames) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, hand) DO UPDATE SET at = excluded.at, frames = excluded.frames",
            (table, hand, at, json.dumps(list(frames), ensure_ascii=False)))

    async def replay_frames(self, table: str, hand: int) -> list[dict[str, Any]] | None:
        rows = await self._query("SELECT frames FROM replays WHERE table_id = ? AND hand = ?", (table, hand))
        return list(json.loads(rows[0][0])) if rows else None

    async def hand_summary(self, table: str, hand: int) -> dict[str, Any] | None:
        """The newest stored summary of one hand (hole cards shown at showdown: supervisor eyes only)."""
        rows = await self._query("SELECT payload FROM hands WHERE table_id = ? AND hand = ?"
                                 " ORDER BY received DESC LIMIT 1", (table, hand))
        return dict(json.loads(rows[0][0])) if rows else None

    async def counts(self) -> dict[str, int]:
        out = {}
        for name in ("alerts", "acks", "hands", "tables", "quarantine"):
            out[name] = int((await self._query(f"SELECT COUNT(*) FROM {name}"))[0][0])
        return out


def build_stats(hands: Mapping[str, int], faults: Sequence[tuple[str, str, int]]) -> dict[str, Any]:
    """Rates per 100 hands; a dealer without recorded hands gets rate None rather than a division by zero."""
    total_hands = sum(hands.values())

    def rate(n: int, h: int) -> float | None:
        return round(100.0 * n / h, 2) if h else None

    by_dealer: dict[str, dict[str, Any]] = {
        d: {"dealer": d, "hands": h, "faults": 0, "codes": {}} for d, h in hands.items()}
    by_code: dict[str, int] = {}
    for dealer, code, n in faults:
        d = by_dealer.setdefault(dealer, {"dealer": dealer, "hands": 0, "faults": 0, "codes": {}})
        d["faults"] += n
        d["codes"][code] = n
        by_code[code] = by_code.get(code, 0) + n
    for d in by_dealer.values():
        d["per100"] = rate(d["faults"], d["hands"])
        d["codes"] = {c: {"count": n, "per100": rate(n, d["hands"])} for c, n in sorted(d["codes"].items())}
    codes = [{"code": c, "count": n, "per100": rate(n, total_hands)} for c, n in sorted(by_code.items())]
    dealers = sorted(by_dealer.values(), key=lambda d: d["dealer"])
    return {"hands": total_hands, "faults": sum(by_code.values()),
            "per100": rate(sum(by_code.values()), total_hands), "by_code": codes, "by_dealer": dealers}


def _int_or_none(v: Any) -> int | None:
    return None if v is None else int(v)


class SqliteStore(Store):
    """SQLite in WAL mode; the blocking calls run in a worker thread, one at a time."""

    serial = "INTEGER PRIMARY KEY AUTOINCREMENT"
    triggers = counts.SQLITE_TRIGGERS

    def __init__(self, path: Path) -> None:
        self._path = path
        self._db: sqlite3.Connection | None = None
        self._lock = asyncio.Lock()
        self.checkpoints = 0

    async def open(self) -> None:
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False, timeout=10)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across a crash of the service
            db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run aside (run_maintenance)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open SQLite store {self._path}: {exc}") from None
        self._db = db
        await self._create_schema()

    async def close(self) -> None:
        if self._db is not None:
            async with self._lock:
                self._db.close()
            self._db = None

    async def _script(self, sql: str) -> None:
        db = self._require()
        async with self._lock:
            await asyncio.to_thread(db.executescript, sql)

    async def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        db = self._require()

        def run() -> None:
            db.execute("BEGIN")
            try:
                db.executemany(sql, [tuple(r) for r in rows])
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

        async with self._lock:
            try:
                await asyncio.to_thread(run)
            except sqlite3.OperationalError as exc:
                raise StoreError(f"SQLite store {self._path}: {exc}") from None

    async def run_maintenance(self, every_s: float = 1.0) -> None:
        """Checkpoint the WAL in a worker thread on a connection of its own, once it holds
        CHECKPOINT_BYTES. SQLite would otherwise run it inside the commit of whichever ingest batch
        crosses 1,000 pages, with its fsyncs, while every alert behind that batch waits."""
        while True:
            await asyncio.sleep(every_s)
            try:
                wal = os.stat(f"{self._path}-wal").st_size
            except OSError:
                continue
            if wal >= CHECKPOINT_BYTES:
                await asyncio.to_thread(self._checkpoint)

    def _checkpoint(self) -> None:
        try:
            db = sqlite3.connect(self._path, isolation_level=None, timeout=1.0)
            try:
                db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            finally:
                db.close()
        except sqlite3.Error:  # busy or a full disk: the WAL grows until the next try
            return
        self.checkpoints += 1

    async def _query(self, sql: str, params: Sequence[Any] = (), *, durable: bool = False
                     ) -> list[tuple[Any, ...]]:
        db = self._require()

        def run() -> list[tuple[Any, ...]]:
            if not durable:
                return db.execute(sql, tuple(params)).fetchall()
            db.execute("PRAGMA synchronous=FULL")  # a ruling is synced to disk before it is confirmed
            try:
                return db.execute(sql, tuple(params)).fetchall()
            finally:
                db.execute("PRAGMA synchronous=NORMAL")

        async with self._guard():
            try:
                if self._in_transaction():
                    # Inside an ingest batch each statement only touches the WAL, and so does the commit
                    # (WAL with synchronous=NORMAL syncs only at checkpoints, which run_maintenance does
                    # aside): running them here saves a worker-thread hop per batch, which under CPU
                    # contention cost milliseconds of GIL hand-over each.
                    return run()
                return await asyncio.to_thread(run)
            except sqlite3.OperationalError as exc:
                raise self._failed(f"SQLite store {self._path}: {exc}") from None

    def _require(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("store is not open")
        return self._db


class PostgresStore(Store):
    """PostgreSQL through psycopg 3 (async); one connection, re-opened once if the server dropped it."""

    serial = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
    triggers = counts.POSTGRES_TRIGGERS

    def __init__(self, dsn: str, schema: str | None) -> None:
        self._dsn = dsn
        self._schema = schema
        self._conn: Any = None
        self._lock = asyncio.Lock()

    async def _connect(self) -> Any:
        import psycopg  # optional dependency: only needed when a DSN is configured

        try:
            conn = await psycopg.AsyncConnection.connect(self._dsn, autocommit=True, connect_timeout=10)
            if self._schema:
                # two floor processes creating one schema at once would collide: one at a time
                await conn.execute("SELECT pg_advisory_lock(hashtext('cardtable-floor-schema'))")
                await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self._schema}"')
                await conn.execute("SELECT pg_advisory_unlock(hashtext('cardtable-floor-schema'))")
                await conn.execute(f'SET search_path TO "{self._schema}"')
            # Alerts, states and hands commit without waiting for the WAL flush (a server crash can lose
            # the last fraction of a second; the floor service crashing loses nothing): one flush per
            # alert caps a loaded server at a few hundred alerts a second. Rulings wait (durable=True).
            await conn.execute("SET synchronous_commit TO off")
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to PostgreSQL: {str(exc).strip().splitlines()[0]}") from None
        return conn

    async def open(self) -> None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise StoreError("store.dsn is set but psycopg is not installed "
                             "(pip install 'psycopg[binary]')") from None
        self._conn = await self._connect()
        # Several floor processes on one database (a chain's central floors) start together: creating
        # tables, indexes and triggers at once would collide in the catalogue, so one at a time.
        await self._conn.execute("SELECT pg_advisory_lock(hashtext('cardtable-floor-schema'))")
        try:
            await self._create_schema()
        finally:
            await self._conn.execute("SELECT pg_advisory_unlock(hashtext('cardtable-floor-schema'))")

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _script(self, sql: str) -> None:
        async with self._lock:
            for stmt in (s.strip() for s in sql.split(";")):
                if stmt:
                    await self._conn.execute(stmt)

    async def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        import psycopg

        async with self._lock:
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = await self._connect()
                async with self._conn.transaction(), self._conn.cursor() as cur:
                    await cur.executemany(sql.replace("?", "%s"), [tuple(r) for r in rows])  # pipelined
            except psycopg.OperationalError as exc:
                self._conn = None
                raise StoreError(f"PostgreSQL: {str(exc).strip().splitlines()[0]}") from None

    async def _query(self, sql: str, params: Sequence[Any] = (), *, durable: bool = False
                     ) -> list[tuple[Any, ...]]:
        import psycopg

        pg_sql = sql.replace("?", "%s")
        # Inside a transaction a dropped connection must not be retried on a new one (half a batch
        # would commit); the error ends the batch, whose messages the broker then delivers again.
        attempts = (2,) if self._in_transaction() else (1, 2)
        async with self._guard():
            for attempt in attempts:
                try:
                    if self._conn is None or self._conn.closed:
                        self._conn = await self._connect()
                    if durable:
                        async with self._conn.transaction():
                            await self._conn.execute("SET LOCAL synchronous_commit TO on")
                            cur = await self._conn.execute(pg_sql, tuple(params))
                            return list(await cur.fetchall()) if cur.description else []
                    cur = await self._conn.execute(pg_sql, tuple(params))
                    return list(await cur.fetchall()) if cur.description else []
                except psycopg.OperationalError as exc:
                    await self._drop_if_broken()
                    if attempt == 2 or self._conn is not None:  # a live connection: not worth a retry
                        raise self._failed(f"PostgreSQL: {str(exc).strip().splitlines()[0]}") from None
                except psycopg.Error as exc:
                    if not self._in_transaction():
                        raise  # autocommitted: only this statement failed (the caller quarantines it)
                    # Any error aborts a PostgreSQL transaction; every statement after it would fail too.
                    raise self._failed(f"PostgreSQL: {str(exc).strip().splitlines()[0]}") from None
        raise AssertionError("unreachable")

    async def _drop_if_broken(self) -> None:
        """Forget a connection the server dropped. A live one (a deadlock or a serialisation failure
        aborts only the transaction) is kept: dropping it unclosed would leave its locks held until the
        server noticed."""
        conn = self._conn
        if conn is not None and not conn.closed and not conn.broken:
            return
        self._conn = None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()


def open_store(cfg: StoreConfig) -> Store:
    """PostgreSQL when a DSN is configured, else the SQLite file."""
    if cfg.dsn:
        return PostgresStore(cfg.dsn, cfg.schema_name)
    return SqliteStore(cfg.sqlite)
