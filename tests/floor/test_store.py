"""The alert store on both back ends: dedupe, first ruling stands, catch-up order, filters, statistics."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from controller.floor.config import StoreConfig
from controller.floor.store import Filters, Store, build_stats, open_store
from tests.floor.publisher import alert, hand_summary, state


async def _with_store(section: dict[str, Any], body: Any) -> None:
    store = open_store(StoreConfig.model_validate(section))
    await store.open()
    try:
        await body(store)
    finally:
        await store.close()


def test_alerts_dedupe_ack_and_catch_up(store_section: dict[str, Any]) -> None:
    async def body(s: Store) -> None:
        a1 = alert("t1", 17, 1, "TURN_PREMATURE", street="flop", cards=("Jh",))
        a2 = alert("t1", 17, 2, "MISDEAL_CALLED")
        seq1 = await s.add_alert(a1, dealer="D-01", received=1000.0)
        assert seq1 is not None
        assert await s.add_alert(a1, dealer="D-01", received=1001.0) is None  # a resend is dropped
        seq2 = await s.add_alert(a2, dealer="D-01", received=1002.0)
        assert seq2 is not None and seq2 > seq1
        assert [a["id"] for a in await s.alerts_after(seq1)] == ["t1-h17-2"]
        stored = await s.alert("t1", "t1-h17-1")
        assert stored is not None and stored["cards"] == ["Jh"] and stored["floor"]["dealer"] == "D-01"
        assert await s.open_counts("t1") == {"error": 1, "misdeal": 1}

        ack = await s.add_ack(table="t1", alert_id="t1-h17-2", by="anna", ruling="redealt", at=1003.0)
        assert ack is not None
        again = await s.add_ack(table="t1", alert_id="t1-h17-2", by="bob", ruling="other", at=1004.0)
        assert again is None  # the first ruling stands
        assert await s.add_ack(table="t1", alert_id="nope", by="anna", ruling="x", at=1.0) is None
        got = await s.alert("t1", "t1-h17-2")
        assert got is not None and got["floor"]["ack"]["by"] == "anna"
        assert got["floor"]["ack"]["ruling"] == "redealt"
        assert await s.open_counts("t1") == {"error": 1}
        assert [k.alert_id for k in await s.acks_after(0)] == ["t1-h17-2"]
        assert await s.cursor() == (seq2, ack.seq)

        # Ack outbox: unpublished until marked.
        assert [k.seq for k in await s.unpublished_acks()] == [ack.seq]
        await s.mark_published(ack.seq)
        assert await s.unpublished_acks() == []

    asyncio.run(_with_store(store_section, body))


def test_history_filters_tables_and_stats(store_section: dict[str, Any]) -> None:
    async def body(s: Store) -> None:
        await s.add_alert(alert("t1", 1, 1, "BURN_MISSING_TURN"), dealer="D-01", received=100.0)
        await s.add_alert(alert("t1", 2, 1, "KNOCK_MISSING"), dealer="D-01", received=200.0)
        await s.add_alert(alert("t2", 1, 1, "BURN_MISSING_TURN"), dealer="D-02", received=300.0)
        await s.add_alert(alert("t2", 1, 2, "POT_AWARD", street="showdown"), dealer="D-02", received=301.0)
        await s.add_ack(table="t2", alert_id="t2-h1-1", by="anna", ruling="ok", at=302.0)
        for h in range(1, 5):
            assert await s.add_hand("t1", hand_summary("t1", h), dealer="D-01", received=50.0 + h)
        assert not await s.add_hand("t1", hand_summary("t1", 4), dealer="D-01", received=60.0)  # resend
        await s.add_hand("t2", hand_summary("t2", 1), dealer="D-02", received=70.0)
        await s.set_state("t1", state("t1", 3), 400.0)
        await s.set_status("t1", "online", 401.0)
        await s.set_status("t3", "offline", 402.0)

        def ids(rows: list[dict[str, Any]]) -> list[str]:
            return [r["id"] for r in rows]

        assert ids(await s.history(Filters(table="t1"))) == ["t1-h2-1", "t1-h1-1"]  # newest first
        assert ids(await s.history(Filters(code="BURN_MISSING_TURN"))) == ["t2-h1-1", "t1-h1-1"]
        assert ids(await s.history(Filters(severity="warning"))) == ["t1-h2-1"]
        assert ids(await s.history(Filters(since=150.0, until=300.5))) == ["t2-h1-1", "t1-h2-1"]
        assert ids(await s.history(Filters(status="acked"))) == ["t2-h1-1"]
        assert "t2-h1-1" not in ids(await s.history(Filters(status="open")))
        assert ids(await s.history(Filters(limit=1))) == ["t2-h1-2"]

        tables = {t["table"]: t for t in await s.tables()}
        assert tables["t1"]["status"] == "online" and tables["t1"]["state"]["hand"] == 3
        assert tables["t1"]["open"] == {"error": 1, "warning": 1}
        assert tables["t2"]["open"] == {}  # its error is acked; info alerts never count as open
        assert tables["t3"]["status"] == "offline" and tables["t3"]["state"] is None

        st = await s.stats()
        assert st["hands"] == 5 and st["faults"] == 3  # POT_AWARD is info, not a fault
        d1 = next(d for d in st["by_dealer"] if d["dealer"] == "D-01")
        assert d1["hands"] == 4 and d1["faults"] == 2 and d1["per100"] == 50.0
        assert d1["codes"]["KNOCK_MISSING"] == {"count": 1, "per100": 25.0}
        by_code = {c["code"]: c for c in st["by_code"]}
        assert by_code["BURN_MISSING_TURN"] == {"code": "BURN_MISSING_TURN", "count": 2, "per100": 40.0}

        recent = await s.recent_alerts(1)
        assert {a["id"] for a in recent} == {"t1-h1-1", "t1-h2-1", "t2-h1-2"}  # newest + every open fault

    asyncio.run(_with_store(store_section, body))


def test_stats_without_hands_has_no_rate() -> None:
    st = build_stats({}, [("D-9", "KNOCK_MISSING", 3)])
    assert st["per100"] is None and st["by_dealer"][0]["per100"] is None and st["faults"] == 3


def test_a_store_counted_by_version_1_is_counted_again_in_shards(tmp_path: Path) -> None:
    """A store from before the sharded tallies (unsharded fault_counts/hand_counts, their triggers) is
    counted once into the new tables on open; the old tables and triggers are gone, new alerts count."""
    import sqlite3

    from controller.floor.store import SqliteStore

    path = tmp_path / "old.sqlite3"

    async def fill() -> None:
        store = SqliteStore(path)
        await store.open()
        for i in range(3):
            await store.add_alert({"table": "t1", "id": f"a{i}", "code": "BURN_MISSING", "severity": "error"},
                                  dealer="D1", received=1.0)
        await store.close()

    asyncio.run(fill())
    with sqlite3.connect(path) as db:  # turn it into what version 1 left behind
        db.executescript(
            "DROP TABLE fault_tallies; DROP TABLE hand_tallies; DROP TRIGGER alerts_tallied;"
            " DROP TRIGGER hands_tallied; DELETE FROM counts_version;"
            " CREATE TABLE fault_counts (dealer TEXT NOT NULL, code TEXT NOT NULL, n BIGINT NOT NULL,"
            " PRIMARY KEY (dealer, code));"
            " CREATE TABLE hand_counts (dealer TEXT PRIMARY KEY, n BIGINT NOT NULL);"
            " INSERT INTO fault_counts VALUES ('D1', 'BURN_MISSING', 3);"
            " INSERT INTO counts_version VALUES (1);"
            " CREATE TRIGGER alerts_counted AFTER INSERT ON alerts BEGIN"
            " UPDATE fault_counts SET n = n + 1 WHERE dealer = NEW.dealer AND code = NEW.code; END;")

    async def reopen() -> dict[str, Any]:
        store = SqliteStore(path)
        await store.open()
        await store.add_alert({"table": "t1", "id": "a9", "code": "BURN_MISSING", "severity": "error"},
                              dealer="D1", received=2.0)
        stats = await store.stats()
        await store.close()
        return stats

    stats = asyncio.run(reopen())
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    assert not names & {"fault_counts", "hand_counts", "alerts_counted", "hands_counted"}
    assert stats["faults"] == 4 and stats["by_code"] == [{"code": "BURN_MISSING", "count": 4, "per100": None}]
