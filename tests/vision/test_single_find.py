"""Single-frame card finding (controller/vision/single.py) on a table whose light drifts across the frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.vision import single


def _pale_cards_on_a_light_ramp() -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Two cards 15 grey levels brighter than the desk under the same light, on a desk that brightens by
    180 levels from left to right: every global grey level that cuts a card from the desk beside it also
    takes the brighter desk further right."""
    h, w = 480, 640
    ramp = np.tile(np.linspace(60, 240, w, dtype=np.float32), (h, 1))
    card = np.zeros((h, w), np.float32)
    centres = [(150, 240), (330, 240)]
    for cx, cy in centres:
        cv2.fillPoly(card, [cv2.boxPoints(((cx, cy), (90, 126), 20)).astype(np.int32)], 1.0)
    img = np.repeat((ramp + 15 * card)[..., None], 3, axis=2)
    img = cv2.GaussianBlur(img, (0, 0), 1.0) + np.random.default_rng(1).normal(0, 2, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), centres


def test_pale_cards_on_a_drifting_light_are_found(monkeypatch: pytest.MonkeyPatch) -> None:
    frame, centres = _pale_cards_on_a_light_ramp()
    found, _ = single.find_cards(frame)
    got = sorted(tuple(f.quad.mean(axis=0)) for f in found)
    assert len(got) == len(centres)
    for (gx, gy), (cx, cy) in zip(got, centres, strict=True):
        assert abs(gx - cx) < 10 and abs(gy - cy) < 10
    # The plain level cuts alone find neither: the flattened sweep is what finds them.
    monkeypatch.setattr(single, "_pale_cards", lambda *a, **k: [])
    assert single.find_cards(frame)[0] == []


def test_flatten_keeps_a_card_step_and_removes_the_slow_shade() -> None:
    gray = np.tile(np.linspace(60, 240, 320, dtype=np.float32), (240, 1))
    gray[100:140, 100:130] += 20
    flat = single.flatten(np.clip(gray, 0, 255).astype(np.uint8), window=128)
    desk = flat[60, 16:304].astype(np.float32)
    assert float(desk.max() - desk.min()) < 8  # the desk is one grey after flattening (was 170 apart)
    assert float(flat[120, 115]) - float(flat[120, 90]) > 14  # the card still stands out of it
