"""Soak test of emulator -> pty -> HubLink under wire faults, hub resets and unplug/replug cycles.

A dealer script moves tags on every reader (closed loop: the next move on a reader waits until the host
has seen the previous one, as a dealer's hand would), while a fault script resets and unplugs the hub.
The host side reconciles TagReports with snapshots exactly as the RFID adapter does; the result says
whether every scripted move reached the host exactly once and in order per reader, checks every
delivered report against the hub's own record, and measures how long the link took to come back.

    python -m firmware_bridge.soak 10000 --resets 20 --replugs 20
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge import codec
from firmware_bridge.emulator import Emulator, Faults
from firmware_bridge.link import HubLink, LinkReport, LinkStatus, ReaderSnapshot, TagReport

Move = tuple[str, bool]  # (uid, present)


@dataclass(kw_only=True)
class SoakResult:
    events: int = 0
    seconds: float = 0.0
    missing: int = 0  # scripted moves the host never saw
    extra: int = 0  # host events that were not scripted (duplicates, corruptions)
    out_of_order_readers: int = 0
    report_mismatches: int = 0  # delivered reports that differ from what the hub generated
    seq_violations: int = 0  # a boot's delivered seqs not exactly 1, 2, 3, ... once each
    recovered_by_snapshot: int = 0
    resets: int = 0
    replugs: int = 0
    max_relink_s: float = 0.0
    relinks_s: list[float] = field(default_factory=list)
    link: dict[str, object] = field(default_factory=dict)
    wire: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.extra or self.out_of_order_readers or self.report_mismatches
                    or self.seq_violations)


class _Host:
    """The consumer side: what the RFID adapter does with reports, minus zones and timing."""

    def __init__(self, n_readers: int) -> None:
        self.visible: list[set[str]] = [set() for _ in range(n_readers)]
        self.moves: list[list[Move]] = [[] for _ in range(n_readers)]
        self.reports: list[TagReport] = []
        self.snapshot_moves = 0
        self.up_times: list[float] = []
        self.changed = asyncio.Event()

    def deliver(self, rep: LinkReport) -> None:
        if isinstance(rep, TagReport):
            self.reports.append(rep)
            self._set(rep.reader, rep.uid, rep.present)
        elif isinstance(rep, ReaderSnapshot):
            vis = self.visible[rep.reader]
            for uid in sorted(vis - set(rep.uids)):
                self.snapshot_moves += 1
                self._set(rep.reader, uid, False)
            for uid in sorted(set(rep.uids) - vis):
                self.snapshot_moves += 1
                self._set(rep.reader, uid, True)
        elif isinstance(rep, LinkStatus) and rep.up:
            self.up_times.append(time.monotonic())
        self.changed.set()

    def _set(self, reader: int, uid: str, present: bool) -> None:
        vis = self.visible[reader]
        if (uid in vis) == present:
            return  # already known (e.g. a rebooted hub re-reporting a tag that never moved)
        (vis.add if present else vis.discard)(uid)
        self.moves[reader].append((uid, present))


async def _dealer(emu: Emulator, host: _Host, reader: int, uids: list[str], quota: list[int],
                  script: list[Move], rng: random.Random, timeout: float) -> None:
    on: set[str] = set()
    while quota[0] > 0:
        quota[0] -= 1
        uid = rng.choice(uids)
        present = uid not in on
        (on.add if present else on.discard)(uid)
        script.append((uid, present))
        await asyncio.to_thread(emu.place if present else emu.remove, reader, uid)
        deadline = time.monotonic() + timeout
        while len(host.moves[reader]) < len(script):
            if time.monotonic() > deadline:
                raise TimeoutError(f"reader {reader}: move {len(script)} not seen within {timeout} s")
            host.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(host.changed.wait(), 0.05)
        await asyncio.sleep(rng.uniform(0, 0.01))


async def _faults(emu: Emulator, host: _Host, n_resets: int, n_replugs: int, quota: list[int],
                  rng: random.Random, result: SoakResult) -> None:
    """Spread the resets and replugs evenly over the run: fault k fires when k/(n+1) of the moves are done."""
    plan = ["reset"] * n_resets + ["replug"] * n_replugs
    rng.shuffle(plan)
    total = quota[0]
    for k, what in enumerate(plan, 1):
        while quota[0] > total - total * k // (len(plan) + 1):
            await asyncio.sleep(0.005)
        if what == "reset":
            await asyncio.to_thread(emu.reset)
            result.resets += 1
            continue
        await asyncio.to_thread(emu.unplug)
        await asyncio.sleep(rng.uniform(0.05, 0.3))
        n_up = len(host.up_times)
        await asyncio.to_thread(emu.replug)
        t0 = time.monotonic()
        while len(host.up_times) == n_up:
            await asyncio.sleep(0.002)
        result.relinks_s.append(host.up_times[n_up] - t0)
        result.replugs += 1


def _check(result: SoakResult, host: _Host, scripts: list[list[Move]], emu: Emulator) -> None:
    for script, got in zip(scripts, host.moves, strict=True):
        if got != script:
            result.out_of_order_readers += 1
        want = {}
        for m in script:
            want[m] = want.get(m, 0) + 1
        have = {}
        for m in got:
            have[m] = have.get(m, 0) + 1
        result.missing += sum(max(0, n - have.get(m, 0)) for m, n in want.items())
        result.extra += sum(max(0, n - want.get(m, 0)) for m, n in have.items())
    truth = {(e.boot_id, e.msg.seq): e.msg for e in emu.history}
    last: dict[int, int] = {}
    for rep in host.reports:
        msg = truth.get((rep.boot_id, rep.seq))
        if not (isinstance(msg, codec.TagEvent) and msg.uid.hex() == rep.uid and msg.present == rep.present
                and msg.reader == rep.reader):
            result.report_mismatches += 1
        prev = last.get(rep.boot_id)
        if prev is not None and rep.seq != codec.seq_next(prev):
            result.seq_violations += 1
        last[rep.boot_id] = rep.seq


async def run(n_events: int, *, n_resets: int = 3, n_replugs: int = 3, n_readers: int = 8,
              faults: Faults | None = None, seed: int = 1, move_timeout: float = 15.0) -> SoakResult:
    faults = faults or Faults(bit_flip=0.01, drop=0.005)
    rng = random.Random(seed)
    result = SoakResult(events=n_events)
    with tempfile.TemporaryDirectory() as tmp:
        emu = Emulator(n_readers=n_readers, link=str(Path(tmp) / "hub"), seed=seed, faults=faults, scan_ms=10)
        emu.start()
        host = _Host(n_readers)
        link = HubLink(emu.path, rng=random.Random(seed), sync_every=0.1)
        t0 = time.monotonic()
        try:
            async with asyncio.TaskGroup() as tg:
                link_task = tg.create_task(link.run(host.deliver), name="hub-link")
                while not host.up_times:
                    await asyncio.sleep(0.01)
                quota = [n_events]
                scripts: list[list[Move]] = [[] for _ in range(n_readers)]
                faults_task = tg.create_task(
                    _faults(emu, host, n_resets, n_replugs, quota, rng, result), name="faults"
                )
                async with asyncio.TaskGroup() as dealers:
                    for r in range(n_readers):
                        uids = [f"{r:02x}{k:02x}{rng.getrandbits(16):04x}" for k in range(5)]
                        dealers.create_task(_dealer(emu, host, r, uids, quota, scripts[r],
                                                    random.Random(seed * 31 + r), move_timeout))
                await faults_task
                # let in-flight snapshots settle before judging
                await asyncio.sleep(0.3)
                link_task.cancel()
        finally:
            emu.stop()
        result.seconds = time.monotonic() - t0
        result.events = sum(len(s) for s in scripts)
        result.recovered_by_snapshot = host.snapshot_moves
        result.max_relink_s = max(result.relinks_s, default=0.0)
        result.link = link.statistics()
        result.wire = {k: getattr(emu.stats, k) for k in ("flipped", "dropped", "duplicated", "bytes_out")}
        _check(result, host, scripts, emu)
    return result


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m firmware_bridge.soak")
    ap.add_argument("events", type=int, nargs="?", default=10_000)
    ap.add_argument("--resets", type=int, default=20)
    ap.add_argument("--replugs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    res = asyncio.run(run(args.events, n_resets=args.resets, n_replugs=args.replugs, seed=args.seed))
    for k, v in vars(res).items():
        if k != "relinks_s":
            print(f"{k:24} {v}")
    print(f"{'ok':24} {res.ok}")


if __name__ == "__main__":
    main()
