"""Which level fields each game needs, one check for the log reader, the table config and the engine; and the
table's own game (config `[table] game`), which fills in what a `level` event that names no game leaves out.

Precedence of the game (docs/interfaces.md §1a): a `hand_start` that names one, else the `level` that names
one, else the table's. A level that names its game describes its structure fully itself (as before); a level
that names none takes the table's game and, field by field, the table's limit and amounts it leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.core.events import LevelEvent
from controller.core.table import Level

SPREADS = ("spread", "step_spread")
EXACT = ("fixed", "split")
AMOUNTS = ("bring_in", "small_bet", "big_bet")

Problem = tuple[str, str]  # (the field it is about, a one-line message)


def structure_problem(game: str, limit: str, *, bring_in: int = 0, small_bet: int = 0, big_bet: int = 0,
                      bb: int | None = None, complete: bool = True, mixed: bool = False) -> Problem | None:
    """The first reason why these fields cannot describe a level of `game`, or None.

    `complete=False` checks only contradictions (a bring-in in hold'em, a big bet below the small bet), not
    what is missing: the table config may leave amounts to the levels. `mixed=True`: the level serves more
    than one game (it names none and carries a bring-in, or a `hand_start` names another game than the
    level's), so stud's fields are not refused for a hold'em hand. `bb`: also require hold'em's big blind.
    """
    if game == "holdem" and bring_in and not mixed:
        return "bring_in", "a bring-in belongs to stud (game 'stud7'), not hold'em"
    if game == "holdem" and bb is not None and bb < 1:
        return "bb", "missing: a hold'em level needs the big blind"
    if complete and game == "stud7" and not bring_in:
        return "bring_in", "missing: a stud level needs the bring-in"
    if limit in SPREADS:
        for key, value in (("small_bet", small_bet), ("big_bet", big_bet)):
            if complete and not value:
                return key, f"missing: a {limit} limit needs its lower and upper bound"
    elif limit in EXACT:
        if complete and game == "stud7" and not small_bet:
            return "small_bet", f"missing: a {limit}-limit stud level needs the small bet"
    elif game == "holdem" and not mixed:
        for key, value in (("small_bet", small_bet), ("big_bet", big_bet)):
            if value:
                return key, f"only with a fixed, split, spread or step_spread limit (limit is {limit!r})"
    if small_bet and big_bet and big_bet < small_bet:
        return "big_bet", f"must be at least small_bet ({small_bet}), got {big_bet}"
    if complete and big_bet and not small_bet:
        return "small_bet", "missing: big_bet given without small_bet"
    if bring_in and small_bet and bring_in > small_bet and limit not in ("no", "pot"):
        return "bring_in", f"must be at most small_bet ({small_bet}), got {bring_in}"
    return None


def any_game_problem(limit: str, *, bring_in: int = 0, small_bet: int = 0, big_bet: int = 0
                     ) -> Problem | None:
    """A level that names no game must fit at least one game (which one is the table's business, decided
    when the level is applied); the hold'em reading's problem is the one reported."""
    holdem = structure_problem("holdem", limit, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet,
                               mixed=bool(bring_in))
    stud = structure_problem("stud7", limit, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet)
    return None if holdem is None or stud is None else holdem


@dataclass(frozen=True, kw_only=True, slots=True)
class TableGame:
    """The game a table deals when neither the level nor the hand names one (config `[table]`); amounts 0
    and `limit` None mean "not given": the level events carry them."""

    game: str = "holdem"
    limit: str | None = None
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0

    def problem(self) -> Problem | None:
        """A contradiction in the config's own fields (what is missing may come from the levels)."""
        return structure_problem(self.game, self.limit or "no", bring_in=self.bring_in,
                                 small_bet=self.small_bet, big_bet=self.big_bet, complete=False)

    def level(self, ev: LevelEvent) -> tuple[Level, Problem | None]:
        """The level in force after `ev`, and why it cannot be played, if so."""
        if ev.game is not None:  # the level names its game: its own fields, checked by the log reader
            return Level.from_event(ev), None
        limit = ev.limit or self.limit or "no"
        amounts = {k: getattr(ev, k) or getattr(self, k) for k in AMOUNTS}
        level = replace(Level.from_event(ev), game=self.game, limit=limit, **amounts)
        problem = structure_problem(self.game, limit, **amounts, bb=ev.bb, mixed=bool(ev.bring_in))
        return level, problem


def for_hand(level: Level, game: str) -> tuple[Level, Problem | None]:
    """The level as a hand of `game` plays it: a `hand_start` that names another game than the level's
    (a mixed rotation) plays that game with the level's amounts, when they are enough for it."""
    if game == level.game:
        return level, None
    problem = structure_problem(game, level.limit, bring_in=level.bring_in, small_bet=level.small_bet,
                                big_bet=level.big_bet, bb=level.bb, mixed=True)
    return replace(level, game=game), problem


DEFAULT = TableGame()
