"""A virtual overhead camera for the simulator: lays out the table's cards by zone and renders frames."""

from __future__ import annotations

import asyncio
import time
import zlib
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from controller.core.events import CardGone, CardSeen, DeckEvent, Event, Exposed, HandStart
from controller.hardware.base import Clock
from controller.hardware.camera import CameraSource, OnHealth
from controller.vision.capture import CallableReader
from controller.vision.detect import SceneMemory, VisionModel, detect
from controller.vision.evaluate import NEUTRAL, calibrate_look
from controller.vision.events import Debouncer, views
from controller.vision.render import (
    BOARD_CENTRE,
    BOARD_PITCH,
    BURN_SPOT,
    MUCK_SPOT,
    CardPlace,
    TableLook,
    felt_texture,
    random_light,
    render,
    seat_positions,
)

# What the simulator knows: zone → cards in it, each (code, face_up), in the order they arrived.
TableCards = Mapping[str, Sequence[tuple[str, bool]]]


def _jitter(code: str, j: int, lo: float, hi: float) -> float:
    """A card's own small offset or angle: the same every frame (a card lying still does not wiggle)."""
    u = zlib.crc32(f"{code}/{j}".encode()) / 0xFFFFFFFF
    return lo + (hi - lo) * u


def layout(cards: TableCards, seats: int, rng: np.random.Generator | None = None) -> list[CardPlace]:
    """Place the cards of each zone as a dealer would: hole pairs fanned, board in a row, piles. Offsets
    and angles come from the card's code (a still table gives the same picture frame after frame)."""
    del rng  # kept for callers that pass one; the layout no longer draws from it
    seat_at = seat_positions(seats)
    out: list[CardPlace] = []
    for zone, items in cards.items():
        for j, (code, up) in enumerate(items):
            if zone in seat_at:
                x, y, ang = seat_at[zone]
                off = (j - 0.5) * 24
                a = np.deg2rad(ang)
                out.append(CardPlace(code=code, face_up=up, zone=zone, cx=x + off * np.cos(a),
                                     cy=y + off * np.sin(a), angle=ang + (j - 0.5) * 6))
            elif zone == "board":
                out.append(CardPlace(code=code, face_up=up, zone=zone,
                                     cx=BOARD_CENTRE[0] + (j - 2) * BOARD_PITCH,
                                     cy=BOARD_CENTRE[1], angle=_jitter(code, 0, -2, 2)))
            elif zone in ("burn", "muck"):
                x, y = BURN_SPOT if zone == "burn" else MUCK_SPOT
                step = 15 if zone == "burn" else 7.5
                out.append(CardPlace(code=code, face_up=up, zone=zone, cx=x + j * step,
                                     cy=y + _jitter(code, 1, -4, 4), angle=_jitter(code, 2, -15, 15)))
    return out


class VirtualCamera:
    """Renders what an overhead camera would see of `state()`; calibrated like a real table."""

    LIGHT_FRAMES = 50  # the room's light is drawn anew after this many rendered pictures (a slow drift)

    def __init__(self, state: Callable[[], TableCards], *, look: TableLook | None = None,
                 size: tuple[int, int] = (1296, 972), seed: int = 0, vary: bool = False) -> None:
        """`vary`: every frame gets its own light and noise, even of a still table (a harder video)."""
        self.look = look or TableLook()
        self.vary = vary  # public: a test or tool may switch it
        self.size = size
        self._state = state
        self._rng = np.random.default_rng(seed)
        self.model: VisionModel = calibrate_look(self.look, size, render(self.look, [], NEUTRAL, size).zones)
        self._felt = felt_texture(self.look, size, seed)  # the cloth is drawn once: it does not change
        self._light = random_light(self._rng)
        self._pictures = 0
        self._last: tuple[tuple[CardPlace, ...], np.ndarray] | None = None

    def frame(self) -> np.ndarray:
        """What the camera sees now. A table that has not changed since the last frame gives the same
        picture (rendering is the simulator's costliest step, and a still table is what a camera sees)."""
        places = tuple(layout(self._state(), self.look.seats))
        if self._last is not None and self._last[0] == places and not self.vary:
            return self._last[1]
        self._pictures += 1
        if self.vary or self._pictures % self.LIGHT_FRAMES == 0:
            self._light = random_light(self._rng)
        image = render(self.look, places, self._light, self.size, seed=int(self._rng.integers(1 << 30)),
                       felt=self._felt).image
        self._last = (places, image)
        return image

    def source(self, *, fps: float = 5.0, clock: Clock = time.monotonic,
               on_health: OnHealth | None = None) -> CameraSource:
        """A CameraSource fed by rendered frames: `cardtable simulate --camera` runs the whole pipeline."""
        return CameraSource(opener=lambda: CallableReader(self.frame, "virtual"), model=self.model, fps=fps,
                            clock=clock, on_health=on_health, name="camera")


class CameraRoute:
    """The simulator's camera as a lock-step route (controller.sim.driver.Route, by duck typing).

    It watches every simulated event to keep its picture of the table (cards by zone; the board face up,
    everything else face down), takes over the simulated `exposed` events (the camera must *see* the card
    turned up: the dealer's mistake is rendered, not announced), and after each change of the picture runs
    `debounce` rendered frames through the real detector and debouncer and emits what they report. The
    returned counts keep the driver's lock-step exact, with no free-running camera task.
    """

    name = "camera"

    def __init__(self, camera: VirtualCamera | None = None, *, size: tuple[int, int] = (1296, 972),
                 seed: int = 0, debounce: int = 2, seats: int = 6) -> None:
        self._cards: dict[str, list[tuple[str, bool]]] = {}
        self._uids: dict[str, str] = {}
        # The rendered table has as many seat zones as the simulated one: a seat the picture lacks is never
        # seen, so its cards shown at showdown would never be reported exposed (false MUCKED_WINNER).
        self.camera = camera or VirtualCamera(lambda: self._cards, look=TableLook(seats=seats), size=size,
                                              seed=seed)
        self._debouncer = Debouncer(frames=debounce, source="camera")
        self._memory = SceneMemory()  # clusters of cards that did not change are not found again
        self._frames = debounce
        self._emit: Callable[[Event], None] | None = None
        self.frames = 0

    def bind(self, emit: Callable[[Event], None]) -> None:
        self._emit = emit

    def accepts(self, event: Event) -> bool:
        return isinstance(event, Exposed)

    async def send(self, event: Event) -> int:
        assert isinstance(event, Exposed)
        code = event.card or self._uids.get(event.uid or "")
        cards = self._cards.get(event.zone, [])
        for i, (c, _up) in enumerate(cards):
            if c == code or (code is None and i == len(cards) - 1):
                cards[i] = (c, True)
        return await self._look(event.t)

    async def after(self, event: Event) -> int:
        if not self._track(event):
            return 0
        return await self._look(event.t)

    def _track(self, event: Event) -> bool:
        """Update the picture; True when something the camera can see changed."""
        if isinstance(event, DeckEvent):
            self._uids = dict(event.cards)
            return False
        if isinstance(event, HandStart):
            changed = any(self._cards.values())
            self._cards = {}
            return changed
        if isinstance(event, (CardSeen, CardGone)) and event.zone != "deck":
            code = event.card or self._uids.get(event.uid or "")
            if code is None:
                return False
            cards = self._cards.setdefault(event.zone, [])
            # Only face-up cards change what the camera reports: look when the board or a zone holding a
            # face-up card changes (a face-down card arriving at a seat would only cost render time).
            visible = event.zone == "board" or any(up for _c, up in cards)
            if isinstance(event, CardSeen):
                cards.append((code, event.zone == "board"))
            else:
                cards[:] = [c for c in cards if c[0] != code]
            return visible
        return False

    async def _look(self, t: float) -> int:
        sent = 0
        for _ in range(self._frames):
            frame = await asyncio.to_thread(self.camera.frame)
            det = await asyncio.to_thread(detect, frame, self.camera.model, self._memory)
            self.frames += 1
            for ev in self._debouncer.feed(t, views(det, self.camera.model.zones)):
                if self._emit is not None:
                    self._emit(ev)
                    sent += 1
        return sent
