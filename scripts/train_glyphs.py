#!/usr/bin/env python3
"""Train the HOG fallback of the corner reader (controller/vision/hog.py) from rendered glyphs; reproducible.

Every sample is an index area drawn from scratch: a rank in a TrueType font (DejaVu and Liberation, bold,
regular and condensed: their heavy serif and sans figures look like real card indices) or one of OpenCV's
Hershey fonts, squeezed or widened, the suit under it (the project's drawn shapes or, half the time, a
TrueType font's suit symbol), light paper with red/black print or
a dark deck with gold/silver print, then photo-like damage: rotation, shear, scale, a low camera resolution
(down- and up-sampled), blur, noise, uneven light, JPEG. One sample in NONE_SHARE is no index at all (the
other two corners of a rendered face: pips, a court's frame and picture; loose pips; a back's pattern),
labelled "none" for the rank head only, so a reader that tries every corner can tell an index from print
that is not one. The
same `extract` that reads real cards cuts the glyphs, so training sees what detection sees.

Needs opencv + numpy, and Pillow for the TrueType fonts (the `train` extra: pip install -e '.[train]');
without Pillow or the fonts it falls back to the Hershey fonts alone (and says so).

    PYTHONPATH=. python scripts/train_glyphs.py [--samples 32000] [--seed 1] [--jobs 2] [--hidden 0]
        [--cache FEATURES.npz] [--out PATH]

The committed model: --samples 32000 --seed 1 --jobs 2 (each job draws from its own seed, so the same
jobs count gives the same model).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import index_data  # the TrueType masks and the blending the CNN's data uses too

from controller.vision.hog import (
    MODEL_PATH,
    PX_MM,
    RANKS,
    ROI_MM,
    SUITS,
    IndexModel,
    extract,
)
from controller.vision.render import BACK_PATTERNS, BackDesign, back_texture, draw_suit, face_texture

NONE_SHARE = 0.12
HIDDEN = 0  # hidden units of the heads (0: linear softmax; 128 measured no better on real photos)
TTF_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"))
TTF_NAMES = ("DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansCondensed-Bold.ttf",
             "DejaVuSerifCondensed-Bold.ttf", "DejaVuSans.ttf", "DejaVuSerif.ttf",
             "LiberationSans-Bold.ttf", "LiberationSerif-Bold.ttf", "LiberationSansNarrow-Bold.ttf",
             "LiberationSans-Regular.ttf", "LiberationSerif-Regular.ttf",
             # Narrow, condensed and monospaced figures: card decks print tall, narrow indices.
             "DejaVuSansCondensed.ttf", "DejaVuSerifCondensed.ttf", "DejaVuSansMono-Bold.ttf",
             "LiberationMono-Bold.ttf", "LiberationSansNarrow-Regular.ttf")


@functools.lru_cache(maxsize=1)
def ttf_fonts() -> list[Path]:
    """The TrueType fonts found on this machine (Pillow needed to draw them)."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        return []
    return [d / n for d in TTF_DIRS for n in TTF_NAMES if (d / n).exists()]


def _ttf_mask(text: str, font: Path, height: float, width: float) -> np.ndarray:
    """The text drawn white on black by Pillow at 96 px, cropped to its ink, scaled to height × width px."""
    a = index_data.ttf_mask(text, font, 96)
    return cv2.resize(a, (max(2, round(width)), max(2, round(height))), interpolation=cv2.INTER_AREA)


FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)
HI = 12.0  # px per mm the index is drawn at before the camera's resolution is simulated


def _colours(rng: np.random.Generator, suit: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(paper, ink) BGR: mostly white decks; a quarter dark decks with light print."""
    red = suit in "hd"
    if rng.random() < 0.25:
        paper = tuple(int(v) for v in rng.integers(5, 60, 3))
        gold = (40, 150, 200) if red else (190, 190, 190)
        ink = tuple(int(np.clip(v + rng.integers(-30, 30), 0, 255)) for v in gold)
    else:
        base = int(rng.integers(170, 256))
        paper = tuple(int(np.clip(base + rng.integers(-15, 15), 0, 255)) for _ in range(3))
        ink = (int(rng.integers(20, 70)), int(rng.integers(20, 60)), int(rng.integers(150, 230))) if red \
            else tuple(int(v) for v in rng.integers(10, 60, 3))
    return paper, ink  # type: ignore[return-value]


def draw_index(rng: np.random.Generator, rank: str, suit: str, fonts: list[Path]) -> np.ndarray:
    """One index area at HI px/mm (ROI_MM size), rank above suit."""
    x0, y0, x1, y1 = ROI_MM
    w, h = round((x1 - x0) * HI), round((y1 - y0) * HI)
    paper, ink = _colours(rng, suit)
    img = np.full((h, w, 3), paper, np.uint8)
    text = "10" if rank == "T" else rank
    if fonts and rng.random() < 0.7:
        return _ttf_index(rng, img, text, suit, fonts[int(rng.integers(len(fonts)))], ink)
    font = int(rng.choice(FONTS)) | (cv2.FONT_ITALIC if rng.random() < 0.1 else 0)
    thick = int(rng.integers(1, 4)) * round(HI / 6)
    rank_h = rng.uniform(5.5, 10.5) * HI
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = min(rank_h / th, rng.uniform(8.5, 12.0) * HI / tw)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cx = rng.uniform(5.0, 8.5) * HI
    top = rng.uniform(1.5, 5.0) * HI
    cv2.putText(img, text, (round(cx - tw / 2), round(top + th)), font, scale, ink, thick, cv2.LINE_AA)
    size = rng.uniform(4.0, 8.0) * HI
    sy = top + th + rng.uniform(0.6, 2.5) * HI + size / 2
    draw_any_suit(rng, img, suit, cx + rng.uniform(-1, 1) * HI, sy, size, ink)
    if rng.random() < 0.3:  # the top of a pip or a court's frame further down the card
        pip = rng.uniform(8, 12) * HI
        draw_suit(img, suit, w + rng.uniform(0, 4) * HI, h - rng.uniform(0, 3) * HI, pip, ink)
    return img


SUIT_CHARS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
TTF_SUIT_SHARE = 0.5


def draw_any_suit(rng: np.random.Generator, img: np.ndarray, suit: str, cx: float, cy: float, size: float,
                  ink: tuple[int, int, int]) -> None:
    """The suit under the rank: half the time the project's drawn shape, half a TrueType font's suit
    symbol (DejaVu and Liberation have all four, with the thin stems and pointed tops decks print)."""
    fonts = ttf_fonts()
    if not fonts or rng.random() >= TTF_SUIT_SHARE:
        draw_suit(img, suit, cx, cy, size, ink)
        return
    font = fonts[int(rng.integers(len(fonts)))]
    mask = _ttf_mask(SUIT_CHARS[suit], font, size, size * rng.uniform(0.75, 1.05))
    index_data.stamp(img, mask, round(cx - mask.shape[1] / 2), round(cy - size / 2), np.float32(ink))


def _ttf_index(rng: np.random.Generator, img: np.ndarray, text: str, suit: str, font: Path,
               ink: tuple[int, int, int]) -> np.ndarray:
    """A TrueType rank (squeezed or widened, as decks print them) with the suit under it."""
    h, w = img.shape[:2]
    rank_h = rng.uniform(5.0, 10.0) * HI
    aspect = {"10": 1.15, "Q": 0.8, "K": 0.75, "J": 0.55}.get(text, 0.65) * rng.uniform(0.7, 1.25)
    mask = _ttf_mask(text, font, rank_h, min(rank_h * aspect, 11.5 * HI))
    # Decks print thinner or heavier strokes than any one font: thin or thicken them.
    k = round(rank_h * rng.uniform(0.0, 0.07))
    if k >= 2:
        op = cv2.erode if rng.random() < 0.6 else cv2.dilate
        mask = op(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    cx = rng.uniform(4.5, 8.0) * HI
    top = rng.uniform(1.0, 4.5) * HI
    index_data.stamp(img, mask, round(cx - mask.shape[1] / 2), round(top), np.float32(ink))
    size = rng.uniform(3.8, 7.5) * HI
    sy = top + rank_h + rng.uniform(0.4, 2.2) * HI + size / 2
    draw_any_suit(rng, img, suit, cx + rng.uniform(-1, 1) * HI, sy, size, ink)
    if rng.random() < 0.3:  # the top of a pip or a court's frame further down the card
        draw_suit(img, suit, w + rng.uniform(0, 4) * HI, h - rng.uniform(0, 3) * HI, rng.uniform(8, 12) * HI,
                  ink)
    return img


def draw_none(rng: np.random.Generator) -> np.ndarray:
    """An area the size of an index that holds no index: a face's other corners, loose pips, a back."""
    x0, y0, x1, y1 = ROI_MM
    w, h = round((x1 - x0) * HI), round((y1 - y0) * HI)
    kind = rng.random()
    if kind < 0.6:  # the corners of a face without an index (TR, BL), read at the index's place
        code = RANKS[int(rng.integers(len(RANKS)))] + SUITS[int(rng.integers(len(SUITS)))]
        tex = face_texture(code, HI)[0]
        tex = tex[:, ::-1] if rng.random() < 0.5 else tex[::-1]  # top-right or bottom-left, seen as top-left
        off = rng.uniform(-1.5, 1.5, 2) * HI
        m = np.float32([[1, 0, -(x0 * HI + off[0])], [0, 1, -(y0 * HI + off[1])]])
        return cv2.warpAffine(np.ascontiguousarray(tex), m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    if kind < 0.85:  # loose pips of a card's middle
        paper, ink = _colours(rng, "s" if rng.random() < 0.5 else "h")
        img = np.full((h, w, 3), paper, np.uint8)
        for _ in range(int(rng.integers(1, 4))):
            draw_suit(img, SUITS[int(rng.integers(4))], rng.uniform(0, w), rng.uniform(0, h),
                      rng.uniform(6, 12) * HI, ink)
        return img
    design = BackDesign(colour=str(rng.choice(["red", "blue", "black", "green"])),
                        pattern=str(rng.choice(BACK_PATTERNS)))
    tex = back_texture(design, HI)[0]
    ys, xs = int(rng.integers(0, tex.shape[0] - h)), int(rng.integers(0, tex.shape[1] - w))
    return np.ascontiguousarray(tex[ys:ys + h, xs:xs + w])


def damage(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Photo-like damage, returned at PX_MM (what index_roi delivers)."""
    h, w = img.shape[:2]
    ang = rng.uniform(-6, 6)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), ang, rng.uniform(0.92, 1.08))
    m[0, 1] += rng.uniform(-0.08, 0.08)
    # Photos stretched along one axis (resized to a square by a data set's export, or a card's warp from
    # a slightly wrong quad) make the index narrower or wider than printed.
    m[0, :2] *= rng.uniform(0.8, 1.25)
    m[:, 2] += rng.uniform(-1.2, 1.2, 2) * HI
    paper = tuple(int(v) for v in np.median(img.reshape(-1, 3), axis=0))
    img = cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_CONSTANT, borderValue=paper)
    cam = rng.uniform(1.0, PX_MM)  # the camera's resolution on the card, px per mm
    small = cv2.resize(img, (max(4, round(w * cam / HI)), max(4, round(h * cam / HI))),
                       interpolation=cv2.INTER_AREA)
    out = cv2.resize(small, (round(w * PX_MM / HI), round(h * PX_MM / HI)), interpolation=cv2.INTER_LINEAR)
    out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.6))
    f = out.astype(np.float32)
    ramp = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.9, 1.2), out.shape[1], dtype=np.float32)
    f *= ramp[None, :, None] * rng.uniform(0.9, 1.1, 3)[None, None, :].astype(np.float32)
    f += rng.normal(0, rng.uniform(1, 8), f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else out


def dataset(n: int, seed: int, fonts: list[Path], jobs: int = 1
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features of rank and suit glyphs and their labels for `n` drawn areas (unreadable ones skipped);
    label len(RANKS) / len(SUITS) is "none" (no index there). `jobs` processes draw disjoint slices, each
    from its own seed, so a run is reproducible for a given jobs count."""
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        parts = [(n // jobs + (j < n % jobs), seed * 100 + j, fonts) for j in range(jobs)]
        with ProcessPoolExecutor(jobs) as ex:
            got = list(ex.map(_dataset_part, parts))
        return (np.concatenate([g[0] for g in got]), np.concatenate([g[1] for g in got]),
                np.concatenate([g[2] for g in got], axis=1))
    return _dataset_part((n, seed, fonts))


def _dataset_part(args: tuple[int, int, list[Path]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n, seed, fonts = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    xr, xs, yr, ys = [], [], [], []
    for i in range(n):
        if rng.random() < NONE_SHARE:
            area, ri, si = draw_none(rng), len(RANKS), len(SUITS)
        else:
            rank, suit = RANKS[i % len(RANKS)], SUITS[(i // len(RANKS)) % len(SUITS)]
            area, ri, si = draw_index(rng, rank, suit, fonts), RANKS.index(rank), SUITS.index(suit)
        g = extract(damage(rng, area))
        if g is None:
            continue
        rx, sx = g.heads_x()  # the glyph's features, then the whole index's
        xr.append(rx)
        xs.append(sx)
        yr.append(ri)
        ys.append(si)
    return np.array(xr), np.array(xs), np.array([yr, ys])


def softmax_fit(x: np.ndarray, y: np.ndarray, classes: int, seed: int, epochs: int = 40,
                l2: float = 1e-3) -> np.ndarray:
    """Multinomial logistic regression by mini-batch gradient descent with momentum; weights + bias row."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    w = np.zeros((d + 1, classes), np.float32)
    v = np.zeros_like(w)
    xb = np.hstack([x, np.ones((n, 1), np.float32)])
    onehot = np.eye(classes, dtype=np.float32)[y]
    lr = 0.05
    for _ in range(epochs):
        for idx in np.array_split(rng.permutation(n), max(1, n // 256)):
            z = xb[idx] @ w
            p = np.exp(z - z.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            grad = xb[idx].T @ (p - onehot[idx]) / len(idx) + l2 * w
            v = 0.9 * v - lr * grad
            w += v
        lr *= 0.93
    return w


def mlp_fit(x: np.ndarray, y: np.ndarray, classes: int, hidden: int, seed: int, epochs: int = 30,
            l2: float = 3e-4) -> tuple[np.ndarray, np.ndarray]:
    """One hidden ReLU layer and a softmax, mini-batch gradient descent with momentum; each layer's
    weights with a bias row (hidden, output)."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    h = (rng.standard_normal((d + 1, hidden)) * np.sqrt(2.0 / d)).astype(np.float32)
    h[-1] = 0.0
    w = np.zeros((hidden + 1, classes), np.float32)
    vh, vw = np.zeros_like(h), np.zeros_like(w)
    onehot = np.eye(classes, dtype=np.float32)[y]
    lr = 0.02
    for _ in range(epochs):
        for idx in np.array_split(rng.permutation(n), max(1, n // 128)):
            xb = x[idx]
            a = np.maximum(xb @ h[:-1] + h[-1], 0.0)
            z = a @ w[:-1] + w[-1]
            p = np.exp(z - z.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            dz = (p - onehot[idx]) / len(idx)
            gw = np.vstack([a.T @ dz, dz.sum(axis=0, keepdims=True)]) + l2 * w
            da = (dz @ w[:-1].T) * (a > 0)
            gh = np.vstack([xb.T @ da, da.sum(axis=0, keepdims=True)]) + l2 * h
            vw = 0.9 * vw - lr * gw
            vh = 0.9 * vh - lr * gh
            w += vw
            h += vh
        lr *= 0.92
    return h, w


def predict(x: np.ndarray, w: np.ndarray, hidden: np.ndarray | None = None) -> np.ndarray:
    if hidden is not None:
        x = np.maximum(x @ hidden[:-1] + hidden[-1], 0.0)
    return np.asarray((x @ w[:-1] + w[-1]).argmax(axis=1))


def accuracy(x: np.ndarray, y: np.ndarray, w: np.ndarray, hidden: np.ndarray | None = None) -> float:
    return float((predict(x, w, hidden) == y).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=32000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--hidden", type=int, default=HIDDEN, help="hidden ReLU units (0: linear softmax)")
    ap.add_argument("--jobs", type=int, default=1, help="processes drawing samples")
    ap.add_argument("--cache", type=Path, help="features file: written after drawing, read if it exists")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    t0 = time.perf_counter()
    fonts = ttf_fonts()
    print(f"{len(fonts)} TrueType fonts" if fonts else "no Pillow or no TrueType fonts: Hershey fonts only")
    if args.cache and args.cache.exists():
        with np.load(args.cache) as c:
            xr, xs, y, vr, vs, vy = (c[k] for k in ("xr", "xs", "y", "vr", "vs", "vy"))
    else:
        xr, xs, y = dataset(args.samples, args.seed, fonts, args.jobs)
        # held-out draws, never trained on
        vr, vs, vy = dataset(args.samples // 5, args.seed + 1000, fonts, args.jobs)
        if args.cache:
            np.savez_compressed(args.cache, xr=xr, xs=xs, y=y, vr=vr, vs=vs, vy=vy)
    mean = np.concatenate([xr, xs]).mean(axis=0)
    scale = np.concatenate([xr, xs]).std(axis=0) + 1e-3
    norm = [(a - mean) / scale for a in (xr, xs, vr, vs)]
    # Only the rank decides "no index here": a loose pip in the suit's place is a perfect suit, and a suit
    # head that learned "none" from such areas rejected real suits. The suit head sees real indices only.
    idx = y[1] < len(SUITS)
    rank_h = suit_h = None
    if args.hidden:
        rank_h, rank_w = mlp_fit(norm[0], y[0], len(RANKS) + 1, args.hidden, args.seed)
        suit_h, suit_w = mlp_fit(norm[1][idx], y[1][idx], len(SUITS), args.hidden, args.seed)
    else:
        rank_w = softmax_fit(norm[0], y[0], len(RANKS) + 1, args.seed)
        suit_w = softmax_fit(norm[1][idx], y[1][idx], len(SUITS), args.seed)
    model = IndexModel(rank_w=rank_w, suit_w=suit_w, mean=mean.astype(np.float32),
                       scale=scale.astype(np.float32), rank_h=rank_h, suit_h=suit_h)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    print(f"{len(xr)} training / {len(vr)} held-out glyph pairs "
          f"(of {args.samples} + {args.samples // 5} drawn), "
          f"{time.perf_counter() - t0:.0f} s")
    vi = vy[1] < len(SUITS)
    print(f"held-out accuracy: rank {accuracy(norm[2], vy[0], rank_w, rank_h):.3f} (none included), "
          f"suit {accuracy(norm[3][vi], vy[1][vi], suit_w, suit_h):.3f}")
    print(f"{args.out}: {args.out.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
