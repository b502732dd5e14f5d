"""The corner-index reader: the corner cut, its normalisation, the committed CNN, the pair vote."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.vision.index import (
    INPUT,
    NONE,
    ROI_MM,
    combine,
    corner_crop,
    load_model,
    normalise,
    read_cnn,
    read_code,
)
from controller.vision.render import BackDesign, back_texture, face_texture

ROOT = Path(__file__).resolve().parents[2]


def _card_frame(tex: np.ndarray, long_px: float, angle: float = 20.0,
                felt: tuple[int, int, int] = (50, 110, 40), jpeg: int = 85) -> tuple[np.ndarray, np.ndarray]:
    """A card texture laid on felt, rotated, `long_px` pixels long; (frame, portrait quad)."""
    h, w = tex.shape[:2]
    size = round(long_px * 2)
    frame = np.full((size, size, 3), felt, np.uint8)
    scale = long_px / h
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * scale
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = (src - [w / 2, h / 2]) @ rot.T + size / 2
    hom = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), hom, (size, size))
    card = cv2.warpPerspective(tex, hom, (size, size), flags=cv2.INTER_AREA)
    frame[mask > 127] = card[mask > 127]
    _, enc = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR), dst.astype(np.float32)


def test_corner_crop_cuts_the_index_area_at_the_inputs_size() -> None:
    tex = face_texture("Kc", 6.0)[0]
    for long_px in (110.0, 700.0):  # a far card, and one with more pixels per mm than the network reads
        frame, quad = _card_frame(tex, long_px)
        crop = corner_crop(frame, quad, 0)
        assert crop.shape == (INPUT[1], INPUT[0], 3)
        # The area starts 1.5 mm outside the card: its top-left shows the felt, the rest the card's paper.
        felt = crop[:2, :2].reshape(-1, 3).mean(axis=0)
        assert felt[1] < 160 and felt[0] < 120, felt
        assert np.median(crop[10:, 10:].reshape(-1, 3), axis=0).min() > 200
    assert ROI_MM[0] < 0 < ROI_MM[2]


def test_normalise_puts_paper_at_zero_and_keeps_red_apart_from_black() -> None:
    crops = np.empty((2, INPUT[1], INPUT[0], 3), np.uint8)
    crops[:] = (200, 215, 235)  # paper under warm light
    crops[0, 20:40, 10:20] = (40, 40, 200)  # red print
    crops[1, 20:40, 10:20] = (30, 30, 40)  # black print
    x = normalise(crops)
    assert x.shape == (2, 3, INPUT[1], INPUT[0])
    assert np.abs(x[:, :, :10]).max() == 0.0  # paper
    red, black = x[0, :, 30, 15], x[1, :, 30, 15]
    assert red[2] - red[0] > 0.5  # the red channel falls far less than blue under red print
    assert abs(black[2] - black[0]) < 0.2 * abs(black[0])


def test_combine_lets_only_corners_with_an_index_vote() -> None:
    rank = np.zeros((2, NONE + 1), np.float32)
    suit = np.zeros((2, 4), np.float32)
    rank[0, NONE], suit[0, 1] = 1.0, 1.0  # no index here: a pip saying "diamonds"
    rank[1, 12], suit[1, 3] = 0.9, 0.8  # an ace of spades
    rank[1, NONE] = 0.1
    got = combine(rank, suit)
    assert got is not None and got[1] == "As"
    assert got[0] == pytest.approx(0.8)
    rank[1] = 0.0
    rank[1, NONE] = 1.0
    assert combine(rank, suit) is None


@pytest.mark.parametrize("code", ["Ah", "Kd", "7c", "2s", "Qh", "5c", "9d", "4s", "Tc", "3h"])
def test_committed_model_reads_rendered_cards(code: str) -> None:
    frame, quad = _card_frame(face_texture(code, 6.0)[0], 260.0, angle=-35.0)
    assert read_cnn(frame, quad) == code


def test_the_cnn_reads_no_code_on_a_back() -> None:
    back = back_texture(BackDesign(colour="blue", pattern="lattice"), 6.0)[0]
    frame, quad = _card_frame(back, 260.0)
    assert read_cnn(frame, quad) is None  # (the HOG fallback is not asked for backs: single.py reads faces)
    model = load_model()
    assert model is not None
    rank, _ = model.probs(np.stack([corner_crop(frame, quad, c) for c in range(4)]))
    assert (rank.argmax(axis=1) == NONE).all()


def test_training_samples_are_drawn_reproducibly() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import index_data
    finally:
        sys.path.pop(0)
    x, yr, ys = index_data.make(12, seed=3)
    assert x.shape == (12, INPUT[1], INPUT[0], 3) and x.dtype == np.uint8
    assert ((yr >= 0) & (yr <= NONE)).all()
    assert ((ys == -1) == (yr == NONE)).all()  # a corner with no index has no suit
    again = index_data.make(12, seed=3)
    assert np.array_equal(x, again[0]) and np.array_equal(yr, again[1])


def test_the_hog_reader_is_asked_only_when_enabled_and_the_cnn_is_not_confident(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from controller.vision import index

    frame, quad = _card_frame(face_texture("9d", 6.0)[0], 260.0)
    asked: list[bool] = []
    monkeypatch.setattr(index.hog, "read_code", lambda f, q: asked.append(True) or "2c")
    assert read_code(frame, quad) == "9d" and not asked
    monkeypatch.setattr(index, "_read", lambda f, q, m=None: (None, True))
    monkeypatch.setattr(index, "HOG_FALLBACK", False)  # the precise reader: no guess
    assert read_code(frame, quad) is None and not asked
    monkeypatch.setattr(index, "HOG_FALLBACK", True)  # the default: the HOG reader guesses
    assert read_code(frame, quad) == "2c" and asked
    asked.clear()
    monkeypatch.setattr(index, "_read", lambda f, q, m=None: (None, False))  # no corner shows an index
    assert read_code(frame, quad) is None and not asked


def test_the_hog_reader_is_not_asked_where_no_corner_shows_an_index(monkeypatch: pytest.MonkeyPatch) -> None:
    from controller.vision import index

    back = back_texture(BackDesign(colour="blue", pattern="lattice"), 6.0)[0]
    frame, quad = _card_frame(back, 260.0)
    asked: list[bool] = []
    monkeypatch.setattr(index.hog, "read_code", lambda f, q: asked.append(True) or "2c")
    assert read_code(frame, quad) is None and not asked
    monkeypatch.setattr(index, "SEARCH", False)  # the reader before the eighth round asks it
    assert read_code(frame, quad) == "2c" and asked


@pytest.mark.parametrize("code", ["Kd", "7c", "Ah", "4s"])
def test_single_corners_read_a_quad_that_is_half_the_card(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A quad over the top half of a card only (half of an overlapping pair): its pairs read the index
    stretched twofold and give nothing; its top-left corner read alone at the short side's scale does."""
    from controller.vision import index

    frame, quad = _card_frame(face_texture(code, 6.0)[0], 260.0, angle=25.0)
    half = np.float32([quad[0], quad[1], (quad[1] + quad[2]) / 2, (quad[0] + quad[3]) / 2])
    model = load_model()
    assert model is not None
    got = index._read_pairs(frame, half, model)
    assert got is None or got[0] < index.MIN_CONFIDENCE or got[1] != code
    assert read_cnn(frame, half) == code
    monkeypatch.setattr(index, "SEARCH", False)
    assert read_cnn(frame, half) is None


def test_corner_frames_keep_the_print_unmirrored() -> None:
    from controller.vision.index import corner_frames, frame_crop

    quad = np.float32([[10, 20], [73, 20], [73, 108], [10, 108]])  # upright, 1 px per mm, clockwise
    half = np.float32([[10, 20], [73, 20], [73, 64], [10, 64]])  # its top half
    for q in (quad, quad[::-1].copy(), half, half[::-1].copy()):  # either winding
        frames = corner_frames(q)
        for _corner, ex, ey, _sx, _sy in frames:
            assert ex[0] * ey[1] - ex[1] * ey[0] > 0  # x × y > 0: not mirrored
        tl = [f for f in frames if np.allclose(f[0], (10, 20))]
        # At the top-left corner x runs right along the short side; each side gives a scale: a whole
        # card's agree (1 px/mm), the half card's cut side gives 0.5 px/mm.
        assert all(np.allclose(f[1], (1, 0)) and np.allclose(f[2], (0, 1)) for f in tl)
        whole = q[:, 1].max() > 100
        assert len(frames) == 8
        assert sorted(round(f[3], 3) for f in tl) == ([1.0, 1.0] if whole else [0.5, 1.0])
        assert all(f[3] == f[4] for f in frames)
    frame = np.full((140, 100, 3), 255, np.uint8)
    assert frame_crop(frame, *corner_frames(quad)[0]).shape == (INPUT[1], INPUT[0], 3)


def _real_crops(n_quads: int = 12) -> list[np.ndarray]:
    """Batches of corner crops (pair and single-corner frames) through random card-like quads laid over
    committed real photos: real paper, print, felt and JPEG in every crop."""
    from controller.vision.index import corner_frames, frame_crop

    rng = np.random.default_rng(5)
    out = []
    for path in sorted((ROOT / "tests" / "data" / "vision").glob("*.jpg"))[:6]:
        img = cv2.imread(str(path))
        h, w = img.shape[:2]
        for _ in range(n_quads // 6 + 1):
            long = rng.uniform(0.1, 0.5) * min(h, w)
            c = rng.uniform(0.2, 0.8, 2) * (w, h)
            a = rng.uniform(0, np.pi)
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            box = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (long * 63 / 88 / 2, long / 2)
            q = (box @ rot.T + c + rng.normal(0, 0.02 * long, (4, 2))).astype(np.float32)
            out.append(np.stack([corner_crop(img, q, k) for k in (0, 2)]))
            out.append(np.stack([frame_crop(img, *f) for f in corner_frames(q)]))
    return out


def test_normalise_equals_the_plain_computation_bit_for_bit() -> None:
    from controller.vision.index import normalise_reference

    rng = np.random.default_rng(1)
    batches = _real_crops()
    shape = (INPUT[1], INPUT[0], 3)
    batches += [rng.integers(lo, lo + span, size=(int(rng.integers(1, 9)), *shape), dtype=np.uint8)
                for lo, span in ((0, 256), (100, 3), (0, 1), (250, 6), (30, 60))]
    batches.append(rng.integers(0, 256, size=(2, 7, 5, 3), dtype=np.uint8))  # an odd pixel count
    for b in batches:
        got, ref = normalise(b), normalise_reference(b)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        assert np.array_equal(got, ref)


def test_best_frame_equals_a_loop_keeping_the_first_maximum() -> None:
    from controller.core.cards import RANKS, SUITS
    from controller.vision.index import best_frame

    rng = np.random.default_rng(2)
    for _ in range(300):
        n = int(rng.integers(1, 9))
        rank = rng.dirichlet(np.ones(NONE + 1) * 0.3, n).astype(np.float32)
        suit = rng.dirichlet(np.ones(4), n).astype(np.float32)
        if rng.random() < 0.3:
            rank[int(rng.integers(n))] = rank[0]  # ties: the first frame wins
            suit[int(rng.integers(n))] = suit[0]
        best = None
        for r, s in zip(rank, suit, strict=True):
            if int(np.argmax(r)) == NONE:
                continue
            conf = float(r[:NONE].max() * s.max())
            if best is None or conf > best[0]:
                best = (conf, RANKS[int(np.argmax(r[:NONE]))] + SUITS[int(np.argmax(s))])
        assert best_frame(rank, suit) == best
