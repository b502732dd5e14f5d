"""`cardtable doctor` against fakes: every check reports the fault it is given, with the fix."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest

from controller import doctor
from controller.config import parse_config
from tests.daemon.broker import Broker, free_port

ROOT = Path(__file__).resolve().parents[1]


def config(tmp: Path, **extra: object) -> object:
    return parse_config({"state_dir": str(tmp / "state"), "table": {"id": "t1"},
                         "hubs": [{"name": "hub0", "device": "/dev/ttyACM0", "readers": {0: "board"}}],
                         "tap": {"pin": 17}, "gpio": {"pin_factory": "lgpio"}, **extra})


def opener_failing(errors: dict[str, int]) -> doctor.Opener:
    def opener(path: str) -> None:
        if path in errors:
            raise OSError(errors[path], "fake", path)
    return opener


def checks(tmp: Path, *, errors: dict[str, int] | None = None, chips: list[str] | None = None,
           clock: str | None = None, broker: str | None = None, disk: str | None = None,
           **extra: object) -> dict[str, doctor.Check]:
    got = doctor.run_checks(config(tmp, **extra), opener=opener_failing(errors or {}),  # type: ignore[arg-type]
                            chips=lambda: ["/dev/gpiochip0"] if chips is None else chips,
                            clock=lambda: clock, broker=lambda _c: broker, disk=lambda _p: disk)
    return {c.name: c for c in got}


def test_all_good(tmp_path: Path) -> None:
    got = checks(tmp_path)
    assert all(c.ok for c in got.values())
    assert list(got) == ["hubs", "gpio", "camera", "broker", "clock", "disk"]
    assert got["hubs"].detail == "/dev/ttyACM0" and got["gpio"].detail == "pin factory lgpio"


def test_each_fault_is_reported_with_its_fix(tmp_path: Path) -> None:
    got = checks(tmp_path, errors={"/dev/ttyACM0": errno.ENOENT, "/dev/gpiochip0": errno.EACCES},
                 clock="the system clock is not NTP-synchronised: sudo timedatectl set-ntp true",
                 broker="cannot reach the MQTT broker localhost:1883 (connection refused)",
                 disk="only 12 MB free under /var/lib")
    assert not any(c.ok for name, c in got.items() if name != "camera")
    assert got["hubs"].detail == ("reader hub hub0: /dev/ttyACM0 not found: plug it in "
                                  "(ls /dev/serial/by-id/) or fix hubs[0].device")
    assert "permission denied: add the user to group gpio" in got["gpio"].detail
    assert got["clock"].line().startswith("FAIL  clock      the system clock is not NTP-synchronised")


def test_camera_device_and_missing_gpio_chip(tmp_path: Path) -> None:
    got = checks(tmp_path, chips=[], errors={"/dev/video0": errno.ENOENT},
                 camera={"source": "/dev/video0"})
    assert "no /dev/gpiochip*" in got["gpio"].detail
    assert not got["camera"].ok and "camera /dev/video0 not found" in got["camera"].detail


def test_disk_and_clock_probes(tmp_path: Path) -> None:
    assert doctor.disk_problem(tmp_path, free=lambda _p: 10 * 2**20).startswith(  # type: ignore[union-attr]
        f"only 10 MB free under {tmp_path}")
    assert doctor.disk_problem(tmp_path / "not" / "yet", free=lambda _p: 2**40) is None
    if not Path("/run/systemd/timesync/synchronized").exists():
        assert doctor.clock_problem(lambda _cmd: "yes\n") is None
        assert "not NTP-synchronised" in (doctor.clock_problem(lambda _cmd: "no\n") or "")


@pytest.mark.broker
def test_broker_check_against_a_real_broker(tmp_path: Path, password_broker: Broker) -> None:
    (tmp_path / "good").write_text("t1:right\n")
    (tmp_path / "bad").write_text("t1:wrong\n")
    base = {"state_dir": str(tmp_path / "s"), "table": {"id": "t1"}}
    mqtt = {"host": "127.0.0.1", "port": password_broker.port}
    ok = parse_config({**base, "mqtt": {**mqtt, "credentials_file": str(tmp_path / "good")}})
    bad = parse_config({**base, "mqtt": {**mqtt, "credentials_file": str(tmp_path / "bad")}})
    assert doctor._broker_text(ok) is None
    assert "refused the user name or password" in (doctor._broker_text(bad) or "")
    port = free_port()
    gone = parse_config({"state_dir": str(tmp_path / "s"), "mqtt": {"host": "127.0.0.1", "port": port}})
    assert (doctor._broker_text(gone) or "").startswith(f"cannot reach the MQTT broker 127.0.0.1:{port}")


def test_doctor_command_prints_one_line_per_check_and_exits_1(tmp_path: Path) -> None:
    cfg = tmp_path / "table.toml"
    cfg.write_text(f'state_dir = "{tmp_path}/state"\n[[hubs]]\ndevice = "{tmp_path}/ttyACM0"\n'
                   f'readers = {{ 0 = "board" }}\n[mqtt]\nhost = "127.0.0.1"\nport = {free_port()}\n')
    res = subprocess.run([sys.executable, "-m", "controller", "doctor", "--config", str(cfg)], cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 1, res.stderr
    lines = res.stdout.splitlines()
    assert [x.split()[1] for x in lines[:6]] == ["hubs", "gpio", "camera", "broker", "clock", "disk"]
    assert lines[0].startswith(f"FAIL  hubs       reader hub hub0: {tmp_path}/ttyACM0 not found")
    assert lines[1] == "ok    gpio       no pins configured"
    assert lines[3].startswith("FAIL  broker     cannot reach the MQTT broker 127.0.0.1:")
    assert lines[-1].startswith("4 of 6 checks passed; fix: hubs, broker") or \
        lines[-1].startswith("3 of 6 checks passed; fix: hubs, broker, clock")
    assert "Traceback" not in res.stderr
