"""Seven-card stud against PokerKit's fixed-limit stud: random hands, bring-in, completion, raises, caps,
side pots, final stacks (tests/conformance/stud_oracle.py generates them). ~200 hands in the everyday run,
10,000 with CARDTABLE_FULL=1 (or the slow marker's long form)."""

from __future__ import annotations

import io
import json
import os

import pytest

from controller.core.alerts import FAULT_SEVERITIES, Alert
from controller.core.engine import Engine
from controller.core.eventlog import read_events
from controller.core.games.studhand import StudHand
from controller.core.profiles import get_profile
from tests.conformance.stud_oracle import StudHand as KitHand
from tests.conformance.stud_oracle import random_stud_hand

FULL = os.environ.get("CARDTABLE_FULL") == "1"
SHORT, LONG = 200, 10_000


def replay(hand: KitHand) -> tuple[Engine, list[Alert], dict[str, int], int | None]:
    eng = Engine(profile=get_profile("cuca"), strict=True)
    alerts: list[Alert] = []
    firsts: dict[str, int] = {}
    bring_in: int | None = None
    text = "".join(json.dumps(e) + "\n" for e in hand.events)
    for _line, ev in read_events(io.StringIO(text), max_seat=10):
        alerts += [o for o in eng.feed(ev) if isinstance(o, Alert)]
        cur = eng.current
        if isinstance(cur, StudHand) and cur.round is not None and cur.first_due is not None:
            firsts.setdefault(cur.street, cur.first_due)
            bring_in = cur.bring_in
    return eng, alerts, firsts, bring_in


def check(n: int) -> dict[str, int]:
    mismatches: list[tuple[int, str]] = []
    totals = {"hands": 0, "raises": 0, "completions": 0, "capped": 0, "all_ins": 0, "side_pots": 0}
    for seed in range(n):
        hand = random_stud_hand(seed)
        eng, alerts, firsts, bring_in = replay(hand)
        faults = [f"{a.code}: {a.message}" for a in alerts if a.severity in FAULT_SEVERITIES]
        stacks = {s: (info.stack if (info := eng.seats.seats.get(s)) else 0) for s in hand.final_stacks}
        if faults:
            mismatches.append((seed, f"alerts {faults}"))
        elif stacks != hand.final_stacks:
            mismatches.append((seed, f"stacks {stacks} != PokerKit {hand.final_stacks}"))
        elif bring_in != hand.bring_in_seat:
            mismatches.append((seed, f"bring-in seat {bring_in} != PokerKit {hand.bring_in_seat}"))
        elif {k: v for k, v in firsts.items() if k in hand.first_actors} != hand.first_actors:
            mismatches.append((seed, f"first to act {firsts} != PokerKit {hand.first_actors}"))
        award = next((a for a in alerts if a.code == "POT_AWARD"), None)
        totals["side_pots"] += award is not None and len(award.extra.get("pots", ())) > 1
        totals["hands"] += 1
        totals["raises"] += hand.raises
        totals["completions"] += hand.completions
        totals["capped"] += hand.capped_rounds
        totals["all_ins"] += hand.all_ins
    assert mismatches == [], mismatches[:5]
    return totals


def test_random_stud_hands_match_pokerkit_short() -> None:
    totals = check(SHORT)
    # the generator really exercises what the differential is about
    assert totals["completions"] > SHORT // 4 and totals["raises"] > SHORT
    assert totals["capped"] > 0 and totals["all_ins"] > SHORT // 20 and totals["side_pots"] > 0


@pytest.mark.skipif(not FULL, reason="long form: CARDTABLE_FULL=1")
@pytest.mark.timeout(3_600)
def test_random_stud_hands_match_pokerkit_long() -> None:
    totals = check(LONG)
    assert totals["capped"] > LONG // 100 and totals["side_pots"] > LONG // 100
