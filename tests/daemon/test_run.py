"""`cardtable run` as systemd starts it: real adapters from the config, health alerts, clean SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from controller.config import ConfigError, parse_config
from tests.daemon.broker import Broker, Subscriber

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
RUN = [sys.executable, "-m", "controller", "run", "--config"]


def write_config(tmp: Path, port: int, extra: str = "") -> Path:
    """A table whose hub device exists at start-up (a plain file: the link cannot talk to it, which is
    all these tests need; `run` refuses to start without the device)."""
    (tmp / "ttyACM-fake").touch()
    cfg = tmp / "table.toml"
    cfg.write_text(f'''state_dir = "{tmp}/state"
[table]
id = "t7"
[[hubs]]
name = "hub0"
device = "{tmp}/ttyACM-fake"
readers = {{ 0 = "seat1", 1 = "seat2", 2 = "board" }}
[tap]
pin = 17
[console]
[gpio]
pin_factory = "mock"
[mqtt]
port = {port}
backoff_min_s = 0.1
backoff_max_s = 0.5
[health]
interval_s = 0.2
{extra}''')
    return cfg


def wait_for(pred: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def test_run_serial_device_gone_is_a_health_alert_and_sigterm_is_clean(tmp_path: Path,
                                                                       broker: Broker) -> None:
    """Present at start-up (a missing one stops `run` with one line: tests/test_errors.py), then unplugged."""
    sub = Subscriber(broker.port, ["cardtable/t7/#"])
    device = tmp_path / "ttyACM-fake"
    proc = subprocess.Popen([sys.executable, "-m", "controller", "run", "--config",
                             str(write_config(tmp_path, broker.port))], cwd=ROOT, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: sub.on("/status") and sub.on("/status")[-1] == b"online", 20)
        device.unlink()
        assert wait_for(lambda: sub.on("/alerts"), 20), "no health alert"
        alert = json.loads(sub.on("/alerts")[0])
        assert alert["code"] == "HEALTH" and "ttyACM-fake is missing" in alert["message"]
        assert wait_for(lambda: sub.on("/status") and sub.on("/status")[-1] == b"online", 5)
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "HEALTH: reader hub hub0: device" in err  # one clear line in the log as well
    assert sub.on("/status")[-1] == b"offline"
    sub.close()


def test_run_broker_refusing_credentials(tmp_path: Path) -> None:
    bdir = tmp_path / "broker"
    bdir.mkdir()
    broker = Broker(bdir, passwords={"t7": "right"})
    broker.start()
    creds = tmp_path / "creds"
    creds.write_text("t7:wrong\n")
    cfg = write_config(tmp_path, broker.port).read_text().replace(
        "backoff_min_s", f'credentials_file = "{creds}"\nbackoff_min_s')
    (tmp_path / "table.toml").write_text(cfg)
    proc = subprocess.Popen([*RUN, str(tmp_path / "table.toml")],
                            cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(proc.stderr.readline, "")),  # type: ignore[union-attr]
                              daemon=True)
    reader.start()
    try:
        # The first refusal, however long start-up takes on a loaded machine (a fixed 4 s failed there),
        # then several retries (backoff 0.1-0.5 s) that must not raise the fault again.
        deadline = time.monotonic() + 60
        while not any("refused the credentials" in x for x in seen) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(3)
        assert proc.poll() is None, "the daemon must keep running (and recording) without a broker"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        reader.join(timeout=10)
    finally:
        proc.kill()
        broker.stop()
    err = "".join(seen)
    assert "Traceback" not in err
    lines = [x for x in err.splitlines() if "refused the credentials" in x and "HEALTH" in x]
    assert len(lines) == 1, err  # raised once, not once per retry


def test_unreadable_credentials_file_one_line(tmp_path: Path) -> None:
    cfg = write_config(tmp_path, 1883, "").read_text().replace(
        "backoff_min_s", f'credentials_file = "{tmp_path}/nope"\nbackoff_min_s')
    (tmp_path / "table.toml").write_text(cfg)
    res = subprocess.run([*RUN, str(tmp_path / "table.toml")],
                         cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)
    assert res.returncode == 2
    assert res.stderr.strip() == f"cardtable run: credentials file {tmp_path}/nope: cannot read: " \
                                 "No such file or directory"


def test_camera_section_is_validated_by_the_camera_subsystem() -> None:
    with pytest.raises(ConfigError) as err:
        parse_config({"camera": {"fps": 100, "colour": 1}, "mqtt": {"port": 0}})
    errs = err.value.errors
    assert "mqtt.port: Input should be greater than or equal to 1" in errs
    assert any("camera.colour: unknown key" in e for e in errs)
    assert any("camera.source" in e for e in errs)


def test_unreadable_tls_file_one_line(tmp_path: Path) -> None:
    cfg = write_config(tmp_path, 8883, "").read_text().replace(
        "backoff_min_s", f'tls = true\nca_file = "{tmp_path}/ca.crt"\nbackoff_min_s')
    (tmp_path / "table.toml").write_text(cfg)
    res = subprocess.run([*RUN, str(tmp_path / "table.toml")], cwd=ROOT, env=ENV, capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 2
    assert res.stderr.strip() == f"cardtable run: mqtt.ca_file {tmp_path}/ca.crt: cannot read: " \
                                 "No such file or directory"
