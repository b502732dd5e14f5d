"""Set-up as a newcomer meets it: one venv for both README commands, and both commands in a fresh checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def fake_venv(tmp: Path) -> tuple[Path, Path]:
    """A venv whose python only records how it was called (pip installs nothing)."""
    venv = tmp / "venv"
    (venv / "bin").mkdir(parents=True)
    calls = tmp / "calls"
    py = venv / "bin" / "python"
    py.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    py.chmod(0o755)
    return venv, calls


def bootstrap(venv: Path, *args: str) -> str:
    env = {**os.environ, "CARDTABLE_VENV": str(venv), "CARDTABLE_SKIP_SYSTEM": "1"}
    res = subprocess.run(["bash", str(ROOT / "scripts/bootstrap.sh"), *args], env=env, capture_output=True,
                         text=True, timeout=60, check=True)
    return res.stderr


def installs(calls: Path) -> list[str]:
    if not calls.exists():
        return []
    return [x.split()[-1] for x in calls.read_text().splitlines() if "install -q -e" in x]


def test_switching_between_simulate_and_test_installs_once_each(tmp_path: Path) -> None:
    venv, calls = fake_venv(tmp_path)
    bootstrap(venv)  # ./scripts/simulate: the package alone
    assert installs(calls) == ["."]
    bootstrap(venv, "--test")  # ./scripts/test: adds the test and camera extras
    assert installs(calls) == [".", ".[camera,test]"]
    for args in ((), ("--test",), (), ("--test",)):  # switching back and forth: nothing more
        assert "installing" not in bootstrap(venv, *args)
    assert installs(calls) == [".", ".[camera,test]"]
    stamp = (venv / ".cardtable-installed").read_text().split()
    assert stamp[1] == "camera,test" and len(stamp[0]) == 16


def test_a_changed_pyproject_reinstalls_keeping_the_extras(tmp_path: Path) -> None:
    venv, calls = fake_venv(tmp_path)
    bootstrap(venv, "--test")
    stamp = venv / ".cardtable-installed"
    stamp.write_text("0000000000000000 camera,test\n")  # as if pyproject.toml had changed since
    bootstrap(venv)  # simulate after the change: reinstall, and the test extras stay
    assert installs(calls) == [".[camera,test]", ".[camera,test]"]


def _env(home: Path) -> dict[str, str]:
    """An empty HOME and a plain PATH; the machine's pip settings (index, wheel cache) pass through like
    /etc/pip.conf would in a container."""
    keep = {k: v for k, v in os.environ.items()
            if k.startswith("PIP_") or k.lower() in ("http_proxy", "https_proxy", "no_proxy")}
    return {**keep, "HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_readme_commands_in_a_fresh_checkout(tmp_path: Path) -> None:
    """Both quick-start commands in a copy of the tracked files, no venv, empty HOME: exit codes, first
    lines, and that the second command and a repeat of the first do not reinstall."""
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True) \
        if shutil.which("git") else None
    if listing is None or listing.returncode != 0:
        pytest.skip("needs git and a git checkout (the test copies the tracked files)")
    clone = tmp_path / "cardtable"
    files = listing.stdout
    clone.mkdir()
    for name in filter(None, files.decode().split("\0")):
        src = ROOT / name
        if src.is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, clone / name)
    home = tmp_path / "home"
    home.mkdir()
    env = _env(home)
    took = {}

    def run(*cmd: str) -> subprocess.CompletedProcess[str]:
        start = time.monotonic()
        res = subprocess.run(list(cmd), cwd=clone, env=env, capture_output=True, text=True, timeout=1400)
        took[" ".join(cmd)] = round(time.monotonic() - start, 1)
        return res

    sim = run("./scripts/simulate")
    assert sim.returncode == 0, sim.stderr[-3000:]
    assert sim.stderr.splitlines()[0] == ("bootstrap: installing cardtable into .venv "
                                          "(once; later runs skip this)")
    first = sim.stdout.splitlines()[0]  # plain lines when not a terminal: an alert or a finished hand
    assert first.startswith(("    ", "table sim  hand 1")), first
    assert "hands 20 (clean" in sim.stdout and "lost in transport 0;" in sim.stdout
    test = run("./scripts/test", "tests/test_aio.py", "-q", "-p", "no:cacheprovider")
    assert test.returncode == 0, (test.stdout + test.stderr)[-3000:]
    assert test.stderr.splitlines()[0] == ("bootstrap: installing cardtable[camera,test] into .venv "
                                           "(once; later runs skip this)")
    assert test.stdout.splitlines()[0] == "All checks passed!"  # ruff first, then mypy, then pytest
    assert " passed" in test.stdout.splitlines()[-1]
    again = run("./scripts/simulate", "--hands", "2", "--quiet")
    assert again.returncode == 0 and "bootstrap" not in again.stderr, again.stderr
    print(f"\nfresh checkout, empty HOME: {took}")
