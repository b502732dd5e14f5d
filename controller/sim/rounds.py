"""The simulator's own betting round (no limit; fixed and pot limit too): who acts next, legal amounts.

This is deliberately independent of controller/core/betting.py: the property tests check the engine
against it, so it must not share code with the thing it checks. It keeps to the readings on which every
profile agrees (a seat that already acted never re-raises after an all-in that was not a full raise).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class Options:
    """What the seat to act may do. Totals are the seat's commitment this round after the action."""

    seat: int
    to_call: int  # chips needed to call (0: the seat may check)
    call_total: int  # total after a call (capped at the seat's stack: an all-in call)
    min_total: int  # smallest legal bet/raise total (0 when no bet/raise is possible)
    max_total: int  # all-in total
    may_raise: bool  # a full bet/raise (or an all-in above the call) is allowed
    max_raise: int = 0  # the largest legal bet/raise total (no limit: the all-in; fixed: the one amount)


class Round:
    """One betting round over `seats` (clockwise, first to act first)."""

    def __init__(self, *, seats: Sequence[int], stacks: Mapping[int, int], posted: Mapping[int, int],
                 bb: int, current_bet: int, limit: str = "no", bet_size: int = 0, cap: int | None = None,
                 pot: int = 0) -> None:
        """`limit`: "no", "pot" or "fixed"; fixed limit bets and raises `bet_size` (the street's small or
        big bet) at most `cap` times after the opening bet (a posted big blind is the opening bet); pot
        limit raises at most to the pot after the call, `pot` being the chips in before this round."""
        self.order = list(seats)
        self.behind = dict(stacks)  # chips behind, after `posted` was taken out
        self.committed = {s: posted.get(s, 0) for s in self.order}
        self.current_bet = current_bet
        self.min_raise = bb  # the last full bet/raise increment
        self.folded: set[int] = set()
        self.all_in = {s for s in self.order if self.behind[s] == 0}
        self.pending = [s for s in self.order if s not in self.all_in]  # still to act, in order
        self.may_raise = {s: True for s in self.pending}
        self.actions = 0
        self.last_aggressor: int | None = None
        self.limit = limit
        self.cap = cap if limit == "fixed" else None
        self.pot_before = pot
        self.wagers = 1 if current_bet > 0 else 0  # opening bet + full raises (the limit cap)
        if limit == "fixed":
            self.min_raise = bet_size or bb

    # --- queries
    @property
    def to_act(self) -> int | None:
        if self.live_count() <= 1:
            return None
        # a lone seat with chips facing nothing to call has nobody left to bet against
        if len(self.pending) == 1 and self.able_count() == 1:
            seat = self.pending[0]
            if self.committed[seat] >= self.current_bet:
                return None
        return self.pending[0] if self.pending else None

    @property
    def closed(self) -> bool:
        return self.to_act is None

    def live_count(self) -> int:
        return len(self.order) - len(self.folded)

    def able_count(self) -> int:
        """Live seats that still have chips behind."""
        return sum(1 for s in self.order if s not in self.folded and s not in self.all_in)

    def options(self, seat: int) -> Options:
        behind, mine = self.behind[seat], self.committed[seat]
        to_call = max(0, self.current_bet - mine)
        call_total = mine + min(to_call, behind)
        max_total = mine + behind
        # a raise needs someone who could still put in more than the current bet
        others_able = sum(1 for s in self.order
                          if s != seat and s not in self.folded and s not in self.all_in
                          and self.committed[s] + self.behind[s] > self.current_bet)
        base = self.current_bet + (self.min_raise if self.current_bet > 0 else 0)
        min_total = max(base, self.min_raise) if self.current_bet == 0 else base
        may_raise = self.may_raise.get(seat, True) and max_total > self.current_bet and others_able > 0
        max_raise = max_total
        if self.limit == "fixed":
            min_total = max_raise = self.current_bet + self.min_raise
            may_raise = may_raise and (self.cap is None or self.wagers < 1 + self.cap)
        elif self.limit == "pot":
            pot = self.pot_before + sum(self.committed.values())
            max_raise = max(min_total, self.current_bet + pot + to_call)
        return Options(seat=seat, to_call=to_call, call_total=call_total,
                       min_total=min(min_total, max_total) if may_raise else 0,
                       max_total=max_total, may_raise=may_raise,
                       max_raise=min(max_raise, max_total) if may_raise else 0)

    # --- changes
    def fold(self, seat: int) -> None:
        self.folded.add(seat)
        if seat in self.pending:
            self.pending.remove(seat)

    def act(self, seat: int, total: int) -> str:
        """Apply a check/call/bet/raise/all-in to `total`; returns the action name to log."""
        if seat != self.to_act:
            raise ValueError(f"seat {seat} is not to act (seat {self.to_act} is)")
        self.actions += 1
        mine = self.committed[seat]
        added = total - mine
        if added < 0 or added > self.behind[seat]:
            raise ValueError(f"seat {seat}: total {total} impossible (committed {mine}, "
                             f"behind {self.behind[seat]})")
        self.pending.pop(0)
        self.committed[seat] = total
        self.behind[seat] -= added
        all_in = self.behind[seat] == 0
        if all_in:
            self.all_in.add(seat)
        if total <= self.current_bet:
            if added == 0:
                return "check"
            return "allin" if all_in else "call"
        return self._raise(seat, total, all_in)

    def _raise(self, seat: int, total: int, all_in: bool) -> str:
        opened = self.current_bet == 0
        increment = total - self.current_bet
        full = increment >= self.min_raise
        if full:
            if self.limit != "fixed":
                self.min_raise = increment
            self.wagers += 1
            self.last_aggressor = seat
        acted = [s for s in self._after(seat) if s not in self.folded and s not in self.all_in]
        if full:
            self.pending = acted
            self.may_raise = {s: True for s in acted}
        else:
            if self.limit == "fixed" and 2 * increment >= self.min_raise:
                self.wagers += 1  # TDA 2024 Rule 47-B: half a bet or more is a raise for the cap
            # incomplete all-in raise: seats still to act keep their rights, the others must respond
            # but may not raise again (the reading on which every profile agrees)
            for s in acted:
                if s not in self.pending:
                    self.may_raise[s] = False
            self.pending = [s for s in acted if s in self.pending or not self.may_raise[s]]
            if self.last_aggressor is None:
                self.last_aggressor = seat
        self.current_bet = total
        if all_in:
            return "allin"
        return "bet" if opened else "raise"

    def _after(self, seat: int) -> list[int]:
        """Seats in clockwise order after `seat`, wrapping round (excluding it)."""
        i = self.order.index(seat)
        return self.order[i + 1:] + self.order[:i]
