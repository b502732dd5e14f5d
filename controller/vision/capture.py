"""Frame readers: V4L2 devices (cv2), the Pi camera (picamera2), video files, image folders, rendered frames.

Every reader's `read()` blocks and is called from a worker thread (asyncio.to_thread): it returns a BGR
frame, None when a file or folder has ended, or raises CaptureError when the device is gone.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from controller.errors import CardtableError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class CaptureError(CardtableError, OSError):
    """The camera cannot be opened or stopped delivering frames."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"camera {source}: {reason}")
        self.source = source
        self.reason = reason


class FrameReader(Protocol):
    name: str
    finite: bool  # a file or folder ends; a device does not

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class DeviceReader:
    """A V4L2 camera (or any device cv2.VideoCapture opens) by path or index."""

    finite = False

    def __init__(self, spec: str, width: int | None = None, height: int | None = None) -> None:
        self.name = spec
        target: int | str = int(spec) if spec.isdigit() else spec
        if isinstance(target, str) and not Path(target).exists():
            raise CaptureError(spec, "no such device")
        api = cv2.CAP_V4L2 if hasattr(cv2, "CAP_V4L2") else cv2.CAP_ANY
        self._cap = cv2.VideoCapture(target, api)
        if not self._cap.isOpened():
            self._cap.release()
            raise CaptureError(spec, "cannot open the device")
        if width:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def read(self) -> np.ndarray | None:
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CaptureError(self.name, "stopped delivering frames (unplugged?)")
        return np.asarray(frame)

    def close(self) -> None:
        self._cap.release()


class VideoFileReader:
    finite = True

    def __init__(self, path: str) -> None:
        self.name = path
        if not Path(path).is_file():
            raise CaptureError(path, "no such file")
        self._cap = cv2.VideoCapture(path)
        if not self._cap.isOpened():
            self._cap.release()
            raise CaptureError(path, "not a video file OpenCV can read")

    def read(self) -> np.ndarray | None:
        ok, frame = self._cap.read()
        return np.asarray(frame) if ok and frame is not None else None

    def close(self) -> None:
        self._cap.release()


class ImageFolderReader:
    """The images of a folder in name order (or a single image file), one per read."""

    finite = True

    def __init__(self, path: str) -> None:
        self.name = path
        p = Path(path)
        files = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES) if p.is_dir() else [p]
        if not files:
            raise CaptureError(path, "folder has no images")
        self._files = files
        self._i = 0

    def read(self) -> np.ndarray | None:
        while self._i < len(self._files):
            f = self._files[self._i]
            self._i += 1
            img = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if img is not None:
                return np.asarray(img)
        return None

    def close(self) -> None:
        self._i = len(self._files)


class PiCameraReader:
    """The Raspberry Pi camera through picamera2 (Debian package python3-picamera2), imported lazily."""

    finite = False

    def __init__(self, spec: str, width: int | None = None, height: int | None = None) -> None:
        self.name = spec
        try:
            mod: Any = importlib.import_module("picamera2")
        except ImportError:
            reason = "picamera2 is not installed (sudo apt install python3-picamera2)"
            raise CaptureError(spec, reason) from None
        index = int(spec.partition(":")[2] or 0)
        try:
            self._cam = mod.Picamera2(index)
            size = (width or 1296, height or 972)
            self._cam.configure(self._cam.create_video_configuration(main={"size": size, "format": "BGR888"}))
            self._cam.start()
        except Exception as exc:  # picamera2 raises a variety of runtime errors for a missing camera
            raise CaptureError(spec, f"cannot start the Pi camera: {exc}") from None

    def read(self) -> np.ndarray | None:
        try:
            return np.asarray(self._cam.capture_array("main"))
        except Exception as exc:
            raise CaptureError(self.name, f"capture failed: {exc}") from None

    def close(self) -> None:
        try:
            self._cam.stop()
            self._cam.close()
        except Exception:  # closing a camera that has gone away must not mask the original fault
            pass


class CallableReader:
    """Frames from a function (the simulator renders its virtual table); None from it ends the stream."""

    finite = False

    def __init__(self, fn: Callable[[], np.ndarray | None], name: str = "rendered") -> None:
        self.name = name
        self._fn = fn

    def read(self) -> np.ndarray | None:
        return self._fn()

    def close(self) -> None:
        pass


VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".mjpeg", ".mjpg", ".webm", ".h264")


def open_reader(spec: str, width: int | None = None, height: int | None = None) -> FrameReader:
    """Open a frame source named by a config string (see docs/camera.md)."""
    if spec == "picamera" or spec.startswith("picamera:"):
        return PiCameraReader(spec, width, height)
    if spec.isdigit() or spec.startswith("/dev/"):
        return DeviceReader(spec, width, height)
    p = Path(spec)
    if p.is_dir() or p.suffix.lower() in IMAGE_SUFFIXES:
        if not p.exists():
            raise CaptureError(spec, "no such file or folder")
        return ImageFolderReader(spec)
    return VideoFileReader(spec)
