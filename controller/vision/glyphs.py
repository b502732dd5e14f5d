"""Rank and suit from a card's corner index: glyph extraction, templates learned from the table's deck."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

K = 4.0  # px per mm of the canonical card the index is read from
CARD_MM = (63.0, 88.0)
# Where to look for the index, in card mm from the corner (generous: decks differ).
ROI_MM = (1.0, 1.5, 18.0, 36.0)
GLYPH = (20, 28)  # normalised glyph bitmap (w, h)
MIN_SCORE = 0.55
MIN_LONG_PX = 90.0  # card long side below which indices are too small to read (about 1 px/mm)
COVER_MAX = 0.45  # more of the index area hidden than this by a card on top: no read


def quantile(a: np.ndarray, q: float) -> float:
    """A fast order statistic (np.percentile sorts far more than one value needs)."""
    flat = np.asarray(a).ravel()
    k = min(len(flat) - 1, max(0, round(q * (len(flat) - 1))))
    return float(np.partition(flat, k)[k])


@dataclass(frozen=True, slots=True)
class GlyphSet:
    """Averaged glyph bitmaps (float 0..1, GLYPH sized) per rank letter and per suit letter."""

    ranks: Mapping[str, np.ndarray]
    suits: Mapping[str, np.ndarray]

    def to_toml_tables(self) -> dict[str, dict[str, str]]:
        enc = {k: base64.b64encode((np.clip(v, 0, 1) * 255).astype(np.uint8).tobytes()).decode()
               for k, v in self.ranks.items()}
        senc = {k: base64.b64encode((np.clip(v, 0, 1) * 255).astype(np.uint8).tobytes()).decode()
                for k, v in self.suits.items()}
        return {"rank": enc, "suit": senc}

    @classmethod
    def from_toml_tables(cls, data: Mapping[str, Mapping[str, str]]) -> GlyphSet:
        def dec(s: str) -> np.ndarray:
            raw = np.frombuffer(base64.b64decode(s), np.uint8)
            if raw.size != GLYPH[0] * GLYPH[1]:
                raise ValueError(f"glyph has {raw.size} bytes, expected {GLYPH[0] * GLYPH[1]}")
            return raw.reshape(GLYPH[1], GLYPH[0]).astype(np.float32) / 255.0

        unknown = sorted(str(k) for k in data if k not in ("rank", "suit"))
        if unknown:  # unknown keys are fatal in every config section
            raise ValueError(f"glyphs.{unknown[0]}: unknown key (expected rank and suit)")
        return cls(ranks={k: dec(v) for k, v in data.get("rank", {}).items()},
                   suits={k: dec(v) for k, v in data.get("suit", {}).items()})


@dataclass(frozen=True, slots=True)
class IndexGlyphs:
    rank: np.ndarray
    suit: np.ndarray
    red: bool


def _roi_h(quad: np.ndarray, corner: int) -> tuple[np.ndarray, tuple[int, int]]:
    """Homography from the frame to the index area of corner 0 (top-left) or 2 (bottom-right)."""
    q = np.roll(np.asarray(quad, np.float32), -corner, axis=0)
    w, h = CARD_MM[0] * K, CARD_MM[1] * K
    hom = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    x0, y0, x1, y1 = (v * K for v in ROI_MM)
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    return shift @ hom, (round(x1 - x0), round(y1 - y0))


def extract(frame: np.ndarray, quad: np.ndarray, corner: int,
            others: Iterable[np.ndarray] = ()) -> IndexGlyphs | None:
    """The rank and suit glyphs of one corner index, or None when covered or unreadable."""
    hom, size = _roi_h(quad, corner)
    cover = np.zeros((size[1], size[0]), np.uint8)
    for o in others:
        pts = cv2.perspectiveTransform(np.asarray(o, np.float32).reshape(-1, 1, 2), hom)
        cv2.fillPoly(cover, [np.round(pts).astype(np.int32)], 1)
    if cover.mean() > COVER_MAX:
        return None
    roi = cv2.warpPerspective(frame, hom, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    minch = roi.min(axis=2)
    ref = max(quantile(minch, 0.90), 20.0)
    ink = ((minch < 0.62 * ref) & (cover == 0)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    min_area = 0.004 * size[0] * size[1]
    comps = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area < min_area or x == 0 or y == 0 or x + w >= size[0] or y + h >= size[1]:
            continue  # specks, and felt showing past a slightly misplaced card edge
        comps.append((i, x, y, w, h, area))
    if len(comps) < 2:
        return None
    comps.sort(key=lambda c: c[2])
    top = comps[0]
    rank_ids = [c for c in comps if c[2] < top[2] + top[4] and c[2] + c[4] > top[2] and c[5] > 0.2 * top[5]]
    bottom = max(c[2] + c[4] for c in rank_ids)
    below = [c for c in comps if c[2] >= bottom - 1 and c not in rank_ids]
    if not below:
        return None
    suit_c = max(below, key=lambda c: c[5])
    # Soft ink (not the binary mask) keeps the shape detail a 10-pixel glyph still has.
    soft = np.clip((ref - minch) / (0.7 * ref), 0, 1) * (cover == 0)
    rank = _bitmap(labels, [c[0] for c in rank_ids], soft)
    suit = _bitmap(labels, [suit_c[0]], soft)
    pix = roi[np.isin(labels, [c[0] for c in rank_ids] + [suit_c[0]])]
    redness = float(np.mean(pix[:, 2] - np.maximum(pix[:, 0], pix[:, 1]))) / ref
    return IndexGlyphs(rank=rank, suit=suit, red=redness > 0.15)


def _bitmap(labels: np.ndarray, ids: list[int], soft: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(np.isin(labels, ids))
    y0, y1 = max(ys.min() - 1, 0), ys.max() + 2
    x0, x1 = max(xs.min() - 1, 0), xs.max() + 2
    return cv2.resize(soft[y0:y1, x0:x1].astype(np.float32), GLYPH, interpolation=cv2.INTER_AREA)


def _score(a: np.ndarray, b: np.ndarray) -> float:
    a0, b0 = a - a.mean(), b - b.mean()
    den = float(np.sqrt((a0 * a0).sum() * (b0 * b0).sum()))
    return float((a0 * b0).sum()) / den if den > 1e-6 else 0.0


def _best(g: np.ndarray, table: Mapping[str, np.ndarray], allowed: str) -> tuple[str, float]:
    scored = [(k, _score(g, t)) for k, t in table.items() if k in allowed]
    return max(scored, key=lambda kv: kv[1]) if scored else ("?", 0.0)


def read_index(frame: np.ndarray, quad: np.ndarray, others: list[np.ndarray],
               glyphs: GlyphSet | None) -> str | None:
    """The card code from the better visible corner index, or None when no match is confident."""
    if glyphs is None or not glyphs.ranks or not glyphs.suits:
        return None
    q = np.asarray(quad, np.float32)
    if max(np.hypot(*(q[3] - q[0])), np.hypot(*(q[2] - q[1]))) < MIN_LONG_PX:
        return None  # the index is a few pixels tall: a guess would be a misread, so no code at all
    seen = [g for g in (extract(frame, quad, corner, others) for corner in (0, 2)) if g is not None]
    if not seen:
        return None
    # Both corners vote: scores are averaged over the visible indices before the best class is taken,
    # so one blurred corner does not decide between look-alike glyphs (spade and club).
    red = sum(g.red for g in seen) * 2 > len(seen)
    rank, rs = _vote([g.rank for g in seen], glyphs.ranks, "23456789TJQKA")
    suit, ss = _vote([g.suit for g in seen], glyphs.suits, "hd" if red else "cs")
    return rank + suit if min(rs, ss) >= MIN_SCORE else None


def _vote(samples: list[np.ndarray], table: Mapping[str, np.ndarray], allowed: str) -> tuple[str, float]:
    keys = [k for k in table if k in allowed]
    if not keys:
        return "?", 0.0
    scores = np.mean([[_score(g, table[k]) for k in keys] for g in samples], axis=0)
    i = int(np.argmax(scores))
    return keys[i], float(scores[i])


def learn(samples: Iterable[tuple[np.ndarray, np.ndarray, str]]) -> GlyphSet:
    """Average the glyphs of labelled face-up cards: (frame, quad, code) with the code like 'Ah'."""
    ranks: dict[str, list[np.ndarray]] = {}
    suits: dict[str, list[np.ndarray]] = {}
    for frame, quad, code in samples:
        for corner in (0, 2):
            g = extract(frame, quad, corner)
            if g is not None:
                ranks.setdefault(code[0], []).append(g.rank)
                suits.setdefault(code[1], []).append(g.suit)
    return GlyphSet(ranks={k: np.mean(v, axis=0) for k, v in ranks.items()},
                    suits={k: np.mean(v, axis=0) for k, v in suits.items()})
