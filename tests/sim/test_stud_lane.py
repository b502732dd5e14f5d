"""The stud hand's fast lane (`StudHand.regular_card`) changes nothing: simulated stud and mixed logs, clean
and with injected errors and every dealer reaction, give the same alerts, summaries, public state and
statistics with the lane as without it (the lane copies handler paths; this catches one that drifts)."""

from __future__ import annotations

import json

import pytest

from controller.core.engine import Engine
from controller.core.games.studhand import StudHand
from controller.core.profiles import get_profile
from controller.sim import VirtualTable

REACTIONS = ("remedy", "ignore", "ruling", "second")


def _outputs(events: list[object], profile: str) -> list[str]:
    """Every output of a replay as text: each event's outcomes, the public state every 5th event, and at
    the end the last hand's settlement and the statistics."""
    engine = Engine(table="lane", profile=get_profile(profile))
    out: list[str] = []
    for i, ev in enumerate(events):
        out.append(repr(engine.feed(ev)))  # type: ignore[arg-type]
        if i % 5 == 0:
            out.append(json.dumps(engine.public_state(), sort_keys=True, default=repr))
    out.append(repr(engine.finish(engine.last_t)))
    out.append(repr(sorted(engine.statistics().items())))
    return out


@pytest.mark.parametrize(("game", "seats", "inject", "seed", "profile"), [
    ("stud", 7, 0.0, 11, "cuca"),
    ("stud", 5, 0.5, 12, "handbuch"),
    ("stud", 4, 0.8, 13, "tda"),
    ("mixed", 6, 0.5, 14, "uesg"),
])
def test_lane_gives_the_same_outputs(game: str, seats: int, inject: float, seed: int, profile: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    table = VirtualTable(seats=seats, seed=seed, game=game, inject=inject, reactions=REACTIONS,
                         profile=profile, style="mixed")
    events: list[object] = [ev for hand in table.hands(40) for ev in hand.events]
    with_lane = _outputs(events, profile)
    monkeypatch.setattr(StudHand, "LANE", False)
    assert _outputs(events, profile) == with_lane
