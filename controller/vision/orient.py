"""Face up/down, zone and hidden faces of every card of a frame at once (the calibrated path).

The statistics are those of `detect.face_stats` (paper-white fraction of the card's interior not covered
by the other cards of its cluster, after opening away thin lines, and a 4×4×4 colour histogram against the
card's own white), computed for all cards together: one `remap` warps every card to the canonical 50×70
(the maps of all cards stacked, so it is warpPerspective's bilinear sampling for each), one opening runs on
the stacked paper masks, one `bincount` makes every histogram. Zones come from a label image made once
per calibration and frame size; the face hidden under a cluster is looked for on the whole frame at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from controller.vision.detect import (
    _OPEN_K,
    CANON,
    CARD_ASPECT,
    MIN_VISIBLE,
    UNCOVERED_AREA,
    UNCOVERED_MM,
    BackModel,
    DetectedCard,
    _Blob,
    _zone_of,
    face_stats,
    faces_up,
    is_face_up,
)

_W, _H = CANON
_MX, _MY = round(_W * 0.1), round(_H * 0.08)  # just inside the white border every card has
_GX, _GY = np.meshgrid(np.arange(_W, dtype=np.float32), np.arange(_H, dtype=np.float32))
_CANON_GRID = np.stack([_GX.ravel(), _GY.ravel(), np.ones(_W * _H, np.float32)])  # 3×(W·H) pixel centres
_DST = np.float32([[0, 0], [_W, 0], [_W, _H], [0, _H]])


@dataclass(frozen=True, slots=True)
class FaceStats:
    """Per card of a frame: paper fraction, visible fraction, and colour histograms (K×64, or None)."""

    paper: np.ndarray
    visible: np.ndarray
    hist: np.ndarray | None


def face_stats_all(frame: np.ndarray, quads: np.ndarray, group: np.ndarray, hist: bool) -> FaceStats:
    """`detect.face_stats` of each quad (K×4×2 frame pixels) with the other quads of its group (K) as the
    cards lying on it; the colour histograms only when `hist` (a learned back needs them)."""
    k = len(quads)
    homs = np.array([cv2.getPerspectiveTransform(np.asarray(q, np.float32), _DST) for q in quads])
    inv = np.linalg.inv(homs).astype(np.float32)  # canonical pixel → frame pixel, as warpPerspective samples
    src = inv @ _CANON_GRID  # K×3×(W·H)
    w = 1.0 / src[:, 2]  # the cards lie in front of the camera: never 0
    mapx = (src[:, 0] * w).reshape(k * _H, _W)
    mapy = (src[:, 1] * w).reshape(k * _H, _W)
    # Float maps: the same samples as warpPerspective (face_stats) to the last bit, checked in the tests.
    cards = cv2.remap(frame, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)  # (K·H)×W×3
    b, g, r = cards[..., 0], cards[..., 1], cards[..., 2]  # views: no copies (cv2.split costs more)
    minch, maxch = np.minimum(np.minimum(b, g), r), np.maximum(np.maximum(b, g), r)
    flat = minch.reshape(k, -1)
    q = round(0.95 * (flat.shape[1] - 1))
    ref = np.maximum(row_order_stat(flat, q).astype(np.float32), 20.0)  # the card's white
    vis = _visible(quads, group, homs)
    # px.min > 0.72 and px.max - px.min < 0.25, px = colour / ref (as face_stats)
    lo = minch.reshape(k, _H, _W)
    spread = maxch.reshape(k, _H, _W) - lo
    white = ref[:, None, None]
    paper_px = ((lo.astype(np.float32) > 0.72 * white) & (spread < 0.25 * white) & vis).astype(np.uint8)
    # Thin white lines are the borders of other cards under a misplaced quad, not a face: open them away.
    # (Stacked, the opening cannot reach across cards: every card's outer rows are outside `vis`.)
    opened = cv2.morphologyEx(paper_px.reshape(k * _H, _W), cv2.MORPH_OPEN, _OPEN_K).reshape(k, _H, _W)
    n = vis.sum(axis=(1, 2)).astype(np.float32)
    paper = (opened & vis).sum(axis=(1, 2)) / np.maximum(n, 1)
    visible = n / float((_H - 2 * _MY) * (_W - 2 * _MX))
    few = n < 8
    paper[few], visible[few] = 0.0, 0.0
    hists = _hists(cards.reshape(k, _H, _W, 3), ref, vis, n) if hist else None
    if hists is not None:
        hists[few] = 0.0
    return FaceStats(paper=paper.astype(np.float64), visible=visible.astype(np.float64), hist=hists)


def row_order_stat(flat: np.ndarray, q: int) -> np.ndarray:
    """The q-th smallest value (0-based) of each row of a uint8 K×N array, as np.partition(flat, q,
    axis=1)[:, q], from one histogram per row (no sort: a grey level is one of 256)."""
    k = len(flat)
    dtype = np.uint16 if k * 256 <= 1 << 16 else np.intp
    offset = (np.arange(k, dtype=dtype) * 256)[:, None]
    cum = np.bincount((flat + offset).ravel(), minlength=k * 256).reshape(k, 256).cumsum(axis=1)
    return np.asarray((cum <= q).sum(axis=1), np.uint8)


def _visible(quads: np.ndarray, group: np.ndarray, homs: np.ndarray) -> np.ndarray:
    """K×H×W: the interior inside the border margins, less what the other cards of the group cover."""
    k = len(quads)
    vis = np.zeros((k, _H, _W), np.uint8)
    vis[:, _MY:_H - _MY, _MX:_W - _MX] = 1
    ii, oo = np.nonzero((group[:, None] == group[None, :]) & ~np.eye(k, dtype=bool))  # card, card on it
    for i, o in zip(ii.tolist(), oo.tolist(), strict=True):
        # The other card's corners in this card's canonical frame, exactly as face_stats draws them.
        poly = cv2.perspectiveTransform(quads[o].reshape(-1, 1, 2), homs[i])
        cv2.fillPoly(vis[i], [np.round(poly).astype(np.int32)], 0)  # one call each: fillPoly of several
        # overlapping polygons leaves their overlap empty
    return vis


def _hists(cards: np.ndarray, ref: np.ndarray, vis: np.ndarray, n: np.ndarray) -> np.ndarray:
    """K×64 colour histograms of the visible interior: per channel the bin of colour / ref × 4 / 1.1,
    clipped to 0–3 (as face_stats), counted by thresholds instead of divisions."""
    k = len(cards)
    # face_stats bins colour / ref × 4 / 1.1 in float32; the bin of each grey level, per card, is that
    # same arithmetic on 0..255.
    levels = (np.arange(256, dtype=np.float32)[None, :] / ref[:, None]) * 4 / 1.1
    lut = np.clip(levels.astype(int), 0, 3)
    # Each grey level's bin per card is a table look-up (one cv2.LUT per card for its three channels),
    # the bin of a pixel per channel, combined as 16 b + 4 g + r.
    bins = np.empty(cards.shape, np.uint8)
    tables = lut.astype(np.uint8)
    for i in range(k):
        cv2.LUT(cards[i], tables[i], dst=bins[i])
    code = bins[..., 0] * np.uint8(16) + bins[..., 1] * np.uint8(4) + bins[..., 2]
    counts = np.bincount(code[vis > 0].astype(np.intp) + np.repeat(np.arange(k) * 64, n.astype(np.intp)),
                         minlength=k * 64).reshape(k, 64).astype(np.float32)
    return np.asarray(counts / np.maximum(n, 1)[:, None])


_ZONE_CACHE: dict[tuple[int, int, int], tuple[object, np.ndarray, list[str]]] = {}


def zone_labels(zones: Mapping[str, np.ndarray], size: tuple[int, int]) -> tuple[np.ndarray, list[str]]:
    """Label image (frame size, 0 = no zone, i + 1 = i-th zone) in which the first zone holding a point
    wins, as `detect._zone_of`; kept while the zones object is the same."""
    key = (id(zones), *size)
    hit = _ZONE_CACHE.get(key)
    if hit is not None and hit[0] is zones:
        return hit[1], hit[2]
    names = list(zones)
    img = np.zeros((size[1], size[0]), np.uint8)
    for i in range(len(names) - 1, -1, -1):  # earlier zones drawn last: they win where zones overlap
        cv2.fillPoly(img, [np.round(np.asarray(zones[names[i]], np.float32) * 16).astype(np.int32)], i + 1,
                     shift=4)
    if len(_ZONE_CACHE) > 8:
        _ZONE_CACHE.clear()
    _ZONE_CACHE[key] = (zones, img, names)
    return img, names


def zones_of(quads: np.ndarray, zones: Mapping[str, np.ndarray], size: tuple[int, int]) -> list[str | None]:
    """The zone of each card: the zone holding its centre (to the nearest pixel); failing that, or for a
    centre outside the frame, `detect._zone_of` (the zone covering ≥ 30 % of it)."""
    if not zones or not len(quads):
        return [None] * len(quads)
    img, names = zone_labels(zones, size)
    c = quads.mean(axis=1)
    xi, yi = np.round(c[:, 0]).astype(int), np.round(c[:, 1]).astype(int)
    inside = (xi >= 0) & (yi >= 0) & (xi < size[0]) & (yi < size[1])
    lab = np.where(inside, img[np.clip(yi, 0, size[1] - 1), np.clip(xi, 0, size[0] - 1)], 0)
    return [names[v - 1] if v else _zone_of(q, zones) for v, q in zip(lab.tolist(), quads, strict=True)]


def hidden_faces(paper: np.ndarray, origin: tuple[int, int], mask: np.ndarray, blobs: list[_Blob],
                 downs: list[list[np.ndarray]], ups: list[list[np.ndarray]], scale: float,
                 long: float) -> list[np.ndarray | None]:
    """Per cluster with a face-down card, a face-up card all but hidden under its cards: a band of paper
    wider than any card border outside every card found, the cards grown by 3 mm (the covers, cuts and
    openings done once for the region, not per cluster). `paper` is the paper-white image of a region of the
    work frame starting at `origin`; quads and the result are frame pixels."""
    short = long * scale / CARD_ASPECT
    mm = short / 63.0
    x0, y0 = origin
    h, w = paper.shape
    cover = np.zeros((h, w), np.uint8)
    polys = [np.round((q * scale - [x0, y0]) * 16).astype(np.int32) for d, u in zip(downs, ups, strict=True)
             for q in d + u]
    for poly in polys:  # one call each: fillPoly of overlapping polygons leaves their overlap empty
        cv2.fillPoly(cover, [poly], 1, shift=4)
    cover = cv2.dilate(cover, np.ones((max(3, round(3 * mm)),) * 2, np.uint8))
    residual = (paper & (mask[y0:y0 + h, x0:x0 + w] > 0) & (cover == 0)).astype(np.uint8)
    k = max(3, round(UNCOVERED_MM * mm))
    residual = cv2.morphologyEx(residual, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    out: list[np.ndarray | None] = []
    for blob, d in zip(blobs, downs, strict=True):
        (ox, oy), (bh, bw) = blob.origin, blob.filled.shape
        if not d:
            out.append(None)
            continue
        xa, ya = max(ox, x0), max(oy, y0)
        roi = residual[ya - y0:oy + bh - y0, xa - x0:ox + bw - x0]
        part = roi & blob.filled[ya - oy:ya - oy + roi.shape[0], xa - ox:xa - ox + roi.shape[1]]
        if part.sum() < UNCOVERED_AREA * short * short * CARD_ASPECT:
            out.append(None)
            continue
        pts = (np.argwhere(part > 0)[:, ::-1] + [xa, ya]).astype(np.float32)
        out.append(np.asarray(cv2.boxPoints(cv2.minAreaRect(pts)), np.float32) / scale)
    return out


def cluster_cards(frame: np.ndarray, groups: list[list[np.ndarray]], back: BackModel | None,
                  zones: Mapping[str, np.ndarray]) -> list[list[DetectedCard]]:
    """Face and zone of each card of each cluster (frame pixels), without codes and hidden faces: a card
    showing less than MIN_VISIBLE is dropped; when every card of a cluster does, the most visible one is
    judged alone."""
    quads = [q for g in groups for q in g]
    if not quads:
        return [[] for _ in groups]
    group = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    arr = np.asarray(quads, np.float32)
    stats = face_stats_all(frame, arr, group, back is not None)
    up = faces_up(stats.paper, stats.hist if stats.hist is not None else np.zeros((len(arr), 64), np.float32),
                  back).tolist()
    size = (frame.shape[1], frame.shape[0])
    names = zones_of(arr, zones, size)
    out: list[list[DetectedCard]] = []
    start = 0
    for g in groups:
        idx = range(start, start + len(g))
        start += len(g)
        cards = [DetectedCard(polygon=quads[i], face_up=up[i], paper=float(stats.paper[i]), zone=names[i])
                 for i in idx if stats.visible[i] >= MIN_VISIBLE]
        if g and not cards:
            # Proposals covering each other entirely: there is still a card; judge the best one alone.
            best = max(idx, key=lambda i: float(stats.visible[i]))
            paper, hist, _ = face_stats(frame, arr[best], [])
            cards = [DetectedCard(polygon=quads[best], face_up=is_face_up(paper, hist, back), paper=paper,
                                  zone=names[best])]
        out.append(cards)
    return out

