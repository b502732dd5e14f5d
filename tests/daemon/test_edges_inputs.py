"""Bad input at the command line (issue #12, item 7): one line naming the file and field, exit 2, no
traceback, bounded time; and `run --check` refuses what `run` would refuse."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", *args], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=60)


def one_line_error(r: subprocess.CompletedProcess[str], *words: str) -> None:
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr
    for w in words:
        assert w in r.stderr, r.stderr


def test_simulate_state_dir_that_cannot_be_one(tmp_path: Path) -> None:
    afile = tmp_path / "plain-file"
    afile.write_text("x")
    one_line_error(cli("simulate", "--hands", "1", "--state-dir", str(afile)), str(afile), "not a directory")
    one_line_error(cli("simulate", "--hands", "1", "--state-dir", str(afile / "sub")), str(afile / "sub"))


def test_simulate_state_dir_new_nested_directory_works(tmp_path: Path) -> None:
    r = cli("simulate", "--hands", "1", "--json", "--state-dir", str(tmp_path / "a" / "b" / "c"))
    assert r.returncode == 0, r.stderr
    assert list((tmp_path / "a" / "b" / "c" / "sessions").glob("*.jsonl"))


@pytest.mark.parametrize(("extra", "words"), [
    ('decks = ["{tmp}/missing.json"]\n', ["deck file", "missing.json"]),
    ('[mqtt]\ncredentials_file = "{tmp}/none.credentials"\n', ["credentials file", "none.credentials"]),
    ('[mqtt]\ntls = true\nca_file = "{tmp}/none.crt"\n', ["mqtt.ca_file", "none.crt"]),
    ('[table]\nknock_pause_s = nan\n', ["table.knock_pause_s", "finite"]),
    ('[table]\nclock_s = inf\n', ["table.clock_s", "finite"]),
    ('[[hubs]]\ndevice = "/dev/x"\nbaudrate = 99999999999999\nreaders = {{ 0 = "seat1" }}\n',
     ["hubs[0].baudrate"]),
    ('[camera]\nsource = "/dev/video0"\nzones = 1.5\n', ["camera"]),
])
def test_check_refuses_what_run_refuses(tmp_path: Path, extra: str, words: list[str]) -> None:
    cfg = tmp_path / "table.toml"
    cfg.write_text(f'state_dir = "{tmp_path / "state"}"\n' + extra.format(tmp=tmp_path))
    check = cli("run", "--config", str(cfg), "--check")
    assert check.returncode == 2 and "Traceback" not in check.stderr, check.stderr
    assert all(line.startswith("cardtable run: ") for line in check.stderr.splitlines())
    for w in words:
        assert w in check.stderr, check.stderr


def test_check_refuses_a_state_dir_it_cannot_create(tmp_path: Path) -> None:
    afile = tmp_path / "plain-file"
    afile.write_text("x")
    cfg = tmp_path / "table.toml"
    cfg.write_text(f'state_dir = "{afile / "state"}"\n[mqtt]\nenabled = false\n')
    one_line_error(cli("run", "--config", str(cfg), "--check"), "state_dir", "not a directory")
    one_line_error(cli("run", "--config", str(cfg)), "state_dir")


@pytest.mark.parametrize("line", [
    b'{"t":1e400,"type":"knock"}', b'{"t":1,"type":"knock","x":' + b"9" * 5000 + b"}", b"[" * 200000,
    b'{"t":NaN,"type":"knock"}', b"\xff\xfe"])
def test_replay_of_hostile_logs_is_one_line(tmp_path: Path, line: bytes) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_bytes(b'{"t":0.5,"type":"knock"}\n' + line + b"\n")
    one_line_error(cli("replay", str(log)), str(log), "line 2")
