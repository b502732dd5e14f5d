"""Floor side: holes and duplicates per (table, session), tail gaps, resend requests, broker drops."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from controller.floor.gaps import MAX_RANGE, Stream, Streams
from controller.floor.store import SqliteStore


class Recorder:
    """Stands in for the ingest: records what it was handed; can be told to fail like a broken store."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, Any]]] = []
        self.fail = False

    async def handle(self, topic: str, payload: bytes) -> None:
        if self.fail:
            raise RuntimeError("store down")
        self.seen.append((topic, json.loads(payload)))


def msg(seq: int, session: str = "s1") -> bytes:
    return json.dumps({"id": f"a{seq}", "stream": {"session": session, "seq": seq}}).encode()


def make() -> tuple[Streams, Recorder, list[float]]:
    now = [100.0]
    rec = Recorder()
    return Streams(rec, prefix="cardtable", grace_s=1.0, retry_s=5.0, clock=lambda: now[0]), rec, now


def feed(st: Streams, topic: str, payload: bytes) -> None:
    asyncio.run(st.handle(topic, payload))


def test_stream_gaps_and_duplicates() -> None:
    s = Stream()
    assert [s.add(n) for n in (1, 2, 5, 2, 7)] == [True, True, True, False, True]
    assert s.high == 2 and s.missing() == 3 and list(s.gaps()) == [(3, 4), (6, 6)]
    s.last = 9
    assert list(s.gaps()) == [(3, 4), (6, 6), (8, 9)] and s.missing() == 5
    assert list(s.gaps(budget=3)) == [(3, 4), (6, 6)]
    assert list(Stream(last=2000).gaps()) == [(1, MAX_RANGE)]
    for n in (3, 4, 6, 8, 9):
        s.add(n)
    assert s.high == 9 and s.missing() == 0 and list(s.gaps()) == []


def test_a_hole_below_a_received_message_is_asked_for_at_once_and_again_with_backoff() -> None:
    st, rec, now = make()
    for n in (1, 2, 5):
        feed(st, "cardtable/t1/alerts", msg(n))
    assert len(rec.seen) == 3  # everything goes to the store; the tracker only watches
    # 5 came after the hole and a table's messages arrive in order: 3 and 4 are lost, ask now
    assert st.requests() == [("t1", {"session": "s1", "from": 3, "to": 4})]
    assert st.degraded() == {}  # shown after the grace period
    now[0] += 1.5
    assert st.degraded()["t1"]["missing"] == 2
    assert st.requests() == []  # not again before retry_s
    now[0] += 5
    assert st.requests() == [("t1", {"session": "s1", "from": 3, "to": 4})]
    now[0] += 5
    assert st.requests() == []  # the wait doubled to 10 s
    now[0] += 5
    assert st.requests() != []
    feed(st, "cardtable/t1/alerts", msg(3))
    feed(st, "cardtable/t1/alerts", msg(4))
    assert st.degraded() == {} and st.requests() == []
    feed(st, "cardtable/t1/alerts", msg(4))
    assert st.counts["duplicates"] == 1


def test_a_lost_tail_is_seen_from_the_state_and_the_heartbeat_and_asked_for_once_quiet() -> None:
    st, rec, now = make()
    feed(st, "cardtable/t1/alerts", msg(1))
    feed(st, "cardtable/t1/state", json.dumps({"hand": 3, "stream": {"session": "s1", "last": 3}}).encode())
    feed(st, "cardtable/t2/health", json.dumps({"stream": {"session": "x", "last": 2}}).encode())
    assert [t for t, _ in rec.seen] == ["cardtable/t1/alerts", "cardtable/t1/state"]  # health is ours
    # a tail may still be queued behind other messages: ask once it lasted the grace period and the table
    # has been quiet for as long
    assert st.requests() == []
    now[0] += 0.5
    feed(st, "cardtable/t1/alerts", msg(2))
    now[0] += 0.9
    assert st.requests() == [("t2", {"session": "x", "from": 1, "to": 2})]
    now[0] += 0.2
    assert st.requests() == [("t1", {"session": "s1", "from": 3, "to": 3})]


def test_a_message_the_store_did_not_take_is_not_counted() -> None:
    st, rec, _now = make()
    rec.fail = True
    with pytest.raises(RuntimeError):
        feed(st, "cardtable/t1/alerts", msg(1))
    rec.fail = False
    feed(st, "cardtable/t1/alerts", msg(2))
    assert st.requests() == [("t1", {"session": "s1", "from": 1, "to": 1})]


def test_pump_publishes_resend_requests_on_the_tables_cmd_topic() -> None:
    st, _rec, _now = make()
    feed(st, "cardtable/t7/alerts", msg(3))
    sent: list[tuple[str, bytes]] = []

    async def publish(topic: str, payload: bytes) -> None:
        sent.append((topic, payload))

    async def run() -> None:
        task = asyncio.create_task(st.pump(publish))
        await asyncio.sleep(0.05)
        task.cancel()

    asyncio.run(run())
    assert sent == [("cardtable/t7/cmd/resend", b'{"session": "s1", "from": 1, "to": 2}')]
    assert st.counts["resend_requests"] == 1


def test_broker_drops_raise_a_health_alert_and_a_broker_restart_resets_the_counter() -> None:
    st, rec, _now = make()
    topic = "$SYS/broker/publish/messages/dropped"
    for value in (b"0", b"0", b"45", b"45", b"50", b"3"):
        feed(st, topic, value)
    alerts = [a for t, a in rec.seen if t == "cardtable/broker/alerts"]
    assert [a["code"] for a in alerts] == ["HEALTH"] * 3
    assert "dropped 45 message(s)" in alerts[0]["message"] and "dropped 3" in alerts[2]["message"]
    assert st.counts["broker_drops"] == 45 + 5 + 3


def test_high_water_marks_are_stored_and_taken_up_after_a_restart(tmp_path: Path) -> None:
    async def run() -> Streams:
        store = SqliteStore(tmp_path / "f.db")
        await store.open()
        st, _rec, _now = make()
        await st.load(store)
        for n in (1, 2, 3, 5):
            await st.handle("cardtable/t1/alerts", msg(n))
        await st.save(store)
        st2, _, _ = make()
        await st2.load(store)
        await store.close()
        return st2

    st2 = asyncio.run(run())
    assert st2.streams[("t1", "s1")].high == 3


def test_a_room_prefix_names_the_same_table() -> None:
    rec = Recorder()
    st = Streams(rec, prefix="cardtable/room1", clock=lambda: 0.0)
    feed(st, "cardtable/room1/t1/alerts", msg(2))
    assert st.requests() == [("t1", {"session": "s1", "from": 1, "to": 1})]
    assert st.subscriptions()[0] == ("cardtable/room1/+/health", 0)


def test_shared_floors_one_gap_leader_at_a_time_and_a_lapsed_lease_is_taken_over(tmp_path: Path) -> None:
    """Two floors on a shared subscription and one store: each records the seqs it took; only the lease
    holder rebuilds the streams and asks; when it stops renewing, the other takes over after LEASE_S and
    finds the same hole from the rows both wrote."""
    from controller.floor.ledger import LEASE_S, Ledger

    async def run() -> list[Any]:
        store = SqliteStore(tmp_path / "f.db")
        await store.open()
        now = [1000.0]
        floors = []
        for name in ("a", "b"):
            ledger = Ledger(store, f"floor-{name}", clock=lambda: now[0])
            st = Streams(Recorder(), prefix="cardtable/x", rooms=True, ledger=ledger, grace_s=1.0,
                         clock=lambda: now[0])
            await st.load(store)
            floors.append(st)
        a, b = floors
        await a.handle("cardtable/x/room1/t1/alerts", msg(1))
        await b.handle("cardtable/x/room1/t1/alerts", msg(3))  # 2 went nowhere
        state = {"stream": {"session": "s1", "last": 4}}
        await b.handle("cardtable/x/room1/t1/state", json.dumps(state).encode())
        out: list[Any] = []
        for st in (a, b, a):  # a takes the lease; b writes the `last` it saw; a reads it
            await st.save(store)
        out.append([st.statistics()["gap_leader"] for st in (a, b)])
        now[0] += 2.0
        out.append(a.requests())  # the leader asks for 2 and the tail 4, once the table is quiet
        out.append(b.requests())  # the other process asks for nothing
        now[0] += LEASE_S + 1  # a stops (it does not save any more); b renews and takes over
        await b.save(store)
        out.append([st.statistics()["gap_leader"] for st in (a, b)])
        now[0] += 2.0
        out.append(b.statistics()["degraded"])
        await store.close()
        return out

    leaders, asked_a, asked_b, after, degraded = asyncio.run(run())
    assert leaders == [True, False]
    assert asked_a == [("room1/t1", {"session": "s1", "from": 2, "to": 2}),
                       ("room1/t1", {"session": "s1", "from": 4, "to": 4})] and asked_b == []
    assert after == [True, True]  # a has not yet noticed (it would on its next save) ...
    assert degraded["room1/t1"]["missing"] == 2  # ... while b already sees the hole from both floors' rows
