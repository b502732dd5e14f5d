"""Rank and suit from a corner index with a linear model on HOG features: the fallback of index.py's CNN.

The third round's reader (issue #18), kept because on the vision-dev photos it still reads cards the
CNN leaves unread (the gold-on-black deck's 5-6 px indices above all); index.read_code asks it only when
the CNN reports no confident code.

The index is cut out of the card's corner, its print separated from the card's own colour (dark on white
or light on a dark deck alike), the rank (top glyph, "10" as two) and the suit (the glyph below) cropped
to fixed-size bitmaps, and each classified by a softmax over HOG features. The weights come from
scripts/train_glyphs.py (rendered glyphs in many fonts, photo-like augmentation) and are committed in
controller/vision/data/index_model.npz.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
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
INK_SHARE = 0.4  # of the area's strongest print: a pixel this far from the paper is surely print
WEAK_SHARE = 0.25  # ... and one this far is print when joined to a sure one (a faint, blurred stroke)
GAP_ROWS = 2  # empty rows (0.5 mm) inside one glyph; rank and suit lie further apart
MIN_CONFIDENCE = 0.5  # rank × suit probability below which no code is reported
CELL, BINS = 4, 9  # HOG: 4 × 4 px cells, 9 unsigned orientation bins, 2 × 2-cell blocks


@dataclass(frozen=True, slots=True)
class IndexGlyphs:
    rank: np.ndarray  # GLYPH-sized float bitmaps, ink = 1
    suit: np.ndarray
    warmth: float = 0.0  # colour of the print against the paper (ink_warmth): red/gold high, black/silver low
    whole: np.ndarray | None = None  # WHOLE-sized bitmap of the index, rank over suit (no cut to get wrong)

    def heads_x(self) -> tuple[np.ndarray, np.ndarray]:
        """Features of the rank and the suit head: each glyph's, then the whole index's (computed once)."""
        if self.whole is None:
            return features(self.rank), features(self.suit)
        w = features(self.whole)
        return np.concatenate([features(self.rank), w]), np.concatenate([features(self.suit), w])


WHOLE = (24, 48)  # the whole index's bitmap (w, h)


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

    The area is uint8, so the paper's median and the print's 99th percentile are order statistics of
    256-bin histograms and the distance from the paper one table look-up per channel: the same values as
    extract_reference's sorts and int16 arithmetic, several times cheaper.
    """
    paper = _paper(roi)
    lut = np.abs(np.arange(256, dtype=np.int16)[:, None] - paper[None, :]).astype(np.uint8)
    d3 = cv2.LUT(roi, lut.reshape(256, 1, 3))
    d8 = np.maximum(np.maximum(d3[..., 0], d3[..., 1]), d3[..., 2])  # max |channel - paper|, 0..255
    top = float(_order_stat(np.bincount(d8.ravel(), minlength=256), int(0.99 * (d8.size - 1))))
    if top < INK_MIN:
        return None
    dist = d8.astype(np.float32)
    ink = _hysteresis(dist, max(INK_MIN * 0.75, INK_SHARE * top), max(INK_MIN * 0.5, WEAK_SHARE * top))
    _, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    h, w = ink.shape
    min_area = 0.004 * w * h
    ok = ((stats[1:, 4] >= min_area) & (stats[1:, 0] > 0) & (stats[1:, 1] > 0)  # felt past the card edge
          & (cents[1:, 0] < INDEX_COLUMN * w) & (stats[1:, 3] < 0.8 * h))
    if not ok.any():
        return None
    mask = np.concatenate([[False], ok])[labels]
    return _glyphs(roi, paper, dist, top, mask, h)


def _paper(roi: np.ndarray) -> np.ndarray:
    """The median colour of every third pixel (as np.median(...).astype(int16): the two middle values'
    mean, truncated), per channel from one histogram of the three channels (values offset by 256 each)."""
    px = roi.reshape(-1, 3)[::3]
    m = len(px)
    cum = np.bincount((px + _CHANNEL_OFFSET).ravel(), minlength=768).reshape(3, 256).cumsum(axis=1)
    lo = (cum <= (m - 1) // 2).sum(axis=1)
    hi = (cum <= m // 2).sum(axis=1)
    return ((lo + hi) // 2).astype(np.int16)


_CHANNEL_OFFSET = np.array([0, 256, 512], np.uint16)


def _order_stat(hist: np.ndarray, k: int) -> int:
    """The k-th smallest value (0-based) of the values a histogram counts."""
    return int(np.searchsorted(np.cumsum(hist), k, side="right"))


def _glyphs(roi: np.ndarray, paper: np.ndarray, dist: np.ndarray, top: float, mask: np.ndarray, h: int
            ) -> IndexGlyphs | None:
    """The rank and suit bitmaps of the print `mask` keeps (extract's second half)."""
    rows = _merge_gaps(_runs(mask.any(axis=1)), GAP_ROWS)
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
    core = mask & (dist > 0.6 * top)  # the strokes' middle: blur and JPEG chroma bleed least there
    whole = _crop(soft, (rank_rows[0], suit_rows[1]), WHOLE)
    return IndexGlyphs(rank=rank, suit=suit, warmth=ink_warmth(roi[core], paper), whole=whole)


def extract_reference(roi: np.ndarray) -> IndexGlyphs | None:
    """extract written plainly (sorts and per-pixel reductions over the area): kept to prove the fast one
    equal (tests)."""
    # The index area is mostly the card's own colour: its median (of every third pixel: speed) is paper.
    paper = np.median(roi.reshape(-1, 3)[::3], axis=0).astype(np.int16)
    dist = np.abs(roi.astype(np.int16) - paper).max(axis=2).astype(np.float32)
    top = _top_percent(dist)
    if top < INK_MIN:
        return None
    ink = _hysteresis(dist, max(INK_MIN * 0.75, INK_SHARE * top), max(INK_MIN * 0.5, WEAK_SHARE * top))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    h, w = ink.shape
    min_area = 0.004 * w * h
    keep = [i for i in range(1, n)
            if stats[i][4] >= min_area and stats[i][0] > 0 and stats[i][1] > 0  # felt past the card edge
            and cents[i][0] < INDEX_COLUMN * w and stats[i][3] < 0.8 * h]
    if not keep:
        return None
    mask = np.isin(labels, keep)
    return _glyphs(roi, paper, dist, top, mask, h)  # the second half is shared: only the first changed


# Suit colour from the print's colour (issue #18): red print on white paper and gold print on a dark deck
# differ from the paper unevenly across the channels; black on white and silver on a dark deck differ
# evenly. Measured on the tuning half of ../shared/vision-dev: black/silver 0.00-0.10 mostly (warm room
# light on a dark deck up to ~0.22), red/gold 0.26-1.1 (pale, JPEG-blurred red on white lowest); only the
# clear ends decide, the middle leaves the suit to the glyph.
BLACK_BELOW, RED_ABOVE = 0.10, 0.32


def ink_warmth(ink: np.ndarray, paper: np.ndarray) -> float:
    """How unevenly the mean print colour differs from the paper across B, G, R: (max - min) / max |d|.
    On light paper d is the share of light the print absorbs per channel (1 - ink / paper), so a cast of
    the room's light, which tints paper and print alike, cancels; on a dark deck it is ink - paper."""
    if len(ink) == 0:
        return 0.0
    mean = ink.reshape(-1, 3).astype(np.float32).mean(axis=0)
    p = paper.astype(np.float32)
    d = 1.0 - mean / p if float(p.min()) > LIGHT_PAPER else mean - p
    return float((d.max() - d.min()) / max(float(np.abs(d).max()), 1e-3))


LIGHT_PAPER = 80.0  # grey level of the darkest channel above which the paper is light (a white deck)


def suit_colour_prior(warmth: float) -> np.ndarray:
    """Weights for SUITS (c, d, h, s): a clearly black print rules out the red suits and vice versa."""
    red = np.array([s in "dh" for s in SUITS])
    if warmth < BLACK_BELOW:
        return np.where(red, 0.0, 1.0).astype(np.float32)
    if warmth > RED_ABOVE:
        return np.where(red, 1.0, 0.0).astype(np.float32)
    return np.ones(len(SUITS), np.float32)


def _top_percent(dist: np.ndarray) -> float:
    """The 99th percentile of `dist` (its strongest print), by a partial sort (np.percentile sorts more)."""
    flat = dist.ravel()
    k = min(len(flat) - 1, int(0.99 * (len(flat) - 1)))
    return float(np.partition(flat, k)[k])


def _hysteresis(dist: np.ndarray, strong: float, weak: float) -> np.ndarray:
    """Print: pixels above `weak` connected to one above `strong`. A thin, blurred stroke (the neck of a
    "5", the bar of a "4") falls below the strong cut and split the glyph in two, which then read as a
    rank and a suit; noise above the weak cut alone is not print."""
    n, labels = cv2.connectedComponents((dist > weak).astype(np.uint8), connectivity=8)
    hit = np.zeros(n, bool)
    hit[labels[dist > strong]] = True
    hit[0] = False
    return np.asarray(hit[labels], np.uint8)


def _merge_gaps(rows: list[tuple[int, int]], gap: int) -> list[tuple[int, int]]:
    """Runs of ink rows joined across gaps of at most `gap` rows (a glyph broken by a faint stroke);
    the rank and the suit of an index lie further apart."""
    out: list[tuple[int, int]] = []
    for a, b in rows:
        if out and a - out[-1][1] <= gap:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _runs(on: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each run of True rows, runs of one row dropped (specks, JPEG ringing)."""
    d = np.diff(np.concatenate([[0], on.astype(np.int8), [0]]))
    starts, ends = np.nonzero(d == 1)[0], np.nonzero(d == -1)[0]
    return [(int(s), int(e)) for s, e in zip(starts, ends, strict=True) if e - s > 1]


def _crop(soft: np.ndarray, rows: tuple[int, int], size: tuple[int, int] = GLYPH) -> np.ndarray | None:
    band = soft[rows[0]:rows[1]]
    cols = np.nonzero(band.max(axis=0) > 0)[0]
    if len(cols) < 2:
        return None
    crop = band[:, cols[0]:cols[-1] + 1]
    return cv2.resize(crop.astype(np.float32), size, interpolation=cv2.INTER_AREA)


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
    """Per head (rank, suit) a softmax layer (weights with a bias row) over HOG features, optionally after
    one hidden ReLU layer (`rank_h`, `suit_h`, also with a bias row), and the feature standardisation."""

    rank_w: np.ndarray
    suit_w: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    rank_h: np.ndarray | None = None
    suit_h: np.ndarray | None = None

    def probs(self, g: IndexGlyphs) -> tuple[np.ndarray, np.ndarray]:
        rx, sx = g.heads_x()
        if len(rx) != len(self.mean):  # a model trained on the glyphs alone
            rx, sx = features(g.rank), features(g.suit)
        return self._softmax(rx, self.rank_w, self.rank_h), self._softmax(sx, self.suit_w, self.suit_h)

    def _softmax(self, feats: np.ndarray, w: np.ndarray, hidden: np.ndarray | None) -> np.ndarray:
        x = (feats - self.mean) / self.scale
        if hidden is not None:
            x = np.maximum(x @ hidden[:-1] + hidden[-1], 0.0)
        z = x @ w[:-1] + w[-1]
        e = np.exp(z - z.max())
        return np.asarray(e / e.sum())

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {
            "rank_w": self.rank_w.astype(np.float16), "suit_w": self.suit_w.astype(np.float16),
            "mean": self.mean.astype(np.float32), "scale": self.scale.astype(np.float32)}
        for k, v in (("rank_h", self.rank_h), ("suit_h", self.suit_h)):
            if v is not None:
                arrays[k] = v.astype(np.float16)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=1)
def load_model(path: Path = MODEL_PATH) -> IndexModel | None:
    """The committed model, or None when the file is missing (then no codes are read)."""
    if not path.exists():
        return None
    with np.load(path) as d:
        hid = {k: d[k].astype(np.float32) for k in ("rank_h", "suit_h") if k in d}
        return IndexModel(rank_w=d["rank_w"].astype(np.float32), suit_w=d["suit_w"].astype(np.float32),
                          mean=d["mean"], scale=d["scale"], **hid)


def read_code(frame: np.ndarray, quad: np.ndarray, model: IndexModel | None = None) -> str | None:
    """The card code read from its index corners, or None when no reading is confident.

    The two index corners of a portrait card (0 and 2) vote together; when they give no confident code the
    other pair is tried: it covers a card whose long side the photo shows shorter (stretched images, steep
    perspective). When neither does, the quad grown by GROW on every side is read the same way: a quad a
    few millimetres inside the card's true edge cuts the index at the area's border, where print is taken
    for the table beyond the card and dropped.
    """
    model = model or load_model()
    if model is None:
        return None
    return read_grown(np.asarray(quad, np.float32), lambda q: _read_pairs(frame, q, model))


def read_grown(quad: np.ndarray, read: Callable[[np.ndarray], tuple[float, str] | None],
               bar: float = MIN_CONFIDENCE) -> str | None:
    """`read(quad)` → (confidence, code); when not confident, read the quad grown by GROW on every side
    too and keep the more confident; the code when it reaches `bar` (shared with index.py's CNN)."""
    best = read(quad)
    if (best is None or best[0] < bar) and GROW > 0:
        centre = quad.mean(axis=0)
        grown = read(centre + (quad - centre) * (1.0 + 2.0 * GROW))
        if grown is not None and (best is None or grown[0] > best[0]):
            best = grown
    return best[1] if best is not None and best[0] >= bar else None


GROW = 0.03  # share of the card's size added on each side for the second look


def _read_pairs(frame: np.ndarray, quad: np.ndarray, model: IndexModel) -> tuple[float, str] | None:
    """(confidence, code) of the best corner pair, the portrait pair (0, 2) first."""
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
            r, s = r[:len(RANKS)], s[:len(SUITS)] * suit_colour_prior(g.warmth)
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
            return conf, code
        if best is None or conf > best[0]:
            best = (conf, code)
    return best
