"""The simulator's stud betting rounds: fixed limit (sizes, cap, bring-in, open pair) and the bring-in
on top of the pot- and no-limit round. Limit hold'em plays rounds.py's `Round(limit="fixed")`.

Independent of controller/core/betting.py and structures.py on purpose: the follow and score tests check
the engine against it. It keeps to the readings every rulebook shares, and its players avoid the rest:
- a bet or raise is one fixed size (the small bet, or the big bet on later streets); a round is capped
  at one bet and `CAP_RAISES` raises (heads-up too: a capped sim is legal under either reading);
- in stud the bring-in opens 3rd street below the small bet; completing it to the small bet is a
  `raise` that counts as the round's bet (002 §3), later raises are by the small bet;
- nobody bets or raises short: a seat whose stack does not cover a full bet or raise only checks, calls
  (all-in for less if it must) or folds, so the short-all-in reopening rules never come up;
- an open pair on 4th street (002 §4): the opener may bet the small or the big bet; after a small bet
  nobody raises, after a big bet every raise is a big bet (so both readings of "the higher limit"
  agree on every action the simulator makes);
- pot and no limit (`BringInRound`): the highest up-card brings in below the small bet (002 §3); the next
  seats call it or complete it to the small bet or more (up to the pot in pot limit); after that a raise
  is at least the last increment and a small bet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from controller.sim.rounds import Options, Round

CAP_RAISES = 3  # a bet and three raises per round (TDA 2024 and the common limit cap)


class FixedRound(Round):
    """One fixed-limit round over `seats` (clockwise, first to act first)."""

    def __init__(self, *, seats: Sequence[int], stacks: Mapping[int, int], posted: Mapping[int, int],
                 bet: int, current_bet: int = 0, bets: int = 0, big_bet: int | None = None,
                 bring_in: int = 0) -> None:
        super().__init__(seats=seats, stacks=stacks, posted=posted, bb=bet, current_bet=current_bet)
        self.bet = bet  # the size of a bet and of a raise this round
        self.bets = bets  # bets and raises so far (a posted big blind counts as the bet)
        self.big_bet = big_bet  # open pair on 4th: the opener may choose this size instead
        self.bring_in = bring_in  # stud 3rd street: the forced opening below the small bet
        self.opened_small = False  # an open-pair round opened with the small bet: no raises follow

    def next_total(self, choose_big: bool = False) -> int:
        """The total of the next bet, completion or raise."""
        if self.current_bet == 0:
            if self.bring_in:
                return self.bring_in  # the forced bring-in
            return self.big_bet if (choose_big and self.big_bet) else self.bet
        if self.bring_in and self.bets == 0:
            return self.bet  # completion to the small bet
        return self.current_bet + self.bet

    def options(self, seat: int) -> Options:
        behind, mine = self.behind[seat], self.committed[seat]
        to_call = max(0, self.current_bet - mine)
        call_total = mine + min(to_call, behind)
        total = self.next_total()
        others_able = sum(1 for s in self.order
                          if s != seat and s not in self.folded and s not in self.all_in
                          and self.committed[s] + self.behind[s] > self.current_bet)
        may_raise = (self.may_raise.get(seat, True) and self.bets <= CAP_RAISES and not self.opened_small
                     and mine + behind >= total and others_able > 0)
        return Options(seat=seat, to_call=to_call, call_total=call_total,
                       min_total=total if may_raise else 0, max_total=total if may_raise else call_total,
                       may_raise=may_raise, max_raise=total if may_raise else 0)

    def post_bring_in(self, seat: int) -> str:
        """The forced bring-in as a `bet` (interfaces.md §1a); a short stack brings in all it has."""
        total = min(self.bring_in, self.behind[seat])
        self.pending = [s for s in self.pending if s != seat]
        self.pending.insert(0, seat)
        name = self.act(seat, total)
        self.bets = 0  # the bring-in is not the round's bet: completing it is
        return "bet" if name in ("raise", "allin") else name

    def act(self, seat: int, total: int) -> str:
        opening = self.current_bet == 0 and not self.bring_in
        name = super().act(seat, total)
        if opening and self.big_bet and name in ("bet", "allin") and total < self.big_bet:
            self.opened_small = True
        elif opening and self.big_bet and total >= self.big_bet:
            self.bet = self.big_bet  # opened with the big bet: every raise is a big bet
        return name

    def _raise(self, seat: int, total: int, all_in: bool) -> str:
        self.bets += 1
        self.min_raise = self.bet
        self.last_aggressor = seat
        opened = self.current_bet == 0
        self.current_bet = total
        acted = [s for s in self._after(seat) if s not in self.folded and s not in self.all_in]
        self.pending = acted
        self.may_raise = {s: True for s in acted}
        if all_in:
            return "allin"
        return "bet" if opened else "raise"


class BringInRound(Round):
    """A pot- or no-limit stud round: rounds.py's round, plus the forced bring-in on 3rd street."""

    def __init__(self, *, seats: Sequence[int], stacks: Mapping[int, int], limit: str, small_bet: int,
                 bring_in: int = 0, pot: int = 0) -> None:
        super().__init__(seats=seats, stacks=stacks, posted={}, bb=small_bet, current_bet=0, limit=limit,
                         pot=pot)
        self.small_bet = small_bet
        self.bring_in = bring_in
        self.open_bring_in = False  # the bring-in is the bet to call and nobody completed it yet

    def post_bring_in(self, seat: int) -> str:
        """The bring-in as a `bet` below the minimum: the bet to call, not a full bet. The next wager
        completes it: from the small bet up (to the pot in pot limit), and the smallest raise after that
        is the completion's increment, at least a small bet."""
        total = min(self.bring_in, self.behind[seat])
        self.pending = [seat, *(s for s in self.pending if s != seat)]
        name = self.act(seat, total)
        if total < self.small_bet:
            self.open_bring_in = True
            self.min_raise = self.small_bet - total  # a completion to the small bet is a full wager
        return "bet" if name == "allin" else name

    def _raise(self, seat: int, total: int, all_in: bool) -> str:
        completing = self.open_bring_in and total - self.current_bet >= self.min_raise
        name = super()._raise(seat, total, all_in)
        if completing:
            self.open_bring_in = False
            self.min_raise = max(self.min_raise, self.small_bet)
        return name


StudRound = FixedRound | BringInRound

__all__ = ["CAP_RAISES", "BringInRound", "FixedRound", "StudRound"]
