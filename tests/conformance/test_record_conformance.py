"""Settlement against PokerKit at HandRecord level: random no-limit hands and the PHH samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.core.profiles import PROFILES
from controller.core.showdown import Showdown
from controller.phh import PhhError, PhhHand, Play, concretize, parse_phh
from tests.conformance.conftest import FULL, HANDS
from tests.conformance.oracle import kit_final_stacks, parse_one, random_hand

DATA = Path(__file__).resolve().parents[1] / "data" / "phh"
CUCA = PROFILES["cuca"]


def _settle(hand: PhhHand, merge: bool) -> list[int]:
    concrete, burns = concretize(hand)
    rec = Play.run(concrete).to_record(burns=burns)
    st = Showdown(rec, CUCA, merge_equal_pots=merge).settle(0.0)
    return [st.finishing_stacks[s] for s in rec.dealt_in]


def sample_hands() -> list[tuple[str, PhhHand]]:
    out = []
    for path in sorted(DATA.glob("*.phh*")):
        hands = parse_phh(path.read_text(encoding="utf-8"), name=path.name)
        out += [(f"{path.name}[{h.key}]", h) for h in hands]
    return out


@pytest.mark.timeout(3_600 if FULL else 300)
def test_random_hands_settle_exactly_as_pokerkit() -> None:
    mismatches, odd_chip_moves, all_ins = [], 0, 0
    for seed in range(HANDS):
        rh = random_hand(seed)
        hand = parse_one(rh.phh_text)
        merged = _settle(hand, merge=True)
        if merged != rh.final_stacks:
            mismatches.append(seed)
        rulebook = _settle(hand, merge=False)
        # 001 §9.1 splits every side pot on its own; PokerKit merges pots left to the same seats. Only
        # odd chips may move between the same winners, never any other chip.
        assert sum(rulebook) == sum(merged)
        assert max(abs(a - b) for a, b in zip(rulebook, merged, strict=True)) <= 9, seed
        odd_chip_moves += rulebook != merged
        all_ins += any(s == 0 for s in rh.final_stacks)
    assert mismatches == []
    assert all_ins > HANDS // 3  # the generator really produces many all-ins
    assert odd_chip_moves < HANDS // 50


@pytest.mark.parametrize(("name", "hand"), sample_hands(), ids=lambda v: v if isinstance(v, str) else "")
def test_phh_samples_settle_as_pokerkit(name: str, hand: PhhHand) -> None:
    if hand.variant != "NT":
        with pytest.raises(PhhError, match="is not played at the table"):
            Play.run(hand, name)
        return
    concrete, _ = concretize(hand)
    assert _settle(hand, merge=True) == kit_final_stacks(concrete)
    assert _settle(hand, merge=False) == kit_final_stacks(concrete)
    if hand.finishing_stacks is not None:  # the WSOP hand records its result
        assert _settle(hand, merge=False) == hand.finishing_stacks
