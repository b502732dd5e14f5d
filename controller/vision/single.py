"""Single-frame card finding with no calibration: any table colour, white or dark decks, touching cards.

A card is a region of near-uniform border colour with a rectangular outline of card shape. Neither the
table nor the deck colour is known, so the grey image is cut at several levels in both polarities (cards
lighter than the table, or darker), and every connected region that is a filled rectangle of card
proportions is a card. Regions several cards large that are not rectangles are touching or overlapping
cards: they are split with the outline-corner search of `detect._split`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import cv2
import numpy as np

from controller.vision.detect import (
    CARD_ASPECT,
    DetectedCard,
    Detection,
    VisionModel,
    _Blob,
    _poly_basis,
    _refine,
    _scene,
    _seg_dist,
    _split,
    min_channel,
    portrait,
)
from controller.vision.index import ReadCache

WORK_LONG = 320  # cards are found on a frame scaled to this long side (speed); corners are refined after
LEVELS = 7  # grey levels per polarity
FILL_MIN = 0.86  # contour area / its min-area rectangle, for a whole card (rounded corners, blur)
ASPECT = (1.0, 2.0)  # long/short: wide because real photos are often stretched (src1: up to ×1.33)
MIN_LONG = 0.06  # card long side as a fraction of the frame's long side
MAX_AREA = 0.4  # a card covers at most this share of the frame (close-ups)
SQUARE = 0.6  # quad area / (mean short side × mean long side): ≈ 0.85 for a card turned 45° in a photo
# stretched ×1.78 (Roboflow's squared 16:9 frames), ≈ 1 seen straight; a thin rhombus far less
SAME = 0.5  # IoU above which two rectangles are the same card
EDGE_MIN = 10.0  # colour step (grey levels) across three of a card's four sides; a level's cut through a
# smooth shade of the table (a pool of light) has almost none
SHADE_WINDOW = 0.4  # median window (share of the work frame's long side, two to three cards): "shading"
_T = np.linspace(0.15, 0.85, 9, dtype=np.float32)


@dataclass(frozen=True, slots=True)
class Found:
    quad: np.ndarray  # 4×2 frame pixels, portrait order
    fill: float  # rectangularity of the region it came from (1.0 for split cards is not claimed: 0.0)
    dark: bool  # found as a region darker than its surroundings (a dark deck)
    piled: bool = False  # already looked at for a pile's inner edge (`pile_pair`): split_piles skips it


def _levels(gray: np.ndarray) -> np.ndarray:
    """Cut levels spread over the grey values the frame has, plus levels between the table's common
    greys (quantiles), where low-contrast cards (white on a light desk) separate from it."""
    sample = gray[::4, ::4]
    lo, hi = np.percentile(sample, (1, 99.5))
    even = np.linspace(lo, hi, LEVELS + 2)[1:-1]
    return np.unique(np.concatenate([even, np.percentile(sample, (10, 90, 97))]).round())


def _rect_of(contour: np.ndarray, fill_min: float = FILL_MIN, aspect: tuple[float, float] = ASPECT
             ) -> tuple[np.ndarray, float, float] | None:
    """(quad, fill, long side) when a contour is a filled convex quadrilateral of card proportions.

    A quadrilateral, not a rotated rectangle: perspective and stretched photos make cards trapezoids and
    parallelograms. Rounded corners and blur cost a little fill, so the bar is below 1.
    """
    area = cv2.contourArea(contour)
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.02, 0.035, 0.05, 0.07):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) <= 4:
            quad = approx
            break
    if quad is None or len(quad) != 4:
        return None
    q = quad.reshape(4, 2).astype(np.float32)
    qa = cv2.contourArea(q)
    if qa < 1:
        return None
    return _card_shape(q, qa, min(area, qa) / max(area, qa), fill_min, aspect)


def _card_shape(q: np.ndarray, qa: float, fill: float, fill_min: float, aspect: tuple[float, float]
                ) -> tuple[np.ndarray, float, float] | None:
    """(quad, fill, long side) when a quad of area `qa` has a card's shape and fills its region enough."""
    sides = np.hypot(*(q - np.roll(q, -1, axis=0)).T)
    short = min(sides[0] + sides[2], sides[1] + sides[3]) / 2
    long = max(sides[0] + sides[2], sides[1] + sides[3]) / 2
    if fill < fill_min or short < 6 or not aspect[0] <= long / short <= aspect[1]:
        return None
    if min(sides[0], sides[2]) < 0.6 * max(sides[0], sides[2]) \
            or min(sides[1], sides[3]) < 0.6 * max(sides[1], sides[3]):
        return None  # opposite sides of a card differ little even in steep perspective
    if qa < SQUARE * short * long:
        return None  # a thin rhombus (a sliver of table between cards): a card's corners stay near square
    return q, fill, float(long)


CUT_SEEN = 0.75  # share of a card the frame must show for it to count (vision-dev's truth: ≥ ~3/4 inside)


def _rect_cut(contour: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, float, float] | None:
    """A card that the frame's edge cuts across one corner: its region is a pentagon with one side on the
    frame's border. The two sides next to that one, run on until they meet beyond the frame, give the
    hidden corner; the card counts when the frame shows at least CUT_SEEN of it (its region against the
    whole quad) and the quad has a card's shape. The quad's corner then lies outside the frame."""
    h, w = shape[:2]
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    p = np.zeros((0, 2), np.float32)
    for eps in (0.02, 0.035, 0.05):
        p = cv2.approxPolyDP(hull, eps * peri, True).reshape(-1, 2).astype(np.float32)
        if len(p) <= 5:
            break
    if len(p) != 5:
        return None
    lo, hi = np.minimum(p, 1.0), np.maximum(p, [w - 2.0, h - 2.0])
    for i in range(5):
        a, b = i, (i + 1) % 5
        on_border = [(p[a, k] <= lo[a, k] and p[b, k] <= lo[b, k])
                     or (p[a, k] >= hi[a, k] and p[b, k] >= hi[b, k]) for k in (0, 1)]
        if any(on_border):
            break
    else:
        return None
    prev, nxt = p[(i - 1) % 5], p[(i + 2) % 5]
    d1, d2 = p[i] - prev, p[(i + 1) % 5] - nxt
    m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float64)
    if abs(float(np.linalg.det(m))) < 1e-6:
        return None
    t = np.linalg.solve(m, (nxt - prev).astype(np.float64))
    if t[0] <= 1.0 or t[1] <= 1.0:
        return None  # the two sides meet inside the frame: not a corner cut off by it
    corner = (prev + t[0] * d1).astype(np.float32)
    if 0 <= corner[0] <= w - 1 and 0 <= corner[1] <= h - 1:
        return None
    q = np.array([prev, corner, nxt, p[(i + 3) % 5]], np.float32)
    qa = cv2.contourArea(q)
    if qa < 1:
        return None
    seen = cv2.contourArea(contour) / qa
    return _card_shape(q, qa, seen, CUT_SEEN, ASPECT) if seen <= 1.05 else None


def _fit_sides(q: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """The quad's sides fitted to the outline points along them (approxPolyDP vertices are rough)."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    short = min(float(np.hypot(*(q[1] - q[0]))), float(np.hypot(*(q[2] - q[1]))))
    tol = max(1.5, 0.05 * short)
    return _refine(q, pts[_seg_dist(pts, q) < tol], tol)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a, b)
    if inter <= 0:
        return 0.0
    return float(inter / (cv2.contourArea(a) + cv2.contourArea(b) - inter))


def edge_contrast(img: np.ndarray, quad: np.ndarray, reach: float = 1.0) -> float:
    """The colour step across the quad's outline on its third-strongest side (a card on top hides one side
    of the card below), sampled `reach` × 6 % of the short side (at least 1.5 px) either side of it. All
    four sides are sampled in one gather (speed; the same samples as one side at a time)."""
    q = np.asarray(quad, np.float32)
    centre = q.mean(axis=0)
    short = min(np.hypot(*(q[1] - q[0])), np.hypot(*(q[2] - q[1])))
    d = max(1.5, 0.06 * float(short)) * reach
    along = np.roll(q, -1, axis=0) - q  # side i runs from corner i to corner i + 1
    pts = q[:, None, :] + _T[None, :, None] * along[:, None, :]  # 4×T×2
    n = np.stack([-along[:, 1], along[:, 0]], axis=1)
    n /= np.maximum(np.hypot(n[:, 0], n[:, 1]), 1e-6)[:, None]
    n[((centre - q) * n).sum(axis=1) < 0] *= -1  # inward
    off = d * n[:, None, :]
    v = _sample3(img, np.concatenate([(pts + off).reshape(-1, 2), (pts - off).reshape(-1, 2)]))
    vin, vout = v[:4 * len(_T)], v[4 * len(_T):]
    steps = np.median(np.abs(vin - vout).max(axis=1).reshape(4, len(_T)), axis=1)
    return float(np.sort(steps)[1])


def edge_contrast_seen(img: np.ndarray, quad: np.ndarray, others: list[np.ndarray]) -> float:
    """The colour step across the quad's outline where no other card lies over it, over its sides that
    show at least SEEN_SIDE of their points: the second-weakest of three or four, the weaker of two, 0
    with fewer. The card beneath a pair has one or two sides partly under the top card; black on black,
    those parts show no step at all, so `edge_contrast` (one hidden side allowed) rejects it."""
    q = np.asarray(quad, np.float32)
    centre = q.mean(axis=0)
    short = min(np.hypot(*(q[1] - q[0])), np.hypot(*(q[2] - q[1])))
    d = max(1.5, 0.06 * float(short))
    along = np.roll(q, -1, axis=0) - q
    pts = q[:, None, :] + _T[None, :, None] * along[:, None, :]  # 4×T×2
    n = np.stack([-along[:, 1], along[:, 0]], axis=1)
    n /= np.maximum(np.hypot(n[:, 0], n[:, 1]), 1e-6)[:, None]
    n[((centre - q) * n).sum(axis=1) < 0] *= -1  # inward
    off = d * n[:, None, :]
    flat = pts.reshape(-1, 2)
    seen = np.ones(len(flat), bool)
    for o in others:
        c = np.asarray(o, np.float32).reshape(-1, 1, 2)
        # A point within the probe's reach of another card's inside is under it (or on its edge).
        seen &= np.array([cv2.pointPolygonTest(c, (float(x), float(y)), True) < d for x, y in flat])
    v = _sample3(img, np.concatenate([(pts + off).reshape(-1, 2), (pts - off).reshape(-1, 2)]))
    step = np.abs(v[:len(flat)] - v[len(flat):]).max(axis=1).reshape(4, len(_T))
    seen = seen.reshape(4, len(_T))
    sides = sorted(float(np.median(step[i][seen[i]])) for i in range(4) if seen[i].mean() >= SEEN_SIDE)
    # One side may still be hidden where `others` missed the card over it, as in `edge_contrast`.
    return sides[1] if len(sides) >= 3 else sides[0] if len(sides) == 2 else 0.0


SEEN_SIDE = 0.4  # share of a side's points clear of other cards for the side to count in `edge_contrast_seen`


def _sample3(img: np.ndarray, p: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    xi = np.clip(np.round(p[:, 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(p[:, 1]).astype(int), 0, h - 1)
    return img[yi, xi].astype(np.float32)


_Rect = tuple[np.ndarray, float, bool, np.ndarray]  # quad, fill, dark, contour (work pixels)


def _components(gray: np.ndarray, colour: np.ndarray, min_area: float, max_area: float,
                cuts: list[tuple[float, bool]] | None = None
                ) -> tuple[list[_Rect], list[tuple[np.ndarray, bool]]]:
    """Card-shaped regions (quad, fill, dark, contour) and larger non-rectangular regions (contour, dark)
    at every level (`cuts`: (level, dark) pairs; by default _levels in both polarities). Edge checks and
    side fits wait until duplicates are dropped (speed)."""
    rects: list[_Rect] = []
    groups: list[tuple[np.ndarray, bool]] = []
    if cuts is None:
        cuts = [(float(t), dark) for t in _levels(gray) for dark in (False, True)]
    least = _least_points(min_area)
    for t, dark in cuts:
        mode = cv2.THRESH_BINARY_INV if dark else cv2.THRESH_BINARY
        _, binary = cv2.threshold(gray, float(t), 255, mode)
        contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for c in contours:
            if len(c) < least:
                continue
            x, y, w, h = cv2.boundingRect(c)
            if w * h < min_area or w * h > 4 * max_area:
                continue
            area = cv2.contourArea(c)
            if area < min_area:
                continue
            r = _rect_of(c) if area <= max_area else None
            if r is None and area <= max_area and len(c) < 6 * np.sqrt(area) \
                    and _touches_border(x, y, w, h, gray.shape):
                r = _rect_cut(c, gray.shape)
            if r is not None:
                rects.append((r[0], r[1], dark, c))
            elif 1.5 * min_area < area < 6 * max_area and not _touches_border(x, y, w, h, gray.shape):
                groups.append((c, dark))
    return rects, groups


ROW_CARDS = (3, 5)  # cards in a board's row
ROW_PITCH = (0.6, 0.95)  # row length per card over the row's width: 63 mm + a gap of 0–7 mm over 88 mm,
# stretched or shortened by the view (rendered and real cameras: 0.65–0.9)
ROW_EVEN = (0.70, 0.80)  # … with no seam seen, only a row whose card count its length tells
ROW_SIZE = (0.75, 1.33)  # the row's width against the clean cards' long side, when there are two or more
ROW_SEAM = 12.0  # grey step across a seam between cards of a row, held along most of the row's width
_RH = 32  # canonical height (px) of a row searched for its seams


def _row_cards(groups: list[tuple[np.ndarray, bool]], colour: np.ndarray, frame: np.ndarray, full: np.ndarray,
               scale: float, size: float | None) -> list[_Rect]:
    """A board dealt in a row with the cards touching or a millimetre or two apart is one region at the
    work scale (the gaps vanish), a filled rectangle as wide as a card is long and 3–5 cards long: no level
    cuts a single card out, and no card gives the typical size. In such a light region (face-up paper)
    the seams between the cards still show at full resolution: a straight step across the whole row's
    width near every n-th of its length, for the one n that fits. The row is cut at its seams."""
    out: list[_Rect] = []
    rows: list[np.ndarray] = []
    for c, dark in groups:
        if dark:
            continue
        (cx, cy), (w, h), ang = cv2.minAreaRect(c)
        if min(w, h) < 6 or cv2.contourArea(c) < FILL_MIN * w * h:
            continue
        ratio = max(w, h) / min(w, h)
        if not ROW_CARDS[0] * ROW_PITCH[0] <= ratio <= ROW_CARDS[1] * ROW_PITCH[1]:
            continue
        # One deck, one size: where clean cards give the size, a row is as wide as a card is long (a
        # single card stretched long by a squeezed photo is as wide as a card is wide).
        if size is not None and not ROW_SIZE[0] * size <= min(w, h) <= ROW_SIZE[1] * size:
            continue
        box = cv2.boxPoints(((cx, cy), (w, h), ang)).astype(np.float32)
        if any(_iou(box, r) >= SAME for r in rows) or edge_contrast(colour, box) < EDGE_MIN:
            continue
        a, b, d = box[0], box[1], box[3]
        if np.hypot(*(b - a)) < np.hypot(*(d - a)):
            a, b, d = box[1], box[2], box[0]
        cuts = _row_seams(full, np.float32([a, b, b + d - a, d]) / scale, ratio)
        if cuts is None:
            # No seams seen (blur, cards overlapping by a millimetre): equal parts, when one count of
            # cards fits the row's length for an undistorted card and a small gap.
            n = round(ratio / sum(ROW_EVEN) * 2)
            if not (ROW_CARDS[0] <= n <= ROW_CARDS[1] and ROW_EVEN[0] <= ratio / n <= ROW_EVEN[1]):
                continue
            cuts = [i / n for i in range(n + 1)]
        along, across = b - a, d - a
        parts = [np.float32([a + t0 * along, a + t1 * along, a + t1 * along + across,
                             a + t0 * along + across]) for t0, t1 in itertools.pairwise(cuts)]
        # A board is face up: every part a face (a single card cut in three has a bare middle).
        if not all(is_face_up(face_features(frame, portrait(q / scale))) for q in parts):
            continue
        rows.append(box)
        out += [(q, 1.0, False, np.round(q).astype(np.int32).reshape(-1, 1, 2)) for q in parts]
    return out


def _row_seams(full: np.ndarray, quad: np.ndarray, ratio: float) -> list[float] | None:
    """Where a row of cards (quad: corners 0→1 along the row, 1→2 across, frame pixels) divides into its
    cards, as shares of its length from 0 to 1; None when no count of 3–5 cards has a seam near each of
    its n − 1 equal cuts."""
    wc = max(8, round(_RH * ratio))
    dst = np.float32([[0, 0], [wc, 0], [wc, _RH], [0, _RH]])
    img = cv2.warpPerspective(full, cv2.getPerspectiveTransform(quad, dst), (wc, _RH),
                              flags=cv2.INTER_AREA).astype(np.float32)
    band = img[round(0.1 * _RH):round(0.9 * _RH)]
    gx = np.abs(band[:, 2:] - band[:, :-2])  # at columns 1 … wc − 2
    held = np.sort(gx, axis=0)[round(0.3 * len(gx))]  # the step most rows of the row's width exceed
    best: tuple[float, list[float]] | None = None
    for n in range(ROW_CARDS[0], ROW_CARDS[1] + 1):
        if not ROW_PITCH[0] <= ratio / n <= ROW_PITCH[1]:
            continue
        tol = max(1, round(0.12 * wc / n))
        cuts, weakest = [0.0], np.inf
        for i in range(1, n):
            x = round(i * wc / n) - 1
            lo, hi = max(0, x - tol), min(len(held), x + tol + 1)
            k = lo + int(np.argmax(held[lo:hi]))
            weakest = min(weakest, float(held[k]))
            cuts.append((k + 1) / wc)
        if weakest >= ROW_SEAM and (best is None or weakest > best[0]):
            best = (weakest, [*cuts, 1.0])
    return None if best is None else best[1]


def _least_points(min_area: float) -> int:
    """Fewest outline points (CHAIN_APPROX_NONE) of a contour whose bounding box covers `min_area`: the
    outline steps one pixel a point, so it has at least twice the box's longer side less two, and that
    side is at least the root of the area. Noise specks are skipped on their length alone (speed)."""
    return max(0, int(2 * np.sqrt(min_area)) - 3)


def flatten(gray: np.ndarray, window: float) -> np.ndarray:
    """The grey image with the table's slow shading taken out: minus its median over `window` px, so a
    white card on a light desk whose brightness drifts across the frame stands out by the same step
    everywhere. The median (not a mean) ignores a card covering less than half the window, and follows a
    ramp of light to the frame's edge; it runs on an 8× smaller copy (a shade that slow loses nothing)."""
    h, w = gray.shape
    tiny = cv2.resize(gray, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA)
    k = max(3, int(window / 8) | 1)
    bg = cv2.resize(cv2.medianBlur(tiny, k), (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(gray.astype(np.int16) - bg.astype(np.int16) + 128, 0, 255).astype(np.uint8)


# Cuts on the flattened image: the table sits near 128 there, a card a step above (or below: a dark deck).
FLAT_STEPS = (8.0, 16.0, 28.0, 45.0)
FLAT_CUTS = [(128.0 + d, False) for d in FLAT_STEPS] + [(128.0 - d, True) for d in FLAT_STEPS]


def _touches_border(x: int, y: int, w: int, h: int, shape: tuple[int, ...]) -> bool:
    return x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]


def _nms(rects: list[_Rect], colour: np.ndarray) -> list[_Rect]:
    """One rectangle per card. Each level finds a card again: keep the best-filled, except that a card
    beats a rectangle inside it (a back's coloured field, a court's picture frame). Only a rectangle with
    a clear edge on three sides counts (checked when it would be kept: the check costs more than IoU)."""
    out: list[_Rect] = []
    for r in sorted(rects, key=lambda r: -r[1]):
        clash = [i for i, o in enumerate(out) if _iou(r[0], o[0]) >= SAME]
        if clash and not all(_holds(r[0], out[i][0], 0.95) for i in clash):
            continue
        if edge_contrast(colour, r[0]) < EDGE_MIN:
            continue
        if not clash:
            out.append(r)
        else:
            for i in sorted(clash, reverse=True):
                del out[i]
            out.append(r)
    # A rectangle holding two or more others is a block of touching cards' outline, not a card.
    return [r for r in out if sum(_holds(r[0], o[0]) for o in out if o is not r) < 2]


def _holds(big: np.ndarray, small: np.ndarray, most: float = 0.7) -> bool:
    """`small` lies (almost) inside `big` and is clearly smaller than it."""
    a_big, a_small = cv2.contourArea(big), cv2.contourArea(small)
    return a_small < most * a_big and _overlap(big, small) >= 0.8 * a_small


def find_cards(frame: np.ndarray, split: bool = True) -> tuple[list[Found], float]:
    """Every card quadrilateral in the frame (frame pixels) and the typical card long side. With `split`
    false, regions of touching cards are left alone (the felt model splits them on a smooth table)."""
    fh, fw = frame.shape[:2]
    scale = min(1.0, WORK_LONG / max(fh, fw))
    small = cv2.resize(frame, (round(fw * scale), round(fh * scale)), interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    side = max(gray.shape)
    min_area = (MIN_LONG * side) ** 2 / CARD_ASPECT
    max_area = MAX_AREA * gray.shape[0] * gray.shape[1]
    rects, groups = _components(gray, small, min_area, max_area)
    cards = [(_fit_sides(r[0], r[3]), r[1], r[2], r[3]) for r in _nms(rects, small)]
    full = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if scale < 1 else gray
    # A board dealt touching is one region here: cut at its seams, its cards give the size too.
    clean = [_long_side(r[0]) for r in cards if 1.25 <= _aspect(r[0]) <= 1.65]
    size = float(np.median(clean)) if len(clean) >= 2 else None
    cards += [r for r in _row_cards(groups, small, frame, full, scale, size)
              if all(_iou(r[0], o[0]) < SAME for o in cards)]
    # Two cards squared up (a hole pair) make one card-like rectangle: the top card's own edge across it
    # tells (pile_pair). The typical card size is then the top card's, not the pair's (a table before the
    # flop shows nothing but pairs), and where this finder splits piles itself (`split`) the pair is its
    # two cards; on a smooth table the felt model splits them (its cards replace the rectangle).
    piles = [pile_pair(full, r[0] / scale) if _aspect(r[0]) < PILE_ASPECT else None for r in cards]
    longs = [_long_side(r[0]) if p is None else _long_side(p[0]) * scale
             for r, p in zip(cards, piles, strict=True)]
    inner = [_inner(r[0], r[2], groups, rects) for r in cards]
    long = _typical_long(longs, [r[0] / scale for r in cards], inner, frame) if longs else 0.2 * side
    # Cards smaller than half the typical card are pips or print on a card (a big ace's suit), not cards.
    # (A rectangle inside another card stays: a back's field is often the only rectangle of its card.)
    keep = [ln > 0.55 * long for ln in longs]
    pairs = [(p, r[2]) for r, p, k in zip(cards, piles, keep, strict=True) if k and p is not None and split]
    # Rectangles looked at and found no pile need no second look (split_piles); a pair left whole for the
    # felt model gets one after it, if the felt model has not split it.
    looked = {id(r[0]) for r, p in zip(cards, piles, strict=True)
              if p is None and _aspect(r[0]) < PILE_ASPECT}
    cards = [r for r, p, k in zip(cards, piles, keep, strict=True) if k and (p is None or not split)]
    cards, unions = _pairs_apart(cards)
    groups += [(np.round(u).astype(np.int32).reshape(-1, 1, 2), d) for u, d in unions]
    search = max(2.0, 2.5 / scale)
    found = [Found(quad=portrait(refine_quad(full, r[0] / scale, search)), fill=r[1], dark=r[2],
                   piled=id(r[0]) in looked) for r in cards]
    found += [Found(quad=portrait(q), fill=0.0, dark=d, piled=True) for p, d in pairs for q in p]
    if split:
        taken = [r[0] for r in cards] + [q * scale for p, _ in pairs for q in p]
        found += _split_groups(groups, taken, long, frame, small, scale)
        # Not on a smooth table (split false): its piles are split later by the felt model, so a pile's
        # flattened outline would clear every card found here and count as one more card.
        found += _pale_cards(gray, small, found, (min_area, max_area), long, scale, full, search)
        found += _edge_cards(frame, small, found, (min_area, max_area), long, scale, full, search)
    return found, long / scale


SIZE_AGREE = 0.12  # two candidates' long sides within this share of each other confirm the card size
SIZE_MOVE = 0.2  # the confirmed size replaces the plain median only when it differs by more than this share
INNER_AREA = (1.8, 30.0)  # the other polarity's region round a rectangle inside a card: area against its own
INNER_CARD = 1.33  # a card's long side against its court picture frame's (≈ 66 of 88 mm, as rendered)


def _inner(q: np.ndarray, dark: bool, groups: list[tuple[np.ndarray, bool]], rects: list[_Rect]) -> bool:
    """A candidate lying wholly inside a region of the other polarity at least INNER_AREA × its own
    area: a court's picture frame or a back's field inside the card's paper border, or print on a card
    (a light picture inside a black card, a dark picture inside a white one). A card on the table lies
    in the table's region, which touches the frame's border (no group) or is far larger than a card."""
    a = _area(q)
    for c, d in itertools.chain(groups, ((r[3], r[2]) for r in rects)):
        if d == dark:
            continue
        ca = cv2.contourArea(c)
        if INNER_AREA[0] * a <= ca <= INNER_AREA[1] * a \
                and all(cv2.pointPolygonTest(c, (float(x), float(y)), False) >= 0 for x, y in q):
            return True
    return False


def _typical_long(longs: list[float], quads: list[np.ndarray], inner: list[bool], frame: np.ndarray) -> float:
    """The typical card's long side. The plain median of the candidates' long sides let a court's picture
    frame, a back's field or a sliver of table set it when only two or three candidates were found
    (issue #18: the splitter then cut pairs into fragments of that size). Now a candidate is confirmed as
    a whole card by other candidates of its size (one weight each) or, with none, by an index in its
    portrait diagonal's corners (weight one), and a rectangle inside another card (`_inner`) is never
    one; the confirmed candidates' median, each weighted by its confirmations, replaces the plain median
    when it clearly differs. When every candidate lies inside another card, the card is INNER_CARD × the
    largest of them."""
    ln = np.asarray(longs, np.float64)
    plain = float(np.median(ln))
    if all(inner):
        return INNER_CARD * float(ln.max())
    weight = (np.abs(ln[:, None] / ln[None, :] - 1.0) <= SIZE_AGREE).sum(axis=1) - 1.0
    for i, q in enumerate(quads):
        if not inner[i] and weight[i] == 0:  # the face test only where no other candidate confirms (speed)
            f = face_features(frame, portrait(q))
            weight[i] = float(f.asym > INDEX and f.quiet < QUIET)
    weight[np.asarray(inner)] = 0.0  # print on a card does not set the card's size
    if not weight.any():
        return plain  # nothing confirmed: no reason to move
    ok = weight > 0
    ln, weight = ln[ok], weight[ok]
    order = np.argsort(ln)
    cum = np.cumsum(weight[order])
    half = cum[-1] / 2
    k = int(np.searchsorted(cum, half))
    if abs(cum[k] - half) < 1e-9 and k + 1 < len(ln):
        confirmed = float((ln[order[k]] + ln[order[k + 1]]) / 2)  # an even split: the middle, as a median
    else:
        confirmed = float(ln[order[k]])
    # The splitter's cards follow the size closely: a few percent either way cuts piles differently, so
    # the plain median stands unless the confirmed candidates clearly disagree with it.
    return confirmed if abs(confirmed / plain - 1.0) > SIZE_MOVE else plain


EDGE_CANNY = (10.0, 30.0)  # hysteresis thresholds of the outline finder (grey levels per pixel, L2 gradient)
EDGE_ASPECT = (1.0, 2.6)  # long/short of an outlined card: a 16:9 frame stretched square, a steep view
EDGE_SIZE = (0.6, 1.5)  # long side against the typical card's (a keyboard key or a screen is neither)
EDGE_SOLID = 0.65  # region area / its hull's, cards touching at a side or a corner (two at a corner: ~0.75)
EDGE_FILL = 0.8  # an outline-enclosed region's fill: an index or a pip touching the card's edge notches it


def _edge_cards(frame: np.ndarray, small: np.ndarray, found: list[Found], areas: tuple[float, float],
                long: float, scale: float, full: np.ndarray, search: float) -> list[Found]:
    """Cards no grey level separates from the table (a white card on a white or grey desk whose greys
    match the card's, a card on a knitted blanket whose folds are as light as paper): the regions closed
    by the image's edges. A 3×3 median first takes out salt-and-pepper noise; edges are grown by a pixel
    to close small gaps. A closed region of card shape clear of every card found so far is a card; one
    1.3–4 cards large (cards touching at a corner or a side) goes to the outline-corner splitter. A
    region bounded by the frame's border is left alone: the card it belongs to may lie beyond."""
    taken = [f.quad * scale for f in found]

    def clear(q: np.ndarray) -> bool:
        return all(_overlap(t, q) < 0.1 * cv2.contourArea(q) for t in taken)

    grey = cv2.medianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), 3)
    edges = cv2.dilate(cv2.Canny(grey, *EDGE_CANNY, L2gradient=True), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(cv2.bitwise_not(edges), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    card_area = long * long / CARD_ASPECT
    cands: list[_Rect] = []
    groups: list[tuple[np.ndarray, bool]] = []
    least = _least_points(areas[0])
    for c in contours:
        if len(c) < least:
            continue
        x, y, w, h = cv2.boundingRect(c)
        if w * h < areas[0] or _touches_border(x - 1, y - 1, w + 2, h + 2, grey.shape):
            continue
        area = cv2.contourArea(c)
        if areas[0] <= area <= areas[1]:
            r = _rect_of(c, EDGE_FILL, EDGE_ASPECT)
            if r is not None:
                if EDGE_SIZE[0] * long <= r[2] <= EDGE_SIZE[1] * long and clear(r[0]):
                    cands.append((r[0], r[1], False, c))
                continue
        if 1.3 * card_area < area < 4 * card_area:
            hull = cv2.convexHull(c).reshape(-1, 2).astype(np.float32)
            # Touching cards make a nearly convex region; a hand, a cable or a keyboard's gaps do not.
            # A region mostly covered by cards found already is a pile's part: not split again.
            if area >= EDGE_SOLID * cv2.contourArea(hull) \
                    and sum(_overlap(hull, t) for t in taken) < 0.3 * area:
                groups.append((c, False))
    out = []
    for r in _nms(cands, small):
        q = _fit_sides(r[0], r[3])
        # The step must hold twice as far out too: the inside of a thin printed or drawn frame (a card box
        # printed on a layout, a tile's grout) is the same table on both sides of the line.
        if clear(q) and edge_contrast(small, q, 2.0) >= EDGE_MIN:
            out.append(Found(quad=portrait(refine_quad(full, q / scale, search)), fill=r[1], dark=r[2]))
            taken.append(q)
    if groups:
        out += _split_groups(groups, taken, long, frame, small, scale)
    return out


def _pale_cards(gray: np.ndarray, small: np.ndarray, found: list[Found], areas: tuple[float, float],
                long: float, scale: float, full: np.ndarray, search: float) -> list[Found]:
    """Cards the grey levels miss because the table's light drifts: the same cuts on the grey image with
    its slow shading taken out (a pale card on a light desk by a window or under a pool of light). Only
    rectangles clear of every card found so far count: on a pile of cards they outline the pile as one."""
    taken = [f.quad * scale for f in found]

    def clear(q: np.ndarray) -> bool:
        return all(_overlap(t, q) < 0.1 * cv2.contourArea(q) for t in taken)

    # Rectangles over a card already found are dropped before the edge checks of _nms (speed).
    cands = _components(flatten(gray, SHADE_WINDOW * max(gray.shape)), small, *areas, FLAT_CUTS)[0]
    out = []
    for r in _nms([r for r in cands if clear(r[0])], small):
        q = _fit_sides(r[0], r[3])
        if _long_side(q) > 0.55 * long and clear(q):
            out.append(Found(quad=portrait(refine_quad(full, q / scale, search)), fill=r[1], dark=r[2]))
            taken.append(q)
    return out


_TR = np.linspace(0.12, 0.88, 14, dtype=np.float32)


def refine_quad(gray: np.ndarray, quad: np.ndarray, search: float) -> np.ndarray:
    """Move each side onto the strongest grey step within `search` pixels of it (full resolution), then
    intersect the fitted sides: the work-resolution outline is a few frame pixels off."""
    q = np.asarray(quad, np.float32)
    offs = np.arange(-np.ceil(search), np.ceil(search) + 1, dtype=np.float32)
    lines = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        u = (b - a) / max(float(np.hypot(*(b - a))), 1e-6)
        n = np.float32([-u[1], u[0]])
        if float((q.mean(axis=0) - a) @ n) < 0:
            n = -n  # inward
        pts = a + _TR[:, None] * (b - a)  # T×2
        probe = pts[:, None, :] + offs[None, :, None] * n  # T×S×2, from outside in
        prof = _sample1(gray, probe.reshape(-1, 2)).reshape(len(_TR), len(offs))
        step = np.abs(np.diff(prof, axis=1))
        # The card's edge is the strong step nearest the coarse outline: print near the edge (an index)
        # or a neighbouring card's edge across a narrow gap can step harder.
        strong_enough = step >= 0.5 * step.max(axis=1, keepdims=True)
        near = np.abs(offs[:-1] + 0.5)[None, :] + np.where(strong_enough, 0, 1e3)
        k = np.argmin(near, axis=1)
        strong = step[np.arange(len(_TR)), k] > 12
        if strong.sum() < 5:
            lines.append((a, u))
            continue
        best = pts[strong] + ((offs[k[strong]] + 0.5)[:, None]) * n
        vx, vy, x0, y0 = cv2.fitLine(best.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float32)
        if abs(float(np.linalg.det(m))) < 1e-3:
            out.append(q[i])
            continue
        t = np.linalg.solve(m, p2 - p1)
        corner = p1 + t[0] * d1
        out.append(corner if np.hypot(*(corner - q[i])) < 3 * search else q[i])
    return np.array(out, np.float32)


def _sample1(img: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Bilinear samples of a grey image at points (sub-pixel edges need more than nearest pixels)."""
    m = p.reshape(1, -1, 2).astype(np.float32)
    out = cv2.remap(img, m[..., 0], m[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(-1).astype(np.float32)


def _long_side(q: np.ndarray) -> float:
    sides = np.hypot(*(q - np.roll(q, -1, axis=0)).T)
    return float(max(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def squareness(q: np.ndarray) -> float:
    """Quad area against mean short side × mean long side: 1 for a rectangle, less the further its
    corners are from square."""
    e = np.asarray(q, np.float32)
    e = e[[1, 2, 3, 0]] - e
    sides = np.sqrt((e * e).sum(axis=1))
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return _area(q) / max(float(a * b), 1e-6)


def _area(q: np.ndarray) -> float:
    return float(cv2.contourArea(np.asarray(q, np.float32)))


def _pairs_apart(cards: list[_Rect]
                 ) -> tuple[list[_Rect], list[tuple[np.ndarray, bool]]]:
    """Rectangles much larger than the typical clean card (one of card aspect) are two cards squared up
    on each other (a hole pair): they go to the splitter instead. (Letting a card-shaped rectangle up to
    2.2× the typical size stand as one card nearer the lens found 2 more cards on vision-dev's oblique
    photos but broke squared hole pairs on rendered tables: board exact 6/6 -> 5/6; not used.)"""
    clean = [_area(r[0]) for r in cards if 1.25 <= _aspect(r[0]) <= 1.65]
    if len(clean) < 2:
        return cards, []
    typical = float(np.median(clean))
    keep = [r for r in cards if _area(r[0]) <= 1.3 * typical]
    return keep, [(r[0], r[2]) for r in cards if _area(r[0]) > 1.3 * typical]


def _aspect(q: np.ndarray) -> float:
    e = q[[1, 2, 3, 0]] - q  # (indexing, not np.roll: this runs for every card of every frame)
    sides = np.sqrt((e * e).sum(axis=1))
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return float(max(a, b) / max(min(a, b), 1e-6))


def _split_groups(groups: list[tuple[np.ndarray, bool]], singles: list[np.ndarray], long: float,
                  frame: np.ndarray, small: np.ndarray, scale: float) -> list[Found]:
    """Cards in regions of touching cards that no whole-card rectangle explains."""
    out: list[Found] = []
    taken = list(singles)
    done: list[np.ndarray] = []
    minch: np.ndarray | None = None
    card = long * long / CARD_ASPECT
    for contour, dark in sorted(groups, key=lambda g: -cv2.contourArea(g[0])):
        area = cv2.contourArea(contour)
        if not 1.3 * card < area < 8 * card:
            continue
        hull = cv2.convexHull(contour).reshape(-1, 2).astype(np.float32)
        covered = sum(_overlap(hull, q) for q in taken)
        # Each level finds the same pile again: split it once. A pile is split while more than 0.8 of a
        # card of it is left uncovered by the cards found so far (the top card of a pair is often a
        # rectangle of its own at some level; its neighbour beneath is still to be found).
        if area - covered < 0.8 * card or any(_iou(hull, d) > 0.6 for d in done):
            continue
        done.append(hull)
        if minch is None:
            minch = min_channel(frame) if not dark else 255 - _max_channel(frame)
        x, y, w, h = cv2.boundingRect(contour)
        filled = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(filled, [contour - [x - 1, y - 1]], -1, 1, -1)
        # Cards of the region that its found neighbours leave whole need no splitter (whose corner
        # proposals can lie askew across the seam between touching cards).
        rest = _residual_cards(filled, (x - 1, y - 1), taken, long, small)
        taken += rest
        out += [Found(quad=portrait(q / scale), fill=0.0, dark=dark) for q in rest]
        if rest and area - sum(_overlap(hull, q) for q in taken) < 0.8 * card:
            continue
        blob = _Blob(contour=contour.reshape(-1, 2).astype(np.float32), filled=filled, origin=(x - 1, y - 1),
                     area=area)
        quads = _split(blob, long, minch, scale)
        for i, q in enumerate(quads):
            if _split_card(q, taken, quads[:i] + quads[i + 1:], small):
                taken.append(q)
                out.append(Found(quad=portrait(q / scale), fill=0.0, dark=dark))
    return out


PAIR_IOU = 0.5  # a splitter card overlapping a found card by IoU 0.3 up to this may be a pair's card beneath
PAIR_OWN = 0.3  # … if at least this share of it lies under no card found, and no card found lies mostly in
# it or it mostly in one (PAIR_NEST: a court's picture found as a card, a duplicate of a found card)
PAIR_NEST = 0.7
PAIR_SQUARE = 0.8  # … and it has a card's corners (`squareness`): a fragment across a pile's cards has not


def _split_card(q: np.ndarray, taken: list[np.ndarray], rest: list[np.ndarray], small: np.ndarray) -> bool:
    """A splitter card is kept when it is clear of the cards found (IoU < 0.3) and shows a card's edge.
    Issue #18, eleventh round: the card beneath a hole pair overlaps its top card by IoU 0.3-0.45 and was
    dropped as a duplicate of it; and on a black deck its sides under the top card show no step at all.
    Such a card is kept when it overlaps the cards found less than PAIR_IOU, shows PAIR_OWN of itself
    clear of them, and a card's edge where no other card (found, or proposed by the same split) lies."""
    worst = max((_iou(q, t) for t in taken), default=0.0)
    if worst < 0.3:
        return edge_contrast(small, q) >= EDGE_MIN
    if worst >= PAIR_IOU or squareness(q) < PAIR_SQUARE:
        return False
    qa = _area(q)
    inter = [_overlap(q, t) for t in taken]
    # (The sum counts twice what two found cards both cover: on the safe side.)
    if sum(inter) > (1.0 - PAIR_OWN) * qa \
            or any(i > PAIR_NEST * min(qa, _area(t)) for i, t in zip(inter, taken, strict=True)):
        return False
    return edge_contrast_seen(small, q, taken + rest) >= EDGE_MIN


RESIDUAL_SIZE = (0.8, 1.25)  # long side of a card left over in a group, against the typical card's
RESIDUAL_SIDES = 0.85  # … and its opposite sides within this ratio: a whole card seen from above, not a
# trapezoid cut out of a pile (a card's perspective from overhead is slight; a stretched photo's shear
# keeps opposite sides equal)


def _residual_cards(filled: np.ndarray, origin: tuple[int, int], taken: list[np.ndarray], long: float,
                    colour: np.ndarray) -> list[np.ndarray]:
    """Cards a region of touching cards holds besides those found already: what is left of the region
    once their quads (grown by a pixel: the seam between touching cards) are taken out, where it is a
    whole card's rectangle of the typical size (a board card touching its neighbours; the outline
    corners would otherwise propose cards askew across the seam)."""
    mask = filled.copy()
    h, w = mask.shape
    o = np.float32(origin)
    for t in taken:
        q = t - o
        if (q.max(axis=0) < 0).any() or (q.min(axis=0) > [w, h]).any():
            continue
        pts = np.round(q).astype(np.int32)
        cv2.fillConvexPoly(mask, pts, 0)
        cv2.polylines(mask, [pts], True, 0, 2)
    # An opening a fifth of a card wide cuts what the region also took in at this level: a band of the
    # table's grain or a shadow joined to the card at a corner.
    k = max(3, round(0.2 * long / CARD_ASPECT) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    least = 0.6 * long * long / CARD_ASPECT
    out = []
    for c in contours:
        if cv2.contourArea(c) < least:
            continue
        r = _rect_of(c)
        if r is None or not RESIDUAL_SIZE[0] * long <= r[2] <= RESIDUAL_SIZE[1] * long:
            continue
        q = _fit_sides(r[0], c) + o
        e = q[[1, 2, 3, 0]] - q
        sides = np.sqrt((e * e).sum(axis=1))
        if min(sides[0], sides[2]) < RESIDUAL_SIDES * max(sides[0], sides[2]) \
                or min(sides[1], sides[3]) < RESIDUAL_SIDES * max(sides[1], sides[3]):
            continue
        if edge_contrast(colour, q) >= EDGE_MIN:
            out.append(q)
    return out


def _overlap(hull: np.ndarray, quad: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(hull, np.asarray(quad, np.float32))
    return float(max(inter, 0.0))


def _max_channel(frame: np.ndarray) -> np.ndarray:
    b, g, r = cv2.split(frame)
    return cv2.max(cv2.max(b, g), r)


# ---------------------------------------------------------------- face up / down from content

FACE = (32, 44)  # canonical card (w, h) for the face test
INK = 40.0  # colour distance (grey levels) from the card's own border colour that counts as print


@dataclass(frozen=True, slots=True)
class FaceFeatures:
    ink: float  # share of the centre (inset 20 %) printed: differs from the card's border colour
    cell_min: float  # least printed of 3×4 centre cells (a back's pattern fills every cell)
    cell_max: float
    asym: float  # print in the index diagonal's corners (TL, BR) minus the other two: a face's index
    corner: float  # print in the most printed corner (an index even when the quad is a little off)
    mirror: float  # correlation of the card with its left-right mirror image: backs are symmetric
    white: bool = False  # the border is white or grey paper (light, nearly colourless): not a plain back
    quiet: float = 0.0  # print in the less printed diagonal's corners (a face's bare corners: little)
    whole: bool = True  # every cell of the middle seen (no other card over it)


def canonical(frame: np.ndarray, quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    hom = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(frame, hom, size, flags=cv2.INTER_AREA)


def face_features(frame: np.ndarray, quad: np.ndarray, others: tuple[np.ndarray, ...] = ()) -> FaceFeatures:
    """The face test's features of a card; with `others` (the quads of cards overlapping it) only from the
    part of it they do not cover. Which card of a pair lies on top is not known, so each is judged on its
    own part: the card underneath is then not judged on the top card's border and face crossing its back
    (a back's field broken by a white border looks like a face), and the top card keeps most of itself."""
    card = canonical(frame, quad, FACE).astype(np.int16)
    free = _uncovered(quad, others, frame.shape)
    ring = np.concatenate([card[1:2, 3:-3].reshape(-1, 3), card[-2:-1, 3:-3].reshape(-1, 3),
                           card[3:-3, 1:2].reshape(-1, 3), card[3:-3, -2:-1].reshape(-1, 3)])
    if free is not None:
        ring_free = np.concatenate([free[1:2, 3:-3].ravel(), free[-2:-1, 3:-3].ravel(),
                                    free[3:-3, 1:2].ravel(), free[3:-3, -2:-1].ravel()])
        if ring_free.sum() >= 12:
            ring = ring[ring_free]
    paper = np.median(ring, axis=0).astype(np.int16)
    ink = np.abs(card - paper).max(axis=2) > INK
    grey = card[3:-3, 3:-3].mean(axis=2).astype(np.float32)
    g0 = grey - grey.mean()
    m0 = g0[:, ::-1]
    den = float(np.sqrt((g0 * g0).sum() * (m0 * m0).sum()))
    mirror = float((g0 * m0).sum()) / den if den > 1e-3 else 1.0
    top, low = int(paper.max()), int(paper.min())
    white = top >= WHITE_PAPER[0] and top - low <= WHITE_PAPER[1] * top
    if free is None:
        centre = ink[9:-9, 6:-6]
        ch, cw = centre.shape[0] // 4, centre.shape[1] // 3
        cells = centre[:4 * ch, :3 * cw].reshape(4, ch, 3, cw).mean(axis=(1, 3))
        tl, tr = ink[2:13, 2:9].mean(), ink[2:13, -9:-2].mean()
        bl, br = ink[-13:-2, 2:9].mean(), ink[-13:-2, -9:-2].mean()
        return FaceFeatures(ink=float(centre.mean()), cell_min=float(cells.min()),
                            cell_max=float(cells.max()), asym=float((tl + br - tr - bl) / 2),
                            quiet=float(min(tl + br, tr + bl) / 2),
                            corner=float(max(tl, tr, bl, br)), mirror=mirror, white=white)
    centre, seen = ink[9:-9, 6:-6], free[9:-9, 6:-6]
    ch, cw = centre.shape[0] // 4, centre.shape[1] // 3
    n = seen[:4 * ch, :3 * cw].reshape(4, ch, 3, cw).sum(axis=(1, 3))
    hit = (centre & seen)[:4 * ch, :3 * cw].reshape(4, ch, 3, cw).sum(axis=(1, 3))
    valid = n >= 0.5 * ch * cw  # cells at least half uncovered
    cells = hit[valid] / n[valid] if valid.any() else np.zeros(1)
    corners = []
    for ys, xs in ((slice(2, 13), slice(2, 9)), (slice(2, 13), slice(-9, -2)),
                   (slice(-13, -2), slice(-9, -2)), (slice(-13, -2), slice(2, 9))):  # TL TR BR BL
        m = free[ys, xs]
        corners.append(float(ink[ys, xs][m].mean()) if m.mean() >= 0.5 else None)
    diag = [[c for c in (corners[0], corners[2]) if c is not None],
            [c for c in (corners[1], corners[3]) if c is not None]]
    asym = float(np.mean(diag[0]) - np.mean(diag[1])) if diag[0] and diag[1] else 0.0
    seen_n = int(seen.sum())
    return FaceFeatures(ink=float((centre & seen).sum() / seen_n) if seen_n else 0.0,
                        cell_min=float(cells.min()), cell_max=float(cells.max()), asym=asym,
                        quiet=float(min(np.mean(diag[0]), np.mean(diag[1]))) if diag[0] and diag[1] else 0.0,
                        corner=max([c for c in corners if c is not None], default=0.0), mirror=mirror,
                        white=white, whole=bool(valid.all()))


SEEN_MIN = 0.3  # share of a card left uncovered by the others below which it is judged whole


def _uncovered(quad: np.ndarray, others: tuple[np.ndarray, ...], shape: tuple[int, ...]
               ) -> np.ndarray | None:
    """Pixels of the FACE-sized canonical card that no other quad covers and that lie inside the frame (a
    card the frame cuts off: the warp fills its hidden corner with black, which would pass for print), or
    None when nothing covers it (the common case: the plain features)."""
    q = np.asarray(quad, np.float32)
    fh, fw = shape[:2]
    cut = bool((q < -1).any() or (q[:, 0] > fw).any() or (q[:, 1] > fh).any())
    if not others and not cut:
        return None
    w, h = FACE
    hom = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    covered = np.zeros((h, w), np.uint8)
    if cut:
        inside = np.zeros((h, w), np.uint8)
        rect = np.float32([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]]).reshape(-1, 1, 2)
        poly = cv2.perspectiveTransform(rect, hom).reshape(-1, 2)
        cv2.fillPoly(inside, [np.round(poly * 16).astype(np.int32)], 1, shift=4)
        covered[inside == 0] = 1
    for o in others:
        poly = cv2.perspectiveTransform(np.asarray(o, np.float32).reshape(-1, 1, 2), hom).reshape(-1, 2)
        cv2.fillPoly(covered, [np.round(poly * 16).astype(np.int32)], 1, shift=4)
    if covered.mean() < 0.02 or covered.mean() > 1 - SEEN_MIN:
        return None  # barely covered, or too little left to judge (a misplaced neighbour's quad)
    return covered == 0


FELT_SHARE = 0.8  # share of the frame one smooth colour field must explain for the felt model to apply
FELT_SIZE = (0.8, 1.25)  # the deck's card size: long side against the level cuts' typical one
FELT_LONG_AGREE = 0.15  # the felt model's own card size stands within this share of the level cuts' one


def smooth_table_share(frame: np.ndarray) -> float:
    """Share of a coarse grid that one colour field with smooth light (quadratic in log colour) explains:
    high on felt, low on a desk with a keyboard, a wood grain or a table edge in view."""
    small = cv2.resize(frame, (32, 24), interpolation=cv2.INTER_AREA)
    f = np.log(small.astype(np.float32) + 8.0).reshape(-1, 3)
    gy, gx = np.mgrid[0:24, 0:32]
    a = _poly_basis((gx / 32 - 0.5).ravel().astype(np.float32), (gy / 24 - 0.5).ravel().astype(np.float32))
    keep = np.ones(len(a), bool)
    for _ in range(4):
        coef = np.linalg.lstsq(a[keep], f[keep], rcond=None)[0]
        keep = np.abs(f - a @ coef).max(axis=1) < 0.12
        if keep.sum() < 12:
            return 0.0
    return float(keep.mean())


def _felt_cards(frame: np.ndarray, found: list[Found], smooth: bool | None = None, long: float | None = None
                ) -> list[Found]:
    """Merge in what the felt-model pipeline finds on a smooth table: it splits overlapping white-bordered
    cards (hole pairs) far better than outline cuts at work resolution, so a pile it splits replaces the
    level-cut cards on it; a lone card it finds is added only where the cuts found nothing.

    The felt model's card size comes from its blobs that look like one card; a table showing only hole
    pairs (before the flop) has none, and two cards squared up or board cards touching pass for one. So
    when it disagrees with `long` (the typical card of the level cuts, frame pixels, pairs counted by
    their top card) by more than FELT_LONG_AGREE, `long` is used: the splitter's proposals are card-sized
    and a wrong size leaves piles unsplit or misfit (issue #18: 24 of 29 felt cards missed on 40
    rendered frames were in three frames whose felt-model size was 1.45–1.5× the card's)."""
    if not (smooth_table_share(frame) >= FELT_SHARE if smooth is None else smooth):
        return found
    sc = _scene(frame, VisionModel())
    if long is not None and abs(sc.long / sc.scale - long) > FELT_LONG_AGREE * long:
        sc.long = long * sc.scale
    out = list(found)
    for blob in sc.blobs:
        quads = sc.quads(blob)
        if len(quads) == 1:
            if all(_iou(quads[0], f.quad) < 0.3 for f in out):
                out.append(Found(quad=quads[0], fill=0.0, dark=False))
            continue
        if long is not None and _cards_apart(out, quads, long):
            # One deck, one size: the split made a card too long for the deck where the level cuts
            # found cards of the deck's size side by side (a board dealt touching, whose two cards it
            # took for one): theirs stand, and only its card-sized quads clear of them are added.
            out += [Found(quad=q, fill=0.0, dark=False) for q in quads
                    if FELT_SIZE[0] * long <= _long_side(q) <= FELT_SIZE[1] * long
                    and all(_iou(q, f.quad) < 0.3 for f in out)]
            continue
        out = [f for f in out if all(_iou(f.quad, q) < 0.2 for q in quads)]
        out += [Found(quad=q, fill=0.0, dark=False) for q in quads]
    return out


def _cards_apart(found: list[Found], quads: list[np.ndarray], long: float) -> bool:
    """The felt model's split of a blob (`quads`) has a card longer than the deck's cards, and the level
    cuts found two or more cards on the blob, all of the deck's size and none on another."""
    if all(_long_side(q) <= FELT_SIZE[1] * long for q in quads):
        return False
    on = [f.quad for f in found if any(_iou(f.quad, q) >= 0.2 for q in quads)]
    if len(on) < 2 or not all(FELT_SIZE[0] * long <= _long_side(q) <= FELT_SIZE[1] * long for q in on):
        return False
    return all(_overlap(a, b) < 0.1 * _area(a) for i, a in enumerate(on) for b in on[i + 1:])


PLAIN = 0.04  # centre print below this: a plain back (or a blank region)
FIELD = 0.9  # centre print above this in every cell: a field of colour or pattern inside the border
CORNER_INDEX = 0.1  # print in one corner above this, with some print in the middle: a low card's face
BLANK = 0.01  # middle print at most this: nothing printed there at all (a plain back)
INDEX = 0.15  # print in the index corners beyond the other two corners: a face, whatever the centre
QUIET = 0.5  # … as long as those two corners are mostly paper (a back's field prints all four)
BLANK_CORNERS = 0.1  # |index-diagonal print − other corners| below this: no index to be seen
TEXTURE = (0.3, 0.9, 0.2)  # a pattern in every cell: least cell print, most cell print, spread
WHITE_PAPER = (110, 0.2)  # white paper: brightest channel at least this, channels within this share of it
WHITE_CORNER = 0.06  # print in a corner of white paper with (almost) none in the middle: a low card's index


def is_face_up(f: FaceFeatures) -> bool:
    """A face shows its index in two opposite corners and its border colour (paper) between pips or round
    a picture; a back is plain, or one field of colour or pattern over its whole centre. Courts keep
    paper round the picture and an index, so they stay faces."""
    if f.asym > INDEX and f.quiet < QUIET:
        # An index in two opposite corners and (almost) bare paper in the other two. A back's field fills
        # all four corners: a quad a little askew on it (a hole pair's top card) lets the table or the
        # card beneath into two opposite corners, which passes for an index diagonal (issue #18).
        return True
    if f.ink < PLAIN:
        # Little print in the middle: a plain back, or a low card (two or three pips) whose index the
        # quad has half cut off. A plain back has no print in its corners either.
        # Plain backs measured here (src1's black deck) print under 0.5 % of their middle.
        if f.white:
            # A back is a plain colour or a pattern inside a border; a plain white "back" is no deck's,
            # so white paper with an index in a corner, or any print in the middle, is a low card's face
            # (a two whose pips the 32×44 centre barely reaches: issue #18, src1_025).
            return f.corner > WHITE_CORNER or f.ink > BLANK
        return f.ink > BLANK and (f.corner > CORNER_INDEX or f.ink > 2.5 * BLANK)
    if f.whole and abs(f.asym) < BLANK_CORNERS and f.cell_min >= TEXTURE[0] and f.cell_max <= TEXTURE[1] \
            and f.cell_max - f.cell_min <= TEXTURE[2]:
        # The same print in every cell of the middle, no index: a back's repeating pattern, also when the
        # border ring missed the white border (a quad a little inside the card) and "paper" is the
        # pattern's ground, so that only its light dots or lines count as print. A face's pips leave
        # cells of bare paper; a court's picture fills some cells completely and its frame others little.
        # Only on a card seen whole: a court seen through the gaps of other cards can look even.
        return False
    return not (f.ink > FIELD and f.cell_min > 0.75)


def _in_frame(quad: np.ndarray, frame: np.ndarray) -> bool:
    """At most 5 % of the card beyond the frame. A card the frame cuts off more is not read: its hidden
    index corner is black in the warp, and a wrong code is worse than none (a card touching the frame's
    edge, whose refined corner lies a few pixels out, is still read)."""
    h, w = frame.shape[:2]
    q = np.asarray(quad, np.float32)
    if (q >= -1).all() and (q[:, 0] <= w).all() and (q[:, 1] <= h).all():
        return True
    inside, _ = cv2.intersectConvexConvex(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return bool(inside >= 0.95 * cv2.contourArea(q))


READS = ReadCache()  # one per process: the daemon runs one camera


def detect_single(frame: np.ndarray, reads: ReadCache = READS) -> Detection:
    """Every card in an uncalibrated frame, face up or down; the board is the row of face-up cards.
    Rank and suit are read only for cards new or changed since earlier frames (`reads`)."""
    # On a smooth table the felt model splits piles of touching cards better than the level cuts do, and
    # splitting is the costly stage: piles are split once, by the felt model.
    smooth = smooth_table_share(frame) >= FELT_SHARE
    found, long = find_cards(frame, split=not smooth)
    found = _felt_cards(frame, found, smooth, long if found else None)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = [f for f in split_piles(grey, found) if squareness(f.quad) >= SQUARE]
    cards = []
    for f, others in zip(found, covers(found, grey), strict=True):
        feats = face_features(frame, f.quad, others)
        up = is_face_up(feats)
        code = reads.read(frame, f.quad) if up and _in_frame(f.quad, frame) else None
        cards.append(DetectedCard(polygon=f.quad, face_up=up, paper=feats.ink, card=code))
    board = set(board_row([c.polygon for c in cards if c.face_up]))
    ups = [i for i, c in enumerate(cards) if c.face_up]
    marked = tuple(replace(c, zone="board") if i in ups and ups.index(i) in board else c
                   for i, c in enumerate(cards))
    return Detection(cards=marked, card_long_px=long)


def _overlapping(found: list[Found], i: int, grey: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """Quads of the other cards that cover more than 5 % of card i (a pile: one lies on the other); with
    `grey` (the frame's grey image), less those the image shows lying under card i (see `covers`)."""
    if grey is not None:
        return covers(found, grey)[i]
    q = found[i].quad
    lo, hi = q.min(axis=0), q.max(axis=0)
    area = max(_area(q), 1.0)
    return tuple(f.quad for j, f in enumerate(found)
                 if j != i and (f.quad.min(axis=0) < hi).all() and (f.quad.max(axis=0) > lo).all()
                 and _overlap(f.quad, q) > 0.05 * area)


def covers(found: list[Found], grey: np.ndarray) -> list[tuple[np.ndarray, ...]]:
    """For every card, the quads of the other cards that cover more than 5 % of it and do not lie under
    it: which of two overlapping cards is on top is asked once per pair (`on_top`); when the image does
    not tell, each is judged without the part the other covers."""
    out: list[list[np.ndarray]] = [[] for _ in found]
    boxes = [(f.quad.min(axis=0), f.quad.max(axis=0)) for f in found]
    areas = [max(_area(f.quad), 1.0) for f in found]
    edges: dict[int, _Outline] = {}
    for i, fi in enumerate(found):
        for j in range(i + 1, len(found)):
            fj = found[j]
            if not ((boxes[j][0] < boxes[i][1]).all() and (boxes[j][1] > boxes[i][0]).all()):
                continue
            inter = _overlap(fi.quad, fj.quad)
            over_i, over_j = inter > 0.05 * areas[i], inter > 0.05 * areas[j]
            if not (over_i or over_j):
                continue
            ei = edges.setdefault(i, _Outline(fi.quad))
            ej = edges.setdefault(j, _Outline(fj.quad))
            top = _order(grey, ei, ej)
            if over_i and top <= 0:
                out[i].append(fj.quad)
            if over_j and top >= 0:
                out[j].append(fi.quad)
    return [tuple(o) for o in out]


TOP_STEP = (8.0, 1.6)  # the top card's own edge across the other: at least this step, and this × the other's
_TT = np.linspace(0.04, 0.96, 24, dtype=np.float32)


class _Outline:
    """A quad's sides sampled for `on_top`: points along them, inward normals, probe distance."""

    def __init__(self, quad: np.ndarray) -> None:
        q = np.asarray(quad, np.float32)
        along = q[[1, 2, 3, 0]] - q  # side i runs from corner i to corner i + 1
        lens = np.sqrt((along * along).sum(axis=1))
        n = np.stack([-along[:, 1], along[:, 0]], axis=1) / np.maximum(lens, 1e-6)[:, None]
        n[((q.mean(axis=0) - q) * n).sum(axis=1) < 0] *= -1  # inward
        self.quad, self.normals = q, n
        self.d = max(1.5, 0.05 * float(min(lens[0], lens[1])))
        self.pts = (q[:, None, :] + _TT[None, :, None] * along[:, None, :]).reshape(-1, 2)
        self.pn = np.repeat(n, len(_TT), axis=0)

    def inside_by(self, pts: np.ndarray) -> np.ndarray:
        """How far each point lies inside the (convex) quad: its least distance to the side lines."""
        return ((pts[:, None, :] - self.quad[None, :, :]) * self.normals[None, :, :]).sum(axis=2).min(axis=1)


def on_top(grey: np.ndarray, a: np.ndarray, b: np.ndarray) -> int:
    """Which of two overlapping cards lies on top: 1 for `a`, -1 for `b`, 0 when the image does not tell.
    The top card's outline runs on across the card beneath as an edge (its border against the other's
    print, or its paper's shadow); the outline of the card beneath is hidden under the top card, where
    both sides of it are the top card's own surface. So the grey step across each card's sides, where
    they run inside the other card (clear of its outline), is measured: the card whose step is clearly
    the stronger is on top."""
    return _order(grey, _Outline(a), _Outline(b))


def _order(grey: np.ndarray, a: _Outline, b: _Outline) -> int:
    keep_a = b.inside_by(a.pts) > 2.5 * a.d
    keep_b = a.inside_by(b.pts) > 2.5 * b.d
    na, nb = int(keep_a.sum()), int(keep_b.sum())
    if na < 4 or nb < 4:
        return 0
    pa, pb = a.pts[keep_a], b.pts[keep_b]
    oa, ob = a.d * a.pn[keep_a], b.d * b.pn[keep_b]
    v = _sample1(grey, np.concatenate([pa + oa, pb + ob, pa - oa, pb - ob]))
    step = np.abs(v[:na + nb] - v[na + nb:])
    sa, sb = float(np.median(step[:na])), float(np.median(step[na:]))
    if sa >= TOP_STEP[0] and sa >= TOP_STEP[1] * sb:
        return 1
    if sb >= TOP_STEP[0] and sb >= TOP_STEP[1] * sa:
        return -1
    return 0


PILE_ASPECT = 1.25  # long/short below which a card's quad may be two cards squared up (a hole pair)
PILE_STEP = 22.0  # grey step across a pile's inner edge (the top card's border against the card beneath)
PILE_SPAN = 0.2  # … held by all but this share of the rows it crosses (a straight edge across the region)
PILE_CARD = (1.2, 1.7)  # long/short of the top card the inner edge cuts off
PILE_UNDER = 0.2  # the card beneath shows at least this share of the top card's width
_PW = 48  # canonical width (px) of a quad searched for a pile's inner edge
_SLOPES = np.linspace(-0.25, 0.25, 9, dtype=np.float32)  # inner edge's slant (x per y): cards ±14° apart


def split_piles(grey: np.ndarray, found: list[Found]) -> list[Found]:
    """Two cards squared up on each other (a hole pair, two cards of a muck pile) can make one filled
    quadrilateral, nearly square, that passes for one card. What gives them away is the top card's own
    edge: a straight step across the whole region, parallel to two of its sides, that cuts off a part of a
    card's proportions. Such a quad is replaced by the top card (that part) and the card beneath (the
    same size, from the far side), unless those are found already. (find_cards does this for the level
    cuts' rectangles before it takes the typical card size: those are not looked at again.)"""
    out = list(found)
    for f in found:
        if f.piled or _aspect(f.quad) >= PILE_ASPECT:
            continue
        pair = pile_pair(grey, f.quad)
        if pair is None:
            continue
        new = [q for q in pair if all(_iou(q, o.quad) < SAME for o in out if o is not f)]
        if new:
            out = [o for o in out if o is not f]
            out += [Found(quad=portrait(q), fill=0.0, dark=f.dark, piled=True) for q in new]
    return out


def pile_pair(grey: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(top card, card beneath) when the quad holds a pile's inner edge (see split_piles), else None.
    The quad is warped to a canonical rectangle and every straight line across it, parallel to one pair
    of its sides within ±14° (cards of a pair lie a little askew), is scored by the grey step between
    points a little either side of it (a step, not a thin line: a striped back's stripes are the same
    on both sides), held along most of its length."""
    q = np.asarray(quad, np.float32)
    e = q[[1, 2, 3, 0]] - q
    sides = np.sqrt((e * e).sum(axis=1))
    wa, wb = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if min(wa, wb) < 12:
        return None
    k = _PW / max(wa, wb)
    w, h = max(8, round(wa * k)), max(8, round(wb * k))
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    hom = cv2.getPerspectiveTransform(q, dst)
    img = cv2.warpPerspective(grey, hom, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
    best: tuple[float, np.ndarray] | None = None
    for t, (cw, ch) in ((False, (w, h)), (True, (h, w))):
        # Only where the edge would cut off a part of a card's proportions with the card beneath showing.
        lo, hi = max(ch / PILE_CARD[1], 0.12 * cw), min(ch / PILE_CARD[0], 0.88 * cw, cw / (1 + PILE_UNDER))
        if lo > hi:
            continue
        xs = np.arange(np.ceil(lo), np.floor(hi) + 1, dtype=np.float32)
        xs = np.unique(np.concatenate([xs, cw - xs]))
        a = img.T if t else img
        got = _inner_edge(a, xs)
        if got is None:
            continue
        x0, slope, score = got
        rect = _pile_rects(x0, slope, cw, ch)
        if rect is None:
            continue
        if t:
            rect = rect[:, :, ::-1]
        if best is None or score > best[0]:
            best = (score, rect)
    if best is None:
        return None
    inv = np.linalg.inv(hom)
    top, under = (cv2.perspectiveTransform(r.reshape(-1, 1, 2), inv).reshape(4, 2) for r in best[1])
    return top.astype(np.float32), under.astype(np.float32)


def _inner_edge(a: np.ndarray, xs: np.ndarray) -> tuple[float, float, float] | None:
    """(x at the middle row, slope, step) of the strongest straight step across the image's rows through
    one of the positions `xs`, when it holds along most rows (PILE_STEP, PILE_SPAN)."""
    h = a.shape[0]
    d = max(1.5, 0.035 * h)  # ~3 mm of a card's long side: inside the top card's border
    ys = np.arange(round(0.08 * h), round(0.92 * h), 2, dtype=np.float32)  # every other row: speed
    yc = (h - 1) / 2
    # x of every line (slope, x0) at every row: S×X×R
    x = xs[None, :, None] + _SLOPES[:, None, None] * (ys[None, None, :] - yc)
    yy = np.broadcast_to(ys[None, None, :], x.shape)
    left = cv2.remap(a, (x - d).reshape(1, -1), yy.reshape(1, -1), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).reshape(x.shape)
    right = cv2.remap(a, (x + d).reshape(1, -1), yy.reshape(1, -1), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE).reshape(x.shape)
    diff = np.sort(right - left, axis=2)  # (a sort: np.quantile is 20× slower on these small rows)
    # A card's edge steps one way along its whole length: the share of rows below the step is what counts.
    k = int(PILE_SPAN * (len(ys) - 1))
    step = np.maximum(diff[:, :, k], -diff[:, :, len(ys) - 1 - k])
    i, j = np.unravel_index(int(np.argmax(step)), step.shape)
    if step[i, j] < PILE_STEP:
        return None
    return float(xs[j]), float(_SLOPES[i]), float(step[i, j])


def _pile_rects(x0: float, slope: float, w: int, h: int) -> np.ndarray | None:
    """The top card and the card beneath (2×4×2, canonical pixels) for an inner edge x = x0 + slope ×
    (y − middle): the top card runs from the edge to the far side of the part of card proportions, the
    card beneath is as wide from the other side."""
    yc = (h - 1) / 2
    xt, xb = x0 - slope * yc, x0 + slope * (h - 1 - yc)  # the edge at the top and bottom rows
    for part in (x0, w - x0):  # the top card on the left, or on the right of the edge
        rest = w - part
        if not (PILE_CARD[0] <= h / part <= PILE_CARD[1] and rest >= PILE_UNDER * part):
            continue
        if part == x0:
            top = np.float32([[0, 0], [xt, 0], [xb, h], [0, h]])
            under = np.float32([[w - part, 0], [w, 0], [w, h], [w - part, h]])
        else:
            top = np.float32([[xt, 0], [w, 0], [w, h], [xb, h]])
            under = np.float32([[0, 0], [part, 0], [part, h], [0, h]])
        return np.stack([top, under])
    return None


BOARD_PITCH = (0.8, 1.8)  # neighbouring board cards: centre distance in card widths
BOARD_MAX = 5


def board_row(quads: list[np.ndarray]) -> list[int]:
    """Indices of the board with no zones known: the longest row (3 to 5) of face-up cards of one size
    and direction, side by side along their short axis, as a dealer spreads flop, turn and river."""
    n = len(quads)
    if n < 3:
        return []
    centres = np.array([q.mean(axis=0) for q in quads])
    across = np.array([(q[1] - q[0] + q[2] - q[3]) / 2 for q in quads])  # short-side vectors
    widths = np.hypot(across[:, 0], across[:, 1])
    link = np.zeros((n, n), bool)
    for i in range(n):
        for j in range(i + 1, n):
            d = centres[j] - centres[i]
            dist = float(np.hypot(*d))
            w = float(widths[i] + widths[j]) / 2
            if not BOARD_PITCH[0] * w <= dist <= BOARD_PITCH[1] * w or abs(widths[i] - widths[j]) > 0.25 * w:
                continue
            # Neighbours sit across each other's short axis: the step runs along it.
            along = abs(float(d @ across[i])) / (dist * float(widths[i]))
            link[i, j] = link[j, i] = along > 0.85
    best: list[int] = []
    seen: set[int] = set()
    for start in range(n):
        if start in seen:
            continue
        comp, todo = [], [start]
        while todo:
            k = todo.pop()
            if k in seen:
                continue
            seen.add(k)
            comp.append(k)
            todo.extend(int(m) for m in np.nonzero(link[k])[0])
        if 3 <= len(comp) <= BOARD_MAX and len(comp) > len(best) and _collinear(centres[comp], widths[comp]):
            best = sorted(comp)
    return best


def _collinear(centres: np.ndarray, widths: np.ndarray) -> bool:
    vx, vy, x0, y0 = cv2.fitLine(centres.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    off = np.abs((centres[:, 0] - x0) * vy - (centres[:, 1] - y0) * vx)
    return bool(off.max() < 0.35 * float(np.median(widths)))
