"""Rank and suit from a card's corner index with a small trained CNN (ONNX, run by OpenCV's dnn module).

No calibration: each index corner of a found card is cut out in card millimetres (a fixed area that holds
the index of any deck, with a margin for a quad a few millimetres off), normalised against the card's own
paper colour, and classified by one network with two heads: rank (13 ranks and "no index here") and suit.
The weights come from scripts/train_index.py (rendered card corners in many fonts and deck styles, with
photo-like damage, and labelled real corners of vision-dev's half A) and are committed in
controller/vision/data/index_cnn.onnx. Where the CNN is not confident no code is reported; the third
round's HOG reader (hog.py) is asked instead (HOG_FALLBACK; docs/camera.md, "Seventh round").
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from controller.core.cards import RANKS, SUITS
from controller.vision import hog

MODEL_PATH = Path(__file__).with_name("data") / "index_cnn.onnx"
CARD_MM = (63.0, 88.0)
# The corner area read, x0, y0, x1, y1 in mm from the corner of a portrait card: every deck's index (small
# or jumbo) lies inside, with 1.5 mm outside the quad's edge for a quad found a little inside the card.
ROI_MM = (-1.5, -1.5, 18.5, 38.5)
PX_MM = 2.0  # the network's input resolution, px per card mm
INPUT = (round((ROI_MM[2] - ROI_MM[0]) * PX_MM), round((ROI_MM[3] - ROI_MM[1]) * PX_MM))  # (w, h)
NONE = len(RANKS)  # the rank head's last class: no index in this corner
MIN_CONFIDENCE = 0.5  # rank × suit probability below which no code is reported


def corner_crop(frame: np.ndarray, quad: np.ndarray, corner: int) -> np.ndarray:
    """The index area of corner `corner` (0 = the quad's first corner) as INPUT-sized BGR.

    Where the photo has more pixels per mm than the network reads, the area is warped at a multiple of
    the input size and shrunk by area averaging: a plain warp would skip pixels and alias thin strokes.
    """
    q = np.roll(np.asarray(quad, np.float32), -corner, axis=0)
    w, h = CARD_MM
    hom = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    side = float(np.hypot(*(q[1] - q[0])) + np.hypot(*(q[3] - q[0]))) / (w + h)  # frame px per mm
    k = int(np.clip(np.ceil(side / PX_MM), 1, 4))
    s = PX_MM * k
    to_roi = np.array([[s, 0, -ROI_MM[0] * s], [0, s, -ROI_MM[1] * s], [0, 0, 1]], np.float64) @ hom
    out = cv2.warpPerspective(frame, to_roi, (INPUT[0] * k, INPUT[1] * k), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return out if k == 1 else cv2.resize(out, INPUT, interpolation=cv2.INTER_AREA)


def normalise(crops: np.ndarray) -> np.ndarray:
    """N×H×W×3 uint8 → N×3×H×W float: each channel less its median (the paper: a cast of the room's light
    cancels, a dark deck and a white one both put paper at 0), divided by one scale for all channels (the
    print's strength: the 98th percentile of |pixel - median| over the crop), so red and black print stay
    apart by the differences between channels.

    Computed from each channel's 256-bin histogram (crops are uint8): the median and the percentile are
    exact order statistics of the histograms, and every output value is a look-up in a per-channel table
    made with the same float32 arithmetic as (x - median) / scale, so the result equals the plain
    computation (normalise_reference) bit for bit at a tenth of its cost (no sorts, one pass)."""
    n, h, w, c = crops.shape
    if n == 0:
        return np.zeros((0, c, h, w), np.float32)
    hw = h * w
    chw = np.ascontiguousarray(crops.transpose(0, 3, 1, 2))  # N×3×H×W uint8
    # One histogram per crop and channel: each pixel's value offset by 256 × (crop, channel).
    base = (np.arange(n * c, dtype=np.uint16) * 256).reshape(n, c, 1, 1)
    hist = np.bincount((chw + base).ravel(), minlength=n * c * 256).reshape(n, c, 256)
    cum = hist.cumsum(axis=2)
    # np.median of an even count is the mean of the middle two order statistics (0-based hw//2 - 1 and
    # hw//2; of an odd count both are the middle one); the v-th = the first value whose count exceeds v.
    lo = (cum <= (hw - 1) // 2).sum(axis=2)
    hi = (cum <= hw // 2).sum(axis=2)
    med = (lo + hi).astype(np.float32) / np.float32(2)  # N×3, exact: halves of small integers
    # |x - med| doubled is an integer 0..510: its k-th order statistic over all channels of a crop from
    # the channels' histograms, each value's count put at its distance from the channel's median.
    vals = np.arange(256, dtype=np.float32)
    dev2 = np.abs(2 * vals[None, None, :] - 2 * med[:, :, None]).astype(np.intp)
    dev2 += (np.arange(n, dtype=np.intp) * 511)[:, None, None]
    dev_hist = np.bincount(dev2.ravel(), weights=hist.ravel(), minlength=n * 511).reshape(n, 511)
    k = int(0.98 * (hw * c - 1))
    scale = (np.cumsum(dev_hist, axis=1) <= k).sum(axis=1).astype(np.float32) / np.float32(2)
    lut = (vals[None, None, :] - med[:, :, None]) / np.maximum(scale, 16.0)[:, None, None]  # N×3×256
    out = np.empty((n, c, h, w), np.float32)
    for i in range(n):
        for j in range(c):
            cv2.LUT(chw[i, j], lut[i, j], dst=out[i, j])
    return out


def normalise_reference(crops: np.ndarray) -> np.ndarray:
    """normalise written plainly (sorts over the pixels): kept to prove the fast one equal (tests)."""
    x = crops.astype(np.float32)
    n = len(x)
    med = np.median(x.reshape(n, -1, 3), axis=1)
    x -= med[:, None, None, :]
    flat = np.abs(x).reshape(n, -1)
    k = int(0.98 * (flat.shape[1] - 1))
    scale = np.partition(flat, k, axis=1)[:, k]
    x /= np.maximum(scale, 16.0)[:, None, None, None]
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


class IndexNet:
    """The ONNX network: input N×3×H×W (normalise), output N×(14 + 4) probabilities (rank incl. none,
    suit)."""

    def __init__(self, path: Path) -> None:
        self.net = cv2.dnn.readNetFromONNX(str(path))

    def probs(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.net.setInput(normalise(crops))
        out = np.asarray(self.net.forward(), np.float32)
        return out[:, :NONE + 1], out[:, NONE + 1:]


@functools.lru_cache(maxsize=2)
def load_model(path: Path = MODEL_PATH) -> IndexNet | None:
    """The committed model, or None when the file is missing (then no codes are read)."""
    return IndexNet(path) if path.exists() else None


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

    def read(self, frame: np.ndarray, quad: np.ndarray, model: IndexNet | None = None) -> str | None:
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


def read_code(frame: np.ndarray, quad: np.ndarray, model: IndexNet | None = None) -> str | None:
    """The card code read from its index corners, or None when no reading is confident.

    The CNN first: the two index corners of a portrait card (0 and 2) vote together; when they give no
    confident code, every corner is read alone in its own frame at the scale of either side, all eight
    frames in one batch (corner_frames: a quad that is not the whole card, half of an overlapping pair;
    a card whose long side a stretched photo shows shorter). When the CNN gives no confident code, the
    HOG reader (hog.py) is asked if HOG_FALLBACK is set — but only where the CNN's best guess for some
    corner frame is an index: where every frame's is "no index here" (a court's picture, a fragment of
    a card under others, a back) the HOG reader's codes were misreads on every set measured. With
    SEARCH off (the reader before the eighth round), the other pair (1, 3) and then the quad grown by
    hog.GROW on every side are read instead, and the HOG reader is asked whenever the CNN gives no code.
    """
    q = np.asarray(quad, np.float32)
    code, seen = _read(frame, q, model)
    return code if code is not None or not HOG_FALLBACK or not seen else hog.read_code(frame, q)


# Where the CNN is not confident, the HOG reader (hog.py) guesses. It reads more cards of real photos
# (vision-dev 63.0 -> 71.7 % with the retrained CNN) at the price of precision (8 -> 37 wrong codes of
# ~136): the measure counts cards read, so it stays on; `False` gives the precise reader
# (docs/camera.md, "Seventh round": the trade-off measured both ways). Since the eighth round it is not
# asked where no corner frame shows an index (read_code; 35 -> 23 wrong codes, no card read fewer).
HOG_FALLBACK = True


def read_cnn(frame: np.ndarray, quad: np.ndarray, model: IndexNet | None = None) -> str | None:
    """The CNN's code alone (None when not confident): the portrait pair, then the single corners."""
    return _read(frame, np.asarray(quad, np.float32), model)[0]


def _read(frame: np.ndarray, q: np.ndarray, model: IndexNet | None) -> tuple[str | None, bool]:
    """(the CNN's code or None, whether an index may show: False when the single corners were read and
    every frame's best rank class was "no index here"; True when they were not read)."""
    model = model or load_model()
    if model is None:
        return None, True
    net = model
    if not SEARCH:
        return hog.read_grown(q, lambda g: _read_pairs(frame, g, net), MIN_CONFIDENCE), True
    got = _read_pairs(frame, q, net, ((0, 2),))
    if got is not None and got[0] >= MIN_CONFIDENCE:
        return got[1], True
    got, seen = _read_corners(frame, q, net)
    return (got[1] if got is not None and got[0] >= MIN_CONFIDENCE else None), seen


# Where the portrait pair gives no confident code, each corner is read alone in its own frames
# (docs/camera.md, "Eighth round"); `False` reads the other pair and the grown quad instead.
SEARCH = True


def corner_frames(quad: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]:
    """For every corner of the quad, the card frames an index there could be read in: (corner, x unit
    vector, y unit vector, px per mm along x, along y).

    The finder's quad is not always the card: half a card of an overlapping pair, a card and the strip of
    the one under it, a card cut short by a pile's edge. Such a quad still has one or more of the card's
    own corners with the card's two edges running from it, and the index lies in that corner's frame;
    only the scale the whole quad gives is wrong. So each corner is taken alone: x runs along the edge
    that keeps the print unmirrored (x × y > 0 in image axes, y down: a face-up card's index corner seen
    from above), y along the other. The scale is either side's alone, taken for both directions (x side =
    63 mm or y side = 88 mm; the other side may be cut short or run on into the next card). On a whole
    card the two frames of a corner are the same area at slightly different scales, read alone (a pair's
    vote can be dragged below the bar by a blurred or half-covered second corner); on a card whose long
    side a stretched photo shows shorter, corners 1 and 3 read in these frames stand in for the second
    pair of earlier rounds."""
    q = np.asarray(quad, np.float32)
    out = []
    for k in range(4):
        a, b = q[(k + 1) % 4] - q[k], q[k - 1] - q[k]
        la, lb = float(np.hypot(*a)), float(np.hypot(*b))
        if la < 1 or lb < 1:
            continue
        if a[0] * b[1] - a[1] * b[0] > 0:
            ex, ey, lx, ly = a / la, b / lb, la, lb
        else:
            ex, ey, lx, ly = b / lb, a / la, lb, la
        sx, sy = lx / CARD_MM[0], ly / CARD_MM[1]  # px per mm
        out += [(q[k], ex, ey, sx, sx), (q[k], ex, ey, sy, sy)]
    return out


def frame_crop(frame: np.ndarray, corner: np.ndarray, ex: np.ndarray, ey: np.ndarray, sx: float, sy: float
               ) -> np.ndarray:
    """The index area (ROI_MM) of a card frame (corner_frames) as INPUT-sized BGR, warped as corner_crop
    does (a multiple of the input size, shrunk by area averaging, where the photo has more pixels)."""
    k = int(np.clip(np.ceil(max(sx, sy) / PX_MM), 1, 4))
    s = PX_MM * k
    # Output pixel (u, v) is card point (u / s + x0, v / s + y0) mm: corner + ex·sx·X + ey·sy·Y.
    m = np.empty((2, 3), np.float64)
    m[:, 0] = ex * sx / s
    m[:, 1] = ey * sy / s
    m[:, 2] = corner + ex * sx * ROI_MM[0] + ey * sy * ROI_MM[1]
    out = cv2.warpAffine(frame, m, (INPUT[0] * k, INPUT[1] * k),
                         flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return out if k == 1 else cv2.resize(out, INPUT, interpolation=cv2.INTER_AREA)


def _read_corners(frame: np.ndarray, quad: np.ndarray, model: IndexNet
                  ) -> tuple[tuple[float, str] | None, bool]:
    """((confidence, code) of the most confident single corner frame that shows an index, or None; whether
    any frame shows one): all frames (corner_frames) in one batch."""
    frames = corner_frames(quad)
    if not frames:
        return None, False
    best = best_frame(*model.probs(np.stack([frame_crop(frame, *f) for f in frames])))
    return best, best is not None


def best_frame(rank: np.ndarray, suit: np.ndarray) -> tuple[float, str] | None:
    """(confidence, code) of the first of the most confident frames whose best rank class is an index
    (rank × suit probability), or None when no frame shows one."""
    shows = np.argmax(rank, axis=1) != NONE
    if not shows.any():
        return None
    conf = np.where(shows, rank[:, :NONE].max(axis=1) * suit.max(axis=1), -np.inf)
    i = int(np.argmax(conf))  # the first maximum, as a loop keeping the first
    return float(conf[i]), RANKS[int(np.argmax(rank[i, :NONE]))] + SUITS[int(np.argmax(suit[i]))]


def _read_pairs(frame: np.ndarray, quad: np.ndarray, model: IndexNet,
                pairs: tuple[tuple[int, int], ...] = ((0, 2), (1, 3))) -> tuple[float, str] | None:
    """(confidence, code) of the best corner pair, the portrait pair (0, 2) first."""
    best: tuple[float, str] | None = None
    for pair in pairs:
        rank, suit = model.probs(np.stack([corner_crop(frame, quad, c) for c in pair]))
        got = combine(rank, suit)
        if got is None:
            continue
        if pair == (0, 2) and got[0] >= MIN_CONFIDENCE:
            # The portrait order puts the index on corners 0 and 2: a confident read there stands. The
            # other pair is only the fallback for a card whose long side the photo shows shorter.
            return got
        if best is None or got[0] > best[0]:
            best = got
    return best


def combine(rank: np.ndarray, suit: np.ndarray) -> tuple[float, str] | None:
    """(confidence, code) from the corners of one pair: a corner whose best rank class is "no index here"
    (a pip, a court's picture, an index seen sideways) does not vote; the others average."""
    votes = [i for i in range(len(rank)) if int(np.argmax(rank[i])) != NONE]
    if not votes:
        return None
    r = rank[votes, :NONE]
    r = (r / np.maximum(r.sum(axis=1, keepdims=True), 1e-6)).mean(axis=0)
    s = suit[votes].mean(axis=0)
    code = RANKS[int(np.argmax(r))] + SUITS[int(np.argmax(s))]
    return float(r.max() * s.max()), code
