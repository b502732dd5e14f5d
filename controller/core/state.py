"""The public table state (interfaces.md §3 `state`): never a live hand's hole cards."""

from __future__ import annotations

from typing import Any, Protocol

from controller.core.handbase import BETTING, DEAL, DUE, HandBase
from controller.core.profiles import Profile
from controller.core.table import Table


class Engine(Protocol):
    """What the public state reads of the engine (engine.py imports this module, not the other way)."""

    table: str
    hand: int
    seats: Table
    profile: Profile
    dealer: str | None

    @property
    def current(self) -> HandBase: ...

LIVE = (DEAL, BETTING, DUE)


def _status(seat: int, engine: Engine) -> str:
    hand = engine.current
    rec = hand.record
    if seat not in rec.dealt_in or hand.number == 0:
        return "out"
    if seat in rec.dead:
        return "dead"
    if seat in rec.folded:
        return "folded"
    if hand.stack_now(seat) == 0 and rec.committed.get(seat, 0) > 0:
        return "all_in"
    return "live"


def public_state(engine: Engine) -> dict[str, Any]:
    """A JSON-ready snapshot. Hole cards appear only as counts; shown cards only after betting."""
    hand = engine.current
    rec = hand.record
    live = hand.phase in LIVE
    rnd = hand.round
    seats: list[dict[str, Any]] = []
    for number in sorted(set(engine.seats.seats) | set(rec.dealt_in)):
        info = engine.seats.seats.get(number)
        in_hand = number in rec.dealt_in and hand.number > 0
        stack = hand.stack_now(number) if in_hand and live else (info.stack if info else 0)
        seats.append({
            "seat": number,
            "player": info.player if info else rec.players.get(number),
            "stack": stack,
            "present": info.present if info else False,
            "status": _status(number, engine),
            "bet": rnd.committed.get(number, 0) if rnd is not None else 0,
            "cards": len(hand.holes.get(number, ())) if in_hand else 0,
            "shown": list(rec.shown.get(number, ())) if not live else [],
            **(hand.public_seat(number) if in_hand else {}),
        })
    level = hand.level if hand.number else engine.seats.level
    pot = sum(rec.committed.values())
    return {
        "table": engine.table,
        "hand": engine.hand,
        "phase": hand.phase,
        "street": hand.alert_street(),
        "button": rec.button if hand.number else None,
        "sb_seat": rec.sb_seat,
        "bb_seat": rec.bb_seat,
        "blinds": {"sb": level.sb, "bb": level.bb, "ante": level.ante, "chip": level.chip} if level else None,
        "pots": [{"amount": pot}] if hand.number else [],
        "board": list(rec.board),
        "seats": seats,
        "to_act": rnd.to_act if rnd is not None and hand.phase == BETTING else None,
        "profile": engine.profile.name,
        **hand.public_game(),
        **({"dealer": engine.dealer} if engine.dealer else {}),
    }
