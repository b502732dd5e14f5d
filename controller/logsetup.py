"""Logging for every command: level, text / logfmt / JSON records, journald priorities, rate-limited repeats.

Under systemd (stderr is the journal's stream: $JOURNAL_STREAM names its device and inode) each line starts
with the syslog priority `<N>` that journald turns into the record's PRIORITY (SyslogLevelPrefix=yes is
systemd's default), and the timestamp is left out: the journal has its own. Structured fields go in
`extra={"fields": {...}}` and appear as key=value (logfmt) or keys of the JSON object.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

LEVELS = ("debug", "info", "warning", "error", "critical")
FORMATS = ("text", "logfmt", "json")

# syslog priorities (sd-daemon.h): journalctl -p uses them.
_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


def syslog_priority(levelno: int) -> int:
    """The syslog priority of a logging level (levels in between round to the next lower severity)."""
    for level in sorted(_PRIORITY, reverse=True):
        if levelno >= level:
            return _PRIORITY[level]
    return 7


def under_journal(stream: TextIO, env: Mapping[str, str] = os.environ) -> bool:
    """True when `stream` is connected to journald ($JOURNAL_STREAM is "device:inode" of that socket)."""
    value = env.get("JOURNAL_STREAM", "")
    dev, _, ino = value.partition(":")
    try:
        st = os.fstat(stream.fileno())
        return bool(ino) and (st.st_dev, st.st_ino) == (int(dev), int(ino))
    except (OSError, ValueError, AttributeError):
        return False


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = getattr(record, "fields", None)
    return dict(fields) if isinstance(fields, Mapping) else {}


def _logfmt_value(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), default=str)
    if text and not any(c in text for c in ' ="\\\n') and text.isprintable():
        return text
    return json.dumps(text, ensure_ascii=False)


class Formatter(logging.Formatter):
    """One line per record in `fmt`; `journal` adds the `<N>` priority prefix and drops the timestamp."""

    def __init__(self, fmt: str = "text", *, journal: bool = False) -> None:
        super().__init__()
        self.kind = fmt
        self.journal = journal

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info:
            message += "\n" + self.formatException(record.exc_info)
        fields = _fields(record)
        level = record.levelname.lower()
        stamp = self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}"
        if self.kind == "json":
            body: dict[str, Any] = {} if self.journal else {"ts": stamp}
            body |= {"level": level, "logger": record.name, "msg": message, **fields}
            line = json.dumps(body, ensure_ascii=False, default=str)
        elif self.kind == "logfmt":
            pairs = ([] if self.journal else [("ts", stamp)]) + [
                ("level", level), ("logger", record.name), ("msg", message), *fields.items()]
            line = " ".join(f"{k}={_logfmt_value(v)}" for k, v in pairs)
        else:
            extra = "".join(f" {k}={_logfmt_value(v)}" for k, v in fields.items())
            line = f"{record.levelname} {record.name}: {message}{extra}"
            if not self.journal:
                line = f"{stamp} {line}"
        if self.journal:  # journald reads the prefix of every line, so a traceback keeps its priority
            prefix = f"<{syslog_priority(record.levelno)}>"
            line = "\n".join(prefix + part for part in line.split("\n"))
        return line


class RepeatFilter(logging.Filter):
    """At most `burst` records per message template and logger in each `window` seconds.

    A broker that stays away logs its reconnect warning a few times, not every few seconds all night; the
    first record after a quiet spell says how many were held back.
    """

    def __init__(self, *, burst: int = 3, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self.clock = clock
        self._seen: dict[tuple[str, int, str], list[float | int]] = {}  # key → [window start, count, held]

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        entry = self._seen.get(key)
        if entry is None or now - entry[0] >= self.window:
            held = int(entry[2]) if entry else 0
            self._seen[key] = [now, 1, 0]
            if held:
                record.msg = f"{record.msg} (and {held} more like it held back in the last {self.window:g} s)"
            return True
        entry[1] += 1
        if entry[1] <= self.burst:
            return True
        entry[2] += 1
        return False


def setup(level: str = "info", fmt: str = "text", *, stream: TextIO | None = None,
          env: Mapping[str, str] = os.environ) -> logging.Handler:
    """Configure the root logger once for a command; returns the handler (tests read its settings)."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(Formatter(fmt, journal=under_journal(stream, env)))
    handler.addFilter(RepeatFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # Library chatter (aiohttp access, asyncio debug) stays at warning unless we debug.
    for noisy in ("asyncio", "aiohttp.access"):
        logging.getLogger(noisy).setLevel(logging.DEBUG if level == "debug" else logging.WARNING)
    return handler


def redact_url(scheme: str, host: str, port: int, user: str | None) -> str:
    """A broker URL safe for a log line: the user name, never the password."""
    who = f"{user}@" if user else ""
    return f"{scheme}://{who}{host}:{port}"
