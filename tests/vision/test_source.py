"""The camera Source: health faults instead of crashes, frame-rate cap, events from frames to the loop."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.core.events import BoardCountEvent, Event, Exposed
from controller.hardware.camera import CameraSource, Health
from controller.vision.capture import CallableReader, CaptureError, ImageFolderReader, open_reader
from controller.vision.config import CameraConfig
from controller.vision.detect import VisionModel
from controller.vision.render import BOARD_CENTRE, BOARD_PITCH, CardPlace, Lighting, TableLook, render

SIZE = (640, 480)


def _run(source: CameraSource, seconds: float) -> list[Event]:
    events: list[Event] = []

    async def main() -> None:
        task = asyncio.create_task(source.run(events.append), name="camera")
        await asyncio.sleep(seconds)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    return events


def test_nonexistent_device_is_a_capture_error() -> None:
    with pytest.raises(CaptureError, match="no such device"):
        open_reader("/dev/video-does-not-exist")


def test_missing_camera_reports_health_fault_and_keeps_retrying() -> None:
    health: list[Health] = []
    cfg = CameraConfig.from_mapping({"source": "/dev/video-does-not-exist"})
    src = CameraSource.from_config(cfg, on_health=health.append)
    src._backoff = (0.02, 0.05)
    assert _run(src, 0.3) == []
    assert health and not health[0].ok and "no such device" in health[0].message
    assert len(health) == 1  # a fault is reported once, not on every retry
    stats = src.statistics()
    assert stats["state"] == "fault" and stats["reopens"] >= 2


def _write_video(path: Path, frames: list[np.ndarray]) -> bool:
    h, w = frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (w, h))
    if not out.isOpened():
        return False
    for f in frames:
        out.write(f)
    out.release()
    return path.stat().st_size > 0


def _frames(table: TableLook, counts: list[int]) -> tuple[list[np.ndarray], dict[str, np.ndarray]]:
    out = []
    zones: dict[str, np.ndarray] = {}
    for i, n in enumerate(counts):
        cards = [CardPlace(code="2c", face_up=True, zone="board", cx=BOARD_CENTRE[0] + (j - 2) * BOARD_PITCH,
                           cy=BOARD_CENTRE[1]) for j in range(n)]
        cards.append(CardPlace(code="Ah", face_up=i >= 2, zone="seat1", cx=190, cy=560, angle=30))
        fr = render(table, cards, Lighting(), SIZE, seed=i)
        out.append(fr.image)
        zones = fr.zones
    return out, zones


def test_video_file_that_ends_is_a_fault_not_a_crash(tmp_path: Path) -> None:
    table = TableLook(felt="blue")
    frames, zones = _frames(table, [0, 0, 3, 3, 3])
    video = tmp_path / "table.avi"
    if not _write_video(video, frames):
        pytest.skip("this OpenCV build cannot write MJPG video")
    health: list[Health] = []
    model = VisionModel(zones=zones, frame_size=SIZE)
    src = CameraSource(opener=lambda: open_reader(str(video)), model=model, fps=50, on_health=health.append)
    events = _run(src, 2.0)
    assert [h.ok for h in health] == [True, False]
    assert "stream ended" in health[-1].message
    assert BoardCountEvent in {type(e) for e in events}
    assert src.statistics()["frames"] == 5


def test_folder_of_images_drives_exposed_and_board_events(tmp_path: Path) -> None:
    table = TableLook(felt="burgundy")
    frames, zones = _frames(table, [0, 0, 3, 3])
    for i, f in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), f)
    src = CameraSource(opener=lambda: ImageFolderReader(str(tmp_path)),
                       model=VisionModel(zones=zones, frame_size=SIZE), fps=50,
                       clock=iter(range(100)).__next__)
    events = _run(src, 1.5)
    assert [type(e) for e in events] == [BoardCountEvent, Exposed]
    # Zones only, no learned glyphs: the trained index model reads the exposed card.
    assert events[1] == Exposed(t=events[1].t, source="camera", zone="seat1", card="Ah")
    assert events[0].count == 3  # type: ignore[union-attr]


def test_frame_rate_is_capped() -> None:
    frame = np.zeros((120, 160, 3), np.uint8)
    calls = []

    def grab() -> np.ndarray:
        calls.append(1)
        return frame

    src = CameraSource(opener=lambda: CallableReader(grab), model=VisionModel(), fps=10)
    _run(src, 0.55)
    assert 4 <= len(calls) <= 7


def test_unplugged_camera_is_reopened() -> None:
    frame = np.zeros((120, 160, 3), np.uint8)
    state = {"opens": 0, "reads": 0}

    class Flaky:
        name, finite = "flaky", False

        def read(self) -> np.ndarray:
            state["reads"] += 1
            if state["reads"] % 3 == 0:
                raise CaptureError("flaky", "stopped delivering frames (unplugged?)")
            return frame

        def close(self) -> None:
            pass

    def opener() -> Flaky:
        state["opens"] += 1
        return Flaky()

    health: list[Health] = []
    src = CameraSource(opener=opener, model=VisionModel(), fps=100, on_health=health.append,
                       backoff=(0.01, 0.02))
    _run(src, 0.4)
    assert state["opens"] >= 2
    assert [h.ok for h in health][:3] == [True, False, True]


def test_config_rejects_unknown_keys_and_bad_values_all_at_once() -> None:
    from controller.errors import UsageError

    with pytest.raises(UsageError) as exc:
        CameraConfig.from_mapping({"source": "x", "fsp": 5, "fps": 0, "debounce": "2"})
    msg = str(exc.value)
    assert "camera.fsp: unknown key" in msg and "camera.fps" in msg and "camera.debounce" in msg


def _table(cards: list[CardPlace], gain: float) -> np.ndarray:
    light = Lighting(gain=gain, noise=1.0, blur=0.5)
    return render(TableLook(felt="green"), cards, light, SIZE, seed=4).image


def test_source_updates_the_empty_table_reference_only_while_no_card_lies() -> None:
    from controller.vision.detect import learn_reference

    empty_dim = _table([], 0.8)
    card = [CardPlace(code="Ah", face_up=True, zone="board", cx=BOARD_CENTRE[0], cy=BOARD_CENTRE[1])]
    # The room brightens by 25 %: three empty frames, then three with a card on the table.
    frames = [_table([], 1.0)] * 3 + [_table(card, 1.0)] * 3
    it = iter(frames)
    model = VisionModel(frame_size=SIZE, reference=learn_reference(empty_dim), card_long_px=60.0)
    src = CameraSource(opener=lambda: CallableReader(lambda: next(it, None), "test"), model=model, fps=1000)
    _run(src, 1.5)
    assert src.statistics()["frames"] == len(frames)
    assert src.statistics()["reference_updates"] == 3  # the three empty frames, not the frames with a card
    before = model.reference
    after = src.model.reference
    assert before is not None and after is not None
    # Moved towards the brighter room (2 % per frame, at least one grey level), nowhere darker.
    assert float(after.astype(int).mean()) > float(before.astype(int).mean()) + 1.5
    assert int((after.astype(int) - before.astype(int)).min()) >= 0


def test_source_reuses_unchanged_clusters_between_frames() -> None:
    card = [CardPlace(code="Ah", face_up=True, zone="board", cx=BOARD_CENTRE[0], cy=BOARD_CENTRE[1]),
            CardPlace(code="Kd", face_up=True, zone="board", cx=BOARD_CENTRE[0] + BOARD_PITCH,
                      cy=BOARD_CENTRE[1])]
    frame = _table(card, 1.0)
    frames = [frame] * 4
    it = iter(frames)
    model = VisionModel(frame_size=SIZE, card_long_px=60.0)
    src = CameraSource(opener=lambda: CallableReader(lambda: next(it, None), "test"), model=model, fps=1000)
    _run(src, 1.5)
    mem = src._memory
    assert (mem.misses, mem.hits) == (2, 6)  # two cards found once, then remembered for three frames


@pytest.mark.parametrize("section, words", [
    ({"source": "x", "zones": 5}, "camera.zones: expected a table"),
    ({"source": "x", "deck": [1]}, "camera.deck: expected a table"),
    ({"source": "x", "glyphs": "abc"}, "camera.glyphs: expected a table"),
    ({"source": "x", "zones": {"board": 5}}, "calibration data is malformed"),
    ({"source": "x", "glyphs": {"a": 5}}, "glyphs.a: unknown key"),
    ({"source": "x", "glyphs": {"rank": 5}}, "calibration data is malformed"),
    ({"source": "x", "deck": {"frame": 5}}, "calibration data is malformed"),
])
def test_camera_calibration_tables_of_the_wrong_shape_are_one_line_errors(section: dict[str, Any],
                                                                          words: str) -> None:
    """A hand-edited [camera] section: a usage error naming the part, never an AttributeError."""
    from controller.errors import UsageError

    with pytest.raises(UsageError) as exc:
        CameraConfig.from_mapping(section)
    assert words in str(exc.value) and "\n" not in str(exc.value)
