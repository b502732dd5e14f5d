"""The daemon's camera path end to end from a recorded video of a dealt hand (rendered, photo-like damage).

The hand is rendered frame by frame (random light, noise, blur per frame), written as an MJPG video (JPEG
artefacts), and played through `CameraSource` (the daemon's camera Source) with the table's calibration.
The RFID side of the same hand says which cards lie in which zone; the camera's `board_count` and
`exposed` events must agree with it, and the one exposure in the video is the one the dealer made.
The last picture injects a disagreement (a card the readers place at seat 5 shown face up at seat 1): fed
into the rules core together with the hand's RFID events, the camera's events raise CAMERA_RFID_MISMATCH
there and nowhere else.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import cv2
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
from controller.vision.render import TableLook
from controller.vision.virtual import TableCards, VirtualCamera

SIZE = (1296, 972)
HOLD = 3  # frames each picture of the table is held (the debouncer needs 2)
RFID = {"seat1": ["Kd", "4c"], "seat3": ["7c", "7d"], "seat5": ["Qh", "2s"],
        "board": ["2h", "9s", "Jc", "5d", "Ac"]}


INJECTED = ("seat1", "Qh")  # the last picture: Qh (at seat 5 for the readers) face up at seat 1


def _hand() -> list[TableCards]:
    """Pictures of the table as the hand is dealt; seat3 turns a hole card up after the flop; the last
    picture is the injected disagreement with the readers."""
    holes = {z: [(c, False) for c in RFID[z]] for z in ("seat1", "seat3", "seat5")}
    board = [(c, True) for c in RFID["board"]]
    exposed = {**holes, "seat3": [("7c", True), ("7d", False)]}
    injected = {**exposed, "seat1": [("Kd", False), (INJECTED[1], True)], "board": board}
    return [holes, {**holes, "board": board[:3]}, {**exposed, "board": board[:3]},
            {**exposed, "board": board[:4]}, {**exposed, "board": board}, injected]


def _rfid_before(picture: int) -> list[Event]:
    """The readers' and the console's events of the hand up to each picture (t filled in later)."""
    steps: list[list[Event]] = [
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


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, VirtualCamera]:
    state: dict[str, TableCards] = {"now": {}}
    cam = VirtualCamera(lambda: state["now"], look=TableLook(felt="green"), size=SIZE, seed=11, vary=True)
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
