"""Every dev-sample hand (tests/data/phh/real, MIT, see SOURCE.txt) through the real CLI settles as recorded.

`cardtable import-phh` then `cardtable replay --phh`: each exported hand's finishing stacks, in the file's
own units, equal the recorded `finishing_stacks`, or PokerKit's result where the file records none. A hand
whose showdown cards were never shown (`????` on both sides) must end "result unknown", never a winner.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from pokerkit import HandHistory

from controller.phh.amounts import unit_scale
from tests.phh.realcheck import table_split

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "data" / "phh" / "real"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "controller", *args], capture_output=True, text=True,
                          env=env, timeout=300, check=False)


def _kit(hh: HandHistory) -> tuple[list[Decimal], list[Decimal]]:
    """PokerKit's finishing stacks and payoffs for one recorded hand."""
    state = list(hh)[-1]
    return [Decimal(s) for s in state.stacks], [Decimal(p) for p in state.payoffs]


def _unit(raw: dict[str, object]) -> Decimal:
    """The file's unit, from its inputs (the results never set it)."""
    return 1 / Decimal(unit_scale([raw]))


def _unshown_showdown(actions: list[str]) -> bool:
    """Every hand shown at the end is `????`: PokerKit's split there is not a recorded result."""
    shows = [a.split()[2] for a in actions if len(a.split()) == 3 and a.split()[1] == "sm"]
    return bool(shows) and all("?" in s for s in shows)


@pytest.mark.parametrize("name", ["pluribus_dev.phhs", "wsop2023_e43_dev.phhs", "handhq_dev.phhs"])
def test_dev_sample_settles_as_recorded_through_the_cli(name: str, tmp_path: Path) -> None:
    src = REAL / name
    log, out = tmp_path / "log.jsonl", tmp_path / "out.phhs"
    done = _cli("import-phh", str(src), "-o", str(log), "--skip-other-variants")
    assert done.returncode == 0, done.stderr
    done = _cli("replay", str(log), "--phh", str(out))
    assert done.returncode == 0, done.stderr
    exported = tomllib.loads(out.read_text(encoding="utf-8"), parse_float=Decimal)
    recorded = tomllib.loads(src.read_text(encoding="utf-8"), parse_float=Decimal)
    kits = list(HandHistory.load_all(io.BytesIO(src.read_bytes())))
    played = [(k, raw, kit) for (k, raw), kit in zip(recorded.items(), kits, strict=True)
              if raw["variant"] in ("NT", "FT", "F7S")]  # the wsop sample's 3 F7S and 2 FT hands too
    assert len(played) == len(recorded)
    assert len(exported) == len(played)
    bad = []
    for (key, raw, kit), got in zip(played, exported.values(), strict=True):
        assert got["variant"] == raw["variant"], key  # written back as the variant it came as
        kit_stacks, kit_payoffs = _kit(kit)
        if _unshown_showdown(raw["actions"]):
            assert got.get("_result") == "unknown", key
            assert "finishing_stacks" not in got, key
            continue
        want = raw.get("finishing_stacks") or kit_stacks
        if any(not Decimal(s).is_finite() for s in raw["starting_stacks"]):
            assert got["starting_stacks"] == raw["starting_stacks"], key  # exported as they came: inf
            if got["_net_results"] != kit_payoffs:
                bad.append((key, got["_net_results"], kit_payoffs))
        elif got["finishing_stacks"] != table_split([Decimal(x) for x in want], _unit(raw)):
            bad.append((key, got["finishing_stacks"], want))  # a recorded half chip: the table's odd chip
    assert bad == []
    if name == "wsop2023_e43_dev.phhs":  # PokerKit replays the written NT, F7S and FT hands alike
        for (key, got), kit in zip(exported.items(), HandHistory.load_all(io.BytesIO(out.read_bytes())),
                                   strict=True):
            assert [Decimal(s) for s in list(kit)[-1].stacks] == got["finishing_stacks"], key
    if name == "handhq_dev.phhs":
        assert "result unknown" in _cli("replay", str(log)).stdout  # the clear word in the output
