"""Hole pairs of a black deck (gold print on black paper) on felt and on wood: the card beneath each pair."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.vision_score import wood_grain
from controller.vision import render, single

# A close camera (the table's corners beyond the frame): cards ~125 px long at 640×480, as in vision-dev.
_CLOSE = render.Camera(corners=((-0.6, -0.6), (1.6, -0.6), (1.6, 1.6), (-0.6, 1.6)))
_SPOTS = ((390.0, 290.0), (590.0, 300.0), (490.0, 445.0))  # table mm: three seats' pairs in view


def _black_face(code: str, k: float = render.TEX_PX_MM) -> tuple[np.ndarray, np.ndarray]:
    """The renderer's face with black paper and gold print (vision-dev's src1 deck)."""
    img, alpha = _FACE(code, k)
    paper = np.abs(img.astype(np.int16) - np.int16(render.PAPER)).max(axis=2) < 30
    out = np.empty_like(img)
    out[paper] = (28, 26, 26)
    out[~paper] = (90, 170, 200)
    return out, alpha


_FACE = render.face_texture


def black_pairs(seed: int, wood: bool, monkeypatch: pytest.MonkeyPatch
                ) -> tuple[np.ndarray, list[np.ndarray]]:
    """Three hold'em pairs of black cards, the top card of each 18–32 mm to the side, 8–20 mm along and
    turned 12–30° (a pair as dealt and looked at: the card beneath shows ~25–50 %), 640×480, JPEG q85.
    Returns the frame and the six cards' true quads."""
    rng = np.random.default_rng(seed)
    look = render.TableLook(felt="tan" if wood else "green", camera=_CLOSE)
    places = []
    for i, (cx, cy) in enumerate(_SPOTS):
        cx, cy = cx + rng.uniform(-10, 10), cy + rng.uniform(-10, 10)
        a = rng.uniform(-60, 60)
        side, along = rng.uniform(18, 32), rng.choice([-1, 1]) * rng.uniform(8, 20)
        turn = rng.choice([-1, 1]) * rng.uniform(12, 30)
        r = np.deg2rad(a)
        places.append(render.CardPlace(code=("7s", "Ks", "9c")[i], face_up=True, zone="x", cx=cx, cy=cy,
                                       angle=a))
        places.append(render.CardPlace(code=("8c", "As", "Qc")[i], face_up=True, zone="x",
                                       cx=cx + side * np.cos(r) - along * np.sin(r),
                                       cy=cy + side * np.sin(r) + along * np.cos(r), angle=a + turn))
    light = render.Lighting(gain=float(rng.uniform(0.8, 1.1)), noise=2.0, blur=0.6)
    size = (640, 480)
    cv2.setRNGSeed(seed + 1)  # felt_texture draws its fine texture from OpenCV's generator
    felt = render.felt_texture(look, size, seed + 1)
    if wood:
        felt = felt * wood_grain(size, np.random.default_rng(seed + 2))[:, :, None]
    with monkeypatch.context() as m:
        m.setattr(render, "face_texture", _black_face)
        frame = render.render(look, places, light, size, seed=seed, felt=felt)
    ok, enc = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return cv2.imdecode(enc, cv2.IMREAD_COLOR), [c.polygon for c in frame.cards]


def _matched(found: list[single.Found], truth: list[np.ndarray]) -> tuple[int, int]:
    """(true cards matched one to one at IoU ≥ 0.5, detections matching none)."""
    used: set[int] = set()
    for t in truth:
        ious = [0.0 if j in used else single._iou(f.quad.astype(np.float32), t.astype(np.float32))
                for j, f in enumerate(found)]
        if ious and max(ious) >= 0.5:
            used.add(int(np.argmax(ious)))
    return len(used), len(found) - len(used)


def test_the_card_beneath_a_black_pair_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue #18, eleventh round: the splitter proposed the card beneath, but it overlaps its top card by
    # IoU 0.3–0.45 and was dropped as a duplicate, or its sides under the top card (black on black, no
    # step) failed the edge test. Main before the round: 48 of 96 cards matched; now 57, with no more
    # detections matching no card.
    hits = extra = 0
    for wood in (False, True):
        for seed in range(8):
            frame, truth = black_pairs(seed, wood, monkeypatch)
            h, e = _matched(single.find_cards(frame)[0], truth)
            hits, extra = hits + h, extra + e
    assert hits >= 55, hits
    assert extra <= 2, extra


def test_a_splitter_card_over_a_found_one_is_a_pair_only_beside_it() -> None:
    # A black card beneath a found one, IoU ≈ 0.41, its sides clear of the top card on a light table: kept.
    # The same card holding a found card (a court's picture found as a card) or a sliver: dropped.
    img = np.full((240, 320, 3), 180, np.uint8)
    under = np.float32([[60, 60], [130, 60], [130, 160], [60, 160]])
    top = under + np.float32([25, 10])
    for q in (under, top):
        cv2.fillConvexPoly(img, np.round(q).astype(np.int32), (25, 25, 25))
    assert 0.3 < single._iou(under, top) < single.PAIR_IOU
    assert single._split_card(under, [top], [], img)
    picture = np.float32([[75, 80], [115, 80], [115, 140], [75, 140]])
    assert not single._split_card(under, [picture], [], img)
    kite = np.float32([[60, 60], [150, 80], [200, 160], [100, 130]])
    assert not single._split_card(kite, [top], [], img)
