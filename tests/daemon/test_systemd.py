"""The systemd unit passes `systemd-analyze verify` and scores ≤ 2.5; sd_notify READY and WATCHDOG work."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from controller.config import parse_config
from controller.daemon import sdnotify
from controller.daemon.app import Daemon
from tests.daemon.broker import free_port
from tests.daemon.fakes import KnockEngine

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "cardtable.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze not installed")


@needs_analyze
def test_unit_verifies(tmp_path: Path) -> None:
    # verify also checks that ExecStart's program exists: point it at this checkout's interpreter
    # (the installed path /opt/cardtable/venv/bin/cardtable exists only on a Pi set up by install-pi.sh).
    text = UNIT.read_text()
    assert "ExecStart=/opt/cardtable/venv/bin/cardtable run --config /etc/cardtable/table.toml" in text
    unit = tmp_path / "cardtable.service"
    unit.write_text(text.replace("/opt/cardtable/venv/bin/cardtable", f"{sys.executable} -m controller"))
    res = subprocess.run([str(ANALYZE), "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "cardtable.service" not in res.stderr, res.stderr  # no warnings about our unit


@needs_analyze
def test_unit_security_exposure_at_most_2_5() -> None:
    res = subprocess.run([str(ANALYZE), "security", "--offline=true", str(UNIT)],
                         capture_output=True, text=True, timeout=60)
    m = re.search(r"Overall exposure level for cardtable\.service: (\d+\.\d)", res.stdout + res.stderr)
    assert m, res.stdout + res.stderr
    print(f"\nsystemd-analyze security: {m.group(1)}")
    assert float(m.group(1)) <= 2.5


def test_unit_essentials() -> None:
    text = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "ProtectSystem=strict",
                 "NoNewPrivileges=yes", "User=cardtable", "SupplementaryGroups=dialout gpio video",
                 "StateDirectory=cardtable"):
        assert line in text, line


def test_ready_before_broker_and_watchdog_pings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sock_path = tmp_path / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(sock_path))
    server.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(sock_path))
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # 0.2 s: a ping every 0.1 s
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert sdnotify.watchdog_interval() == pytest.approx(0.1)
    cfg = parse_config({"state_dir": str(tmp_path / "state"), "mqtt": {"port": free_port()}})
    daemon = Daemon(cfg, engine=KnockEngine())
    got: list[str] = []

    def drain() -> None:
        while True:
            try:
                got.append(server.recv(4096).decode())
            except BlockingIOError:
                return

    async def go() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(daemon.run([], stop=stop))
        for _ in range(20):
            await asyncio.sleep(0.05)
            drain()
        stop.set()
        await task
        drain()

    asyncio.run(go())
    server.close()
    assert got[0].startswith("READY=1")
    assert daemon.publisher is not None and not daemon.publisher.connected  # no broker: READY anyway
    assert got.count("WATCHDOG=1") >= 5
    assert got[-1] == "STOPPING=1"


def test_notify_without_socket_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert sdnotify.notify("READY=1") is False


def test_install_script_dry_run_lists_every_step() -> None:
    script = ROOT / "scripts" / "install-pi.sh"
    assert subprocess.run(["bash", "-n", str(script)], timeout=30).returncode == 0
    res = subprocess.run(["bash", str(script), "--dry-run", "--table", "t9"], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    for needle in ("python3 -m venv", "useradd --system", "dialout,gpio,video", "/etc/cardtable/table.toml",
                   "cardtable.service /etc/systemd/system/cardtable.service", "systemctl enable",
                   "topic write cardtable/t9/#"):
        assert needle in res.stdout, needle
    bad = subprocess.run(["bash", str(script), "--dry-run", "--table", "t 9"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "--table must be" in bad.stderr
