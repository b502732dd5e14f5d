"""The record of one hand as the engine built it: the contract between tracking and settlement."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# Hold'em's streets, then seven-card stud's (third to seventh street, 002 §3–7).
BetStreet = Literal["preflop", "flop", "turn", "river", "third", "fourth", "fifth", "sixth", "seventh"]
RecordedAction = Literal[
    "post_sb", "post_bb", "post_ante", "post_straddle", "post_dead",
    "fold", "check", "call", "bet", "raise", "allin",
]
HandEnd = Literal["open", "fold", "showdown", "misdeal", "fouled_deck"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ActionRecord:
    """One accepted action: `total` is the seat's commitment this street after it; `added` what it put in."""

    t: float
    street: BetStreet
    seat: int
    action: RecordedAction
    total: int
    added: int


@dataclass(kw_only=True, slots=True)
class HandRecord:
    """Built up by the engine while a hand runs; read by showdown/pots and the hand-history writers.

    Seats are table seat numbers (1-based). `dealt_in` is in deal order: clockwise from the first seat
    left of the button.
    """

    table: str
    hand: int
    t_start: float
    button: int
    sb_seat: int | None
    bb_seat: int | None
    sb: int
    bb: int
    ante: int
    chip: int
    dealt_in: tuple[int, ...]
    players: dict[int, str | None] = field(default_factory=dict)
    starting_stacks: dict[int, int] = field(default_factory=dict)
    hole: dict[int, list[str]] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    burns: list[str] = field(default_factory=list)
    actions: list[ActionRecord] = field(default_factory=list)
    committed: dict[int, int] = field(default_factory=dict)  # chips put in over the whole hand
    folded: set[int] = field(default_factory=set)
    dead: set[int] = field(default_factory=set)  # dead hands: no claim to any pot
    all_in_order: list[int] = field(default_factory=list)  # seats in the order they went all-in
    shown: dict[int, list[str]] = field(default_factory=dict)  # hole cards seen face up after betting
    mucked_unshown: set[int] = field(default_factory=set)  # reached the muck at showdown unseen
    muck_order: list[int] = field(default_factory=list)  # the same seats, in the order they mucked
    last_aggressor: dict[str, int | None] = field(default_factory=dict)  # street → last bettor/raiser
    notes: list[str] = field(default_factory=list)  # irregularities, for hand-history comments
    ended: HandEnd = "open"
    t_end: float | None = None
    scale: int = 1  # log units per unit of the hand's money (level extension; exports divide by it)
    ante_mode: str = "each"  # who posted the ante (level extension)
    unknown: list[int] = field(default_factory=list)  # pots (index, main = 0) whose winner nobody can tell
    # The game (contract v1.1, §1a) and what the showdown order needs to know of its last street: its
    # name, whether it was dealt (None: hold'em's river, i.e. five board cards) and who shows first when
    # nobody bet on it (None: the first live seat left of the button; stud: the highest hand showing).
    game: str = "holdem"
    final_street: str = "river"
    final_dealt: bool | None = None
    show_first: int | None = None
    # Antes as contributions to the pots (stud: a seat all-in on a short ante wins only what it matched)
    # rather than dead money for the main pot (hold'em's antes, docs/phh.md "Forced bets").
    antes_live: bool = False

    def live_seats(self) -> list[int]:
        """Seats still holding a claim (not folded, not dead), in deal order."""
        return [s for s in self.dealt_in if s not in self.folded and s not in self.dead]
