"""HubLink over the pty emulator and sans-IO: handshake, exactly-once delivery, resync, reconnect, faults."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import serial

from firmware_bridge import codec, soak
from firmware_bridge.emulator import Emulator, Faults
from firmware_bridge.link import (
    HubLink,
    HubRestart,
    LinkReport,
    LinkStatus,
    ReaderSnapshot,
    ReaderStatus,
    TagReport,
    resolve_port,
)

FULL = os.environ.get("CARDTABLE_FULL") == "1"


async def wait_until(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.005)


async def with_link(emu: Emulator, body: Callable[[HubLink, list[LinkReport]], Awaitable[None]],
                    **kw: float) -> None:
    link = HubLink(emu.path, rng=random.Random(1), **kw)  # type: ignore[arg-type]
    reports: list[LinkReport] = []
    task = asyncio.create_task(link.run(reports.append))
    try:
        await wait_until(lambda: link.up)
        await body(link, reports)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def tags(reports: list[LinkReport]) -> list[tuple[int, str, bool]]:
    return [(r.reader, r.uid, r.present) for r in reports if isinstance(r, TagReport)]


def test_soak_every_event_exactly_once_in_order_and_fast_relink() -> None:
    n, resets, replugs = (10_000, 20, 20) if FULL else (1_000, 3, 3)
    res = asyncio.run(soak.run(n, n_resets=resets, n_replugs=replugs,
                               faults=Faults(bit_flip=0.01, drop=0.005), seed=7))
    print(f"soak: {res.events} events in {res.seconds:.1f} s, max relink {res.max_relink_s:.3f} s, "
          f"recovered by snapshot {res.recovered_by_snapshot}, link {res.link}")
    assert res.events == n
    assert res.missing == 0 and res.extra == 0 and res.out_of_order_readers == 0
    assert res.report_mismatches == 0 and res.seq_violations == 0
    assert res.resets == resets and res.replugs == replugs
    assert res.max_relink_s < 1.0
    assert res.link["frames_bad"] > 0 and res.wire["flipped"] > 0  # the faults really happened


def test_handshake_snapshot_and_tag_events(tmp_path: Path) -> None:
    emu = Emulator(n_readers=2, link=str(tmp_path / "hub"))

    async def body(link: HubLink, reps: list[LinkReport]) -> None:
        await wait_until(lambda: link.stats.snapshots == 2)
        assert isinstance(reps[0], HubRestart) and isinstance(reps[1], LinkStatus) and reps[1].up
        emu.place(1, "04a1b2c3d4e5f6")
        emu.place(1, "deadbeef")
        await wait_until(lambda: len(tags(reps)) == 2)
        emu.remove(1, "deadbeef")
        await wait_until(lambda: len(tags(reps)) == 3)
        assert tags(reps) == [(1, "04a1b2c3d4e5f6", True), (1, "deadbeef", True), (1, "deadbeef", False)]
        link.request_snapshot()
        await wait_until(lambda: link.stats.snapshots == 4)
        assert [r.uids for r in reps if isinstance(r, ReaderSnapshot)][-2:] == [(), ("04a1b2c3d4e5f6",)]
        assert await link.set_scan_rate(15) == codec.STATUS_OK
        assert await link.configure_readers(0b11, 1, 4) == codec.STATUS_OK
        assert emu.hub.scan_us == 15_000 and emu.hub.off_cycles == 4
        await asyncio.sleep(1.1)
        st = link.statistics()
        assert st["rtt_ms_median"] is not None and st["frames_bad"] == 0 and st["delivered"] == 3
        assert set(st["last_report_s_ago"]) == {0, 1}

    with emu:
        asyncio.run(with_link(emu, body))


def test_exclusive_open(tmp_path: Path) -> None:
    emu = Emulator(n_readers=1, link=str(tmp_path / "hub"))

    async def body(link: HubLink, reps: list[LinkReport]) -> None:
        with pytest.raises(serial.SerialException):
            serial.Serial(emu.path, exclusive=True)

    with emu:
        asyncio.run(with_link(emu, body))


def test_duplicated_frames_and_garbage_are_dropped(tmp_path: Path) -> None:
    faults = Faults(duplicate=0.3, hub_to_host_only=True)
    emu = Emulator(n_readers=2, link=str(tmp_path / "hub"), faults=faults)

    async def body(link: HubLink, reps: list[LinkReport]) -> None:
        for i in range(12):  # 6 per reader (a reader reports at most 8)
            emu.place(i % 2, f"0{i % 2}0000{i:02x}")
            emu.inject(bytes(random.Random(i).getrandbits(8) for _ in range(40)))  # line noise
            await asyncio.sleep(0.02)
        await wait_until(lambda: len(tags(reps)) == 12)
        await asyncio.sleep(0.3)
        assert sorted(tags(reps)) == sorted((i % 2, f"0{i % 2}0000{i:02x}", True) for i in range(12))
        assert link.stats.duplicates > 0 and link.decoder.frames_bad > 0

    with emu:
        asyncio.run(with_link(emu, body))


def test_reader_fault_event_when_a_reader_stops_answering(tmp_path: Path) -> None:
    emu = Emulator(n_readers=3, link=str(tmp_path / "hub"))

    async def body(link: HubLink, reps: list[LinkReport]) -> None:
        emu.set_reader_dead(2)
        await wait_until(lambda: any(isinstance(r, ReaderStatus) for r in reps))
        assert [(r.reader, r.ok) for r in reps if isinstance(r, ReaderStatus)] == [(2, False)]
        emu.set_reader_dead(2, False)
        await wait_until(lambda: sum(isinstance(r, ReaderStatus) for r in reps) == 2)
        await asyncio.sleep(1.1)  # heartbeats agree and repeat nothing
        assert [(r.reader, r.ok) for r in reps if isinstance(r, ReaderStatus)] == [(2, False), (2, True)]

    with emu:
        asyncio.run(with_link(emu, body))


def test_hub_reset_gives_restart_and_consistent_snapshots(tmp_path: Path) -> None:
    emu = Emulator(n_readers=2, link=str(tmp_path / "hub"))

    async def body(link: HubLink, reps: list[LinkReport]) -> None:
        emu.place(0, "11111111")
        await wait_until(lambda: len(tags(reps)) == 1)
        boot = link.boot_id
        emu.unplug()  # a bus-powered hub: pulling the cable is also a reboot
        emu.remove(0, "11111111")
        emu.place(0, "22222222")
        emu.reset()
        emu.replug()
        await wait_until(lambda: link.stats.snapshots == 4)
        assert link.boot_id != boot and link.stats.hub_restarts == 1
        i = max(k for k, r in enumerate(reps) if isinstance(r, HubRestart))
        snaps = [r for r in reps[i:] if isinstance(r, ReaderSnapshot)]
        assert {s.reader: s.uids for s in snaps} == {0: ("22222222",), 1: ()}
        assert tags(reps[i:]) == [(0, "22222222", True)]  # the new boot reports what it sees

    with emu:
        asyncio.run(with_link(emu, body))


def test_unplug_replug_keeps_the_queue_and_relinks_with_capped_backoff(tmp_path: Path) -> None:
    emu = Emulator(n_readers=1, link=str(tmp_path / "hub"))

    async def body(link: HubLink, reps: list[LinkReport]) -> None:
        emu.unplug()
        await wait_until(lambda: not link.up)
        for i in range(5):  # the hub keeps scanning and queueing while nobody listens
            emu.place(0, f"aa0000{i:02x}")
            await asyncio.sleep(0.03)
        await asyncio.sleep(1.5)
        failures = link.stats.open_failures
        assert 3 <= failures <= 20  # 50 ms doubling, capped at 500 ms, jittered
        emu.replug()
        t0 = time.monotonic()
        await wait_until(lambda: link.up)
        assert time.monotonic() - t0 < 1.0  # backoff cap 0.5 s plus the handshake
        await wait_until(lambda: len(tags(reps)) == 5)
        assert [u for _r, u, _p in tags(reps)] == [f"aa0000{i:02x}" for i in range(5)]
        assert link.stats.hub_restarts == 0  # same boot: no snapshot needed, nothing lost

    with emu:
        asyncio.run(with_link(emu, body))


def test_a_silent_hub_is_declared_dead_and_the_port_reopened(tmp_path: Path) -> None:
    emu = Emulator(n_readers=1, link=str(tmp_path / "hub"))

    async def body(link: HubLink, reps: list[LinkReport]) -> None:
        emu.freeze()
        await wait_until(lambda: not link.up, timeout=3)
        assert link.stats.dead_links == 1
        emu.freeze(False)
        await wait_until(lambda: link.up, timeout=3)
        emu.place(0, "0badcafe")
        await wait_until(lambda: tags(reps) == [(0, "0badcafe", True)])

    with emu:
        asyncio.run(with_link(emu, body, dead_after=0.5, ping_every=0.1))


class FakeTransport:
    def __init__(self) -> None:
        self.written = bytearray()

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return False

    def sent(self) -> list[codec.Message]:
        out = codec.Decoder(codec.HOST_TO_HUB).feed(bytes(self.written))
        self.written.clear()
        return out


def sans_io_link() -> tuple[HubLink, FakeTransport, list[LinkReport]]:
    link = HubLink("/dev/null")
    t = FakeTransport()
    reps: list[LinkReport] = []
    link._transport = t  # type: ignore[assignment]
    link._deliver = reps.append
    link._on_bytes(codec.encode(codec.Hello(1, 0xB0, 2, 1)))
    return link, t, reps


def ev(seq: int, present: bool = True, uid: bytes = b"\x01\x02\x03\x04") -> bytes:
    return codec.encode(codec.TagEvent(seq, present, 0, seq * 1000, uid))


def test_sans_io_in_order_delivery_duplicates_and_gaps() -> None:
    link, t, reps = sans_io_link()
    assert [type(m) for m in t.sent()] == [codec.RequestSnapshot]
    link._on_bytes(ev(1) + ev(3) + ev(5) + ev(1))  # 3 and 5 arrive across holes, 1 twice
    assert [r.seq for r in reps if isinstance(r, TagReport)] == [1]
    assert link.stats.gaps == 2 and link.stats.duplicates == 1
    assert t.sent() == [codec.Ack(1, 0xB0, 0b101)]  # holding 3 (bit 0) and 5 (bit 2): resend 2 and 4
    link._on_bytes(ev(2) + ev(3))
    assert [r.seq for r in reps if isinstance(r, TagReport)] == [1, 2, 3]  # 3 came from the buffer
    assert t.sent() == [codec.Ack(3, 0xB0, 0b1)] and link.stats.duplicates == 2
    link._on_bytes(ev(4))
    assert [r.seq for r in reps if isinstance(r, TagReport)] == [1, 2, 3, 4, 5]
    assert t.sent() == [codec.Ack(5, 0xB0, 0)]


def test_sans_io_snapshot_held_until_its_events_are_delivered() -> None:
    link, _t, reps = sans_io_link()
    link._on_bytes(codec.encode(codec.Snapshot(0, 5, 2, True, [b"\x01\x02\x03\x04"])))
    assert not any(isinstance(r, ReaderSnapshot) for r in reps)
    link._on_bytes(ev(1))
    assert not any(isinstance(r, ReaderSnapshot) for r in reps)
    link._on_bytes(ev(2, uid=b"\x05\x06\x07\x08"))
    kinds = [type(r).__name__ for r in reps[2:]]
    assert kinds == ["TagReport", "TagReport", "ReaderSnapshot"]


def test_sans_io_heartbeat_of_another_boot_asks_for_hello_and_version_mismatch_is_fatal() -> None:
    link, t, _reps = sans_io_link()
    t.sent()
    link._on_bytes(codec.encode(codec.Heartbeat(1, 0xB1, 0, 0, 3, 3)))
    assert [type(m) for m in t.sent()] == [codec.Sync]
    link._on_bytes(codec.encode(codec.Hello(1, 0xB1, 2, 1)))
    assert link.boot_id == 0xB1 and link.stats.hub_restarts == 1
    link._on_bytes(codec.encode(codec.Hello(2, 0xB2, 2, 1)))
    assert link._fatal is not None and "protocol 2" in link._fatal


def test_resolve_port_by_id(tmp_path: Path) -> None:
    assert resolve_port("/dev/ttyACM0") == "/dev/ttyACM0"
    with pytest.raises(ValueError, match="no MicroPython board"):
        resolve_port("auto", str(tmp_path))
    (tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614c311b4a2b2f-if00").touch()
    assert resolve_port("auto", str(tmp_path)).endswith("e6614c311b4a2b2f-if00")
    (tmp_path / "usb-MicroPython_Board_in_FS_mode_0000-if00").touch()
    with pytest.raises(ValueError, match="2 boards"):
        resolve_port("auto", str(tmp_path))
