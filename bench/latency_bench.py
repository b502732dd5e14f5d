"""Latency of the daemon's alert path: hub-emulator tag event → alert received by an MQTT subscriber.

A 10-seat virtual table deals at 10× real speed through the reader-hub emulator (pty), the RFID adapter,
the rules core, the journal, the SQLite outbox, aiomqtt and a private mosquitto on loopback; a subscriber
in another process stamps every alert on arrival (CLOCK_MONOTONIC is shared by all processes). The peer
in the same run: the moment the core has the alert, the bench also publishes it with a plain paho client
straight to the broker (no outbox, no aiomqtt). Also reported: RSS and CPU seconds per 100 hands.

    PYTHONPATH=. python bench/latency_bench.py [--hands 30] [--speed 10] [--seats 10] [--inject 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.config import parse_config
from controller.core.alerts import Alert
from controller.core.engine import Outcome
from controller.core.events import Event
from controller.daemon.app import Daemon
from controller.sim.driver import SimDriver, VirtualClock
from controller.sim.hardware import build_hardware
from controller.sim.table import VirtualTable

SUBSCRIBER = r"""
import sys, time, json
import paho.mqtt.client as mqtt
def on_message(c, u, m):
    body = json.loads(m.payload)
    sys.stdout.write(f"{m.topic} {body['id']} {time.monotonic():.6f}\n"); sys.stdout.flush()
def on_connect(c, u, f, rc, p=None):
    c.subscribe([("cardtable/bench/alerts", 1), ("peer/alerts", 1)])
    sys.stdout.write("ready\n"); sys.stdout.flush()
c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-sub")
c.on_message = on_message; c.on_connect = on_connect
c.connect("127.0.0.1", int(sys.argv[1])); c.loop_forever()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_broker(tmp: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    conf = tmp / "mosquitto.conf"
    user = f"user {os.environ.get('USER', 'root')}\n" if os.geteuid() == 0 else ""
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n{user}")
    proc = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    raise SystemExit("mosquitto did not start")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


class Probe:
    """Times each simulated event's hand-over to its route and each alert the core raises for it."""

    def __init__(self, port: int) -> None:
        self.sent_at = 0.0
        self.sent_route = ""
        self.t0: dict[str, tuple[float, str]] = {}  # alert id → (event hand-over time, route)
        self.t_core: dict[str, float] = {}  # alert id → when the core had it (after journal + outbox)
        self.peer = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-peer")
        self.peer.connect("127.0.0.1", port)
        self.peer.loop_start()

    def sent(self, _event: Event, route: str) -> None:
        self.sent_at, self.sent_route = time.monotonic(), route

    def observe(self, event: Event | None, outcomes: list[Outcome]) -> None:
        for out in outcomes:
            if isinstance(out, Alert) and event is not None and out.code != "HEALTH":
                route = "rfid" if event.source == "rfid" else self.sent_route
                self.t0[out.id] = (self.sent_at, route)
                self.t_core[out.id] = time.monotonic()
                self.peer.publish("peer/alerts", out.dumps(), qos=1)  # the peer: straight to the broker


async def play(daemon: Daemon, driver: SimDriver, sources: list[Any]) -> None:
    stop = asyncio.Event()

    async def finish() -> None:
        await driver.finished.wait()
        for _ in range(200):
            if not daemon.outbox.pending_count():
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        stop.set()

    async with asyncio.TaskGroup() as tg:
        tg.create_task(daemon.run([*sources, driver], stop=stop))
        tg.create_task(finish())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--speed", type=float, default=10.0, help="× real time (default 10)")
    ap.add_argument("--seats", type=int, default=10)
    ap.add_argument("--inject", type=float, default=1.0, help="share of hands with a dealer error")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="cardtable-bench-"))
    broker, port = start_broker(tmp)
    sub = subprocess.Popen([sys.executable, "-c", SUBSCRIBER, str(port)], stdout=subprocess.PIPE, text=True)
    assert sub.stdout is not None
    assert sub.stdout.readline().strip() == "ready"
    arrivals: dict[tuple[str, str], float] = {}

    def read() -> None:
        assert sub.stdout is not None
        for line in sub.stdout:
            topic, ident, t = line.split()
            arrivals.setdefault((topic, ident), float(t))

    threading.Thread(target=read, daemon=True).start()
    try:
        cfg = parse_config({"state_dir": str(tmp / "state"), "table": {"id": "bench", "seats": args.seats},
                            "mqtt": {"port": port, "backoff_min_s": 0.1}, "health": {"interval_s": 5}})
        daemon = Daemon(cfg, new_session=True)
        clock = VirtualClock()
        daemon.health.clock = clock
        sources, routes = build_hardware(clock=clock, seats=args.seats, health=daemon.health)
        probe = Probe(port)
        table = VirtualTable(seats=args.seats, seed=args.seed, inject=args.inject)
        driver = SimDriver(table.hands(args.hands), clock=clock, routes=routes, speed=args.speed,
                           on_send=probe.sent)
        daemon.observers += [driver.observe, probe.observe]
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        wall0 = time.monotonic()
        asyncio.run(play(daemon, driver, sources))
        wall = time.monotonic() - wall0
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        time.sleep(1.0)
    finally:
        sub.terminate()
        broker.terminate()
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    rows: list[tuple[str, list[float], list[float]]] = []
    for label, keep in (("tag event (rfid) → alert", lambda r: r == "rfid"),
                        ("knock/console (gpio) → alert", lambda r: r == "gpio"),
                        ("direct event → alert", lambda r: r == "direct"),
                        ("any event → alert", lambda r: True)):
        ours, peer = [], []
        for ident, (t0, route) in probe.t0.items():
            if not keep(route):
                continue
            a = arrivals.get(("cardtable/bench/alerts", ident))
            b = arrivals.get(("peer/alerts", ident))
            if a is not None:
                ours.append((a - t0) * 1000)
            if b is not None:
                peer.append((b - t0) * 1000)
        rows.append((label, ours, peer))
    # What the daemon adds after the core: outbox → publisher → broker → subscriber (same split for the peer).
    ours_tail, peer_tail = [], []
    for ident, tc in probe.t_core.items():
        a = arrivals.get(("cardtable/bench/alerts", ident))
        b = arrivals.get(("peer/alerts", ident))
        if a is not None:
            ours_tail.append((a - tc) * 1000)
        if b is not None:
            peer_tail.append((b - tc) * 1000)
    rows.append(("core has alert → received", ours_tail, peer_tail))
    lost = sum(1 for ident in probe.t0 if ("cardtable/bench/alerts", ident) not in arrivals)
    print(f"{args.hands} hands, {args.seats} seats, {args.speed:g}× real time, inject {args.inject}: "
          f"{daemon.events} events, {len(probe.t0)} alerts, {lost} not received, wall {wall:.1f} s")
    print(f"{'path':<28} {'via':<30} {'n':>4} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for label, ours, peer in rows:
        for via, vals in (("outbox + aiomqtt (daemon)", ours), ("direct paho publish (peer)", peer)):
            print(f"{label:<28} {via:<30} {len(vals):>4} {pct(vals, 0.5):>8.2f} {pct(vals, 0.99):>8.2f} "
                  f"{max(vals, default=float('nan')):>8.2f}")
        if ours and peer:
            print(f"{'':<28} {'ratio daemon / peer':<30} {'':>4} "
                  f"{statistics.median(ours) / statistics.median(peer):>8.2f} "
                  f"{pct(ours, 0.99) / pct(peer, 0.99):>8.2f}")
    rss_mb = cpu1.ru_maxrss / 1024
    print(f"process (daemon + emulated hub + virtual table): max RSS {rss_mb:.1f} MB, "
          f"CPU {cpu:.2f} s = {cpu / args.hands * 100:.2f} CPU s per 100 hands at {args.speed:g}×")
    summary = {label: {"ours_p50": pct(o, .5), "ours_p99": pct(o, .99), "peer_p50": pct(p, .5),
                       "peer_p99": pct(p, .99), "n": len(o)} for label, o, p in rows}
    print(json.dumps({"rss_mb": round(rss_mb, 1), "cpu_s_per_100_hands": round(cpu / args.hands * 100, 2),
                      "rows": summary}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
