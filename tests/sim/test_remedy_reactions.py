"""A short call, under-raise, string bet or oversized chip whose remedy the dealer ignores, or that the
floor accepts as it lies, is followed to settlement (docs/betting.md "A wager short of the minimum that
the table lets stand", "Short call", "String bet" and "Oversized chip").

Every hand gets the injected error; the table plays the reaction given. The core must find every one,
say `CORRECTION_NOT_FOLLOWED` exactly once per ignored remedy and never after a floor ruling, and end
each hand with the simulator's stacks: no `BAD_EVENT`, nothing stuck, no false alert.
"""

from __future__ import annotations

import pytest

from controller.core.alerts import Alert
from controller.sim import VirtualTable
from controller.sim.follow import follow
from controller.sim.score import score

CASES = [  # (game, limit, profile, injector)
    ("holdem", "no", "cuca", "BET_BELOW_MINIMUM"),
    ("holdem", "pot", "handbuch", "BET_BELOW_MINIMUM"),
    ("holdem", "fixed", "tda", "BET_BELOW_MINIMUM"),
    # at most half a raise: a call under cuca, completed under handbuch (000 §3.1)
    ("stud", "fixed", "cuca", "STUD_SMALL_RAISE_AFTER_OPEN_PAIR"),
    ("stud", "fixed", "handbuch", "STUD_SMALL_RAISE_AFTER_OPEN_PAIR"),
    ("holdem", "no", "tda", "CALL_SHORT"),
    ("holdem", "fixed", "cuca", "CALL_SHORT"),
    ("holdem", "no", "handbuch", "STRING_BET"),
    ("holdem", "pot", "classic", "STRING_BET"),
    ("holdem", "no", "uesg", "OVERSIZED_CHIP"),
    # over an open stud bring-in the chip taken as played is a completion, not a raise (002 §3)
    ("stud", "pot", "handbuch", "OVERSIZED_CHIP"),
]


def _not_followed(alerts: list[Alert]) -> int:
    return sum(1 for a in alerts if a.code == "CORRECTION_NOT_FOLLOWED")


@pytest.mark.parametrize("reaction", ["ignore", "ruling", "remedy"])
@pytest.mark.parametrize(("game", "limit", "profile", "fault"), CASES)
def test_short_wager_followed_whatever_the_table_does(game: str, limit: str, profile: str, fault: str,
                                                     reaction: str) -> None:
    table = VirtualTable(game=game, limit=limit, profile=profile, seats=5, seed=11, inject=1.0,
                         faults=(fault,), reactions=(reaction,))
    hands = list(table.hands(60))
    stats, alerts = follow(hands, profile)
    result = score(hands, alerts)
    injected = sum(1 for h in hands if h.injected)
    where = f"{stats.summary()}\n{result.summary()}"
    assert injected >= 10, where
    assert stats.clean and not result.missed and not result.false_alerts, where
    assert not result.follow_up_false, where
    assert _not_followed(alerts) == (injected if reaction == "ignore" else 0), where
