"""install-pi.sh and what it installs: shell lint, a dry run of every step, the lock files, the units."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = [ROOT / "scripts" / n for n in ("bootstrap.sh", "install-pi.sh", "lock.sh", "simulate", "test")]


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck not installed (apt install shellcheck)")
def test_shell_scripts_pass_shellcheck() -> None:
    res = subprocess.run(["shellcheck", *map(str, SCRIPTS), str(ROOT / ".ci" / "run")], capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stdout


def dry_run(*args: str) -> str:
    res = subprocess.run(["bash", str(ROOT / "scripts" / "install-pi.sh"), "--dry-run", *args],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_dry_run_installs_broker_pins_and_units() -> None:
    out = dry_run("--table", "t9", "--mqtt-user", "t9", "--mqtt-password-file", "/dev/null")
    steps = ["apt-get update", "mosquitto mosquitto-clients", "python3 -m venv --system-site-packages",
             "-r " + str(ROOT / "requirements" / "pi.lock"), "--no-deps", "conf.d/cardtable.conf",
             "add ACL block for user t9", "mosquitto_passwd -b /etc/mosquitto/cardtable.passwd t9",
             "write /etc/cardtable/table.toml", "run --config /etc/cardtable/table.toml --check",
             "install cardtable.service /etc/systemd/system/cardtable.service",
             "systemctl enable cardtable.service"]
    positions = [out.find(s) for s in steps]
    assert all(p >= 0 for p in positions), [s for s, p in zip(steps, positions, strict=True) if p < 0]
    assert positions == sorted(positions)  # apt before pip before broker before config before units
    for absent in ("floor", "picamera2", "pi-camera.lock", "cardtable-tls.conf"):
        assert absent not in out, absent


def test_dry_run_with_floor_camera_and_tls() -> None:
    out = dry_run("--table", "t2", "--floor", "--camera", "--broker-tls")
    for needle in ("python3-picamera2", "pi-camera.lock", "60-cardtable-camera.rules", "camera.conf",
                   "cardtable-tls.conf", "useradd --system --home-dir /var/lib/cardtable-floor",
                   "write /etc/cardtable/floor.toml", "cardtable-floor.service",
                   "systemctl enable cardtable.service cardtable-floor.service"):
        assert needle in out, needle


def test_remote_broker_installs_no_mosquitto() -> None:
    out = dry_run("--table", "t3", "--broker", "broker.local")
    assert "mosquitto" not in out.split("==> config")[0]


def test_bad_options_exit_2() -> None:
    for args, message in ((["--table", "t 9"], "--table must be"),
                          (["--mqtt-user", "t1"], "--mqtt-user needs --mqtt-password-file"),
                          (["--frobnicate"], "unknown option --frobnicate")):
        res = subprocess.run(["bash", str(ROOT / "scripts" / "install-pi.sh"), "--dry-run", *args],
                             capture_output=True, text=True, timeout=60)
        assert res.returncode == 2 and message in res.stderr, (args, res.stderr)


def pins(name: str) -> dict[str, str]:
    lines = (ROOT / "requirements" / name).read_text().splitlines()
    return {Requirement(x).name.lower().replace("_", "-"): x.split("==")[1] for x in lines
            if x and not x.startswith("#")}


def test_lock_files_pin_every_dependency_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base, camera = pins("pi.lock"), pins("pi-camera.lock")
    for spec, pinned in [(d, base) for d in project["dependencies"]] + \
                        [(d, camera) for d in project["optional-dependencies"]["camera"]]:
        req = Requirement(spec)
        name = req.name.lower().replace("_", "-")
        assert name in pinned, f"{name} is not pinned: run scripts/lock.sh"
        assert req.specifier.contains(pinned[name], prereleases=True), (spec, pinned[name])
    assert not set(base) & set(camera)


ANALYZE = shutil.which("systemd-analyze")


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze not installed")
def test_floor_unit_verifies(tmp_path: Path) -> None:
    text = (ROOT / "systemd" / "cardtable-floor.service").read_text()
    assert "ExecStart=/opt/cardtable/venv/bin/cardtable floor --config /etc/cardtable/floor.toml" in text
    unit = tmp_path / "cardtable-floor.service"
    unit.write_text(text.replace("/opt/cardtable/venv/bin/cardtable", f"{sys.executable} -m controller"))
    res = subprocess.run([str(ANALYZE), "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert "cardtable-floor.service" not in res.stderr, res.stderr


def test_units_do_not_restart_on_a_bad_config() -> None:
    for name in ("cardtable.service", "cardtable-floor.service"):
        assert "RestartPreventExitStatus=2" in (ROOT / "systemd" / name).read_text(), name
