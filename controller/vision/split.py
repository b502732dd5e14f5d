"""Splitting every cluster of touching cards of a frame into card-sized quads at once (the calibrated path).

The same idea and score as `detect._split` (convex outline corners propose cards in portrait and landscape,
far sides snapped to the image's card edges over 0.76–1.32× the calibrated size; a set of proposals scores
IoU of its union with the cluster + outline explained + card edges inside the cluster − impurity − a cost
per card), but computed for all clusters of a frame together in a few dozen array operations: every
corner's proposals and snaps, every proposal's masks (one `fillPoly` for all), every single card and every
pair of proposals scored in closed form. Only clusters where a third card raises the score (burn and muck
piles) get a drop/swap search, which scores all neighbouring sets of one step at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from controller.vision.detect import (
    _GRID,
    _IGRID,
    ASPECT_RANGE,
    CARD_ASPECT,
    CUT,
    IMPURITY_COST,
    INNER_EDGE_GAIN,
    ORIENTATION_MARGIN,
    PAIR_SEARCH_MAX,
    SAME_CARD,
    _as_single,
    _Blob,
    _EdgeProbe,
    drop_swap_search,
)

SCALES = _EdgeProbe.SCALES  # far-side sizes tried (perspective): 0.76–1.32, as detect._split
T = _EdgeProbe.T  # points along a side
MAX_CARDS = 10  # a cluster is explained by at most this many cards
FAR = 1e5  # padding coordinate: far from everything


def split_all(blobs: list[_Blob], long: float, minch: np.ndarray, scale: float,
              mask: np.ndarray) -> list[list[np.ndarray]]:
    """The cards (work pixels, unordered corners) of each cluster; `mask` is the frame's card mask."""
    short = long / CARD_ASPECT
    tol = max(1.5, 0.06 * short)
    quads: list[np.ndarray] = []
    owner: list[int] = []
    tols: list[float] = []
    multi: list[int] = []
    for i, b in enumerate(blobs):
        single = _as_single(b, long)
        if single is None:
            multi.append(i)
        else:
            quads.append(single)
            owner.append(i)
            tols.append(2 * tol)
    if multi:
        for i, q in _split_multi([blobs[i] for i in multi], long, minch, scale, mask):
            quads.append(q)
            owner.append(multi[i])
            tols.append(tol)
    out: list[list[np.ndarray]] = [[] for _ in blobs]
    if not quads:
        return out
    pts = _padded([blobs[i].contour[::2] for i in range(len(blobs))])
    owners = np.asarray(owner)
    refined = refine(np.asarray(quads, np.float32), pts[owners], np.asarray(tols, np.float32))
    centres = (refined.sum(axis=1) * 0.25).tolist()
    kept: list[list[tuple[float, float]]] = [[] for _ in blobs]
    for q, (x, y), i in zip(refined, centres, owner, strict=True):
        # Two proposals that settle on the same card after refinement are one card.
        if all(math.hypot(x - ox, y - oy) > SAME_CARD * short for ox, oy in kept[i]):
            out[i].append(q)
            kept[i].append((x, y))
    return out


def _padded(arrays: list[np.ndarray]) -> np.ndarray:
    """N_i×2 point arrays as one B×max(N)×2 array, padded with far-away points."""
    n = max(len(a) for a in arrays)
    out = np.full((len(arrays), n, 2), FAR, np.float32)
    for i, a in enumerate(arrays):
        out[i, :len(a)] = a
    return out


@dataclass(slots=True)
class _Probe:
    """Card-edge evidence (paper just inside, clearly darker just outside) in the full-resolution frame."""

    minch: np.ndarray
    scale: float
    mm: float  # full-resolution pixels per millimetre

    def sample(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Nearest pixel at full-resolution coordinates (x, y arrays of one shape)."""
        return _sample(self.minch, x, y)

    def edges(self, x: np.ndarray, y: np.ndarray, ix: np.ndarray, iy: np.ndarray,
              ref: np.ndarray) -> np.ndarray:
        """Per point (work pixels x, y; unit inward direction ix, iy): a card edge seen from inside."""
        k = 1.0 / self.scale
        a, b = 2.0 * self.mm, 1.5 * self.mm
        vin = self.sample(x * k + ix * a, y * k + iy * a).astype(np.float32)
        vout = self.sample(x * k - ix * b, y * k - iy * b).astype(np.float32)
        return np.asarray((vin > 0.72 * ref) & (vin - vout > 0.12 * ref))


def _split_multi(blobs: list[_Blob], long: float, minch: np.ndarray, scale: float,
                 mask: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """(cluster index, quad) of the cards of clusters that are not one whole card."""
    short = long / CARD_ASPECT
    tol = max(1.5, 0.06 * short)
    probe = _Probe(minch=minch, scale=scale, mm=short / scale / 63.0)
    ref = np.array([_white(minch, b, scale) for b in blobs], np.float32)
    v, u1, u2, cb = _corners(blobs, short)
    if not len(v):
        return []
    arr, hb = _proposals(v, u1, u2, cb, probe, ref, short, long)
    labels = _labels(blobs, mask.shape)
    inside = _inside(arr, labels, hb)
    arr, hb = arr[inside], hb[inside]
    if not len(arr):
        return []
    g = _Groups.make(blobs, arr, hb, probe, ref, tol, short, mask)
    chosen = g.choose(short)
    return [(b, g.quads[b, i]) for b in range(len(blobs)) if g.valid[b].any() for i in chosen[b]]


def _white(minch: np.ndarray, blob: _Blob, scale: float) -> float:
    """The cluster's white (95 % quantile of the min-channel image over its box), as `_EdgeProbe`."""
    h, w = minch.shape
    x0, y0 = (max(int(v / scale), 0) for v in blob.origin)
    bh, bw = blob.filled.shape
    x1, y1 = min(int((blob.origin[0] + bw) / scale) + 1, w), min(int((blob.origin[1] + bh) / scale) + 1, h)
    return max(quantile_u8(minch[y0:y1, x0:x1], 0.95), 20.0) if x1 > x0 and y1 > y0 else 255.0


def quantile_u8(a: np.ndarray, q: float) -> float:
    """`glyphs.quantile` (the same order statistic) of a uint8 array, from its 256-bin histogram."""
    n = a.size
    k = min(n - 1, max(0, round(q * (n - 1))))
    return float(np.searchsorted(np.bincount(a.ravel(), minlength=256).cumsum(), k, side="right"))


def _corners(blobs: list[_Blob], short: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(vertices, unit arm 1, unit arm 2, cluster index) of every convex, roughly right-angled vertex of
    every cluster's outline, refined from the outline near it (as `detect._corner_frames`)."""
    polys = []
    for b in blobs:
        p = cv2.approxPolyDP(b.contour.reshape(-1, 1, 2), max(1.0, 0.05 * short), True).reshape(-1, 2)
        polys.append(cut_corners(p.astype(np.float64), CUT * short))
    polys = [p if len(p) >= 3 else p[:0] for p in polys]
    sizes = np.array([len(p) for p in polys])
    cb = np.repeat(np.arange(len(polys)), sizes)
    start = (np.cumsum(sizes) - sizes)[cb]
    local = np.arange(len(cb)) - start
    n = sizes[cb]
    poly = np.concatenate(polys) if len(cb) else np.zeros((0, 2), np.float32)
    nxt, prv = poly[start + (local + 1) % n], poly[start + (local - 1) % n]
    e1, e2 = nxt - poly, prv - poly
    l1, l2 = np.hypot(e1[:, 0], e1[:, 1]), np.hypot(e2[:, 0], e2[:, 1])
    area2 = np.bincount(cb, poly[:, 0] * nxt[:, 1] - nxt[:, 0] * poly[:, 1], minlength=len(blobs))[cb]
    cross = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
    u1, u2 = e1 / np.maximum(l1, 1e-3)[:, None], e2 / np.maximum(l2, 1e-3)[:, None]
    cos = np.sum(u1 * u2, axis=1)
    # Convex (a reflex vertex is where two cards' edges cross) and 55–125°.
    ok = (l1 >= 1e-3) & (l2 >= 1e-3) & (cross * area2 > 0) & (cos <= np.cos(np.radians(55.0))) \
        & (cos >= np.cos(np.radians(125.0)))
    v, u1, u2, cb = poly[ok], u1[ok], u2[ok], cb[ok]
    contours = _padded([b.contour for b in blobs])[cb]
    v, u1, u2 = _local_corners(contours[..., 0], contours[..., 1], v, u1, u2, short)
    return v, u1, u2, cb


def cut_corners(poly: np.ndarray, min_len: float) -> np.ndarray:
    """Replace each very short edge (a rounded card corner) by the meeting point of its neighbour edges
    (as `detect._cut_short_edges`; plain floats: the outline has a dozen vertices)."""
    pts = [(float(x), float(y)) for x, y in poly]
    while len(pts) > 3:
        n = len(pts)
        nxt = pts[1:] + pts[:1]
        lens = [math.hypot(bx - ax, by - ay) for (ax, ay), (bx, by) in zip(pts, nxt, strict=True)]
        i = min(range(n), key=lens.__getitem__)
        if lens[i] >= min_len:
            break
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = (pts[(i + k) % n] for k in (-1, 0, 1, 2))
        d1x, d1y, d2x, d2y = bx - ax, by - ay, dx - cx, dy - cy
        det = d1y * d2x - d1x * d2y
        x = ((bx + cx) / 2, (by + cy) / 2)
        if abs(det) > 1e-6:
            t = ((cy - ay) * d2x - (cx - ax) * d2y) / det
            meet = (ax + t * d1x, ay + t * d1y)
            if math.hypot(meet[0] - bx, meet[1] - by) <= 3 * min_len:
                x = meet
        pts[i] = x
        del pts[(i + 1) % n]
    return np.array(pts, np.float32)


def portraits(quads: np.ndarray) -> np.ndarray:
    """`detect.portrait` of every quad (K×4×2): clockwise on screen, a short side first."""
    q = np.asarray(quads, np.float32)
    nxt = q[:, [1, 2, 3, 0]]
    area2 = (q[..., 0] * nxt[..., 1] - nxt[..., 0] * q[..., 1]).sum(axis=1)
    q = np.where((area2 < 0)[:, None, None], q[:, ::-1], q)
    d01, d12 = q[:, 1] - q[:, 0], q[:, 2] - q[:, 1]
    turn = np.hypot(d01[:, 0], d01[:, 1]) > np.hypot(d12[:, 0], d12[:, 1])
    return np.where(turn[:, None, None], q[:, [1, 2, 3, 0]], q)


def _local_corners(cx: np.ndarray, cy: np.ndarray, v: np.ndarray, u1: np.ndarray, u2: np.ndarray,
                   short: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each corner's two arms fitted to its outline (x, y: C×N) 0.1–0.5 short sides from it: the polygon's
    edges may run on to another card's corner, but the first few millimetres of each arm are this card's."""
    rx, ry = cx - v[:, :1], cy - v[:, 1:]
    dist = np.hypot(rx, ry)
    near = (dist > 0.1 * short) & (dist < 0.5 * short)
    p1 = rx * u1[:, :1] + ry * u1[:, 1:]  # projections on each arm, × dist
    p2 = rx * u2[:, :1] + ry * u2[:, 1:]
    x64, y64 = cx.astype(np.float64), cy.astype(np.float64)
    lines = []
    for arm, u in ((near & (p1 > p2) & (p1 > 0.9 * dist), u1), (near & (p2 > p1) & (p2 > 0.9 * dist), u2)):
        centre, dirn = _weighted_lines(arm.astype(np.float64), x64, y64)
        dirn = np.where((np.sum(dirn * u, axis=1) > 0)[:, None], dirn, -dirn)
        use = (arm.sum(axis=1) >= 4)[:, None]
        lines.append((np.where(use, centre, v), np.where(use, dirn, u)))
    (q1, d1), (q2, d2) = lines
    corner, det = _intersect(q1, d1, q2, d2)
    move = (np.abs(det) > 0.3) & (np.hypot(*(corner - v).T) < 0.25 * short)
    return (np.where(move[:, None], corner, v).astype(np.float32), d1.astype(np.float32),
            d2.astype(np.float32))


def _weighted_lines(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total-least-squares lines (centroid, unit direction: …×2) of points (x, y) under weights w (…×N)."""
    n = np.maximum(w.sum(axis=-1), 1e-9)
    wx, wy = w * x, w * y
    mx, my = wx.sum(axis=-1) / n, wy.sum(axis=-1) / n
    sxx = (wx * x).sum(axis=-1) / n - mx * mx
    syy = (wy * y).sum(axis=-1) / n - my * my
    sxy = (wx * y).sum(axis=-1) / n - mx * my
    theta = 0.5 * np.arctan2(2 * sxy, sxx - syy)  # the principal axis of the points' scatter
    return np.stack([mx, my], axis=-1), np.stack([np.cos(theta), np.sin(theta)], axis=-1)


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray,
               d2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Meeting points of lines p1 + t d1 and p2 + s d2 (…×2 each), and the determinant of each system."""
    det = d1[..., 1] * d2[..., 0] - d1[..., 0] * d2[..., 1]
    r = p2 - p1
    t = (r[..., 1] * d2[..., 0] - r[..., 0] * d2[..., 1]) / np.where(np.abs(det) > 1e-12, det, 1.0)
    return p1 + t[..., None] * d1, det


def _proposals(v: np.ndarray, u1: np.ndarray, u2: np.ndarray, cb: np.ndarray, probe: _Probe,
               ref: np.ndarray, short: float, long: float) -> tuple[np.ndarray, np.ndarray]:
    """Card proposals (H×4×2) and their clusters from every corner in portrait and landscape, far sides
    snapped to the image's card edges; where the image clearly shows one reading's edges, the other
    reading of that corner is dropped."""
    lens = np.float32([[short, long], [long, short]])  # reading o: (side along u1, side along u2)
    l1, l2 = lens[None, :, 0, None], lens[None, :, 1, None]  # 1×2×1
    a1, a2 = u1[:, None, :] * l1, u2[:, None, :] * l2  # C×2×2: the nominal arms
    vv = v[:, None, :]
    # Side k=0 is the far side across arm 1 (it moves along u1), k=1 the far side across arm 2.
    base = np.stack([vv + a1, vv + a2], axis=2)  # C×2×2×2
    along = np.stack([a2, a1], axis=2)
    out = np.broadcast_to(np.stack([u1, u2], axis=1)[:, None], base.shape)
    length = np.broadcast_to(lens, base.shape[:3])
    # Points along each far side at every scale, C×2×2×S×T, x and y apart (long inner loops).
    grow = (SCALES - 1.0)[:, None] * length[..., None, None]
    px = base[..., 0, None, None] + grow * out[..., 0, None, None] + T * along[..., 0, None, None]
    py = base[..., 1, None, None] + grow * out[..., 1, None, None] + T * along[..., 1, None, None]
    cref = ref[cb][:, None, None, None, None]
    edge = probe.edges(px, py, -out[..., 0, None, None], -out[..., 1, None, None], cref)
    sup = edge.sum(axis=-1) * (1.0 / len(T)) - 0.2 * np.abs(SCALES - 1.0)
    best = np.argmax(sup, axis=-1)
    s = np.where(np.take_along_axis(sup, best[..., None], -1)[..., 0] > 0.3, SCALES[best], 1.0)
    s1, s2 = s[..., 0], s[..., 1]
    # Perspective stretches a card by up to ~30 % but barely changes its shape; a snap that makes it
    # square (or too slim) ran on to a neighbour's edge: that side keeps the nominal size.
    m1, m2 = l1[..., 0] * s1, l2[..., 0] * s2
    aspect = np.maximum(m1, m2) / np.minimum(m1, m2)
    bad = ~((aspect > ASPECT_RANGE[0]) & (aspect < ASPECT_RANGE[1]))
    first = np.abs(s1 - 1) > np.abs(s2 - 1)
    s1, s2 = np.where(bad & first, 1.0, s1), np.where(bad & ~first, 1.0, s2)
    a, b = a1 * s1[..., None], a2 * s2[..., None]
    quads = np.stack([np.broadcast_to(vv, a.shape), vv + a, vv + a + b, vv + b], axis=2).astype(np.float32)
    ev = _side_support(quads.reshape(-1, 4, 2), probe, np.repeat(ref[cb], 2)).reshape(-1, 2)
    keep = np.ones(ev.shape, bool)
    clear = np.abs(ev[:, 0] - ev[:, 1]) > ORIENTATION_MARGIN
    keep[clear, np.argmin(ev[clear], axis=1)] = False
    return np.asarray(quads[keep], np.float32), np.repeat(cb, 2)[keep.ravel()]


def _sides(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Points along each side (x, y: …×4×T) and each side's unit normal into the quad (x, y: …×4×1)."""
    ax, ay = quads[..., 0], quads[..., 1]
    bx, by = ax[..., [1, 2, 3, 0]], ay[..., [1, 2, 3, 0]]
    dx, dy = bx - ax, by - ay
    px, py = ax[..., None] + T * dx[..., None], ay[..., None] + T * dy[..., None]
    norm = np.maximum(np.hypot(dx, dy), 1e-6)
    nx, ny = -dy / norm, dx / norm
    cx, cy = ax.sum(axis=-1, keepdims=True) * 0.25, ay.sum(axis=-1, keepdims=True) * 0.25
    sgn = np.sign((cx - ax) * nx + (cy - ay) * ny)
    return px, py, (sgn * nx)[..., None], (sgn * ny)[..., None]


def _side_support(quads: np.ndarray, probe: _Probe, ref: np.ndarray) -> np.ndarray:
    """Per quad, the share of points along its sides that the image shows as a card edge seen from inside
    (as `detect._side_evidence`, with the cluster's white as the reference)."""
    px, py, ix, iy = _sides(quads)
    return np.asarray(probe.edges(px, py, ix, iy, ref[:, None, None]).sum(axis=(1, 2)) * (1.0 / (4 * len(T))))


def _labels(blobs: list[_Blob], shape: tuple[int, ...]) -> np.ndarray:
    """Cluster i + 1 at each of its pixels (work size)."""
    out = np.zeros(shape[:2], np.uint16)
    for i, b in enumerate(blobs):
        x, y = b.origin
        h, w = b.filled.shape
        roi = out[max(y, 0):y + h, max(x, 0):x + w]
        sub = b.filled[max(-y, 0):max(-y, 0) + roi.shape[0], max(-x, 0):max(-x, 0) + roi.shape[1]]
        roi[sub > 0] = i + 1
    return out


def _sample(img: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Nearest pixel of `img` (contiguous, one channel) at (x, y) (arrays of one shape), clipped."""
    h, w = img.shape[:2]
    xi = (x + 0.5).astype(np.intp)
    np.minimum(np.maximum(xi, 0, out=xi), w - 1, out=xi)  # np.clip costs several times more per call
    yi = (y + 0.5).astype(np.intp)
    np.minimum(np.maximum(yi, 0, out=yi), h - 1, out=yi)
    yi *= w
    yi += xi
    return np.asarray(img.take(yi))


def _grid_points(quads: np.ndarray, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points at fractions `grid` (P×2) of each quad's sides 0→1 and 0→3 (x, y: …×P)."""
    gx, gy = grid[:, 0], grid[:, 1]
    out = []
    for k in (0, 1):
        c = quads[..., k]
        out.append(c[..., :1] + gx * (c[..., 1:2] - c[..., :1]) + gy * (c[..., 3:4] - c[..., :1]))
    return out[0], out[1]


def _inside(arr: np.ndarray, labels: np.ndarray, hb: np.ndarray) -> np.ndarray:
    """Proposals with at least 90 % of a grid of interior points on their own cluster."""
    hits = _sample(labels, *_grid_points(arr, _GRID)) == (hb + 1)[:, None]
    return np.asarray(hits.sum(axis=1) >= 0.9 * hits.shape[1])


@dataclass(slots=True)
class _Groups:
    """The proposals of every cluster, padded to B×H, and what scoring sets of them needs."""

    quads: np.ndarray  # B×H×4×2 work pixels
    valid: np.ndarray  # B×H
    masks: np.ndarray  # B×H×U float32: whether each proposal covers the pixels of kind u (_masks)
    target: np.ndarray  # B×U float32: whether the cluster does
    weight: np.ndarray  # B×U float32: how many pixels of the cluster's box are of kind u (0: padding)
    explains: np.ndarray  # B×H×N float32: outline points within tol of the proposal's outline
    n_out: np.ndarray  # B: outline points
    inner: np.ndarray  # B×H: share of side points inside the cluster that show a card edge
    paper: np.ndarray  # B×H×Q float32: paper at a grid of interior points
    inside: np.ndarray  # B×H(j)×H(i)×Q float32: point q of proposal i lies in proposal j (j ≠ i)

    @classmethod
    def make(cls, blobs: list[_Blob], arr: np.ndarray, hb: np.ndarray, probe: _Probe, ref: np.ndarray,
             tol: float, short: float, mask: np.ndarray) -> _Groups:
        nb = len(blobs)
        counts = np.bincount(hb, minlength=nb)
        hmax = int(counts.max())
        rank = np.arange(len(hb)) - np.concatenate([[0], np.cumsum(counts)[:-1]])[hb]
        quads = np.zeros((nb, hmax, 4, 2), np.float32)
        quads[:, :] = [[0, 0], [1, 0], [1, 1], [0, 1]]  # padding: a unit square far from every point
        quads[:, :] -= 2 * FAR
        quads[hb, rank] = arr
        valid = np.zeros((nb, hmax), bool)
        valid[hb, rank] = True
        masks, target, weight = _masks(blobs, quads, valid)
        pts = _padded([b.contour[::2] for b in blobs])
        n_out = np.array([len(b.contour[::2]) for b in blobs], np.float32)
        explains = _explained(pts[..., 0], pts[..., 1], quads, tol).astype(np.float32)
        px, py, ix, iy = _sides(quads)
        edge = probe.edges(px, py, ix, iy, ref[:, None, None, None])
        inner = _inner(edge, px, py, pts, [len(b.contour[::2]) for b in blobs], tol) * (valid / (4 * len(T)))
        gx, gy = _grid_points(quads, _IGRID)  # B×H×Q
        k = 1.0 / probe.scale
        paper = (probe.sample(gx * k, gy * k) > 0.72 * ref[:, None, None]).astype(np.float32)
        return cls(quads=quads, valid=valid, masks=masks, target=target, weight=weight, explains=explains,
                   n_out=n_out,
                   inner=inner.astype(np.float32), paper=paper * valid[..., None],
                   inside=_inside_matrix(quads, gx, gy))

    def choose(self, short: float) -> list[list[int]]:
        """Per cluster, the indices of the chosen proposals: the search of `detect._split` (starts from the
        outline's pick, greedy growth and the best pair, each improved by dropping or swapping one card,
        the best result kept), with every set of one or two cards scored from the tables of all singles
        and pairs and only sets of three or more scored one by one (piles)."""
        nb, hmax = self.valid.shape
        singles = self._singles()
        pairs = self._pairs() if hmax >= 2 else np.full((nb, hmax, hmax), -np.inf, np.float32)
        # Greedy growth of every cluster to two cards from the tables, then a third card for all at once.
        greedy: list[list[int]] = []
        for b in range(nb):
            s1 = int(np.argmax(singles[b]))
            chosen = [s1] if singles[b, s1] > 0 else []
            if chosen and hmax >= 2:
                s2 = int(np.argmax(pairs[b, s1]))
                if pairs[b, s1, s2] > singles[b, s1]:
                    chosen.append(s2)
            greedy.append(chosen)
        sel = np.zeros((nb, hmax, hmax), np.float32)
        for b, c in enumerate(greedy):
            if len(c) == 2:
                sel[b, :, c] = 1.0
        sel[:, np.arange(hmax), np.arange(hmax)] = 1.0
        third = np.where(sel.sum(axis=2) == 3, self.scores(sel), -np.inf)
        out = []
        for b in range(nb):
            table = _Table(singles[b].tolist(), pairs[b].tolist())
            g = greedy[b]
            if len(g) == 2 and float(third[b].max()) > table.score(g):
                g = self._grow(b, [*g, int(np.argmax(third[b]))])
            best: list[int] = []
            top = -1.0
            n = int(self.valid[b].sum())
            pair = table.best_pair() if n <= PAIR_SEARCH_MAX else []
            done: dict[tuple[int, ...], tuple[list[int], float]] = {}
            for start in (self._outline_pick(b, short), g, pair):
                key = tuple(start)
                if key not in done:  # the search is deterministic: two equal starts end alike
                    done[key] = (table.local_search(start) if len(start) <= 2
                                 else self._local_search(b, start, table))
                got, score = done[key]
                if score > top:
                    best, top = got, score
            out.append(best)
        return out

    def _grow(self, b: int, chosen: list[int]) -> list[int]:
        """Greedy growth beyond three cards (`_SetScore.greedy`), each step scoring every addition at once."""
        h = self.valid.shape[1]
        current = float(self.scores(_rows([chosen], h), b)[0])
        while len(chosen) < MAX_CARDS:
            sc = self.scores(_rows([[*chosen, i] for i in range(h)], h), b)
            sc[chosen] = -np.inf
            i = int(np.argmax(sc))
            if sc[i] <= current:
                break
            chosen, current = [*chosen, i], float(sc[i])
        return chosen

    def _local_search(self, b: int, chosen: list[int], table: _Table) -> tuple[list[int], float]:
        """`_SetScore.local_search` for a set of three or more cards (each swap scores every replacement
        at once; sets of one or two cards come from the table)."""
        h = self.valid.shape[1]

        def score(sel: list[int]) -> float:
            return table.score(sel) if len(sel) <= 2 else float(self.scores(_rows([sel], h), b)[0])

        def with_each(rest: list[int]) -> np.ndarray:
            if len(rest) <= 1:
                return np.array(table.with_each(rest))
            return self.scores(_rows([[*rest, i] for i in range(h)], h), b)

        return drop_swap_search(chosen, score, with_each)

    def _singles(self) -> np.ndarray:
        # Pixel counts: every product is a whole number below 2^24, so float32 sums are exact in any order.
        m, tw, ow = self.masks, self._in_target()[:, None, :], self._off_target()[:, None, :]
        inter = (m * tw).sum(axis=2)
        union = tw.sum(axis=2) + (m * ow).sum(axis=2)
        expl = self.explains.sum(axis=2) / self.n_out[:, None]
        q = self.paper.shape[2]
        imp = _impure(np.full(self.valid.shape, q, np.float32), self.paper.sum(axis=2))
        s = (inter / np.maximum(union, 1) + 0.15 * expl - 0.04 - IMPURITY_COST * imp
             + INNER_EDGE_GAIN * self.inner)
        return np.where(self.valid, s, -np.inf)

    def _pairs(self) -> np.ndarray:
        """Score of every pair {i, j} of each cluster (B×H×H, −inf on the diagonal and padding), by
        inclusion–exclusion from products of the proposals' masks."""
        m = self.masks
        mt, mo = m * self._in_target()[:, None, :], m * self._off_target()[:, None, :]  # pixel counts
        mT = m.transpose(0, 2, 1)
        a, b = mt.sum(axis=2), mo.sum(axis=2)
        inter = a[:, :, None] + a[:, None, :] - mt @ mT
        union = self._in_target().sum(axis=1)[:, None, None] + b[:, :, None] + b[:, None, :] - mo @ mT
        f = self.explains
        e = f.sum(axis=2)
        expl = (e[:, :, None] + e[:, None, :] - f @ f.transpose(0, 2, 1)) / self.n_out[:, None, None]
        q = self.paper.shape[2]
        # count[b, i, j]: card i's own points when j lies on it; papers: how many of them are paper.
        count = q - self.inside.sum(axis=3).transpose(0, 2, 1)
        papers = self.paper.sum(axis=2)[:, :, None] - np.einsum("bjiq,biq->bij", self.inside, self.paper)
        imp = _impure(count, papers)
        s = (inter / np.maximum(union, 1) + 0.15 * expl - 0.08
             - IMPURITY_COST * (imp + imp.transpose(0, 2, 1))
             + INNER_EDGE_GAIN * (self.inner[:, :, None] + self.inner[:, None, :]))
        ok = self.valid[:, :, None] & self.valid[:, None, :] & ~np.eye(self.valid.shape[1], dtype=bool)
        return np.where(ok, s, -np.inf)

    def _in_target(self) -> np.ndarray:
        """B×U: pixels of each kind inside the cluster."""
        return np.asarray(self.target * self.weight)

    def _off_target(self) -> np.ndarray:
        """B×U: pixels of each kind outside the cluster (in its box)."""
        return np.asarray((1 - self.target) * self.weight)

    def scores(self, sel: np.ndarray, b: int | None = None) -> np.ndarray:
        """Score of each set (rows of `sel`, B×S×H 0/1; or S×H of cluster `b`)."""
        if b is not None:
            return self._scores(sel[None], slice(b, b + 1))[0]
        return self._scores(sel, slice(None))

    def _scores(self, sel: np.ndarray, bs: slice) -> np.ndarray:
        m, t, w = self.masks[bs], self.target[bs][:, None, :], self.weight[bs][:, None, :]
        f = self.explains[bs]
        union = (sel @ m) > 0
        inter = (union * (t * w)).sum(axis=2)
        uni = (np.maximum(union, t) * w).sum(axis=2)
        expl = ((sel @ f) > 0).sum(axis=2) / self.n_out[bs][:, None]
        nb, ns, h = sel.shape
        q = self.paper.shape[2]
        cover = (sel @ self.inside[bs].reshape(nb, h, h * q)).reshape(nb, ns, h, q)
        own = cover < 0.5
        count = own.sum(axis=3).astype(np.float32)
        papers = (own * self.paper[bs][:, None]).sum(axis=3)
        imp = (_impure(count, papers) * sel).sum(axis=2)
        inner = sel @ self.inner[bs][..., None]
        size = sel.sum(axis=2)
        s = inter / np.maximum(uni, 1) + 0.15 * expl - 0.04 * size - IMPURITY_COST * imp \
            + INNER_EDGE_GAIN * inner[..., 0]
        ok = ((sel * ~self.valid[bs][:, None, :]).sum(axis=2) == 0) & (size > 0)
        return np.where(ok, s, -np.inf)

    def _outline_pick(self, b: int, short: float) -> list[int]:
        """`detect._greedy_outline` on one cluster (padding explains nothing, so it is never picked)."""
        explains = self.explains[b, :, :int(self.n_out[b])] > 0
        return greedy_outline(explains, self.quads[b].mean(axis=1), short)


def greedy_outline(explains: np.ndarray, centres: np.ndarray, short: float) -> list[int]:
    """`detect._greedy_outline` with each proposal's explained outline points as one Python integer (a
    bit per point): the same picks (counts, the first best gain, the same float comparisons) without a
    dozen small array operations per step. Pick proposals by the outline they explain that is not
    explained yet; a proposal whose centre lies near a picked one's is a duplicate."""
    h, n = explains.shape
    if n == 0 or h == 0:
        return []
    packed = np.packbits(explains, axis=1, bitorder="little")
    rows = [int.from_bytes(r.tobytes(), "little") for r in packed]
    cx, cy = centres[:, 0], centres[:, 1]
    apart = (np.hypot(cx[None, :] - cx[:, None], cy[None, :] - cy[:, None]) >= 0.3 * short).tolist()
    unexplained = (1 << n) - 1
    open_ = [True] * h
    chosen: list[int] = []
    bar = 0.1 * n / 2
    while unexplained.bit_count() / n > 0.04 and any(open_):
        gains = [(r & unexplained).bit_count() if o else -1 for r, o in zip(rows, open_, strict=True)]
        best = max(range(h), key=gains.__getitem__)
        if gains[best] < bar:
            break
        chosen.append(best)
        unexplained &= ~rows[best]
        open_ = [o and a for o, a in zip(open_, apart[best], strict=True)]
    return chosen


def _inner(edge: np.ndarray, px: np.ndarray, py: np.ndarray, pts: np.ndarray, n_pts: list[int],
           tol: float) -> np.ndarray:
    """B×H: how many side points of each proposal show a card edge and lie farther than 2 tol from every
    outline point of its cluster (pts: B×N×2), i.e. inside the cluster, as `_EdgeProbe.inner_edges`.
    Distances are taken only for the side points that show an edge (a small share of all)."""
    nb, h = edge.shape[:2]
    bi, hi, si, ti = np.nonzero(edge)  # in cluster order
    ex, ey = px[bi, hi, si, ti], py[bi, hi, si, ti]
    far = np.empty(len(bi), bool)
    ends = np.searchsorted(bi, np.arange(nb + 1))
    for b in range(nb):
        a, z = int(ends[b]), int(ends[b + 1])
        if a == z:
            continue
        # Each cluster's own outline points only (the padding's far points are never the nearest).
        own = pts[b, :n_pts[b]]
        dx, dy = own[:, 0] - ex[a:z, None], own[:, 1] - ey[a:z, None]
        far[a:z] = (dx * dx + dy * dy).min(axis=1, initial=np.inf) > (2 * tol) ** 2
    return np.bincount(bi * h + hi, far, minlength=nb * h).reshape(nb, h).astype(np.float32)


@dataclass(slots=True)
class _Table:
    """The scores of every single card and every pair of one cluster (Python floats: the searches over
    them take a handful of steps), and `_SetScore`'s searches on sets of at most two cards."""

    singles: list[float]
    pairs: list[list[float]]

    def score(self, sel: list[int]) -> float:
        if not sel:
            return 0.0
        return self.singles[sel[0]] if len(sel) == 1 else self.pairs[sel[0]][sel[1]]

    def with_each(self, rest: list[int]) -> list[float]:
        """score(rest + [i]) for every i (rest has at most one card), −inf for i in rest."""
        row = list(self.singles) if not rest else list(self.pairs[rest[0]])
        for i in rest:
            row[i] = -math.inf
        return row

    def best_pair(self) -> list[int]:
        """`_SetScore.best_pair`: the first pair (i < j) with the highest score."""
        best: list[int] = []
        top = -math.inf
        for i, row in enumerate(self.pairs):
            rest = row[i + 1:]
            if rest:
                j = i + 1 + max(range(len(rest)), key=rest.__getitem__)
                if row[j] > top:
                    best, top = [i, j], row[j]
        return best

    def local_search(self, chosen: list[int]) -> tuple[list[int], float]:
        """`_SetScore.local_search` on a set of at most two cards (it never grows): `drop_swap_search` on
        Python lists (the first best swap as np.argmax picks it; no scores are NaN), the same steps."""
        current = self.score(chosen)
        for _ in range(4):
            improved = False
            for k in range(len(chosen) - 1, -1, -1):
                trial = chosen[:k] + chosen[k + 1:]
                sc = self.score(trial)
                if trial and sc > current + 1e-6:
                    chosen, current, improved = trial, sc, True
            for k in range(len(chosen)):
                rest = chosen[:k] + chosen[k + 1:]
                row = self.with_each(rest)
                i = max(range(len(row)), key=row.__getitem__)
                if row[i] > current + 1e-6:
                    chosen, current, improved = [*rest, i], row[i], True
            if not improved:
                break
        return chosen, current


def _rows(sets: list[list[int]], h: int) -> np.ndarray:
    out = np.zeros((len(sets), h), np.float32)
    for r, s in enumerate(sets):
        out[r, s] = 1.0
    return out


def _impure(count: np.ndarray, papers: np.ndarray) -> np.ndarray:
    """How much a card's own part (count points, papers of them paper) is half face, half back (0–1)."""
    p = papers / np.maximum(count, 1)
    v = np.maximum(np.minimum(np.minimum((p - 0.12) / 0.1, (0.45 - p) / 0.1), 1.0), 0.0)
    return np.where(count < 8, 0.0, v).astype(np.float32)


def _masks(blobs: list[_Blob], quads: np.ndarray, valid: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each proposal filled on its cluster's box, clipped by it as `_SetScore` draws it (whole pixels; a
    polygon clipped by OpenCV rasterises a little differently from one drawn whole), and the cluster —
    with the box's pixels grouped by kind: which proposals cover a pixel and whether the cluster does.

    Every score of a set of proposals sums over pixels something that depends only on a pixel's kind, so
    a kind counts as many times as it has pixels: the sums are the same whole numbers as over the pixels
    (exact in float32), over a few dozen kinds instead of thousands of pixels. Returns masks B×H×U and
    target B×U (0/1) and weight B×U (pixels of each kind, 0 for padding); kinds no proposal and not the
    cluster cover add nothing to any score and are left out."""
    nb, hmax = valid.shape
    if hmax + 1 > 31:  # too many proposals for a 31-bit kind: one kind per pixel (the plain sums)
        return _pixel_masks(blobs, quads, valid)
    kinds: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    for b, blob in enumerate(blobs):
        bh, bw = blob.filled.shape
        rel = np.round(quads[b] - np.float32(blob.origin)).astype(np.int32)
        # Proposal h drawn with the value 2^h on its own plane, the cluster as 2^H: a pixel's kind is the
        # sum of the planes (bit h set = proposal h covers it).
        canvas = np.zeros((hmax + 1, bh, bw), np.int32)
        for h in np.flatnonzero(valid[b]).tolist():
            cv2.fillPoly(canvas[h], [rel[h]], 1 << h)
        canvas[hmax] = blob.filled.astype(np.int32) << hmax
        kind, count = np.unique(canvas.sum(axis=0, dtype=np.int32), return_counts=True)
        keep = kind != 0
        kinds.append(kind[keep])
        counts.append(count[keep])
    u = max(1, max(len(k) for k in kinds))
    masks = np.zeros((nb, hmax, u), np.float32)
    target = np.zeros((nb, u), np.float32)
    weight = np.zeros((nb, u), np.float32)
    bits = np.arange(hmax + 1, dtype=np.int32)
    for b, (kind, count) in enumerate(zip(kinds, counts, strict=True)):
        on = ((kind[None, :] >> bits[:, None]) & 1).astype(np.float32)  # (H+1)×U_b
        masks[b, :, :len(kind)] = on[:hmax]
        target[b, :len(kind)] = on[hmax]
        weight[b, :len(kind)] = count
    return masks, target, weight


def _pixel_masks(blobs: list[_Blob], quads: np.ndarray, valid: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`_masks` with one kind per pixel of the largest box (B×H×P, B×P, weight 1 inside each box)."""
    nb, hmax = valid.shape
    th, tw = max(b.filled.shape[0] for b in blobs), max(b.filled.shape[1] for b in blobs)
    masks = np.zeros((nb, hmax, th, tw), np.float32)
    target = np.zeros((nb, th, tw), np.float32)
    weight = np.zeros((nb, th, tw), np.float32)
    for b, blob in enumerate(blobs):
        bh, bw = blob.filled.shape
        target[b, :bh, :bw] = blob.filled
        weight[b, :bh, :bw] = 1.0
        rel = np.round(quads[b] - np.float32(blob.origin)).astype(np.int32)
        canvas = np.zeros((hmax, bh, bw), np.uint8)
        for h in np.flatnonzero(valid[b]).tolist():
            cv2.fillPoly(canvas[h], [rel[h]], 1)
        masks[b, :, :bh, :bw] = canvas
    return masks.reshape(nb, hmax, -1), target.reshape(nb, -1), weight.reshape(nb, -1)


def _explained(x: np.ndarray, y: np.ndarray, quads: np.ndarray, tol: float) -> np.ndarray:
    """B×H×N: outline point n of a cluster (x, y: B×N) lies within `tol` of the outline of its quad h
    (the four sides at once: B×H×4×N)."""
    ax, ay = quads[..., 0, None], quads[..., 1, None]  # B×H×4×1
    dx = quads[:, :, [1, 2, 3, 0], 0, None] - ax
    dy = quads[:, :, [1, 2, 3, 0], 1, None] - ay
    rx, ry = x[:, None, None, :] - ax, y[:, None, None, :] - ay
    t = np.minimum(np.maximum((rx * dx + ry * dy) / np.maximum(dx * dx + dy * dy, 1e-6), 0.0), 1.0)
    rx -= t * dx
    ry -= t * dy
    return np.asarray((rx * rx + ry * ry < tol * tol).any(axis=2))


def _inside_matrix(quads: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """B×H(j)×H(i)×Q: point q of proposal i (gx, gy: B×H×Q) lies inside proposal j (False for j = i),
    from one product of every side's line equation with every point."""
    nb, h = quads.shape[:2]
    q = gx.shape[2]
    a, b = quads, quads[:, :, [1, 2, 3, 0]]
    ex, ey = (b - a)[..., 0], (b - a)[..., 1]  # B×H×4
    area2 = (a[..., 0] * b[..., 1] - b[..., 0] * a[..., 1]).sum(axis=2)
    sgn = np.where(area2 >= 0, 1.0, -1.0)[..., None]
    # cross(edge, p - a) = ex * py - ey * px - (ex * ay - ey * ax), signed so that inside is ≥ 0.
    lines = np.stack([-ey * sgn, ex * sgn, -(ex * a[..., 1] - ey * a[..., 0]) * sgn], axis=-1)  # B×H×4×3
    hom = np.stack([gx.reshape(nb, h * q), gy.reshape(nb, h * q), np.ones((nb, h * q), np.float32)], axis=1)
    cross = lines.reshape(nb, h * 4, 3).astype(np.float32) @ hom  # B×(H·4)×(H·Q)
    inside = (cross.reshape(nb, h, 4, h, q) >= 0).all(axis=2)
    inside[:, np.arange(h), np.arange(h)] = False
    return inside.astype(np.float32)


def refine(quads: np.ndarray, pts: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """Each side of each quad (K×4×2) fitted to its cluster's outline points (K×N×2) within `tol` (K) of it
    (`cv2.fitLine` with Huber weights, as `detect._refine`); a side with too few points (hidden under
    another card) keeps the guess, and so does a corner whose sides meet implausibly far from it."""
    ax, ay = quads[..., 0, None], quads[..., 1, None]  # K×4×1: side i runs from corner i to corner i+1
    dx = quads[:, [1, 2, 3, 0], 0, None] - ax
    dy = quads[:, [1, 2, 3, 0], 1, None] - ay
    x, y = pts[:, None, :, 0], pts[:, None, :, 1]  # K×1×N
    rx, ry = x - ax, y - ay
    t = np.minimum(np.maximum((rx * dx + ry * dy) / np.maximum(dx * dx + dy * dy, 1e-6), 0.0), 1.0)
    near = np.hypot(rx - t * dx, ry - t * dy) < tol[:, None, None]  # K×4×N
    side_len = np.hypot(dx, dy)[..., 0]
    fit = near.sum(axis=-1) >= np.maximum(6.0, 0.3 * side_len / 2)
    centre = quads.astype(np.float64)
    dirn = np.stack([dx[..., 0], dy[..., 0]], axis=-1) / np.maximum(side_len, 1e-6)[..., None]
    for k, s in zip(*np.nonzero(fit), strict=True):
        vx, vy, x0, y0 = cv2.fitLine(pts[k][near[k, s]], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        centre[k, s], dirn[k, s] = (x0, y0), (vx, vy)
    # Corner i is where side i-1 meets side i.
    prev = [3, 0, 1, 2]
    corner, det = _intersect(centre[:, prev], dirn[:, prev], centre, dirn)
    diag = np.hypot(*(quads[:, 2] - quads[:, 0]).T)[:, None]
    keep = (np.abs(det) < 1e-3) | (np.hypot(*(corner - quads).transpose(2, 0, 1)) > 0.25 * diag)
    return np.where(keep[..., None], quads, corner).astype(np.float32)
