"""Host side of the reader-hub link (PROTOCOL.md §6-9) on pyserial + pyserial-asyncio-fast.

Exclusive open, handshake, in-order exactly-once delivery with cumulative ACKs, snapshot alignment,
liveness (ping / heartbeat), reconnection with capped jittered backoff, statistics. The bytes are the
codec's business; what to do with a tag is the consumer's (controller/hardware/rfid.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import statistics as stats_mod
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import serial  # type: ignore[import-untyped]
import serial_asyncio_fast

from firmware_bridge import codec

WINDOW = 16  # the hub's send window (PROTOCOL.md §6): how far ahead of a hole we hold events


@dataclass(frozen=True, kw_only=True, slots=True)
class TagReport:
    """A tag arrived at (present) or left a reader, delivered exactly once, in hub order."""

    reader: int
    uid: str  # lower-case hex
    present: bool
    hub_t: float  # hub clock in seconds (unwrapped microseconds)
    seq: int
    boot_id: int
    received: float  # host clock


@dataclass(frozen=True, kw_only=True, slots=True)
class ReaderStatus:
    """A reader stopped answering (ok=False) or answers again (ok=True)."""

    reader: int
    ok: bool
    received: float


@dataclass(frozen=True, kw_only=True, slots=True)
class ReaderSnapshot:
    """All tags on a reader, consistent with every TagReport delivered before it."""

    reader: int
    uids: tuple[str, ...]
    ok: bool
    received: float


@dataclass(frozen=True, kw_only=True, slots=True)
class HubRestart:
    """A new boot id: the hub's memory is gone; snapshots of every reader follow."""

    boot_id: int
    n_readers: int
    received: float


@dataclass(frozen=True, kw_only=True, slots=True)
class LinkStatus:
    up: bool
    reason: str
    received: float


LinkReport: TypeAlias = TagReport | ReaderStatus | ReaderSnapshot | HubRestart | LinkStatus
Deliver = Callable[[LinkReport], None]


BY_ID = "/dev/serial/by-id"


def resolve_port(spec: str, by_id_dir: str = BY_ID) -> str:
    """A device path from config: a path as is, or "auto" = the one MicroPython board under by-id.

    The by-id symlink names the board by its USB serial number, so it survives replugging into another
    port, when the kernel hands out a different /dev/ttyACM number.
    """
    if spec != "auto":
        return spec
    found = sorted(str(p) for p in Path(by_id_dir).glob("*MicroPython*")) if Path(by_id_dir).is_dir() else []
    if len(found) != 1:
        what = "no MicroPython board" if not found else f"{len(found)} boards ({', '.join(found)})"
        raise ValueError(f"rfid port 'auto': {what} under {by_id_dir}; give the path explicitly")
    return found[0]


class _Protocol(asyncio.Protocol):
    def __init__(self, on_bytes: Callable[[bytes], None], lost: asyncio.Future[None]) -> None:
        self._on_bytes = on_bytes
        self._lost = lost

    def data_received(self, data: bytes) -> None:
        self._on_bytes(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._lost.done():
            self._lost.set_result(None)


@dataclass(kw_only=True, slots=True)
class LinkStats:
    opens: int = 0
    open_failures: int = 0
    handshakes: int = 0
    hub_restarts: int = 0
    disconnects: int = 0
    dead_links: int = 0
    delivered: int = 0
    duplicates: int = 0
    gaps: int = 0
    snapshots: int = 0
    hub_retransmits: int = 0
    missed_reboots: int = 0  # events whose hub clock ran backwards: a reboot whose HELLO was lost
    last_up_after_open: float = 0.0


class HubLink:
    """Keeps one hub connected for as long as run() runs; hands every report to `deliver`."""

    def __init__(
        self,
        path: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        backoff_initial: float = 0.05,
        backoff_cap: float = 0.5,
        dead_after: float = 3.0,
        ping_every: float = 1.0,
        sync_every: float = 0.2,
        handshake_timeout: float = 2.0,
        snapshot_retry: float = 0.3,
    ) -> None:
        self.path = path
        self.clock = clock
        self.rng = rng or random.Random()
        self.backoff_initial = backoff_initial
        self.backoff_cap = backoff_cap
        self.dead_after = dead_after
        self.ping_every = ping_every
        self.sync_every = sync_every
        self.handshake_timeout = handshake_timeout
        self.snapshot_retry = snapshot_retry
        self.decoder = codec.Decoder(codec.HUB_TO_HOST)
        self.stats = LinkStats()
        self.boot_id: int | None = None
        self.n_readers = 0
        self.expected = 1
        self.last_delivered = 0
        self.up = False
        self._deliver: Deliver = lambda report: None
        self._transport: asyncio.BaseTransport | None = None
        self._hello = asyncio.Event()
        self._held: list[codec.Snapshot] = []
        self._reorder: dict[int, codec.Message] = {}  # events received ahead of a hole
        self._snapshot_missing: set[int] = set()
        self._reader_ok: dict[int, bool] = {}
        self._last_report: dict[int, float] = {}
        self._last_rx = 0.0
        # The hub time no later event of this boot can precede: that of the last delivered event, or of a
        # heartbeat sent with nothing unacknowledged. An event "before" it is from a new boot.
        self._hub_floor: int | None = None
        self._hub_us_base = 0  # unwrapping of the 32-bit hub clock
        self._hub_us_last = 0
        self._rtts: deque[float] = deque(maxlen=200)
        self._pings: dict[int, float] = {}
        self._token = 0
        self._command_seq = 0
        self._results: dict[int, asyncio.Future[int]] = {}
        self._fatal: str | None = None

    # -- public -------------------------------------------------------------------------------------

    async def run(self, deliver: Deliver) -> None:
        """Connect, serve, reconnect; returns only if the hub speaks another protocol version."""
        self._deliver = deliver
        delay = self.backoff_initial
        while self._fatal is None:
            if await self._session():
                delay = self.backoff_initial
            await asyncio.sleep(delay * self.rng.uniform(0.5, 1.0))
            delay = min(delay * 2, self.backoff_cap)
        raise ConnectionError(self._fatal)

    async def set_scan_rate(self, period_ms: int) -> int:
        """Returns the hub's status code (0 ok)."""
        return await self._command(lambda seq: codec.SetScanRate(period_ms, seq))

    async def configure_readers(self, enabled: int, on_cycles: int, off_cycles: int) -> int:
        return await self._command(lambda seq: codec.ConfigureReaders(enabled, on_cycles, off_cycles, seq))

    def request_snapshot(self) -> None:
        """Ask for every reader's tag set again (delivered as ReaderSnapshot, in order with the events)."""
        self._snapshot_missing |= set(range(self.n_readers))
        self._write(b"\x00" + codec.encode(codec.RequestSnapshot(codec.ALL_READERS)))

    def statistics(self) -> dict[str, Any]:
        now = self.clock()
        rtts = sorted(self._rtts)
        return {
            "path": self.path,
            "up": self.up,
            "boot_id": self.boot_id,
            "frames_good": self.decoder.frames_good,
            "frames_bad": self.decoder.frames_bad,
            "bytes_dropped": self.decoder.bytes_dropped,
            "rtt_ms_median": round(stats_mod.median(rtts) * 1000, 3) if rtts else None,
            "rtt_ms_max": round(rtts[-1] * 1000, 3) if rtts else None,
            "last_report_s_ago": {r: round(now - t, 3) for r, t in sorted(self._last_report.items())},
            "readers_ok": dict(sorted(self._reader_ok.items())),
            **dataclasses.asdict(self.stats),
        }

    # -- session ------------------------------------------------------------------------------------

    async def _session(self) -> bool:
        """One connection from open to loss; True if the handshake succeeded."""
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[None] = loop.create_future()
        opened_at = self.clock()
        try:
            transport, _ = await serial_asyncio_fast.create_serial_connection(
                loop, lambda: _Protocol(self._on_bytes, lost), self.path, baudrate=115200, exclusive=True
            )
        except (serial.SerialException, OSError, ValueError):
            self.stats.open_failures += 1
            return False
        self.stats.opens += 1
        self._transport = transport
        self.decoder.reset()
        self._hello.clear()
        self._last_rx = self.clock()
        try:
            if not await self._handshake(lost):
                return False
            self.stats.last_up_after_open = self.clock() - opened_at
            await self._serve(lost)
            return True
        finally:
            self._transport = None
            transport.close()
            if self.up:
                self.up = False
                self.stats.disconnects += 1
                self._deliver(LinkStatus(up=False, reason="disconnected", received=self.clock()))

    async def _handshake(self, lost: asyncio.Future[None]) -> bool:
        self._write(b"\x00\x00" + codec.encode(codec.Sync(codec.PROTOCOL_VERSION)))
        deadline = self.clock() + self.handshake_timeout
        while not self._hello.is_set():
            if lost.done() or self._fatal is not None or self.clock() > deadline:
                return False
            # asyncio.wait, not wait_for: 3.11's wait_for can swallow a cancellation (controller/aio.py)
            waiter = asyncio.ensure_future(self._hello.wait())
            try:
                await asyncio.wait({waiter}, timeout=self.sync_every)
            finally:
                waiter.cancel()
            if not self._hello.is_set():
                self._write(b"\x00" + codec.encode(codec.Sync(codec.PROTOCOL_VERSION)))
        return not lost.done()

    async def _serve(self, lost: asyncio.Future[None]) -> None:
        tick = min(self.ping_every, self.snapshot_retry)
        next_ping = self.clock()
        while not lost.done():
            await asyncio.wait({lost}, timeout=tick)  # never swallows a cancellation, unlike 3.11 wait_for
            now = self.clock()
            if now - self._last_rx > self.dead_after:
                self.stats.dead_links += 1  # the port is open but the hub is silent: start over
                return
            if now >= next_ping:
                next_ping = now + self.ping_every
                self._ping(now)
            if self._snapshot_missing:
                self._write(b"\x00" + codec.encode(codec.RequestSnapshot(codec.ALL_READERS)))

    def _write(self, data: bytes) -> None:
        t = self._transport
        if t is not None and not t.is_closing():
            t.write(data)  # type: ignore[attr-defined]

    def _ping(self, now: float) -> None:
        self._token = (self._token + 1) & 0xFFFFFFFF
        self._pings[self._token] = now
        if len(self._pings) > 16:
            self._pings.pop(next(iter(self._pings)))
        self._write(b"\x00" + codec.encode(codec.Ping(self._token)))

    async def _command(self, make: Callable[[int], codec.Message], tries: int = 10) -> int:
        self._command_seq = codec.seq_next(self._command_seq)
        seq = self._command_seq
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._results[seq] = fut
        try:
            for _ in range(tries):
                self._write(b"\x00" + codec.encode(make(seq)))
                done, _ = await asyncio.wait({fut}, timeout=0.2)
                if done:
                    return fut.result()
            raise TimeoutError(f"hub at {self.path} did not answer command {seq}")
        finally:
            self._results.pop(seq, None)

    # -- receive path -------------------------------------------------------------------------------

    def _on_bytes(self, data: bytes) -> None:
        now = self.clock()
        acked = False
        for msg in self.decoder.feed(data):
            self._last_rx = now
            if msg.sequenced:
                acked = self._on_event(msg, now) or acked
            else:
                self._on_other(msg, now)
        if acked and self.boot_id is not None:
            self._write(b"\x00" + codec.encode(codec.Ack(self.last_delivered, self.boot_id, self._sack())))

    def _sack(self) -> int:
        """Bit i: event last_delivered + 2 + i is held in the reorder buffer."""
        bits = 0
        for i in range(WINDOW):
            if codec.seq_add(self.last_delivered, i + 2) in self._reorder:
                bits |= 1 << i
        return bits

    def _on_event(self, msg: codec.Message, now: float) -> bool:
        if not self._hello.is_set():
            return False  # until the handshake names the boot, a seq means nothing
        d = codec.seq_diff(msg.seq, self.expected)
        if d >= 0 and self._from_new_boot(msg):
            # The hub rebooted and its HELLO was lost: this seq belongs to the new boot and means nothing
            # in ours. Do not deliver or hold it (it would be delivered again, or out of order, after the
            # resync); ask for a HELLO, whose new boot id resets us, and the hub resends its window.
            self.stats.missed_reboots += 1
            self._reorder.clear()
            self._write(b"\x00" + codec.encode(codec.Sync(codec.PROTOCOL_VERSION)))
            return False
        if d < 0 or (d > 0 and msg.seq in self._reorder):
            self.stats.duplicates += 1
            return True  # re-acknowledge: our earlier ACK may have been lost
        if d > 0:
            self.stats.gaps += 1
            if d < WINDOW:  # hold it until the hole before it is filled (selective repeat)
                self._reorder[msg.seq] = msg
            return True
        self._accept(msg, now)
        while self.expected in self._reorder:
            self._accept(self._reorder.pop(self.expected), now)
        return True

    def _from_new_boot(self, msg: codec.Message) -> bool:
        """Within one boot, events are numbered in the order they happen, so one at or after `expected`
        cannot carry a hub time before the floor; a rebooted hub's clock starts again near zero."""
        hub_us = getattr(msg, "hub_us", None)
        if self._hub_floor is None or hub_us is None:
            return False
        return _clock_diff(hub_us, self._hub_floor) < 0

    def _accept(self, msg: codec.Message, now: float) -> None:
        if self._from_new_boot(msg):  # held in the reorder buffer before a newer floor was known
            self.stats.missed_reboots += 1
            self._reorder.clear()
            self._write(b"\x00" + codec.encode(codec.Sync(codec.PROTOCOL_VERSION)))
            return
        hub_us = getattr(msg, "hub_us", None)
        if hub_us is not None:
            self._hub_floor = hub_us
        self.expected = codec.seq_next(msg.seq)
        self.last_delivered = msg.seq
        self.stats.delivered += 1
        if isinstance(msg, codec.TagEvent):
            self._last_report[msg.reader] = now
            self._deliver(TagReport(reader=msg.reader, uid=msg.uid.hex(), present=msg.present,
                                    hub_t=self._unwrap(msg.hub_us), seq=msg.seq,
                                    boot_id=self.boot_id or 0, received=now))
        elif isinstance(msg, codec.ReaderFault):
            self._set_reader_ok(msg.reader, msg.code == codec.FAULT_RECOVERED, now)
        self._release_snapshots(now)

    def _on_other(self, msg: codec.Message, now: float) -> None:
        if isinstance(msg, codec.Hello):
            self._on_hello(msg, now)
        elif isinstance(msg, codec.Snapshot):
            held = {s.reader for s in self._held}
            if self._hello.is_set() and msg.reader in self._snapshot_missing and msg.reader not in held:
                self._held.append(msg)
                self._release_snapshots(now)
        elif isinstance(msg, codec.Heartbeat):
            self._on_heartbeat(msg, now)
        elif isinstance(msg, codec.Pong):
            sent = self._pings.pop(msg.token, None)
            if sent is not None:
                self._rtts.append(now - sent)
        elif isinstance(msg, codec.Result):
            fut = self._results.get(msg.seq)
            if fut is not None and not fut.done():
                fut.set_result(msg.status)

    def _on_hello(self, msg: codec.Hello, now: float) -> None:
        if msg.version != codec.PROTOCOL_VERSION:
            self._fatal = (
                f"hub at {self.path} speaks protocol {msg.version}, this host {codec.PROTOCOL_VERSION}"
            )
            return
        if msg.boot_id != self.boot_id:
            if self.boot_id is not None:
                self.stats.hub_restarts += 1
            self.boot_id = msg.boot_id
            self.n_readers = msg.n_readers
            # Seqs run 1…65535 (0 is never used): a first_seq of 0 means "the next event is 1"; taken as
            # is, `expected` = 0 would never match and every event would wait in the reorder buffer.
            first = msg.first_seq if 1 <= msg.first_seq <= 0xFFFF else 1
            self.expected = first
            self.last_delivered = first - 1 if first > 1 else 0
            self._hub_floor = None
            self._reorder.clear()
            self._held = []
            self._snapshot_missing = set(range(msg.n_readers))
            self._hub_us_base = self._hub_us_last = 0
            self._deliver(HubRestart(boot_id=msg.boot_id, n_readers=msg.n_readers, received=now))
            self._write(b"\x00" + codec.encode(codec.RequestSnapshot(codec.ALL_READERS)))
        if not self._hello.is_set():
            self.stats.handshakes += 1
            self._hello.set()
            self.up = True
            self._deliver(LinkStatus(up=True, reason="handshake", received=now))

    def _on_heartbeat(self, msg: codec.Heartbeat, now: float) -> None:
        if self._hello.is_set() and msg.boot_id != self.boot_id:
            # We missed the HELLO of a rebooted hub: ask again so the new boot is handled properly.
            self._write(b"\x00" + codec.encode(codec.Sync(codec.PROTOCOL_VERSION)))
            return
        self.stats.hub_retransmits = msg.retransmits
        if msg.unacked == 0 and (self._hub_floor is None or _clock_diff(msg.hub_us, self._hub_floor) > 0):
            self._hub_floor = msg.hub_us  # nothing in flight: every later event happens after this
        for r in range(self.n_readers):
            if msg.readers_enabled & (1 << r):
                ok = bool(msg.readers_ok & (1 << r))
                self._set_reader_ok(r, ok, now)
                if ok:
                    self._last_report[r] = now

    def _set_reader_ok(self, reader: int, ok: bool, now: float) -> None:
        if self._reader_ok.get(reader, True) != ok:
            self._deliver(ReaderStatus(reader=reader, ok=ok, received=now))
        self._reader_ok[reader] = ok

    def _snapshot_ready(self, as_of: int) -> bool:
        if as_of == 0:
            return True
        return self.last_delivered != 0 and codec.seq_diff(self.last_delivered, as_of) >= 0

    def _release_snapshots(self, now: float) -> None:
        keep = []
        for snap in self._held:
            if snap.reader not in self._snapshot_missing:
                continue
            if not self._snapshot_ready(snap.as_of_seq):
                keep.append(snap)
                continue
            self._snapshot_missing.discard(snap.reader)
            self.stats.snapshots += 1
            self._last_report[snap.reader] = now
            self._deliver(ReaderSnapshot(reader=snap.reader, uids=tuple(u.hex() for u in snap.uids),
                                         ok=snap.ok, received=now))
        self._held = keep

    def _unwrap(self, hub_us: int) -> float:
        if hub_us < self._hub_us_last and self._hub_us_last - hub_us > 1 << 31:
            self._hub_us_base += 1 << 32
        self._hub_us_last = hub_us
        return (self._hub_us_base + hub_us) / 1e6


def _clock_diff(a: int, b: int) -> int:
    """Signed distance a - b of two 32-bit hub clock readings (microseconds, wrapping every 71.6 min)."""
    d = (a - b) & 0xFFFFFFFF
    return d - (1 << 32) if d >= 1 << 31 else d
