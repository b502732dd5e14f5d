"""Poison messages and non-finite numbers at the floor's edge (issue #12, items 2 and 3).

Each bad message is logged, kept in the quarantine table, counted, acknowledged and skipped; the floor
keeps taking the good messages after it, also across a restart (the broker does not redeliver it)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from controller.floor.config import StoreConfig
from controller.floor.hub import Hub
from controller.floor.ingest import Ingest
from controller.floor.store import open_store
from tests.floor.broker import USERS, Broker
from tests.floor.conftest import make_config
from tests.floor.harness import LoopThread
from tests.floor.publisher import alert, hand_summary
from tests.floor.test_e2e import _start_service, _stop_service


def _alert_bytes(**changes: Any) -> bytes:
    body = json.dumps({**alert("t1", 3, 1, "TURN_PREMATURE"), **changes})
    return body.encode()


POISON: dict[str, tuple[str, bytes]] = {
    "empty street object": ("alerts", _alert_bytes(street={})),
    "hand 1e400": ("alerts", _alert_bytes().replace(b'"hand": 3', b'"hand": 1e400')),
    "t 1e999": ("alerts", _alert_bytes().replace(b'"t": ', b'"t": 1e999, "x": ')),
    "NaN": ("alerts", _alert_bytes().replace(b'"hand": 3', b'"hand": NaN')),
    "huge integer": ("alerts", _alert_bytes().replace(b'"hand": 3', b'"hand": ' + b"9" * 40)),
    "5000-digit integer": ("hands", b'{"hand": ' + b"7" * 5000 + b"}"),
    "non-object JSON": ("alerts", b"[1, 2, 3]"),
    "bad UTF-8": ("alerts", b'{"id": "\xff\xfe"}'),
    "deep nesting": ("state", b"[" * 100000 + b"]" * 100000),
    "hand summary with a string hand": ("hands", json.dumps({**hand_summary("t1", 1), "hand": "1"}).encode()),
    "seat as object": ("alerts", _alert_bytes(seat={"n": 1})),
    "status garbage": ("status", b"\x00\x01rebooting"),
}


@pytest.mark.parametrize("case", sorted(POISON))
def test_poison_message_is_quarantined_and_skipped(case: str, tmp_path: Path) -> None:
    kind, payload = POISON[case]

    async def body() -> None:
        store = open_store(StoreConfig(sqlite=tmp_path / "floor.sqlite3"))
        await store.open()
        ingest = Ingest(store=store, hub=Hub(), prefix="cardtable", dealers={})
        try:
            await ingest.handle(f"cardtable/t1/{kind}", payload)  # must not raise
            await ingest.handle("cardtable/t1/alerts", _alert_bytes(id="t1-h3-9"))  # the next one is taken
            q = await store.quarantined()
            assert q["count"] == 1 and q["recent"][0]["topic"] == f"cardtable/t1/{kind}"
            assert q["recent"][0]["reason"] and len(q["recent"][0]["excerpt"]) <= 201
            assert ingest.counts["rejected"] == 1 and ingest.counts["alerts"] == 1
            assert [a["id"] for a in await store.alerts_after(0)] == ["t1-h3-9"]
        finally:
            await store.close()

    asyncio.run(body())


@pytest.mark.broker
def test_poison_over_the_broker_is_acked_once_and_the_floor_survives_a_restart(
        broker: Broker, loop: LoopThread, tmp_path: Path) -> None:
    cfg = make_config({"sqlite": str(tmp_path / "floor.sqlite3")}, broker.port)

    async def publish(items: list[tuple[str, bytes]]) -> None:
        async with aiomqtt.Client("127.0.0.1", broker.port, username="t1", password=USERS["t1"]) as c:
            for kind, data in items:
                await c.publish(f"cardtable/t1/{kind}", data, qos=1)

    async def wait_counts(svc: Any, alerts: int, quarantined: int) -> None:
        for _ in range(200):
            counts = await svc.store.counts()
            if counts["alerts"] >= alerts and counts["quarantine"] >= quarantined:
                break
            await asyncio.sleep(0.05)
        assert (await svc.store.counts())["alerts"] == alerts
        assert (await svc.store.counts())["quarantine"] == quarantined

    svc = _start_service(loop, cfg)
    try:
        poison = [POISON[k] for k in ("empty street object", "hand 1e400", "huge integer", "bad UTF-8")]
        loop.run(publish([poison[0], ("alerts", _alert_bytes(id="a1")), *poison[1:],
                          ("alerts", _alert_bytes(id="a2"))]))
        loop.run(wait_counts(svc, 2, 4))
        health = loop.run(svc.store.quarantined())
        assert {r["topic"] for r in health["recent"]} == {"cardtable/t1/alerts"}
    finally:
        loop.run(_stop_service(svc))
    # A restart: the poison was acknowledged, so nothing comes again and nothing is quarantined twice.
    svc = _start_service(loop, cfg)
    try:
        loop.run(publish([("alerts", _alert_bytes(id="a3"))]))
        loop.run(wait_counts(svc, 3, 4))
    finally:
        loop.run(_stop_service(svc))


def test_a_redelivered_poison_message_is_kept_once(tmp_path: Path) -> None:
    """The floor stopped between quarantining a message and acknowledging it: the broker delivers it again."""

    async def body() -> None:
        store = open_store(StoreConfig(sqlite=tmp_path / "floor.sqlite3"))
        await store.open()
        ingest = Ingest(store=store, hub=Hub(), prefix="cardtable", dealers={})
        try:
            for _ in range(3):
                await ingest.handle("cardtable/t1/alerts", b"[1]")
            await ingest.handle("cardtable/t2/alerts", b"[1]")  # same payload, another table: kept too
            assert (await store.quarantined())["count"] == 2
            assert ingest.counts["rejected"] == 4 and ingest.counts["quarantine_duplicates"] == 2
        finally:
            await store.close()

    asyncio.run(body())
