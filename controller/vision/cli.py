"""The work behind `cardtable camera calibrate|detect` (imported only when that command runs)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from controller.errors import UsageError
from controller.vision import calibrate as cal
from controller.vision.capture import CaptureError, open_reader
from controller.vision.config import CameraConfig
from controller.vision.detect import VisionModel, detect
from controller.vision.single import READS


def run(args: argparse.Namespace) -> int:
    """Run `cardtable camera …`; camera errors become one clear line."""
    try:
        return _calibrate(args) if args.camera_cmd == "calibrate" else _detect(args)
    except CaptureError as exc:
        raise UsageError(str(exc)) from None


def _section(path: Path | None) -> dict[str, object]:
    if path is None:
        return {}
    section = cal.load_config(path).get("camera", {})
    if not isinstance(section, dict):
        raise UsageError(f"{path}: [camera] must be a table")
    return section


def _model(section: dict[str, object]) -> VisionModel:
    return cal.model_from_config(section) if section else VisionModel()


def _read_image(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise UsageError(f"{path}: not an image file OpenCV can read")
    return img


def _capture(source: str, section: dict[str, object]) -> np.ndarray:
    w, h = section.get("width"), section.get("height")
    reader = open_reader(source, w if isinstance(w, int) else None, h if isinstance(h, int) else None)
    try:
        frame = None
        for _ in range(5):  # the first frames of a webcam are often dark while exposure settles
            frame = reader.read() if not reader.finite or frame is None else frame
        if frame is None:
            raise UsageError(f"camera {source}: no frame")
        return frame
    finally:
        reader.close()


def _calibrate(args: argparse.Namespace) -> int:
    section = _section(args.config)
    if section:
        CameraConfig.from_mapping({"source": "-", **section})  # fail early on a malformed section
    model = _model(section)
    if args.image is not None:
        frame = _read_image(args.image)
    else:
        source = args.source or section.get("source")
        if not isinstance(source, str):
            raise UsageError("no camera: give --source or --image, or set [camera].source in the config")
        frame = _capture(source, section)
    h, w = frame.shape[:2]
    model = VisionModel(zones=model.scaled_zones((w, h)), frame_size=(w, h),
                        card_long_px=model.card_long_at((w, h)), back=model.back, glyphs=model.glyphs,
                        reference=model.reference)
    png = args.png or args.config.with_suffix(".camera.png")
    if args.empty is not None:
        empty = _read_image(args.empty)
        if empty.shape[:2] != frame.shape[:2]:
            raise UsageError(f"{args.empty}: the empty-table photo is {empty.shape[1]}x{empty.shape[0]}, "
                             f"the card photo {w}x{h}: both must come from the same fixed camera")
        model = cal.learn_empty(empty, model)
        print(f"empty table learned from {args.empty}")
    try:
        model = _learn(args, frame, model)
    except UsageError as exc:
        # Show the operator what was found before saying what was not.
        _write_png(png, frame, model, [c.polygon for c in detect(frame, model).cards])
        raise UsageError(f"{exc} (cards found are drawn in {png})") from None
    section.setdefault("source", args.source or "/dev/video0")
    cal.write_camera_section(args.config, section, model)
    _write_png(png, frame, model, [c.polygon for c in detect(frame, model).cards])
    print(f"{args.config}: [camera] written ({len(model.zones)} zones); zones drawn in {png}")
    return 0


def _write_png(png: Path, frame: np.ndarray, model: VisionModel, quads: list[np.ndarray]) -> None:
    if not cv2.imwrite(str(png), cal.draw_overlay(frame, model, quads)):
        raise UsageError(f"{png}: cannot write the PNG")


def _learn(args: argparse.Namespace, frame: np.ndarray, model: VisionModel) -> VisionModel:
    h, w = frame.shape[:2]
    if args.learn_back:
        model = cal.learn_back(frame, model)
        print(f"back learned: paper {model.back.paper if model.back else 0:.2f}, "
              f"card long side {model.card_long_px:.1f} px")
    if args.learn_glyphs:
        codes = args.learn_glyphs.replace(",", " ").split()
        model = cal.learn_glyphs(frame, codes, model)
        print(f"glyphs learned: ranks {''.join(sorted(model.glyphs.ranks)) if model.glyphs else ''}, "
              f"suits {''.join(sorted(model.glyphs.suits)) if model.glyphs else ''}")
    if args.zones_from_cards:
        model = cal.zones_from_cards(frame, [n.strip() for n in args.zones_from_cards.split(",")], model)
    if args.zone:
        zones = dict(model.zones)
        for text in args.zone:
            name, poly = cal.parse_zone_arg(text)
            zones[name] = poly
        model = VisionModel(zones=zones, frame_size=(w, h), card_long_px=model.card_long_px, back=model.back,
                            glyphs=model.glyphs, reference=model.reference)
    return model


def _detect(args: argparse.Namespace) -> int:
    model = _model(_section(args.config))
    for path in args.images:
        READS.clear()  # the images are unrelated: a card read in one says nothing about the next
        det = detect(_read_image(path), model)
        if args.json:
            print(json.dumps({"image": str(path), "board_count": det.board_count(),
                              "cards": [c.to_json() for c in det.cards]}))
            continue
        print(f"{path}: {len(det.cards)} cards")
        for c in det.cards:
            poly = " ".join(f"{x:.0f},{y:.0f}" for x, y in c.polygon)
            print(f"  {'up  ' if c.face_up else 'down'} {c.card or '--'} zone={c.zone or '-'} [{poly}]")
    sys.stdout.flush()
    return 0
