"""Table side: sequence numbers per session, assigned once, persisted with the outbox; cmd/resend answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.daemon.outbox import Message, Outbox
from controller.daemon.sequence import (
    MAX_RANGE,
    Resender,
    ResendError,
    Sequencer,
    parse_request,
    stamp_payload,
    unstamped,
)


def alert(n: str) -> Message:
    return Message(key=f"alert:{n}", topic="alerts", payload=json.dumps({"id": n}).encode())


def stream(payload: bytes) -> dict[str, object]:
    return dict(json.loads(payload)["stream"])


def test_numbers_alerts_and_hands_not_status_and_state_carries_last(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db")
    Sequencer(ob, "s1")
    ob.record([alert("a"), Message(key="hand:s1:1", topic="hands", payload=b'{"hand":1}'),
               Message(key="state", topic="state", payload=b'{"hand":1}', qos=0, retain=True)])
    rows = {r.key: r for r in ob.pending()}
    assert stream(rows["alert:a"].payload) == {"session": "s1", "seq": 1}
    assert stream(rows["hand:s1:1"].payload) == {"session": "s1", "seq": 2}
    assert stream(rows["state"].payload) == {"session": "s1", "last": 2}
    assert rows["state"].qos == 0


def test_a_message_recorded_twice_keeps_its_number_and_leaves_no_hole(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db")
    seq = Sequencer(ob, "s1")
    ob.record([alert("a")])
    ob.ack(ob.pending()[0].seq)
    ob.record([alert("a"), alert("b")])  # "a" again (a replayed hand summary, say): ignored, no number
    assert stream(ob.pending()[0].payload)["seq"] == 2 and seq.last == 2


def test_numbers_survive_a_restart_and_start_afresh_per_session(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db")
    Sequencer(ob, "s1")
    ob.record([alert("a"), alert("b")])
    ob.close()
    ob = Outbox(tmp_path / "o.db")
    assert Sequencer(ob, "s1").last == 2
    ob.record([alert("c")])
    assert stream(ob.pending()[-1].payload) == {"session": "s1", "seq": 3}
    ob2 = Outbox(tmp_path / "o.db")
    Sequencer(ob2, "s2")
    ob2.record([alert("d")])
    assert stream(ob2.pending()[-1].payload) == {"session": "s2", "seq": 1}


def test_stamp_keeps_the_payload_bytes_before_the_block() -> None:
    raw = b'{"type":"alert","id":"t1-h1-1"}'
    stamped = stamp_payload(raw, {"session": "s", "seq": 7})
    assert stamped == b'{"type":"alert","id":"t1-h1-1","stream":{"session":"s","seq":7}}'
    assert unstamped(stamped) == raw and unstamped(raw) == raw
    with pytest.raises(ValueError):
        stamp_payload(b"[1]", {})


def test_resend_requeues_delivered_rows_in_their_order(tmp_path: Path) -> None:
    ob = Outbox(tmp_path / "o.db")
    Sequencer(ob, "s1")
    ob.record([alert(x) for x in "abcde"])
    for row in ob.pending():
        ob.ack(row.seq)
    r = Resender(ob)
    assert r.handle(b'{"session":"s1","from":2,"to":4}') == 3
    assert [x.key for x in ob.pending()] == ["alert:b", "alert:c", "alert:d"]
    assert ob.wakeup.is_set()
    # a number never given (or pruned from the outbox) is counted, not invented
    assert r.handle(b'{"session":"s1","from":5,"to":9}') == 1
    assert r.statistics()["unavailable"] == 4
    assert r.handle(b'{"session":"other","from":1,"to":1}') == 0


def test_resend_is_bounded_and_rate_limited() -> None:
    now = [0.0]
    ob = Outbox(Path(":memory:"))
    Sequencer(ob, "s")
    ob.record([alert(str(i)) for i in range(1500)])
    r = Resender(ob, rate_per_s=100.0, burst=600, clock=lambda: now[0])
    assert r.handle(json.dumps({"session": "s", "from": 1, "to": 1500}).encode()) == MAX_RANGE
    assert r.handle(b'{"session":"s","from":501,"to":1000}') == 100  # the bucket had 100 left
    assert r.handle(b'{"session":"s","from":601,"to":1000}') == 0
    now[0] = 2.0  # 200 tokens later
    assert r.handle(b'{"session":"s","from":601,"to":1000}') == 200
    assert r.statistics()["limited"] == 1000 + 400 + 400 + 200


@pytest.mark.parametrize("bad, why", [
    (b"nope", "not JSON"), (b"[]", "string 'session'"), (b'{"session":"s","from":"1","to":2}', "integers"),
    (b'{"session":"s","from":3,"to":2}', "bad range"), (b'{"session":"s","from":0,"to":2}', "bad range"),
    (b'{"session":"s","from":true,"to":2}', "integers")])
def test_bad_resend_requests_are_refused_with_a_reason(bad: bytes, why: str, tmp_path: Path) -> None:
    with pytest.raises(ResendError, match=why):
        parse_request(bad)
    ob = Outbox(tmp_path / "o.db")
    r = Resender(ob)
    assert r.handle(bad) == 0 and r.statistics()["bad"] == 1
