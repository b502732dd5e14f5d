"""Calibration: zones, card size, deck back and index glyphs; read from and written to the TOML config."""

from __future__ import annotations

import base64
import binascii
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.core.cards import check_zone, parse_card
from controller.errors import UsageError
from controller.vision import glyphs as glyph_mod
from controller.vision.detect import BackModel, VisionModel, face_stats, learn_reference, locate_cards

ZONE_COLOURS = {"board": (0, 255, 255), "burn": (0, 128, 255), "muck": (255, 0, 255), "deck": (255, 255, 0)}


def reading_order(quads: Sequence[np.ndarray], long: float) -> list[np.ndarray]:
    """Cards sorted in rows top to bottom, each row left to right (how an operator lays them out)."""
    items = sorted(quads, key=lambda q: float(q[:, 1].mean()))
    rows: list[list[np.ndarray]] = []
    for q in items:
        if rows and abs(float(q[:, 1].mean()) - float(rows[-1][-1][:, 1].mean())) < 0.5 * long:
            rows[-1].append(q)
        else:
            rows.append([q])
    return [q for row in rows for q in sorted(row, key=lambda q: float(q[:, 0].mean()))]


def _singles(frame: np.ndarray, model: VisionModel) -> tuple[list[np.ndarray], float]:
    groups, long = locate_cards(frame, model)
    return [g[0] for g in groups if len(g) == 1], long


def learn_back(frame: np.ndarray, model: VisionModel, min_cards: int = 3) -> VisionModel:
    """Learn the back design and the card size from face-down cards lying apart from each other."""
    quads, _ = _singles(frame, replace(model, card_long_px=None))
    if len(quads) < min_cards:
        raise UsageError(f"back calibration needs at least {min_cards} separate face-down cards, "
                         f"found {len(quads)}")
    stats = [face_stats(frame, q, []) for q in quads]
    papers = [s[0] for s in stats]
    if float(np.median(papers)) > 0.6:
        raise UsageError("the cards for back calibration look face up; turn them face down")
    longs = [max(np.hypot(*(q[2] - q[1])), np.hypot(*(q[3] - q[0]))) for q in quads]
    back = BackModel(paper=float(np.mean(papers)),
                     hist=tuple(float(v) for v in np.mean([s[1] for s in stats], axis=0)))
    h, w = frame.shape[:2]
    zones = model.scaled_zones((w, h))
    return replace(model, back=back, card_long_px=float(np.median(longs)), frame_size=(w, h), zones=zones)


def learn_glyphs(frame: np.ndarray, codes: Sequence[str], model: VisionModel) -> VisionModel:
    """Learn rank and suit glyphs from face-up cards laid out in reading order as `codes`."""
    cards = [parse_card(c) for c in codes]
    quads, long = _singles(frame, replace(model, card_long_px=None))  # cards lie apart: measure them here
    if len(quads) != len(cards):
        raise UsageError(f"glyph calibration: {len(cards)} cards named but {len(quads)} separate cards found")
    ordered = reading_order(quads, long)
    learned = glyph_mod.learn((frame, q, c) for q, c in zip(ordered, cards, strict=True))
    if model.glyphs is not None:  # a second layout refines the templates (and keeps glyphs it did not show)
        learned = glyph_mod.GlyphSet(ranks=_merge(model.glyphs.ranks, learned.ranks),
                                     suits=_merge(model.glyphs.suits, learned.suits))
    return replace(model, glyphs=learned)


def _merge(old: Mapping[str, np.ndarray], new: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {k: (old[k] + new[k]) / 2 if k in old and k in new else new.get(k, old.get(k))
            for k in {*old, *new}}  # type: ignore[misc]


def zones_from_cards(frame: np.ndarray, names: Sequence[str], model: VisionModel) -> VisionModel:
    """One card per zone in reading order; each zone is its card grown (the board's along the row)."""
    quads, long = _singles(frame, model)
    if len(quads) != len(names):
        against = " against the empty-table reference" if model.reference is not None else ""
        raise UsageError(f"zone calibration: {len(names)} zones named ({', '.join(names)}) but {len(quads)} "
                         f"separate cards found{against}; lay exactly one card in each zone, apart")
    h, w = frame.shape[:2]
    zones = dict(model.scaled_zones((w, h)))
    for q, name in zip(reading_order(quads, long), names, strict=True):
        check_zone(name)
        c = q.mean(axis=0)
        short_axis = (q[1] - q[0] + q[2] - q[3]) / 2
        long_axis = (q[3] - q[0] + q[2] - q[1]) / 2
        fs, fl = (5.8, 1.45) if name == "board" else (2.3, 1.45)
        zones[name] = np.array([c + sx * short_axis * fs / 2 + sy * long_axis * fl / 2
                                for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.float32)
    return replace(model, zones=zones, frame_size=(w, h))


def parse_zone_arg(text: str) -> tuple[str, np.ndarray]:
    """'seat1=10,20;200,20;200,180;10,180' → (name, polygon)."""
    name, sep, rest = text.partition("=")
    if not sep:
        raise UsageError(f"--zone {text!r}: expected NAME=x,y;x,y;x,y…")
    try:
        check_zone(name.strip())
        pts = [tuple(float(v) for v in p.split(",")) for p in rest.split(";") if p.strip()]
    except ValueError as exc:
        raise UsageError(f"--zone {text!r}: {exc}") from None
    if len(pts) < 3 or any(len(p) != 2 for p in pts):
        raise UsageError(f"--zone {text!r}: a polygon needs at least 3 points x,y")
    return name.strip(), np.array(pts, np.float32)


def draw_overlay(frame: np.ndarray, model: VisionModel, quads: Sequence[np.ndarray] = ()) -> np.ndarray:
    """The frame with a 50 px coordinate grid, the zones and the cards found (for the operator)."""
    img = frame.copy()
    h, w = img.shape[:2]
    for x in range(0, w, 50):
        cv2.line(img, (x, 0), (x, h), (90, 90, 90), 1)
        if x % 100 == 0:
            cv2.putText(img, str(x), (x + 2, 12), cv2.FONT_HERSHEY_PLAIN, 0.8, (255, 255, 255), 1)
    for y in range(0, h, 50):
        cv2.line(img, (0, y), (w, y), (90, 90, 90), 1)
        if y % 100 == 0:
            cv2.putText(img, str(y), (2, y - 2), cv2.FONT_HERSHEY_PLAIN, 0.8, (255, 255, 255), 1)
    for name, poly in model.scaled_zones((w, h)).items():
        colour = ZONE_COLOURS.get(name, (0, 255, 0))
        pts = np.round(poly).astype(np.int32)
        cv2.polylines(img, [pts], True, colour, 2)
        at = (int(pts[:, 0].min()) + 4, int(pts[:, 1].min()) + 16)
        cv2.putText(img, name, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    for q in quads:
        cv2.polylines(img, [np.round(q).astype(np.int32)], True, (0, 0, 255), 1)
    if model.reference is not None:  # what was learned of the empty table, inset top right
        ref = model.reference
        rh, rw = ref.shape[:2]
        if rw + 10 < w and rh + 10 < h:
            img[5:5 + rh, w - rw - 5:w - 5] = ref
            cv2.rectangle(img, (w - rw - 6, 4), (w - 4, 6 + rh), (255, 255, 255), 1)
            cv2.putText(img, "empty table", (w - rw - 4, rh + 20), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                        (255, 255, 255), 1, cv2.LINE_AA)
    return img


# ---------------------------------------------------------------- TOML


def model_from_config(section: Mapping[str, Any]) -> VisionModel:
    """The calibration part of a parsed `[camera]` table (unknown keys are the schema's business)."""
    try:
        zones = {check_zone(k): np.array(v, np.float32).reshape(-1, 2)
                 for k, v in section.get("zones", {}).items()}
        deck = section.get("deck", {})
        size = tuple(deck["frame"]) if "frame" in deck else None
        back = BackModel(paper=float(deck["back_paper"]), hist=tuple(float(v) for v in deck["back_hist"])) \
            if "back_paper" in deck else None
        g = section.get("glyphs")
        return VisionModel(zones=zones, frame_size=(int(size[0]), int(size[1])) if size else None,
                           card_long_px=float(deck["card_long_px"]) if "card_long_px" in deck else None,
                           back=back, glyphs=glyph_mod.GlyphSet.from_toml_tables(g) if g else None,
                           reference=_decode_png(deck["reference"]) if "reference" in deck else None)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, binascii.Error) as exc:
        raise UsageError(f"[camera] calibration data is malformed: {exc}") from None


def _encode_png(img: np.ndarray) -> str:
    ok, buf = cv2.imencode(".png", img)
    if not ok:
        raise UsageError("cannot encode the empty-table reference as PNG")
    return base64.b64encode(buf.tobytes()).decode()


def _decode_png(text: str) -> np.ndarray:
    img = cv2.imdecode(np.frombuffer(base64.b64decode(text, validate=True), np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError("deck.reference is not a base64 PNG image")
    return np.asarray(img)


def learn_empty(frame: np.ndarray, model: VisionModel) -> VisionModel:
    """Learn the empty-table reference (fixed camera): cards are then what differs from it."""
    h, w = frame.shape[:2]
    return replace(model, reference=learn_reference(frame), frame_size=(w, h),
                   zones=model.scaled_zones((w, h)))


def load_config(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: {exc}") from None


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(round(v, 4)) if isinstance(v, float) else str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def camera_toml(section: Mapping[str, Any], model: VisionModel) -> str:
    """The `[camera]` tables: the section's own scalar settings, then zones, deck and glyphs."""
    lines = ["[camera]"]
    lines += [f"{k} = {_fmt(v)}" for k, v in section.items() if not isinstance(v, dict)]
    if model.zones:
        lines += ["", "[camera.zones]  # polygons in pixels of the calibration frame"]
        lines += [f"{k} = {_fmt([[round(float(x), 1), round(float(y), 1)] for x, y in v])}"
                  for k, v in model.zones.items()]
    deck: dict[str, Any] = {}
    if model.frame_size:
        deck["frame"] = list(model.frame_size)
    if model.card_long_px:
        deck["card_long_px"] = round(model.card_long_px, 2)
    if model.reference is not None:
        deck["reference"] = _encode_png(model.reference)
    if model.back:
        deck["back_paper"] = round(model.back.paper, 4)
        deck["back_hist"] = [round(v, 4) for v in model.back.hist]
    if deck:
        lines += ["", "[camera.deck]"] + [f"{k} = {_fmt(v)}" for k, v in deck.items()]
    if model.glyphs:
        for kind, table in model.glyphs.to_toml_tables().items():
            lines += ["", f"[camera.glyphs.{kind}]"] + [f"{k} = {_fmt(v)}" for k, v in sorted(table.items())]
    return "\n".join(lines) + "\n"


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\"]+)\s*\]\]?")


def write_camera_section(path: Path, section: Mapping[str, Any], model: VisionModel) -> None:
    """Replace the `[camera…]` tables in the file, keeping every other line (and comment) as it was."""
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    kept: list[str] = []
    in_camera = False
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m:
            in_camera = m.group(1) == "camera" or m.group(1).startswith("camera.")
        if not in_camera:
            kept.append(line)
    body = "\n".join(kept).rstrip()
    out = (body + "\n\n" if body else "") + camera_toml(section, model)
    tomllib.loads(out)  # never write a file we could not read back
    path.write_text(out, encoding="utf-8")
