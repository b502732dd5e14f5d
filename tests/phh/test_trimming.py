"""`ante_trimming_status`: the table takes antes as dead money for the main pot. PokerKit with trimming
off agrees; with trimming on it counts antes as contributions, which differs only when an ante is short
or one seat antes alone: such a hand is refused by name, never settled otherwise than the file means."""

from __future__ import annotations

import pytest
from pokerkit import HandHistory

from controller.phh import PhhError, parse_phh
from controller.phh.importer import hands_to_events
from tests.conformance.oracle import kit_final_stacks
from tests.conformance.test_forced_golden import _ends, _hand, _settle

HAND = """variant = 'NT'
ante_trimming_status = {trim}
antes = {antes}
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [1000, 1000, {short}]
actions = ['d dh p1 7c2d', 'd dh p2 8s3h', 'd dh p3 AsAh', 'p1 cc', 'p2 cc', 'd db KdQc4s', 'p1 cc',
  'p2 cc', 'd db 9h', 'p1 cc', 'p2 cc', 'd db Jd', 'p1 cc', 'p2 cc', 'p1 sm 7c2d', 'p2 sm 8s3h',
  'p3 sm AsAh']
"""


def test_short_ante_untrimmed_is_dead_money_and_settles_as_pokerkit() -> None:
    text = HAND.format(trim="false", antes="[10, 10, 10]", short=5)
    assert _ends(_settle(_hand(text))[0]) == kit_final_stacks(parse_phh(text)[0]) == [970, 1010, 25]


def test_trimming_that_would_change_the_result_is_refused_by_name() -> None:
    text = HAND.format(trim="true", antes="[10, 10, 10]", short=5)
    with pytest.raises(PhhError, match="ante_trimming_status = true with a short or single ante"):
        hands_to_events(parse_phh(text))


def test_trimming_with_full_equal_antes_changes_nothing() -> None:
    text = HAND.format(trim="true", antes="[10, 10, 10]", short=500)
    text = text.replace("'p1 cc', 'p2 cc', 'd db K", "'p3 f', 'p1 cc', 'p2 cc', 'd db K")
    text = text.replace(",\n  'p3 sm AsAh'", "")
    trimmed = list(HandHistory.loads(text))[-1].stacks  # PokerKit as the file says: trimming on
    assert _ends(_settle(_hand(text))[0]) == list(trimmed) == kit_final_stacks(parse_phh(text)[0])
