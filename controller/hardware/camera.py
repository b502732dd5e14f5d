"""The overhead camera as an event Source: capture and detection in a worker thread, events on the loop.

Health: a camera that cannot be opened, stops delivering frames or reaches the end of a file is a fault
reported through `on_health` and `statistics()`, never an exception out of `run()`. Devices are reopened
with capped, jittered backoff (a camera plugged back in resumes by itself).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from controller.backoff import backoff_delays
from controller.hardware.base import Clock, Emit
from controller.vision.capture import CaptureError, FrameReader, open_reader
from controller.vision.config import CameraConfig
from controller.vision.detect import Detection, SceneMemory, VisionModel, detect, update_reference
from controller.vision.events import Debouncer, views


@dataclass(frozen=True, kw_only=True, slots=True)
class Health:
    """A change of the camera's health, as handed to `on_health` (on the event-loop thread)."""

    source: str
    ok: bool
    message: str


OnHealth = Callable[[Health], None]
Opener = Callable[[], FrameReader]


class CameraSource:
    """Runs as one named task in the daemon's task group (controller.hardware.base.Source)."""

    def __init__(self, *, opener: Opener, model: VisionModel, fps: float = 5.0, debounce: int = 2,
                 clock: Clock = time.monotonic, on_health: OnHealth | None = None, name: str = "camera",
                 backoff: tuple[float, float] = (1.0, 30.0)) -> None:
        self.name = name
        self._opener = opener
        self._model = model
        self._period = 1.0 / fps
        self._debouncer = Debouncer(frames=debounce, source=name)
        self._zones = list(model.zones)
        self._clock = clock
        self._on_health = on_health
        self._backoff = backoff
        self._ok: bool | None = None
        # Consecutive frames of one fixed camera: unchanged clusters of cards are not found again.
        self._memory = SceneMemory()
        self._stats: dict[str, Any] = {"state": "starting", "fault": None, "frames": 0, "events": 0,
                                       "detect_ms": 0.0, "reopens": 0, "last_frame_t": None,
                                       "reference_updates": 0}

    @classmethod
    def from_config(cls, cfg: CameraConfig, *, clock: Clock = time.monotonic,
                    on_health: OnHealth | None = None) -> CameraSource:
        return cls(opener=lambda: open_reader(cfg.source, cfg.width, cfg.height), model=cfg.model,
                   fps=cfg.fps, debounce=cfg.debounce, clock=clock, on_health=on_health)

    def statistics(self) -> dict[str, Any]:
        return dict(self._stats)

    @property
    def model(self) -> VisionModel:
        """The calibration in use; its empty-table reference follows the room's light (see `_grab`)."""
        return self._model

    async def run(self, emit: Emit) -> None:
        delays = backoff_delays(*self._backoff)
        while True:
            try:
                reader = await asyncio.to_thread(self._opener)
            except CaptureError as exc:
                self._health(False, str(exc))
                await asyncio.sleep(next(delays))
                self._stats["reopens"] += 1
                continue
            delays = backoff_delays(*self._backoff)
            ended = await self._stream(reader, emit)
            if ended:  # a file or folder that has ended will not come back: stay quiet until cancelled
                await asyncio.Event().wait()

    async def _stream(self, reader: FrameReader, emit: Emit) -> bool:
        """Process frames until the reader fails (False: reopen) or a finite source ends (True)."""
        try:
            while True:
                started = time.monotonic()
                try:
                    det = await asyncio.to_thread(self._grab, reader)
                except CaptureError as exc:
                    self._health(False, str(exc))
                    return False
                if det is None:
                    self._health(False, f"camera {reader.name}: stream ended")
                    return reader.finite
                self._health(True, f"camera {reader.name}: delivering frames")
                self._stats["frames"] += 1
                self._stats["last_frame_t"] = self._clock()
                for ev in self._debouncer.feed(self._clock(), views(det, self._zones)):
                    self._stats["events"] += 1
                    emit(ev)
                await asyncio.sleep(max(0.0, self._period - (time.monotonic() - started)))
        finally:
            await asyncio.to_thread(reader.close)

    def _grab(self, reader: FrameReader) -> Detection | None:
        """Worker thread: one frame and its detection (OpenCV releases the GIL while it works)."""
        frame = reader.read()
        if frame is None:
            return None
        frame = np.ascontiguousarray(frame)
        t0 = time.perf_counter()
        det = detect(frame, self._model, self._memory)
        ms = (time.perf_counter() - t0) * 1000
        self._stats["detect_ms"] = round(0.8 * self._stats["detect_ms"] + 0.2 * ms, 2)
        ref = self._model.reference
        if ref is not None and not det.cards:
            # The empty table is learned once at calibration; daylight and lamps drift after that. A frame
            # with no card in it is blended in slowly (REFERENCE_RATE), so a card that is briefly missed
            # (or a hand passing) cannot be learned as table.
            self._model = replace(self._model, reference=update_reference(ref, frame, []))
            self._stats["reference_updates"] += 1
        return det

    def _health(self, ok: bool, message: str) -> None:
        self._stats["state"] = "ok" if ok else "fault"
        self._stats["fault"] = None if ok else message
        if ok != self._ok:
            self._ok = ok
            if self._on_health is not None:
                self._on_health(Health(source=self.name, ok=ok, message=message))
