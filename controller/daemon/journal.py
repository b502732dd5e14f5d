"""The session's event journal: an append-only JSON Lines log written before the rules core sees an event.

Durability policy (docs/daemon.md §Journal):
- every event is written with one `os.write` on an O_APPEND descriptor, so it is in the kernel's page cache
  before the core sees it: a crash or SIGKILL of the daemon loses nothing that was fed to the core;
- `fsync` runs at most every `fsync_interval_s` (default 0.2 s) while there are unsynced lines, and at
  shutdown; `fsync_interval_s = 0` syncs after every event. A power loss loses at most that window;
- the group fsync runs in a worker thread (the event loop goes on taking events while the card syncs);
  `fsync_interval_s = 0` keeps its sync on the loop, inside append(), because it promises more: an event
  is on disk before the core sees it. A lock keeps close() from closing the descriptor under a sync;
- on start the journal is read back; a torn last line (power loss mid-write, or the zero bytes some file
  systems leave) or an invalid complete last line is cut off, logged and kept in `<journal>.rejected`;
  anything malformed before the last line is refused with the line number.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.core import strictjson
from controller.core.eventlog import LogError, dumps_event, parse_line
from controller.core.events import Event
from controller.errors import UsageError

log = logging.getLogger("cardtable.journal")
_NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")  # a session name is a file name in sessions/


class JournalError(UsageError):
    """The journal on disk cannot be resumed (corrupt in the middle, unreadable)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Session:
    """One recording session: its journal file and the wall-clock epoch its `t` counts from."""

    name: str
    path: Path
    epoch: float


def open_session(state_dir: Path, table: str, *, new: bool = False, now: float | None = None) -> Session:
    """Resume the current session of `state_dir` or start a new one (see _open_session); a file system
    error is one JournalError naming the path."""
    try:
        return _open_session(state_dir, table, new=new, now=now)
    except OSError as exc:
        raise JournalError(f"state_dir {state_dir}: {exc.filename or ''}: {exc.strerror or exc}") from None


def _open_session(state_dir: Path, table: str, *, new: bool = False, now: float | None = None) -> Session:
    """Resume the current session of `state_dir` (after a restart or crash) or start a new one.

    The pointer file `current-session.json` names the session; `new=True` starts a fresh one.
    """
    sessions = state_dir / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    pointer = state_dir / "current-session.json"
    if not new and pointer.exists():
        try:
            info = strictjson.loads(pointer.read_bytes())
            if not _NAME.fullmatch(str(info["name"])) or not math.isfinite(float(info["epoch"])):
                raise ValueError("bad name or epoch")
            return Session(name=str(info["name"]), path=sessions / f"{info['name']}.jsonl",
                           epoch=float(info["epoch"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise JournalError(f"{pointer}: unreadable session pointer ({exc}); "
                               "start with --new-session") from None
    epoch = time.time() if now is None else now
    # The random part keeps two sessions of one table id apart even when they start in the same second
    # in different state dirs (two simulate runs onto one floor): the name is part of every alert id.
    name = f"{table}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime(epoch))}-{secrets.token_hex(2)}"
    while (sessions / f"{name}.jsonl").exists():  # two sessions in one second (tests)
        name += "x"
    tmp = pointer.with_suffix(".tmp")
    tmp.write_text(strictjson.dumps({"name": name, "epoch": epoch}), encoding="utf-8")
    os.replace(tmp, pointer)  # atomic: a crash leaves the old or the new pointer, never half of one
    return Session(name=name, path=sessions / f"{name}.jsonl", epoch=epoch)


class SessionClock:
    """Seconds since the session's epoch, never earlier than the last journaled event, rounded to the
    millisecond for readable logs.

    The wall clock places the start (so a restarted daemon continues the session's timeline); from then
    on the monotonic clock measures: a wall clock set back by NTP or by hand would otherwise stall `t`
    at the floor, and two events seconds apart would look simultaneous (a false KNOCK_PAUSE_SHORT), and
    one set forward would look like a long pause."""

    def __init__(self, epoch: float, floor: float = 0.0, *, wall: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.epoch = epoch
        self.floor = floor
        self._monotonic = monotonic
        self._start = wall() - epoch
        self._mono0 = monotonic()

    def __call__(self) -> float:
        now = round(self._start + (self._monotonic() - self._mono0), 3)
        if now < self.floor:
            now = self.floor
        self.floor = now
        return now


def _scan(data: bytes, path: Path) -> tuple[list[Event], int]:
    """Parse journal bytes; return the events and the byte length of the valid prefix."""
    events: list[Event] = []
    pos = 0
    number = 0
    last_t = -1.0
    while pos < len(data):
        end = data.find(b"\n", pos)
        number += 1
        line = data[pos:] if end < 0 else data[pos:end]
        try:
            if end < 0:
                raise LogError("torn line without newline", line=number)
            if not line.strip():
                pos = end + 1
                continue
            event = parse_line(line.decode("utf-8"), line=number)
            if event.t < last_t:
                raise LogError("time goes backwards", line=number, field="t")
        except (LogError, UnicodeDecodeError) as exc:
            rest = data[(len(data) if end < 0 else end + 1):]
            if rest.strip(b"\0 \n"):  # damage before the tail: not a torn write, refuse to guess
                raise JournalError(f"journal {path}: {exc}") from None
            return events, pos
        last_t = event.t
        events.append(event)
        pos = end + 1
    return events, pos


class Journal:
    """Append-only writer of one session's journal with the documented fsync policy."""

    def __init__(self, path: Path, *, fsync_interval_s: float = 0.2) -> None:
        self.path = path
        self.fsync_interval_s = fsync_interval_s
        self._fd: int | None = None
        self._dirty = False
        self._wake = asyncio.Event()
        self.seq = 0  # number of events in the journal (the last event's 1-based position)
        self.last_t = 0.0
        self.truncated_bytes = 0
        self.rejected_bytes = 0  # of those, kept in `<journal>.rejected` (not just zeros or blanks)
        self.write_failures = 0  # writes and fsyncs the disk refused (full, failing)
        self.fsyncs = 0
        self.bytes = 0
        self.sync_aside = True  # group fsync in a worker thread (False: on the loop, the old way; benches)
        self._fd_lock = threading.Lock()  # a sync in the worker and close() never overlap

    def recover(self) -> list[Event]:
        """Open the journal for appending and return the events already in it (cutting a torn tail)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            data = self.path.read_bytes() if self.path.exists() else b""
        except OSError as exc:
            raise JournalError(f"journal {self.path}: cannot read: {exc.strerror}") from None
        events, good = _scan(data, self.path)
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o640)
        except OSError as exc:
            raise JournalError(f"journal {self.path}: cannot open for writing: {exc.strerror}") from None
        if good < len(data):
            self._reject_tail(data[good:], good)
            self.truncated_bytes = len(data) - good
            os.ftruncate(self._fd, good)
            os.fsync(self._fd)
        self.seq = len(events)
        self.bytes = good
        self.last_t = events[-1].t if events else 0.0
        return events

    def _reject_tail(self, tail: bytes, offset: int) -> None:
        """A cut tail is said and kept: a torn write is expected after a power loss, but a complete line
        that does not parse is someone's data. Both go to `<journal>.rejected` (appended, with the byte
        offset), so nothing is dropped silently."""
        if not tail.strip(b"\0 \n"):
            return  # zeros or blank space a file system left after a power loss: nothing to keep
        rejected = self.path.with_name(self.path.name + ".rejected")
        complete = b"\n" in tail.rstrip(b"\0")
        log.warning("journal %s: %s at byte %d (%d bytes) cut off and kept in %s", self.path,
                    "an invalid last line" if complete else "a torn last line", offset,
                    len(tail), rejected)
        header = f"# {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} offset {offset}\n"
        with open(rejected, "ab") as fh:
            fh.write(header.encode() + tail.rstrip(b"\0") + (b"" if tail.endswith(b"\n") else b"\n"))
            fh.flush()
            os.fsync(fh.fileno())
        self.rejected_bytes += len(tail)

    def append(self, event: Event) -> int:
        """Write one event (one write call) and return its position; fsync per policy."""
        assert self._fd is not None, "recover() first"
        data = (dumps_event(event) + "\n").encode("utf-8")
        try:
            written = os.write(self._fd, data)
            while written < len(data):  # a full disk can take part of a line, then refuse the rest
                written += os.write(self._fd, data[written:])
        except OSError:
            # No torn line may stay in the middle of the journal (recovery would refuse it): cut back to
            # the last whole line, which a full disk allows, and let the caller keep the event for later.
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self.bytes)
            self.write_failures += 1
            raise
        self.seq += 1
        self.bytes += len(data)
        self.last_t = event.t
        if self.fsync_interval_s == 0:
            self.sync()
        else:
            self._dirty = True
            self._wake.set()
        return self.seq

    def sync(self) -> None:
        """fsync now, on the calling thread (shutdown, `fsync_interval_s = 0`)."""
        self._dirty = False
        if not self._fsync():
            self._dirty = True

    def _fsync(self) -> bool:
        """One fsync of everything written so far; False when the disk refused it (counted, logged)."""
        with self._fd_lock:
            if self._fd is None:
                return True
            try:
                os.fsync(self._fd)
            except OSError as exc:  # ENOSPC/EIO from a full or failing card: say so, try again next time
                self.write_failures += 1
                log.warning("journal %s: fsync failed: %s", self.path, exc.strerror or exc)
                return False
            self.fsyncs += 1
            return True

    async def run(self) -> None:
        """The journal task: group-commit fsync at most every `fsync_interval_s` while lines are unsynced.

        The fsync runs in a worker thread: on an SD card it can take tens of milliseconds, during which
        the loop keeps taking events and publishing. Lines appended while it runs are not covered by it
        (they set the dirty flag again) and go with the next one, so the window a power loss can take
        stays `fsync_interval_s` plus one fsync."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            await asyncio.sleep(self.fsync_interval_s)
            if self._dirty:
                self._dirty = False  # before the sync: a line written during it marks it dirty again
                try:
                    ok = await asyncio.to_thread(self._fsync) if self.sync_aside else self._fsync()
                except asyncio.CancelledError:
                    self._dirty = True  # shutting down mid-sync: close() syncs once more, to be sure
                    raise
                if not ok:
                    self._dirty = True
                    self._wake.set()

    def close(self) -> None:
        if self._fd is not None:
            if self._dirty:
                self.sync()
            with self._fd_lock:
                os.close(self._fd)
                self._fd = None

    def statistics(self) -> dict[str, Any]:
        return {"events": self.seq, "bytes": self.bytes, "fsyncs": self.fsyncs,
                "unsynced": self._dirty, "truncated_bytes_on_recovery": self.truncated_bytes,
                "rejected_bytes_on_recovery": self.rejected_bytes, "write_failures": self.write_failures}


def iter_journal(path: Path) -> Iterator[Event]:
    """Read a journal for tools and tests (same torn-tail rule as recovery)."""
    events, _ = _scan(path.read_bytes(), path)
    yield from events
