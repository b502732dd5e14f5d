"""`cardtable simulate --tables N`: a room without a broker plays and scores; bad sizes exit 2 in one line."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.room.harness import ENV, ROOT


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", "simulate", *args], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=300)


def test_a_room_of_tables_plays_in_one_process() -> None:
    res = simulate("--tables", "4", "--hands", "2", "--json", "--table", "x")
    assert res.returncode == 0, res.stderr
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    summary, alerts = lines[-1], lines[:-1]
    assert summary["tables"] == 4 and summary["hands"] == 8 and summary["alerts"] == len(alerts) > 0
    assert {a["table"] for a in alerts} <= {"x001", "x002", "x003", "x004"}
    assert all(isinstance(a["raised"], float) for a in alerts)


def test_bad_room_sizes_exit_2_with_one_line() -> None:
    for args in (["--tables", "0"], ["--tables", "3", "--camera"], ["--tables", "2001"]):
        res = simulate(*args)
        assert res.returncode == 2 and res.stderr.count("\n") == 1 and "--tables" in res.stderr, res.stderr
