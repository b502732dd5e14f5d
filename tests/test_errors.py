"""Errors a person can act on: one line naming the thing and the fix, a non-zero exit, no traceback."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from controller import cli, doctor
from tests.daemon.broker import Broker, free_port

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def cardtable(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", *args], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=timeout)


def one_line(res: subprocess.CompletedProcess[str]) -> str:
    """The error: exactly one line saying `cardtable <command>: …` (log records around it are fine)."""
    assert "Traceback" not in res.stderr, res.stderr
    lines = [x for x in res.stderr.splitlines() if x.startswith("cardtable ")]
    assert len(lines) == 1, res.stderr
    return lines[0]


def table_config(tmp: Path, body: str) -> Path:
    cfg = tmp / "table.toml"
    cfg.write_text(f'state_dir = "{tmp}/state"\n[table]\nid = "t7"\n[mqtt]\nenabled = false\n{body}')
    return cfg


def floor_config(tmp: Path, port: int) -> Path:
    from controller.floor.auth import hash_password
    cfg = tmp / "floor.toml"
    cfg.write_text(f'[web]\nport = {port}\n[store]\nsqlite = "{tmp}/floor.sqlite3"\n'
                   f'[broker]\nport = {free_port()}\n[users.anna]\nhash = "{hash_password("long enough")}"\n')
    return cfg


def test_floor_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = cardtable("floor", "--config", str(floor_config(tmp_path, port)))
    assert res.returncode == 1
    line = one_line(res)
    assert line.startswith(f"cardtable floor: port {port} on 127.0.0.1 is already in use: stop the other "
                           "program")
    assert f"[web] port in {tmp_path}/floor.toml" in line


def test_floor_port_in_use_traceback_only_with_debug(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        res = cardtable("floor", "--config", str(floor_config(tmp_path, busy.getsockname()[1])), "--debug")
    assert res.returncode == 1
    assert "Traceback" in res.stderr and "already in use" in res.stderr.splitlines()[-1]


def test_simulate_broker_unreachable_exits_1() -> None:
    port = free_port()
    res = cardtable("simulate", "--hands", "2", "--broker", f"mqtt://127.0.0.1:{port}")
    assert res.returncode == 1
    assert one_line(res) == (f"cardtable simulate: cannot reach the MQTT broker 127.0.0.1:{port} (connection "
                             "refused): start it (sudo systemctl start mosquitto) or fix --broker")
    assert res.stdout == ""  # nothing was played against a broker that is not there


def test_simulate_unknown_broker_host() -> None:
    res = cardtable("simulate", "--hands", "2", "--broker", "mqtt://no-such-host.invalid:1883")
    assert res.returncode == 1
    assert one_line(res) == ("cardtable simulate: MQTT broker no-such-host.invalid:1883: unknown host name "
                             "'no-such-host.invalid': fix --broker")


@pytest.mark.broker
def test_simulate_bad_credentials(password_broker: Broker) -> None:
    broker = password_broker
    res = cardtable("simulate", "--hands", "2", "--broker", f"mqtt://t1:wrong@127.0.0.1:{broker.port}")
    assert res.returncode == 1
    line = one_line(res)
    assert line.startswith(f"cardtable simulate: MQTT broker 127.0.0.1:{broker.port} refused the user name "
                           "or password (CONNACK ")  # 5 in MQTT 3.1.1, 135 as paho 2 reports it
    assert line.endswith("): fix the credentials (--broker) or the broker's password file")
    assert "wrong" not in line  # never the password


def test_run_missing_serial_device(tmp_path: Path) -> None:
    dev = tmp_path / "ttyACM9"
    cfg = table_config(tmp_path, f'[[hubs]]\nname = "hub0"\ndevice = "{dev}"\nreaders = {{ 0 = "board" }}\n')
    res = cardtable("run", "--config", str(cfg))
    assert res.returncode == 1
    assert one_line(res) == (f"cardtable run: reader hub hub0: {dev} not found: plug it in "
                             "(ls /dev/serial/by-id/) or fix hubs[0].device")


def _in_process(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main(args)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err.strip()


def _denied(path: str) -> None:
    raise PermissionError(errno.EACCES, "Permission denied", path)


@pytest.mark.parametrize(("section", "message"), [
    ('[[hubs]]\nname = "hub0"\ndevice = "/dev/ttyACM0"\nreaders = { 0 = "board" }\n',
     "reader hub hub0: /dev/ttyACM0: permission denied: add the user to group dialout "
     "(sudo usermod -aG dialout $USER, then log in again)"),
    ('[tap]\npin = 17\n[gpio]\npin_factory = "lgpio"\n',
     "GPIO /dev/gpiochip0: permission denied: add the user to group gpio "
     "(sudo usermod -aG gpio $USER, then log in again)"),
], ids=["serial", "gpio"])
def test_run_device_permission_denied(section: str, message: str, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    # The suite runs as root, where every open succeeds: the kernel's answer is faked at the one seam.
    monkeypatch.setattr(doctor, "open_device", _denied)
    monkeypatch.setattr(doctor, "gpio_chips", lambda: ["/dev/gpiochip0"])
    code, err = _in_process(["run", "--config", str(table_config(tmp_path, section))], capsys)
    assert code == 1
    assert err == f"cardtable run: {message}"


def test_run_gpio_absent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(doctor, "gpio_chips", lambda: [])
    cfg = table_config(tmp_path, '[tap]\npin = 17\n[gpio]\npin_factory = "lgpio"\n')
    code, err = _in_process(["run", "--config", str(cfg)], capsys)
    assert code == 1
    assert err.startswith("cardtable run: GPIO: no /dev/gpiochip* on this machine: run on the Raspberry Pi")


def test_unreadable_config(tmp_path: Path) -> None:
    res = cardtable("run", "--config", str(tmp_path))  # a directory: unreadable as a file
    assert res.returncode == 2
    assert one_line(res) == f"cardtable run: {tmp_path}: cannot read: Is a directory"
    res = cardtable("run", "--config", str(tmp_path / "nope.toml"))
    assert res.returncode == 2
    assert one_line(res) == f"cardtable run: {tmp_path}/nope.toml: cannot read: No such file or directory"


def test_unexpected_error_is_one_line_and_debug_shows_the_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("disk on fire")
    monkeypatch.setattr("controller.commands.run.load_config", boom)
    code, err = _in_process(["run", "--config", str(tmp_path / "x.toml")], capsys)
    assert code == 1
    assert err == ("cardtable run: internal error: RuntimeError: disk on fire (run again with --debug for "
                   "the traceback, and please report it)")
    assert cli.main(["run", "--config", str(tmp_path / "x.toml"), "--debug"]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_an_error_inside_a_task_group_is_still_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from controller.errors import SetupError
    group = ExceptionGroup("tasks", [ValueError("x"), ExceptionGroup("inner", [SetupError("the fix")])])
    assert cli._user_error(group) is group.exceptions[1].exceptions[0]  # type: ignore[attr-defined]


def test_camera_without_opencv_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "cv2", None)  # import cv2 now raises ImportError
    code, err = _in_process(["simulate", "--camera", "--hands", "1"], capsys)
    assert code == 1
    assert err.startswith("cardtable simulate: the camera needs OpenCV and numpy: "
                          "pip install 'cardtable[camera]' (Pi: scripts/install-pi.sh --camera)")
