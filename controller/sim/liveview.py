"""What `cardtable simulate` shows while it plays: a live table (rich) on a terminal, plain lines otherwise.

Modes: `live` redraws seats, stacks, bets, board, pot, seat to act and the latest alerts at most 10 times a
second; `lines` (stdout is a pipe or a file) prints one line per alert and one per finished hand; `json`
prints each alert as JSON; `quiet` prints nothing until the summary. Hole cards of a live hand never show.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping
from typing import Any, Literal, TextIO

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from controller.core.alerts import FAULT_SEVERITIES, Alert
from controller.core.events import Event
from controller.sim.table import SimHand
from controller.sim.view import STATUS_MARK, board_line, chips, header_line

Mode = Literal["live", "lines", "json", "quiet"]

SEVERITY_STYLE = {"misdeal": "bold red", "error": "red", "dead_hand": "magenta", "warning": "yellow",
                  "info": "cyan"}
STATUS_STYLE = {"folded": "dim", "all_in": "bold", "dead": "dim red", "out": "dim"}


def choose_mode(*, json_mode: bool, quiet: bool, tty: bool) -> Mode:
    if json_mode:
        return "json"
    if quiet:
        return "quiet"
    return "live" if tty else "lines"


def _seats_table(state: Mapping[str, Any]) -> Table:
    to_act = state.get("to_act")
    table = Table(box=None, pad_edge=False, header_style="bold")
    for name, justify in (("", "left"), ("seat", "right"), ("player", "left"), ("stack", "right"),
                          ("bet", "right"), ("", "left"), ("cards", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for seat in state.get("seats") or []:
        number = seat.get("seat")
        status = str(seat.get("status", "live"))
        shown = seat.get("shown") or []
        cards = " ".join(shown) if shown else "🂠 " * int(seat.get("cards", 0) or 0)
        table.add_row("▶" if number == to_act else "", str(number), str(seat.get("player") or "(empty)"),
                      chips(seat.get("stack")), chips(seat.get("bet", 0)) if seat.get("bet") else "",
                      STATUS_MARK.get(status, "?").strip(), cards.strip(), style=STATUS_STYLE.get(status))
    return table


def _alerts_table(alerts: list[Alert]) -> Table:
    table = Table(box=None, pad_edge=False, show_header=False)
    for _ in range(4):
        table.add_column()
    table.add_column(overflow="fold")
    for a in alerts:
        table.add_row(f"h{a.hand}", Text(a.severity, style=SEVERITY_STYLE.get(a.severity, "")), a.code,
                      f"seat {a.seat}" if a.seat is not None else "", a.message)
    return table


def table_renderable(state: Mapping[str, Any], alerts: list[Alert], progress: str) -> Group:
    to_act = state.get("to_act")
    return Group(Text(header_line(state), style="bold"),
                 Text(f"{board_line(state)}   to act: {to_act if to_act is not None else '-'}"),
                 _seats_table(state),
                 Text("alerts" if alerts else "alerts: none yet", style="bold"),
                 _alerts_table(alerts), Text(progress, style="dim"))


class View:
    """Receives every processed event and every finished hand; draws according to its mode."""

    def __init__(self, *, out: TextIO, mode: Mode, total: int) -> None:
        self.out = out
        self.mode = mode
        self.total = total
        self.recent: deque[Alert] = deque(maxlen=8)
        self.hands = 0
        self.faults = 0
        self.state: dict[str, Any] = {}
        self._drawn = 0.0
        self._dealt: dict[str, Any] = {}
        self._live: Live | None = None
        if mode == "live":
            console = Console(file=out, force_terminal=True)
            self._live = Live(self._renderable(), console=console, auto_refresh=False, transient=False)
            self._live.start()

    def _renderable(self) -> Group:
        progress = f"hand {self.hands}/{self.total} played · fault alerts {self.faults}"
        return table_renderable(self.state, list(self.recent), progress)

    def update(self, _event: Event | None, state: dict[str, Any], alerts: list[Alert]) -> None:
        self.state = state
        if state.get("board"):
            self._dealt = state  # the per-hand line shows the board before the dealer gathers it
        for a in alerts:
            self.recent.append(a)
            self.faults += a.severity in FAULT_SEVERITIES
            if self.mode == "json":
                self.out.write(a.dumps() + "\n")
            elif self.mode == "lines":
                self.out.write(a.line() + "\n")
        now = time.monotonic()
        if self._live is not None and (alerts or now - self._drawn > 0.1):
            self._drawn = now
            self._live.update(self._renderable(), refresh=True)

    def hand_done(self, hand: SimHand) -> None:
        self.hands += 1
        if self.mode == "lines":
            shown = self._dealt or self.state
            self.out.write(f"{header_line(shown)}  {board_line(shown)}  ({self.hands}/{self.total} hands)\n")
            self._dealt = {}
        elif self._live is not None:
            self._live.update(self._renderable(), refresh=True)

    def close(self) -> None:
        if self._live is not None:
            self._live.update(self._renderable(), refresh=True)
            self._live.stop()
        self.out.flush()
