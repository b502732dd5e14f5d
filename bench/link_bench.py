"""Benchmark: the cardtable hub link vs a plain newline-delimited JSON link, side by side, same pty.

Both hubs run the same firmware scan logic on the same fake readers behind a pseudo-terminal; only the
wire differs: COBS + CRC-16 + sequence numbers + ACK/retransmit (firmware_bridge) versus one JSON object
per line, fire-and-forget (what open-source RFID tables typically send). For each link it measures
events per second delivered to the host, latency from the hub's timestamp to the host event (median,
p99), and, under identical faults (bit flips, dropped bytes, duplicated writes, unplug/replug), how
many events were lost, garbled (accepted with wrong content) or duplicated.

    PYTHONPATH=. python bench/link_bench.py [--seconds 5] [--load 400]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import serial  # type: ignore[import-untyped]
import serial_asyncio_fast

from firmware_bridge import codec
from firmware_bridge.emulator import Emulator, Faults
from firmware_bridge.firmware.scan import Presence, inventory
from firmware_bridge.link import HubLink, LinkReport, TagReport

Key = tuple[int, str, bool, int]  # reader, uid, present, hub microseconds (mod 2**32)


class NdjsonHub:
    """The same scan loop as HubCore, but each event is one JSON line, sent once and forgotten."""

    def __init__(self, chips: list, write, now_us: int, scan_ms: int, off_cycles: int) -> None:  # type: ignore[type-arg, no-untyped-def]
        self.chips = chips
        self._write = write
        self.scan_us = scan_ms * 1000
        self.next_scan = now_us
        self.presence = [Presence(1, off_cycles) for _ in chips]
        self.generated: list[Key] = []
        self.last_seq = 0
        self.queue: list[codec.Message] = []
        self.boot_id = 0

    def feed(self, data: bytes, now_us: int) -> None:
        pass  # nothing to hear from the host: no handshake, no acknowledgements

    def poll(self, now_us: int) -> None:
        if now_us < self.next_scan:
            return
        self.next_scan = max(self.next_scan + self.scan_us, now_us - self.scan_us)
        lines = []
        for r, chip in enumerate(self.chips):
            for present, uid in self.presence[r].update(inventory(chip)):
                t = now_us & 0xFFFFFFFF
                self.generated.append((r, uid.hex(), present, t))
                lines.append(json.dumps({"reader": r, "uid": uid.hex(), "present": present, "t_us": t}))
        if lines:
            self._write(("\n".join(lines) + "\n").encode())


class NdjsonEmulator(Emulator):
    def _new_hub(self) -> NdjsonHub:  # type: ignore[override]
        return NdjsonHub(list(self.chips), self._tx, self._now(), self.scan_ms, self.off_cycles)


class _Lines(asyncio.Protocol):
    def __init__(self, on_line, lost: asyncio.Future[None]) -> None:  # type: ignore[no-untyped-def]
        self.buf = b""
        self.on_line = on_line
        self.lost = lost

    def data_received(self, data: bytes) -> None:
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            self.on_line(line, time.monotonic())

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)


async def ndjson_host(path: str, got: list[tuple[Key, float]], stats: dict[str, int]) -> None:
    """Read lines, keep what parses; reconnect after an unplug with the same capped backoff."""

    def on_line(line: bytes, now: float) -> None:
        try:
            obj = json.loads(line)
            key = (int(obj["reader"]), str(obj["uid"]), bool(obj["present"]), int(obj["t_us"]))
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            stats["bad_lines"] += 1
            return
        got.append((key, now))

    loop = asyncio.get_running_loop()
    delay = 0.05
    while True:
        lost: asyncio.Future[None] = loop.create_future()
        proto = _Lines(on_line, lost)
        try:
            transport, _ = await serial_asyncio_fast.create_serial_connection(
                loop, lambda p=proto: p, path, baudrate=115200, exclusive=True)
        except (OSError, serial.SerialException):  # not there yet (unplugged): retry
            await asyncio.sleep(delay * random.uniform(0.5, 1.0))
            delay = min(delay * 2, 0.5)
            continue
        delay = 0.05
        await lost
        transport.close()


@dataclass
class Row:
    link: str
    faults: bool
    generated: int
    delivered: int
    lost: int
    garbled: int
    duplicated: int
    seconds: float
    latencies: list[float]

    def cells(self) -> list[str]:
        lat = sorted(self.latencies)
        med = statistics.median(lat) * 1000 if lat else float("nan")
        p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000 if lat else float("nan")
        rate = self.delivered / self.seconds if self.seconds else 0.0
        return [self.link, "faults" if self.faults else "clean", f"{rate:.0f}", f"{med:.2f}", f"{p99:.2f}",
                str(self.generated), str(self.delivered), str(self.lost), str(self.garbled),
                str(self.duplicated)]


def workload(emu: Emulator, seconds: float, load: float, replugs: int, stop: threading.Event,
             rng: random.Random) -> None:
    """Toggle tags on 8 readers so that about `load` events per second arise; unplug/replug mid-run."""
    tags = [[f"{r:02x}{k:02x}beef" for k in range(6)] for r in range(emu.n_readers)]
    on: set[tuple[int, str]] = set()
    t0 = time.monotonic()
    plug_at = [t0 + seconds * (i + 1) / (replugs + 1) for i in range(replugs)]
    batch_every = 0.02
    per_batch = max(1, round(load * batch_every))
    while time.monotonic() - t0 < seconds and not stop.is_set():
        moves = []
        for _ in range(per_batch):
            r = rng.randrange(emu.n_readers)
            uid = rng.choice(tags[r])
            present = (r, uid) not in on
            if any(m[0] == r and m[1] == uid for m in moves):
                continue
            (on.add if present else on.discard)((r, uid))
            moves.append((r, uid, present))
        emu.apply(moves)  # type: ignore[arg-type]
        if plug_at and time.monotonic() >= plug_at[0]:
            plug_at.pop(0)
            emu.unplug()
            time.sleep(0.2)
            emu.replug()
        time.sleep(batch_every)


def lat_of(received: float, hub_us: int) -> float:
    return ((int(received * 1e6) - hub_us) % (1 << 32)) / 1e6


async def run_cardtable(seconds: float, load: float, faults: Faults, replugs: int, seed: int) -> Row:
    with tempfile.TemporaryDirectory() as tmp:
        emu = Emulator(n_readers=8, link=str(Path(tmp) / "hub"), seed=seed, faults=faults, scan_ms=10)
        emu.start()
        reports: list[TagReport] = []

        def deliver(rep: LinkReport) -> None:
            if isinstance(rep, TagReport):
                reports.append(rep)

        link = HubLink(emu.path, rng=random.Random(seed), sync_every=0.1)
        task = asyncio.create_task(link.run(deliver))
        while not link.up:
            await asyncio.sleep(0.01)
        stop = threading.Event()
        t0 = time.monotonic()
        await asyncio.to_thread(workload, emu, seconds, load, replugs, stop, random.Random(seed))
        elapsed = 0.0
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # drain: until the host has everything the hub generated
            generated = [e for e in emu.history if isinstance(e.msg, codec.TagEvent)]
            if len(reports) >= len(generated):
                elapsed = elapsed or time.monotonic() - t0
                await asyncio.sleep(0.3)  # hysteresis may still produce a removal
                if len([e for e in emu.history if isinstance(e.msg, codec.TagEvent)]) == len(generated):
                    break
            else:
                elapsed = 0.0
            await asyncio.sleep(0.01)
        elapsed = elapsed or time.monotonic() - t0
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        emu.stop()
    truth = {(e.boot_id, e.msg.seq): e.msg for e in generated}
    seen = set()
    garbled = dup = 0
    for rep in reports:
        msg = truth.get((rep.boot_id, rep.seq))
        if not isinstance(msg, codec.TagEvent) or msg.uid.hex() != rep.uid or msg.present != rep.present:
            garbled += 1
        elif (rep.boot_id, rep.seq) in seen:
            dup += 1
        seen.add((rep.boot_id, rep.seq))
    lat = [lat_of(r.received, round(r.hub_t * 1e6) % (1 << 32)) for r in reports]
    return Row("cardtable", bool(faults.bit_flip), len(generated), len(reports), len(truth) - len(seen),
               garbled, dup, elapsed, lat)


async def run_ndjson(seconds: float, load: float, faults: Faults, replugs: int, seed: int) -> Row:
    with tempfile.TemporaryDirectory() as tmp:
        emu = NdjsonEmulator(n_readers=8, link=str(Path(tmp) / "hub"), seed=seed, faults=faults, scan_ms=10)
        emu.start()
        got: list[tuple[Key, float]] = []
        stats = {"bad_lines": 0}
        task = asyncio.create_task(ndjson_host(emu.path, got, stats))
        await asyncio.sleep(0.2)
        stop = threading.Event()
        t0 = time.monotonic()
        await asyncio.to_thread(workload, emu, seconds, load, replugs, stop, random.Random(seed))
        await asyncio.sleep(0.5)  # nothing will be resent; give the last lines time to arrive
        elapsed = time.monotonic() - t0
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        hub = emu.hub
        emu.stop()
    generated = list(hub.generated)  # type: ignore[attr-defined]
    truth = set(generated)
    seen: set[Key] = set()
    garbled = dup = 0
    for key, _t in got:
        if key not in truth:
            garbled += 1
        elif key in seen:
            dup += 1
        seen.add(key)
    lat = [lat_of(t, key[3]) for key, t in got if key in truth]
    return Row("ndjson", bool(faults.bit_flip), len(generated), len(got), len(truth - seen), garbled, dup,
               elapsed, lat)


async def main_async(seconds: float, load: float, seed: int) -> list[Row]:
    clean = Faults()
    bad = Faults(bit_flip=0.01, drop=0.005, duplicate=0.005)
    rows = []
    for faults, replugs in ((clean, 0), (bad, 2)):
        rows.append(await run_cardtable(seconds, load, faults, replugs, seed))
        rows.append(await run_ndjson(seconds, load, faults, replugs, seed))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--load", type=float, default=400.0, help="tag moves offered per second")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rows = asyncio.run(main_async(args.seconds, args.load, args.seed))
    head = ["link", "wire", "events/s", "median ms", "p99 ms", "generated", "delivered", "lost", "garbled",
            "duplicated"]
    table = [head] + [r.cells() for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for row in table:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))
    print(f"\n{args.seconds:.0f} s per run, offered {args.load:.0f} tag moves/s on 8 readers, scan 10 ms; "
          "faults = 1 % bit flips, 0.5 % dropped bytes, 0.5 % duplicated writes, 2 unplug/replug cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
