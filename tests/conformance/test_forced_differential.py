"""Differential against PokerKit for each forced-bet form, through the importer and the rules engine.

Big-blind ante (with short big blinds), one or two straddles, a returning player's live post, a dead
small blind: random hands played by PokerKit, imported as physical event logs, replayed by the engine;
every finishing stack must match and no fault alert may be raised. A few hundred hands per form by
default, 10,000 per form with CARDTABLE_FULL=1 (or CARDTABLE_FORCED_HANDS=N).
"""

from __future__ import annotations

import os

import pytest

from controller.phh.importer import hands_to_events
from tests.conformance.forced_oracle import FORMS, form_hand
from tests.conformance.oracle import parse_one
from tests.conformance.test_e2e_conformance import end_stacks, replay

N = int(os.environ.get("CARDTABLE_FORCED_HANDS", 10_000 if os.environ.get("CARDTABLE_FULL") == "1" else 100))


@pytest.mark.timeout(7_200 if N > 1_000 else 300)
@pytest.mark.parametrize("form", sorted(FORMS))
def test_forced_bet_form_settles_as_pokerkit(form: str) -> None:
    mismatches, faults, short_bb = [], [], 0
    for seed in range(N):
        fh = form_hand(form, seed)
        hand = parse_one(fh.phh_text)
        summaries, alerts = replay(hands_to_events([hand]), merge=True)
        if len(summaries) != 1 or end_stacks(summaries[0]) != fh.final_stacks:
            mismatches.append(seed)
        faults += [(seed, a.code, a.message) for a in alerts if a.severity != "info"][:1]
        short_bb += form == "bb_ante" and hand.starting_stacks[1] < hand.blind_of(1) + 2 * hand.min_bet
    print(f"{form}: {N} hands, {len(mismatches)} mismatches, {len(faults)} with a fault alert"
          + (f", {short_bb} short big blinds" if form == "bb_ante" else ""))
    assert mismatches == [] and faults == []
    if form == "bb_ante":
        assert short_bb > N // 10  # short big blinds really occur
