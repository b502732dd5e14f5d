"""Card detection in an overhead frame: card regions, face up/down, board count, rank and suit from glyphs."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from controller.vision.glyphs import GlyphSet, quantile, read_index

CARD_ASPECT = 88.0 / 63.0
WORK_WIDTH = 640  # segmentation runs at this width; polygons are scaled back to the frame
FALLBACK_LONG = 0.117  # card long side as a fraction of frame height when nothing else tells the size
GENERIC_UP_THRESHOLD = 0.3  # paper fraction above which a card is face up, without a learned back
CANON = (50, 70)  # canonical card size (px) for face classification
_OPEN_K = np.ones((4, 4), np.uint8)  # opens away lines thinner than a card border
MIN_VISIBLE = 0.12  # cards whose interior is less visible than this are not reported
ORIENTATION_MARGIN = 0.1  # edge evidence by which one orientation of a corner proposal beats the other
CUT = 0.21  # outline edges shorter than this (× short side) are rounded card corners
IMPURITY_COST = 0.05  # per card whose own part (not under another) is half face, half back
SAME_CARD = 0.25  # refined quads whose centres are closer than this (× short side) are one card
UNCOVERED_MM = 9.0  # a band of paper wider than this (mm) outside every card found is a face, not a border
UNCOVERED_AREA = 0.06  # … if it covers at least this share of a card
PAPER_CUT = 0.33  # card edge: this far (linear) from felt to paper; low enough to keep thin back borders
ASPECT_RANGE = (1.25, 1.72)  # long/short of a card proposal after snapping its sides to image edges
PAIR_SEARCH_MAX = 24  # blobs with at most this many proposals get an exhaustive search over pairs
INNER_EDGE_GAIN = 0.12  # score per card for its sides inside the blob that the image shows as card edges
REFERENCE_SIZE = (160, 120)  # the empty-table reference is kept this small: light changes slowly in space
REFERENCE_CUT = 0.2  # log-colour difference from the empty table that is a card (≈ 22 % in any channel)
REFERENCE_RATE = 0.02  # share of a new frame blended into the reference where no card lies


@dataclass(frozen=True, kw_only=True, slots=True)
class BackModel:
    """What the table's deck back looks like, learned from face-down cards at calibration."""

    paper: float  # fraction of paper-white pixels in the back's interior
    hist: tuple[float, ...]  # 4×4×4 colour histogram of the interior (normalised to the card's white)


@dataclass(frozen=True, kw_only=True, slots=True)
class VisionModel:
    """Everything calibration knows; every field optional so detection works uncalibrated."""

    zones: Mapping[str, np.ndarray] = field(default_factory=dict)  # polygons in `frame_size` pixels
    frame_size: tuple[int, int] | None = None
    card_long_px: float | None = None  # at `frame_size`
    back: BackModel | None = None
    glyphs: GlyphSet | None = None
    reference: np.ndarray | None = None  # the empty table, REFERENCE_SIZE BGR (fixed camera)

    def uncalibrated(self) -> bool:
        """Nothing learned: detection runs in single-frame mode (no table colour, size or deck known)."""
        return (not self.zones and self.card_long_px is None and self.back is None and self.glyphs is None
                and self.reference is None)

    def scaled_zones(self, size: tuple[int, int]) -> dict[str, np.ndarray]:
        if not self.zones:
            return {}
        sx, sy = _scale_from(self.frame_size, size)
        return {k: np.asarray(v, np.float32) * np.float32([sx, sy]) for k, v in self.zones.items()}

    def card_long_at(self, size: tuple[int, int]) -> float | None:
        if self.card_long_px is None:
            return None
        sx, sy = _scale_from(self.frame_size, size)
        return self.card_long_px * float(np.sqrt(sx * sy))


def _scale_from(ref: tuple[int, int] | None, size: tuple[int, int]) -> tuple[float, float]:
    if ref is None:
        return 1.0, 1.0
    return size[0] / ref[0], size[1] / ref[1]


@dataclass(frozen=True, kw_only=True, slots=True)
class DetectedCard:
    polygon: np.ndarray  # 4×2 frame pixels, portrait order (top-left, top-right, bottom-right, bottom-left)
    face_up: bool
    paper: float  # paper-white fraction of the visible interior (the face-up evidence)
    card: str | None = None
    zone: str | None = None

    def centre(self) -> tuple[float, float]:
        c = self.polygon.mean(axis=0)
        return float(c[0]), float(c[1])

    def to_json(self) -> dict[str, object]:
        return {"polygon": [[round(float(x), 1), round(float(y), 1)] for x, y in self.polygon],
                "face": "up" if self.face_up else "down", "card": self.card, "zone": self.zone,
                "paper": round(self.paper, 3)}


@dataclass(frozen=True, kw_only=True, slots=True)
class Detection:
    cards: tuple[DetectedCard, ...]
    card_long_px: float

    def board_count(self, zone: str = "board") -> int:
        return sum(1 for c in self.cards if c.zone == zone and c.face_up)


# ---------------------------------------------------------------- segmentation


def _poly_basis(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys], axis=-1)


def card_mask(small: np.ndarray) -> np.ndarray:
    return card_layers(small).mask


@dataclass(frozen=True, slots=True)
class FeltFit:
    """A felt fit reduced to what cutting a frame needs: the paper channel, the per-pixel cut, and the
    light it was fitted under (a fixed camera's frames differ little: the fit is reused while it holds)."""

    channel: int
    cut: np.ndarray  # uint8 work px: a pixel of the (blurred) channel brighter than this is card
    coarse: np.ndarray  # exp(log background) of the paper channel on a grid _COARSE times coarser, float32
    paper_gain: float
    light: np.ndarray  # mean B, G, R of the frame when fitted
    age: int = 0  # frames it has been reused for

    def holds(self, img: np.ndarray, light: np.ndarray) -> bool:
        """Same frame size and the same light within 3 % per channel, for at most FIT_REUSE frames."""
        return (self.cut.shape == img.shape[:2] and self.age < FIT_REUSE
                and bool(np.all(np.abs(light - self.light) <= 0.03 * np.maximum(self.light, 8.0))))


FIT_REUSE = 25  # a video refits the felt at least this often even when the light holds


def _full(coarse: np.ndarray, h: int, w: int) -> np.ndarray:
    """A coarse grid (one value per _COARSE×_COARSE block) interpolated to h×w."""
    ch, cw = coarse.shape
    return cv2.resize(coarse, (cw * _COARSE, ch * _COARSE), interpolation=cv2.INTER_LINEAR)[:h, :w]


@dataclass(slots=True)
class Layers:
    """The card mask of a work-size frame and what is needed to read paper-ness back from it lazily."""

    mask: np.ndarray  # uint8 255 where a card lies (holes filled)
    image: np.ndarray  # the blurred paper channel of the work image (uint8)
    coarse: np.ndarray | None  # exp(log background) of the paper channel, coarse grid (FeltFit.coarse)
    channel: int
    paper_gain: float  # exp(paper level) - 1: alpha is 1 on the cards' white
    fit: FeltFit | None = None  # the fit this mask was cut with (reused for the next frames of a video)
    contours: tuple[np.ndarray, ...] | None = None  # the mask's outer contours (CHAIN_APPROX_NONE)
    _exp_bg: np.ndarray | None = None

    def alpha(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """Paper-ness (0 on felt, 1 on the cards' white) of a box, computed only where asked (it is only
        needed for clusters with a face-down card)."""
        h, w = self.mask.shape
        out = np.zeros((y1 - y0, x1 - x0), np.float32)
        if self.coarse is None:
            return out
        xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if xb <= xa or yb <= ya:
            return out
        if self._exp_bg is None:
            self._exp_bg = _full(self.coarse, h, w)
        img = self.image[ya:yb, xa:xb].astype(np.float32) + 8.0
        out[ya - y0:yb - y0, xa - x0:xb - x0] = (img / self._exp_bg[ya:yb, xa:xb] - 1.0) / self.paper_gain
        return out


    def paper_white(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """alpha > 0.7 of a box (inside the frame), as one uint8 comparison against a threshold image
        interpolated from the coarse background (within half a grey level of the float test)."""
        h, w = self.mask.shape
        if self.coarse is None:
            return np.zeros((y1 - y0, x1 - x0), bool)
        thr = np.clip(np.floor(self.coarse * np.float32(1.0 + 0.7 * self.paper_gain) - 8.0), 0, 255)
        cut = _full(thr.astype(np.uint8), h, w)[y0:y1, x0:x1]
        return np.asarray(cv2.compare(self.image[y0:y1, x0:x1], np.ascontiguousarray(cut), cv2.CMP_GT) > 0)


_SAMPLE = 4  # every this many pixels of the half-size frame (8 of the work frame), a paper-level sample
_LOG8 = np.log(np.arange(256, dtype=np.float32) + 8.0)  # log(v + 8) of every grey level


@functools.lru_cache(maxsize=4)
def _bases(h: int, w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For a half-size frame h×w: flat indices and quadratic bases (in work-frame coordinates) of the fit's
    grid and of the paper-level sample (the same every frame of a camera, so made once)."""
    step = max(2, w // 40)  # ~1,000 grid points: plenty for six coefficients per channel
    out = []
    for first, every in ((step // 2, step), (1, _SAMPLE)):
        yy, xx = np.mgrid[first:h:every, first:w:every]
        # A half-size pixel averages work pixels 2x, 2x+1: its centre is 2x + 0.5 of 2w.
        bx, by = (2 * xx + 0.5) / (2 * w) - 0.5, (2 * yy + 0.5) / (2 * h) - 0.5
        basis = _poly_basis(bx.ravel(), by.ravel())
        out += [(yy * w + xx).ravel(), basis.astype(np.float32)]
    return out[0], out[1], out[2], out[3]


_COARSE = 8  # the smooth background is evaluated on a grid this many times coarser, then interpolated


def _fit_felt(f: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, float]:
    """Robust least squares of log colour samples (N×3) on the quadratic basis `a` (N×6): felt is the
    majority, cards the outliers. Returns (coefficients 6×3, noise sigma)."""
    keep = np.ones(len(a), bool)
    sigma = 0.05
    coef = np.zeros((6, 3), np.float32)
    ridge = np.float32(1e-6) * np.eye(6, dtype=np.float32)
    for _ in range(5):
        aw = a.T * keep  # 6×N: the kept samples only
        coef = np.linalg.solve(aw @ a + ridge, aw @ f)  # 6×6 normal equations
        res = np.abs(f - a @ coef).max(axis=1)
        kept = res[keep]
        mid = len(kept) // 2
        sigma = max(float(np.partition(kept, mid)[mid]) * 1.4826, 0.01)
        new_keep = res < max(4 * sigma, 0.06)
        if new_keep.sum() < 12 or (new_keep == keep).all():
            break
        keep = new_keep
    return coef, sigma


def _light(img: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.mean(img[::8, ::8])[:3], np.float32)


def card_layers(small: np.ndarray, prior: FeltFit | None = None) -> Layers:
    """Pixels that differ from the felt, after dividing out a smooth lighting field.

    Felt is the majority of the frame, so a robust quadratic fit of log-colour per channel models the felt
    under any light gradient or vignette; cards (white borders) are outliers in at least one channel.
    The fit and the paper level use samples of a half-size copy (its 2×2 averaging is the noise filter),
    logarithms come from a table, and the background and its cut are made on a grid 8× coarser and
    interpolated: the cut itself is one comparison per pixel against a threshold image.
    """
    light = _light(small)
    if prior is not None and prior.holds(small, light):
        return _cut(small, replace(prior, age=prior.age + 1))  # a video's next frame: only the cut
    h, w = small.shape[:2]
    half = cv2.resize(small, (w // 2, h // 2), interpolation=cv2.INTER_AREA).reshape(-1, 3)
    gidx, a, sidx, sa = _bases(h // 2, w // 2)
    coef, sigma = _fit_felt(_LOG8[half[gidx]], a)
    noise = float(np.clip(5 * sigma, 0.12, 0.45))
    # The cards' white border is the brightest thing in any channel: its level above the felt (0.995
    # quantile of the residual on a sample) picks the channel and sets the cut.
    res = _LOG8[half[sidx]] - sa @ coef
    k = min(len(res) - 1, round(0.995 * (len(res) - 1)))
    papers = np.partition(res, k, axis=0)[k]
    c = int(np.argmax(papers))
    best_paper = float(papers[c])
    if best_paper < noise:
        return Layers(mask=np.zeros((h, w), np.uint8), image=cv2.extractChannel(small, c), coarse=None,
                      channel=c, paper_gain=1.0, contours=())
    # Card edges are blurred; cut them half-way between felt and paper (in linear terms), not at the noise
    # level, or neighbouring board cards merge. Whatever the border encloses is filled in afterwards.
    thr = max(noise, float(np.log(PAPER_CUT * np.exp(best_paper) + 1.0 - PAPER_CUT)))
    cw, ch = max(2, -(-w // _COARSE)), max(2, -(-h // _COARSE))
    xs = ((np.arange(cw, dtype=np.float32) * _COARSE + (_COARSE - 1) / 2) / w - 0.5)[None, :]
    ys = ((np.arange(ch, dtype=np.float32) * _COARSE + (_COARSE - 1) / 2) / h - 0.5)[:, None]
    kc = coef[:, c].astype(np.float32)
    bg = kc[0] + kc[1] * xs + kc[2] * ys + kc[3] * xs * xs + kc[4] * xs * ys + kc[5] * ys * ys
    coarse = np.exp(bg).astype(np.float32)
    # The channel is whole grey levels: "brighter than cut" is "brighter than floor(cut)"; the coarse cut
    # is interpolated in uint8 (within half a grey level of interpolating it in float).
    cut8 = _full(np.clip(np.floor(coarse * np.float32(np.exp(thr)) - 8.0), 0, 255).astype(np.uint8), h, w)
    return _cut(small, FeltFit(channel=c, cut=np.ascontiguousarray(cut8), coarse=coarse, light=light,
                               paper_gain=max(float(np.exp(best_paper)) - 1.0, 1e-3)))


def _cut(small: np.ndarray, fit: FeltFit) -> Layers:
    """The card mask of a frame under a felt fit (only the paper channel is blurred and compared)."""
    chan = cv2.GaussianBlur(cv2.extractChannel(small, fit.channel), (3, 3), 0)
    mask = cv2.compare(chan, fit.cut, cv2.CMP_GT)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    # A back's thin white border may have a one-pixel break; closing would mend it but would also bridge
    # the narrow gaps between board cards. So only the large holes that closing encloses are added.
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    holes = _fill(closed) & ~closed
    holes = cv2.morphologyEx(holes, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    filled, contours = _filled(mask | holes)
    return Layers(mask=filled, image=chan, coarse=fit.coarse, channel=fit.channel,
                  paper_gain=fit.paper_gain, fit=fit, contours=contours)


def _filled(mask: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The mask with every hole filled, and its outer contours (every point: the blobs are made from them)."""
    out = np.zeros_like(mask)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cv2.drawContours(out, contours, -1, 255, -1)
    return out, tuple(contours)


def reference_mask(small: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Pixels that differ from the empty table, after one gain per channel (the room's light drifts):
    works on any table surface, light wood and white cloth included, and at the table's edge."""
    return reference_layers(small, reference).mask


def reference_layers(small: np.ndarray, reference: np.ndarray) -> Layers:
    """`reference_mask` with the mask's outer contours.

    |log(cur + 8) - log(ref + 8) - gain| > cut is tested as: the frame scaled by exp(-gain) per channel
    (one `transform`) against two bounds around the reference made once per reference and size (one
    `inRange` for the three channels), so no per-pixel logarithm or float image is made."""
    h, w = small.shape[:2]
    lo, hi, logref = _ref_bounds(reference, w, h)
    cur = cv2.GaussianBlur(small, (3, 3), 0)
    gain = np.median(_LOG8[cur[::8, ::8].reshape(-1, 3)] - logref, axis=0)  # global, per channel
    k = np.exp(-gain)
    # (cur + 8) e^-gain - 8, rounded and saturated to 0..255 like the bounds.
    scaled = cv2.transform(cur, np.hstack([np.diag(k), (8 * k - 8)[:, None]]).astype(np.float32))
    mask = cv2.bitwise_not(cv2.inRange(scaled, lo, hi))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    filled, contours = _filled(mask)
    return Layers(mask=filled, image=cv2.extractChannel(small, 0), coarse=None, channel=0, paper_gain=1.0,
                  contours=contours)


_REF_CACHE: dict[tuple[int, int, int], tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}


def _ref_bounds(reference: np.ndarray, w: int, h: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The reference scaled to the work size as uint8 bounds (lo, hi: a pixel within them, after the
    frame's gain, is table) and the log of its sample (every 8th pixel), kept while the reference object
    is the same (update_reference makes a new one)."""
    key = (id(reference), w, h)
    hit = _REF_CACHE.get(key)
    if hit is not None and hit[0] is reference:
        return hit[1]
    ref = cv2.resize(reference, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32) + 8.0
    lo = np.clip(np.ceil(ref * np.float32(np.exp(-REFERENCE_CUT)) - 8.0), 0, 255).astype(np.uint8)
    hi = np.clip(np.floor(ref * np.float32(np.exp(REFERENCE_CUT)) - 8.0), 0, 255).astype(np.uint8)
    val = (lo, hi, np.log(ref[::8, ::8].reshape(-1, 3)))
    _REF_CACHE.clear()
    _REF_CACHE[key] = (reference, val)
    return val


def learn_reference(frame: np.ndarray) -> np.ndarray:
    """The empty-table reference from a frame of the empty table."""
    return cv2.resize(frame, REFERENCE_SIZE, interpolation=cv2.INTER_AREA)


def update_reference(reference: np.ndarray, frame: np.ndarray, cards: list[np.ndarray],
                     rate: float = REFERENCE_RATE) -> np.ndarray:
    """Blend the frame slowly into the reference wherever no card lies (cards grown by a margin), so the
    reference follows daylight and lamps but never learns a card."""
    fh, fw = frame.shape[:2]
    sx, sy = REFERENCE_SIZE[0] / fw, REFERENCE_SIZE[1] / fh
    covered = np.zeros((REFERENCE_SIZE[1], REFERENCE_SIZE[0]), np.uint8)
    for q in cards:
        cv2.fillPoly(covered, [np.round(np.asarray(q) * [sx, sy]).astype(np.int32)], 1)
    covered = cv2.dilate(covered, np.ones((5, 5), np.uint8))
    cur = cv2.resize(frame, REFERENCE_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    out = reference.astype(np.float32)
    free = covered == 0
    diff = cur[free] - out[free]
    # At least one grey level per update while they differ: 8-bit storage would stall a small step.
    out[free] += np.sign(diff) * np.maximum(np.abs(rate * diff), np.minimum(np.abs(diff), 1.0))
    return np.asarray(np.clip(np.round(out), 0, 255), np.uint8)


def _fill(mask: np.ndarray) -> np.ndarray:
    out = np.zeros_like(mask)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(out, contours, -1, 255, -1)
    return out


# ---------------------------------------------------------------- card hypotheses


@dataclass(slots=True)
class _Blob:
    contour: np.ndarray  # N×2 work pixels
    filled: np.ndarray  # uint8 mask of the blob (ROI)
    origin: tuple[int, int]
    area: float


def _blobs(mask: np.ndarray, min_area: float, contours: tuple[np.ndarray, ...] | None = None) -> list[_Blob]:
    """The clusters of cards of a mask (its outer contours, found here unless given) at least min_area."""
    if contours is None:
        contours = tuple(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0])
    out = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_area:
            continue
        x, y, w, h = cv2.boundingRect(c)
        filled = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(filled, [c - [x - 1, y - 1]], -1, 1, -1)
        out.append(_Blob(contour=c.reshape(-1, 2).astype(np.float32), filled=filled, origin=(x - 1, y - 1),
                         area=area))
    return out


def _single_card_long(blob: _Blob) -> float | None:
    """The long side if the blob is one whole card (a near-perfect rectangle of card aspect)."""
    (_, _), (w, h), _ = cv2.minAreaRect(blob.contour)
    if min(w, h) < 4:
        return None
    fill = blob.area / (w * h)
    aspect = max(w, h) / min(w, h)
    return float(max(w, h)) if fill > 0.9 and 1.22 < aspect < 1.6 else None


def estimate_card_long(blobs: list[_Blob], fallback: float) -> float:
    singles = [s for s in (_single_card_long(b) for b in blobs) if s is not None]
    return float(np.median(singles)) if singles else fallback


def _corner_frames(blob: _Blob, short: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(vertex, unit edge 1, unit edge 2) at each convex, roughly right-angled vertex of the outline."""
    poly = cv2.approxPolyDP(blob.contour.reshape(-1, 1, 2), max(1.0, 0.05 * short), True).reshape(-1, 2)
    poly = _cut_short_edges(poly.astype(np.float32), CUT * short)
    n = len(poly)
    if n < 3:
        return []
    area2 = float(np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1]))
    out = []
    for i in range(n):
        v, nxt, prv = poly[i], poly[(i + 1) % n], poly[i - 1]
        e1, e2 = nxt - v, prv - v
        l1, l2 = float(np.hypot(*e1)), float(np.hypot(*e2))
        if l1 < 1e-3 or l2 < 1e-3:
            continue
        u1, u2 = e1 / l1, e2 / l2
        cross = float(e1[0] * e2[1] - e1[1] * e2[0])
        if cross * area2 <= 0:  # reflex vertex: where two cards' edges cross, not a card corner
            continue
        ang = float(np.degrees(np.arccos(np.clip(u1 @ u2, -1, 1))))
        if not 55 <= ang <= 125:
            continue
        v, u1, u2 = _local_corner(blob.contour, v, u1, u2, short)
        out.append((v.astype(np.float32), u1.astype(np.float32), u2.astype(np.float32)))
    return out


def _local_corner(contour: np.ndarray, v: np.ndarray, u1: np.ndarray, u2: np.ndarray,
                  short: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Refine a corner from the outline close to it: the polygon's edges may run on to another card's
    corner, but the first few millimetres of each arm belong to this card."""
    rel = contour - v
    dist = np.hypot(rel[:, 0], rel[:, 1])
    near = (dist > 0.1 * short) & (dist < 0.5 * short)
    pts, d = contour[near], rel[near] / dist[near, None]
    lines = []
    for u in (u1, u2):
        other = u2 if u is u1 else u1
        arm = pts[((d @ u) > (d @ other)) & ((d @ u) > 0.9)]
        if len(arm) >= 4:
            vx, vy, x0, y0 = cv2.fitLine(arm, cv2.DIST_L2, 0, 0.01, 0.01).ravel()
            dirn = np.float32([vx, vy])
            lines.append((np.float32([x0, y0]), dirn if dirn @ u > 0 else -dirn))
        else:
            lines.append((v, u))
    (p1, d1), (p2, d2) = lines
    m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float32)
    if abs(float(np.linalg.det(m))) > 0.3:
        t = np.linalg.solve(m, p2 - p1)
        corner = p1 + t[0] * d1
        if np.hypot(*(corner - v)) < 0.25 * short:
            v = corner
    return v, d1, d2


def _cut_short_edges(poly: np.ndarray, min_len: float) -> np.ndarray:
    """Replace each very short edge (a rounded card corner) by the meeting point of its neighbour edges."""
    pts = [p for p in poly]
    changed = True
    while changed and len(pts) > 3:
        changed = False
        n = len(pts)
        lens = [float(np.hypot(*(pts[(i + 1) % n] - pts[i]))) for i in range(n)]
        i = int(np.argmin(lens))
        if lens[i] >= min_len:
            break
        a0, a1 = pts[i - 1], pts[i]
        b0, b1 = pts[(i + 1) % n], pts[(i + 2) % n]
        d1, d2 = a1 - a0, b1 - b0
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float32)
        if abs(float(np.linalg.det(m))) > 1e-6:
            t = np.linalg.solve(m, b0 - a0)
            x = a0 + t[0] * d1
            if np.hypot(*(x - a1)) > 3 * min_len:
                x = (a1 + b0) / 2
        else:
            x = (a1 + b0) / 2
        j = (i + 1) % n
        pts[i] = x.astype(np.float32)
        del pts[j]
        changed = True
    return np.array(pts, np.float32)


def _seg_dist(pts: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Distance from each point to the outline of a quadrilateral."""
    best = np.full(len(pts), np.inf, np.float32)
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        t = np.clip(((pts - a) @ ab) / max(float(ab @ ab), 1e-6), 0, 1)
        d = np.hypot(*(pts - (a + t[:, None] * ab)).T)
        np.minimum(best, d, out=best)
    return best


_GRID = np.stack(np.meshgrid(np.linspace(0.07, 0.93, 6), np.linspace(0.07, 0.93, 8)), -1).reshape(-1, 2)


def _inside_fraction(blob: _Blob, quads: np.ndarray) -> np.ndarray:
    """For each quad (H×4×2), the fraction of a grid of interior points that lies on the blob."""
    v, a, b = quads[:, None, 0], (quads[:, 1] - quads[:, 0])[:, None], (quads[:, 3] - quads[:, 0])[:, None]
    pts = v + _GRID[None, :, :1] * a + _GRID[None, :, 1:] * b - np.float32(blob.origin)
    xi, yi = np.round(pts[..., 0]).astype(int), np.round(pts[..., 1]).astype(int)
    h, w = blob.filled.shape
    ok = (xi >= 0) & (yi >= 0) & (xi < w) & (yi < h)
    hits = np.zeros(xi.shape, bool)
    hits[ok] = blob.filled[yi[ok], xi[ok]] > 0
    return np.asarray(hits.mean(axis=1))


def _seg_dist_many(pts: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """H×N distances from each point to the outline of each quad."""
    best = np.full((len(quads), len(pts)), np.inf, np.float32)
    for i in range(4):
        a, b = quads[:, i][:, None, :], quads[:, (i + 1) % 4][:, None, :]
        ab = b - a
        t = np.clip(np.sum((pts[None] - a) * ab, axis=2) / np.maximum(np.sum(ab * ab, axis=2), 1e-6), 0, 1)
        d = pts[None] - (a + t[..., None] * ab)
        np.minimum(best, np.hypot(d[..., 0], d[..., 1]), out=best)
    return best


def _side_evidence(quads: np.ndarray, minch: np.ndarray, scale: float, short: float) -> np.ndarray:
    """Per quad (work pixels), the fraction of points along its sides that look like a card edge seen from
    inside, read in the full-resolution frame's min-channel image `minch`: paper (the white border) just
    inside, something clearly darker just outside (felt, another card's back, or the card's shadow on a
    face beneath). A proposal whose side runs across the middle of another card gets little support.
    """
    t = np.linspace(0.15, 0.85, 12, dtype=np.float32)
    full = quads / scale
    centre = full.mean(axis=1, keepdims=True)
    mm = short / scale / 63.0  # full-resolution pixels per millimetre
    h, w = minch.shape
    x0, y0 = np.clip(np.floor(full.reshape(-1, 2).min(axis=0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(full.reshape(-1, 2).max(axis=0)).astype(int) + 1, 1, [w, h])
    ref = max(quantile(minch[y0:y1, x0:x1], 0.95), 20.0)
    support = np.zeros(len(quads), np.float32)
    for i in range(4):
        a, b = full[:, i], full[:, (i + 1) % 4]
        pts = a[:, None] + t[None, :, None] * (b - a)[:, None]
        normal = np.stack([-(b - a)[:, 1], (b - a)[:, 0]], axis=1)
        normal /= np.maximum(np.hypot(normal[:, 0], normal[:, 1]), 1e-6)[:, None]
        inward = np.sign(np.sum((centre[:, 0] - a) * normal, axis=1))[:, None, None] * normal[:, None]
        vin = _sample(minch, pts + inward * 2.0 * mm)
        vout = _sample(minch, pts - inward * 1.5 * mm)
        support += ((vin > 0.72 * ref) & (vin - vout > 0.12 * ref)).mean(axis=1)
    return support / 4


def min_channel(frame: np.ndarray) -> np.ndarray:
    """Per-pixel minimum of B, G, R: np.minimum of the three channel views (no copies of the channels:
    ~3× faster than cv2.split + cv2.min on a 640×480 frame, ~25× faster than numpy's min over the channel
    axis; the same values). A new contiguous array."""
    return np.minimum(np.minimum(frame[..., 0], frame[..., 1]), frame[..., 2])


def _sample(img: np.ndarray, p: np.ndarray) -> np.ndarray:
    h, w = img.shape
    xi = np.clip(np.round(p[..., 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(p[..., 1]).astype(int), 0, h - 1)
    return img[yi, xi].astype(np.float32)


class _EdgeProbe:
    """Reads card-edge evidence (paper just inside, darker just outside) from the full-resolution frame."""

    SCALES = np.linspace(0.76, 1.32, 29, dtype=np.float32)
    T = np.linspace(0.15, 0.85, 12, dtype=np.float32)

    def __init__(self, minch: np.ndarray, blob: _Blob, scale: float, short: float) -> None:
        self.minch = minch
        self.scale = scale
        self.mm = short / scale / 63.0
        h, w = minch.shape
        x0, y0 = (max(int(v / scale), 0) for v in blob.origin)
        bh, bw = blob.filled.shape
        x1 = min(int((blob.origin[0] + bw) / scale) + 1, w)
        y1 = min(int((blob.origin[1] + bh) / scale) + 1, h)
        self.ref = max(quantile(minch[y0:y1, x0:x1], 0.95), 20.0) if x1 > x0 and y1 > y0 else 255.0

    def support(self, pts: np.ndarray, inward: np.ndarray) -> np.ndarray:
        """Fraction of supported points along each side; `pts` (…, n, 2) in work pixels."""
        return np.asarray(self.edge_points(pts, inward).mean(axis=-1))

    def edge_points(self, pts: np.ndarray, inward: np.ndarray) -> np.ndarray:
        """Per point: paper just inside, clearly darker just outside (a card edge seen from inside)."""
        full = pts / self.scale
        vin = _sample(self.minch, full + inward * 2.0 * self.mm)
        vout = _sample(self.minch, full - inward * 1.5 * self.mm)
        return np.asarray((vin > 0.72 * self.ref) & (vin - vout > 0.12 * self.ref))

    def inner_edges(self, quads: np.ndarray, blob_pts: np.ndarray, tol: float) -> np.ndarray:
        """Per quad, the share of its side points that lie inside the blob (not on its outline) and show a
        card edge in the image. Two overlapping cards outline a near-square either way round; only the
        true split has the top card's edge running across the blob where the image shows one."""
        n = len(quads)
        out = np.zeros(n, np.float32)
        if not n:
            return out
        centre = quads.mean(axis=1)
        for i in range(4):
            a, b = quads[:, i], quads[:, (i + 1) % 4]
            pts = a[:, None] + self.T[None, :, None] * (b - a)[:, None]  # n×T×2
            normal = np.stack([-(b - a)[:, 1], (b - a)[:, 0]], axis=1)
            normal /= np.maximum(np.hypot(normal[:, 0], normal[:, 1]), 1e-6)[:, None]
            inward = np.sign(np.sum((centre - a) * normal, axis=1))[:, None] * normal
            edge = self.edge_points(pts, inward[:, None, :])
            d = np.min(np.hypot(*(pts.reshape(-1, 1, 2) - blob_pts[None]).transpose(2, 0, 1)), axis=1)
            inner = d.reshape(n, -1) > 2 * tol
            out += (edge & inner).sum(axis=1)
        return out / (4 * len(self.T))

    def snap(self, base: np.ndarray, along: np.ndarray, out_dir: np.ndarray, length: float) -> float:
        """Scale of `length` that puts the far side (from `base` along `along`) on an image edge."""
        offs = (self.SCALES - 1.0)[:, None, None] * length * out_dir[None, None, :]
        pts = base[None, None, :] + self.T[None, :, None] * along[None, None, :] + offs
        sup = self.support(pts, -out_dir) - 0.2 * np.abs(self.SCALES - 1.0)
        best = int(np.argmax(sup))
        return float(self.SCALES[best]) if sup[best] > 0.3 else 1.0


def _split(blob: _Blob, long: float, minch: np.ndarray, scale: float = 1.0) -> list[np.ndarray]:
    """Explain a blob by the set of card-sized quadrilaterals whose union best matches it.

    Every convex corner of the outline is a corner of some card; each corner proposes cards in both
    orientations at a few sizes (perspective changes the size across the frame). A set of proposals is
    scored by the overlap (IoU) of its union with the blob plus a little for the outline it explains;
    greedy growth then single swaps find a good set. The union term settles what the outline alone cannot:
    whether a corner starts a card in portrait or in landscape.
    """
    short = long / CARD_ASPECT
    pts = blob.contour[::2]
    tol = max(1.5, 0.06 * short)
    single = _as_single(blob, long)
    if single is not None:
        return [_refine(single, pts[_seg_dist(pts, single) < 2 * tol], 2 * tol)]
    edges = _EdgeProbe(minch, blob, scale, short)
    cands = []
    for v, u1, u2 in _corner_frames(blob, short):
        pair = []
        for l1, l2 in ((short, long), (long, short)):
            # Each far side snaps to the card edge the image shows (a hidden side keeps the nominal size).
            s1 = edges.snap(v + u1 * l1, u2 * l2, u1, l1)
            s2 = edges.snap(v + u2 * l2, u1 * l1, u2, l2)
            # Perspective stretches a card by up to ~30 % but barely changes its shape; a snap that makes
            # it square (or too slim) has run on to a neighbour's edge: that side keeps the nominal size.
            aspect = max(l1 * s1, l2 * s2) / min(l1 * s1, l2 * s2)
            if not ASPECT_RANGE[0] < aspect < ASPECT_RANGE[1]:
                s1, s2 = (1.0, s2) if abs(s1 - 1) > abs(s2 - 1) else (s1, 1.0)
            a, b = u1 * l1 * s1, u2 * l2 * s2
            pair.append([v, v + a, v + a + b, v + b])
        ev = _side_evidence(np.array(pair, np.float32), minch, scale, short)
        # Portrait or landscape from this corner: when the image clearly shows one card's edges, the other
        # reading is dropped (two overlapping cards can outline the same shape either way).
        if abs(float(ev[0] - ev[1])) > ORIENTATION_MARGIN:
            pair = [pair[int(np.argmax(ev))]]
        cands.extend(pair)
    if not cands:
        return []
    arr = np.array(cands, np.float32)
    arr = arr[_inside_fraction(blob, arr) >= 0.9]
    if not len(arr):
        return []
    hyps = list(arr)
    explains = _seg_dist_many(pts, arr) < tol
    sets = _SetScore(blob, hyps, explains, _Interior(arr, edges), edges.inner_edges(arr, pts, tol))
    best_set: list[int] = []
    best_score = -1.0
    centres = np.array([q.mean(axis=0) for q in hyps])
    for start in (_greedy_outline(explains, centres, short), sets.greedy(), sets.best_pair()):
        chosen, current = sets.local_search(start)
        if current > best_score:
            best_set, best_score = chosen, current
    chosen = best_set
    order = sorted(chosen, key=lambda i: -int(explains[i].sum()))
    refined = [_refine(hyps[i], pts[explains[i]], tol) for i in order]
    # Two proposals that settle on the same card after refinement are one card.
    out: list[np.ndarray] = []
    for q in refined:
        if all(np.hypot(*(q.mean(axis=0) - o.mean(axis=0))) > SAME_CARD * short for o in out):
            out.append(q)
    return out


def _greedy_outline(explains: np.ndarray, centres: np.ndarray, short: float) -> list[int]:
    """Pick proposals by the outline they explain that is not explained yet (duplicates suppressed)."""
    unexplained = np.ones(explains.shape[1], bool)
    open_ = np.ones(len(explains), bool)
    chosen: list[int] = []
    while unexplained.mean() > 0.04 and open_.any():
        gains = np.where(open_, (explains & unexplained).sum(axis=1), -1)
        best = int(np.argmax(gains))
        if gains[best] < 0.1 * explains.shape[1] / 2:
            break
        chosen.append(best)
        unexplained &= ~explains[best]
        open_ &= np.hypot(*(centres - centres[best]).T) >= 0.3 * short
    return chosen


_IGRID = np.stack(np.meshgrid(np.linspace(0.12, 0.88, 7), np.linspace(0.1, 0.9, 9)), -1).reshape(-1, 2)


class _Interior:
    """Paper or not at a grid of points inside each proposal, and which other proposals cover each point.

    A card's own part (not under another card of the set) is either a face (mostly paper) or a back
    (almost no paper); a proposal whose own part is half and half straddles two cards.
    """

    def __init__(self, quads: np.ndarray, edges: _EdgeProbe) -> None:
        v = quads[:, None, 0]
        a, b = (quads[:, 1] - quads[:, 0])[:, None], (quads[:, 3] - quads[:, 0])[:, None]
        pts = v + _IGRID[None, :, :1] * a + _IGRID[None, :, 1:] * b  # H×P×2 work pixels
        self.paper = _sample(edges.minch, pts / edges.scale) > 0.72 * edges.ref
        n = len(quads)
        inside = np.ones((n, n, pts.shape[1]), bool)  # inside[j, i, p]: point p of proposal i lies in j
        for k in range(4):
            e0, e1 = quads[:, k], quads[:, (k + 1) % 4]
            edge = (e1 - e0)[:, None, None, :]
            rel = pts[None, :, :, :] - e0[:, None, None, :]
            cross = edge[..., 0] * rel[..., 1] - edge[..., 1] * rel[..., 0]
            area2 = np.sum(quads[:, :, 0] * np.roll(quads[:, :, 1], -1, axis=1)
                           - np.roll(quads[:, :, 0], -1, axis=1) * quads[:, :, 1], axis=1)
            inside &= (cross * np.sign(area2)[:, None, None]) >= 0
        idx = np.arange(n)
        inside[idx, idx] = False
        self.inside = inside

    def impurity(self, sel: list[int]) -> float:
        total = 0.0
        for i in sel:
            others = [j for j in sel if j != i]
            own = ~np.logical_or.reduce(self.inside[others, i]) if others \
                else np.ones(self.paper.shape[1], bool)
            if own.sum() < 8:
                continue
            p = float(self.paper[i, own].mean())
            total += max(0.0, min(1.0, (p - 0.12) / 0.1, (0.45 - p) / 0.1))  # python: np.clip is slow here
        return total

    def impurity_with_each(self, base: list[int]) -> np.ndarray:
        """impurity(base + [i]) for every proposal i at once (0 for i already in base)."""
        n, npts = self.paper.shape
        paper = self.paper.astype(np.float32)
        total = np.zeros(n, np.float32)
        # The new card i: its own part is what no card of the base covers.
        own_new = ~np.logical_or.reduce(self.inside[base], axis=0) if base else np.ones((n, npts), bool)
        total += self._impure(own_new.sum(axis=1), (own_new * paper).sum(axis=1))
        # Each base card j: its own part shrinks by what i covers of it.
        for j in base:
            rest = [k for k in base if k != j]
            own_j = ~np.logical_or.reduce(self.inside[rest, j]) if rest else np.ones(npts, bool)
            own = own_j[None, :] & ~self.inside[:, j, :]  # n×P: own part of j once i is added
            total += self._impure(own.sum(axis=1), own.astype(np.float32) @ paper[j])
        total[base] = 0.0
        return total

    @staticmethod
    def _impure(count: np.ndarray, papers: np.ndarray) -> np.ndarray:
        p = papers / np.maximum(count, 1)
        v = np.clip(np.minimum((p - 0.12) / 0.1, (0.45 - p) / 0.1), 0.0, 1.0)
        return np.where(count < 8, 0.0, v).astype(np.float32)


class _SetScore:
    """Scores of proposal sets: IoU of their union with the blob, plus outline explained, minus a cost per
    card (so duplicates never pay). Adding any one proposal to a set is scored for all proposals at once."""

    def __init__(self, blob: _Blob, hyps: list[np.ndarray], explains: np.ndarray,
                 interior: _Interior, inner: np.ndarray) -> None:
        self.interior = interior
        self.inner = inner
        shape = blob.filled.shape
        self.target = blob.filled.ravel() > 0
        masks = np.zeros((len(hyps), self.target.size), np.float32)
        for i, q in enumerate(hyps):
            m = np.zeros(shape, np.uint8)
            cv2.fillPoly(m, [np.round(q - np.float32(blob.origin)).astype(np.int32)], 1)
            masks[i] = m.ravel()
        self.masks = masks
        self.bmasks = masks > 0
        self.explains = explains
        self.fexplains = explains.astype(np.float32)
        self.n = len(hyps)

    def with_each(self, base: list[int]) -> np.ndarray:
        """Score of base + [i] for every proposal i."""
        u = np.logical_or.reduce(self.bmasks[base]) if base else np.zeros_like(self.target)
        eu = np.logical_or.reduce(self.explains[base]) if base else np.zeros(self.explains.shape[1], bool)
        inter = float((u & self.target).sum()) + self.masks @ (self.target & ~u).astype(np.float32)
        union = float((u | self.target).sum()) + self.masks @ (~(u | self.target)).astype(np.float32)
        expl = float(eu.sum()) + self.fexplains @ (~eu).astype(np.float32)
        base_score = inter / union + 0.15 * expl / self.explains.shape[1] - 0.04 * (len(base) + 1)
        impure = self.interior.impurity_with_each(base)
        inner = float(self.inner[base].sum()) + self.inner
        return np.asarray(base_score - IMPURITY_COST * impure + INNER_EDGE_GAIN * inner)

    def score(self, sel: list[int]) -> float:
        if not sel:
            return 0.0
        return float(self.with_each(sel[:-1])[sel[-1]])

    def greedy(self) -> list[int]:
        chosen: list[int] = []
        current = 0.0
        while len(chosen) < 10:
            scores = self.with_each(chosen)
            scores[chosen] = -np.inf
            i = int(np.argmax(scores))
            if scores[i] <= current:
                break
            chosen.append(i)
            current = float(scores[i])
        return chosen

    def best_pair(self) -> list[int]:
        """The best-scoring pair of proposals, searched exhaustively when there are few. Greedy growth and
        single swaps get stuck on a near-square pair: its first pick is often one half of the wrong split."""
        if self.n > PAIR_SEARCH_MAX:
            return []
        best: list[int] = []
        top = -np.inf
        for i in range(self.n):
            scores = self.with_each([i])
            scores[: i + 1] = -np.inf
            j = int(np.argmax(scores))
            if scores[j] > top:
                best, top = [i, j], float(scores[j])
        return best

    def local_search(self, chosen: list[int]) -> tuple[list[int], float]:
        """Drop a card or swap one for another proposal while that raises the score."""
        return drop_swap_search(chosen, self.score, lambda rest: self.with_each(rest))


def drop_swap_search(chosen: list[int], score: Callable[[list[int]], float],
                     with_each: Callable[[list[int]], np.ndarray]) -> tuple[list[int], float]:
    """Drop a card or swap one for another proposal while that raises the score (at most four rounds).
    `with_each(rest)` scores rest + [i] for every proposal i."""
    current = score(chosen)
    for _ in range(4):
        improved = False
        for k in range(len(chosen) - 1, -1, -1):
            trial = chosen[:k] + chosen[k + 1:]
            sc = score(trial)
            if trial and sc > current + 1e-6:
                chosen, current, improved = trial, sc, True
        for k in range(len(chosen)):
            rest = chosen[:k] + chosen[k + 1:]
            scores = np.array(with_each(rest), np.float64)
            scores[rest] = -np.inf
            i = int(np.argmax(scores))
            if scores[i] > current + 1e-6:
                chosen, current, improved = [*rest, i], float(scores[i]), True
        if not improved:
            break
    return chosen, current


def _as_single(blob: _Blob, long: float) -> np.ndarray | None:
    """The quad of a blob that is one whole card (most blobs: board cards, lone cards), else None."""
    card_area = long * long / CARD_ASPECT
    if not 0.6 * card_area < blob.area < 1.45 * card_area:  # perspective: sizes vary across the frame
        return None
    rect = cv2.minAreaRect(blob.contour)
    (w, h) = rect[1]
    if min(w, h) < 2 or blob.area / (w * h) < 0.93 or not 1.25 < max(w, h) / min(w, h) < 1.6:
        return None
    return np.asarray(cv2.boxPoints(rect), np.float32)


def _refine(quad: np.ndarray, support: np.ndarray, tol: float) -> np.ndarray:
    """Fit each side to the outline points along it; sides hidden under other cards keep the guess."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        near = support[_seg_dist(support, np.array([a, b, b, a])) < tol] if len(support) else support
        if len(near) >= max(6, 0.3 * float(np.hypot(*(b - a))) / 2):
            vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
        else:
            d = (b - a) / max(float(np.hypot(*(b - a))), 1e-6)
            lines.append((a, d))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float32)
        if abs(np.linalg.det(m)) < 1e-3:
            out.append(quad[i])
            continue
        t = np.linalg.solve(m, p2 - p1)
        corner = p1 + t[0] * d1
        # A wild intersection means a bad fit: keep the hypothesis corner.
        far = np.hypot(*(corner - quad[i])) > 0.25 * np.hypot(*(quad[2] - quad[0]))
        out.append(quad[i] if far else corner)
    return np.array(out, np.float32)


def portrait(quad: np.ndarray) -> np.ndarray:
    """Order corners clockwise on screen with a short side first (top-left, top-right, …)."""
    q = np.asarray(quad, np.float32)
    area2 = float(np.sum(q[:, 0] * np.roll(q[:, 1], -1) - np.roll(q[:, 0], -1) * q[:, 1]))
    if area2 < 0:
        q = q[::-1]
    if np.hypot(*(q[1] - q[0])) > np.hypot(*(q[2] - q[1])):
        q = np.roll(q, -1, axis=0)
    return q


# ---------------------------------------------------------------- face up / down


def _canon_h(quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)


def face_stats(frame: np.ndarray, quad: np.ndarray,
               others: list[np.ndarray]) -> tuple[float, np.ndarray, float]:
    """(paper fraction, colour histogram, visible fraction) of a card's interior not covered by `others`."""
    w, h = CANON
    hom = _canon_h(quad, CANON)
    card = cv2.warpPerspective(frame, hom, CANON, flags=cv2.INTER_AREA).astype(np.float32)
    vis = np.zeros((h, w), np.uint8)
    mx, my = round(w * 0.1), round(h * 0.08)  # just inside the white border every card has
    vis[my:h - my, mx:w - mx] = 1
    for o in others:
        cv2.fillPoly(vis, [np.round(cv2.perspectiveTransform(o.reshape(-1, 1, 2), hom)).astype(np.int32)], 0)
    minch = card.min(axis=2)
    # The card's white (border of both faces and backs) is the reference for "paper".
    ref = max(quantile(minch, 0.95), 20.0)
    sel = vis > 0
    n = int(sel.sum())
    if n < 8:
        return 0.0, np.zeros(64, np.float32), 0.0
    px = card[sel] / ref
    paper_px = np.zeros((h, w), np.uint8)
    paper_px[sel] = (px.min(axis=1) > 0.72) & (px.max(axis=1) - px.min(axis=1) < 0.25)
    # Thin white lines are the borders of other cards under a misplaced quad, not a face: open them away.
    paper = cv2.morphologyEx(paper_px, cv2.MORPH_OPEN, _OPEN_K)[sel] > 0
    bins = np.clip((px * 4 / 1.1).astype(int), 0, 3)
    hist = np.bincount(bins[:, 0] * 16 + bins[:, 1] * 4 + bins[:, 2], minlength=64).astype(np.float32) / n
    return float(paper.mean()), hist, n / float((h - 2 * my) * (w - 2 * mx))


def is_face_up(paper: float, hist: np.ndarray, back: BackModel | None) -> bool:
    return bool(faces_up(np.array([paper]), np.asarray(hist, np.float32)[None], back)[0])


def faces_up(paper: np.ndarray, hist: np.ndarray, back: BackModel | None) -> np.ndarray:
    """Face up or down of K cards from their paper fractions (K) and colour histograms (K×64)."""
    if back is None:
        return np.asarray(paper > GENERIC_UP_THRESHOLD)
    sim = np.sqrt(hist * np.asarray(back.hist, np.float32)).sum(axis=1)  # Bhattacharyya coefficient
    if back.paper < 0.3:
        thr = float(np.clip((back.paper + 0.5) / 2, 0.22, 0.5))
        return np.asarray((paper > thr) & ~((sim > 0.85) & (paper < back.paper + 0.15)))
    # A back with much white in it: rely on its colour histogram.
    return np.asarray(sim < 0.6)


# ---------------------------------------------------------------- the pipeline


def _zone_of(quad: np.ndarray, zones: Mapping[str, np.ndarray]) -> str | None:
    """The zone holding the card's centre; failing that, the zone covering most of the card (≥ 30 %)."""
    centre = _centre(quad)
    for name, poly in zones.items():
        if cv2.pointPolygonTest(np.asarray(poly, np.float32).reshape(-1, 1, 2), centre, False) >= 0:
            return name
    area = abs(cv2.contourArea(quad))
    best, best_area = None, 0.3 * area
    for name, poly in zones.items():
        hull = cv2.convexHull(np.asarray(poly, np.float32))
        inter, _ = cv2.intersectConvexConvex(cv2.convexHull(quad), hull)
        if inter > best_area:
            best, best_area = name, inter
    return best


@dataclass(slots=True)
class _Group:
    quads: list[np.ndarray]  # frame pixels
    blob: _Blob  # work pixels
    alpha: np.ndarray  # paper-ness of the blob's box (work pixels)


@dataclass(slots=True)
class _Scene:
    """One frame at work resolution: the card mask, its blobs and the card size; the felt layers (with a
    reference) and the full-resolution min-channel image are made only when needed (a steady table needs
    neither)."""

    frame: np.ndarray
    small: np.ndarray
    blobs: list[_Blob]
    long: float  # card long side, work pixels
    scale: float  # work / frame
    mask: np.ndarray  # the card mask (work pixels)
    _layers: Layers | None = None
    _minch: np.ndarray | None = None

    @property
    def layers(self) -> Layers:
        if self._layers is None:
            self._layers = card_layers(self.small)
        return self._layers

    def minch(self) -> np.ndarray:
        if self._minch is None:
            self._minch = min_channel(self.frame)
        return self._minch

    def quads(self, blob: _Blob) -> list[np.ndarray]:
        """The cards of one blob, frame pixels, portrait order."""
        return [portrait(q / self.scale) for q in _split(blob, self.long, self.minch(), self.scale)]

    def alpha(self, blob: _Blob) -> np.ndarray:
        x, y = blob.origin
        h, w = blob.filled.shape
        return self.layers.alpha(x, y, x + w, y + h)


def _scene(frame: np.ndarray, model: VisionModel, memory: SceneMemory | None = None) -> _Scene:
    fh, fw = frame.shape[:2]
    scale = min(1.0, WORK_WIDTH / fw)
    small = cv2.resize(frame, (round(fw * scale), round(fh * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1 else frame
    layers = None
    if model.reference is not None:
        ref = reference_layers(small, model.reference)
        mask, contours = ref.mask, ref.contours
    else:
        layers = card_layers(small, memory.fit if memory is not None else None)
        mask, contours = layers.mask, layers.contours
        if memory is not None:
            memory.fit = layers.fit
    known = model.card_long_at((fw, fh))
    guess = (known if known is not None else FALLBACK_LONG * fh) * scale
    blobs = _blobs(mask, 0.25 * guess * guess / CARD_ASPECT, contours)
    long = guess if known is not None else estimate_card_long(blobs, guess)
    return _Scene(frame=frame, small=small, blobs=blobs, long=long, scale=scale, mask=mask, _layers=layers)


def _locate(frame: np.ndarray, model: VisionModel) -> tuple[list[_Group], float, float]:
    sc = _scene(frame, model)
    groups = []
    for blob in sc.blobs:
        quads = sc.quads(blob)
        if quads:
            groups.append(_Group(quads=quads, blob=blob, alpha=sc.alpha(blob)))
    return groups, sc.long / sc.scale, sc.scale


def locate_cards(frame: np.ndarray, model: VisionModel | None = None) -> tuple[list[list[np.ndarray]], float]:
    """Card quadrilaterals in frame pixels grouped by blob (cards that touch), and the card long side."""
    groups, long, _ = _locate(frame, model or VisionModel())
    return [g.quads for g in groups], long


class SceneMemory:
    """The cards of each cluster (blob) of the previous frame, so a steady table costs only the mask.

    A fixed camera sees the same cards frame after frame; a cluster whose outline moved less than `MOVE`
    work pixels, whose filled shape differs in less than `SHAPE` of its area and whose grey thumbnail
    (normalised by its mean, so the room's light may drift) changed by less than `CHANGE` keeps last
    frame's cards, faces and codes. A card turned, added, taken or moved changes one of the three.
    """

    MOVE, SHAPE, CHANGE, THUMB = 1, 0.02, 0.05, (12, 12)

    def __init__(self) -> None:
        self._items: list[tuple[_Blob, np.ndarray, tuple[DetectedCard, ...]]] = []
        self.fit: FeltFit | None = None
        self.hits = self.misses = 0

    def clear(self) -> None:
        self._items.clear()
        self.fit = None

    def thumb(self, image: np.ndarray, blob: _Blob) -> np.ndarray:
        x, y = max(blob.origin[0], 0), max(blob.origin[1], 0)
        h, w = blob.filled.shape
        crop = cv2.cvtColor(image[y:y + h, x:x + w], cv2.COLOR_BGR2GRAY)
        t = cv2.resize(crop, self.THUMB, interpolation=cv2.INTER_AREA).astype(np.float32)
        return t / max(float(t.mean()), 1.0)

    def recall(self, blob: _Blob, thumb: np.ndarray) -> tuple[DetectedCard, ...] | None:
        for old, othumb, cards in self._items:
            moved = max(abs(old.origin[0] - blob.origin[0]), abs(old.origin[1] - blob.origin[1]))
            if moved > self.MOVE or old.filled.shape != blob.filled.shape:
                continue
            if float(np.count_nonzero(old.filled != blob.filled)) > self.SHAPE * blob.area:
                continue
            if float(np.abs(othumb - thumb).mean()) < self.CHANGE:
                self.hits += 1
                return cards
        self.misses += 1
        return None

    def keep(self, items: list[tuple[_Blob, np.ndarray, tuple[DetectedCard, ...]]]) -> None:
        """The clusters of the frame just done replace the previous frame's."""
        self._items = items


def detect(frame: np.ndarray, model: VisionModel | None = None,
           memory: SceneMemory | None = None) -> Detection:
    """Every card in the frame: polygon, face up/down, zone, and rank/suit when glyphs are learned.
    `memory` (a video: consecutive frames of one fixed camera) lets unchanged clusters of cards be reused."""
    model = model or VisionModel()
    if model.uncalibrated():
        # Imported here: the single-frame finder builds on this module's outline splitting.
        from controller.vision.single import detect_single

        return detect_single(frame)
    return detect_on_felt(frame, model, memory)


def detect_on_felt(frame: np.ndarray, model: VisionModel, memory: SceneMemory | None = None) -> Detection:
    """The calibrated pipeline: cards are what a smooth background fit of the table (or the empty-table
    reference) does not explain. Clusters not recalled from `memory` are split, oriented and read all
    together (controller/vision/split.py, orient.py)."""
    fh, fw = frame.shape[:2]
    sc = _scene(frame, model, memory)
    thumbs = [memory.thumb(sc.small, b) for b in sc.blobs] if memory is not None else []
    known: list[tuple[DetectedCard, ...] | None] = [None] * len(sc.blobs)
    if memory is not None:
        known = [memory.recall(b, t) for b, t in zip(sc.blobs, thumbs, strict=True)]
    new = [i for i, k in enumerate(known) if k is None]
    if new:
        blobs = [sc.blobs[i] for i in new]
        groups = split_clusters(sc, blobs)
        for i, cards in zip(new, orient_clusters(frame, sc, blobs, groups, model,
                                                  model.scaled_zones((fw, fh))), strict=True):
            known[i] = cards
    if memory is not None:
        memory.keep([(b, t, k or ()) for b, t, k in zip(sc.blobs, thumbs, known, strict=True)])
    return Detection(cards=tuple(c for k in known for c in k or ()), card_long_px=sc.long / sc.scale)


def split_clusters(sc: _Scene, blobs: list[_Blob]) -> list[list[np.ndarray]]:
    """The cards of each cluster, frame pixels, portrait order (all clusters at once)."""
    from controller.vision.split import portraits, split_all  # here: split.py builds on this module

    found = split_all(blobs, sc.long, sc.minch(), sc.scale, sc.mask)
    flat = [q for qs in found for q in qs]
    if not flat:
        return [[] for _ in found]
    quads = list(portraits(np.asarray(flat) / sc.scale))
    out, k = [], 0
    for qs in found:
        out.append(quads[k:k + len(qs)])
        k += len(qs)
    return out


def orient_clusters(frame: np.ndarray, sc: _Scene, blobs: list[_Blob], groups: list[list[np.ndarray]],
                    model: VisionModel, zones: Mapping[str, np.ndarray],
                    read: bool = True) -> list[tuple[DetectedCard, ...]]:
    """Face, zone and (unless `read` is false) code of each card of each cluster, and a face hidden all but
    a band under a cluster with a face-down card."""
    from controller.vision.orient import cluster_cards, hidden_faces

    cards = cluster_cards(frame, groups, model.back, zones)
    downs = [[c.polygon for c in cs if not c.face_up] for cs in cards]
    ups = [[c.polygon for c in cs if c.face_up] for cs in cards]
    with_downs = [b for b, d in zip(blobs, downs, strict=True) if d]
    bands: list[np.ndarray | None] = [None] * len(blobs)
    if with_downs:
        x0 = max(min(b.origin[0] for b in with_downs), 0)
        y0 = max(min(b.origin[1] for b in with_downs), 0)
        x1 = max(b.origin[0] + b.filled.shape[1] for b in with_downs)
        y1 = max(b.origin[1] + b.filled.shape[0] for b in with_downs)
        bands = hidden_faces(_paper_white(sc, model, x0, y0, x1, y1), (x0, y0), sc.mask, blobs, downs, ups,
                             sc.scale, sc.long / sc.scale)
    out = []
    for g, cs, band in zip(groups, cards, bands, strict=True):
        if read:
            cs = [replace(c, card=_read(frame, c.polygon, [o for o in g if o is not c.polygon], model))
                  if c.face_up else c for c in cs]
        if band is not None:
            cs = [*cs, DetectedCard(polygon=portrait(band), face_up=True, paper=1.0, card=None,
                                    zone=_zone_of(band, zones))]
        out.append(tuple(cs))
    return out


def _paper_white(sc: _Scene, model: VisionModel, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """Paper-white pixels of a box of the work frame: above 70 % of the way from the felt to the cards'
    white under the felt fit; with an empty-table reference (no felt fit made), the min channel above
    0.72 × the cards' white (95 % of the min channel over the card mask, as the face test's white)."""
    if sc._layers is not None or model.reference is None:
        return sc.layers.paper_white(x0, y0, x1, y1)
    work = min_channel(sc.small)
    white = max(quantile(work[sc.mask > 0], 0.95), 20.0) if sc.mask.any() else 255.0
    return np.asarray(work[y0:y1, x0:x1] > 0.72 * white)


def _read(frame: np.ndarray, quad: np.ndarray, others: list[np.ndarray], model: VisionModel) -> str | None:
    """Learned glyphs when calibrated with them; else the trained index model (new or changed cards only)."""
    if model.glyphs is not None:
        return read_index(frame, quad, others, model.glyphs)
    if others:
        return None  # the trained reader does not mask cards lying on this one: no read beats a misread
    from controller.vision.single import READS  # here: single.py imports this module

    return READS.read(frame, quad)


def _centre(q: np.ndarray) -> tuple[float, float]:
    c = q.mean(axis=0)
    return float(c[0]), float(c[1])
