"""Batched ingest: everything already queued goes into one transaction; acks only after the commit."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.floor.batch import consume
from controller.floor.errors import StoreError
from controller.floor.hub import Hub
from controller.floor.ingest import Ingest
from controller.floor.store import SqliteStore


@dataclass
class Msg:
    topic: str
    payload: bytes
    mid: int
    qos: int = 1


class Queue:
    """Stands in for aiomqtt's message iterator: a queue that ends with StopAsyncIteration when empty."""

    def __init__(self, msgs: list[Msg]) -> None:
        self.q = list(msgs)

    def __aiter__(self) -> Queue:
        return self

    async def __anext__(self) -> Msg:
        if not self.q:
            raise StopAsyncIteration
        return self.q.pop(0)

    def __len__(self) -> int:
        return len(self.q)


def alert(n: int) -> Msg:
    body = {"type": "alert", "id": f"t1-h1-{n}", "table": "t1", "code": "BURN_MISSING", "severity": "error",
            "message": "m"}
    return Msg("cardtable/t1/alerts", json.dumps(body).encode(), mid=n)


async def stored(store: SqliteStore) -> int:
    return (await store.counts())["alerts"]


def test_queued_messages_are_one_transaction_and_acked_after_it(tmp_path: Path) -> None:
    async def run() -> tuple[list[int], list[tuple[int, int]]]:
        store = SqliteStore(tmp_path / "f.db")
        await store.open()
        ingest = Ingest(store=store, hub=Hub(), prefix="cardtable", dealers={})
        acked: list[tuple[int, int]] = []  # (mid, alerts stored when it was acked)
        batches: list[int] = []

        async def ack_after(m: Any) -> None:
            acked.append((m.mid, await stored(store)))

        pending: list[asyncio.Task[None]] = []
        await consume(Queue([alert(n) for n in range(1, 251)]), ingest.handle, store.transaction,
                      lambda m: pending.append(asyncio.ensure_future(ack_after(m))), max_batch=100,
                      on_batch=batches.append)
        await asyncio.gather(*pending)
        await store.close()
        return batches, acked

    batches, acked = asyncio.run(run())
    assert batches == [100, 100, 50]
    assert [m for m, _ in acked] == list(range(1, 251))
    assert all(n >= m for m, n in acked)  # each ack went out after its alert was committed


def test_a_failed_batch_is_rolled_back_and_not_acknowledged(tmp_path: Path) -> None:
    async def run() -> tuple[list[int], int]:
        store = SqliteStore(tmp_path / "f.db")
        await store.open()
        ingest = Ingest(store=store, hub=Hub(), prefix="cardtable", dealers={})
        acked: list[int] = []

        async def handle(topic: str, payload: bytes) -> None:
            await ingest.handle(topic, payload)
            if json.loads(payload)["id"].endswith("-3"):
                raise StoreError("disk full")

        with pytest.raises(StoreError):
            await consume(Queue([alert(n) for n in range(1, 6)]), handle, store.transaction,
                          lambda m: acked.append(m.mid))
        n = await stored(store)
        await store.close()
        return acked, n

    acked, n = asyncio.run(run())
    assert acked == [] and n == 0  # nothing half-stored, nothing acknowledged: the broker sends them again


def test_readers_wait_for_the_commit(tmp_path: Path) -> None:
    async def run() -> list[int]:
        store = SqliteStore(tmp_path / "f.db")
        await store.open()
        ingest = Ingest(store=store, hub=Hub(), prefix="cardtable", dealers={})
        seen: list[int] = []
        reader: list[asyncio.Task[None]] = []

        async def read() -> None:
            seen.append(await stored(store))

        async def handle(topic: str, payload: bytes) -> None:
            await ingest.handle(topic, payload)
            if not reader:
                reader.append(asyncio.create_task(read()))  # starts while the batch is open
                await asyncio.sleep(0.05)

        await consume(Queue([alert(n) for n in range(1, 11)]), handle, store.transaction, lambda m: None)
        await asyncio.gather(*reader)
        await store.close()
        return seen

    assert asyncio.run(run()) == [10]


def test_browsers_get_a_batch_after_its_commit_and_nothing_of_a_rolled_back_one(tmp_path: Path) -> None:
    """The live stream never shows an alert (or its seq) before the commit that stores it, nor one that a
    rollback took back; the table states of a failed batch still go out (they are not stored rows)."""

    def state(n: int) -> Msg:
        return Msg("cardtable/t1/state", json.dumps({"hand": n}).encode(), mid=1000 + n, qos=0)

    async def run() -> tuple[list[tuple[str, int]], list[str], int]:
        store = SqliteStore(tmp_path / "f.db")
        await store.open()
        hub = Hub()
        sub = hub.subscribe()
        ingest = Ingest(store=store, hub=hub, prefix="cardtable", dealers={})
        seen: list[tuple[str, int]] = []  # (event type, alerts committed when the browser got it)

        async def handle(topic: str, payload: bytes) -> None:
            await ingest.handle(topic, payload)
            assert sub.queue.empty()  # inside the batch nothing has gone to the browser yet

        await consume(Queue([alert(1), state(1), alert(2)]), handle, ingest.batch, lambda m: None)
        while not sub.queue.empty():
            ev = sub.queue.get_nowait()
            sub.took(ev)  # as the live stream does
            assert ev is not None
            seen.append((ev["type"], await stored(store)))

        async def failing(topic: str, payload: bytes) -> None:
            await ingest.handle(topic, payload)
            if topic.endswith("alerts") and json.loads(payload)["id"].endswith("-4"):
                raise StoreError("disk full")

        with pytest.raises(StoreError):
            await consume(Queue([alert(3), state(2), alert(4)]), failing, ingest.batch, lambda m: None)
        after = []
        while not sub.queue.empty():
            ev = sub.queue.get_nowait()
            sub.took(ev)
            assert ev is not None
            after.append(ev["type"])
        n = await stored(store)
        await store.close()
        return seen, after, n

    seen, after, n = asyncio.run(run())
    assert [t for t, _ in seen] == ["alert", "open", "state", "alert", "open"]
    assert all(committed == 2 for _, committed in seen)  # every event after both alerts were committed
    assert after == ["state"] and n == 2  # the rolled-back alerts never reached the browser


def test_a_slow_browser_gets_the_latest_state_per_table_not_every_one() -> None:
    hub = Hub()
    sub = hub.subscribe()
    fast = hub.subscribe()
    for ev in ({"type": "state", "table": "t1", "state": {"hand": 1}}, {"type": "alert", "seq": 1},
               {"type": "state", "table": "t1", "state": {"hand": 2}},
               {"type": "state", "table": "t2", "state": {"hand": 1}},
               {"type": "state", "table": "t1", "state": {"hand": 3}}):
        hub.publish(ev)
        if ev["type"] == "alert":  # the fast stream takes everything so far at once
            while not fast.queue.empty():
                fast.took(fast.queue.get_nowait())

    def drain(s: Any) -> list[tuple[Any, ...]]:
        out = []
        while not s.queue.empty():
            ev = s.queue.get_nowait()
            s.took(ev)
            out.append((ev["type"], ev.get("table"), (ev.get("state") or {}).get("hand")))
        return out

    # the t1 state waits where the first one was, with the newest content; nothing else is lost or reordered
    assert drain(sub) == [("state", "t1", 3), ("alert", None, None), ("state", "t2", 1)]
    assert drain(fast) == [("state", "t1", 3), ("state", "t2", 1)]  # after the alert: coalesced as well
    hub.publish({"type": "state", "table": "t1", "state": {"hand": 4}})
    assert drain(sub) == [("state", "t1", 4)]  # taken states do not swallow newer ones
    assert sub.coalesced == 2 and hub.statistics()["states_coalesced"] == 3


def on_table(table: str, alert_id: str, mid: int) -> Msg:
    body = {"type": "alert", "id": alert_id, "table": table, "code": "BURN_MISSING", "severity": "error",
            "message": "m"}
    return Msg(f"cardtable/{table}/alerts", json.dumps(body).encode(), mid=mid)


def test_a_statement_that_fails_inside_a_batch_dooms_it_and_its_messages_are_stored_one_by_one(
        tmp_path: Path) -> None:
    """A failure the ingest catches (it holds the message for the store) must not let the batch commit:
    SQLite rolls a transaction back on a full disk and PostgreSQL aborts it on a deadlock, so a COMMIT
    would report the earlier messages stored when they are not, and they would be acknowledged and lost."""

    async def run() -> tuple[list[int], int, dict[str, int], list[dict[str, Any]]]:
        store = SqliteStore(tmp_path / "f.db")
        await store.open()
        ingest = Ingest(store=store, hub=Hub(), prefix="cardtable", dealers={})
        real = store._query
        failed: list[str] = []

        async def flaky(sql: str, params: Any = (), *, durable: bool = False) -> list[tuple[Any, ...]]:
            if sql.startswith("INSERT INTO alerts") and "t1-h1-3" in params and not failed:
                failed.append(sql)
                await real("ROLLBACK")  # as SQLite does on SQLITE_FULL
                await real("BEGIN")
                raise store._failed("SQLite store: database or disk is full")
            return await real(sql, params, durable=durable)

        store._query = flaky  # type: ignore[method-assign]
        acked: list[int] = []
        await consume(Queue([alert(n) for n in range(1, 6)]), ingest.handle, ingest.batch,
                      lambda m: acked.append(m.mid))
        n = await stored(store)
        tables = await store.tables()
        await store.close()
        return acked, n, dict(ingest.counts), tables

    acked, n, counts, tables = asyncio.run(run())
    assert acked == [1, 2, 3, 4, 5] and n == 5  # every acknowledged message is stored
    assert counts["alerts"] == 5 and counts["duplicates"] == 0 and counts["held"] == 0  # counted once
    assert tables[0]["open"] == {"error": 5}


def test_two_floors_deadlocking_on_one_database_lose_nothing(pg_dsn: str) -> None:
    """Two central floors (a shared subscription) write one PostgreSQL database; batches that take rows in
    opposite orders deadlock, and the server aborts one of them. Every alert of both batches
    is stored exactly once and acknowledged only then (the chain test lost six alerts here)."""
    import uuid

    import psycopg

    from controller.floor.store import PostgresStore

    schema = f"deadlock_test_{uuid.uuid4().hex[:12]}"

    async def run() -> tuple[dict[str, list[int]], list[tuple[str, str]], list[dict[str, int]]]:
        stores = [PostgresStore(pg_dsn, schema), PostgresStore(pg_dsn, schema)]
        for s in stores:
            await s.open()
        # A dealer per table: each batch's first alert then adds to a tally row of its own. With one
        # dealer, two server processes whose pids share a tally shard (pid mod 8, one run in eight) met
        # on that row first: the second batch waited for the first one's commit and never reached the
        # barrier, which the first one waited at (CI hung here for 300 s).
        dealers = {"tx": "dx", "ty": "dy"}
        ingests = [Ingest(store=s, hub=Hub(), prefix="cardtable", dealers=dealers) for s in stores]
        # Each batch files the first alert of a table new to the store (a row in `tables`, uncommitted),
        # then one of the table the other batch has just filed: each waits for the other's commit.
        queues = {"fa": [on_table("tx", "fa-1", 1), on_table("ty", "fa-2", 2)],
                  "fb": [on_table("ty", "fb-1", 1), on_table("tx", "fb-2", 2)]}
        barrier = asyncio.Barrier(2)
        acked: dict[str, list[int]] = {"fa": [], "fb": []}

        def handler(ingest: Ingest) -> Any:
            first_pass = [True]

            async def handle(topic: str, payload: bytes) -> None:
                await ingest.handle(topic, payload)
                if first_pass[0]:  # both batches hold one count row each before taking the other's
                    first_pass[0] = False
                    async with asyncio.timeout(30):  # a lock this test did not plan for fails, not hangs
                        await barrier.wait()
            return handle

        await asyncio.gather(*(consume(Queue(queues[t]), handler(i), i.batch,
                                       lambda m, t=t: acked[t].append(m.mid))
                               for t, i in zip(queues, ingests, strict=True)))
        rows = [(str(t), str(a)) for t, a in await stores[0]._query("SELECT table_id, alert_id FROM alerts")]
        for s in stores:
            await s.close()
        return acked, rows, [dict(i.counts) for i in ingests]

    try:
        acked, rows, counts = asyncio.run(run())
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    assert acked == {"fa": [1, 2], "fb": [1, 2]}
    assert sorted(rows) == [("tx", "fa-1"), ("tx", "fb-2"), ("ty", "fa-2"), ("ty", "fb-1")]
    assert [c["alerts"] for c in counts] == [2, 2] and [c["held"] for c in counts] == [0, 0]
