"""The `[camera]` section of the table config: validated once, frozen after."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.errors import UsageError
from controller.vision.calibrate import model_from_config
from controller.vision.detect import VisionModel

SETTINGS: dict[str, type | tuple[type, ...]] = {
    "source": str,  # /dev/videoN, an index, "picamera", a video file or a folder of images
    "fps": (int, float),
    "width": int,
    "height": int,
    "debounce": int,
    "enabled": bool,
}
TABLES = ("zones", "deck", "glyphs")


@dataclass(frozen=True, kw_only=True, slots=True)
class CameraConfig:
    source: str
    fps: float = 5.0
    width: int | None = None
    height: int | None = None
    debounce: int = 2
    enabled: bool = True
    model: VisionModel = field(default_factory=VisionModel)
    raw: Mapping[str, Any] = field(default_factory=dict)  # the section as read, for calibrate to rewrite

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any], where: str = "camera") -> CameraConfig:
        """Validate a parsed `[camera]` table; every problem is reported at once with its path."""
        errors = [f"{where}.{k}: unknown key" for k in section if k not in SETTINGS and k not in TABLES]
        for key, typ in SETTINGS.items():
            if key in section and (not isinstance(section[key], typ) or (isinstance(section[key], bool)
                                   and typ is not bool)):
                errors.append(f"{where}.{key}: expected {_typename(typ)}, got {section[key]!r}")
        for key in TABLES:  # calibration data: checked inside by model_from_config, the shape here
            if key in section and not isinstance(section[key], Mapping):
                errors.append(f"{where}.{key}: expected a table, got {section[key]!r}"[:200])
        if "source" not in section:
            errors.append(f"{where}.source: required (e.g. \"/dev/video0\", \"picamera\", a file or folder)")
        fps = section.get("fps", 5.0)
        if isinstance(fps, (int, float)) and not 0 < fps <= 60:
            errors.append(f"{where}.fps: must be in (0, 60], got {fps}")
        deb = section.get("debounce", 2)
        if isinstance(deb, int) and not 1 <= deb <= 30:
            errors.append(f"{where}.debounce: must be 1…30 frames, got {deb}")
        if errors:
            raise UsageError("; ".join(errors))
        return cls(source=str(section["source"]), fps=float(fps), width=section.get("width"),
                   height=section.get("height"), debounce=int(deb),
                   enabled=bool(section.get("enabled", True)),
                   model=model_from_config(section), raw=dict(section))


def _typename(typ: type | tuple[type, ...]) -> str:
    if isinstance(typ, tuple):
        return " or ".join(t.__name__ for t in typ)
    return typ.__name__
