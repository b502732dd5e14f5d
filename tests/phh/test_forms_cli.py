"""Forced-bet forms one after another at one table, through import-phh and replay --phh: no fault alert,
and every hand settles as PokerKit plays the same file (net results where a stack is `inf`)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path

from pokerkit import HandHistory

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "tests" / "data" / "phh" / "forms" / "forms_mixed.phhs"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "controller", *args], capture_output=True, text=True,
                          env=env, timeout=60, check=False)


def test_forms_in_a_row_settle_as_pokerkit(tmp_path: Path) -> None:
    log, out = tmp_path / "log.jsonl", tmp_path / "out.phhs"
    assert _cli("import-phh", str(SRC), "-o", str(log)).returncode == 0
    done = _cli("replay", str(log), "--phh", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert '"severity":"error"' not in done.stdout and '"severity":"warning"' not in done.stdout
    assert "BUTTON_WRONG" not in done.stdout and "BLIND_WRONG" not in done.stdout
    written = list(tomllib.loads(out.read_text(encoding="utf-8"), parse_float=Decimal).values())
    kits = [list(hh)[-1] for hh in HandHistory.load_all(io.BytesIO(SRC.read_bytes()))]
    assert len(written) == len(kits) == 5
    recorded = list(tomllib.loads(SRC.read_text(encoding="utf-8"), parse_float=Decimal).values())
    for got, raw in zip(written, recorded, strict=True):  # forced bets written back as they came
        assert got["antes"] == raw["antes"] and got["blinds_or_straddles"] == raw["blinds_or_straddles"]
    assert written[0]["blinds_or_straddles"] == [100, 0, 0, 0]  # written back as it came
    assert written[2]["blinds_or_straddles"] == [50, 100, 200, 0]
    for got, kit in zip(written, kits, strict=True):
        if "_net_results" in got:
            assert got["_net_results"] == [Decimal(p) for p in kit.payoffs]
            assert got["starting_stacks"][1] == Decimal("inf")
        else:
            assert got["finishing_stacks"] == [Decimal(s) for s in kit.stacks]
