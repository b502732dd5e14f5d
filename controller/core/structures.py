"""Betting structures as data (no, pot, fixed, spread, split, step-spread limit) and their pure rules.

A `BettingStructure` is built from a `Level` (contract v1.1, interfaces.md §1a) and answers, for one
betting round and one situation, which bets and raises are legal. It knows nothing of seats or turn
order: the betting round (controller/core/betting.py) and the games (hold'em, stud) call it.

API (everything is pure and cheap; amounts are a seat's TOTAL for the round, as in the event log):

- `BettingStructure.from_level(level, *, raise_cap=3, heads_up_uncapped=False)`: the structure in force.
  `raise_cap` is the number of raises allowed after the opening bet in a limit round (bet + 3 raises is
  the common cap; a profile field, `Profile.limit_raise_cap`); `heads_up_uncapped` lifts the cap while
  only two players are left in the hand (`Profile.limit_heads_up_uncapped`; TDA 2024 Rule 48 keeps the
  cap heads-up, so every profile has it off unless configured).
- `structure.big_round(game, round_index)`: whether a round (0-based: hold'em preflop 0 … river 3; stud
  3rd street 0 … 7th street 4) is played at the higher limit: hold'em's turn and river, stud's 5th street
  on (002 §5 for split and step-spread; the usual fixed-limit rule too).
- `Situation(...)`: what the round looks like to the seat about to wager: the bet to call, the last full
  increment, how many wagers count toward the cap so far, whether the higher limit is in force or (002
  §4: an open pair on 4th street) merely allowed, the pot, the seat's committed chips and stack, how many
  players are still in the hand, and whether the bet to call is a stud bring-in that can be completed.
- `structure.wager(s) -> Wager | None`: the legal full bet/raise for the seat (None: no raise is allowed
  any more, the cap is reached). `Wager.min_to`/`max_to` bound the total; `Wager.exact` lists the only
  legal totals when the structure fixes them (fixed and split limit), else it is empty; `Wager.kind` is
  "bet", "raise" or "complete"; `Wager.counts` says whether it counts toward the cap. An all-in for less
  than `min_to` is always legal; the stack is NOT applied here (the caller caps by the seat's chips).
- `structure.is_completion(s, total)`: the wager brings a stud bring-in up to the completion amount (the
  small bet; 002 §3 for split limit): not a raise, it does not count toward the cap, and it reopens the
  betting for the bring-in.
- `structure.counts_toward_cap(s, total)`: a full bet or raise counts; the bring-in, a completion and a
  short all-in that does not reopen the betting do not.
- `structure.short_all_in_reopens(s, total)`: limit structures follow TDA 2024 Rule 47-B: an all-in of at
  least half a bet (of the round's bet size) reopens the betting for players who already acted, less does
  not. No and pot limit leave this to the profile (controller/core/chips.py).
- `structure.pot_limit_max(s)`: pot limit's largest total: the bet to call plus the pot after the call
  (the pot counts dead money and every bet of this round).
- `round_kwargs(level, profile, round_index, pot)`: the keyword arguments a game adds to
  `BettingRound(...)` for the level's structure (empty for no-limit hold'em).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from controller.core.profiles import Profile
from controller.core.table import Level

StructureKind = Literal["no", "pot", "fixed", "spread", "split", "step_spread"]
WagerKind = Literal["bet", "raise", "complete"]
LIMIT_KINDS: frozenset[str] = frozenset({"fixed", "spread", "split", "step_spread"})
EXACT_KINDS: frozenset[str] = frozenset({"fixed", "split"})
SPREAD_KINDS: frozenset[str] = frozenset({"spread", "step_spread"})


@dataclass(frozen=True, kw_only=True, slots=True)
class Situation:
    """One seat's view of the round when it may bet or raise (all amounts are round totals)."""

    current_bet: int  # the highest total this round (a posted blind or bring-in included)
    last_increment: int = 0  # the last full bet/raise increment of the round (0: none yet)
    wagers: int = 0  # bets, completions and full raises so far that count toward the cap (a blind counts)
    big: bool = False  # the higher limit is in force (big round, or someone bet it after an open pair)
    big_allowed: bool = False  # 002 §4: an open pair on 4th street; a bet may be the higher limit
    pot: int = 0  # chips in the middle before this round + every bet of this round (dead money too)
    committed: int = 0  # the seat's own total this round
    live: int = 3  # players still in the hand (not folded)
    bring_in_open: bool = False  # the bet to call is a stud bring-in that has not been completed


@dataclass(frozen=True, slots=True)
class Wager:
    """The legal full bet/raise now: totals from `min_to` to `max_to`, or only `exact` when not empty."""

    kind: WagerKind
    min_to: int
    max_to: int
    exact: tuple[int, ...] = ()
    counts: bool = True  # counts toward the raise cap

    def allows(self, total: int) -> bool:
        if self.exact:
            return total in self.exact
        return self.min_to <= total <= self.max_to


@dataclass(frozen=True, kw_only=True, slots=True)
class BettingStructure:
    """The betting structure of a level. Amounts are chips; 0 means "does not apply"."""

    kind: StructureKind = "no"
    game: str = "holdem"
    small_bet: int = 0  # fixed/split: the small bet; no/pot: the minimum bet (big blind or small bet)
    big_bet: int = 0  # fixed/split: the big bet; spread: the upper bound; step_spread: the later upper bound
    spread_min: int = 0  # spread/step_spread: the smallest bet
    step_low: int = 0  # step_spread: the upper bound of the early rounds
    bring_in: int = 0  # stud's forced opener; completing it means bringing the bet to `small_bet`
    raise_cap: int | None = None  # raises allowed after the opening bet (None: no cap)
    heads_up_uncapped: bool = False

    @classmethod
    def from_level(cls, level: Level, *, raise_cap: int = 3, heads_up_uncapped: bool = False
                   ) -> BettingStructure:
        """The structure of `level`. Hold'em fixed limit without amounts plays big blind / twice it."""
        kind: StructureKind = level.limit  # type: ignore[assignment]  # checked by the log reader
        small = level.small_bet or (level.bb if level.game == "holdem" else 2 * level.bring_in)
        if kind in ("no", "pot"):
            return cls(kind=kind, game=level.game, small_bet=max(small, 1), big_bet=max(small, 1),
                       bring_in=level.bring_in)
        capped = {"raise_cap": raise_cap, "heads_up_uncapped": heads_up_uncapped}
        if kind in EXACT_KINDS:
            return cls(kind=kind, game=level.game, small_bet=small, big_bet=level.big_bet or 2 * small,
                       bring_in=level.bring_in, **capped)  # type: ignore[arg-type]
        # Spread limits: `small_bet`/`big_bet` are the bounds (§1a); the step-spread limit (002 §4–5) has
        # the lower step from its smallest bet (the bring-in in stud, the big blind in hold'em) up to
        # `small_bet` and the higher step up to `big_bet`.
        if kind == "spread":
            return cls(kind=kind, game=level.game, small_bet=level.small_bet, big_bet=level.big_bet,
                       spread_min=level.small_bet, step_low=level.big_bet, bring_in=level.bring_in,
                       **capped)  # type: ignore[arg-type]
        low = level.bring_in if level.game != "holdem" else level.bb
        return cls(kind=kind, game=level.game, small_bet=level.small_bet, big_bet=level.big_bet,
                   spread_min=max(1, min(low, level.small_bet)), step_low=level.small_bet,
                   bring_in=level.bring_in, **capped)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ per round

    @property
    def is_limit(self) -> bool:
        return self.kind in LIMIT_KINDS

    def big_round(self, game: str, round_index: int) -> bool:
        """Hold'em: turn and river; stud: 5th street on (002 §5). Both: the third betting round on."""
        del game  # both games switch at their third betting round; kept for a future game that differs
        return round_index >= 2

    def bet_unit(self, big: bool) -> int:
        """Fixed/split: the bet and raise size; spreads: the upper bound; no/pot: the minimum bet."""
        if self.kind in SPREAD_KINDS:
            return self.big_bet if big else self.step_low
        return self.big_bet if big else self.small_bet

    def completion_to(self) -> int:
        """The total a stud bring-in is completed to (the small bet)."""
        return self.small_bet

    # ------------------------------------------------------------------ a seat's options

    def capped(self, s: Situation) -> bool:
        """No further raise: the cap (opening bet + `raise_cap` raises) is reached (TDA 2024 Rule 48)."""
        if self.raise_cap is None:
            return False
        if self.heads_up_uncapped and s.live <= 2:
            return False
        return s.wagers >= 1 + self.raise_cap

    def wager(self, s: Situation) -> Wager | None:
        """The legal full bet, raise or completion for the seat; None when the cap forbids any."""
        if s.bring_in_open:
            complete = self.completion_to()
            if self.kind in EXACT_KINDS:
                return Wager("complete", complete, complete, (complete,), counts=False)
            if self.kind in SPREAD_KINDS:
                return Wager("complete", complete, max(complete, self.bet_unit(False)), counts=False)
            # Pot and no limit: a short all-in over the bring-in is a call plus an extra that every
            # later wager carries (TDA 2024 Rule 43's reading; 002 is silent): the completion's increment
            # is added on top of it. Limit structures complete to their fixed or spread amount.
            low = max(complete, s.current_bet + complete - self.bring_in)
            if self.kind == "pot":
                return Wager("complete", low, max(low, self.pot_limit_max(s)), counts=False)
            return Wager("complete", low, _UNBOUNDED, counts=False)
        if self.capped(s):
            return None
        kind: WagerKind = "bet" if s.current_bet == 0 else "raise"
        if self.kind in EXACT_KINDS:
            return self._fixed(s, kind)
        if self.kind in SPREAD_KINDS:
            return self._spread(s, kind)
        minimum = s.current_bet + max(s.last_increment, self.small_bet)
        if self.kind == "pot":
            return Wager(kind, minimum, max(minimum, self.pot_limit_max(s)))
        return Wager(kind, minimum, _UNBOUNDED)

    def _fixed(self, s: Situation, kind: WagerKind) -> Wager:
        if s.big or (s.big_allowed and kind == "raise"):
            unit = self.big_bet  # 002 §4: after an open pair every raise of the round is the higher limit
            return Wager(kind, s.current_bet + unit, s.current_bet + unit, (s.current_bet + unit,))
        if s.big_allowed:  # an open pair: the bet may be the small or the big bet (002 §4)
            small, big = s.current_bet + self.small_bet, s.current_bet + self.big_bet
            return Wager(kind, small, big, (small, big))
        total = s.current_bet + self.small_bet
        return Wager(kind, total, total, (total,))

    def _spread(self, s: Situation, kind: WagerKind) -> Wager:
        upper = self.bet_unit(s.big or s.big_allowed)
        # A spread-limit raise is at least the last bet or raise of the round and at most the upper bound.
        inc = max(s.last_increment, self.spread_min) if kind == "raise" else self.spread_min
        inc = min(inc, upper)
        return Wager(kind, s.current_bet + inc, s.current_bet + upper)

    def pot_limit_max(self, s: Situation) -> int:
        """Pot limit: call, then raise by the whole pot (dead money and this round's bets included)."""
        to_call = max(0, s.current_bet - s.committed)
        return s.current_bet + s.pot + to_call

    def is_completion(self, s: Situation, total: int) -> bool:
        """A wager that brings an open bring-in up to the completion amount (002 §3): not a raise."""
        return s.bring_in_open and s.current_bet < total <= self.completion_to()

    def counts_toward_cap(self, s: Situation, total: int) -> bool:
        """Full bets and raises count; bring-in, completion and a non-reopening short all-in do not."""
        if total <= s.current_bet or self.is_completion(s, total):
            return False
        w = self.wager(s)
        if w is None:
            return False
        return total >= w.min_to or self.short_all_in_reopens(s, total)

    def short_all_in_reopens(self, s: Situation, total: int) -> bool:
        """Limit (TDA 2024 Rule 47-B): an all-in raising by half a bet or more reopens; less does not.
        No and pot limit: only a full raise (the profile's half-raise reading lives in chips.py)."""
        raised_by = total - s.current_bet
        if self.is_limit:
            unit = self.big_bet if s.big else self.bet_unit(False)
            if self.kind in SPREAD_KINDS:
                unit = max(s.last_increment, self.spread_min)
            return 2 * raised_by >= unit
        return raised_by >= max(s.last_increment, self.small_bet)


_UNBOUNDED = 1 << 62  # no-limit's upper bound before the caller applies the seat's chips

NO_LIMIT = BettingStructure()


def structure_for(level: Level, *, raise_cap: int = 3, heads_up_uncapped: bool = False) -> BettingStructure:
    """Shorthand for `BettingStructure.from_level`."""
    return BettingStructure.from_level(level, raise_cap=raise_cap, heads_up_uncapped=heads_up_uncapped)


def round_kwargs(level: Level, profile: Profile, round_index: int, pot: int) -> dict[str, object]:
    """The extra BettingRound arguments for a level's structure: none for no limit (that round is built
    exactly as before), else the structure, whether the round is at the higher limit, and the pot."""
    if level.limit == "no" and level.game == "holdem":
        return {}
    s = structure_for(level, raise_cap=profile.limit_raise_cap,
                      heads_up_uncapped=profile.limit_heads_up_uncapped)
    return {"structure": s, "big": s.is_limit and s.big_round(level.game, round_index), "pot": pot}
