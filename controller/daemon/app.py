"""The composition root: one asyncio.TaskGroup running sources, rules core, journal, outbox, MQTT and health.

Data path per event (all on the event-loop thread, in this order):
  source → emit() → queue → core task: clamp `t` → journal.append (written before the core sees it)
  → Engine.feed → outbox.record(outcomes + state, "event n processed") in one SQLite transaction
  → publisher wakes and sends in outbox order.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from controller.aio import cancel_firmly
from controller.config import Config, load_deck
from controller.core.alerts import Alert
from controller.core.engine import Engine, HandSummary, Outcome
from controller.core.events import DeckEvent, Event, SessionEnd
from controller.core.profiles import PROFILES, with_overrides
from controller.daemon import sdnotify
from controller.daemon.health import Health
from controller.daemon.journal import Journal, Session, SessionClock, open_session
from controller.daemon.outbox import Message, Outbox
from controller.daemon.publisher import Publisher, check_tls_files, read_credentials
from controller.daemon.sequence import Resender, Sequencer
from controller.hardware.base import Source

log = logging.getLogger("cardtable.daemon")

Observer = Callable[[Event | None, list[Outcome]], None]  # (event or None for health, its outcomes)


class _Stop(Exception):
    """Raised inside the task group to end it after a graceful stop was requested."""


def alert_message(alert: Alert) -> Message:
    return Message(key=f"alert:{alert.id}", topic="alerts", payload=alert.dumps().encode())


def hand_message(table: str, session: str, summary: HandSummary) -> Message:
    body = {"type": "hand", "table": table, "hand": summary.hand, "t": summary.t, **summary.payload}
    # One summary per hand of a session: a hand settled at the end of a run (end_session) and again by the
    # next hand_start after that session is resumed goes out once.
    return Message(key=f"hand:{session}:{summary.hand}", topic="hands",
                   payload=json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


class Daemon:
    """One table's controller. Construct (opens and replays the session), then `await run(sources)`."""

    def __init__(self, cfg: Config, *, new_session: bool = False, publish: bool | None = None,
                 journal_path: Path | None = None, engine: Any = None) -> None:
        self.cfg = cfg
        table = cfg.table
        overrides = {k: getattr(table, k) for k in ("knock_pause_s", "action_time_s", "all_in_time_s",
                                                    "clock_s") if getattr(table, k) is not None}
        self.profile = with_overrides(PROFILES[table.profile], **overrides)
        # `engine` lets transport tests substitute a stand-in; anything with Engine's public face works.
        self.engine: Engine = engine if engine is not None else Engine(table=table.id, profile=self.profile)
        state_dir = cfg.state_dir
        state_dir.mkdir(parents=True, exist_ok=True)
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
            publisher = self.publisher
            self.health.on_snapshot = lambda snap: publisher.offer_health(
                json.dumps({"t": self.clock(), **snap}, separators=(",", ":"), default=str).encode())
        self.events = 0
        self.alerts = 0
        self.recovered = 0
        self.max_core_ms = 0.0
        self.commands_bad = 0
        self.core_failures = 0
        self.acks = 0
        self._last_state = b""
        self.decks = [load_deck(p) for p in cfg.decks]  # bad deck files fail now, with one line
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
        self.recovered = len(events)
        self.events = len(events)
        self.clock.floor = self.journal.last_t
        self._record(len(events), [])  # publish the resumed state
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
        if event.t < self.journal.last_t:
            # Sources stamp events themselves; one stamped earlier but delivered later must not make the
            # journal go backwards (replay refuses that). Its time becomes the latest time seen.
            event = dataclasses.replace(event, t=self.journal.last_t)
        seq = self.journal.append(event)
        outcomes = self._feed(seq, event)
        self.events += 1
        self._record(seq, outcomes)
        self.max_core_ms = max(self.max_core_ms, (time.perf_counter() - start) * 1000)
        for obs in self.observers:
            obs(event, outcomes)
        return outcomes

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
                msgs.append(alert_message(out))
            elif isinstance(out, HandSummary):
                msgs.append(hand_message(self.cfg.table.id, self.session.name, out))
        try:
            public = self.engine.public_state()
        except Exception:  # same containment as _feed; the last good state stays published
            log.exception("rules core failed to report its public state")
            public = None
        state = self._last_state if public is None else \
            json.dumps(public, separators=(",", ":"), ensure_ascii=False).encode()
        if state != self._last_state:
            self._last_state = state
            # QoS 0: the latest state wins; it must not queue up in front of alerts (docs/room.md)
            msgs.append(Message(key="state", topic="state", payload=state, qos=0, retain=True))
        self.outbox.record(msgs, session=self.session.name, event_seq=seq)

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

    def raise_health(self, alert: Alert) -> None:
        self.outbox.record([alert_message(alert)])
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
            body = json.loads(payload)
            if name != "ack":
                raise ValueError(f"unknown command {name!r}")
            if not isinstance(body, dict) or not isinstance(body.get("id"), str):
                raise ValueError("expected an object with a string 'id'")
        except ValueError as exc:  # JSONDecodeError is a ValueError
            self.commands_bad += 1
            log.warning("cmd/%s ignored: %s", name, exc)
            return
        record = {"t": self.clock(), "session": self.session.name, "id": body["id"],
                  "by": body.get("by"), "ruling": body.get("ruling")}
        with self.ack_log.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.acks += 1

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
                if self.publisher:
                    tg.create_task(cancel_firmly(self.publisher.run()), name="mqtt")
                # READY before the broker connects: the table records without a broker.
                sdnotify.notify(f"READY=1\nSTATUS=recording session {self.session.name}")
                tg.create_task(self._stopper(stop), name="stop")
        except* _Stop:
            pass
        finally:
            sdnotify.notify("STOPPING=1")
            self.journal.close()
            self.outbox.close()

    def statistics(self) -> dict[str, Any]:
        return {"events": self.events, "alerts": self.alerts, "hand": self.engine.hand,
                "queue": self.queue.qsize(), "recovered_events": self.recovered,
                "max_core_ms": round(self.max_core_ms, 3), "acks": self.acks,
                "core_failures": self.core_failures,
                "bad_commands": self.commands_bad, **{f"engine_{k}": v for k, v in
                                                      self.engine.statistics().items()}}
