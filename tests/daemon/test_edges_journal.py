"""Journal and clock edges (issue #12, item 8): an invalid complete last line is reported and kept in
`<journal>.rejected`; a wall clock set back does not stall event times (durations use the monotonic
clock), so knock pauses are measured right."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from controller.core.events import Knock
from controller.daemon.journal import Journal, JournalError, SessionClock, iter_journal, open_session


def test_invalid_complete_last_line_is_reported_and_kept(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    p = tmp_path / "s.jsonl"
    bad = b'{"t":2.0,"type":"knock","t":NaN}\n'
    p.write_bytes(b'{"t":1.0,"type":"knock"}\n' + bad)
    j = Journal(p)
    with caplog.at_level(logging.WARNING, logger="cardtable.journal"):
        assert j.recover() == [Knock(t=1.0)]
    assert "invalid last line" in caplog.text and "s.jsonl.rejected" in caplog.text
    rejected = (tmp_path / "s.jsonl.rejected").read_bytes()
    assert rejected.startswith(b"# ") and rejected.endswith(bad)
    assert j.statistics()["rejected_bytes_on_recovery"] == len(bad)
    j.append(Knock(t=3.0))
    j.close()
    assert list(iter_journal(p)) == [Knock(t=1.0), Knock(t=3.0)]


def test_torn_line_is_kept_too_but_zeros_are_not(tmp_path: Path) -> None:
    p = tmp_path / "s.jsonl"
    p.write_bytes(b'{"t":1.0,"type":"knock"}\n{"t":2.0,"ty')
    Journal(p).recover()
    assert (tmp_path / "s.jsonl.rejected").read_bytes().endswith(b'{"t":2.0,"ty\n')
    q = tmp_path / "z.jsonl"
    q.write_bytes(b'{"t":1.0,"type":"knock"}\n' + b"\0" * 64)
    Journal(q).recover()
    assert not (tmp_path / "z.jsonl.rejected").exists()


@pytest.mark.parametrize("line", [b'{"t":1e400,"type":"knock"}', b'{"t":1,"type":"seat","seat":1,"stack":'
                                  + b"9" * 5000 + b"}", b"[" * 100000, b'{"t":Infinity,"type":"knock"}'])
def test_hostile_line_in_the_middle_is_refused_with_its_line(tmp_path: Path, line: bytes) -> None:
    p = tmp_path / "s.jsonl"
    p.write_bytes(b'{"t":1.0,"type":"knock"}\n' + line + b'\n{"t":3.0,"type":"knock"}\n')
    with pytest.raises(JournalError, match="line 2"):
        Journal(p).recover()


def test_bad_session_pointer_is_one_clear_error(tmp_path: Path) -> None:
    open_session(tmp_path, "t1")
    for text in ('{"name": "../../etc/x", "epoch": 1}', '{"name": "t1-x", "epoch": 1e999}', "[1]"):
        (tmp_path / "current-session.json").write_text(text)
        with pytest.raises(JournalError, match="unreadable session pointer"):
            open_session(tmp_path, "t1")


class Clocks:
    """A wall clock that someone sets back, and the monotonic clock that keeps going."""

    def __init__(self) -> None:
        self.wall_t = 1_000_000.0
        self.mono_t = 50.0

    def wall(self) -> float:
        return self.wall_t

    def mono(self) -> float:
        return self.mono_t

    def advance(self, s: float, *, wall_jump: float = 0.0) -> None:
        self.mono_t += s
        self.wall_t += s + wall_jump


def test_wall_clock_set_back_does_not_stall_event_times() -> None:
    c = Clocks()
    clock = SessionClock(c.wall_t - 100.0, wall=c.wall, monotonic=c.mono)
    knock = clock()
    assert knock == 100.0
    c.advance(2.5, wall_jump=-30.0)  # NTP sets the clock back 30 s while the dealer pauses 2.5 s
    card = clock()
    assert card - knock == pytest.approx(2.5)  # the pause as it was, not 0 (a false KNOCK_PAUSE_SHORT)
    c.advance(1.0, wall_jump=+3600.0)  # and forward: no hour-long pause either
    assert clock() - card == pytest.approx(1.0)


def test_restart_continues_the_timeline_from_the_wall_clock() -> None:
    c = Clocks()
    epoch = c.wall_t - 500.0
    assert SessionClock(epoch, wall=c.wall, monotonic=c.mono)() == 500.0
    assert SessionClock(epoch, floor=600.0, wall=c.wall, monotonic=c.mono)() == 600.0  # never before the log
