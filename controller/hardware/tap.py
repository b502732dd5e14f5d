"""The dealer's tap sensor (a contact or piezo switch under the felt) on GPIO -> `knock` events."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from controller.core.events import Knock
from controller.hardware.base import Clock, Emit
from controller.hardware.gpio import Debouncer, EdgeInput, HardwareFault
from controller.hardware.threadbridge import ThreadBridge


class TapSensor:
    """A Source: one knock per press, debounced from edge timestamps; a stuck line is a fault.

    `pin_factory` is explicit (gpiozero's MockFactory in tests and the simulator, LGPIOFactory on a Pi 5).
    `active_low`: the line is pulled up and the sensor closes it to ground (the usual wiring).
    `min_gap`: two knocks closer than this are one knock; `bounce`: how long the line must be quiet
    before a new press counts; `stuck_after`: seconds active before the line is reported stuck.
    """

    name = "tap"

    def __init__(
        self,
        pin: int | str,
        *,
        pin_factory: Any,
        clock: Clock,
        active_low: bool = True,
        min_gap: float = 0.12,
        bounce: float = 0.02,
        stuck_after: float = 2.0,
        check_every: float = 0.05,
        on_fault: Callable[[HardwareFault], None] | None = None,
        bridge: ThreadBridge | None = None,
    ) -> None:
        self.input = EdgeInput(pin_factory, pin, active_low=active_low, clock=clock)
        self.logic = Debouncer(bounce=bounce, min_gap=min_gap, stuck_after=stuck_after)
        self.clock = clock
        self.on_fault = on_fault
        self.check_every = check_every  # how often the stuck-line check looks (real seconds)
        self.faults = 0
        self._emit: Emit = lambda event: None
        self.bridge = bridge  # share one with the other GPIO sources, or one is made in run()

    async def run(self, emit: Emit) -> None:
        self._emit = emit
        bridge = self.bridge = self.bridge or ThreadBridge(asyncio.get_running_loop())
        self.logic.active = self.input.open(bridge, self._on_edge)
        self.logic.active_since = self.clock()
        try:
            while True:
                await asyncio.sleep(self.check_every)
                self._check_stuck()
        finally:
            self.input.close()

    def statistics(self) -> dict[str, Any]:
        return {**self.logic.counters(), "faults": self.faults}

    def _on_edge(self, active: bool, t: float) -> None:  # loop thread, via the bridge
        if self.logic.edge(active, t):
            self._emit(Knock(t=t, source=self.name))

    def _check_stuck(self) -> None:
        change = self.logic.check_stuck(self.clock())
        if change is None:
            return
        if change:
            self.faults += 1
        if self.on_fault is not None:
            self.on_fault(HardwareFault(source=self.name, line=str(self.input.pin_id), active=change,
                                        t=self.clock()))
