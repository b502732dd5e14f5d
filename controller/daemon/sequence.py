"""Per-table, per-session sequence numbers on alerts and hand summaries, and the `cmd/resend` responder.

Every alert and hand summary a table sends carries `"stream": {"session": S, "seq": n}` (n = 1, 2, … per
session, no holes); the retained state and the health heartbeat carry `"stream": {"session": S, "last": n}`
so a receiver also sees a gap at the tail. The number is assigned inside the outbox's transaction, only
when the message is really inserted (a re-recorded hand summary keeps its number), and the mapping
(session, n) → outbox key is kept in the outbox database, so a `cmd/resend` can be answered from the
outbox for as long as it retains delivered rows (`outbox.retention_h`, a day by default).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
import time
from typing import Any

from controller.daemon.outbox import Message, Outbox

log = logging.getLogger("cardtable.sequence")

SEQUENCED = frozenset({"alerts", "hands"})  # topics whose messages are numbered
MAX_RANGE = 500  # messages one resend request may ask for; the rest is asked for again later
_MARK = b',"stream":'

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sequence (
    session TEXT NOT NULL, n INTEGER NOT NULL, key TEXT NOT NULL, PRIMARY KEY (session, n));
"""


def stamp_payload(payload: bytes, block: dict[str, Any]) -> bytes:
    """The JSON object with `"stream": block` appended as its last member; everything before it is kept
    byte for byte (an alert stays identical to `cardtable replay --json` up to the stream block)."""
    if not payload.endswith(b"}"):
        raise ValueError("a sequenced payload must be a JSON object")
    return payload[:-1] + _MARK + json.dumps(block, separators=(",", ":")).encode() + b"}"


def unstamped(payload: bytes) -> bytes:
    """The payload without its stream block (the inverse of stamp_payload)."""
    at = payload.rfind(_MARK)
    return payload if at < 0 else payload[:at] + b"}"


class Sequencer:
    """Numbers the sequenced messages of one session; installed as the outbox's stamp hook."""

    def __init__(self, outbox: Outbox, session: str) -> None:
        self.session = session
        self._db = outbox.db
        self._db.executescript(_SCHEMA)
        self.last = self._max()
        outbox.stamp = self.stamp

    def _max(self) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(n), 0) FROM sequence WHERE session = ?",
                               (self.session,)).fetchone()
        return int(row[0])

    def stamp(self, db: sqlite3.Connection, m: Message) -> Message:
        """Called inside the outbox transaction for each message about to be inserted."""
        if m.topic in SEQUENCED:
            if db.execute("SELECT 1 FROM messages WHERE key = ?", (m.key,)).fetchone():
                return m  # already stored: the insert will be ignored, it keeps its number
            # Read back from the table, not from memory: a rolled-back transaction leaves no hole.
            n = self._max() + 1
            db.execute("INSERT INTO sequence (session, n, key) VALUES (?, ?, ?)", (self.session, n, m.key))
            self.last = n
            block = {"session": self.session, "seq": n}
            return dataclasses.replace(m, payload=stamp_payload(m.payload, block))
        if m.topic == "state":
            return dataclasses.replace(m, payload=stamp_payload(
                m.payload, {"session": self.session, "last": self.last}))
        return m

    def statistics(self) -> dict[str, Any]:
        """Part of the health heartbeat: the floor sees a lost tail from `last`."""
        return {"session": self.session, "last": self.last}


def requeue(outbox: Outbox, keys: list[str]) -> int:
    """Make the rows under `keys` pending again (delivered ones included); how many are still stored."""
    if not keys:
        return 0
    marks = ", ".join("?" * len(keys))  # one statement: atomic, and keys are at most MAX_RANGE
    found = outbox.db.execute(f"UPDATE messages SET acked = NULL WHERE key IN ({marks})", keys).rowcount
    if found:
        outbox.wakeup.set()
    return found


class ResendError(ValueError):
    """A malformed `cmd/resend` request."""


def parse_request(payload: bytes) -> tuple[str, int, int]:
    """(session, first, last) of `{"session": S, "from": a, "to": b}`; ResendError names what is wrong."""
    try:
        body = json.loads(payload)
    except ValueError as exc:
        raise ResendError(f"not JSON ({exc})") from None
    if not isinstance(body, dict) or not isinstance(body.get("session"), str):
        raise ResendError("expected an object with a string 'session'")
    lo, hi = body.get("from"), body.get("to")
    if not isinstance(lo, int) or not isinstance(hi, int) or isinstance(lo, bool) or isinstance(hi, bool):
        raise ResendError("'from' and 'to' must be integers")
    if not 1 <= lo <= hi:
        raise ResendError(f"bad range {lo}..{hi} (need 1 <= from <= to)")
    return body["session"], lo, hi


class Resender:
    """Answers `cmd/resend` from the outbox: the named rows become pending again and go out in order.

    Bounded (at most MAX_RANGE per request) and rate-limited by a token bucket of messages, so a confused
    or hostile floor cannot make a table flood the broker; what is cut off is asked for again.
    """

    def __init__(self, outbox: Outbox, *, rate_per_s: float = 200.0, burst: int = 1000,
                 clock: Any = time.monotonic) -> None:
        self._outbox = outbox
        self._rate = rate_per_s
        self._burst = float(burst)
        self._tokens = float(burst)
        self._clock = clock
        self._at = clock()
        self.requests = 0
        self.resent = 0
        self.unavailable = 0  # asked for but no longer (or never) in the outbox
        self.limited = 0  # cut off by the bound or the rate limit
        self.bad = 0

    def _take(self, want: int) -> int:
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now
        got = min(want, int(self._tokens))
        self._tokens -= got
        return got

    def handle(self, payload: bytes) -> int:
        """Re-queue what the request names (as far as bound and rate allow); how many rows."""
        try:
            session, lo, hi = parse_request(payload)
        except ResendError as exc:
            self.bad += 1
            log.warning("cmd/resend ignored: %s", exc)
            return 0
        self.requests += 1
        want = hi - lo + 1
        allowed = self._take(min(want, MAX_RANGE))
        self.limited += want - allowed
        if not allowed:
            return 0
        db = self._outbox.db
        keys = [k for (k,) in db.execute("SELECT key FROM sequence WHERE session = ? AND n BETWEEN ? AND ?"
                                         " ORDER BY n", (session, lo, lo + allowed - 1))]
        requeued = requeue(self._outbox, keys)
        self.unavailable += allowed - requeued
        self.resent += requeued
        return requeued

    def statistics(self) -> dict[str, Any]:
        return {"requests": self.requests, "resent": self.resent, "unavailable": self.unavailable,
                "limited": self.limited, "bad": self.bad}
