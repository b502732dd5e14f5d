"""`ante_trimming_status` is read but the table always takes antes as dead money for the main pot
(PokerKit's `false`). Real files set `true` with a big-blind ante and record dead-money stacks (the
WSOP 2019 sample), so the flag is not a reliable statement of how the pot was split (docs/phh.md)."""

from __future__ import annotations

from pathlib import Path

from controller.phh import parse_phh
from tests.conformance.oracle import kit_final_stacks
from tests.conformance.test_forced_golden import _ends, _hand, _settle

DATA = Path(__file__).resolve().parents[1] / "data" / "phh"
HAND = """variant = 'NT'
ante_trimming_status = {trim}
antes = [10, 10, 10]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [1000, 1000, 5]
actions = ['d dh p1 7c2d', 'd dh p2 8s3h', 'd dh p3 AsAh', 'p1 cc', 'p2 cc', 'd db KdQc4s', 'p1 cc',
  'p2 cc', 'd db 9h', 'p1 cc', 'p2 cc', 'd db Jd', 'p1 cc', 'p2 cc', 'p1 sm 7c2d', 'p2 sm 8s3h',
  'p3 sm AsAh']
"""


def test_short_ante_is_dead_money_whatever_the_flag_says() -> None:
    # p3 is all in on 5 of its 10 ante and wins every ante (25): dead money, PokerKit's untrimmed result.
    for trim in ("false", "true"):
        text = HAND.format(trim=trim)
        assert _ends(_settle(_hand(text))[0]) == kit_final_stacks(parse_phh(text)[0]) == [970, 1010, 25]


def test_wsop_2019_trimming_true_with_a_big_blind_ante_records_dead_money_stacks() -> None:
    hand = parse_phh((DATA / "wsop_2019_42_3_00-01-07.phh").read_text(encoding="utf-8"))[0]
    assert hand.fields["ante_trimming_status"] is True and hand.antes.count(0) == 7
    summary, _ = _settle(_hand((DATA / "wsop_2019_42_3_00-01-07.phh").read_text(encoding="utf-8")))
    assert _ends(summary) == [int(s) for s in hand.finishing_stacks or []]
