"""The dealer console's buttons on GPIO -> `hand_start` and `console` events."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Mapping
from typing import Any

from controller.core.events import CONSOLE_BUTTONS, ConsoleEvent, Event, HandStart
from controller.errors import UsageError
from controller.hardware.base import Clock, Emit
from controller.hardware.gpio import Debouncer, EdgeInput, HardwareFault
from controller.hardware.threadbridge import ThreadBridge

BUTTONS = ("new_hand", *CONSOLE_BUTTONS)  # new_hand -> hand_start; the rest -> console events


class ConsoleButtons:
    """A Source: `pins` maps button names (new_hand, misdeal, floor, deck_check, deck_check_done, clock)
    to GPIO pins; every button is debounced on its own and reported stuck when held too long."""

    name = "console"

    def __init__(
        self,
        pins: Mapping[str, int | str],
        *,
        pin_factory: Any,
        clock: Clock,
        active_low: bool = True,
        bounce: float = 0.02,
        min_gap: float = 0.5,
        stuck_after: float = 5.0,
        check_every: float = 0.05,
        on_fault: Callable[[HardwareFault], None] | None = None,
        bridge: ThreadBridge | None = None,
    ) -> None:
        unknown = sorted(set(pins) - set(BUTTONS))
        if unknown:
            raise UsageError(f"console.pins: unknown button {unknown[0]!r} (one of {', '.join(BUTTONS)})")
        if len(set(pins.values())) != len(pins):
            raise UsageError("console.pins: two buttons share one GPIO pin")
        self.inputs = {
            b: EdgeInput(pin_factory, p, active_low=active_low, clock=clock) for b, p in pins.items()
        }
        self.logic = {b: Debouncer(bounce=bounce, min_gap=min_gap, stuck_after=stuck_after) for b in pins}
        self.clock = clock
        self.on_fault = on_fault
        self.check_every = check_every  # how often the stuck-button check looks (real seconds)
        self.faults = 0
        self._emit: Emit = lambda event: None
        self.bridge = bridge  # share one with the other GPIO sources, or one is made in run()

    async def run(self, emit: Emit) -> None:
        self._emit = emit
        bridge = self.bridge = self.bridge or ThreadBridge(asyncio.get_running_loop())
        try:
            for button, inp in self.inputs.items():
                logic = self.logic[button]
                logic.active = inp.open(bridge, functools.partial(self._on_edge, button))
                logic.active_since = self.clock()
            while True:
                await asyncio.sleep(self.check_every)
                for button in self.logic:
                    self._check_stuck(button)
        finally:
            for inp in self.inputs.values():
                inp.close()

    def statistics(self) -> dict[str, Any]:
        return {"faults": self.faults, "buttons": {b: d.counters() for b, d in self.logic.items()}}

    def _on_edge(self, button: str, active: bool, t: float) -> None:  # loop thread, via the bridge
        if self.logic[button].edge(active, t):
            self._emit(self._event(button, t))

    def _event(self, button: str, t: float) -> Event:
        if button == "new_hand":
            return HandStart(t=t, source=self.name)
        return ConsoleEvent(t=t, button=button, source=self.name)  # type: ignore[arg-type]

    def _check_stuck(self, button: str) -> None:
        change = self.logic[button].check_stuck(self.clock())
        if change is None:
            return
        if change:
            self.faults += 1
        if self.on_fault is not None:
            self.on_fault(HardwareFault(source=self.name, line=button, active=change, t=self.clock()))
