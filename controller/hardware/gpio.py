"""GPIO plumbing shared by the tap sensor and the console: pin factories, raw edges, debounce logic.

We take raw edges with their timestamps from gpiozero (bounce_time behaves differently per backend:
lgpio filters in the kernel, RPi.GPIO drops edges, the mock ignores it) and debounce in our own code,
so every backend and the tests behave the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.errors import UsageError
from controller.hardware.base import Clock
from controller.hardware.threadbridge import ThreadBridge

FACTORIES = ("mock", "lgpio", "rpigpio", "pigpio", "native")


def make_pin_factory(name: str) -> Any:
    """A gpiozero pin factory by name; 'mock' is gpiozero's MockFactory (tests, simulator)."""
    try:
        if name == "mock":
            from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

            return MockFactory()
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory  # type: ignore[import-untyped]

            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory  # type: ignore[import-untyped]

            return RPiGPIOFactory()
        if name == "pigpio":
            from gpiozero.pins.pigpio import PiGPIOFactory  # type: ignore[import-untyped]

            return PiGPIOFactory()
        if name == "native":
            from gpiozero.pins.native import NativeFactory  # type: ignore[import-untyped]

            return NativeFactory()
    except ImportError as exc:
        raise UsageError(f"gpio pin factory {name!r} is not available here: {exc}") from None
    raise UsageError(f"unknown gpio pin factory {name!r} (one of {', '.join(FACTORIES)})")


@dataclass(frozen=True, kw_only=True, slots=True)
class HardwareFault:
    """A GPIO line stuck active (active=True) or released again (active=False)."""

    source: str
    line: str
    active: bool
    t: float


class Debouncer:
    """Turns raw edges (level, time) into presses; pure logic, clock-free.

    A press is an active edge after the line was inactive and quiet for `bounce` seconds (so contact
    bounce on press and on release never counts), at least `min_gap` after the previous press. A line
    active for `stuck_after` seconds is stuck: no presses until it has been released.
    """

    def __init__(self, *, bounce: float, min_gap: float, stuck_after: float) -> None:
        if not 0 <= bounce <= min_gap:
            raise UsageError(f"debounce {bounce} s must be between 0 and the minimum gap {min_gap} s")
        self.bounce = bounce
        self.min_gap = min_gap
        self.stuck_after = stuck_after
        self.active = False
        self.last_edge = float("-inf")
        self.active_since = 0.0
        self.last_press = float("-inf")
        self.stuck = False
        self.edges = 0
        self.presses = 0
        self.rejected_bounce = 0
        self.rejected_gap = 0

    def edge(self, active: bool, t: float) -> bool:
        """Feed one edge; True if it starts a press."""
        self.edges += 1
        was_active, quiet = self.active, t - self.last_edge
        self.active = active
        self.last_edge = t
        if not active:
            return False
        self.active_since = t
        if was_active or quiet < self.bounce:
            self.rejected_bounce += 1
            return False
        if self.stuck:
            return False
        if t - self.last_press < self.min_gap:
            self.rejected_gap += 1
            return False
        self.last_press = t
        self.presses += 1
        return True

    def check_stuck(self, now: float) -> bool | None:
        """True when the line just became stuck, False when a stuck line was released, else None."""
        if self.active and not self.stuck and now - self.active_since >= self.stuck_after:
            self.stuck = True
            return True
        if self.stuck and not self.active and now - self.last_edge >= self.bounce:
            self.stuck = False
            return False
        return None

    def counters(self) -> dict[str, int | bool]:
        return {"edges": self.edges, "presses": self.presses, "rejected_bounce": self.rejected_bounce,
                "rejected_gap": self.rejected_gap, "stuck": self.stuck}


class EdgeInput:
    """One GPIO input: raw edges from gpiozero's thread, posted through the bridge with their time."""

    def __init__(self, factory: Any, pin: int | str, *, active_low: bool, clock: Clock) -> None:
        self.factory = factory
        self.pin_id = pin
        self.active_low = active_low
        self.clock = clock
        self._pin: Any = None
        self._changed: Callable[[Any, Any], None] | None = None
        self._base_ticks: Any = None
        self._base_clock = 0.0

    def open(self, bridge: ThreadBridge, on_edge: Callable[[bool, float], None]) -> bool:
        """Start edge detection; returns whether the line is active right now."""
        self._base_ticks = self.factory.ticks()
        self._base_clock = self.clock()
        pin = self.factory.pin(self.pin_id)
        pin.function = "input"
        pin.pull = "up" if self.active_low else "down"
        pin.bounce = None  # debounce is ours
        pin.edges = "both"

        def changed(ticks: Any, state: Any) -> None:  # gpiozero's thread
            bridge.post(on_edge, self._is_active(state), self._to_clock(ticks))

        self._changed = changed  # gpiozero keeps only a weak reference to the callback
        pin.when_changed = changed
        self._pin = pin
        return self._is_active(pin.state)

    def close(self) -> None:
        if self._pin is not None:
            self._pin.when_changed = None
            self._pin.close()
            self._pin = None

    def _is_active(self, state: Any) -> bool:
        return bool(state) != self.active_low

    def _to_clock(self, ticks: Any) -> float:
        """gpiozero ticks (backend units) -> our session clock, via ticks_diff (seconds)."""
        return self._base_clock + float(self.factory.ticks_diff(ticks, self._base_ticks))
