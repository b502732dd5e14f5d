"""Durable outbox (SQLite, WAL): every message is stored before it is published, and leaves after the ack.

Rows are published in `seq` order. The outcomes of journal event n are written in the same transaction
that records "event n processed", so after a crash the daemon knows exactly which events still owe their
outcomes (at-least-once to the broker, exactly-once into the outbox). Alert rows are keyed by the
alert id: a second insert of the same alert is ignored. The retained `state` is coalesced: a newer state
replaces the pending one (only the latest matters to a retained topic) and moves to the end of the queue.

Checkpoints (copying the WAL back into the database file, with its fsyncs) do not run inside a commit on
the event loop, where SQLite would run them every 1,000 pages: the outbox task runs them in a worker
thread on a second connection (PASSIVE: writers go on appending to the WAL meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.errors import UsageError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    qos INTEGER NOT NULL,
    retain INTEGER NOT NULL,
    created REAL NOT NULL,
    acked REAL
);
CREATE INDEX IF NOT EXISTS pending ON messages (acked, seq);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class OutboxError(UsageError):
    """The outbox database cannot be opened."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Message:
    """One message to publish; `topic` is relative to the table's root (`alerts`, `state`, `hands`)."""

    key: str  # unique: `alert:<id>`, `hand:<n>:<t>`, `state`
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Row:
    seq: int
    key: str
    topic: str
    payload: bytes
    qos: int
    retain: bool


CHECKPOINT_BYTES = 1 << 20  # checkpoint once the WAL holds this much …
CHECKPOINT_IDLE_S = 30.0  # … or anything at all for this long


class Outbox:
    """The SQLite outbox; all methods run on the event-loop thread (each is one short transaction), except
    the checkpoint, which runs in a worker thread on its own connection."""

    def __init__(self, path: Path, *, retention_s: float = 86400.0, checkpoint_aside: bool = True) -> None:
        self.path = path
        self.retention_s = retention_s
        self.checkpoint_aside = checkpoint_aside  # False: SQLite's automatic checkpoint in the commit
        self.checkpoints = 0
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives a process crash; a power loss may lose the last few,
            # which the journal replay re-creates (see docs/daemon.md §Outbox).
            self._db.execute("PRAGMA synchronous=NORMAL")
            # After a checkpoint the WAL shrinks back to this, so a backlog does not keep its space.
            self._db.execute("PRAGMA journal_size_limit=4194304")
            if checkpoint_aside:
                self._db.execute("PRAGMA wal_autocheckpoint=0")  # run() checkpoints in a worker thread
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise OutboxError(f"outbox {path}: {exc}") from None
        self.wakeup = asyncio.Event()
        self.enqueued = 0
        self.acked = 0
        self.ignored = 0
        self._unsaved_acks: set[int] = set()
        # Hook run inside record()'s transaction on each message before its insert (sequence numbers).
        self.stamp: Callable[[sqlite3.Connection, Message], Message] | None = None
        if self.pending_count():
            self.wakeup.set()

    @property
    def db(self) -> sqlite3.Connection:
        return self._db

    def processed(self, session: str) -> int:
        """How many journal events of `session` have their outcomes in the outbox."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (f"processed:{session}",)).fetchone()
        return int(row[0]) if row else 0

    def record(self, messages: Iterable[Message], *, session: str | None = None, event_seq: int = 0) -> None:
        """Store messages (and optionally mark journal event `event_seq` processed) in one transaction."""
        now = time.time()
        added = 0
        with self._tx():
            for m in messages:
                if self.stamp is not None:
                    m = self.stamp(self._db, m)
                if m.key == "state" or m.key.startswith("state:"):
                    # Coalesce the retained state: the newest replaces any older one, sent or not.
                    self._db.execute("DELETE FROM messages WHERE key = ?", (m.key,))
                cur = self._db.execute(
                    "INSERT OR IGNORE INTO messages (key, topic, payload, qos, retain, created) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (m.key, m.topic, m.payload, m.qos, int(m.retain), now))
                if cur.rowcount:
                    added += 1
                else:
                    self.ignored += 1
            if session is not None:
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                                 (f"processed:{session}", str(event_seq)))
        if added:
            self.enqueued += added
            self.wakeup.set()

    def pending(self, limit: int = 100) -> list[Row]:
        """The next unacknowledged rows in order (not those acknowledged while the disk was full)."""
        self._save_acks()
        rows = self._db.execute(
            "SELECT seq, key, topic, payload, qos, retain FROM messages WHERE acked IS NULL "
            "AND seq NOT IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?",
            (json.dumps(sorted(self._unsaved_acks)), limit)).fetchall()
        return [Row(seq=r[0], key=r[1], topic=r[2], payload=bytes(r[3]), qos=r[4], retain=bool(r[5]))
                for r in rows]

    def pending_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM messages WHERE acked IS NULL").fetchone()[0])

    def ack(self, seq: int) -> None:
        """The broker acknowledged row `seq`: it leaves the queue (kept for `retention_s` against replays).
        On a full disk the ack is remembered here and written later, so the row is not sent again."""
        self.acked += 1
        try:
            self._db.execute("UPDATE messages SET acked = ? WHERE seq = ?", (time.time(), seq))
        except sqlite3.Error:
            self._unsaved_acks.add(seq)

    def _save_acks(self) -> None:
        if not self._unsaved_acks:
            return
        seqs = sorted(self._unsaved_acks)
        try:
            self._db.execute("UPDATE messages SET acked = ? WHERE seq IN (SELECT value FROM json_each(?))",
                             (time.time(), json.dumps(seqs)))
        except sqlite3.Error:
            return  # still full: they stay remembered
        self._unsaved_acks.difference_update(seqs)

    def prune(self, now: float | None = None) -> int:
        cutoff = (time.time() if now is None else now) - self.retention_s
        try:
            cur = self._db.execute("DELETE FROM messages WHERE acked IS NOT NULL AND acked < ?", (cutoff,))
        except sqlite3.Error:  # a full disk can refuse even a delete (the WAL grows); next minute then
            return 0
        return cur.rowcount

    async def run(self) -> None:
        """The outbox task: prune acknowledged rows past their retention once a minute, and checkpoint the
        WAL off the loop once it holds CHECKPOINT_BYTES (or anything for CHECKPOINT_IDLE_S)."""
        pruned = checkpointed = time.monotonic()
        self.prune()
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            if now - pruned >= 60.0:
                self.prune()
                pruned = now
            if self.checkpoint_aside:
                wal = self._wal_bytes()
                if wal >= CHECKPOINT_BYTES or (wal and now - checkpointed >= CHECKPOINT_IDLE_S):
                    await asyncio.to_thread(self.checkpoint)
                    checkpointed = now

    def _wal_bytes(self) -> int:
        try:
            return os.stat(f"{self.path}-wal").st_size
        except OSError:
            return 0

    def checkpoint(self) -> None:
        """Copy the WAL into the database file (PASSIVE: never waits for, nor blocks, the writer); on a
        connection of its own, so it can run in a worker thread while the loop commits."""
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=1.0)
            try:
                db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            finally:
                db.close()
        except sqlite3.Error:  # a full disk or a busy lock: the WAL just grows until the next try
            return
        self.checkpoints += 1

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            if self.checkpoint_aside:
                self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self._db.close()  # idempotent

    def _tx(self) -> _Tx:
        return _Tx(self._db)

    def statistics(self) -> dict[str, Any]:
        return {"pending": self.pending_count(), "enqueued": self.enqueued, "acked": self.acked,
                "duplicates_ignored": self.ignored, "acks_unsaved": len(self._unsaved_acks),
                "checkpoints": self.checkpoints}


class _Tx:
    """BEGIN IMMEDIATE … COMMIT / ROLLBACK around a block (autocommit mode otherwise)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            try:
                self._db.execute("COMMIT")
                return
            except sqlite3.Error:
                # A COMMIT refused by a full disk leaves the transaction open; every later BEGIN would
                # then fail even after space returns. Roll back (the caller keeps the data) and re-raise.
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise
        if self._db.in_transaction:  # SQLite may have rolled back already (SQLITE_FULL does)
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
