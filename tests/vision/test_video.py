"""The daemon's camera path end to end from a recorded video of a dealt hand (rendered, photo-like damage).

The hand is rendered frame by frame, written as an MJPG video (JPEG artefacts), and played through
`CameraSource` (the daemon's camera Source) with the table's calibration, on two tables:

- a green felt seen straight down, calibrated with the felt model, every frame under its own random light
  (gain, gradient, vignette, colour cast), noise and blur;
- a light tan cloth under a 16 % keystone with blue dotted backs, calibrated with an empty-table reference
  taken under the room's light; each frame drifts ±4 % in brightness with its own noise. The video starts
  on the empty table, so the daemon's slow reference update runs too.

The RFID side of the same hand says which cards lie in which zone; the camera's `board_count` and
`exposed` events must agree with it, and the one exposure in the video is the one the dealer made.
The last picture injects a disagreement (a card the readers place at seat 5 shown face up at seat 1): fed
into the rules core together with the hand's RFID events, the camera's events raise CAMERA_RFID_MISMATCH
there and nowhere else.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.core.alerts import Alert
from controller.core.engine import Engine
from controller.core.events import (
    ActionEvent,
    BoardCountEvent,
    CardSeen,
    ChipsEvent,
    Event,
    Exposed,
    HandStart,
    Knock,
    LevelEvent,
    SeatEvent,
)
from controller.core.profiles import get_profile
from controller.hardware.camera import CameraSource, Health
from controller.vision.capture import open_reader
from controller.vision.detect import VisionModel, learn_reference
from controller.vision.evaluate import NEUTRAL, calibrate_look
from controller.vision.render import BackDesign, Camera, Lighting, TableLook, felt_texture, render
from controller.vision.virtual import TableCards, VirtualCamera, layout

SIZE = (1296, 972)
HOLD = 3  # frames each picture of the table is held (the debouncer needs 2)
RFID = {"seat1": ["Kd", "4c"], "seat3": ["7c", "7d"], "seat5": ["Qh", "2s"],
        "board": ["2h", "9s", "Jc", "5d", "Ac"]}


INJECTED = ("seat1", "Qh")  # the last picture: Qh (at seat 5 for the readers) face up at seat 1


def _hand() -> list[TableCards]:
    """Pictures of the table as the hand is dealt, from the empty table; seat3 turns a hole card up after
    the flop; the last picture is the injected disagreement with the readers."""
    holes = {z: [(c, False) for c in RFID[z]] for z in ("seat1", "seat3", "seat5")}
    board = [(c, True) for c in RFID["board"]]
    exposed = {**holes, "seat3": [("7c", True), ("7d", False)]}
    injected = {**exposed, "seat1": [("Kd", False), (INJECTED[1], True)], "board": board}
    return [{}, holes, {**holes, "board": board[:3]}, {**exposed, "board": board[:3]},
            {**exposed, "board": board[:4]}, {**exposed, "board": board}, injected]


def _rfid_before(picture: int) -> list[Event]:
    """The readers' and the console's events of the hand up to each picture (t filled in later)."""
    steps: list[list[Event]] = [
        [],
        [*(SeatEvent(t=0, seat=s, player=f"P{s}", stack=10000) for s in (1, 3, 5)),
         LevelEvent(t=0, sb=50, bb=100), HandStart(t=0, button=1),
         ChipsEvent(t=0, seat=3, amount=50), ChipsEvent(t=0, seat=5, amount=100),
         *(CardSeen(t=0, zone=f"seat{s}", card=RFID[f"seat{s}"][r]) for r in range(2) for s in (3, 5, 1))],
        [ActionEvent(t=0, seat=1, action="call", amount=100),
         ActionEvent(t=0, seat=3, action="call", amount=100), ActionEvent(t=0, seat=5, action="check"),
         Knock(t=0), CardSeen(t=0, zone="burn", card="3s"),
         *(CardSeen(t=0, zone="board", card=c) for c in RFID["board"][:3])],
        [],
        [*(ActionEvent(t=0, seat=s, action="check") for s in (3, 5, 1)), Knock(t=0),
         CardSeen(t=0, zone="burn", card="4s"), CardSeen(t=0, zone="board", card=RFID["board"][3])],
        [*(ActionEvent(t=0, seat=s, action="check") for s in (3, 5, 1)), Knock(t=0),
         CardSeen(t=0, zone="burn", card="5s"), CardSeen(t=0, zone="board", card=RFID["board"][4])],
        [],
    ]
    return steps[picture]


Recorded = tuple[Path, VisionModel]
TILTED = TableLook(felt="tan", back=BackDesign(colour="blue", pattern="dots"),
                   camera=Camera(corners=((0.08, 0.04), (0.92, 0.04), (1.0, 0.98), (0.0, 0.98))))
ROOM = Lighting(gain=0.9, gradient=0.25, direction=40, vignette=0.15, noise=3.0, blur=0.7)


def _record(path: Path, frame: Callable[[], np.ndarray], state: dict[str, TableCards]) -> Path:
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, SIZE)
    assert out.isOpened()
    for picture in _hand():
        state["now"] = picture
        for _ in range(HOLD):
            out.write(frame())
    out.release()
    return path


def _felt_video(folder: Path) -> Recorded:
    state: dict[str, TableCards] = {"now": {}}
    cam = VirtualCamera(lambda: state["now"], look=TableLook(felt="green"), size=SIZE, seed=11, vary=True)
    return _record(folder / "felt.avi", cam.frame, state), cam.model


def _reference_video(folder: Path) -> Recorded:
    """The tilted light table, calibrated as an operator would with `--empty`: zones, back and glyphs,
    plus the empty table photographed under the room's light."""
    look, rng = TILTED, np.random.default_rng(5)
    cloth = felt_texture(look, SIZE, 5)
    empty = render(look, [], ROOM, SIZE, seed=1, felt=cloth)
    model = dataclasses.replace(calibrate_look(look, SIZE, render(look, [], NEUTRAL, SIZE).zones),
                                reference=learn_reference(empty.image))
    state: dict[str, TableCards] = {"now": {}}

    def frame() -> np.ndarray:
        light = dataclasses.replace(ROOM, gain=ROOM.gain * float(rng.uniform(0.96, 1.04)))
        return render(look, layout(state["now"], look.seats), light, SIZE, seed=int(rng.integers(1 << 30)),
                      felt=cloth).image

    return _record(folder / "reference.avi", frame, state), model


@pytest.fixture(scope="module", params=["felt", "reference"])
def video(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    folder = tmp_path_factory.mktemp("video")
    return _felt_video(folder) if request.param == "felt" else _reference_video(folder)


def test_recorded_hand_gives_the_rfid_board_counts_and_one_exposure(video: Recorded) -> None:
    path, model = video
    health: list[Health] = []
    ticks = iter(range(100_000))
    source = CameraSource(opener=lambda: open_reader(str(path)), model=model, fps=1000,
                          clock=lambda: float(next(ticks)), on_health=health.append, name="camera")
    events: list[Event] = []

    async def main() -> None:
        task = asyncio.create_task(source.run(events.append))
        for _ in range(600):  # until the file has ended (a health fault), at most a minute
            await asyncio.sleep(0.1)
            if any(not h.ok for h in health):
                break
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    stats = source.statistics()
    assert stats["frames"] == HOLD * len(_hand())
    if model.reference is not None:
        # The empty table at the start is blended into the reference; no frame with a card is.
        assert stats["reference_updates"] == HOLD
        assert source.model.reference is not model.reference
    boards = [e.count for e in events if isinstance(e, BoardCountEvent)]
    assert boards == [3, 4, 5]
    exposed = [e for e in events if isinstance(e, Exposed)]
    assert [e.zone for e in exposed] == ["seat3", INJECTED[0]]
    # The dealer's exposure agrees with RFID: the card read (when read) is one the readers place there.
    assert exposed[0].card in (None, *RFID["seat3"])
    assert exposed[1].card == INJECTED[1]  # read, or the core could not tell the disagreement
    assert all(e.source == "camera" for e in events)
    # The rules core gets the hand's RFID events and the camera's, in the order they happened.
    engine = Engine(profile=get_profile("cuca"), strict=True)
    raised: list[tuple[str, Event]] = []
    t = 0.0
    for picture in range(len(_hand())):
        # The source's clock ticks twice a frame; the debouncer stamps an event with the second tick.
        cams = [e for e in events if int(e.t) // 2 // HOLD == picture]
        for ev in [*_rfid_before(picture), *cams]:
            t += 1.0
            ev = dataclasses.replace(ev, t=t)
            raised += [(o.code, ev) for o in engine.feed(ev) if isinstance(o, Alert)]
    mismatches = [ev for code, ev in raised if code == "CAMERA_RFID_MISMATCH"]
    assert len(mismatches) == 1, raised
    assert isinstance(mismatches[0], Exposed) and (mismatches[0].zone, mismatches[0].card) == INJECTED
