"""The integer unit comes from the hand's inputs only; results are kept in the file's units."""

from __future__ import annotations

from decimal import Decimal

import pytest

from controller.core.forced import UNKNOWN_STACK
from controller.core.history import file_amount
from controller.phh import PhhError, parse_phh

HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [{sb}, {bb}, 0]
min_bet = {bb}
starting_stacks = [{s1}, 10000, 10000]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 7h2s', 'p3 f', 'p1 cbr {bet}', 'p2 f']
finishing_stacks = [10112.5, 9887.5, 10000]
winnings = [0.001, 0, 0]
"""


def test_results_never_set_the_unit() -> None:
    (hand,) = parse_phh(HAND.format(sb=50, bb=100, s1=10000, bet=300))
    assert hand.scale == 1  # the half chips of finishing_stacks and the 0.001 of winnings do not count
    assert hand.finishing_stacks == [Decimal("10112.5"), Decimal("9887.5"), Decimal("10000")]


@pytest.mark.parametrize(("sb", "bb", "bet", "scale"), [("0.10", "0.25", "0.75", 100), (5, 10, "12.5", 10),
                                                       (1, 2, 6, 1)])
def test_unit_from_blinds_and_bets(sb: object, bb: object, bet: object, scale: int) -> None:
    (hand,) = parse_phh(HAND.format(sb=sb, bb=bb, s1=10000, bet=bet))
    assert hand.scale == scale
    assert hand.blinds[:2] == [int(Decimal(str(sb)) * scale), int(Decimal(str(bb)) * scale)]


def test_unknown_stack_and_file_amounts() -> None:
    (hand,) = parse_phh(HAND.format(sb=1, bb=2, s1="inf", bet=6))
    assert hand.starting_stacks[0] == UNKNOWN_STACK and hand.unknown_stacks() == [True, False, False]
    assert file_amount(UNKNOWN_STACK + 25, 100) == "inf"
    assert [file_amount(v, 100) for v in (25, 2500, 2510, 5)] == ["0.25", "25", "25.1", "0.05"]


def test_an_amount_finer_than_a_millionth_is_one_line_error() -> None:
    with pytest.raises(PhhError, match="7 decimal places"):
        parse_phh(HAND.format(sb=1, bb=2, s1=10000, bet="6.0000001"))
