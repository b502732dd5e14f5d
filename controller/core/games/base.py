"""What a game supplies to the shared hand machinery: its deal and street plan, and how a hand begins."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from controller.core.alerts import Finding
from controller.core.pots import OddChipOrder, button_order
from controller.core.record import BetStreet
from controller.core.table import Level, Positions, Table

if TYPE_CHECKING:
    from controller.core.events import HandStart


@dataclass(frozen=True, kw_only=True, slots=True)
class GamePlan:
    """The data of a game: streets in order, the initial deal and, per street, what is dealt.

    `deal_up[i]` is True when the i-th card of the initial deal to each seat is dealt face up (hold'em:
    none; stud: the third). `street_cards[s]` is the number of cards each live seat receives on street `s`
    after the initial deal and `street_up[s]` whether they are face up; `board_cards[s]` the board cards
    that street adds (hold'em's flop, turn, river).
    """

    name: str
    streets: tuple[BetStreet, ...]
    hole_cards: int  # cards per seat in the initial deal
    deal_up: tuple[bool, ...] = ()
    board_cards: Mapping[str, int]
    street_cards: Mapping[str, int]
    street_up: Mapping[str, bool]
    button: bool  # a dealer button and blinds (hold'em) or seats numbered from the dealer's left (stud)
    # Who gets a split pot's odd chips first (hold'em: left of the button; stud: the high card by suit).
    odd_chip_order: OddChipOrder = button_order


@dataclass(frozen=True, kw_only=True, slots=True)
class Start:
    """How the next hand begins: positions (None without a button), seats dealt in, the level, findings."""

    positions: Positions | None
    dealt_in: list[int]
    level: Level
    findings: list[Finding]


class TableState(Protocol):
    """What a game's `begin` reads and updates of the engine between hands (engine.py)."""

    seats: Table
    redeal: bool
    disputed: int | None

    @property
    def current(self) -> Any: ...


Begin = Callable[[TableState, "HandStart", Level], Start]


@dataclass(frozen=True, kw_only=True, slots=True)
class Game:
    """A game as the engine uses it: its plan, the hand class that follows it, and how a hand begins."""

    plan: GamePlan
    hand_class: Callable[..., Any]
    begin: Begin

    @property
    def name(self) -> str:
        return self.plan.name
