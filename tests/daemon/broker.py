"""A private Mosquitto for tests: free loopback port, generated config in a tmp dir, stop/start on demand."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from tests.room.shipped import shipped_config

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """mosquitto on 127.0.0.1:<port> under the shipped config (persistence, queue limits)."""

    def __init__(self, tmp: Path, *, passwords: dict[str, str] | None = None, acl: str | None = None,
                 port: int | None = None) -> None:
        self.dir = tmp
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        pwfile: Path | None = None
        if passwords is not None:
            pwfile = tmp / "passwd"
            pwfile.write_text("")
            for user, pw in passwords.items():
                subprocess.run(["mosquitto_passwd", "-b", str(pwfile), user, pw], check=True,
                               capture_output=True)
            pwfile.chmod(0o600)
        if acl is not None:
            (tmp / "acl").write_text(acl)
        # The shipped config (queue limits, persistence), with only port, paths and passwords substituted.
        text = shipped_config(port=self.port, workdir=tmp, password_file=pwfile,
                              acl_file=tmp / "acl" if acl is not None else None)
        self.conf = tmp / "mosquitto.conf"
        self.conf.write_text(text)

    def start(self) -> None:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


class Subscriber:
    """A paho subscriber in its own thread with a persistent session (QoS 1, clean_session False)."""

    def __init__(self, port: int, topics: Iterable[str], *, client_id: str = "test-sub",
                 username: str | None = None, password: str | None = None) -> None:
        self.messages: list[tuple[str, bytes, bool, float]] = []
        self.lock = threading.Lock()
        self.topics = list(topics)
        self.connected = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
        if username:
            self.client.username_pw_set(username, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(0.1, 0.5)
        self.client.connect("127.0.0.1", port, keepalive=10)
        self.client.loop_start()
        if not self.connected.wait(10):
            raise RuntimeError("subscriber did not connect")

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, rc: Any, _p: Any = None) -> None:
        for t in self.topics:
            client.subscribe(t, qos=1)
        self.connected.set()

    def _on_message(self, _c: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.messages.append((msg.topic, bytes(msg.payload), bool(msg.retain), time.perf_counter()))

    def on(self, suffix: str) -> list[bytes]:
        with self.lock:
            return [p for t, p, _r, _ts in self.messages if t.endswith(suffix)]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
