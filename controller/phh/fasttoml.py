"""A fast reader for the plain TOML that PHH files are written in; anything else goes to tomllib.

PHH hands are flat `key = value` lines (strings, numbers, booleans, local dates and times, arrays of
those, `[n]` tables in a .phhs). tomllib reads them through a general TOML grammar one character at a
time, which was most of `parse_phh`'s time. `loads` accepts only this strict subset and gives the same
value tomllib gives (`parse_float=Decimal`); for any other text (escapes, dotted keys, inline tables,
nested arrays, date-times, underscores in numbers, a duplicate key, ...) it returns None and the caller
uses tomllib, which also reports every error. tests/phh/test_fasttoml.py checks the two agree on every
PHH file of the suite, TOML corner cases and fuzzed files.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any

_WS = r"[ \t]*"
_COMMENT = r"(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?"
_KEY = r"[A-Za-z0-9_-]+"
_SCALAR = (r"[0-9]{2}:[0-9]{2}:[0-9]{2}(?![0-9A-Za-z_.:+-])|[0-9]{4}-[0-9]{2}-[0-9]{2}(?![0-9A-Za-z_.:+-])"
           r"|'[^'\x00-\x08\x0a-\x1f\x7f]*'"
           r'|"[^"\\\x00-\x08\x0a-\x1f\x7f]*"'
           r"|[+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![0-9A-Za-z_.:+-])"
           r"|[+-]?(?:inf|nan)(?![0-9A-Za-z_])|true(?![0-9A-Za-z_])|false(?![0-9A-Za-z_])")
_HEADER = re.compile(rf"{_WS}\[{_WS}({_KEY}){_WS}\]{_WS}{_COMMENT}")
_PAIR = re.compile(rf"{_WS}({_KEY}){_WS}={_WS}(.*)", re.DOTALL)
_BLANK = re.compile(rf"{_WS}{_COMMENT}")
_ONE = re.compile(rf"({_SCALAR}){_WS}{_COMMENT}")
# Between array items: spaces, tabs, newlines and comments.
_GAP = r"(?:[ \t\n]|#[^\x00-\x08\x0a-\x1f\x7f]*\n)*"
# Items, each followed by a comma; the last may go without (no two gaps side by side: no backtracking).
_ARRAY = re.compile(rf"\[{_GAP}(?:(?:{_SCALAR}){_GAP},{_GAP})*(?:(?:{_SCALAR}){_GAP})?\]{_WS}{_COMMENT}")
_ITEM = re.compile(_SCALAR)
_NUMBER_START = frozenset("+-0123456789in")


def _value(text: str) -> Any:
    first = text[0]
    if first == "'" or first == '"':
        return text[1:-1]
    if text == "true":
        return True
    if text == "false":
        return False
    if ":" in text:  # a local time (PHH `time`), as tomllib reads it; a bad one raises ValueError
        return datetime.time(int(text[:2]), int(text[3:5]), int(text[6:8]))
    if len(text) == 10 and text[4] == "-":  # a local date
        return datetime.date(int(text[:4]), int(text[5:7]), int(text[8:10]))
    if "." in text or "e" in text or "E" in text or "n" in text:  # a float (inf, nan too): as tomllib
        return Decimal(text)
    return int(text)


def loads(text: str) -> dict[str, Any] | None:
    """The document as tomllib would read it (floats as Decimal), or None: not in the plain subset."""
    try:
        return _loads(text)
    except ValueError:  # e.g. an integer of more digits than Python converts: tomllib says so
        return None


def _loads(text: str) -> dict[str, Any] | None:
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    lines = text.split("\n")
    root: dict[str, Any] = {}
    table = root
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        i += 1
        if line.lstrip(" \t")[:1] in ("", "#"):
            if not _BLANK.fullmatch(line):
                return None
            continue
        m = _PAIR.fullmatch(line)
        if m is None:
            h = _HEADER.fullmatch(line)
            if h is None or h.group(1) in root:
                return None
            table = root[h.group(1)] = {}
            continue
        key, rest = m.group(1), m.group(2)
        if key in table:
            return None
        if rest[:1] == "[":
            while not _ARRAY.fullmatch(rest):
                if i >= n or rest.count("[") > 1:
                    return None  # not a plain array (nested, or never closed)
                rest += "\n" + lines[i]
                i += 1
            body = rest[:rest.rindex("]")]
            table[key] = [_value(v) for v in _ITEM.findall(_strip_comments(body))]
            continue
        one = _ONE.fullmatch(rest)
        if one is None:
            return None
        table[key] = _value(one.group(1))
    return root


def _strip_comments(body: str) -> str:
    """An array's text without its comments (a comment may hold quotes or digits)."""
    if "#" not in body:
        return body
    out = []
    for line in body.split("\n"):
        cut = _comment_at(line)
        out.append(line if cut < 0 else line[:cut])
    return "\n".join(out)


def _comment_at(line: str) -> int:
    """Index of the `#` that starts a comment in one line of an array, outside strings; -1 if none."""
    quote = ""
    for k, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "#":
            return k
    return -1
