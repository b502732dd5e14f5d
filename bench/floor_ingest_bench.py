"""How many alerts per second one floor process stores: batched transactions against one commit per message.

A private mosquitto runs the shipped config (config/mosquitto/cardtable.conf, port and paths substituted);
`--tables` mosquitto_pub processes publish `--alerts` alerts in all (QoS 1, as fast as they can) while a
floor service (in this process) ingests them into SQLite or PostgreSQL. Reported: alerts stored per second
from the first to the last, for the batched ingest (controller/floor/batch.py) and, as the peer in the
same run, the same floor with batches of one message (a commit per message, the earlier behaviour).
The total stays below the shipped queue limit (5,000), so the broker drops nothing.

`--floors 1,2,4` (PostgreSQL only) measures how ingest grows with floor processes: N `cardtable floor`
services, each in its own OS process, on one MQTT 5 shared subscription (`broker.share_group`) and one
database schema; the rate is taken from the stored rows' receive times (first to last), so it counts what
all processes together stored. The 1-process row runs the same shared-subscription code path.

    PYTHONPATH=. python bench/floor_ingest_bench.py [--alerts 4000] [--tables 8] [--dsn postgresql://…]
    PYTHONPATH=. python bench/floor_ingest_bench.py --dsn postgresql://… --floors 1,2,4
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import getpass
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "config" / "mosquitto" / "cardtable.conf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def broker_conf(port: int, workdir: Path) -> str:
    """The shipped config for an anonymous loopback broker under `workdir`."""
    out = []
    for line in SHIPPED.read_text().splitlines():
        key = line.split(" ", 1)[0]
        line = {"listener": f"listener {port} 127.0.0.1", "password_file": "", "acl_file": "",
                "allow_anonymous": "allow_anonymous true",
                "persistence_location": f"persistence_location {workdir}/"}.get(key, line)
        out.append(line)
    return "\n".join([*out, f"user {getpass.getuser()}", f"log_dest file {workdir}/mosquitto.log"]) + "\n"


# A spread of codes as a room raises them (one code for every alert would make one hot count row).
CODES = ("DECK_INCOMPLETE", "BOXED_CARD", "CARD_OFF_TABLE", "DEAL_BEFORE_BLINDS", "DEAL_WRONG_FIRST_SEAT",
         "DEAL_OUT_OF_ORDER", "DEAL_EMPTY_SEAT", "DEAL_SEAT_SKIPPED")


def alert_lines(table: str, n: int) -> str:
    return "".join(json.dumps({"type": "alert", "id": f"{table}-h{i}-1", "t": float(i), "table": table,
                               "hand": i, "code": CODES[i % len(CODES)], "severity": "error",
                               "street": "flop",
                               "seat": None, "cards": [], "message": "m" * 80, "remedy": "r" * 160,
                               "rule": "000 §2.6", "stream": {"session": "bench", "seq": i + 1}}) + "\n"
                   for i in range(n))


async def one_run(port: int, store: dict[str, Any], alerts: int, tables: int, batch: int) -> float:
    from controller.floor import batch as batch_mod
    from controller.floor import link
    from controller.floor.app import running
    from controller.floor.config import parse_config

    link.consume = functools.partial(batch_mod.consume, max_batch=batch)  # type: ignore[attr-defined]
    cfg = parse_config({"broker": {"host": "127.0.0.1", "port": port, "client_id": f"bench-{time.time()}"},
                        "store": store, "web": {"port": 0}})
    per = alerts // tables
    async with running(cfg) as svc:
        while not svc.link.connected:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # subscriptions in place
        pubs = [subprocess.Popen(["mosquitto_pub", "-p", str(port), "-q", "1", "-l", "-t",
                                  f"cardtable/b{t:02d}/alerts"], stdin=subprocess.PIPE)
                for t in range(tables)]
        for t, p in enumerate(pubs):
            assert p.stdin is not None
            p.stdin.write(alert_lines(f"b{t:02d}", per).encode())
            p.stdin.close()
        first: float | None = None
        while svc.ingest.counts["alerts"] < per * tables:
            if first is None and svc.ingest.counts["alerts"]:
                first = time.perf_counter()
            await asyncio.sleep(0.002)
        last = time.perf_counter()
        for p in pubs:
            p.wait(30)
    return (per * tables - 1) / (last - (first or last))


async def worker(port: int, dsn: str, schema: str, client_id: str) -> None:
    """One floor process of the shared-subscription run: ingest until SIGTERM."""
    from controller.floor.app import running
    from controller.floor.config import parse_config

    cfg = parse_config({"broker": {"host": "127.0.0.1", "port": port, "client_id": client_id,
                                   "share_group": "bench"},
                        "store": {"dsn": dsn, "schema": schema}, "web": {"port": 0}})
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with running(cfg) as svc:
        while not svc.link.connected:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # subscriptions in place
        print("ready", flush=True)
        await stop.wait()


def _stored(dsn: str, schema: str) -> tuple[int, float, float]:
    import psycopg

    with psycopg.connect(dsn) as conn:
        row = conn.execute(f'SELECT COUNT(*), MIN(received), MAX(received) FROM "{schema}".alerts').fetchone()
    assert row is not None
    return int(row[0]), float(row[1] or 0.0), float(row[2] or 0.0)


def shared_run(floors: int, dsn: str, alerts: int, tables: int, d: Path) -> float:
    """N floor processes on one shared subscription and one schema: alerts stored per second, all together."""
    port = free_port()
    (d / "m.conf").write_text(broker_conf(port, d))
    broker = subprocess.Popen(["mosquitto", "-c", str(d / "m.conf")], stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    schema = f"bench_share_{int(time.time())}_{floors}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, __file__, "--worker", str(port), "--dsn", dsn, "--schema",
                               schema, "--client-id", f"bench-{floors}-{n}"], stdout=subprocess.PIPE, env=env)
             for n in range(floors)]
    try:
        for p in procs:
            assert p.stdout is not None
            if p.stdout.readline().strip() != b"ready":
                raise SystemExit("a floor process did not start")
        per = alerts // tables
        pubs = [subprocess.Popen(["mosquitto_pub", "-p", str(port), "-q", "1", "-l", "-t",
                                  f"cardtable/b{t:02d}/alerts"], stdin=subprocess.PIPE)
                for t in range(tables)]
        for t, p in enumerate(pubs):
            assert p.stdin is not None
            p.stdin.write(alert_lines(f"b{t:02d}", per).encode())
            p.stdin.close()
        deadline = time.monotonic() + 300
        while (got := _stored(dsn, schema))[0] < per * tables and time.monotonic() < deadline:
            time.sleep(0.2)
        n, first, last = got
        if n < per * tables:
            raise SystemExit(f"{floors} floor(s): only {n} of {per * tables} stored")
        for p in pubs:
            p.wait(30)
        return (n - 1) / (last - first)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(30)
        broker.terminate()
        broker.wait()
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def scaling(args: argparse.Namespace) -> None:
    counts = [int(x) for x in args.floors.split(",")]
    with tempfile.TemporaryDirectory(prefix="floor-bench-") as tmp:
        rates = {}
        for n in counts:
            d = Path(tmp) / f"floors-{n}"
            d.mkdir()
            rates[n] = shared_run(n, args.dsn, args.alerts, args.tables, d)
    print(f"PostgreSQL, {args.alerts} alerts from {args.tables} tables, floor processes on one shared "
          f"subscription ($share) and one database\n")
    print("| floor processes | alerts/s (all together) | vs 1 process |")
    print("|---|---|---|")
    for n, rate in rates.items():
        print(f"| {n} | {rate:,.0f} | {rate / rates[counts[0]]:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alerts", type=int, default=4000)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--dsn", help="PostgreSQL DSN (a schema is created and dropped); default SQLite")
    ap.add_argument("--floors", help="e.g. 1,2,4: floor processes on a shared subscription (PostgreSQL)")
    ap.add_argument("--worker", type=int, metavar="PORT", help=argparse.SUPPRESS)
    ap.add_argument("--schema", help=argparse.SUPPRESS)
    ap.add_argument("--client-id", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        asyncio.run(worker(args.worker, args.dsn, args.schema, args.client_id))
        return
    if not shutil.which("mosquitto") or not shutil.which("mosquitto_pub"):
        raise SystemExit("needs mosquitto and mosquitto_pub (apt-get install mosquitto mosquitto-clients)")
    if args.floors:
        if not args.dsn:
            raise SystemExit("--floors needs --dsn: several floor processes share one PostgreSQL database")
        scaling(args)
        return
    with tempfile.TemporaryDirectory(prefix="floor-bench-") as tmp:
        results = {}
        for label, batch in (("batched", 50), ("one commit per message", 1)):
            d = Path(tmp) / label.replace(" ", "-")
            d.mkdir()
            port = free_port()
            (d / "m.conf").write_text(broker_conf(port, d))
            broker = subprocess.Popen(["mosquitto", "-c", str(d / "m.conf")], stderr=subprocess.DEVNULL)
            time.sleep(0.5)
            schema = f"bench_{int(time.time())}_{batch}"
            store = {"dsn": args.dsn, "schema": schema} if args.dsn else {"sqlite": str(d / "f.db")}
            try:
                results[label] = asyncio.run(one_run(port, store, args.alerts, args.tables, batch))
            finally:
                broker.terminate()
                broker.wait()
                if args.dsn:
                    import psycopg

                    with psycopg.connect(args.dsn, autocommit=True) as conn:
                        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    backend = "PostgreSQL" if args.dsn else "SQLite"
    for label, rate in results.items():
        print(f"{backend}, {args.alerts} alerts from {args.tables} tables, {label}: {rate:,.0f} alerts/s")
    print(f"ratio batched / per message: {results['batched'] / results['one commit per message']:.2f}")


if __name__ == "__main__":
    main()
