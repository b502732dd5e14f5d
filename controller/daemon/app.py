"""The composition root: one asyncio.TaskGroup running sources, rules core, journal, outbox, MQTT and health.

Data path per event (all on the event-loop thread, in this order):
  source → emit() → queue → core task: clamp `t` → journal.append (written before the core sees it)
  → Engine.feed → outbox.record(outcomes + state, "event n processed") in one SQLite transaction
  → publisher wakes and sends in outbox order.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.aio import cancel_firmly
from controller.config import Config, load_deck
from controller.core import strictjson
from controller.core.alerts import Alert
from controller.core.engine import Engine, HandSummary, Outcome
from controller.core.events import DeckEvent, Event, SessionEnd, SessionStart
from controller.daemon import sdnotify
from controller.daemon.health import Health
from controller.daemon.journal import Journal, Session, SessionClock, open_session
from controller.daemon.outbox import Message, Outbox
from controller.daemon.publisher import Publisher, check_tls_files, read_credentials
from controller.daemon.sequence import Resender, Sequencer
from controller.daemon.sources import check_sources
from controller.errors import UsageError
from controller.hardware import signal as dealer_signal
from controller.hardware.base import Source

log = logging.getLogger("cardtable.daemon")

# A full disk: what is held in memory at most, and how often the writes are retried.
SPOOL_EVENTS = 100_000  # journal lines (a long night's events)
SPOOL_BATCHES = 100_000  # outbox transactions (one per event)
SPOOL_RETRY_S = 1.0

Observer = Callable[[Event | None, list[Outcome]], None]  # (event or None for health, its outcomes)


class _Stop(Exception):
    """Raised inside the task group to end it after a graceful stop was requested."""


def alert_message(alert: Alert, epoch: float) -> Message:
    """The published alert: the contract's fields plus `ts`, the absolute time (ISO 8601, UTC) of `t`,
    which counts seconds from the session's epoch (docs/interfaces.md, "Alert time")."""
    body = {**alert.to_json(), "ts": iso_utc(epoch + alert.t)}
    return Message(key=f"alert:{alert.id}", topic="alerts",
                   payload=strictjson.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


def iso_utc(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def hand_message(table: str, session: str, summary: HandSummary) -> Message:
    body = {"type": "hand", "table": table, "hand": summary.hand, "t": summary.t, **summary.payload}
    # One summary per hand of a session: a hand settled at the end of a run (end_session) and again by the
    # next hand_start after that session is resumed goes out once.
    return Message(key=f"hand:{session}:{summary.hand}", topic="hands",
                   payload=strictjson.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


def session_token(name: str, table: str) -> str:
    """The session's part of alert ids: its name without the table prefix (`t1-20261125-105200` →
    `20261125-105200`), so ids read `t1-20261125-105200-h3-1`."""
    return name.removeprefix(f"{table}-") or name


def preflight(cfg: Config) -> None:
    """What `cardtable run` checks before it starts, done without starting (`run --check`): the profile's
    overrides, deck files, credentials and TLS files, the state dir, and the adapters the config names.
    Raises UsageError with one clear line; a config `--check` calls OK is one `run` accepts."""
    cfg.table.rule_profile()
    for path in cfg.decks:
        load_deck(path)
    if cfg.mqtt.enabled:
        if cfg.mqtt.credentials_file:
            read_credentials(cfg.mqtt.credentials_file)
        check_tls_files(cfg.mqtt)
    _check_state_dir(cfg.state_dir)
    check_sources(cfg)


def _check_state_dir(path: Path) -> None:
    """The state dir exists as a writable directory, or can be created (its nearest existing ancestor is
    a writable directory)."""
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise UsageError(f"state_dir {path}: {probe} is not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        what = "is not writable" if probe == path else f"cannot be created ({probe} is not writable)"
        raise UsageError(f"state_dir {path}: {what}")


class Daemon:
    """One table's controller. Construct (opens and replays the session), then `await run(sources)`."""

    def __init__(self, cfg: Config, *, new_session: bool = False, publish: bool | None = None,
                 journal_path: Path | None = None, engine: Any = None) -> None:
        self.cfg = cfg
        table = cfg.table
        self.profile = table.rule_profile()
        # The table's game (`[table] game`) for levels that name none: the journal's replay after a restart
        # and `cardtable replay --config` take it from the same config (docs/daemon.md).
        self.table_game = table.table_game()
        # `engine` lets transport tests substitute a stand-in; anything with Engine's public face works.
        self.engine: Engine = engine if engine is not None else Engine(table=table.id, profile=self.profile,
                                                                       game=self.table_game)
        state_dir = cfg.state_dir
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise UsageError(f"state_dir {state_dir}: exists and is not a directory") from None
        except OSError as exc:
            raise UsageError(f"state_dir {state_dir}: cannot create it: {exc.strerror or exc}") from None
        self.session: Session = open_session(state_dir, table.id, new=new_session)
        if journal_path is not None:  # simulate --log FILE: the journal goes where the user asked
            self.session = dataclasses.replace(self.session, path=journal_path)
        self.journal = Journal(self.session.path, fsync_interval_s=cfg.journal.fsync_interval_s)
        self.outbox = Outbox(state_dir / "outbox.sqlite3", retention_s=cfg.outbox.retention_h * 3600)
        self.sequencer = Sequencer(self.outbox, self.session.name)  # numbers alerts and hands per session
        self.resender = Resender(self.outbox)  # answers the floor's cmd/resend from the outbox
        self.ack_log = state_dir / "acks.jsonl"
        self.clock = SessionClock(self.session.epoch)
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.observers: list[Observer] = []
        self.on_ack: list[Callable[[str], None]] = []  # alert ids the floor ruled on (the dealer signal)
        self.health = Health(table=table.id, raise_alert=self.raise_health, clock=self.clock,
                             hand=lambda: self.engine.hand, interval_s=cfg.health.interval_s)
        self.health.components.update({"stream": self.sequencer, "resend": self.resender})  # heartbeat
        self.publisher: Publisher | None = None
        if cfg.mqtt.enabled if publish is None else publish:
            creds = read_credentials(cfg.mqtt.credentials_file) if cfg.mqtt.credentials_file else None
            check_tls_files(cfg.mqtt)
            self.publisher = Publisher(
                cfg.mqtt, table=table.id, outbox=self.outbox, on_command=self.on_command,
                on_auth_failure=lambda msg: self.health.problem("mqtt:auth", msg),
                on_connected=lambda: self.health.resolved("mqtt:auth"), credentials=creds)
            self.health.on_snapshot = self._offer_health
        self.events = 0
        self.alerts = 0
        self.recovered = 0
        self.max_core_ms = 0.0
        self.commands_bad = 0
        self.core_failures = 0
        self.acks = 0
        self.acks_unlogged = 0
        self._unjournaled: deque[Event] = deque()  # fed to the core, not yet journaled (disk full)
        self._unrecorded: deque[tuple[list[Message], str | None, int]] = deque()  # not yet in the outbox
        self.spool_lost = 0  # dropped from memory past the bound (only while a disk stays full)
        self.spool_error = ""  # why the last retry failed
        self._last_state = b""
        self.decks = [load_deck(p) for p in cfg.decks]  # bad deck files fail now, with one line
        self.signal = dealer_signal.attach(self)  # the dealer's LED and buzzer, when [signal] is configured
        self._recover()

    # --- start-up -------------------------------------------------------------------------------------
    def _recover(self) -> None:
        """Replay the session's journal: the engine resumes the live hand; missing outcomes are enqueued."""
        events = self.journal.recover()
        done = self.outbox.processed(self.session.name)
        for seq, event in enumerate(events, start=1):
            outcomes = self._feed(seq, event)
            if seq > done:  # crashed between journal write and outbox commit: owe these outcomes
                self._record(seq, outcomes)
        # `recovered` counts table events (simulate skips that many of its script on a resume).
        self.recovered = sum(not isinstance(e, SessionStart) for e in events)
        self.events = self.recovered
        self.clock.floor = self.journal.last_t
        self._record(len(events), [])  # publish the resumed state
        if not events:  # a new session: its journal starts by naming it, which scopes its alert ids
            token = session_token(self.session.name, self.cfg.table.id)
            start = SessionStart(t=0.0, id=token, source="daemon")
            seq = self._journal(start)
            self._record(seq, self._feed(seq, start))
        if events:
            log.info("resumed session %s: %d events replayed, hand %d", self.session.name, len(events),
                     self.engine.hand)
        enrolled = {(e.id, tuple(sorted(e.cards.items()))) for e in events if isinstance(e, DeckEvent)}
        for deck_id, cards in self.decks:
            if (deck_id, tuple(sorted(cards.items()))) not in enrolled:
                self.emit(DeckEvent(t=self.clock(), id=deck_id, cards=cards, source="config"))

    # --- the core path --------------------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        """Sources hand events in here (event-loop thread only)."""
        self.queue.put_nowait(event)

    def process(self, event: Event) -> list[Outcome]:
        """Journal one event, feed it to the engine and store the outcomes in the outbox."""
        start = time.perf_counter()
        last_t = self._unjournaled[-1].t if self._unjournaled else self.journal.last_t
        if event.t < last_t:
            # Sources stamp events themselves; one stamped earlier but delivered later must not make the
            # journal go backwards (replay refuses that). Its time becomes the latest time seen.
            event = dataclasses.replace(event, t=last_t)
        seq = self._journal(event)
        outcomes = self._feed(seq, event)
        self.events += 1
        self._record(seq, outcomes)
        self.max_core_ms = max(self.max_core_ms, (time.perf_counter() - start) * 1000)
        for obs in self.observers:
            obs(event, outcomes)
        return outcomes

    # --- a full disk: keep following the table, hold what could not be written, write it when it can ------
    def _journal(self, event: Event) -> int:
        """Journal an event; on a full disk keep it in memory (in order) for the spool task to write."""
        if not self._unjournaled:
            try:
                return self.journal.append(event)
            except OSError as exc:
                self._disk_full("journal", exc)
        if len(self._unjournaled) >= SPOOL_EVENTS:
            self._unjournaled.popleft()
            self.spool_lost += 1
        self._unjournaled.append(event)
        return self.journal.seq + len(self._unjournaled)

    def _store(self, msgs: list[Message], session: str | None = None, event_seq: int = 0) -> None:
        """Store messages in the outbox; on a full disk keep them in memory (in order, up to SPOOL_BATCHES)
        and hand them to the publisher meanwhile: sent now, sent again once stored (receivers drop the
        second copy by alert id), lost only if the daemon dies before the disk has room again."""
        if not self._unrecorded:
            try:
                self.outbox.record(msgs, session=session, event_seq=event_seq)
                return
            except (sqlite3.Error, OSError) as exc:
                self._unrecorded.append((msgs, session, event_seq))
                self._disk_full("outbox", exc)
                if self.publisher is not None:
                    self.publisher.offer_volatile(msgs)
                return
        if len(self._unrecorded) >= SPOOL_BATCHES:
            self._unrecorded.popleft()
            self.spool_lost += 1
        self._unrecorded.append((msgs, session, event_seq))
        if self.publisher is not None:
            self.publisher.offer_volatile(msgs)

    def _disk_full(self, what: str, exc: Exception) -> None:
        log.error("%s write failed (%s); holding in memory and retrying", what, exc)
        self.health.problem(f"disk:{what}", f"cannot write the {what} ({exc}): disk full? Alerts are held "
                                            f"in memory (up to {SPOOL_BATCHES} batches) and written when "
                                            "there is room again")

    def flush_spool(self) -> bool:
        """Write what a full disk refused, oldest first; True when nothing is left in memory."""
        while self._unjournaled:
            try:
                self.journal.append(self._unjournaled[0])
            except OSError as exc:
                self.spool_error = str(exc)
                break
            self._unjournaled.popleft()
        if not self._unjournaled:
            self.health.resolved("disk:journal")
        while self._unrecorded:
            msgs, session, seq = self._unrecorded[0]
            try:
                self.outbox.record(msgs, session=session, event_seq=seq)
            except (sqlite3.Error, OSError) as exc:
                self.spool_error = str(exc)
                break
            self._unrecorded.popleft()
        if not self._unrecorded:
            self.health.resolved("disk:outbox")
        return not (self._unjournaled or self._unrecorded)

    async def _spool(self) -> None:
        """The spool task: retry the writes a full disk refused, every SPOOL_RETRY_S."""
        while True:
            await asyncio.sleep(SPOOL_RETRY_S)
            if self._unjournaled or self._unrecorded:
                self.flush_spool()

    def _feed(self, seq: int, event: Event) -> list[Outcome]:
        """Engine.feed, with a bug in the core contained: a crash loop (the replay after a restart would
        hit the same event) is worse than a table that keeps recording and says the core failed."""
        try:
            return self.engine.feed(event)
        except Exception as exc:
            self.core_failures += 1
            log.exception("rules core failed on journal event %d (%s)", seq, event.TYPE)
            self.health.problem(f"core:{seq}", f"rules core failed on event {seq} ({event.TYPE}): "
                                               f"{type(exc).__name__}: {exc}")
            return []

    def _record(self, seq: int, outcomes: list[Outcome]) -> None:
        msgs = []
        for out in outcomes:
            if isinstance(out, Alert):
                self.alerts += 1
                msgs.append(alert_message(out, self.session.epoch))
            elif isinstance(out, HandSummary):
                msgs.append(hand_message(self.cfg.table.id, self.session.name, out))
        try:
            public = self.engine.public_state()
        except Exception:  # same containment as _feed; the last good state stays published
            log.exception("rules core failed to report its public state")
            public = None
        state = self._last_state if public is None else \
            strictjson.dumps(public, separators=(",", ":"), ensure_ascii=False).encode()
        if state != self._last_state:
            self._last_state = state
            # QoS 0: the latest state wins; it must not queue up in front of alerts (docs/room.md)
            msgs.append(Message(key="state", topic="state", payload=state, qos=0, retain=True))
        self._store(msgs, session=self.session.name, event_seq=seq)

    def end_session(self) -> list[Outcome]:
        """The run is over (simulate played its last hand): journal a `session_end`, which settles the last
        hand now and publishes its summary and findings instead of at a next hand_start that never comes;
        a replay of the journal gives the same. Not for a daemon being restarted: its hand goes on after."""
        self._drain_queue()
        return self.process(SessionEnd(t=self.clock(), source="daemon"))

    def _drain_queue(self) -> None:
        """Journal and process what the sources already reported (before a stop or a session end)."""
        while not self.queue.empty():
            self.process(self.queue.get_nowait())

    def _offer_health(self, snap: dict[str, Any]) -> None:
        try:
            body = strictjson.dumps({"t": self.clock(), **snap}, separators=(",", ":"), default=str)
        except ValueError as exc:  # a NaN in some statistics(): skip this snapshot rather than send bad JSON
            log.warning("health snapshot not sent: %s", exc)
            return
        if self.publisher is not None:
            self.publisher.offer_health(body.encode())

    def raise_health(self, alert: Alert) -> None:
        self._store([alert_message(alert, self.session.epoch)])
        for obs in self.observers:
            obs(None, [alert])

    # --- commands from the floor ----------------------------------------------------------------------
    def on_command(self, name: str, payload: bytes) -> None:
        """`cmd/ack` goes to the session's ack log (acks.jsonl); not to the journal, which holds table
        events only and must stay replayable by `cardtable replay`."""
        if name == "resend":
            self.resender.handle(payload)
            return
        try:
            if name != "ack":
                raise ValueError(f"unknown command {name[:40]!r}")
            body = strictjson.loads(payload)  # no NaN, Infinity, huge numbers, bad UTF-8
            if not isinstance(body, dict) or not isinstance(body.get("id"), str) or not body["id"]:
                raise ValueError("expected an object with a string 'id'")
            if any(not isinstance(body.get(k), str | None) for k in ("by", "ruling")):
                raise ValueError("'by' and 'ruling' must be strings")
        except ValueError as exc:  # JsonError is a ValueError
            self.commands_bad += 1
            log.warning("cmd/%s ignored: %s; payload %r", name[:40], exc, payload[:120])
            return
        record = {"t": self.clock(), "session": self.session.name, "id": body["id"],
                  "by": body.get("by"), "ruling": body.get("ruling")}
        try:
            with self.ack_log.open("a", encoding="utf-8") as fh:
                fh.write(strictjson.dumps(record, ensure_ascii=False) + "\n")
        except OSError as exc:  # a full disk loses this ack's log line, never the daemon
            self.acks_unlogged += 1
            log.error("cmd/ack %s not logged in %s: %s", body["id"][:80], self.ack_log, exc.strerror or exc)
            return
        self.acks += 1
        for ruled in self.on_ack:
            ruled(body["id"])

    # --- tasks ----------------------------------------------------------------------------------------
    async def _core(self) -> None:
        while True:
            self.process(await self.queue.get())

    async def _stopper(self, stop: asyncio.Event) -> None:
        await stop.wait()
        self._drain_queue()
        raise _Stop

    async def run(self, sources: Sequence[Source] = (), *, stop: asyncio.Event | None = None) -> None:
        """Run until `stop` is set (or a task fails: the exception propagates, systemd restarts us)."""
        stop = stop or asyncio.Event()
        self.health.components.update({"core": self, "journal": self.journal, "outbox": self.outbox})
        for src in sources:
            self.health.components[f"source:{src.name}"] = src
        if self.publisher:
            self.health.components["mqtt"] = self.publisher
        for hub in self.cfg.hubs:
            self.health.watch_device(f"reader hub {hub.name}", Path(hub.device))
        try:
            async with asyncio.TaskGroup() as tg:
                # cancel_firmly: a task that swallows the group's one cancellation must not block stop
                for src in sources:
                    tg.create_task(cancel_firmly(src.run(self.emit)), name=f"source:{src.name}")
                tg.create_task(cancel_firmly(self._core()), name="core")
                tg.create_task(cancel_firmly(self.journal.run()), name="journal")
                tg.create_task(cancel_firmly(self.outbox.run()), name="outbox")
                tg.create_task(cancel_firmly(self.health.run()), name="health")
                tg.create_task(cancel_firmly(self._spool()), name="spool")
                if self.publisher:
                    tg.create_task(cancel_firmly(self.publisher.run()), name="mqtt")
                # READY before the broker connects: the table records without a broker.
                sdnotify.notify(f"READY=1\nSTATUS=recording session {self.session.name}")
                tg.create_task(self._stopper(stop), name="stop")
        except* _Stop:
            pass
        finally:
            sdnotify.notify("STOPPING=1")
            if not self.flush_spool():
                log.error("stopping with %d events not journaled and %d outbox writes not stored: the disk "
                          "is still full", len(self._unjournaled), len(self._unrecorded))
            self.journal.close()
            self.outbox.close()

    def statistics(self) -> dict[str, Any]:
        return {"events": self.events, "alerts": self.alerts, "hand": self.engine.hand,
                "queue": self.queue.qsize(), "recovered_events": self.recovered,
                "max_core_ms": round(self.max_core_ms, 3), "acks": self.acks,
                "core_failures": self.core_failures, "acks_unlogged": self.acks_unlogged,
                "spool_events": len(self._unjournaled), "spool_batches": len(self._unrecorded),
                "spool_lost": self.spool_lost, "spool_error": self.spool_error,
                "bad_commands": self.commands_bad, **{f"engine_{k}": v for k, v in
                                                      self.engine.statistics().items()}}
