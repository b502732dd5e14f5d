"""The daemon's camera path end to end from a recorded video of a dealt hand (rendered, photo-like damage).

The hand is rendered frame by frame (random light, noise, blur per frame), written as an MJPG video (JPEG
artefacts), and played through `CameraSource` (the daemon's camera Source) with the table's calibration.
The RFID side of the same hand says which cards lie in which zone; the camera's `board_count` and
`exposed` events must agree with it, and the one exposure in the video is the one the dealer made.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import cv2
import pytest

from controller.core.events import BoardCountEvent, Event, Exposed
from controller.hardware.camera import CameraSource, Health
from controller.vision.capture import open_reader
from controller.vision.render import TableLook
from controller.vision.virtual import TableCards, VirtualCamera

SIZE = (1296, 972)
HOLD = 3  # frames each picture of the table is held (the debouncer needs 2)
RFID = {"seat1": ["Kd", "4c"], "seat3": ["7c", "7d"], "seat5": ["Qh", "2s"],
        "board": ["2h", "9s", "Jc", "5d", "Ac"]}


def _hand() -> list[TableCards]:
    """Pictures of the table as the hand is dealt; seat3 turns a hole card up after the flop."""
    holes = {z: [(c, False) for c in RFID[z]] for z in ("seat1", "seat3", "seat5")}
    board = [(c, True) for c in RFID["board"]]
    exposed = {**holes, "seat3": [("7c", True), ("7d", False)]}
    return [holes, {**holes, "board": board[:3]}, {**exposed, "board": board[:3]},
            {**exposed, "board": board[:4]}, {**exposed, "board": board}]


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, VirtualCamera]:
    state: dict[str, TableCards] = {"now": {}}
    cam = VirtualCamera(lambda: state["now"], look=TableLook(felt="green"), size=SIZE, seed=11)
    path = tmp_path_factory.mktemp("video") / "hand.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, SIZE)
    assert out.isOpened()
    for picture in _hand():
        state["now"] = picture
        for _ in range(HOLD):
            out.write(cam.frame())
    out.release()
    return path, cam


def test_recorded_hand_gives_the_rfid_board_counts_and_one_exposure(
        video: tuple[Path, VirtualCamera]) -> None:
    path, cam = video
    health: list[Health] = []
    ticks = iter(range(100_000))
    source = CameraSource(opener=lambda: open_reader(str(path)), model=cam.model, fps=1000,
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
    assert source.statistics()["frames"] == HOLD * len(_hand())
    boards = [e.count for e in events if isinstance(e, BoardCountEvent)]
    assert boards == [3, 4, 5]
    exposed = [e for e in events if isinstance(e, Exposed)]
    assert [e.zone for e in exposed] == ["seat3"]
    # Agrees with RFID: the card read (when read) is the one the readers place in that zone, so the core
    # has nothing to raise CAMERA_RFID_MISMATCH about.
    assert exposed[0].card in (None, *RFID["seat3"])
    assert all(e.source == "camera" for e in events)
