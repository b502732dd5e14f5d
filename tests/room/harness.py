"""Room test plumbing: the floor as a real process (stoppable with SIGSTOP), its health JSON, its live stream,
and a room of fast synthetic tables that go through the real daemon transport (journal, outbox, MQTT)."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from controller.sim.room import Room, Seat, room_config, table_ids
from tests.daemon.fakes import KnockEngine, ListSource, knocks
from tests.floor.broker import USERS, free_port
from tests.floor.conftest import PASSWORDS, users_config

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _toml(value: Any) -> str:
    return json.dumps(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) \
        else str(value)


def floor_toml(broker_port: int, web_port: int, store: dict[str, Any], client_id: str,
               broker: dict[str, Any] | None = None) -> str:
    sections: dict[str, dict[str, Any]] = {
        "broker": {"host": "127.0.0.1", "port": broker_port, "username": "floor", "password": USERS["floor"],
                   "client_id": client_id, "keepalive": 5, "backoff_initial": 0.1, "backoff_max": 1.0,
                   **(broker or {})},
        "store": store, "web": {"host": "127.0.0.1", "port": web_port}}
    lines = []
    for name, body in sections.items():
        lines.append(f"[{name}]")
        lines += [f"{k} = {_toml(v)}" for k, v in body.items()]
    for user, body in users_config().items():
        lines += [f"[users.{user}]", f"hash = {_toml(body['hash'])}", f"role = {_toml(body['role'])}"]
    return "\n".join(lines) + "\n"


class FloorProcess:
    """`cardtable floor` in its own process; pause() is SIGSTOP: the broker sees a floor that stalled."""

    def __init__(self, workdir: Path, broker_port: int, store: dict[str, Any],
                 client_id: str = "room-floor", broker: dict[str, Any] | None = None) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.config = workdir / "floor.toml"
        self.config.write_text(floor_toml(broker_port, self.port, store, client_id, broker))
        self.log = workdir / "floor.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._opener: urllib.request.OpenerDirector | None = None

    def start(self) -> None:
        with self.log.open("ab") as log:
            # CARDTABLE_FLOOR_PROFILE=FILE runs the floor under cProfile (written when it stops).
            profile = os.environ.get("CARDTABLE_FLOOR_PROFILE")
            prof = ["-m", "cProfile", "-o", f"{profile}.{self.port}"] if profile else []
            self.proc = subprocess.Popen([sys.executable, *prof, "-m", "controller", "floor", "--config",
                                          str(self.config)], cwd=ROOT, env=ENV, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"floor exited: {self.log.read_text()}")
            try:
                self.login()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("floor did not serve within 30 s")

    def login(self) -> None:
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with opener.open(self.url + "/login", timeout=5) as r:
            m = re.search(r'name="csrf" (?:value|content)="([^"]+)"', r.read().decode())
        assert m, "login page without a CSRF token"
        form = urllib.parse.urlencode({"user": "anna", "password": PASSWORDS["anna"], "csrf": m.group(1)})
        with opener.open(self.url + "/login", data=form.encode(), timeout=10) as r:
            r.read()
        self._opener = opener

    def health(self) -> dict[str, Any]:
        assert self._opener is not None
        with self._opener.open(self.url + "/api/health", timeout=10) as r:
            return dict(json.loads(r.read()))

    def cookies(self) -> dict[str, str]:
        assert self._opener is not None
        handler = next(h for h in self._opener.handlers if isinstance(h, urllib.request.HTTPCookieProcessor))
        return {c.name: str(c.value) for c in handler.cookiejar}

    def pause(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def synthetic_room(root: Path, broker_port: int, *, tables: int, alerts: int, health_s: float = 1.0,
                   prefix: str = "cardtable", gap_s: float = 0.0) -> Room:
    """`tables` tables raising `alerts` alerts each, `gap_s` apart or as fast as their transport takes them
    (a stand-in engine: one alert per knock), through the real daemon: journal, outbox with sequence
    numbers, MQTT, under the topic root `prefix`."""
    mqtt = {"enabled": True, "host": "127.0.0.1", "port": broker_port, "backoff_min_s": 0.2,
            "backoff_max_s": 2.0, "prefix": prefix}
    creds = root / "sim.credentials"
    root.mkdir(parents=True, exist_ok=True)
    creds.write_text(f"sim:{USERS['sim']}\n")
    room = Room()
    from controller.daemon.app import Daemon

    for table in table_ids("r", tables):
        cfg = room_config(table, root / table, {**mqtt, "credentials_file": str(creds)}, health_s=health_s)
        daemon = Daemon(cfg, new_session=True, engine=KnockEngine(table))
        source = ListSource(knocks(alerts), gap_s=gap_s)
        room.add(Seat(daemon=daemon, source=source, finished=source.done, end_session=False))
    return room


def expected_ids(room: Room) -> set[tuple[str, str]]:
    return {(a.table, a.id) for _t, a in room.alerts if a.code != "HEALTH"}


class LiveStream:
    """Reads the floor's SSE stream as a browser would and notes when each alert arrived."""

    def __init__(self, floor: FloorProcess) -> None:
        self.floor = floor
        self.arrived: dict[tuple[str, str], float] = {}
        self.copies = 0
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        async with aiohttp.ClientSession(cookies=self.floor.cookies()) as http, \
                http.get(self.floor.url + "/api/events", timeout=aiohttp.ClientTimeout(total=None)) as r:
            kind = ""
            async for raw in r.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "alert":
                    a = json.loads(line[6:])
                    key = (a["table"], a["id"])
                    if key in self.arrived:
                        self.copies += 1
                    self.arrived.setdefault(key, time.time())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


async def poll(check: Callable[[], Any], timeout: float, every: float = 0.2) -> Any:
    """Call check() in a worker thread until it returns something truthy; that value, or None on timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = await asyncio.to_thread(check)
        if value:
            return value
        await asyncio.sleep(every)
    return None
