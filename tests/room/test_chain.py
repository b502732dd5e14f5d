"""Must show (issue #17, chain): two rooms, each with its own broker (the shipped room config plus the shipped
bridge) and its own floor, bridged to a central broker (central.conf) where two central floor processes share
one MQTT 5 subscription (`$share/central/…`) and one PostgreSQL database. The link of both rooms to head
office is cut while the tables keep raising alerts, then restored: every alert of both rooms reaches the
central database exactly once (its unique key drops what the bridges or the two processes bring twice), and
each room floor got its own alerts throughout, the cut included.

The whole chain (four floor processes, three brokers, about a minute) is in tests/conftest.py SLOW: a 3 s
cut, and the issue's full minute (CARDTABLE_CHAIN_CUT_S overrides both). The everyday short form: one room
broker bridged to the central broker, two central floors in this process on one shared subscription and one
database, a handful of alerts published twice (as a table's resend would).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from controller.floor.app import running
from controller.floor.config import parse_config
from controller.sim.room import Room
from tests.floor.broker import USERS, available
from tests.floor.conftest import users_config
from tests.floor.test_web import login, session
from tests.room.chain import CENTRAL_USER, CentralBroker, Link, RoomBroker
from tests.room.harness import FloorProcess, expected_ids, poll, synthetic_room

ROOMS = ("room1", "room2")
GAP_S = 0.25  # between one table's alerts: the rooms keep raising alerts through the cut


@pytest.fixture
def central_schema(pg_dsn: str) -> Iterator[dict[str, Any]]:
    schema = f"chain_test_{uuid.uuid4().hex[:12]}"
    yield {"dsn": pg_dsn, "schema": schema}
    import psycopg

    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _central_rows(store: dict[str, Any]) -> list[tuple[str, str]]:
    import psycopg

    with psycopg.connect(store["dsn"]) as conn:
        rows = conn.execute(f'SELECT table_id, alert_id FROM "{store["schema"]}".alerts WHERE code != %s',
                            ("HEALTH",)).fetchall()
    return [(str(t), str(a)) for t, a in rows]


def _room_rows(db: Path) -> list[tuple[str, str]]:
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT table_id, alert_id FROM alerts WHERE code != 'HEALTH'")
        return [(t, a) for t, a in rows]


def run_chain(tmp_path: Path, store: dict[str, Any], *, tables: int, cut_s: float) -> dict[str, Any]:
    central = CentralBroker(tmp_path / "central", list(ROOMS))
    links = {room: Link(central.port) for room in ROOMS}
    brokers = {room: RoomBroker(tmp_path / room / "broker", room, links[room].port) for room in ROOMS}
    floors = {room: FloorProcess(tmp_path / room / "floor", brokers[room].port,
                                 {"sqlite": str(tmp_path / room / "floor.sqlite3")},
                                 client_id=f"floor-{room}", broker={"prefix": f"cardtable/{room}"})
              for room in ROOMS}
    centrals = [FloorProcess(tmp_path / f"central-{n}", central.port, store, client_id=f"central-{n}",
                             broker={"username": CENTRAL_USER[0], "password": CENTRAL_USER[1], "rooms": True,
                                     "share_group": "central"}) for n in ("a", "b")]
    # Long enough that alerts are raised before, during and after the cut.
    alerts = max(8, int((cut_s + 12) / GAP_S))
    out: dict[str, Any] = {}

    async def main() -> None:
        for link in links.values():
            await link.restore()
        rooms = {room: synthetic_room(tmp_path / room / "tables", brokers[room].port, tables=tables,
                                      alerts=alerts, prefix=f"cardtable/{room}", gap_s=GAP_S)
                 for room in ROOMS}

        async def conduct(_: Room) -> None:
            # both bridges up and the first alerts of both rooms at head office: then the line goes down
            assert await poll(lambda: {t.split("/")[0] for t, _a in _central_rows(store)} == set(ROOMS), 30)
            for link in links.values():
                await link.cut()
            cut_at = time.monotonic()
            before = {r: len(_room_rows(tmp_path / r / "floor.sqlite3")) for r in ROOMS}
            await asyncio.sleep(1.0)  # what the central floors had already been handed is stored by then
            central_before = len(await asyncio.to_thread(_central_rows, store))
            await asyncio.sleep(cut_s - 1.0)
            during = {r: len(_room_rows(tmp_path / r / "floor.sqlite3")) - before[r] for r in ROOMS}
            central_during = len(await asyncio.to_thread(_central_rows, store)) - central_before
            for link in links.values():
                await link.restore()
            out.update(cut_s=time.monotonic() - cut_at, room_during=during, central_during=central_during)

        async def room_main(room: str, r: Room) -> None:
            async def until(rr: Room) -> None:
                tasks = [rr.played(), *([conduct(rr)] if room == ROOMS[0] else [])]
                await asyncio.gather(*tasks)
                assert await rr.drained(60) == 0

            await r.run(until)

        await asyncio.gather(*(room_main(room, r) for room, r in rooms.items()))
        want = {room: expected_ids(r) for room, r in rooms.items()}
        out["want"] = want
        every = {(f"{room}/{t}", a) for room, ids in want.items() for t, a in ids}
        out["central_whole"] = await poll(lambda: len(_central_rows(store)) >= len(every), 60)
        for room in ROOMS:
            out[f"{room}_whole"] = await poll(
                lambda room=room: len(_room_rows(tmp_path / room / "floor.sqlite3")) >= len(want[room]), 30)
        out["every"] = every
        out["links"] = {room: link.connections for room, link in links.items()}
        await asyncio.sleep(1.0)  # anything that would arrive twice has had its chance

    try:
        central.start()
        for b in brokers.values():
            b.start()
        for f in [*floors.values(), *centrals]:
            f.start()
        asyncio.run(main())
        out["central"] = _central_rows(store)
        out["rooms"] = {room: _room_rows(tmp_path / room / "floor.sqlite3") for room in ROOMS}
        out["health"] = [c.health() for c in centrals]
    finally:
        for f in [*floors.values(), *centrals]:
            f.stop()
        for b in [*brokers.values(), central]:
            b.stop()
    return out


def check(out: dict[str, Any], cut_s: float) -> None:
    central, every = out["central"], out["every"]
    print(f"\nchain: cut {out['cut_s']:.1f} s; alerts per room {[len(out['want'][r]) for r in ROOMS]}; "
          f"room floors got {out['room_during']} during the cut, central {out['central_during']}; "
          f"central stored {len(central)} ({len(set(central))} distinct); link connections {out['links']}; "
          f"central ingest per process {[h['ingest']['alerts'] for h in out['health']]}, duplicates dropped "
          f"{[h['ingest']['duplicates'] for h in out['health']]}; gap lease "
          f"{[h['broker']['streams'].get('gap_leader') for h in out['health']]}, resend requests "
          f"{[h['broker']['streams']['resend_requests'] for h in out['health']]}")
    assert len(central) == len(set(central)) and set(central) == every  # each alert exactly once, no other
    for room in ROOMS:
        got = out["rooms"][room]
        assert len(got) == len(set(got)) and set(got) == out["want"][room]  # its own, once, nothing else
        assert out["room_during"][room] >= int(cut_s / GAP_S) // 2  # the room floor went on during the cut
    assert out["central_during"] == 0  # the link was really down: nothing new reached head office meanwhile
    assert all(n >= 2 for n in out["links"].values())  # each bridge was connected, and again after the cut
    # both central processes took a share of the messages (the shared subscription splits them)
    assert all(h["ingest"]["alerts"] > 0 for h in out["health"])
    # one central process held the gap lease, and at the end it saw every stream whole
    assert [h["broker"]["streams"]["gap_leader"] for h in out["health"]].count(True) == 1
    assert not any(h["broker"]["streams"]["degraded"] for h in out["health"])


@pytest.mark.timeout(600)
@pytest.mark.skipif(not available(), reason="mosquitto not installed")
def test_chain_cut_link_every_alert_once_at_head_office(tmp_path: Path, central_schema: dict[str, Any]
                                                        ) -> None:
    cut_s = float(os.environ.get("CARDTABLE_CHAIN_CUT_S", "3"))
    check(run_chain(tmp_path, central_schema, tables=2, cut_s=cut_s), cut_s)


@pytest.mark.timeout(900)
@pytest.mark.skipif(not available(), reason="mosquitto not installed")
def test_chain_cut_link_for_a_minute(tmp_path: Path, central_schema: dict[str, Any]) -> None:
    cut_s = float(os.environ.get("CARDTABLE_CHAIN_CUT_S", "60"))
    check(run_chain(tmp_path, central_schema, tables=4, cut_s=cut_s), cut_s)


def central_floor_config(port: int, store: dict[str, Any], name: str) -> Any:
    """An in-process central floor on the shared subscription `central`."""
    return parse_config({
        "broker": {"host": "127.0.0.1", "port": port, "username": CENTRAL_USER[0],
                   "password": CENTRAL_USER[1], "client_id": name, "backoff_initial": 0.1,
                   "backoff_max": 0.5, "rooms": True, "share_group": "central"},
        "store": store, "web": {"host": "127.0.0.1", "port": 0}, "users": users_config()})


@pytest.mark.skipif(not available(), reason="mosquitto not installed")
def test_chain_short_bridge_shared_subscription_once(tmp_path: Path, central_schema: dict[str, Any]) -> None:
    central = CentralBroker(tmp_path / "central", ["room1"])
    room = RoomBroker(tmp_path / "room1", "room1", central.port)

    def cfg(name: str) -> Any:
        return central_floor_config(central.port, central_schema, name)

    n = 40

    async def main() -> list[Any]:
        async with running(cfg("central-a")) as a, running(cfg("central-b")) as b:
            assert await poll(lambda: a.link.connected and b.link.connected, 10)
            async with aiomqtt.Client("127.0.0.1", room.port, username="sim", password=USERS["sim"]) as c:
                for i in range(1, n + 1):
                    for _ in range(2 if i % 4 == 0 else 1):  # every fourth alert twice, as a resend does
                        await c.publish(f"cardtable/room1/t{i % 3}/alerts", _alert(f"t{i % 3}", i), qos=1)
            await poll(lambda: a.ingest.counts["alerts"] + b.ingest.counts["alerts"] >= n, 20)
            await asyncio.sleep(0.5)
            async with session() as http:  # the pages take a `<room>/<table>` id in their paths
                await login(http, a.url)
                for path in ("room1/t1", "room1%2Ft1"):  # as typed, and as the page encodes it
                    async with http.get(a.url + "/api/tables/" + path) as r:
                        assert r.status == 200 and (await r.json())["table"] == "room1/t1", path
                async with http.get(a.url + "/api/alerts/room1/t1/t1-s-h1-4") as r:
                    assert r.status == 200 and (await r.json())["id"] == "t1-s-h1-4"
            return [a.ingest.counts, b.ingest.counts, await a.store.counts()]

    try:
        central.start()
        room.start()
        a, b, counts = asyncio.run(main())
    finally:
        room.stop()
        central.stop()
    rows = _central_rows(central_schema)
    assert len(rows) == len(set(rows)) == n and counts["alerts"] == n  # every alert once, the copies dropped
    assert {t for t, _a in rows} == {"room1/t0", "room1/t1", "room1/t2"}  # filed under room and table
    assert a["alerts"] > 0 and b["alerts"] > 0 and a["alerts"] + b["alerts"] == n  # the group split them
    assert a["duplicates"] + b["duplicates"] == n // 4  # each copy reached a floor once and was dropped there


def _alert(table: str, i: int) -> bytes:
    import json

    return json.dumps({"type": "alert", "id": f"{table}-s-h1-{i}", "t": float(i), "table": table, "hand": 1,
                       "code": "KNOCK_EARLY", "severity": "warning", "street": "preflop", "seat": None,
                       "cards": [], "message": "knock", "remedy": "", "rule": ""}).encode()


def _numbered(table: str, seq: int) -> bytes:
    import json

    body = json.loads(_alert(table, seq))
    return json.dumps({**body, "stream": {"session": "s1", "seq": seq}}).encode()


@pytest.mark.skipif(not available(), reason="mosquitto not installed")
def test_central_floors_find_a_hole_and_the_room_fills_it(tmp_path: Path, central_schema: dict[str, Any]
                                                          ) -> None:
    """Head office loses alerts a room still has (its bridge queue overflowed, or the central broker died
    before writing them): two central floors on one shared subscription share their seqs through the
    database, the one holding the gap lease sees the hole (and the tail the table's state announces), shows
    the table degraded and asks on `cmd/resend`; the room's bridge carries the request back to the table,
    whose answer comes out through the bridge and fills the hole, each alert stored once."""
    central = CentralBroker(tmp_path / "central", ["room1"])
    room = RoomBroker(tmp_path / "room1", "room1", central.port)

    def cfg(name: str) -> Any:
        return central_floor_config(central.port, central_schema, name)

    async def table(asked: list[dict[str, Any]]) -> None:
        """The table in the room: answers resend requests from its outbox (here: republishes the seqs)."""
        import json

        async with aiomqtt.Client("127.0.0.1", room.port, username="sim", password=USERS["sim"]) as c:
            await c.subscribe("cardtable/room1/t1/cmd/resend", qos=1)
            async for msg in c.messages:
                req = json.loads(bytes(msg.payload))  # type: ignore[arg-type]
                asked.append(req)
                await asyncio.sleep(1.5)  # a busy room: the floor must show the hole meanwhile
                for seq in range(req["from"], req["to"] + 1):
                    await c.publish("cardtable/room1/t1/alerts", _numbered("t1", seq), qos=1)

    async def main() -> dict[str, Any]:
        import json

        asked: list[dict[str, Any]] = []
        async with running(cfg("central-a")) as a, running(cfg("central-b")) as b:
            for svc in (a, b):
                svc.streams.grace_s, svc.streams.retry_s = 0.5, 1.0
            assert await poll(lambda: a.link.connected and b.link.connected, 10)
            responder = asyncio.create_task(table(asked))
            await asyncio.sleep(0.5)  # subscribed in the room, and the bridge's `in` subscription is up
            # What reached head office: 1, 2, 4 and a state saying the table has sent 6 (3, 5, 6 lost).
            bridge = ("bridge-room1", "bridge-room1-secret")
            async with aiomqtt.Client("127.0.0.1", central.port, username=bridge[0], password=bridge[1]) as c:
                for seq in (1, 2, 4):
                    await c.publish("cardtable/room1/t1/alerts", _numbered("t1", seq), qos=1)
                state = {"hand": 2, "stream": {"session": "s1", "last": 6}}
                await c.publish("cardtable/room1/t1/state", json.dumps(state).encode(), qos=0)
            leader = await poll(lambda: next((s for s in (a, b) if s.streams.statistics().get("gap_leader")),
                                             None), 10)
            assert leader is not None
            def hole() -> Any:
                d = leader.streams.statistics()["degraded"].get("room1/t1")
                return d if d and d["missing"] == 3 else None

            degraded = await poll(hole, 10)
            whole = await poll(lambda: len(_central_rows(central_schema)) >= 6, 30)
            healed = await poll(lambda: not leader.streams.statistics()["degraded"], 10)
            stats = [s.streams.statistics() for s in (a, b)]
            responder.cancel()
            await asyncio.gather(responder, return_exceptions=True)
            return {"degraded": degraded, "whole": whole, "healed": healed, "asked": asked, "stats": stats}

    try:
        central.start()
        room.start()
        out = asyncio.run(main())
    finally:
        room.stop()
        central.stop()
    rows = _central_rows(central_schema)
    print(f"\ncentral gaps: degraded {out['degraded']}; asked {out['asked']}; stats {out['stats']}")
    assert out["degraded"]  # the table was shown degraded: 3, 5 and the tail 6 missing
    assert out["whole"] and out["healed"]
    assert sorted(rows) == [("room1/t1", f"t1-s-h1-{i}") for i in range(1, 7)]  # each once
    assert sum(1 for s in out["stats"] if s["gap_leader"]) == 1  # one process asks, not both
    assert {(r["from"], r["to"]) for r in out["asked"]} >= {(3, 3), (5, 6)}
