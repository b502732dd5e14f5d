"""Texas hold'em: two down cards per seat from the first seat left of the button, a board of 3 + 1 + 1,
blinds, and the dead-button rule between hands (001 §7). The hand itself is controller/core/hand.py."""

from __future__ import annotations

from controller.core.alerts import Finding
from controller.core.events import HandStart
from controller.core.games.base import GamePlan, Start, TableState
from controller.core.table import Level, Positions

PLAN = GamePlan(name="holdem", streets=("preflop", "flop", "turn", "river"), hole_cards=2,
                deal_up=(False, False), board_cards={"flop": 3, "turn": 1, "river": 1},
                street_cards={}, street_up={}, button=True)


def begin(state: TableState, ev: HandStart, level: Level) -> Start:
    """Where the button and the blinds go for the next hand (dead-button rule, misdeal redeal)."""
    seats = state.seats
    occ = seats.occupied()
    findings: list[Finding] = []
    first = seats.last is None
    insisted = state.redeal and ev.button is not None and ev.button == state.disputed
    if insisted:
        # The redeal comes from the same button we disputed: the floor kept the dealer's button
        # (001 §14 5. leaves the correction to the dealer); follow it so the table stays in step.
        pos = seats.first_positions(ev.button)
    elif state.redeal and seats.last is not None and seats.last.bb_seat in occ:
        pos = seats.last  # misdeal: same button, same blinds, same level (001 §14, 004 §4)
        level = state.current.level
    elif first:
        pos = seats.first_positions(ev.button)
    else:
        pos = seats.next_positions()
    state.redeal = False
    state.disputed = None
    if ev.button is not None and not first and ev.button != pos.button:
        state.disputed = ev.button
        sb = f"SB seat {pos.sb_seat}" if pos.sb_seat is not None else "dead SB"
        findings.append(Finding(code="BUTTON_WRONG", message=(
            f"Button placed at seat {ev.button}; the dead-button rule puts it at seat {pos.button} "
            f"({sb}, BB seat {pos.bb_seat})"), seat=ev.button))
    if ev.dead_sb and not pos.heads_up and pos.sb_seat is not None:
        # No small blind this hand: the first player after the button posts the big blind; the next
        # hand's button stays where it is (the dead-button rule, 001 §7, sees an empty SB position).
        pos = Positions(button=pos.button, sb_pos=pos.button, sb_seat=None, bb_seat=pos.sb_seat,
                        heads_up=False)
    seats.last = pos
    return Start(positions=pos, dealt_in=seats.clockwise_from(pos.button, occ), level=level,
                 findings=findings)
