"""The live terminal view of `cardtable simulate`: table, board, pot, seat to act, alerts; a progress bar.

Only drawn when stdout is a terminal. It uses controller/sim/view.render when the sim package ships it and
falls back to a compact rendering of the engine's public state otherwise.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from controller.core.alerts import FAULT_SEVERITIES, Alert
from controller.core.events import Event
from controller.sim.table import SimHand

Render = Callable[[dict[str, Any], list[Alert]], str]


def _sim_render() -> Render | None:
    try:
        from controller.sim.view import render  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return render  # type: ignore[no-any-return,unused-ignore]


def fallback_render(state: Mapping[str, Any], alerts: list[Alert]) -> str:
    """Plain text from whatever the engine's public state offers (keys per interfaces.md §3)."""
    lines = [f"hand {state.get('hand', '?')}  street {state.get('street', '-')}  "
             f"button {state.get('button', '-')}  blinds {state.get('blinds', state.get('level', '-'))}",
             f"board {' '.join(state.get('board') or []) or '-'}   "
             f"pot {state.get('pot', state.get('pots', '-'))}"
             f"   to act {state.get('to_act', '-')}"]
    seats = state.get("seats") or {}
    items = seats.items() if isinstance(seats, Mapping) else enumerate(seats, start=1)
    for key, seat in items:
        if isinstance(seat, Mapping):
            flags = " ".join(k for k in ("folded", "all_in", "allin") if seat.get(k))
            lines.append(f"  seat {seat.get('seat', key)!s:>2} {seat.get('player') or '-':<10} "
                         f"{seat.get('stack', '')!s:>8} {flags}")
    lines.append("alerts:")
    lines += [f"  {a.line()}" for a in alerts[-8:]]
    return "\n".join(lines)


class View:
    """Receives every processed event; draws at most 10 times a second; prints alerts in JSON mode."""

    def __init__(self, *, out: TextIO, json_mode: bool, total: int, speed: float | None, tty: bool) -> None:
        self.out = out
        self.json_mode = json_mode
        self.total = total
        self.live = tty and not json_mode and speed is not None  # a full view in real-time mode
        self.bar = tty and not json_mode and speed is None  # a progress bar in fast mode
        self.render: Render = _sim_render() or fallback_render
        self.recent: deque[Alert] = deque(maxlen=8)
        self.hands = 0
        self.faults = 0
        self.state: dict[str, Any] = {}
        self._drawn = 0.0

    def update(self, _event: Event | None, state: dict[str, Any], alerts: list[Alert]) -> None:
        self.state = state
        for a in alerts:
            self.recent.append(a)
            self.faults += a.severity in FAULT_SEVERITIES
            if self.json_mode:
                self.out.write(a.dumps() + "\n")
        now = time.monotonic()
        if self.live and (alerts or now - self._drawn > 0.1):
            self._drawn = now
            self.out.write("\x1b[H\x1b[2J" + self.render(state, list(self.recent)) + "\n")
            self.out.flush()

    def hand_done(self, _hand: SimHand) -> None:
        self.hands += 1
        if self.bar:
            width = 40
            filled = width * self.hands // max(self.total, 1)
            self.out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.hands}/{self.total} hands"
                           f"  fault alerts {self.faults}")
            self.out.flush()

    def close(self) -> None:
        if self.bar:
            self.out.write("\n")
        self.out.flush()


def state_json(state: Mapping[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)
