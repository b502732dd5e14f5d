"""Strict JSON for every input edge and every output: finite numbers, 64-bit integers, bounded nesting.

Python's `json` accepts `NaN`, `Infinity` and `1e400` (which becomes inf), integers of any size (up to
4,300 digits, then a ValueError) and nesting until a RecursionError; and it writes `NaN`/`Infinity`, which
browsers' JSON.parse refuses. Event logs, the journal, MQTT payloads and HTTP bodies are read with `loads`,
which turns all of these into one `JsonError` (a ValueError); `dumps` refuses to write non-finite numbers.
"""

from __future__ import annotations

import json
import math
from typing import Any

import msgspec

MAX_INT = 2**63 - 1  # what SQLite and PostgreSQL BIGINT hold; larger numbers are no table's business
MAX_DEPTH = 32  # deeper than any payload of ours; keeps every recursive walk over the value safe
_MAX_DIGITS = 19


class JsonError(ValueError):
    """The text is not strict JSON; the message says why in a few words."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise JsonError(f"integer {text[:12]}… is out of range")
    value = int(text)
    if not -MAX_INT - 1 <= value <= MAX_INT:
        raise JsonError(f"integer {text} is out of range")
    return value


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(f"number {text[:24]} is out of range")
    return value


def _parse_constant(name: str) -> Any:
    raise JsonError(f"{name} is not a JSON number")


# One decoder and one compact encoder for every call: json.loads/dumps with options build a new one per
# call, which was a fifth of reading an event log (bench/phh_bench.py). Same checks, same results.
_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
_COMPACT = json.JSONEncoder(allow_nan=False, separators=(",", ":"), ensure_ascii=False)


# The fast path (bench/phh_bench.py, replay): msgspec decodes strict JSON about five times faster than the
# standard decoder with the number hooks above. It refuses NaN, Infinity, 1e400, bad UTF-8 and the byte-order
# mark itself and reads every other value exactly as `json` does (floats correctly rounded, the last of two
# equal keys); what it accepts and our rules refuse (an integer beyond 64 bits, nesting deeper than
# MAX_DEPTH) is checked on the value. Anything else it refuses goes to the reference path below, which
# gives the error (tests/core/test_eventlog_fast.py checks both paths agree).
_FAST = msgspec.json.Decoder()
NOT_PLAIN = object()


def loads_plain(data: str) -> Any:
    """The value of `data` by msgspec, or NOT_PLAIN when only `loads` may say (its reference path)."""
    try:
        value = _FAST.decode(data)
    except (msgspec.MsgspecError, RecursionError):
        return NOT_PLAIN
    if type(value) is dict and data.count("{") == 1 and "[" not in data:  # one flat object: an event line
        for item in value.values():
            if type(item) is int and not -MAX_INT - 1 <= item <= MAX_INT:
                return NOT_PLAIN
        return value
    return value if _walk_ok(value) else NOT_PLAIN


def _walk_ok(value: Any) -> bool:
    """Every integer within 64 bits, no deeper than MAX_DEPTH (iterative: no stack to exhaust)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is int:
            if not -MAX_INT - 1 <= item <= MAX_INT:
                return False
        elif kind is dict or kind is list:
            if depth > MAX_DEPTH:
                return False
            stack.extend((child, depth + 1) for child in (item.values() if kind is dict else item))
    return True


def _depth_ok(value: Any) -> bool:
    """Iterative, so a deep value cannot exhaust the stack here either."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True


def loads(data: str | bytes) -> Any:
    """Decode strict JSON; raises JsonError (bad UTF-8, syntax, non-finite or huge numbers, deep nesting)."""
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonError(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    value = loads_plain(data)
    if value is not NOT_PLAIN:
        return value
    return _reference_loads(data)


def _reference_loads(data: str) -> Any:
    """`loads` by the standard decoder with the strict hooks: the reference, and every error message."""
    try:
        if data.startswith("\ufeff"):  # json.loads refuses a byte-order mark; the decoder alone does not
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", data, 0)
        value = _DECODER.decode(data)
    except JsonError:
        raise
    except json.JSONDecodeError as exc:
        raise JsonError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise JsonError(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # e.g. Python's own limit on integer digits
        raise JsonError(f"not valid JSON ({exc})") from None
    if (data.count("{") > 1 or "[" in data) and not _depth_ok(value):  # one object, no list: depth 1
        raise JsonError(f"nested more than {MAX_DEPTH} levels deep")
    return value


def dumps(value: Any, **kwargs: Any) -> str:
    """json.dumps that refuses NaN and ±Infinity (ValueError) instead of writing invalid JSON."""
    return json.dumps(value, allow_nan=False, **kwargs)


def dumps_compact(value: Any) -> str:
    """`dumps(value, separators=(",", ":"), ensure_ascii=False)` with one shared encoder."""
    return _COMPACT.encode(value)
