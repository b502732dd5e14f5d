"""The dealer-side signal: an LED and a buzzer on the console (gpiozero) that tell the dealer of a fault.

A misdeal blinks the LED fast and beeps three times; an error or dead hand lights it steadily with one
beep; a warning blinks it slowly without sound. The worst fault still open decides the pattern. It goes dark
when the dealer presses the console's acknowledge button or when the floor rules on the alert (`cmd/ack`).
An optional text display shows a short code (severity letter and the code's initials, e.g. `M-DWFS`): it
is built from the alert code alone, never from cards or message text, so it cannot show a hole card.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from controller.core.alerts import Alert

log = logging.getLogger("cardtable.signal")

_ORDER = ("misdeal", "error", "dead_hand", "warning")
_LETTER = {"misdeal": "M", "error": "E", "dead_hand": "D", "warning": "W"}


@dataclass(frozen=True, slots=True)
class Pattern:
    on: float  # LED on time (s); off == 0: steady
    off: float
    beeps: int  # buzzer beeps, 0.15 s each


PATTERNS = {"misdeal": Pattern(0.15, 0.15, 3), "error": Pattern(1.0, 0.0, 1),
            "dead_hand": Pattern(1.0, 0.0, 1), "warning": Pattern(1.0, 1.0, 0)}


def short_code(alert: Alert) -> str:
    """`M-DWFS` for a DEAL_WRONG_FIRST_SEAT misdeal: severity letter and up to four initials of the code."""
    initials = "".join(w[0] for w in alert.code.split("_") if w)[:4]
    return f"{_LETTER.get(alert.severity, '?')}-{initials}"


class DealerSignal:
    """Observer of the daemon's outcomes (`__call__`) and of the floor's rulings (`ruled`)."""

    def __init__(self, *, pin_factory: Any, led: int, buzzer: int | None = None, ack: int | None = None,
                 severities: Iterable[str] = _ORDER, sound: bool = True,
                 display: Callable[[str], None] | None = None) -> None:
        from gpiozero import LED, Button, Buzzer  # type: ignore[import-untyped]

        self.led = LED(led, pin_factory=pin_factory)
        self.buzzer = Buzzer(buzzer, pin_factory=pin_factory) if buzzer is not None and sound else None
        self.button = Button(ack, pin_factory=pin_factory) if ack is not None else None
        if self.button is not None:
            self.button.when_pressed = lambda: self.acknowledged()  # gpiozero's thread
        self.severities = frozenset(severities)
        self.display = display
        self.shown = ""  # what the display shows now ("" = dark)
        self.pattern: str | None = None  # severity whose pattern runs
        self.open: dict[str, Alert] = {}  # alert id -> alert still signalled
        self._lock = threading.Lock()

    def __call__(self, event: Any, outcomes: list[Any]) -> None:
        for out in outcomes:
            if isinstance(out, Alert) and out.severity in self.severities:
                with self._lock:
                    self.open[out.id] = out
                    self._show()
                    beeps = PATTERNS[out.severity].beeps  # the new fault's own sound
                    if self.buzzer is not None and beeps:
                        self.buzzer.beep(on_time=0.15, off_time=0.15, n=beeps, background=True)

    def ruled(self, alert_id: str) -> None:
        """The floor acknowledged an alert: it no longer lights the table."""
        with self._lock:
            if self.open.pop(alert_id, None) is not None:
                self._show()

    def acknowledged(self) -> None:
        """The dealer pressed acknowledge: everything signalled so far is seen."""
        with self._lock:
            self.open.clear()
            self._show()

    def _show(self) -> None:
        worst = min(self.open.values(), key=lambda a: _ORDER.index(a.severity), default=None)
        if worst is None:
            self.led.off()
            if self.buzzer is not None:
                self.buzzer.off()
            self.pattern, self.shown = None, ""
        else:
            p = PATTERNS[worst.severity]
            if p.off:
                self.led.blink(on_time=p.on, off_time=p.off, background=True)
            else:
                self.led.on()
            self.pattern, self.shown = worst.severity, short_code(worst)
        if self.display is not None:
            self.display(self.shown)

    def close(self) -> None:
        for dev in (self.led, self.buzzer, self.button):
            if dev is not None:
                dev.close()


def attach(daemon: Any) -> DealerSignal | None:
    """Build the table's signal from `[signal]` and hook it to the daemon's outcomes and floor rulings."""
    cfg = daemon.cfg.signal
    if cfg is None or not cfg.active:
        if cfg is not None:
            log.info("dealer signal off: tournament table (set signal.in_tournament = true to use it)")
        return None
    from controller.hardware.gpio import make_pin_factory

    sig = DealerSignal(pin_factory=make_pin_factory(daemon.cfg.gpio.pin_factory), led=cfg.led,
                       buzzer=cfg.buzzer, ack=cfg.ack, severities=cfg.severities, sound=cfg.sound)
    daemon.observers.append(sig)
    daemon.on_ack.append(sig.ruled)
    return sig
