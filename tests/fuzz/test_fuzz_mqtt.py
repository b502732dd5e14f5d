"""Fuzz every MQTT consumer: the floor's ingest (alerts, state, hands, status of any table) and the
daemon's command consumer (cmd/ack). Any payload is taken, quarantined or ignored, never raised, within a
second; a payload the floor refused is in its quarantine (issue #12, item 2)."""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from controller.config import parse_config
from controller.daemon.app import Daemon
from controller.floor.config import StoreConfig
from controller.floor.hub import Hub
from controller.floor.ingest import Ingest
from controller.floor.store import open_store
from tests.floor.publisher import alert, hand_summary, state
from tests.fuzz.common import answered_in_time, fuzz_settings

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30)
JSON = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.text(max_size=10), kids, max_size=5), max_leaves=20)
NASTY = [b"1e400", b"NaN", b"-Infinity", b"9" * 40, b"9" * 5000, b"[" * 100000, b"\xff\xfe\x00", b"", b"{}",
         b'{"street": {}}', b'"online"', b"null", b"[]"]


@st.composite
def mutated_valid(draw: st.DrawFn) -> bytes:
    """A real alert, state or hand summary with one field replaced by anything."""
    body: dict[str, Any] = draw(st.sampled_from([alert("t1", 3, 1, "TURN_PREMATURE"), state("t1", 4),
                                                 hand_summary("t1", 2)]))
    body = dict(body)
    key = draw(st.sampled_from([*sorted(body), "extra"]))
    body[key] = "__X__"
    raw = json.dumps(body).encode()
    value = draw(st.one_of(st.sampled_from(NASTY), JSON.map(lambda v: json.dumps(v).encode())))
    return raw.replace(b'"__X__"', value)


PAYLOADS = st.one_of(st.binary(max_size=300), st.sampled_from(NASTY), mutated_valid(),
                     JSON.map(lambda v: json.dumps(v).encode()))
TOPICS = st.one_of(st.sampled_from([f"cardtable/t1/{k}" for k in ("alerts", "state", "hands", "status")]),
                   st.text(max_size=40))


class FloorIngest:
    """One store and ingest for the whole fuzz run, on a private event loop."""

    def __init__(self, tmp: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.store = open_store(StoreConfig(sqlite=tmp / "floor.sqlite3"))
        self.loop.run_until_complete(self.store.open())
        self.ingest = Ingest(store=self.store, hub=Hub(), prefix="cardtable", dealers={})

    def handle(self, topic: str, payload: bytes) -> None:
        self.loop.run_until_complete(self.ingest.handle(topic, payload))

    def quarantined(self) -> int:
        return int(self.loop.run_until_complete(self.store.quarantined(1))["count"])


@functools.cache
def floor(tmp: str) -> FloorIngest:
    return FloorIngest(Path(tmp))


@fuzz_settings(300)
@given(topic=TOPICS, payload=PAYLOADS)
def test_floor_ingest_takes_or_quarantines_anything(tmp_path_factory: Any, topic: str,
                                                    payload: bytes) -> None:
    f = floor(str(tmp_path_factory.getbasetemp()))
    counts = f.ingest.counts
    before = counts["rejected"] - counts["quarantine_duplicates"] - f.quarantined()
    with answered_in_time("mqtt-floor", (topic, payload[:100])):
        f.handle(topic, payload)
    # every refused message is in the quarantine (once: an identical one is counted as a duplicate)
    assert counts["rejected"] - counts["quarantine_duplicates"] - f.quarantined() == before


def ack_payload(alert_id: Any, by: Any, ruling: Any) -> bytes:
    return json.dumps({"id": alert_id, "by": by, "ruling": ruling}).encode()


@functools.cache
def daemon(tmp: str) -> Daemon:
    cfg = parse_config({"state_dir": str(Path(tmp) / "daemon-state"), "mqtt": {"enabled": False}})
    return Daemon(cfg, publish=False)


@fuzz_settings(300)
@given(name=st.one_of(st.just("ack"), st.text(max_size=20)),
       payload=st.one_of(PAYLOADS, st.builds(ack_payload, JSON, JSON, JSON)))
def test_daemon_command_consumer_never_raises(tmp_path_factory: Any, name: str, payload: bytes) -> None:
    d = daemon(str(tmp_path_factory.getbasetemp()))
    before = d.acks + d.commands_bad
    with answered_in_time("mqtt-daemon", (name, payload[:100])):
        d.on_command(name, payload)
    assert d.acks + d.commands_bad == before + 1  # each command is logged or counted as bad, never lost
