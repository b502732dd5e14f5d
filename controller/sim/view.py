"""Plain-text terminal view of the public table state and recent alerts (no hole cards, ever)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.core.alerts import Alert

STATUS_MARK = {"live": " ", "folded": "f", "all_in": "A", "dead": "x", "out": "-"}


def chips(value: Any) -> str:
    return f"{int(value):,}" if isinstance(value, int | float) else "-"


def header_line(state: Mapping[str, Any]) -> str:
    blinds = state.get("blinds") or {}
    level = f"{chips(blinds.get('sb'))}/{chips(blinds.get('bb'))}" if blinds else "-"
    if blinds and blinds.get("ante"):
        level += f" ante {chips(blinds['ante'])}"
    pots = state.get("pots") or []
    pot_text = " + ".join(chips(p.get("amount")) for p in pots if isinstance(p, Mapping)) or "0"
    button = state.get("button")
    return (f"table {state.get('table', '?')}  hand {state.get('hand', 0)}  {state.get('street') or '-'}  "
            f"button {button if button is not None else '-'}  blinds {level}  pot {pot_text}")


def board_line(state: Mapping[str, Any]) -> str:
    board = list(state.get("board") or [])
    slots = [f"[{c}]" for c in board[:5]] + ["[  ]"] * (5 - min(len(board), 5))
    return "board " + " ".join(slots)


def _seat_lines(state: Mapping[str, Any]) -> list[str]:
    to_act = state.get("to_act")
    lines = [" seat player          stack      bet  st cards"]
    for seat in state.get("seats") or []:
        number = seat.get("seat")
        arrow = ">" if number == to_act else " "
        mark = STATUS_MARK.get(str(seat.get("status", "live")), "?")
        name = str(seat.get("player") or "(empty)")[:14]
        shown = seat.get("shown") or []
        cards = " ".join(shown) if shown else "##" * int(seat.get("cards", 0) or 0)
        lines.append(f"{arrow}{number:>3}  {name:<14} {chips(seat.get('stack')):>9} "
                     f"{chips(seat.get('bet', 0)):>8}  {mark}  {cards}")
    return lines


def _alert_lines(alerts: Sequence[Alert], limit: int) -> list[str]:
    if not alerts:
        return ["alerts: none"]
    lines = ["alerts:"]
    for a in list(alerts)[-limit:]:
        where = f"seat {a.seat}" if a.seat is not None else ""
        lines.append(f"  {a.t:9.1f}s h{a.hand:<4} {a.severity:<9} {a.code:<28} {where:<7} {a.message}")
    return lines


def render(state: Mapping[str, Any], alerts: Sequence[Alert], *, limit: int = 6, width: int = 110) -> str:
    """The table as text: header, board, seats (the seat to act marked `>`), the last `limit` alerts.

    Hole cards of a live hand never appear: only their count (`##` each), or the cards once shown.
    """
    lines = [header_line(state), board_line(state), *_seat_lines(state), *_alert_lines(alerts, limit)]
    return "\n".join(line[:width] for line in lines)
