"""TLS to a real mosquitto with a throw-away CA: the daemon verifies the broker and publishes."""

from __future__ import annotations

import asyncio
import json
import shutil
import ssl
import subprocess
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from controller.daemon.app import Daemon
from tests.daemon.broker import MOSQUITTO, Broker
from tests.daemon.fakes import KnockEngine, ListSource, knocks
from tests.daemon.test_daemon import config, run_until

OPENSSL = shutil.which("openssl")


def make_certs(d: Path) -> None:
    def ossl(*args: str) -> None:
        subprocess.run([str(OPENSSL), *args], cwd=d, check=True, capture_output=True, timeout=60)

    ossl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
         "-subj", "/CN=cardtable test CA")
    ossl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "broker.key", "-out", "broker.csr",
         "-subj", "/CN=localhost")
    (d / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    ossl("x509", "-req", "-in", "broker.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
         "-out", "broker.crt", "-days", "2", "-extfile", "san.ext")


@pytest.mark.skipif(OPENSSL is None or not Path(MOSQUITTO).exists(), reason="needs openssl and mosquitto")
def test_alerts_over_tls(tmp_path: Path) -> None:
    bdir = tmp_path / "broker"
    bdir.mkdir()
    make_certs(bdir)
    broker = Broker(bdir)
    broker.conf.write_text(broker.conf.read_text().replace(
        f"listener {broker.port} 127.0.0.1",
        f"listener {broker.port} 127.0.0.1\ncafile {bdir}/ca.crt\ncertfile {bdir}/broker.crt\n"
        f"keyfile {bdir}/broker.key"))
    broker.start()
    got: list[bytes] = []
    sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="tls-sub")
    sub.tls_set(ca_certs=str(bdir / "ca.crt"), cert_reqs=ssl.CERT_REQUIRED)
    sub.on_message = lambda _c, _u, m: got.append(m.payload)
    sub.on_connect = lambda c, *_a: c.subscribe("cardtable/t1/alerts", qos=1)
    sub.connect("localhost", broker.port)
    sub.loop_start()
    try:
        time.sleep(0.3)
        cfg = config(tmp_path, broker.port, mqtt={"tls": True, "ca_file": str(bdir / "ca.crt"),
                                                  "host": "localhost"})
        daemon = Daemon(cfg, engine=KnockEngine())
        asyncio.run(run_until(daemon, [ListSource(knocks(10))], lambda: len(got) >= 10, timeout=20))
        assert [json.loads(p)["id"] for p in got] == [f"t1-h{h}-{n}" for h in (1, 2) for n in range(1, 6)]
        assert daemon.publisher is not None and daemon.publisher.connects == 1
    finally:
        sub.disconnect()
        sub.loop_stop()
        broker.stop()
