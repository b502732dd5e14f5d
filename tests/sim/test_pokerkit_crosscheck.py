"""PokerKit as an independent referee of the simulator: every hand is legal and settles the same."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from controller.sim import VirtualTable

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> object:
    spec = importlib.util.spec_from_file_location("replay_bench", ROOT / "bench" / "replay_bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["replay_bench"] = module
    spec.loader.exec_module(module)
    return module


rb = _bench()


@pytest.mark.parametrize("seats", [2, 3, 4, 6, 9, 10])
@pytest.mark.parametrize("style", ["mixed", "showdown"])
def test_pokerkit_accepts_every_action_and_pays_the_same_stacks(seats: int, style: str) -> None:
    hands = list(VirtualTable(seats=seats, seed=seats * 7, style=style).hands(60))  # type: ignore[arg-type]
    kits = rb.translate(hands)  # type: ignore[attr-defined]
    checked = 0
    for hand, kit in zip(hands, kits, strict=True):
        state = rb.play_kit(kit)  # type: ignore[attr-defined]  # raises on an illegal action
        assert not state.status, f"hand {hand.number} did not finish in PokerKit"
        if kit.short_bb:
            continue  # PokerKit calls a short big blind for its amount, the rulebooks for the full one
        checked += 1
        assert rb.same_result(kit, state.stacks), f"hand {hand.number}: {state.stacks} vs {kit.final}"  # type: ignore[attr-defined]
    assert checked >= 50


def test_bench_table_reports_rates_and_agreement() -> None:
    row = rb.bench_table(6, 20, 3, 1)  # type: ignore[attr-defined]
    assert row["stacks_agree"] == row["pokerkit_hands"] >= 18 and row["to_river"] == 20
    assert row["engine_hps"] > 0 and row["pokerkit_hps"] > 0 and row["ratio"] > 0
