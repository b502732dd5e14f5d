"""The corner-index reader's parts: ink colour → suit colour, faint strokes, the whole-index bitmap."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.core.cards import SUITS
from controller.vision.hog import (
    GLYPH,
    PX_MM,
    ROI_MM,
    WHOLE,
    IndexModel,
    _hysteresis,
    _merge_gaps,
    extract,
    ink_warmth,
    load_model,
    suit_colour_prior,
)
from controller.vision.render import draw_suit

RED_INK, BLACK_INK = (40, 40, 200), (30, 30, 30)  # BGR
GOLD_INK, SILVER_INK = (60, 150, 200), (190, 190, 190)


def _index(rank: str, suit: str, paper: tuple[int, int, int], ink: tuple[int, int, int],
           blur: float = 0.8) -> np.ndarray:
    """An index area as index_roi delivers it (PX_MM px per mm): a rank in a Hershey font over a suit."""
    x0, y0, x1, y1 = ROI_MM
    w, h = round((x1 - x0) * PX_MM), round((y1 - y0) * PX_MM)
    img = np.full((h, w, 3), paper, np.uint8)
    cv2.putText(img, rank, (round(2.5 * PX_MM), round(10 * PX_MM)), cv2.FONT_HERSHEY_DUPLEX, 1.0, ink, 2,
                cv2.LINE_AA)
    draw_suit(img, suit, 6.5 * PX_MM, 15.5 * PX_MM, 5.5 * PX_MM, ink)
    return cv2.GaussianBlur(img, (0, 0), blur)


@pytest.mark.parametrize(("paper", "ink", "red"), [
    ((235, 235, 235), RED_INK, True), ((235, 235, 235), BLACK_INK, False),
    ((20, 20, 20), GOLD_INK, True), ((20, 20, 20), SILVER_INK, False),
    # A cast of the room's light shifts paper and ink alike: still told apart.
    ((200, 225, 245), (30, 50, 210), True), ((200, 225, 245), (25, 30, 40), False),
])
def test_print_colour_tells_red_suits_from_black(paper: tuple[int, int, int], ink: tuple[int, int, int],
                                                 red: bool) -> None:
    g = extract(_index("7", "h" if red else "s", paper, ink))
    assert g is not None
    prior = suit_colour_prior(g.warmth)
    allowed = {s for s, p in zip(SUITS, prior, strict=True) if p > 0}
    assert allowed == ({"d", "h"} if red else {"c", "s"}), g.warmth


def test_unclear_print_colour_leaves_the_suit_to_the_glyph() -> None:
    # Print that differs from the paper partly unevenly (warm light on silver) rules nothing out.
    assert ink_warmth(np.array([[150, 170, 200]], np.float32), np.array([20, 20, 20])) == pytest.approx(
        50 / 180)
    assert suit_colour_prior(0.25).tolist() == [1, 1, 1, 1]
    assert ink_warmth(np.zeros((0, 3)), np.array([1, 2, 3])) == 0.0


def test_a_faint_stroke_does_not_split_a_glyph() -> None:
    dist = np.zeros((20, 10), np.float32)
    dist[2:8, 3:7] = 200  # the top of a "5"
    dist[8:10, 3] = 60  # its neck, faint after blur
    dist[10:16, 3:7] = 200  # its bowl
    dist[18, 8] = 70  # a speck of noise: above the weak cut, joined to nothing strong
    ink = _hysteresis(dist, 80, 50)
    assert ink[8:10, 3].all() and not ink[18, 8]
    assert cv2.connectedComponents(ink)[0] == 2  # background + one glyph


def test_rows_broken_by_a_small_gap_are_one_glyph() -> None:
    assert _merge_gaps([(3, 20), (22, 30), (36, 50)], 2) == [(3, 30), (36, 50)]
    assert _merge_gaps([], 2) == []


def test_extract_gives_the_whole_index_as_well_as_its_glyphs() -> None:
    g = extract(_index("K", "c", (235, 235, 235), BLACK_INK))
    assert g is not None and g.whole is not None
    assert g.rank.shape == g.suit.shape == GLYPH[::-1]
    assert g.whole.shape == WHOLE[::-1]
    # The whole bitmap holds the rank on top and the suit under it: ink in both halves.
    assert g.whole[:WHOLE[1] // 2].max() > 0.5 and g.whole[WHOLE[1] // 2:].max() > 0.5


@pytest.mark.parametrize("code", ["Ah", "Kd", "7c", "2s", "Qh", "5c", "9d", "4s"])
def test_committed_model_reads_clean_rendered_indices(code: str) -> None:
    model = load_model()
    assert model is not None
    ink = RED_INK if code[1] in "hd" else BLACK_INK
    g = extract(_index(code[0], code[1], (235, 235, 235), ink))
    assert g is not None
    r, s = model.probs(g)
    s = s * suit_colour_prior(g.warmth)
    assert "23456789TJQKA"[int(np.argmax(r[:13]))] + SUITS[int(np.argmax(s))] == code


def test_a_model_with_hidden_layers_saves_and_loads(tmp_path: Path) -> None:
    g = extract(_index("Q", "d", (235, 235, 235), RED_INK))
    assert g is not None
    n = len(g.heads_x()[0])
    rng = np.random.default_rng(0)
    model = IndexModel(rank_w=rng.normal(size=(9, 14)).astype(np.float32),
                       suit_w=rng.normal(size=(9, 4)).astype(np.float32),
                       mean=np.zeros(n, np.float32), scale=np.ones(n, np.float32),
                       rank_h=rng.normal(size=(n + 1, 8)).astype(np.float32) * 0.01,
                       suit_h=rng.normal(size=(n + 1, 8)).astype(np.float32) * 0.01)
    model.save(tmp_path / "m.npz")
    back = load_model.__wrapped__(tmp_path / "m.npz")
    assert back is not None and back.rank_h is not None and back.suit_h is not None
    for a, b in zip(model.probs(g), back.probs(g), strict=True):
        assert a.shape == b.shape and np.allclose(a, b, atol=2e-2)  # weights are stored as float16


def test_extract_equals_the_plain_computation_on_real_and_drawn_areas() -> None:
    from controller.vision.hog import extract_reference, index_roi

    root = Path(__file__).resolve().parents[2]
    rng = np.random.default_rng(4)
    areas = [_index(code[0], code[1], (235, 235, 235), RED_INK if code[1] in "hd" else BLACK_INK)
             for code in ("Ah", "Tc", "7d", "Qs")]
    areas.append(_index("5", "c", (30, 30, 30), GOLD_INK))
    for path in sorted((root / "tests" / "data" / "vision").glob("*.jpg"))[:8]:
        img = cv2.imread(str(path))
        h, w = img.shape[:2]
        for _ in range(8):  # card-like quads over the photo: real print, paper, felt, JPEG
            long = rng.uniform(0.1, 0.5) * min(h, w)
            c = rng.uniform(0.2, 0.8, 2) * (w, h)
            a = rng.uniform(0, np.pi)
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            box = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (long * 63 / 88 / 2, long / 2)
            areas.append(index_roi(img, (box @ rot.T + c).astype(np.float32), int(rng.integers(4))))
    areas += [rng.integers(0, 256, areas[0].shape, dtype=np.uint8), np.full_like(areas[0], 128)]
    some = 0
    for roi in areas:
        got, ref = extract(roi), extract_reference(roi)
        assert (got is None) == (ref is None)
        if got is not None and ref is not None:
            some += 1
            assert got.warmth == ref.warmth and got.whole is not None and ref.whole is not None
            for a, b in ((got.rank, ref.rank), (got.suit, ref.suit), (got.whole, ref.whole)):
                assert np.array_equal(a, b)
    assert some >= 10
