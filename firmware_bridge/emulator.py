"""The reader hub emulated under CPython: the real firmware logic (HubCore) behind a pseudo-terminal.

Scriptable (place/remove a tag on reader N, kill a reader), with fault injection on the wire (bit flips,
dropped bytes, duplicated frames) and on the device (hub reset, unplug and replug). Unplug closes the pty;
replug opens a new one and re-points the `link` symlink, the way udev re-points /dev/serial/by-id.

    python -m firmware_bridge.emulator --readers 4 --link /tmp/cardtable-hub
    # then type: place 0 04a1b2c3 | remove 0 04a1b2c3 | reset | unplug | replug | quit
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import select
import sys
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge import codec
from firmware_bridge.firmware.fakes import FakeChip
from firmware_bridge.firmware.hub import HubCore


@dataclass(frozen=True, kw_only=True, slots=True)
class Faults:
    """Wire faults, applied independently to each direction unless `hub_to_host_only`."""

    bit_flip: float = 0.0  # probability per byte that one random bit flips
    drop: float = 0.0  # probability per byte that it is lost
    duplicate: float = 0.0  # probability per write burst that it is sent twice
    hub_to_host_only: bool = False


@dataclass(kw_only=True, slots=True)
class WireStats:
    bytes_out: int = 0
    bytes_in: int = 0
    flipped: int = 0
    dropped: int = 0
    duplicated: int = 0
    resets: int = 0
    unplugs: int = 0
    lost_while_unplugged: int = 0


@dataclass(frozen=True, kw_only=True, slots=True)
class HubEvent:
    """Ground truth: a sequenced event as the hub generated it."""

    boot_id: int
    msg: codec.Message
    at: float  # time.monotonic() when generated


def parse_uid(uid: bytes | str) -> bytes:
    return bytes.fromhex(uid.replace(":", "")) if isinstance(uid, str) else bytes(uid)


@dataclass(kw_only=True)
class Emulator:
    """A reader hub with `n_readers` fake MFRC522s. start() returns the device path for the host."""

    n_readers: int = 4
    link: str | None = None  # a symlink path that always points at the current pty (like by-id)
    seed: int = 0
    faults: Faults = field(default_factory=Faults)
    scan_ms: int = 20
    on_cycles: int = 1
    off_cycles: int = 3
    miss_rate: float = 0.0  # per tag and scan: the tag does not answer (flicker)
    reset_on_unplug: bool = False  # True models a bus-powered hub that reboots when the cable is pulled
    stats: WireStats = field(default_factory=WireStats)
    history: list[HubEvent] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self.chips = [
            FakeChip(random.Random(self.seed * 100 + r), self.miss_rate) for r in range(self.n_readers)
        ]
        self._master: int | None = None
        self._slave: int | None = None
        self.pty_path = ""
        self._commands: queue.SimpleQueue[tuple[Callable[[], object], threading.Event]] = queue.SimpleQueue()
        self._wake_r, self._wake_w = os.pipe()
        self._stop = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.frozen = False
        self.hub = self._new_hub()

    # -- lifecycle ----------------------------------------------------------------------------------

    def start(self) -> str:
        self._open_pty()
        self._thread = threading.Thread(target=self._loop, name="hub-emulator", daemon=True)
        self._thread.start()
        return self.path

    @property
    def path(self) -> str:
        return self.link or self.pty_path

    def stop(self) -> None:
        if self._thread is not None:
            self._stop = True
            os.write(self._wake_w, b"x")
            self._thread.join(5)
            self._thread = None
        self._close_pty()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> Emulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- script -------------------------------------------------------------------------------------

    def place(self, reader: int, uid: bytes | str) -> None:
        u = parse_uid(uid)
        self._call(lambda: self.chips[reader].place(u))

    def remove(self, reader: int, uid: bytes | str) -> None:
        u = parse_uid(uid)
        self._call(lambda: self.chips[reader].remove(u))

    def apply(self, moves: list[tuple[int, bytes | str, bool]]) -> None:
        """Several tag moves (reader, uid, present) at one instant, between two scans."""
        parsed = [(r, parse_uid(u), p) for r, u, p in moves]

        def go() -> None:
            for r, u, p in parsed:
                (self.chips[r].place if p else self.chips[r].remove)(u)

        self._call(go)

    def set_reader_dead(self, reader: int, dead: bool = True) -> None:
        def go() -> None:
            self.chips[reader].dead = dead

        self._call(go)

    def inject(self, data: bytes) -> None:
        """Raw bytes onto the hub -> host line (line noise), bypassing the hub."""

        def go() -> None:
            if self._master is not None:
                with contextlib.suppress(OSError):
                    os.write(self._master, data)

        self._call(go)

    def freeze(self, frozen: bool = True) -> None:
        """A hung hub: the port stays open but nothing is read or sent (until the watchdog would fire)."""

        def go() -> None:
            self.frozen = frozen

        self._call(go)

    def reset(self) -> None:
        """Hub reset (watchdog, brown-out): RAM and queue are lost, new boot id; the tags stay put."""
        self._call(self._do_reset)

    def unplug(self) -> None:
        self._call(self._do_unplug)

    def replug(self) -> None:
        self._call(self._do_replug)

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def _call(self, fn: Callable[[], object]) -> None:
        if self._thread is None:
            fn()
            return
        done = threading.Event()
        self._commands.put((fn, done))
        os.write(self._wake_w, b"x")
        done.wait(5)

    # -- internals ----------------------------------------------------------------------------------

    def _new_hub(self) -> HubCore:
        boot_id = self._rng.getrandbits(32)
        return HubCore(list(self.chips), boot_id, self._tx, self._now(), self.scan_ms, self.on_cycles,
                       self.off_cycles)

    @staticmethod
    def _now() -> int:
        return int(time.monotonic() * 1e6)

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: a byte pipe like USB CDC
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.pty_path = os.ttyname(slave)
        if self.link:
            tmp = f"{self.link}.tmp{os.getpid()}"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(self.pty_path, tmp)
            os.replace(tmp, self.link)  # atomic re-point

    def _close_pty(self) -> None:
        if self.link:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.link)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    def _do_reset(self) -> None:
        self.stats.resets += 1
        self.hub = self._new_hub()

    def _do_unplug(self) -> None:
        self.stats.unplugs += 1
        self._close_pty()
        if self.reset_on_unplug:
            self.hub = self._new_hub()

    def _do_replug(self) -> None:
        if self._master is None:
            self._open_pty()

    def _mangle(self, data: bytes) -> bytes:
        f = self.faults
        if not (f.bit_flip or f.drop) or not data:
            return data
        out = bytearray()
        rng = self._rng
        for b in data:
            if f.drop and rng.random() < f.drop:
                self.stats.dropped += 1
                continue
            if f.bit_flip and rng.random() < f.bit_flip:
                b ^= 1 << rng.randrange(8)
                self.stats.flipped += 1
            out.append(b)
        return bytes(out)

    def _tx(self, data: bytes) -> None:
        """HubCore's write(): to the host through the faulty wire."""
        if self._master is None:
            self.stats.lost_while_unplugged += len(data)
            return
        bursts = 2 if self.faults.duplicate and self._rng.random() < self.faults.duplicate else 1
        self.stats.duplicated += bursts - 1
        for _ in range(bursts):
            out = self._mangle(data)
            self.stats.bytes_out += len(out)
            try:
                os.write(self._master, out)
            except (BlockingIOError, OSError):
                self.stats.lost_while_unplugged += len(out)  # nobody reading: the buffer is full

    def _record(self, before: int, hub: HubCore) -> None:
        if hub.last_seq == before:
            return
        now = time.monotonic()
        for msg in hub.queue:
            if codec.seq_diff(msg.seq, before) > 0 or before == 0:
                self.history.append(HubEvent(boot_id=hub.boot_id, msg=msg, at=now))

    def _loop(self) -> None:
        while not self._stop:
            fds = [self._wake_r] + ([self._master] if self._master is not None else [])
            ready, _, _ = select.select(fds, [], [], 0.002)
            with self._lock:
                self._step(ready)

    def _step(self, ready: list[int]) -> None:
        if self._wake_r in ready:
            os.read(self._wake_r, 4096)
        while not self._commands.empty():
            fn, done = self._commands.get()
            fn()
            done.set()
        if self.frozen:
            if self._master is not None and self._master in ready:
                with contextlib.suppress(OSError):
                    os.read(self._master, 4096)  # swallowed by the hung hub
            return
        hub = self.hub
        before = hub.last_seq
        if self._master is not None and self._master in ready:
            try:
                data = os.read(self._master, 4096)
            except OSError:
                data = b""
            if data:
                self.stats.bytes_in += len(data)
                hub.feed(data if self.faults.hub_to_host_only else self._mangle(data), self._now())
        hub.poll(self._now())
        self._record(before, hub)


def _repl(emu: Emulator) -> None:
    print(emu.path, flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        try:
            if cmd in ("place", "remove"):
                getattr(emu, cmd)(int(words[1]), words[2])
            elif cmd in ("reset", "unplug", "replug"):
                getattr(emu, cmd)()
            elif cmd == "quit":
                break
            else:
                print(f"unknown command {cmd!r} (place N UID, remove N UID, reset, unplug, replug, quit)")
                continue
            print("ok", flush=True)
        except (IndexError, ValueError) as exc:
            print(f"bad command {line.strip()!r}: {exc}", flush=True)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m firmware_bridge.emulator", description="reader-hub emulator")
    ap.add_argument("--readers", type=int, default=4)
    ap.add_argument("--link", help="symlink that always points at the current pty")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bit-flip", type=float, default=0.0)
    ap.add_argument("--drop", type=float, default=0.0)
    ap.add_argument("--duplicate", type=float, default=0.0)
    args = ap.parse_args(argv)
    emu = Emulator(n_readers=args.readers, link=args.link, seed=args.seed,
                   faults=Faults(bit_flip=args.bit_flip, drop=args.drop, duplicate=args.duplicate))
    with emu:
        _repl(emu)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
