"""Health: aggregates every component's statistics() and raises HEALTH alerts when a condition begins.

A condition (broker refusing credentials, serial device missing, camera missing, …) has a key; its alert
is raised once when it starts and an `info` line is logged when it clears, so a flapping cable does not
flood the floor screen. Health alerts are not events: they are not journaled and not part of a replay;
their ids (`<table>-health-<ms>-<n>`) cannot collide with the core's (`<table>-h<hand>-<n>`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from controller.core.alerts import Alert
from controller.core.catalogue import entry
from controller.daemon import sdnotify

log = logging.getLogger("cardtable.health")


class HasStatistics(Protocol):
    def statistics(self) -> Mapping[str, Any]: ...


class Health:
    """The `health` task: periodic device checks, statistics snapshot, systemd watchdog pings."""

    def __init__(self, *, table: str, raise_alert: Callable[[Alert], None], clock: Callable[[], float],
                 hand: Callable[[], int], interval_s: float = 10.0) -> None:
        self.table = table
        self.raise_alert = raise_alert
        self.clock = clock
        self.hand = hand
        self.interval_s = interval_s
        self.components: dict[str, HasStatistics] = {}
        self.devices: dict[str, Path] = {}  # what → device path that must exist (serial ports, camera)
        self.active: dict[str, str] = {}  # condition key → message
        self.raised = 0
        self._n = 0
        self.snapshot: dict[str, Any] = {}
        self.on_snapshot: Callable[[dict[str, Any]], None] | None = None

    def watch_device(self, what: str, path: Path) -> None:
        self.devices[what] = path

    def problem(self, key: str, message: str) -> None:
        """A condition is present; raise its HEALTH alert if it just started."""
        if key in self.active:
            return
        self.active[key] = message
        self._n += 1
        self.raised += 1
        cat = entry("HEALTH")
        alert = Alert(id=f"{self.table}-health-{int(time.time() * 1000)}-{self._n}", t=self.clock(),
                      table=self.table, hand=self.hand(), code="HEALTH", severity=cat.severity,
                      street="between", seat=None, cards=(), message=message, remedy=cat.remedy,
                      rule=cat.rule)
        log.error("HEALTH: %s", message)
        self.raise_alert(alert)

    def resolved(self, key: str) -> None:
        if self.active.pop(key, None) is not None:
            log.info("health: %s resolved", key)

    def set(self, key: str, bad: bool, message: str) -> None:
        """problem() while `bad`, resolved() once it is not."""
        if bad:
            self.problem(key, message)
        else:
            self.resolved(key)

    def pin_fault(self, fault: Any) -> None:
        """A GPIO line's stuck-line fault (controller.hardware HardwareFault) as a HEALTH condition."""
        self.set(f"gpio:{fault.source}:{fault.line}", fault.active,
                 f"{fault.source}: GPIO line {fault.line} stuck active")

    def check_devices(self) -> None:
        for what, path in self.devices.items():
            key = f"device:{what}"
            if os.path.exists(path):
                self.resolved(key)
            else:
                self.problem(key, f"{what}: device {path} is missing (unplugged or not configured)")

    def collect(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, comp in self.components.items():
            try:
                out[name] = dict(comp.statistics())
            except Exception as exc:  # a broken statistics() must not take the daemon down
                out[name] = {"error": repr(exc)}
        out["problems"] = sorted(self.active.values())
        self.snapshot = out
        if self.on_snapshot is not None:
            self.on_snapshot(out)
        return out

    async def run(self) -> None:
        watchdog = sdnotify.watchdog_interval()
        tick = min(self.interval_s, watchdog) if watchdog else self.interval_s
        last_check = 0.0
        while True:
            now = time.monotonic()
            if now - last_check >= self.interval_s:
                last_check = now
                self.check_devices()
                self.collect()
            if watchdog:
                # The ping comes from the loop itself: a blocked loop stops it and systemd restarts us.
                sdnotify.notify("WATCHDOG=1")
            await asyncio.sleep(tick)

    def statistics(self) -> dict[str, Any]:
        return {"alerts_raised": self.raised, "active_problems": len(self.active)}
