"""The correction tracker and the floor's `ruling` console event (issue 11, docs/interfaces.md)."""

from __future__ import annotations

import json

import pytest

from controller.core.alerts import Alert
from controller.core.corrections import Tracker
from controller.core.engine import Engine
from controller.core.eventlog import LogError, dumps_event, event_from_json, parse_line
from controller.core.events import ConsoleEvent


def test_ruling_round_trips_and_rejects_bad_fields() -> None:
    obj = {"t": 3.0, "type": "console", "button": "ruling", "ruling": "accept", "note": "as dealt",
           "id": "t1-h4-2"}
    ev = parse_line(json.dumps(obj))
    assert ev == ConsoleEvent(t=3.0, button="ruling", ruling="accept", note="as dealt", id="t1-h4-2")
    assert json.loads(dumps_event(ev)) == obj
    with pytest.raises(LogError, match="ruling"):
        event_from_json({"t": 1.0, "type": "console", "button": "ruling", "ruling": "maybe"})
    with pytest.raises(LogError, match="note"):
        event_from_json({"t": 1.0, "type": "console", "button": "ruling", "ruling": "reverse", "note": 5})


def test_tracker_statuses() -> None:
    tr = Tracker()
    tr.raised("h-1", "BURN_MISSING_TURN")
    tr.raised("h-2", "SHOWDOWN_ORDER")  # an announcement opens nothing
    tr.raised("h-3", "TURN_PREMATURE")
    tr.raised("h-4", "CORRECTION_NOT_FOLLOWED")  # closes the latest open one
    assert [(c.code, c.status) for c in tr.items] == [("BURN_MISSING_TURN", "pending"),
                                                      ("TURN_PREMATURE", "overridden")]
    assert tr.rule("reverse", "h-1", "burn it now").status == "reversed"  # type: ignore[union-attr]
    tr.raised("h-5", "BOXED_CARD")
    done = tr.close_hand()
    assert [d["status"] for d in done] == ["reversed", "overridden", "followed"]
    assert done[0]["note"] == "burn it now" and tr.items == []


def _alerts(engine: Engine, objs: list[dict[str, object]]) -> list[Alert]:
    out: list[Alert] = []
    for obj in objs:
        out += [a for a in engine.feed(event_from_json(obj)) if isinstance(a, Alert)]
    return out


def _hand_to_flop(boxed: str) -> list[dict[str, object]]:
    ev: list[dict[str, object]] = [{"type": "seat", "seat": s, "player": f"P{s}", "stack": 1000}
                                   for s in (1, 2, 3)]
    ev += [{"type": "level", "sb": 5, "bb": 10, "ante": 0}, {"type": "hand_start", "button": 1},
           {"type": "chips", "seat": 2, "amount": 5}, {"type": "chips", "seat": 3, "amount": 10}]
    ev += [{"type": "card", "zone": f"seat{s}", "card": c}
           for s, c in zip((2, 3, 1, 2, 3, 1), ("Ah", "Kd", "7c", "7d", "Qs", "Js"), strict=True)]
    ev += [{"type": "exposed", "zone": "deck", "card": boxed}]
    return ev


def _timed(objs: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{"t": float(i + 1), **o} for i, o in enumerate(objs)]


@pytest.mark.parametrize("ruling", ["accept", "reverse", None])
def test_ruling_decides_whether_the_boxed_card_may_be_played(ruling: str | None) -> None:
    """Without a ruling (or with `reverse`) the boxed card turning up on the board is one
    CORRECTION_NOT_FOLLOWED; after `accept` it is simply played."""
    seq = _hand_to_flop("Kh")
    if ruling is not None:
        seq.append({"type": "console", "button": "ruling", "ruling": ruling})
    seq += [{"type": "action", "seat": 1, "action": "call", "amount": 10},
            {"type": "action", "seat": 2, "action": "call", "amount": 10},
            {"type": "action", "seat": 3, "action": "check"}, {"type": "knock"},
            {"type": "card", "zone": "burn", "card": "2s"}, {"type": "card", "zone": "board", "card": "Kh"},
            {"type": "card", "zone": "board", "card": "8d"}, {"type": "card", "zone": "board", "card": "2c"}]
    engine = Engine(strict=True)
    codes = [a.code for a in _alerts(engine, _timed(seq)) if a.code != "KNOCK_PAUSE_SHORT"]
    ruled = ["FLOOR_RULING"] if ruling else []
    followed = [] if ruling == "accept" else ["CORRECTION_NOT_FOLLOWED"]
    assert codes == ["BOXED_CARD", *ruled, *followed]
    engine.finish(100.0)
    status = {None: "overridden", "accept": "accepted", "reverse": "overridden"}[ruling]
    assert [c["status"] for c in engine.last_corrections] == [status]


def test_a_correction_nobody_contradicts_is_followed() -> None:
    engine = Engine(strict=True)
    seq = [*_hand_to_flop("Kh"), {"type": "card", "zone": "muck", "card": "Kh"}]
    assert [a.code for a in _alerts(engine, _timed(seq))] == ["BOXED_CARD"]
    engine.finish(50.0)
    assert engine.last_corrections[0]["status"] == "followed"
    assert any("correction BOXED_CARD" in n and "followed" in n for n in engine.current.record.notes)
