"""Dealer statistics against a hand-computed fixture: two dealers, one rotation at one table, known faults.

D-A deals hands 1-4 at t1 (120, 150, 90, 140 s), then D-B takes over for hands 5-7 (100, 110, 130 s).
Faults: D-A KNOCK_MISSING in hands 2 and 4 and DEAL_OUT_OF_ORDER in hand 3; D-B BURN_MISSING_TURN in hand 6.
By hand: D-A 4 hands in 500 s -> 125.0 s per hand, 3600 * 4 / 500 = 28.8 hands/h, 3 faults -> 75.0 per 100
hands (KNOCK_MISSING 50.0, DEAL_OUT_OF_ORDER 25.0); D-B 3 hands in 340 s -> 113.3 s, 31.8 hands/h, 1 fault ->
33.33 per 100. All of it at 07:00-07:30 UTC: the "early" shift of that day.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from controller.floor.dealers import FaultRow, HandRow, parse_shifts, report, shift_of, to_csv
from controller.floor.hub import Hub
from controller.floor.ingest import Ingest
from controller.floor.store import SqliteStore
from tests.floor.publisher import alert, state

DAY = datetime(2026, 11, 20, 7, 0, tzinfo=UTC).timestamp()
SHIFTS = parse_shifts({"early": "06:00-14:00", "late": "14:00-22:00", "night": "22:00-06:00"})
DURATIONS = {1: 120, 2: 150, 3: 90, 4: 140, 5: 100, 6: 110, 7: 130}
FAULTS = [(2, "KNOCK_MISSING"), (3, "DEAL_OUT_OF_ORDER"), (4, "KNOCK_MISSING"), (6, "BURN_MISSING_TURN")]


def dealer_of(hand: int) -> str:
    return "D-A" if hand <= 4 else "D-B"


def fixture_rows() -> tuple[list[HandRow], list[FaultRow]]:
    hands, at = [], DAY
    for h, sec in DURATIONS.items():
        at += sec
        hands.append(HandRow("t1", h, dealer_of(h), at, float(sec)))
    faults = [FaultRow("t1", h, dealer_of(h), code, DAY + 60 * h) for h, code in FAULTS]
    return hands, faults


def check(rep: dict) -> None:
    a, b = rep["dealers"]
    assert (a["dealer"], a["hands"], a["sec_per_hand"], a["hands_per_hour"], a["faults"], a["per100"]) == (
        "D-A",
        4,
        125.0,
        28.8,
        3,
        75.0,
    )
    assert a["codes"] == {
        "DEAL_OUT_OF_ORDER": {"count": 1, "per100": 25.0},
        "KNOCK_MISSING": {"count": 2, "per100": 50.0},
    }
    assert a["worst"] == ["KNOCK_MISSING", "DEAL_OUT_OF_ORDER"]
    assert (b["dealer"], b["hands"], b["sec_per_hand"], b["hands_per_hour"], b["faults"], b["per100"]) == (
        "D-B",
        3,
        113.3,
        31.8,
        1,
        33.33,
    )
    assert [(s["date"], s["shift"], s["hands"]) for s in a["shifts"]] == [("2026-11-20", "early", 4)]
    trend = {p["date"]: p for p in a["trend"]}
    assert len(a["trend"]) == 30 and trend["2026-11-20"] == {
        "date": "2026-11-20",
        "hands": 4,
        "faults": 3,
        "per100": 75.0,
    }
    assert trend["2026-11-19"]["per100"] is None  # no hands that day: a gap, not a zero


def test_report_matches_the_hand_computed_figures() -> None:
    hands, faults = fixture_rows()
    check(report(hands, faults, SHIFTS, now=DAY + 3600, tz=UTC))


def test_csv_has_one_line_per_dealer_and_shift_with_code_rates() -> None:
    hands, faults = fixture_rows()
    lines = to_csv(report(hands, faults, SHIFTS, now=DAY + 3600, tz=UTC)).splitlines()
    assert lines[0] == (
        "dealer,date,shift,hands,hands_per_hour,sec_per_hand,faults,per100,worst,"
        "BURN_MISSING_TURN_per100,DEAL_OUT_OF_ORDER_per100,KNOCK_MISSING_per100"
    )
    assert lines[1] == "D-A,2026-11-20,early,4,28.8,125.0,3,75.0,KNOCK_MISSING DEAL_OUT_OF_ORDER,,25.0,50.0"
    assert lines[2] == "D-B,2026-11-20,early,3,31.8,113.3,1,33.33,BURN_MISSING_TURN,33.33,,"


def test_csv_cells_never_start_a_formula() -> None:
    hands = [HandRow("t1", 1, "=HYPERLINK(\"http://x\")", DAY, 60.0)]
    lines = to_csv(report(hands, [], SHIFTS, now=DAY, tz=UTC)).splitlines()
    assert lines[1].startswith('"\'=HYPERLINK(""http://x"")",2026-11-20,early,1,')


def test_shifts_cross_midnight_and_bad_ones_are_named() -> None:
    late_night = datetime(2026, 11, 21, 2, 30, tzinfo=UTC).timestamp()
    assert shift_of(late_night, SHIFTS, UTC) == ("night", "2026-11-20")  # began the evening before
    assert shift_of(datetime(2026, 11, 20, 23, 0, tzinfo=UTC).timestamp(), SHIFTS, UTC) == (
        "night",
        "2026-11-20",
    )
    with pytest.raises(ValueError, match="evening: '18-02' is not HH:MM-HH:MM"):
        parse_shifts({"evening": "18-02"})


def test_rotation_books_each_hand_to_its_dealer(tmp_path: Path) -> None:
    """Through ingest and the store, in the order the daemon publishes: a hand's summary goes out when the
    next hand starts, i.e. after the new dealer's badge is in the state. It still counts for the old one."""

    async def run() -> dict:
        store = SqliteStore(tmp_path / "f.sqlite3")
        await store.open()
        clock = [DAY]
        ingest = Ingest(
            store=store, hub=Hub(), prefix="cardtable", dealers={"t1": "D-config"}, clock=lambda: clock[0]
        )
        n = 0
        for h, sec in DURATIONS.items():
            await ingest.handle("cardtable/t1/state", _json(state("t1", h, "preflop", dealer=dealer_of(h))))
            if h > 1:  # the previous hand's summary arrives now
                await ingest.handle(
                    "cardtable/t1/hands",
                    _json({"table": "t1", "hand": h - 1, "t_start": 0.0, "t_end": float(DURATIONS[h - 1])}),
                )
            for fh, code in FAULTS:
                if fh == h:
                    n += 1
                    await ingest.handle("cardtable/t1/alerts", _json(alert("t1", h, n, code)))
            clock[0] += sec
        await ingest.handle("cardtable/t1/state", _json(state("t1", 8, "preflop", dealer="D-B")))
        await ingest.handle(
            "cardtable/t1/hands", _json({"table": "t1", "hand": 7, "t_start": 0.0, "t_end": 130.0})
        )
        hands, faults = await store.dealer_rows(0.0)
        await store.close()
        return report(hands, faults, SHIFTS, now=DAY + 3600, tz=UTC)

    check(asyncio.run(run()))


def _json(obj: dict) -> bytes:
    import json

    return json.dumps(obj).encode()


def test_the_dealer_event_names_the_dealer_in_the_public_state() -> None:
    """The contract's `dealer` event (a dealer push): parsed, applied without any alert, and shown in the
    state the floor books hands by; a bad one names its field."""
    from controller.core.engine import Engine
    from controller.core.eventlog import LogError, parse_line
    from controller.core.state import public_state

    engine = Engine(table="t1")
    assert "dealer" not in public_state(engine)
    assert engine.feed(parse_line('{"t": 1.0, "type": "dealer", "dealer": "D-017"}')) == []
    assert public_state(engine)["dealer"] == "D-017"
    with pytest.raises(LogError, match="dealer id") as err:
        parse_line('{"t": 2.0, "type": "dealer", "dealer": ""}', line=7)
    assert err.value.field == "dealer" and err.value.line == 7


def test_the_new_store_queries_on_both_back_ends(store_section: dict) -> None:
    """dealer_rows, replay timelines and hand summaries run the same SQL on SQLite and PostgreSQL."""
    from controller.floor.config import StoreConfig
    from controller.floor.store import open_store

    async def run() -> None:
        store = open_store(StoreConfig.model_validate(store_section))
        await store.open()
        try:
            summary = {"hand": 4, "t_start": 10.0, "t_end": 150.0}
            await store.add_hand("t1", summary, dealer="D-A", received=DAY)
            await store.add_alert(alert("t1", 4, 1, "KNOCK_MISSING"), dealer="D-A", received=DAY + 1)
            await store.add_alert(alert("t1", 4, 2, "POT_AWARD"), dealer="D-A", received=DAY + 2)
            hands, faults = await store.dealer_rows(DAY - 1)
            assert hands == [HandRow("t1", 4, "D-A", DAY, 140.0)]
            assert faults == [FaultRow("t1", 4, "D-A", "KNOCK_MISSING", DAY + 1)]  # info is no fault
            frames = [{"at": DAY, "state": {"hand": 4, "street": "flop"}}]
            await store.save_replay("t1", 4, frames, DAY + 3)
            await store.save_replay("t1", 4, frames * 2, DAY + 4)  # written again: the newer one stands
            assert await store.replay_frames("t1", 4) == frames * 2
            assert await store.replay_frames("t1", 5) is None
            assert (await store.hand_summary("t1", 4) or {}).get("t_end") == 150.0
        finally:
            await store.close()

    asyncio.run(run())
