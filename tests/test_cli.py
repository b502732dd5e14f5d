"""The command line as a user runs it: `python -m controller` in a subprocess."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_replay_example_exits_zero() -> None:
    res = run("replay", "config/examples/basic.jsonl")
    assert res.returncode == 0, res.stderr


def test_replay_malformed_log_exits_2_naming_line(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"t":1,"type":"knock"}\n{"t":2,"type":"card","zone":"seat1","card":"1x"}\n')
    res = run("replay", str(log), "--json")
    assert res.returncode == 2
    assert "line 2, field 'card'" in res.stderr
    assert "Traceback" not in res.stderr


def test_replay_missing_file_exits_2() -> None:
    res = run("replay", "/nonexistent/log.jsonl")
    assert res.returncode == 2
    assert "cannot read" in res.stderr
