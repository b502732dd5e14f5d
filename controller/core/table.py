"""Seats, players, stacks, presence, blind levels and the dead-button rule across hands (001 §7)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.core.events import LevelEvent


@dataclass(frozen=True, kw_only=True, slots=True)
class Level:
    """A level: small and big blind, ante per dealt-in seat, smallest chip in play, and (contract v1.1,
    interfaces.md §1a) the game and betting structure; `controller.core.structures` reads the latter."""

    sb: int
    bb: int
    ante: int = 0
    chip: int = 1
    ante_mode: str = "each"  # who posts the ante: every seat, the big blind ("bb") or the button
    scale: int = 1  # log units per unit of the hand's money (exports divide by it)
    game: str = "holdem"  # "holdem" or "stud7"
    limit: str = "no"  # "no", "pot", "fixed", "spread", "split", "step_spread"
    bring_in: int = 0  # stud's forced opener (0: none)
    small_bet: int = 0  # fixed/split: the small bet; spread: the lower bound (0: not given)
    big_bet: int = 0  # fixed/split: the big bet; spread: the upper bound (0: not given)
    ante_chips: bool = False  # chips events before the deal include the antes (controller/core/antes.py)

    @classmethod
    def from_event(cls, ev: LevelEvent) -> Level:
        """The level exactly as the event gives it (a game or limit it leaves out: hold'em, no limit);
        `controller.core.levels.TableGame.level` fills those in from the table's config instead."""
        return cls(sb=ev.sb, bb=ev.bb, ante=ev.ante, chip=ev.chip, ante_mode=ev.ante_mode, scale=ev.scale,
                   game=ev.game or "holdem", limit=ev.limit or "no", bring_in=ev.bring_in,
                   small_bet=ev.small_bet, big_bet=ev.big_bet, ante_chips=ev.ante_chips)


@dataclass(kw_only=True, slots=True)
class Seat:
    number: int
    player: str
    stack: int
    present: bool = True


@dataclass(frozen=True, kw_only=True, slots=True)
class Positions:
    """Where button and blinds sit for one hand. `sb_seat` is None for a dead small blind."""

    button: int
    sb_pos: int  # the small-blind position (a seat number, possibly empty)
    sb_seat: int | None  # who posts the small blind: None when the position is empty (dead SB)
    bb_seat: int
    heads_up: bool


class Table:
    """The table between hands: who sits where with how many chips, the level, the button history."""

    def __init__(self, *, max_seats: int = 10) -> None:
        self.max_seats = max_seats
        self.seats: dict[int, Seat] = {}
        self.level: Level | None = None
        self.last: Positions | None = None  # positions of the last hand dealt (misdeals included)

    # --- seats --------------------------------------------------------------------------------
    def sit(self, seat: int, player: str | None, stack: int) -> None:
        if player is None:
            self.seats.pop(seat, None)
            return
        old = self.seats.get(seat)
        present = old.present if old is not None and old.player == player else True
        self.seats[seat] = Seat(number=seat, player=player, stack=stack, present=present)

    def occupied(self) -> list[int]:
        """Seats with a player holding chips, ascending (busted players leave, see engine)."""
        return sorted(s for s, info in self.seats.items() if info.stack > 0)

    def next_occupied(self, after: int, occupied: list[int]) -> int:
        """The first occupied seat clockwise strictly after `after` (wraps around)."""
        for s in occupied:
            if s > after:
                return s
        return occupied[0]

    def clockwise_from(self, start_after: int, seats: list[int]) -> list[int]:
        """`seats` in clockwise order starting with the first one after `start_after`."""
        after = [s for s in seats if s > start_after]
        return after + [s for s in seats if s <= start_after]

    # --- button and blinds --------------------------------------------------------------------
    def first_positions(self, button: int | None) -> Positions:
        """The first hand: the button on the given seat, else the first occupied seat (001 §5)."""
        occ = self.occupied()
        btn = button if button is not None else occ[0]
        if len(occ) == 2:
            # Heads-up: the button posts the small blind (it must be an occupied seat).
            sb = btn if btn in occ else self.next_occupied(btn, occ)
            return Positions(button=sb, sb_pos=sb, sb_seat=sb, bb_seat=self.next_occupied(sb, occ),
                             heads_up=True)
        sb = self.next_occupied(btn, occ)
        return Positions(button=btn, sb_pos=sb, sb_seat=sb, bb_seat=self.next_occupied(sb, occ),
                         heads_up=False)

    def next_positions(self) -> Positions:
        """Move the button by the dead-button rule (001 §7).

        The big blind moves from occupied seat to occupied seat; the small blind goes to the seat that
        had the big blind and the button to the seat that had the small blind, even when those seats
        are now empty (a dead small blind is not posted). Heads-up the other player is button and
        small blind; when the table falls to two, the big blind still moves on to the next player.
        """
        occ = self.occupied()
        last = self.last
        if last is None:
            return self.first_positions(None)
        bb = self.next_occupied(last.bb_seat, occ)
        if len(occ) == 2:
            other = occ[0] if occ[1] == bb else occ[1]
            return Positions(button=other, sb_pos=other, sb_seat=other, bb_seat=bb, heads_up=True)
        if last.heads_up:
            # Leaving heads-up (a player joined): fall back to the plain rotation.
            return self.first_positions(self.next_occupied(last.button, occ))
        sb_pos = last.bb_seat
        sb: int | None = sb_pos if sb_pos in occ else None
        return Positions(button=last.sb_pos, sb_pos=sb_pos, sb_seat=sb, bb_seat=bb, heads_up=False)

    def positions_for_button(self, button: int) -> Positions:
        """Positions when the dealer's button is taken as given (used only to describe it)."""
        return self.first_positions(button)
