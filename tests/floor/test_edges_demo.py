"""Example credentials (issue #12, item 6): the floor refuses to start with a password published in
config/floor.example.toml unless --insecure-demo (or `insecure_demo = true`) says it is a demo, and then
warns."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from controller.floor.auth import hash_password
from controller.floor.config import check_example_credentials, parse_config
from controller.floor.errors import FloorConfigError
from tests.floor.broker import free_port
from tests.floor.conftest import users_config

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def demo_config(tmp_path: Path, web_port: int, extra: str = "") -> Path:
    """The shipped example, with a private store, an unused broker port and a free web port."""
    text = (ROOT / "config" / "floor.example.toml").read_text()
    text = re.sub(r'(?m)^sqlite = .*$', f'sqlite = "{tmp_path / "floor.sqlite3"}"', text)
    text = re.sub(r'(?m)^port = 1883', f"port = {free_port()}", text)
    text = re.sub(r'(?m)^port = 8080', f"port = {web_port}", text)
    path = tmp_path / "floor.toml"
    path.write_text(extra + text)
    return path


def test_example_passwords_are_found_whatever_the_salt() -> None:
    users = {**users_config(), "bob": {"hash": hash_password("change-me-wall", n=2**10), "role": "wall"}}
    cfg = parse_config({"users": users})
    with pytest.raises(FloorConfigError) as exc:
        check_example_credentials(cfg, "floor.toml")
    assert exc.value.problems == [exc.value.problems[0]] and exc.value.problems[0].startswith("users.bob:")
    assert check_example_credentials(cfg, "floor.toml", insecure_demo=True) == ["bob"]
    assert check_example_credentials(parse_config({"users": users_config()}), "floor.toml") == []


def test_cli_refuses_the_example_config(tmp_path: Path) -> None:
    cfg = demo_config(tmp_path, free_port())
    r = subprocess.run([sys.executable, "-m", "controller", "floor", "--config", str(cfg)], env=ENV, cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "users.anna" in r.stderr and "users.wall" in r.stderr
    assert "--insecure-demo" in r.stderr


@pytest.mark.parametrize("how", ["flag", "config"])
def test_insecure_demo_starts_with_a_warning(tmp_path: Path, how: str) -> None:
    port = free_port()
    cfg = demo_config(tmp_path, port, "insecure_demo = true\n" if how == "config" else "")
    args = ["--insecure-demo"] if how == "flag" else []
    proc = subprocess.Popen([sys.executable, "-m", "controller", "floor", "--config", str(cfg), *args],
                            env=ENV, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None  # our own process's "serving" line first (see test_config_auth)
        first = proc.stdout.readline()
        assert f"serving http://127.0.0.1:{port}" in first, (first, proc.stderr)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=5) as r:
            assert r.status == 200
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert "insecure demo: user(s) anna, wall" in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
