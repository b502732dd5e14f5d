"""What the floor does with each MQTT message: validate, redact, store, and tell the browsers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from controller.core import strictjson
from controller.core.alerts import FAULT_SEVERITIES, SEVERITIES, STREETS
from controller.floor.errors import StoreError
from controller.floor.hub import Hub
from controller.floor.replay import Timelines
from controller.floor.store import Store

log = logging.getLogger("cardtable.floor")

KINDS = ("alerts", "state", "hands", "status")
STATE_WRITE_S = 1.0  # the newest state of every table that changed is written this often, in one go
HOLD_MAX = 10_000  # messages held in memory while the store refuses writes; beyond, the broker keeps them
# Keys under which a state payload could carry hole cards. The contract says it never does; the floor
# strips them anyway, because a live hand's hole cards must never reach a browser.
_HOLE_KEYS = frozenset({"cards", "hole", "holes", "hole_cards", "holecards", "pocket"})


def public_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state without any hole-card fields, at the top level or inside seats."""
    out = {k: v for k, v in state.items() if k not in _HOLE_KEYS}
    seats = out.get("seats")
    if isinstance(seats, list):
        out["seats"] = [_strip(s) for s in seats]
    elif isinstance(seats, dict):
        out["seats"] = {k: _strip(v) for k, v in seats.items()}
    return out


def _strip(seat: Any) -> Any:
    if not isinstance(seat, dict):
        return seat
    # A bare count (the engine's `"cards": 2`) is public; anything else under these keys is not.
    return {k: v for k, v in seat.items() if k not in _HOLE_KEYS or (isinstance(v, int) and k == "cards")}


def parse_topic(prefix: str, topic: str, *, rooms: bool = False) -> tuple[str, str] | None:
    """(table, kind) for `<prefix>/<table>/<kind>`, else None. With `rooms` the topic is
    `<prefix>/<room>/<table>/<kind>` and the table is `<room>/<table>` (a central floor of a chain)."""
    head = prefix + "/"
    if not topic.startswith(head):
        return None
    parts = topic[len(head):].split("/")
    if len(parts) != (3 if rooms else 2) or not all(parts[:-1]) or parts[-1] not in KINDS:
        return None
    return "/".join(parts[:-1]), parts[-1]


def topic_filters(prefix: str, *, rooms: bool = False, share_group: str | None = None
                  ) -> list[tuple[str, int]]:
    """The floor's subscriptions to the contract's topics: (filter, QoS). The live state is QoS 0 (latest
    wins, never queued in front of alerts); the rest QoS 1."""
    level = "+/+" if rooms else "+"
    share = f"$share/{share_group}/" if share_group else ""
    return [(f"{share}{prefix}/{level}/{kind}", 0 if kind == "state" else 1) for kind in KINDS]


def excerpt_of(payload: bytes, limit: int = 200) -> str:
    """The first `limit` bytes of a payload as printable text (bad UTF-8 and control characters escaped)."""
    text = payload[:limit].decode("utf-8", "backslashreplace")
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text + ("…" if len(payload) > limit else "")


def alert_problem(alert: Mapping[str, Any]) -> str | None:
    """Why an alert payload cannot be stored and shown, or None: the fields the floor relies on must have
    the contract's types (interfaces.md §2)."""
    for key in ("id", "code", "severity", "message"):
        value = alert.get(key)
        if not isinstance(value, str) or not value:
            return f"alert: '{key}' must be a non-empty string"
    if len(alert["id"]) > 200 or len(alert["code"]) > 64:
        return "alert: 'id' or 'code' is too long"
    if alert["severity"] not in SEVERITIES:
        return f"alert: unknown severity {alert['severity'][:20]!r}"
    street = alert.get("street")
    if street is not None and street not in STREETS:
        return "alert: 'street' must be one of " + ", ".join(STREETS)
    for key in ("hand", "seat"):
        value = alert.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            return f"alert: '{key}' must be an integer"
    t = alert.get("t")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int | float)):
        return "alert: 't' must be a number"
    return None


class Ingest:
    """Turns broker messages into store rows and browser events; bad payloads are logged and counted."""

    def __init__(self, *, store: Store, hub: Hub, prefix: str, dealers: Mapping[str, str],
                 clock: Callable[[], float] = time.time, rooms: bool = False) -> None:
        self._store = store
        self._hub = hub
        self._prefix = prefix
        self._rooms = rooms
        self._config_dealers = dict(dealers)
        self._state_dealers: dict[str, str] = {}
        self._clock = clock
        # Open fault alerts per table and severity, kept here so a burst of alerts costs no count queries.
        self._open: dict[str, dict[str, int]] = {}
        self._latest: dict[str, tuple[dict[str, Any], float]] = {}  # newest state per table, and when
        self._written: dict[str, float] = {}  # the time of the state last written to the store
        self.counts = {"alerts": 0, "duplicates": 0, "state": 0, "hands": 0, "status": 0, "rejected": 0,
                       "held": 0, "quarantine_duplicates": 0}
        self._held: deque[tuple[str, bytes]] = deque()  # taken from the broker, not yet stored (disk full)
        self.store_error = ""
        self.timelines = Timelines()  # per hand states: replay, the state at an alert, dealer per hand

    @contextlib.asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """One ingest batch: a store transaction whose browser events are sent once it is committed.

        When it is not committed, what the batch did to this object's own bookkeeping is undone as well
        (counts, open faults, messages held for a full disk): its messages come again, either handed
        over one by one (controller/floor/batch.py) or redelivered by the broker, and must not count
        twice."""
        held = False
        saved = (dict(self.counts), {t: dict(c) for t, c in self._open.items()}, len(self._held))
        try:
            async with self._store.transaction():
                self._hub.hold()  # once the store is ours: waiting for it holds nobody's events back
                held = True
                yield
        except BaseException:
            if held:
                self._hub.release(committed=False)
            self._undo(saved)
            raise
        self._hub.release()

    def _undo(self, saved: tuple[dict[str, int], dict[str, dict[str, int]], int]) -> None:
        counts, open_faults, held = saved
        self.counts.clear()
        self.counts.update(counts)
        self._open = open_faults
        while len(self._held) > held:
            self._held.pop()
        self.counts["held"] = len(self._held)

    @property
    def holding(self) -> bool:
        """Messages are held in memory because the store refuses writes (see handle)."""
        return bool(self._held)

    async def load(self) -> None:
        """Pick up dealer ids from stored states after a restart."""
        for row in await self._store.tables():
            self._note_dealer(row["table"], row["state"])
            self._open[row["table"]] = dict(row["open"])

    def dealer(self, table: str) -> str | None:
        return self._state_dealers.get(table) or self._config_dealers.get(table)

    def dealer_of_hand(self, table: str, hand: Any) -> str | None:
        """The dealer of that hand (from its states), else the table's current one."""
        number = hand if isinstance(hand, int) and not isinstance(hand, bool) else None
        return self.timelines.dealer(table, number) or self.dealer(table)

    def _note_dealer(self, table: str, state: Any) -> None:
        if isinstance(state, dict) and isinstance(state.get("dealer"), str | int) and str(state["dealer"]):
            self._state_dealers[table] = str(state["dealer"])

    async def handle(self, topic: str, payload: bytes) -> None:
        """Take one broker message. A message that cannot be taken (a poison message) is logged with its
        topic and an excerpt, kept in the store's quarantine and counted, and then acknowledged like any
        other: redelivering it would only fail again, on every restart.

        When the store refuses writes (a full disk), the message is held in memory, in order with the
        ones after it, and retried by the state writer task every STATE_WRITE_S until the store takes it;
        past HOLD_MAX held messages the StoreError goes up, the message stays unacknowledged and the
        broker keeps the rest."""
        if self._held:
            return self._hold(topic, payload, None)
        try:
            await self._handle(topic, payload)
        except StoreError as exc:
            self._hold(topic, payload, exc)

    def _hold(self, topic: str, payload: bytes, exc: StoreError | None) -> None:
        if len(self._held) >= HOLD_MAX:
            raise exc or StoreError(f"store unavailable and {HOLD_MAX} messages held: {self.store_error}")
        if exc is not None and not self.store_error:
            log.error("floor: store refused a write (%s); holding messages in memory and retrying", exc)
            self._hub.publish({"type": "store", "ok": False, "error": str(exc)})
        if exc is not None:
            self.store_error = str(exc)
        self._held.append((topic, payload))
        self.counts["held"] = len(self._held)

    async def retry_held(self) -> None:
        """Hand the held messages to the store again, oldest first, until it refuses one."""
        while self._held:
            topic, payload = self._held[0]
            try:
                await self._handle(topic, payload)
            except StoreError as exc:
                self.store_error = str(exc)
                break
            self._held.popleft()
        self.counts["held"] = len(self._held)
        if not self._held and self.store_error:
            log.warning("floor: store writes again; every held message is stored")
            self.store_error = ""
            self._hub.publish({"type": "store", "ok": True, "error": ""})

    async def _handle(self, topic: str, payload: bytes) -> None:
        try:
            reason = await self._take(topic, payload)
        except StoreError:
            raise  # the store is away: not the message's fault; the link gets it again later
        except Exception as exc:  # an input nobody foresaw must not take the floor down for good
            log.exception("floor: failed on a message on %s", topic[:200])
            reason = f"internal error ({type(exc).__name__}: {str(exc)[:200]})"
        if reason is not None:
            await self._reject(topic, payload, reason)

    async def _take(self, topic: str, payload: bytes) -> str | None:
        """Validate and apply a message; the reason it was refused, or None."""
        where = parse_topic(self._prefix, topic, rooms=self._rooms)
        if where is None:
            return "unexpected topic"
        table, kind = where
        if kind == "status":
            return await self._status(table, payload)
        try:
            obj = strictjson.loads(payload)
        except strictjson.JsonError as exc:
            return str(exc)
        if not isinstance(obj, dict):
            return "payload is not a JSON object"
        if kind == "alerts":
            return await self._alert(table, obj)
        if kind == "state":
            return await self._state(table, obj)
        return await self._hand(table, obj)

    async def _reject(self, topic: str, payload: bytes, why: str) -> None:
        self.counts["rejected"] += 1
        excerpt = excerpt_of(payload)
        log.warning("floor: quarantined a message on %s: %s; payload %s", topic[:200], why, excerpt)
        if not await self._store.quarantine(topic=topic[:500], payload=payload, reason=why[:500],
                                            excerpt=excerpt, received=self._clock()):
            self.counts["quarantine_duplicates"] += 1  # a redelivery of one already kept

    async def _alert(self, table: str, alert: dict[str, Any]) -> str | None:
        problem = alert_problem(alert)
        if problem is not None:
            return problem
        if alert.get("table") != table:
            # The topic is what the broker's ACL vouches for; the payload's table must agree with it.
            alert = {**alert, "table": table}
        dealer, received = self.dealer_of_hand(table, alert.get("hand")), self._clock()
        seq = await self._store.add_alert(alert, dealer=dealer, received=received)
        if seq is None:
            self.counts["duplicates"] += 1
            return None
        self.counts["alerts"] += 1
        # What the store would return for it: the payload plus our bookkeeping (a new alert has no ack).
        stored = {**alert, "floor": {"seq": seq, "received": received, "dealer": dealer, "ack": None}}
        self._hub.publish({"type": "alert", "seq": seq, "alert": stored})
        if alert["severity"] in FAULT_SEVERITIES:
            self._bump(table, str(alert["severity"]), +1)
        return None

    def acked(self, table: str, severity: str) -> None:
        """An alert of `table` was acknowledged: one open alert fewer (info alerts never count)."""
        if severity in FAULT_SEVERITIES:
            self._bump(table, severity, -1)

    def _bump(self, table: str, severity: str, delta: int) -> None:
        counts = self._open.setdefault(table, {})
        counts[severity] = max(0, counts.get(severity, 0) + delta)
        if not counts[severity]:
            del counts[severity]
        self._hub.publish({"type": "open", "table": table, "open": dict(counts)})

    async def _state(self, table: str, state: dict[str, Any]) -> str | None:
        clean = public_state(state)
        self._note_dealer(table, state)
        now = self._clock()
        self.counts["state"] += 1
        self._hub.publish({"type": "state", "table": table, "state": clean, "at": now})
        finished = self.timelines.add(table, clean, now)
        if finished is not None:
            await self._store.save_replay(table, finished[0], finished[1], now)
        # States were 97 % of the floor's writes at room size, and each one written in the ingest batch
        # delayed the alerts behind it. The newest state per table is kept here (the pages read it from
        # here, Ingest.tables) and written by the state writer task every STATE_WRITE_S, every changed
        # table in one statement batch; the broker keeps it retained as well, so a crash loses nothing a
        # resubscribe does not bring back.
        self._latest[table] = (clean, now)
        return None

    async def flush_states(self) -> None:
        """Write every state not yet in the store, in one transaction."""
        due = [(t, s, at) for t, (s, at) in self._latest.items() if self._written.get(t) != at]
        if due:
            await self._store.set_states(due)
            for table, _state, at in due:
                self._written[table] = at

    async def run_state_writer(self) -> None:
        """The task that writes the trailing state of a burst (and retries held messages)."""
        while True:
            await asyncio.sleep(STATE_WRITE_S)
            try:
                await self.flush_states()
                await self.retry_held()
            except StoreError as exc:  # the state is kept in memory and written next time
                self.store_error = str(exc)

    async def tables(self) -> list[dict[str, Any]]:
        """The store's tables with the newest state, including one not yet written."""
        rows = {row["table"]: row for row in await self._store.tables()}
        for table, (state, at) in self._latest.items():
            row = rows.get(table)
            if row is None:  # a table that so far only sent states, none written yet
                rows[table] = {"table": table, "status": None, "status_at": None, "state": state,
                               "state_at": at, "open": dict(self._open.get(table, {}))}
            elif (row["state_at"] or 0.0) < at:
                row["state"], row["state_at"] = state, at
        return [rows[t] for t in sorted(rows)]

    async def _status(self, table: str, payload: bytes) -> str | None:
        text = payload.decode("utf-8", "replace").strip().strip('"').lower()
        if text not in ("online", "offline"):
            return "status is not online/offline"
        now = self._clock()
        await self._store.set_status(table, text, now)
        self.counts["status"] += 1
        self._hub.publish({"type": "status", "table": table, "status": text, "at": now})
        return None

    async def _hand(self, table: str, summary: dict[str, Any]) -> str | None:
        hand = summary.get("hand")
        if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int)):
            return "hand summary: 'hand' must be an integer"
        dealer = self.dealer_of_hand(table, hand)
        if await self._store.add_hand(table, summary, dealer=dealer, received=self._clock()):
            self.counts["hands"] += 1
            self._hub.publish({"type": "hand", "table": table, "hand": summary.get("hand")})
        else:
            self.counts["duplicates"] += 1
        return None
