"""How long the daemon's event loop stalls on its own durability work: journal fsync and outbox checkpoints.

The daemon's loop takes sensor events, feeds the core and publishes; anything blocking it delays every
alert. Two set-ups in the same run, on the same disk, with the same load:

- peer ("on the loop", the code before issue #17's follow-up): the journal's group fsync runs on the
  loop, and SQLite checkpoints the outbox's WAL inside whichever commit crosses 1,000 pages;
- current: the group fsync runs in a worker thread (Journal.sync_aside) and the outbox checkpoints in a
  worker thread on its own connection (Outbox.checkpoint_aside).

The load is a busy table made busier so that a short run crosses several checkpoints: `--rate` events
per second, each journaled and recorded in the outbox with an alert-sized and a state-sized message,
acknowledged as the publisher would. A probe task sleeps 1 ms at a time and records how late it wakes:
that lateness is the loop stall every alert would see.

    PYTHONPATH=. python bench/daemon_loop_bench.py [--seconds 15] [--rate 300]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from pathlib import Path

from controller.core.events import Knock
from controller.daemon.journal import Journal
from controller.daemon.outbox import Message, Outbox

STATE = b'{"hand": 12, "seats": [' + b", ".join([b'{"seat": 1, "stack": 10000, "bet": 0}'] * 40) + b"]}"
ALERT = b'{"type": "alert", "message": "' + b"x" * 400 + b'"}'


async def _probe(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(0.001)
        lags.append(time.perf_counter() - t0 - 0.001)


async def _load(journal: Journal, outbox: Outbox, rate: float, seconds: float) -> int:
    n, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        due = int(elapsed * rate)
        while n < due:
            n += 1
            journal.append(Knock(t=float(n)))
            outbox.record([Message(key=f"alert:{n}", topic="alerts", payload=ALERT),
                           Message(key="state", topic="state", payload=STATE, qos=0, retain=True)],
                          session="bench", event_seq=n)
            for row in outbox.pending(10):
                outbox.ack(row.seq)
        await asyncio.sleep(0.002)
    return n


async def run(aside: bool, seconds: float, rate: float, where: Path) -> dict[str, float]:
    where.mkdir(parents=True, exist_ok=True)
    journal = Journal(where / "journal.jsonl", fsync_interval_s=0.2)
    journal.sync_aside = aside
    journal.recover()
    outbox = Outbox(where / "outbox.sqlite3", checkpoint_aside=aside)
    lags: list[float] = []
    stop = asyncio.Event()
    tasks = [asyncio.create_task(journal.run()), asyncio.create_task(outbox.run()),
             asyncio.create_task(_probe(lags, stop))]
    cpu0 = time.process_time()
    events = await _load(journal, outbox, rate, seconds)
    cpu = time.process_time() - cpu0
    stop.set()
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task
    fsyncs = journal.fsyncs
    journal.close()
    checkpoints = outbox.checkpoints
    outbox.close()
    lags.sort()
    return {"events": events, "fsyncs": fsyncs, "checkpoints": checkpoints, "cpu": cpu,
            "p50": statistics.median(lags) * 1000, "p99": lags[int(0.99 * (len(lags) - 1))] * 1000,
            "p999": lags[int(0.999 * (len(lags) - 1))] * 1000, "max": lags[-1] * 1000,
            "over5": sum(1 for x in lags if x > 0.005)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--rate", type=float, default=300.0, help="events per second")
    ap.add_argument("--dir", type=Path, default=None, help="where to write (default: a temporary dir)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        res = {name: asyncio.run(run(aside, args.seconds, args.rate, Path(tmp) / name))
               for name, aside in (("on the loop (peer)", False), ("aside (current)", True))}
    print(f"loop stall, {args.rate:.0f} events/s for {args.seconds:.0f} s each (ms late on a 1 ms sleep)\n")
    print("| set-up | events | fsyncs | checkpoints aside | stall p50 | p99 | p99.9 | max | stalls > 5 ms |"
          " CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, r in res.items():
        print(f"| {name} | {r['events']:.0f} | {r['fsyncs']:.0f} | {r['checkpoints']:.0f} | {r['p50']:.2f} |"
              f" {r['p99']:.2f} | {r['p999']:.2f} | {r['max']:.1f} | {r['over5']:.0f} | {r['cpu']:.1f} |")
    peer, cur = res["on the loop (peer)"], res["aside (current)"]
    print(f"\nratio peer / current: p99 {peer['p99'] / max(cur['p99'], 1e-6):.2f}, "
          f"max {peer['max'] / max(cur['max'], 1e-6):.2f}")


if __name__ == "__main__":
    main()
