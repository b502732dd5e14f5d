"""Page and snapshot queries with 10^5 stored alerts stay within 50 ms, on SQLite and on PostgreSQL.

The store is filled through its own schema (so the counting triggers run for every row): 100,000 alerts
of 250 tables, 40 % of them fault alerts, every fault acknowledged but the newest 100, 33,000 hands.
Each query is timed as the median of five runs. PostgreSQL is ANALYZEd after the bulk fill, as its
autovacuum would have done on a store that grew to this size.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from controller.floor.config import StoreConfig
from controller.floor.store import Filters, Store, open_store

N = int(os.environ.get("CARDTABLE_PAGES_ALERTS", "100000"))
LIMIT_MS = 50.0
SEVERITIES = ["info"] * 6 + ["error", "warning", "misdeal", "dead_hand"]


def rows(n: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(alerts, acks, hands) rows; all fault alerts but the newest 100 acknowledged."""
    rng = random.Random(7)
    alerts, faults = [], []
    for i in range(n):
        table, sev = f"t{rng.randrange(250):03d}", rng.choice(SEVERITIES)
        code = "POT_AWARD" if sev == "info" else rng.choice(["ACTION_OUT_OF_TURN", "BURN_MISSING", "MISDEAL"])
        body = {"type": "alert", "id": f"{table}-h{i}-1", "t": float(i), "table": table, "hand": i,
                "code": code, "severity": sev, "street": "flop", "seat": 3, "cards": [],
                "message": "m" * 80, "remedy": "r" * 140, "rule": "000 §2.6"}
        alerts.append((table, body["id"], float(i), i, code, sev, "flop", 3, f"D-{i % 40}", 1e9 + i,
                       json.dumps(body)))
        if sev != "info":
            faults.append((table, body["id"]))
    acks = [(t, a, "anna", "ok", 1e9 + n) for t, a in faults[:-100]]
    hands = [(f"t{i % 250:03d}", f"d{i}", i, f"D-{i % 40}", 1e9 + 3 * i, "{}") for i in range(n // 3)]
    return alerts, acks, hands


_INSERTS = (
    "INSERT INTO alerts (table_id, alert_id, t, hand, code, severity, street, seat, dealer, received,"
    " payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO acks (table_id, alert_id, by_user, ruling, at) VALUES (?, ?, ?, ?, ?)",
    "INSERT INTO hands (table_id, digest, hand, dealer, received, payload) VALUES (?, ?, ?, ?, ?, ?)")


def fill_sqlite(path: Path, data: tuple[list[tuple[Any, ...]], ...]) -> None:
    with sqlite3.connect(path) as db:
        for sql, batch in zip(_INSERTS, data, strict=True):
            db.executemany(sql, batch)


def fill_postgres(dsn: str, schema: str, data: tuple[list[tuple[Any, ...]], ...]) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=False) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        with conn.cursor() as cur:
            for sql, batch in zip(_INSERTS, data, strict=True):
                cur.executemany(sql.replace("?", "%s"), batch)
        conn.commit()
        # What autovacuum does by itself on a store that grew to this size (statistics for the planner).
        conn.execute("ANALYZE")
        conn.commit()


async def median_ms(call: Callable[[], Awaitable[Any]]) -> float:
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        await call()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


@pytest.mark.timeout(900)
def test_page_queries_with_1e5_alerts(store_section: dict[str, Any]) -> None:
    store = open_store(StoreConfig.model_validate(store_section))
    data = rows(N)

    async def run() -> dict[str, float]:
        await store.open()  # creates the schema, indexes and triggers
        if "dsn" in store_section:
            await asyncio.to_thread(fill_postgres, store_section["dsn"], store_section["schema"], data)
        else:
            await asyncio.to_thread(fill_sqlite, Path(store_section["sqlite"]), data)
        out = await timings(store)
        out["_tables"] = len(await store.tables())
        out["_open"] = sum(sum(t["open"].values()) for t in await store.tables())
        out["_recent"] = len(await store.recent_alerts(200))
        out["_stats_faults"] = (await store.stats())["faults"]
        await store.close()
        return out

    got = asyncio.run(run())
    backend = "PostgreSQL" if "dsn" in store_section else "SQLite"
    print(f"\n{backend}, {N} alerts: " + ", ".join(f"{k} {v:.1f} ms" for k, v in got.items()
                                                       if not k.startswith("_")))
    faults = sum(1 for a in data[0] if a[5] != "info")
    assert got["_tables"] == 250 and got["_open"] == 100 and got["_stats_faults"] == faults
    assert got["_recent"] == 200 + _open_outside(data)
    slow = {k: v for k, v in got.items() if not k.startswith("_") and v > LIMIT_MS}
    assert not slow, f"slower than {LIMIT_MS} ms: {slow}"


def _open_outside(data: tuple[list[tuple[Any, ...]], ...]) -> int:
    """Open fault alerts older than the newest 200 (the snapshot adds them to the newest 200)."""
    acked = {(t, a) for t, a, *_ in data[1]}
    return sum(1 for a in data[0][:-200] if a[5] != "info" and (a[0], a[1]) not in acked)


async def timings(store: Store) -> dict[str, float]:
    top = (await store.cursor())[0]
    return {
        "tables list": await median_ms(store.tables),
        "live-stream snapshot": await median_ms(lambda: store.recent_alerts(200)),
        "catch-up of 200": await median_ms(lambda: store.alerts_after(top - 200)),
        "history": await median_ms(lambda: store.history(Filters())),
        "history by table": await median_ms(lambda: store.history(Filters(table="t007"))),
        "history by code, open": await median_ms(
            lambda: store.history(Filters(code="MISDEAL", status="open"))),
        "history by severity": await median_ms(lambda: store.history(Filters(severity="misdeal"))),
        "history last hour": await median_ms(lambda: store.history(Filters(since=1e9 + N - 3600))),
        "stats all time": await median_ms(store.stats),
        "stats last hour": await median_ms(lambda: store.stats(since=1e9 + N - 3600)),
        "open counts of a table": await median_ms(lambda: store.open_counts("t007")),
        "cursor": await median_ms(store.cursor),
    }
