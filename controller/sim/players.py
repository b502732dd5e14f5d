"""Seeded random players: legal decisions (no, pot or fixed limit), short stacks going all-in often."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from controller.sim.rounds import Options

Style = Literal["mixed", "passive", "showdown"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Decision:
    action: Literal["fold", "act"]
    total: int = 0  # for "act": the seat's commitment this round after the action (check = unchanged)


class Policy:
    """`mixed`: folds, calls, bets, raises and all-ins; `passive`: checks and calls to the river;
    `showdown`: never folds but bets and raises (every hand reaches the river; for the benchmark)."""

    def __init__(self, rng: random.Random, *, style: Style = "mixed", unit: int = 1) -> None:
        self.rng = rng
        self.style = style
        self.unit = max(1, unit)  # bets are rounded to this (the small blind), as players do

    def decide(self, opt: Options, *, pot: int, bb: int) -> Decision:
        r = self.rng.random()
        mine = opt.call_total - min(opt.to_call, opt.call_total)
        behind = opt.max_total - mine
        if self.style == "passive":
            return Decision(action="act", total=opt.call_total)
        if self.style == "showdown":
            if opt.may_raise and r < (0.25 if opt.to_call == 0 else 0.08):
                return Decision(action="act", total=self._size(opt, pot))
            return Decision(action="act", total=opt.call_total)
        short = behind <= 12 * bb
        if opt.to_call == 0:
            if opt.may_raise and short and r < 0.25:
                return Decision(action="act", total=opt.max_raise)
            if opt.may_raise and r > 0.65:
                return Decision(action="act", total=self._size(opt, pot))
            return Decision(action="act", total=opt.call_total)  # check
        cheap = opt.to_call <= bb // 2  # completing the small blind
        if r < (0.25 if cheap else 0.55):
            return Decision(action="fold")
        if opt.may_raise and r > (0.80 if short else 0.96):
            return Decision(action="act", total=opt.max_raise)
        if opt.may_raise and r > 0.86:
            return Decision(action="act", total=self._size(opt, pot))
        return Decision(action="act", total=opt.call_total)

    def _size(self, opt: Options, pot: int) -> int:
        """A bet or raise total between the minimum and the stack, roughly a share of the pot."""
        want = opt.min_total + int(pot * self.rng.choice((0.0, 0.25, 0.5, 0.75, 1.0)))
        want -= want % self.unit
        return max(opt.min_total, min(want, opt.max_raise))
