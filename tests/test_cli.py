"""The command line as a user runs it: `python -m controller` in a subprocess."""

import json
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


def test_replay_takes_the_game_from_the_level(tmp_path: Path) -> None:
    """A stud log replays as stud (issue 13): stud streets in the alerts; the PHH writer skips the hand."""
    res = run("replay", "tests/scenarios/stud_bring_in_wrong_stands.jsonl", "--json", "--phh",
              str(tmp_path / "out.phhs"))
    assert res.returncode == 0, res.stderr
    alerts = [json.loads(line) for line in res.stdout.splitlines()]
    assert alerts[0]["code"] == "STUD_BRING_IN_WRONG" and alerts[0]["street"] == "third"
    assert alerts[-1]["code"] == "POT_AWARD" and alerts[-1]["pots"][0]["winners"] == {"3": 60}
