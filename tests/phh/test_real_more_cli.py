"""More real hands (tests/data/phh/real_more, MIT, see SOURCE.txt) through the real CLI, file by file.

`cardtable import-phh --skip-other-variants` then `cardtable replay --phh`: every hand of a variant the
table plays is exported, in the file's order and units, with the result tests/phh/realcheck.py says (the
recorded stacks, a recorded half chip as the table's whole-unit split, PokerKit's result, or "unknown"
for a hand nobody can tell or a history that stops mid-hand); the other variants are named on stderr.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

from tests.phh.realcheck import check, table_split

ROOT = Path(__file__).resolve().parents[2]
MORE = ROOT / "tests" / "data" / "phh" / "real_more"
PLAYED = ("NT", "FT", "F7S")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "controller", *args], capture_output=True, text=True,
                          env=env, timeout=300, check=False)


def _hands(path: Path) -> list[tuple[str, dict[str, object], str]]:
    """(key, parsed hand, the hand's own TOML text) for every [n] table of a .phhs file."""
    text = path.read_text(encoding="utf-8")
    parsed = tomllib.loads(text, parse_float=Decimal)
    bits = re.split(r"(?m)^\[(\d+)\]\s*$", text)
    return [(bits[i], parsed[bits[i]], bits[i + 1]) for i in range(1, len(bits), 2)]


@pytest.mark.parametrize("name", sorted(p.name for p in MORE.glob("*.phhs")))
def test_real_hands_settle_through_the_cli(name: str, tmp_path: Path) -> None:
    src = MORE / name
    log, out = tmp_path / "log.jsonl", tmp_path / "out.phhs"
    done = _cli("import-phh", str(src), "-o", str(log), "--skip-other-variants")
    assert done.returncode == 0, done.stderr
    hands = _hands(src)
    others = [raw["variant"] for _, raw, _ in hands if raw["variant"] not in PLAYED]
    for variant in others:  # each hand of another variant is named, none is dropped silently
        assert f"(variant {variant})" in done.stderr
    done = _cli("replay", str(log), "--phh", str(out))
    assert done.returncode == 0, done.stderr
    exported = list(tomllib.loads(out.read_text(encoding="utf-8"), parse_float=Decimal).values())
    played = [(k, raw, text) for k, raw, text in hands if raw["variant"] in PLAYED]
    assert len(exported) == len(played)
    bad = []
    for (key, raw, text), got in zip(played, exported, strict=True):
        assert got["variant"] == raw["variant"], key
        problem = check(raw, text, got)
        if problem:
            bad.append((key, problem))
    assert bad == []


def test_a_recorded_half_chip_is_the_tables_odd_chip() -> None:
    """Pluribus 102/0 records 10112.5 for both winners of a 1,349 pot; the table splits whole chips and
    the odd one goes to the first winner left of the button (p1, the small blind): 10113 and 10112."""
    recorded = [Decimal("10112.5"), Decimal(9775), Decimal(10000), Decimal(10000), Decimal("10112.5"),
                Decimal(10000)]
    assert table_split(recorded, Decimal(1)) == [10113, 9775, 10000, 10000, 10112, 10000]
    assert table_split([Decimal("0.125"), Decimal("0.375")], Decimal("0.01")) == [Decimal("0.13"),
                                                                                  Decimal("0.37")]
    assert table_split([Decimal(5), Decimal(7)], Decimal(1)) == [5, 7]  # whole results stay as recorded
