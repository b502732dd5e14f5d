"""The fast paths of the event log (strict JSON by msgspec, common events built directly, flat events written
straight to text) give exactly what the reference paths give: the same values, events, text and errors."""

from __future__ import annotations

import functools
import json
import math
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.core import strictjson
from controller.core.eventlog import (
    LogError,
    _fast_event,
    _reference_event,
    dumps_event,
    event_from_json,
    event_to_json,
    read_events,
)
from controller.core.events import (
    ActionEvent,
    BaseEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    Exposed,
    Knock,
    SeatEvent,
)
from controller.phh import parse_phh
from controller.phh.importer import hands_to_events
from controller.sim import VirtualTable
from tests.fuzz.common import fuzz_settings

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ["1e400", "-1e400", "NaN", "Infinity", "1" + "0" * 30, "9223372036854775807", "9223372036854775808",
           "-9223372036854775808", "-9223372036854775809", "12345678901234567890", "-1", "0", "-0", "1.5",
           "-0.0", "1e16", "5e-324", "1E2", "true", "false", "null", '""', '"x"', '"seat3"', '"Ah"', '"ah"',
           '"04a1b2"', '"04A1B2"', '"04a1b"', '" 04a1b2"', "{}", "[]", "[1,[2]]", '{"a":[{"b":1}]}',
           '"\\ud800"', '"é\\n\\u0000"', '"fold"', '"raise"', "3", "10", "11", "100", "3.0",
           "[" * 40 + "]" * 40]


def _same(a: Any, b: Any) -> bool:
    """Equal values of equal types all the way down (1 is not 1.0, -0.0 is not 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack("d", a) == struct.pack("d", b)
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "ok", fn(*args)
    except (strictjson.JsonError, LogError) as exc:
        return type(exc).__name__, str(exc)


@functools.cache
def _lines() -> tuple[str, ...]:
    """Event lines of every kind: the golden scenarios, the fuzz base log and an imported PHH file."""
    lines = [ln for p in sorted((ROOT / "tests" / "scenarios").rglob("*.jsonl"))
             if not p.name.endswith(".expected.jsonl") for ln in p.read_text(encoding="utf-8").splitlines()]
    lines += (ROOT / "tests" / "data" / "fuzz" / "base.jsonl").read_text(encoding="utf-8").splitlines()
    phh = (ROOT / "tests" / "data" / "phh" / "ps_25NL_handhq_1_first5.phhs").read_text(encoding="utf-8")
    lines += [dumps_event(ev) for ev in hands_to_events(parse_phh(phh))]
    return tuple(ln for ln in lines if ln.strip())


def _read_one(text: str, max_seat: int) -> Any:
    return [ev for _, ev in read_events([text], max_seat=max_seat)]


def _reference_one(text: str, max_seat: int) -> Any:
    try:
        obj = strictjson._reference_loads(text)
    except strictjson.JsonError as exc:
        raise LogError(str(exc), line=1) from None
    try:
        return [_reference_event(obj, max_seat)] if text.strip() else []
    except LogError as exc:
        raise LogError(exc.reason, line=1, field=exc.field) from None


def _check_line(text: str) -> None:
    if text.strip():
        assert _outcome(_read_one, text, 10) == _outcome(_reference_one, text, 10), text
    fast, ref = _outcome(strictjson.loads, text), _outcome(strictjson._reference_loads, text)
    assert fast[0] == ref[0] and (_same(fast[1], ref[1]) if fast[0] == "ok" else fast[1] == ref[1]), text
    if fast[0] != "ok":
        return
    for max_seat in (10, 99):
        got = _outcome(lambda obj, m: event_from_json(obj, max_seat=m), fast[1], max_seat)
        want = _outcome(_reference_event, fast[1], max_seat)
        assert got == want, text


def test_every_logged_line_reads_alike_both_ways() -> None:
    lines = _lines()
    assert len(lines) > 3000
    fast_built = 0
    for text in lines:
        _check_line(text)
        obj = json.loads(text)
        fast_built += _fast_event(obj, 10) is not None if isinstance(obj, dict) else 0
    assert fast_built > len(lines) // 2  # the fast path is really taken


@fuzz_settings(600)
@given(index=st.integers(0, 10**6), key=st.text(min_size=1, max_size=8) | st.sampled_from(
    ["t", "type", "zone", "card", "uid", "seat", "amount", "action", "declared", "source", "unread", "player",
     "stack"]),
    value=st.sampled_from(HOSTILE), drop=st.booleans())
def test_mutated_lines_read_alike_both_ways(index: int, key: str, value: str, drop: bool) -> None:
    lines = _lines()
    obj = json.loads(lines[index % len(lines)])
    if drop:
        obj.pop(key, None)
        text = json.dumps(obj)
    else:
        obj[key] = "__V__"
        text = json.dumps(obj).replace('"__V__"', value)
    _check_line(text)


@pytest.mark.parametrize("text", [*HOSTILE, "", " ", "\ufeff{}", '{"t":1}x', '{"a":1,"a":2.5}', "[1,]",
                                  '{"t": 1 , "type" :"knock"}\n', '{"t":1,"type":"knock"}\r\n', "01", "1.",
                                  '"\t"', '{"t":1e2,"type":"knock"}'])
def test_odd_texts_read_alike_both_ways(text: str) -> None:
    _check_line(text)


@fuzz_settings(300)
@given(text=st.text(max_size=60))
def test_random_texts_read_alike_both_ways(text: str) -> None:
    _check_line(text)


def _events() -> list[BaseEvent]:
    vt = VirtualTable(seats=6, seed=3, inject=0.5, game="mixed")
    events: list[BaseEvent] = [e for h in vt.hands(12) for e in h.events]
    events += [CardSeen(t=1e16, zone="seat1", card="Ah"), CardGone(t=0, zone="muck", unread=True),
               Exposed(t=-0.0, zone="seat2"), Knock(t=2.5, source="tap"), Knock(t=3, source="é\"\\\n"),
               SeatEvent(t=1.0, seat=2, player=None, stack=0),
               SeatEvent(t=1.0, seat=2, player="Zoë \u2028", stack=5),
               ActionEvent(t=4.0, seat=1, action="check"),
               ChipsEvent(t=5.0, seat=3, amount=7, declared="raise", declared_amount=9),
               CardSeen(t=math.nan, zone="seat1", card="Ah"), CardSeen(t=True, zone="seat1", card="Ah"),
               CardSeen(t=1.0, zone="séat1", card="Ah"), CardSeen(t=1.0, zone='se"at\n', card="Ah"),
               Exposed(t=1.0, zone="seat1", uid="04a1b2"), CardGone(t=1.0, zone="seat1", uid="04:a1"),
               CardSeen(t=1.0, zone="seat1", card="Ah", uid="04a1b2"),
               CardSeen(t=1.0, zone="seat1", card="ah")]
    return events


def _written(fn: Any, ev: BaseEvent) -> tuple[str, str]:
    try:
        return "ok", fn(ev)
    except ValueError as exc:  # NaN: the compact encoder refuses it
        return "ValueError", str(exc)


def test_every_event_is_written_alike_both_ways() -> None:
    for ev in _events():
        reference = _written(lambda e: strictjson.dumps_compact(event_to_json(e)), ev)
        assert _written(dumps_event, ev) == reference, ev
