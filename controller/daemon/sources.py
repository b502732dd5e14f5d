"""Builds the event sources a config asks for (reader hubs, tap sensor, console, camera) from their adapters.

Adapters are imported only when configured, so a table without a camera needs no OpenCV. Device faults
the adapters report (a reader that stops answering, a stuck GPIO line, a camera that cannot be opened)
become HEALTH alerts through `health`.
"""

from __future__ import annotations

import importlib
from typing import Any

from controller.config import Config
from controller.daemon.health import Health
from controller.errors import UsageError
from controller.hardware.base import Clock, Source


def _module(name: str, section: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise UsageError(f"[{section}] is configured but {name} cannot be loaded ({exc})") from None


def check_sources(cfg: Config) -> None:
    """The adapter modules the config names can be loaded (`run --check`; no device is opened)."""
    if cfg.hubs:
        _module("controller.hardware.rfid", "hubs")
    if cfg.tap is not None or cfg.console is not None:
        _module("controller.hardware.gpio", "gpio")
    if cfg.tap is not None:
        _module("controller.hardware.tap", "tap")
    if cfg.console is not None:
        _module("controller.hardware.console", "console")
    if cfg.camera is not None:
        _module("controller.vision.config", "camera")
        _module("controller.hardware.camera", "camera")


def hardware_sources(cfg: Config, clock: Clock, health: Health) -> list[Source]:
    """One Source per configured device, in the order hubs, tap, console, camera."""
    sources: list[Source] = []
    for hub in cfg.hubs:
        rfid = _module("controller.hardware.rfid", "hubs")

        def reader_fault(status: Any, hub_name: str = hub.name) -> None:
            health.set(f"reader:{hub_name}:{status.reader}", not status.ok,
                       f"reader hub {hub_name}: reader {status.reader} stopped answering")

        zones = {str(k): v for k, v in hub.readers.items()}
        sources.append(rfid.RfidAdapter(hub.device, zones, clock, debounce=hub.debounce_s,
                                        on_fault=reader_fault))

    pin_fault = health.pin_fault

    if cfg.tap is not None or cfg.console is not None:
        factory = _module("controller.hardware.gpio", "gpio").make_pin_factory(cfg.gpio.pin_factory)
        if cfg.tap is not None:
            t = cfg.tap
            sources.append(_module("controller.hardware.tap", "tap").TapSensor(
                t.pin, pin_factory=factory, clock=clock, active_low=not t.active_high, min_gap=t.min_gap_s,
                bounce=t.bounce_s, stuck_after=t.stuck_after_s, on_fault=pin_fault))
        if cfg.console is not None:
            c = cfg.console
            pins = {"new_hand": c.new_hand, "misdeal": c.misdeal, "floor": c.floor,
                    "deck_check": c.deck_check, "deck_check_done": c.deck_check_done, "clock": c.clock}
            sources.append(_module("controller.hardware.console", "console").ConsoleButtons(
                pins, pin_factory=factory, clock=clock, active_low=not c.active_high, bounce=c.bounce_s,
                min_gap=c.min_gap_s, stuck_after=c.stuck_after_s, on_fault=pin_fault))
    if cfg.camera is not None:
        # Optional seam: the camera subsystem's Source (controller/hardware/camera.py).
        vision_cfg = _module("controller.vision.config", "camera").CameraConfig.from_mapping(cfg.camera)
        if vision_cfg.enabled:
            def camera_health(h: Any) -> None:
                if h.ok:
                    health.resolved("camera")
                else:
                    health.problem("camera", f"camera: {h.message}")

            camera = _module("controller.hardware.camera", "camera").CameraSource
            sources.append(camera.from_config(vision_cfg, clock=clock, on_health=camera_health))
    return sources
