"""Every game the core follows, by the name a `level` or `hand_start` gives it (interfaces.md §1a)."""

from __future__ import annotations

from controller.core.games import holdem, stud
from controller.core.games.base import Game
from controller.core.games.studhand import StudHand
from controller.core.hand import Hand

HOLDEM = Game(plan=holdem.PLAN, hand_class=Hand, begin=holdem.begin)

STUD7 = Game(plan=stud.PLAN, hand_class=StudHand, begin=stud.begin)

GAMES: dict[str, Game] = {g.name: g for g in (HOLDEM, STUD7)}
DEFAULT_GAME = HOLDEM.name


def game_named(name: str | None) -> Game:
    """The game called `name` (None: hold'em); the log reader has already checked the name."""
    return GAMES[name or DEFAULT_GAME]
