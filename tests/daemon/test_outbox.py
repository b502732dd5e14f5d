"""Outbox: in order, leaves only on ack, alert ids de-duplicate, state coalesces, processed marker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.daemon.outbox import Message, Outbox


def msg(key: str, topic: str = "alerts", retain: bool = False) -> Message:
    return Message(key=key, topic=topic, payload=key.encode(), retain=retain)


def test_order_and_ack(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db")
    ob.record([msg("alert:a"), msg("alert:b")])
    ob.record([msg("alert:c")])
    rows = ob.pending()
    assert [r.key for r in rows] == ["alert:a", "alert:b", "alert:c"]
    ob.ack(rows[0].seq)
    assert [r.key for r in ob.pending()] == ["alert:b", "alert:c"]


def test_survives_reopen_unacked(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db")
    ob.record([msg("alert:a"), msg("alert:b")])
    ob.ack(ob.pending()[0].seq)
    ob.close()
    ob2 = Outbox(tmp_path / "o.db")
    assert [r.key for r in ob2.pending()] == ["alert:b"]
    assert ob2.wakeup.is_set()


def test_duplicate_alert_id_is_ignored_even_after_ack(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db")
    ob.record([msg("alert:a")])
    ob.ack(ob.pending()[0].seq)
    ob.record([msg("alert:a")])
    assert ob.pending() == [] and ob.ignored == 1


def test_state_coalesces_and_moves_to_the_end(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db")
    ob.record([Message(key="state", topic="state", payload=b"1", retain=True), msg("alert:a")])
    ob.record([Message(key="state", topic="state", payload=b"2", retain=True)])
    rows = ob.pending()
    assert [(r.key, r.payload) for r in rows] == [("alert:a", b"alert:a"), ("state", b"2")]
    assert rows[1].retain


def test_processed_marker_is_per_session_and_atomic(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db")
    ob.record([msg("alert:a")], session="s1", event_seq=7)
    assert ob.processed("s1") == 7 and ob.processed("s2") == 0
    def broken() -> Iterator[Message]:
        yield msg("alert:b")
        raise RuntimeError("crash while building the outcomes")

    with pytest.raises(RuntimeError):
        ob.record(broken(), session="s1", event_seq=8)
    # The failed transaction left neither the alert nor the marker behind.
    assert ob.processed("s1") == 7 and [r.key for r in ob.pending()] == ["alert:a"]


def test_prune_only_acked_past_retention(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db", retention_s=10)
    ob.record([msg("alert:a"), msg("alert:b")])
    ob.ack(ob.pending()[0].seq)
    assert ob.prune(now=1e12) == 1
    assert [r.key for r in ob.pending()] == ["alert:b"]
