"""Journal: written before the core sees an event, recovered after a crash, torn tails cut, fsync policy."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.core.events import ActionEvent, HandStart, Knock
from controller.daemon.journal import Journal, JournalError, SessionClock, iter_journal, open_session


def test_append_and_recover_round_trip(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.jsonl")
    assert j.recover() == []
    evs = [HandStart(t=1.0, button=3), Knock(t=2.0, source="tap"), ActionEvent(t=3.0, seat=4, action="fold")]
    for e in evs:
        j.append(e)
    j.close()
    j2 = Journal(tmp_path / "j.jsonl")
    assert j2.recover() == evs
    assert j2.seq == 3 and j2.last_t == 3.0


def test_torn_tail_is_cut_and_appending_continues(tmp_path: Path) -> None:
    p = tmp_path / "j.jsonl"
    p.write_bytes(b'{"t":1.0,"type":"knock"}\n{"t":2.0,"type":"kn')
    j = Journal(p)
    assert j.recover() == [Knock(t=1.0)]
    assert j.truncated_bytes == len(b'{"t":2.0,"type":"kn')
    j.append(Knock(t=3.0))
    j.close()
    assert list(iter_journal(p)) == [Knock(t=1.0), Knock(t=3.0)]


def test_zero_filled_tail_after_power_loss_is_cut(tmp_path: Path) -> None:
    p = tmp_path / "j.jsonl"
    p.write_bytes(b'{"t":1.0,"type":"knock"}\n' + b"\0" * 300)
    j = Journal(p)
    assert j.recover() == [Knock(t=1.0)]
    j.close()
    assert p.read_bytes() == b'{"t":1.0,"type":"knock"}\n'


def test_damage_in_the_middle_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "j.jsonl"
    p.write_bytes(b'{"t":1.0,"type":"knock"}\n{"t":2,"type":"bogus"}\n{"t":3.0,"type":"knock"}\n')
    with pytest.raises(JournalError, match="line 2"):
        Journal(p).recover()


def test_fsync_every_event_when_interval_zero(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.jsonl", fsync_interval_s=0)
    j.recover()
    j.append(Knock(t=1.0))
    j.append(Knock(t=2.0))
    assert j.fsyncs == 2 and not j.statistics()["unsynced"]
    j.close()


def test_group_fsync_within_interval(tmp_path: Path) -> None:
    import asyncio

    async def go() -> None:
        j = Journal(tmp_path / "j.jsonl", fsync_interval_s=0.05)
        j.recover()
        task = asyncio.create_task(j.run())
        for i in range(10):
            j.append(Knock(t=float(i)))
        assert j.fsyncs == 0  # written (visible to readers) but not yet synced
        assert len(list(iter_journal(tmp_path / "j.jsonl"))) == 10
        # One group fsync within the interval; the wait is bounded, not fixed: under load the sync itself
        # (a worker thread) can take longer than the interval (a fixed 0.15 s failed in CI at load ~5).
        for _ in range(200):
            await asyncio.sleep(0.025)
            if j.fsyncs:
                break
        await asyncio.sleep(0.1)  # no second fsync follows: nothing new was appended
        assert j.fsyncs == 1 and not j.statistics()["unsynced"]
        task.cancel()
        j.close()

    asyncio.run(go())


def test_session_pointer_resumes_and_new_session(tmp_path: Path) -> None:
    s1 = open_session(tmp_path, "t1", now=1000.0)
    s2 = open_session(tmp_path, "t1")
    assert s2 == s1
    s3 = open_session(tmp_path, "t1", new=True, now=2000.0)
    assert s3.name != s1.name and open_session(tmp_path, "t1") == s3


def test_clock_never_goes_below_floor() -> None:
    import time
    clock = SessionClock(time.time(), floor=1e6)
    assert clock() == 1e6
    clock = SessionClock(time.time() - 5)
    assert 4.9 < clock() < 6
