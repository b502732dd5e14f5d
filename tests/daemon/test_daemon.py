"""The daemon end to end on a stand-in engine: outbox → real mosquitto, outages, commands, health alerts."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.config import Config, parse_config
from controller.core.alerts import Alert
from controller.core.engine import Outcome
from controller.core.events import Event, SessionStart
from controller.daemon.app import Daemon, session_token
from controller.daemon.journal import iter_journal
from controller.daemon.outbox import Outbox
from tests.daemon.broker import Broker, Subscriber, free_port
from tests.daemon.fakes import KnockEngine, ListSource, knocks

ROOT = Path(__file__).resolve().parents[2]


def config(tmp: Path, port: int, **extra: Any) -> Config:
    data: dict[str, Any] = {"state_dir": str(tmp / "state"),
                            "mqtt": {"port": port, "backoff_min_s": 0.05, "backoff_max_s": 0.2},
                            "journal": {"fsync_interval_s": 0.05}, "health": {"interval_s": 0.1}}
    for k, v in extra.items():
        data.setdefault(k, {}).update(v) if isinstance(v, dict) else data.__setitem__(k, v)
    return parse_config(data)


def alert_ids(payloads: list[bytes]) -> list[str]:
    return [json.loads(p)["id"] for p in payloads]


def dedup(ids: list[str]) -> list[str]:
    seen: set[str] = set()
    return [i for i in ids if not (i in seen or seen.add(i))]  # type: ignore[func-returns-value]


async def run_until(daemon: Daemon, sources: list[Any], done: Callable[[], bool], timeout: float = 20,
                    during: Callable[[], Any] | None = None) -> None:
    stop = asyncio.Event()

    async def watch() -> None:
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            if during is not None:
                await during()
            await asyncio.sleep(0.02)
        stop.set()

    async with asyncio.TaskGroup() as tg:
        tg.create_task(daemon.run(sources, stop=stop))
        tg.create_task(watch())


def test_alerts_state_status_reach_the_broker_in_order(tmp_path: Path, broker: Broker) -> None:
    sub = Subscriber(broker.port, ["cardtable/t1/#"])
    events = knocks(60)
    daemon = Daemon(config(tmp_path, broker.port), engine=KnockEngine())
    def done() -> bool:
        healthy = [json.loads(h) for h in sub.on("/health")]
        return len(sub.on("/alerts")) >= 60 and any(h["journal"]["events"] == 73 for h in healthy)

    asyncio.run(run_until(daemon, [ListSource(events)], done))
    # The graceful stop's "offline" comes last; on a loaded machine the subscriber's thread may need
    # more than a moment to see it (a fixed 0.2 s sleep failed there).
    deadline = time.monotonic() + 10
    while sub.on("/status")[-1:] != [b"offline"] and time.monotonic() < deadline:
        time.sleep(0.05)
    ids = alert_ids(sub.on("/alerts"))
    assert ids == [f"t1-h{h}-{n}" for h in range(1, 13) for n in range(1, 6)]
    assert dedup(ids) == ids  # no broker outage: not even duplicates
    hands = [json.loads(p)["hand"] for p in sub.on("/alerts")]
    assert hands == sorted(hands)
    assert sub.on("/status")[-1] == b"offline"  # graceful stop says so
    state = json.loads(sub.on("/state")[-1])  # its `stream.last` names the last sequenced message
    assert state.pop("stream")["last"] == 60 and state == {"hand": 12, "events": 72}
    health = json.loads(sub.on("/health")[-1])  # the extension topic: every component's statistics()
    # 72 table events after the `session` line that opens every new journal
    assert health["journal"]["events"] == 73 and health["core"]["alerts"] == 60 and "mqtt" in health
    assert Outbox(tmp_path / "state" / "outbox.sqlite3").pending_count() == 0
    sub.close()
    # The journal holds every event, in order, before the outbox saw its outcomes.
    journal = list(iter_journal(daemon.session.path))
    assert journal[0] == SessionStart(t=0.0, id=session_token(daemon.session.name, "t1"), source="daemon")
    assert journal[1:] == events


def test_without_broker_records_then_delivers_backlog_in_order(tmp_path: Path) -> None:
    port = free_port()  # nobody listens yet
    events = knocks(30)
    daemon = Daemon(config(tmp_path, port), engine=KnockEngine())
    src = ListSource(events)
    asyncio.run(run_until(daemon, [src], lambda: src.done.is_set() and daemon.events >= 30, timeout=10))
    assert daemon.events == len(events)
    assert daemon.publisher is not None and daemon.publisher.failures >= 1
    # Start a broker on that port; a new daemon run resumes the session and drains the backlog.
    bdir = tmp_path / "broker"
    bdir.mkdir()
    broker = Broker(bdir, port=port)
    broker.start()
    try:
        sub = Subscriber(port, ["cardtable/t1/alerts"])
        d2 = Daemon(config(tmp_path, port), engine=KnockEngine())
        assert d2.recovered == len(events)
        asyncio.run(run_until(d2, [], lambda: len(sub.on("/alerts")) >= 30))
        expected = [f"t1-h{h}-{n}" for h in range(1, 7) for n in range(1, 6)]
        assert dedup(alert_ids(sub.on("/alerts"))) == expected
        sub.close()
    finally:
        broker.stop()


def test_broker_outage_mid_run_loses_nothing(tmp_path: Path, broker: Broker) -> None:
    sub = Subscriber(broker.port, ["cardtable/t1/alerts"])
    events = knocks(150)
    daemon = Daemon(config(tmp_path, broker.port), engine=KnockEngine())
    src = ListSource(events, gap_s=0.01)
    state = {"stopped": False, "restarted": False, "t": 0.0}

    async def outage() -> None:
        if not state["stopped"] and daemon.events > 60:
            broker.stop()
            state.update(stopped=True, t=time.monotonic())
        elif state["stopped"] and not state["restarted"] and time.monotonic() - state["t"] > 2.0:
            await asyncio.to_thread(broker.start)
            state["restarted"] = True

    asyncio.run(run_until(daemon, [src], lambda: len(set(alert_ids(sub.on("/alerts")))) >= 150,
                          timeout=40, during=outage))
    assert state["restarted"]
    assert daemon.events == len(events)  # recording went on while the broker was away
    ids = dedup(alert_ids(sub.on("/alerts")))
    assert ids == [f"t1-h{h}-{n}" for h in range(1, 31) for n in range(1, 6)]
    sub.close()


def test_cmd_ack_goes_to_the_ack_log(tmp_path: Path, broker: Broker) -> None:
    daemon = Daemon(config(tmp_path, broker.port), engine=KnockEngine())
    import paho.mqtt.publish as publish

    async def send() -> None:
        if daemon.publisher and daemon.publisher.connected and not sent:
            sent.append(1)
            await asyncio.sleep(0.1)
            await asyncio.to_thread(publish.single, "cardtable/t1/cmd/ack",
                                    json.dumps({"id": "t1-h1-1", "by": "floor1", "ruling": "ok"}), qos=1,
                                    hostname="127.0.0.1", port=broker.port)
            await asyncio.to_thread(publish.single, "cardtable/t1/cmd/ack", "not json", qos=1,
                                    hostname="127.0.0.1", port=broker.port)

    sent: list[int] = []
    asyncio.run(run_until(daemon, [], lambda: daemon.acks >= 1 and daemon.commands_bad >= 1, during=send))
    lines = (tmp_path / "state" / "acks.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])
    assert (rec["id"], rec["by"], rec["ruling"]) == ("t1-h1-1", "floor1", "ok")
    assert daemon.commands_bad == 1


def _health_alerts(daemon: Daemon) -> list[Alert]:
    got: list[Alert] = []

    def obs(_e: Event | None, outs: list[Outcome]) -> None:
        got.extend(o for o in outs if isinstance(o, Alert) and o.code == "HEALTH")

    daemon.observers.append(obs)
    return got


def test_missing_serial_device_is_a_health_alert(tmp_path: Path) -> None:
    cfg = config(tmp_path, free_port(), mqtt={"enabled": False},
                 hubs=[{"name": "hub0", "device": str(tmp_path / "ttyACM9"), "readers": {0: "seat1"}}])
    daemon = Daemon(cfg, engine=KnockEngine())
    got = _health_alerts(daemon)
    asyncio.run(run_until(daemon, [], lambda: bool(got), timeout=5))
    assert len(got) == 1 and f"device {tmp_path}/ttyACM9 is missing" in got[0].message
    assert got[0].severity == "warning" and got[0].id.startswith("t1-health-")
    # It waits in the outbox for the broker like every alert.
    pending = Outbox(tmp_path / "state" / "outbox.sqlite3").pending()
    assert [r.key for r in pending if r.topic == "alerts"] == [f"alert:{got[0].id}"]


def test_broker_refusing_credentials_is_a_health_alert(tmp_path: Path) -> None:
    bdir = tmp_path / "broker"
    bdir.mkdir()
    broker = Broker(bdir, passwords={"t1": "right"})
    broker.start()
    creds = tmp_path / "creds"
    creds.write_text("t1:wrong\n")
    try:
        daemon = Daemon(config(tmp_path, broker.port, mqtt={"credentials_file": str(creds)}),
                        engine=KnockEngine())
        got = _health_alerts(daemon)
        src = ListSource(knocks(5))
        asyncio.run(run_until(daemon, [src], lambda: bool(got) and daemon.events >= 5, timeout=10))
        assert len(got) == 1 and "refused the credentials" in got[0].message
        assert daemon.events == 6  # still recording
    finally:
        broker.stop()


def test_crash_between_journal_and_outbox_recovers_the_owed_outcomes(tmp_path: Path) -> None:
    cfg = config(tmp_path, free_port(), mqtt={"enabled": False})
    events = knocks(20)
    d1 = Daemon(cfg, engine=KnockEngine())
    for e in events[:15]:
        d1.process(e)
    for e in events[15:]:  # journaled, then the process died before the outbox transaction
        d1.journal.append(e)
    d1.journal.close()
    d1.outbox.close()
    d2 = Daemon(cfg, engine=KnockEngine())
    assert d2.recovered == len(events)
    assert d2.engine.hand == 4 and d2.engine.events == len(events)  # the live hand resumed exactly
    keys = [r.key for r in d2.outbox.pending(1000) if r.topic == "alerts"]
    assert keys == [f"alert:t1-h{h}-{n}" for h in range(1, 5) for n in range(1, 6)]  # each once, in order
    d2.journal.close()
    d2.outbox.close()
    d3 = Daemon(cfg, engine=KnockEngine())  # a second restart owes nothing more
    assert [r.key for r in d3.outbox.pending(1000) if r.topic == "alerts"] == keys
    d3.journal.close()
    d3.outbox.close()


def test_core_exception_is_contained_as_a_health_alert(tmp_path: Path) -> None:
    class Exploding(KnockEngine):
        def feed(self, event: Event) -> list[Outcome]:
            if self.events == 3:
                self.events += 1
                raise RuntimeError("bug")
            return super().feed(event)

    d = Daemon(config(tmp_path, free_port(), mqtt={"enabled": False}), engine=Exploding())
    got = _health_alerts(d)
    for e in knocks(5):
        d.process(e)
    assert d.core_failures == 1 and len(got) == 1 and "RuntimeError: bug" in got[0].message
    assert d.events == 6  # it kept going
    d.journal.close()
    d.outbox.close()


def test_end_session_publishes_the_last_hand_once_even_if_the_session_resumes(tmp_path: Path) -> None:
    """simulate ends its run with end_session(): the last hand's summary goes out then, not at a next
    hand_start. If that session is resumed later, the hand_start that closes the hand again must not
    publish a second summary for it (the outbox key is session + hand)."""
    from controller.core.eventlog import parse_line
    from controller.core.events import HandStart

    lines = (ROOT / "config" / "examples" / "basic.jsonl").read_text().splitlines()
    events = [parse_line(text, line=i) for i, text in enumerate(lines, start=1) if text.strip()]
    cfg = config(tmp_path, 1)

    def hands_topic(outbox: Outbox) -> list[int]:
        return [json.loads(r.payload)["hand"] for r in outbox.pending(10_000) if r.topic == "hands"]

    first = Daemon(cfg, publish=False)
    for ev in events:
        first.process(ev)
    assert hands_topic(first.outbox) == []  # the hand is still open: nothing has closed it
    first.end_session()
    assert hands_topic(first.outbox) == [1]
    first.journal.close()
    first.outbox.close()

    resumed = Daemon(cfg, publish=False)  # same state dir: the session resumes from its journal
    assert resumed.recovered == len(events) + 1  # the session_end is in the journal
    resumed.process(HandStart(t=events[-1].t + 5))
    assert hands_topic(resumed.outbox) == [1]
