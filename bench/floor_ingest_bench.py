"""How many alerts per second one floor process stores: batched transactions against one commit per message.

A private mosquitto runs the shipped config (config/mosquitto/cardtable.conf, port and paths substituted);
`--tables` mosquitto_pub processes publish `--alerts` alerts in all (QoS 1, as fast as they can) while a
floor service (in this process) ingests them into SQLite or PostgreSQL. Reported: alerts stored per second
from the first to the last, for the batched ingest (controller/floor/batch.py) and, as the peer in the
same run, the same floor with batches of one message (a commit per message, the earlier behaviour).
The total stays below the shipped queue limit (5,000), so the broker drops nothing.

    PYTHONPATH=. python bench/floor_ingest_bench.py [--alerts 4000] [--tables 8] [--dsn postgresql://…]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import getpass
import json
import shutil
import socket
import subprocess
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


def alert_lines(table: str, n: int) -> str:
    return "".join(json.dumps({"type": "alert", "id": f"{table}-h{i}-1", "t": float(i), "table": table,
                               "hand": i, "code": "BURN_MISSING", "severity": "error", "street": "flop",
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alerts", type=int, default=4000)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--dsn", help="PostgreSQL DSN (a schema is created and dropped); default SQLite")
    args = ap.parse_args()
    if not shutil.which("mosquitto") or not shutil.which("mosquitto_pub"):
        raise SystemExit("needs mosquitto and mosquitto_pub (apt-get install mosquitto mosquitto-clients)")
    with tempfile.TemporaryDirectory(prefix="floor-bench-") as tmp:
        results = {}
        for label, batch in (("batched", 200), ("one commit per message", 1)):
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
