"""Rank and suit from a card's corner index with a trained linear model on HOG features (no calibration).

The index is cut out of the card's corner, its print separated from the card's own colour (dark on white
or light on a dark deck alike), the rank (top glyph, "10" as two) and the suit (the glyph below) cropped
to fixed-size bitmaps, and each classified by a softmax over HOG features. The weights come from
scripts/train_glyphs.py (rendered glyphs in many fonts, photo-like augmentation) and are committed in
controller/vision/data/index_model.npz.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from controller.core.cards import RANKS, SUITS

MODEL_PATH = Path(__file__).with_name("data") / "index_model.npz"
PX_MM = 4.0  # the index area is resampled at this many pixels per card millimetre
ROI_MM = (0.5, 0.5, 15.0, 36.0)  # x0, y0, x1, y1 from the corner of a portrait 63 × 88 mm card
CARD_MM = (63.0, 88.0)
GLYPH = (24, 32)  # bitmap (w, h) a glyph is scaled to before HOG
INK_MIN = 40.0  # colour distance from the card's paper that is print at all
MIN_CONFIDENCE = 0.5  # rank × suit probability below which no code is reported
CELL, BINS = 4, 9  # HOG: 4 × 4 px cells, 9 unsigned orientation bins, 2 × 2-cell blocks


@dataclass(frozen=True, slots=True)
class IndexGlyphs:
    rank: np.ndarray  # GLYPH-sized float bitmaps, ink = 1
    suit: np.ndarray


def index_roi(frame: np.ndarray, quad: np.ndarray, corner: int) -> np.ndarray:
    """The index area of corner `corner` (0 = the quad's first corner) resampled to PX_MM."""
    q = np.roll(np.asarray(quad, np.float32), -corner, axis=0)
    w, h = CARD_MM[0] * PX_MM, CARD_MM[1] * PX_MM
    hom = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    x0, y0, x1, y1 = (v * PX_MM for v in ROI_MM)
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(frame, shift @ hom, (round(x1 - x0), round(y1 - y0)), flags=cv2.INTER_LINEAR)


INDEX_COLUMN = 0.72  # print whose centre lies right of this share of the area's width is a pip or a frame
MAX_GAP_SPLIT = (0.35, 0.7)  # where rank and suit touching in one run of rows are cut (share of its height)


def extract(roi: np.ndarray) -> IndexGlyphs | None:
    """Rank and suit bitmaps from an index area (BGR), or None when no index shows there.

    Print is what differs from the area's own (paper) colour. The index is the print in the left column
    (pips and a court's frame lie further right); its rows of ink form the rank on top and the suit under
    it, separated by the first empty row, or, where blur joins them, at the thinnest row between.
    """
    px = roi.reshape(-1, 3).astype(np.int16)
    paper = np.median(px, axis=0).astype(np.int16)  # the index area is mostly the card's own colour
    dist = np.abs(roi.astype(np.int16) - paper).max(axis=2).astype(np.float32)
    top = float(np.percentile(dist, 99))
    if top < INK_MIN:
        return None
    ink = (dist > max(INK_MIN * 0.75, 0.4 * top)).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    h, w = ink.shape
    min_area = 0.004 * w * h
    keep = [i for i in range(1, n)
            if stats[i][4] >= min_area and stats[i][0] > 0 and stats[i][1] > 0  # felt past the card edge
            and cents[i][0] < INDEX_COLUMN * w and stats[i][3] < 0.8 * h]
    if not keep:
        return None
    mask = np.isin(labels, keep)
    rows = _runs(mask.any(axis=1))
    if not rows:
        return None
    if len(rows) >= 2:
        rank_rows, suit_rows = rows[0], rows[1]
    else:
        a, b = rows[0]
        if b - a < 0.25 * h:
            return None  # one short run: a glyph alone, not an index
        prof = mask[a:b].sum(axis=1)
        lo, hi = a + round(MAX_GAP_SPLIT[0] * (b - a)), a + round(MAX_GAP_SPLIT[1] * (b - a))
        cut = lo + int(np.argmin(prof[lo - a:hi - a]))
        rank_rows, suit_rows = (a, cut), (cut + 1, b)
    soft = np.clip(dist / max(top, 1.0), 0, 1) * mask
    rank = _crop(soft, rank_rows)
    suit = _crop(soft, suit_rows)
    if rank is None or suit is None:
        return None
    return IndexGlyphs(rank=rank, suit=suit)


def _runs(on: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each run of True rows, runs of one row dropped (specks, JPEG ringing)."""
    d = np.diff(np.concatenate([[0], on.astype(np.int8), [0]]))
    starts, ends = np.nonzero(d == 1)[0], np.nonzero(d == -1)[0]
    return [(int(s), int(e)) for s, e in zip(starts, ends, strict=True) if e - s > 1]


def _crop(soft: np.ndarray, rows: tuple[int, int]) -> np.ndarray | None:
    band = soft[rows[0]:rows[1]]
    cols = np.nonzero(band.max(axis=0) > 0)[0]
    if len(cols) < 2:
        return None
    crop = band[:, cols[0]:cols[-1] + 1]
    return cv2.resize(crop.astype(np.float32), GLYPH, interpolation=cv2.INTER_AREA)


def features(bitmap: np.ndarray) -> np.ndarray:
    """HOG (block-normalised orientation histograms) plus the glyph at quarter size.

    Written out here because this OpenCV build has no HOGDescriptor; a few dozen microseconds a glyph.
    """
    img = np.asarray(bitmap, np.float32)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=1)
    mag = np.hypot(gx, gy)
    b = (np.arctan2(gy, gx) % np.pi * (BINS / np.pi)).astype(np.int32) % BINS
    h, w = img.shape
    ch, cw = h // CELL, w // CELL
    cell = (np.arange(h)[:, None] // CELL * cw + np.arange(w)[None, :] // CELL)
    hist = np.bincount((cell * BINS + b).ravel(), weights=mag.ravel(), minlength=ch * cw * BINS)
    hist = hist.reshape(ch, cw, BINS)
    blocks = np.concatenate([hist[:-1, :-1], hist[1:, :-1], hist[:-1, 1:], hist[1:, 1:]], axis=2)
    blocks /= np.sqrt((blocks * blocks).sum(axis=2, keepdims=True)) + 1e-3
    small = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return np.concatenate([blocks.ravel(), small.ravel()]).astype(np.float32)


@dataclass(frozen=True, slots=True)
class IndexModel:
    """Two softmax layers (weights with a bias row) over HOG features, and the feature standardisation."""

    rank_w: np.ndarray
    suit_w: np.ndarray
    mean: np.ndarray
    scale: np.ndarray

    def probs(self, g: IndexGlyphs) -> tuple[np.ndarray, np.ndarray]:
        return self._softmax(g.rank, self.rank_w), self._softmax(g.suit, self.suit_w)

    def _softmax(self, bitmap: np.ndarray, w: np.ndarray) -> np.ndarray:
        x = (features(bitmap) - self.mean) / self.scale
        z = x @ w[:-1] + w[-1]
        e = np.exp(z - z.max())
        return np.asarray(e / e.sum())

    def save(self, path: Path) -> None:
        np.savez_compressed(path, rank_w=self.rank_w.astype(np.float16),
                            suit_w=self.suit_w.astype(np.float16), mean=self.mean.astype(np.float32),
                            scale=self.scale.astype(np.float32))


@functools.lru_cache(maxsize=1)
def load_model(path: Path = MODEL_PATH) -> IndexModel | None:
    """The committed model, or None when the file is missing (then no codes are read)."""
    if not path.exists():
        return None
    with np.load(path) as d:
        return IndexModel(rank_w=d["rank_w"].astype(np.float32), suit_w=d["suit_w"].astype(np.float32),
                          mean=d["mean"], scale=d["scale"])


class ReadCache:
    """Codes of cards already read, so a video reads only new or changed cards: a card is the same when
    its corners moved less than `MOVE` px and its 16×22 grey thumbnail differs by less than `CHANGE` grey
    levels on average (a card turned, swapped or uncovered changes it)."""

    MOVE, CHANGE, SIZE = 4.0, 8.0, 64

    def __init__(self) -> None:
        self._items: list[tuple[np.ndarray, np.ndarray, str | None]] = []
        self.hits = self.misses = 0

    def clear(self) -> None:
        """Forget every card (unrelated images: a bench must not carry reads from one to the next)."""
        self._items.clear()

    def read(self, frame: np.ndarray, quad: np.ndarray, model: IndexModel | None = None) -> str | None:
        q = np.asarray(quad, np.float32)
        w, h = 16, 22
        hom = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
        thumb = cv2.cvtColor(cv2.warpPerspective(frame, hom, (w, h), flags=cv2.INTER_AREA),
                             cv2.COLOR_BGR2GRAY).astype(np.float32)
        for i, (cq, ct, code) in enumerate(self._items):
            if float(np.abs(cq - q).max()) < self.MOVE and float(np.abs(ct - thumb).mean()) < self.CHANGE:
                self.hits += 1
                self._items.append(self._items.pop(i))  # most recently used last
                return code
        self.misses += 1
        code = read_code(frame, q, model)
        self._items.append((q, thumb, code))
        del self._items[:-self.SIZE]
        return code


def read_code(frame: np.ndarray, quad: np.ndarray, model: IndexModel | None = None) -> str | None:
    """The card code read from its index corners, or None when no reading is confident.

    The two index corners of a portrait card (0 and 2) vote together; when they give no confident code the
    other pair is tried: it covers a card whose long side the photo shows shorter (stretched images, steep
    perspective).
    """
    model = model or load_model()
    if model is None:
        return None
    best: tuple[float, str] | None = None
    for pair in ((0, 2), (1, 3)):
        rp = np.zeros(len(RANKS), np.float32)
        sp = np.zeros(len(SUITS), np.float32)
        seen = 0
        for corner in pair:
            g = extract(index_roi(frame, quad, corner))
            if g is None:
                continue
            r, s = model.probs(g)
            # The rank head's last class is "no index here" (a pip, a court's picture): such a corner
            # does not vote.
            if len(r) > len(RANKS) and int(np.argmax(r)) == len(RANKS):
                continue
            r, s = r[:len(RANKS)], s[:len(SUITS)]
            rp += r / max(float(r.sum()), 1e-6)
            sp += s / max(float(s.sum()), 1e-6)
            seen += 1
        if not seen:
            continue
        rp /= seen
        sp /= seen
        conf = float(rp.max() * sp.max())
        code = RANKS[int(np.argmax(rp))] + SUITS[int(np.argmax(sp))]
        if pair == (0, 2) and conf >= MIN_CONFIDENCE:
            # The portrait order puts the index on corners 0 and 2: a confident read there stands. The
            # other pair is only the fallback for a card whose long side the photo shows shorter (a
            # court's frame and picture in those corners can look like a "7" over a club).
            return code
        if best is None or conf > best[0]:
            best = (conf, code)
    return best[1] if best is not None and best[0] >= MIN_CONFIDENCE else None
