"""Rendered card corners with photo-like damage: the training data of the corner-index CNN.

Each sample is drawn from scratch in card millimetres at HI px/mm: the table beyond the card's rounded
corner, the paper, the index (rank over suit) in one of many styles, and what lies further in (pips, a
court's frame and picture, an ace's big pip). Then a camera sees it: anti-aliased down to 0.9-5 px/mm,
rotated and stretched (stretched photos), blurred, lit unevenly (white balance, gain, glare, shadow),
noisy, JPEG-compressed; and the area is cut from that image with `corner_crop` through a quad a few
millimetres off the card's true outline, exactly as detection cuts it. One sample in NONE_SHARE holds no
index to read ("none"): a face's other corners, an index seen sideways (the wrong corner pair), a back,
the table, a card's middle.

Rank styles: TrueType and OpenType fonts (TTF_DIRS: sans, serif, condensed, mono, geometric, bold,
italic), OpenCV's Hershey fonts and stroke glyphs drawn here (flat-topped 3s, open and closed 4s, narrow
"10"s, ...), strokes thinned or thickened. Suit styles: the project's drawn shapes, TrueType suit
symbols, shapes drawn here with varied proportions. Some indexed corners are partly covered (another
card's edge, a dark object); the camera sees some in slight perspective, dim light or motion blur.
Needs Pillow for the fonts (the `train` extra). real_samples adds labelled real corners (half A of
vision-dev only).
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from controller.core.cards import RANKS, SUITS
from controller.vision.index import CARD_MM, INPUT, NONE, corner_crop
from controller.vision.render import BACK_PATTERNS, BackDesign, back_texture, draw_suit

HI = 6.0  # px per mm the corner is drawn at
CANVAS_MM = (-6.0, -6.0, 25.0, 45.0)  # the drawn part of the card and table, card mm
NONE_SHARE = 0.16
OCCLUDE_SHARE = 0.12  # indexed corners partly covered by another card or an object
# Font folders searched (recursively, .ttf and .otf). DejaVu and Liberation come with most systems; the
# others are Debian packages installed for training only (never shipped): fonts-freefont-ttf (GPL-3+ with
# the font exception), fonts-urw-base35 (AGPL-3 with the font exception: Nimbus Sans/Roman/Mono, URW
# Gothic, Bookman, C059, P052), fonts-roboto-unhinted and fonts-open-sans (Apache-2.0). A missing folder
# is skipped (fewer styles, a different draw).
TTF_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"),
            Path("/usr/share/fonts/truetype/freefont"), Path("/usr/share/fonts/opentype/urw-base35"),
            Path("/usr/share/fonts/truetype/roboto/unhinted"), Path("/usr/share/fonts/truetype/open-sans"))
# Symbol, script and hairline faces: no deck prints its index in them.
FONT_SKIP = ("ExtraLight", "MathTeX", "D050000L", "StandardSymbols", "Z003", "Thin", "Light")
SUIT_CHARS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
           cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)


@functools.lru_cache(maxsize=1)
def ttf_fonts() -> tuple[Path, ...]:
    """TrueType fonts on this machine with figures a deck might print (Pillow needed to draw them)."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        return ()
    return tuple(sorted(p for d in TTF_DIRS if d.exists() for p in d.rglob("*")
                        if p.suffix in (".ttf", ".otf") and not any(s in p.name for s in FONT_SKIP)))


@functools.lru_cache(maxsize=1)
def suit_fonts() -> tuple[Path, ...]:
    """The fonts of ttf_fonts() that draw all four suit symbols (a font without them draws a box)."""
    if not ttf_fonts():
        return ()  # no Pillow (the test venv) or no TrueType fonts: the Hershey and drawn shapes only
    from PIL import ImageFont

    out = []
    for font in ttf_fonts():
        f = ImageFont.truetype(str(font), 64)
        missing = f.getmask("\uffff").getbbox()
        if all(f.getmask(ch).getbbox() not in (None, missing) for ch in SUIT_CHARS.values()):
            out.append(font)
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def ttf_mask(text: str, font: Path, px: int = 128) -> np.ndarray:
    """`text` drawn white on black by Pillow at `px` px, cropped to its ink (train_glyphs.py too)."""
    from PIL import Image, ImageDraw, ImageFont

    f = ImageFont.truetype(str(font), px)
    box = f.getbbox(text)
    im = Image.new("L", (box[2] - box[0] + 8, box[3] - box[1] + 8), 0)
    ImageDraw.Draw(im).text((4 - box[0], 4 - box[1]), text, fill=255, font=f)
    a = np.asarray(im)
    ys, xs = np.nonzero(a > 20)
    return np.ascontiguousarray(a[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


# Stroke glyphs in a unit box (x right, y down), polylines; variants decks print that fonts here lack.
_STROKES: dict[str, list[list[list[tuple[float, float]]]]] = {
    "3": [[[(0.1, 0.0), (0.9, 0.0), (0.45, 0.4), (0.75, 0.45), (0.95, 0.65), (0.9, 0.88), (0.6, 1.0),
            (0.3, 1.0), (0.05, 0.88)]],  # flat-topped
          [[(0.1, 0.12), (0.4, 0.0), (0.75, 0.02), (0.9, 0.2), (0.8, 0.4), (0.45, 0.48), (0.85, 0.58),
            (0.95, 0.8), (0.7, 1.0), (0.3, 1.0), (0.05, 0.88)]]],
    "4": [[[(0.62, 0.0), (0.0, 0.7), (1.0, 0.7)], [(0.72, 0.3), (0.72, 1.0)]],  # open top
          [[(0.7, 1.0), (0.7, 0.0), (0.0, 0.7), (1.0, 0.7)]]],
    "5": [[[(0.9, 0.0), (0.2, 0.0), (0.1, 0.45), (0.55, 0.38), (0.9, 0.55), (0.95, 0.8), (0.65, 1.0),
            (0.3, 1.0), (0.05, 0.88)]]],
    "7": [[[(0.0, 0.12), (0.0, 0.0), (1.0, 0.0), (0.35, 1.0)]], [[(0.0, 0.0), (1.0, 0.0), (0.45, 1.0)],
                                                                   [(0.3, 0.5), (0.8, 0.5)]]],
    "A": [[[(0.0, 1.0), (0.5, 0.0), (1.0, 1.0)], [(0.22, 0.62), (0.78, 0.62)]]],
    "K": [[[(0.1, 0.0), (0.1, 1.0)], [(0.95, 0.0), (0.1, 0.6)], [(0.35, 0.42), (1.0, 1.0)]]],
    "J": [[[(0.35, 0.0), (0.95, 0.0)], [(0.7, 0.0), (0.7, 0.8), (0.5, 1.0), (0.2, 1.0), (0.0, 0.8)]]],
    "2": [[[(0.05, 0.2), (0.3, 0.0), (0.7, 0.0), (0.92, 0.22), (0.85, 0.45), (0.0, 1.0), (1.0, 1.0)]]],
}


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 9
         ) -> list[tuple[float, float]]:
    """Points of an elliptic arc in the unit box, angles in degrees (0 = right, 90 = down)."""
    a = np.radians(np.linspace(a0, a1, n))
    return [(cx + rx * float(np.cos(t)), cy + ry * float(np.sin(t))) for t in a]


# Flat-topped 3s (a bar, a diagonal to the middle, a round bowl: many casino and plastic decks) and round
# bowls under other tops, open and closed 4s, a 5 with a round bowl, a 2 with a straight neck, a 9 and a
# 6 with a straight tail: the shapes the TrueType fonts here lack.
_STROKES["3"] += [
    [[(0.08, 0.0), (0.9, 0.0), (0.42, 0.4), *_arc(0.5, 0.7, 0.45, 0.3, -100, 150)]],
    [[(0.1, 0.0), (0.85, 0.0), (0.85, 0.05), (0.4, 0.42), *_arc(0.48, 0.71, 0.46, 0.29, -95, 145)]],
    [[(0.05, 0.0), (0.95, 0.0), (0.5, 0.38), *_arc(0.52, 0.69, 0.43, 0.31, -90, 160, 11)]],
]
_STROKES["4"] += [
    [[(0.55, 0.0), (0.0, 0.68), (1.0, 0.68)], [(0.72, 0.35), (0.72, 1.0)], [(0.55, 1.0), (0.9, 1.0)]],
    [[(0.72, 1.0), (0.72, 0.0), (0.66, 0.0), (0.0, 0.72), (1.0, 0.72)]],
]
_STROKES["5"] += [[[(0.9, 0.0), (0.22, 0.0), (0.15, 0.42), *_arc(0.5, 0.68, 0.45, 0.32, -120, 150)]]]
_STROKES["2"] += [[[*_arc(0.5, 0.28, 0.44, 0.28, 190, 360, 7), (0.9, 0.4), (0.05, 1.0), (1.0, 1.0)]]]
_STROKES["9"] = [[_arc(0.5, 0.3, 0.45, 0.3, 0, 360, 17), [(0.95, 0.3), (0.5, 1.0)]],
                 [_arc(0.5, 0.32, 0.45, 0.32, 0, 360, 17),
                  [(0.95, 0.32), (0.95, 0.75), *_arc(0.6, 0.75, 0.35, 0.25, 0, 150)]]]
_STROKES["6"] = [[[(0.5, 0.0), (0.05, 0.7)], _arc(0.5, 0.7, 0.45, 0.3, 0, 360, 17)],
                 [_arc(0.4, 0.25, 0.35, 0.25, -30, -180) + _arc(0.5, 0.5, 0.45, 0.5, 180, 90) +
                  _arc(0.5, 0.7, 0.45, 0.3, 90, -180, 15)]]
# Ranks drawn in stroke form more often: their deck variants differ most from the TrueType shapes.
STROKE_SHARE = {"3": 0.35, "4": 0.3, "6": 0.15, "9": 0.15}


def stroke_mask(text: str, rng: np.random.Generator, height: int) -> np.ndarray | None:
    """A rank drawn from _STROKES (None when it has no stroke form); "10" as a narrow 1 and an oval 0."""
    w = height
    thick = max(1, round(height * rng.uniform(0.08, 0.17)))
    pad = thick + 2
    if text == "10":
        img = np.zeros((height + 2 * pad, round(1.1 * w) + 2 * pad), np.uint8)
        x1 = pad + round(0.15 * w)
        cv2.line(img, (x1, pad), (x1, pad + height), 255, thick, cv2.LINE_AA)
        if rng.random() < 0.5:
            cv2.line(img, (x1, pad), (x1 - round(0.12 * w), pad + round(0.12 * height)), 255, thick)
        centre = (pad + round(0.75 * w), pad + height // 2)
        cv2.ellipse(img, centre, (round(0.26 * w), height // 2), 0, 0, 360,
                    255, thick, cv2.LINE_AA)
        return img
    forms = _STROKES.get(text)
    if not forms:
        return None
    form = forms[int(rng.integers(len(forms)))]
    width = round(w * rng.uniform(0.5, 0.8))
    img = np.zeros((height + 2 * pad, width + 2 * pad), np.uint8)
    for line in form:
        pts = np.array([(pad + x * width, pad + y * height) for x, y in line], np.float32)
        cv2.polylines(img, [np.round(pts * 16).astype(np.int32)], False, 255, thick, cv2.LINE_AA, shift=4)
    return img


def rank_mask(rng: np.random.Generator, rank: str, height: int) -> np.ndarray:
    """The rank glyph as a mask about `height` px tall, in a style drawn at random."""
    text = "10" if rank == "T" else rank
    fonts = ttf_fonts()
    pick = rng.random()
    mask: np.ndarray | None = None
    if pick < STROKE_SHARE.get(text, 0.12):
        mask = stroke_mask(text, rng, height)
    if mask is None and fonts and pick < 0.8:
        m = ttf_mask(text, fonts[int(rng.integers(len(fonts)))])
        aspect = m.shape[1] / m.shape[0] * rng.uniform(0.65, 1.2)
        mask = cv2.resize(m, (max(2, round(height * min(aspect, 1.6))), height), interpolation=cv2.INTER_AREA)
    if mask is None:
        font = int(rng.choice(HERSHEY)) | (cv2.FONT_ITALIC if rng.random() < 0.1 else 0)
        thick = int(rng.integers(2, 6))
        (tw, th), base = cv2.getTextSize(text, font, 2.0, thick)
        img = np.zeros((th + base + 2 * thick + 4, tw + 2 * thick + 4), np.uint8)
        cv2.putText(img, text, (thick + 2, th + thick + 2), font, 2.0, 255, thick, cv2.LINE_AA)
        ys, xs = np.nonzero(img > 20)
        img = img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        aspect = img.shape[1] / img.shape[0] * rng.uniform(0.7, 1.2)
        mask = cv2.resize(img, (max(2, round(height * aspect)), height), interpolation=cv2.INTER_AREA)
    k = round(height * rng.uniform(0.0, 0.08))
    if k >= 2:  # decks print thinner or heavier strokes than any one font
        op = cv2.erode if rng.random() < 0.5 else cv2.dilate
        mask = op(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return mask


def suit_mask(rng: np.random.Generator, suit: str, height: int) -> np.ndarray:
    """The suit symbol as a mask `height` px tall: drawn shapes or a TrueType symbol, varied widths."""
    fonts = suit_fonts()
    width = max(2, round(height * rng.uniform(0.75, 1.1)))
    if fonts and rng.random() < 0.5:
        m = ttf_mask(SUIT_CHARS[suit], fonts[int(rng.integers(len(fonts)))])
        return cv2.resize(m, (width, height), interpolation=cv2.INTER_AREA)
    big = np.zeros((128, 128), np.uint8)
    draw_suit(big, suit, 64, 64, 126, (255,))
    ys, xs = np.nonzero(big > 20)
    big = big[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    return cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)


def stamp(img: np.ndarray, mask: np.ndarray, x: float, y: float, ink: np.ndarray) -> None:
    """Blend `ink` into img through `mask` with its top-left at (x, y) px (train_glyphs.py too)."""
    xi, yi = round(x), round(y)
    h, w = mask.shape
    ih, iw = img.shape[:2]
    x0, y0, x1, y1 = max(xi, 0), max(yi, 0), min(xi + w, iw), min(yi + h, ih)
    if x1 <= x0 or y1 <= y0:
        return
    a = mask[y0 - yi:y1 - yi, x0 - xi:x1 - xi, None].astype(np.float32) / 255.0
    region = img[y0:y1, x0:x1]
    region[:] = region * (1 - a) + ink * a


def _px(x_mm: float, y_mm: float) -> tuple[float, float]:
    return (x_mm - CANVAS_MM[0]) * HI, (y_mm - CANVAS_MM[1]) * HI


def _colours(rng: np.random.Generator, red: bool) -> tuple[np.ndarray, np.ndarray, bool]:
    """(paper, ink, dark deck) BGR floats: white or cream decks mostly, dark decks with gold/silver print."""
    if rng.random() < 0.28:
        paper = rng.uniform(5, 55, 3)
        ink = (np.array([50, 150, 205]) if red else np.array([195, 195, 195])) + rng.uniform(-35, 35, 3)
        if red and rng.random() < 0.3:
            ink = np.array([60, 60, 200]) + rng.uniform(-30, 30, 3)  # red print on a dark deck
        return paper, np.clip(ink, 0, 255), True
    base = rng.uniform(185, 255)
    paper = np.clip(base + rng.uniform(-12, 12, 3) - np.array([rng.uniform(0, 20), 0, 0]), 0, 255)
    if red and rng.random() < 0.2:  # orange-red or crimson print (casino and plastic decks)
        orange = rng.random() < 0.5
        ink = np.array([rng.uniform(0, 60), rng.uniform(40, 130), rng.uniform(170, 255)]) if orange \
            else np.array([rng.uniform(40, 110), rng.uniform(0, 40), rng.uniform(120, 190)])
    elif red:
        ink = np.array([rng.uniform(15, 90), rng.uniform(10, 80), rng.uniform(140, 235)])
    else:
        ink = rng.uniform(5, 70) + rng.uniform(-8, 8, 3)
    return paper, np.clip(ink, 0, 255), False


def _background(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """The table beyond the card: felt, wood, a light desk, dark cloth; drawn at a quarter size (it is
    blurred by the camera anyway) and scaled up."""
    h, w = shape
    sh, sw = max(2, h // 4), max(2, w // 4)
    kind = rng.random()
    if kind < 0.3:
        col = rng.uniform(10, 140, 3)
    elif kind < 0.55:
        col = np.array([rng.uniform(30, 90), rng.uniform(70, 140), rng.uniform(120, 200)])  # wood
    elif kind < 0.8:
        col = rng.uniform(150, 240) + rng.uniform(-10, 10, 3)  # light desk, white cloth
    else:
        col = rng.uniform(5, 40, 3)
    small = rng.normal(0, rng.uniform(3, 25), (max(2, h // 24), max(2, w // 24))).astype(np.float32)
    tex = cv2.resize(small, (sw, sh), interpolation=cv2.INTER_CUBIC)
    if 0.3 <= kind < 0.55:  # wood grain: stripes along a random direction
        ang = rng.uniform(0, np.pi)
        along = np.add.outer(np.arange(sh, dtype=np.float32) * np.sin(ang),
                             np.arange(sw, dtype=np.float32) * np.cos(ang))
        tex = tex + np.sin(along / rng.uniform(0.8, 3)) * rng.uniform(5, 25)
    out = col.astype(np.float32)[None, None, :] + tex[..., None]
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)


def _card_alpha(shape: tuple[int, int], radius_mm: float) -> np.ndarray:
    """1 on the card (x >= 0, y >= 0 mm, rounded corner at the origin), 0 on the table."""
    h, w = shape
    a = np.zeros((h, w), np.uint8)
    ox, oy = _px(0, 0)
    r = radius_mm * HI
    cv2.rectangle(a, (round(ox + r), round(oy)), (w, h), 255, -1)
    cv2.rectangle(a, (round(ox), round(oy + r)), (w, h), 255, -1)
    cv2.circle(a, (round(ox + r), round(oy + r)), round(r), 255, -1, cv2.LINE_AA)
    return (a.astype(np.float32) * np.float32(1 / 255.0))[..., None]


def _index_layer(rng: np.random.Generator, rank: str, suit: str) -> tuple[np.ndarray, float, float]:
    """Mask of one index (rank over suit) and its (width, height) in mm."""
    rank_h = float(rng.choice([rng.uniform(4.0, 7.0), rng.uniform(6.0, 9.5), rng.uniform(8.5, 12.0)]))
    rm = rank_mask(rng, rank, round(rank_h * HI))
    suit_h = float(np.clip(rank_h * rng.uniform(0.5, 0.95), 3.0, 9.5))
    sm = suit_mask(rng, suit, round(suit_h * HI))
    gap = rng.uniform(0.15, 2.2) * HI
    w = max(rm.shape[1], sm.shape[1]) + round(2 * HI)
    h = rm.shape[0] + round(gap) + sm.shape[0]
    layer = np.zeros((h, w), np.uint8)
    rx = (w - rm.shape[1]) // 2
    layer[:rm.shape[0], rx:rx + rm.shape[1]] = rm
    sx = int(np.clip((w - sm.shape[1]) // 2 + rng.uniform(-0.8, 0.8) * HI, 0, w - sm.shape[1]))
    y = rm.shape[0] + round(gap)
    under = layer[y:y + sm.shape[0], sx:sx + sm.shape[1]]
    under[:] = np.maximum(under, sm)
    return layer, w / HI, h / HI


_PIP_ROWS = {2: [(0.5, 0.0)], 3: [(0.5, 0.0)], 4: [(0.0, 0.0), (1.0, 0.0)], 5: [(0.0, 0.0), (1.0, 0.0)],
             6: [(0.0, 0.0), (1.0, 0.0), (0.0, 0.5)], 7: [(0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (0.5, 0.25)],
             8: [(0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (0.5, 0.25)],
             9: [(0.0, 0.0), (1.0, 0.0), (0.0, 0.33), (0.5, 0.5)],
             10: [(0.0, 0.0), (1.0, 0.0), (0.0, 0.33), (0.5, 0.16)]}


def _face_content(rng: np.random.Generator, img: np.ndarray, rank: str, suit: str, ink: np.ndarray,
                  dark: bool, inner_x: float) -> None:
    """What a face shows beyond its index, near that corner: pips, a court's frame and picture, an ace."""
    if rank in "JQK":
        fx, fy = max(inner_x + rng.uniform(0.3, 2.5), rng.uniform(9, 15)), rng.uniform(6, 13)
        col = ink if rng.random() < 0.5 else np.array([40, 150, 210]) + rng.uniform(-30, 30, 3)
        x0, y0 = _px(fx, fy)
        x1, y1 = _px(CARD_MM[0] - fx, CARD_MM[1] - fy)
        if round(x1 - x0) <= 0 or round(y1 - y0) <= 0:
            return  # an index drawn sideways reaches past where the frame would start
        # The picture: blotches and lines of a few colours (gold, red, blue, black) inside the frame.
        pic = np.zeros((max(2, round((y1 - y0) / 10)), max(2, round((x1 - x0) / 10)), 3), np.float32)
        palette = [np.array(c, np.float32)
                   for c in ((40, 160, 220), (40, 40, 190), (150, 70, 30), (30, 30, 30))]
        hh, ww = img.shape[:2]
        pic[:] = img[min(int(y0) + 4, hh - 1), min(int(x0) + 4, ww - 1)]
        mask = rng.random(pic.shape[:2]) < rng.uniform(0.3, 0.7)
        pic[mask] = np.array(palette)[rng.integers(len(palette), size=int(mask.sum()))]
        pic = cv2.resize(pic, (round(x1 - x0), round(y1 - y0)), interpolation=cv2.INTER_NEAREST)
        pic = cv2.GaussianBlur(pic, (0, 0), rng.uniform(0.5, 3))
        ys, xs = round(y0), round(x0)
        ye, xe = min(hh, ys + pic.shape[0]), min(ww, xs + pic.shape[1])
        if ye > ys and xe > xs:
            img[ys:ye, xs:xe] = pic[:ye - ys, :xe - xs]
        cv2.rectangle(img, (round(x0), round(y0)), (round(x1), round(y1)), col.tolist(),
                      max(1, round(rng.uniform(0.3, 1.0) * HI)), cv2.LINE_AA)
        return
    if rank == "A":
        size = rng.uniform(14, 30)
        m = suit_mask(rng, suit, round(size * HI))
        cx, cy = _px(CARD_MM[0] / 2, CARD_MM[1] / 2)
        stamp(img, m, cx - m.shape[1] / 2, cy - m.shape[0] / 2, ink)
        return
    n = 10 if rank == "T" else int(rank)
    size = rng.uniform(7, 13)
    left = max(inner_x + size * 0.45 + rng.uniform(0, 2), rng.uniform(13, 21))
    top = rng.uniform(9, 19)
    span_x, span_y = CARD_MM[0] - 2 * left, CARD_MM[1] - 2 * top
    m = suit_mask(rng, suit, round(size * HI))
    for fx, fy in _PIP_ROWS[n]:
        x, y = _px(left + fx * span_x, top + fy * span_y)
        stamp(img, m, x - m.shape[1] / 2, y - m.shape[0] / 2, ink)


def draw_corner(rng: np.random.Generator, rank: str, suit: str, kind: str, close: bool = False) -> np.ndarray:
    """A card corner on the table at HI px/mm (CANVAS_MM), BGR float.

    kind: "index" (a readable index), "bare" (the face's corner without index), "side" (an index seen
    sideways, as a card read through the wrong corner pair shows it). `close`: the index placed more
    freely (decks differ; a close, sharp view shows every offset)."""
    w = round((CANVAS_MM[2] - CANVAS_MM[0]) * HI)
    h = round((CANVAS_MM[3] - CANVAS_MM[1]) * HI)
    paper, ink, dark = _colours(rng, suit in "hd")
    card = np.empty((h, w, 3), np.float32)
    card[:] = paper
    # Paper is never flat: print texture, a faint gradient.
    card += cv2.resize(rng.normal(0, rng.uniform(0.5, 4), (h // 16, w // 16)).astype(np.float32),
                       (w, h))[..., None]
    inner = rng.uniform(6, 12)
    if kind in ("index", "side"):
        layer, lw, lh = _index_layer(rng, rank, suit)
        if kind == "side":
            layer = np.ascontiguousarray(np.rot90(layer, 1 if rng.random() < 0.5 else 3))
            lw, lh = lh, lw
        left = (rng.uniform(0.5, 5.5) if close else rng.uniform(1.0, 4.5)) - 1.0  # the layer's 1 mm margin
        top = rng.uniform(1.0, 7.0) if close else rng.uniform(1.5, 5.5)
        inner = left + lw
        x, y = _px(left, top)
        stamp(card, layer, x, y, ink)
    if rng.random() < 0.9:
        _face_content(rng, card, rank, suit, ink, dark, inner)
    if rng.random() < 0.12:  # a frame line round the face (some decks)
        d = rng.uniform(1.5, 3.5)
        x0, y0 = _px(d, d)
        cv2.rectangle(card, (round(x0), round(y0)), (w + 50, h + 50), ink.tolist(), max(1, round(0.3 * HI)))
    alpha = _card_alpha((h, w), rng.uniform(1.5, 4.5))
    bg = _background(rng, (h, w))
    out = (card - bg) * alpha + bg
    if kind == "index" and rng.random() < OCCLUDE_SHARE:
        _occlude(rng, out, inner)
    return out


def _occlude(rng: np.random.Generator, img: np.ndarray, inner_mm: float) -> None:
    """Something over part of the corner that leaves most of the index showing: another card's edge (its
    paper, a thin dark outline and a soft shadow) or a dark object, from beyond the index's inner side or
    from below it, at a slant."""
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = np.radians(rng.uniform(-25, 25))
    if rng.random() < 0.6:  # from the right: past the index's inner edge, sometimes nicking it
        x0, _ = _px(inner_mm - rng.uniform(-1.0, 1.5), 0)
        d = (xs - x0) * np.cos(ang) + (ys - h / 2) * np.sin(ang)
    else:  # from below, under the index
        _, y0 = _px(0, rng.uniform(17, 30))
        d = (ys - y0) * np.cos(ang) + (xs - w / 2) * np.sin(ang)
    cover = np.clip(d / 1.5 + 0.5, 0, 1)[..., None]
    if rng.random() < 0.7:
        paper, _, _ = _colours(rng, False)
        col = np.broadcast_to(paper.astype(np.float32), img.shape).copy()
        col[np.abs(d) < rng.uniform(1, 3)] *= rng.uniform(0.3, 0.8)  # its edge
    else:
        col = np.broadcast_to(rng.uniform(0, 60, 3).astype(np.float32), img.shape).copy()
    shadow = 1 - rng.uniform(0, 0.35) * np.exp(-np.maximum(-d, 0) / rng.uniform(2, 10))[..., None]
    img[:] = img * shadow * (1 - cover) + col * cover


def draw_negative(rng: np.random.Generator, close: bool = False) -> np.ndarray:
    """No index to read: a face's bare corner, an index seen sideways, a back, the table, a card's middle."""
    w = round((CANVAS_MM[2] - CANVAS_MM[0]) * HI)
    h = round((CANVAS_MM[3] - CANVAS_MM[1]) * HI)
    rank, suit = RANKS[int(rng.integers(13))], SUITS[int(rng.integers(4))]
    kind = rng.random()
    if kind < 0.35:
        return draw_corner(rng, rank, suit, "bare", close)
    if kind < 0.6:
        return draw_corner(rng, rank, suit, "side", close)
    if kind < 0.75:
        design = BackDesign(colour=str(rng.choice(["red", "blue", "black", "green"])),
                            pattern=str(rng.choice(BACK_PATTERNS)))
        tex = back_texture(design, HI)[0].astype(np.float32)
        tex = tex[:h, :w] if rng.random() < 0.5 else cv2.resize(tex[round(4 * HI):, round(4 * HI):], (w, h))
        out = _background(rng, (h, w))
        out[:tex.shape[0], :tex.shape[1]] = tex
        return out
    if kind < 0.85:
        return _background(rng, (h, w))
    paper, ink, _ = _colours(rng, suit in "hd")  # a card's middle: loose pips
    out = np.empty((h, w, 3), np.float32)
    out[:] = paper
    for _ in range(int(rng.integers(1, 5))):
        m = suit_mask(rng, suit, round(rng.uniform(6, 16) * HI))
        stamp(out, m, rng.uniform(-40, w), rng.uniform(-40, h), ink)
    return out


def photograph(rng: np.random.Generator, canvas: np.ndarray, close: bool = False) -> np.ndarray:
    """The corner as a camera records it, cut by `corner_crop` through a slightly wrong quad (INPUT size).

    Card mm → camera px: a random rotation, a resolution of 0.9-5 px/mm (`close`: 2.5-6 px/mm, the
    sharp views of a close camera or a high-resolution photo) and a stretch of up to 1.33 along one image
    axis (data sets resized to squares); the photo is blurred, lit, noisy and JPEG'd."""
    lo, hi = (2.5, 6.0) if close else (0.9, 5.0)
    if not close and rng.random() < 0.25:  # small cards far away: 5-8 px tall indices
        lo, hi = 0.8, 1.6
    c = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))  # camera px per card mm
    ang = rng.uniform(0, 2 * np.pi)
    stretch = np.diag([rng.uniform(0.78, 1.3), 1.0]) if rng.random() < 0.5 else np.eye(2)
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    lin = stretch @ rot * (c / HI)  # canvas px → camera px
    sigma = 0.42 * HI / c * max(1.0, float(stretch.max()))
    src = cv2.GaussianBlur(canvas, (0, 0), sigma)
    h, w = canvas.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) @ lin.T
    off = -corners.min(axis=0) + 2
    size = (int(np.ceil(corners[:, 0].max() + off[0] + 2)), int(np.ceil(corners[:, 1].max() + off[1] + 2)))
    m = np.hstack([lin, off[:, None]]).astype(np.float64)
    if rng.random() < 0.5:  # a tilted table: the corner seen in slight perspective
        box = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
        tilt = cv2.getPerspectiveTransform(box, box + rng.uniform(-0.06, 0.06, (4, 2)).astype(np.float32)
                                           * np.float32(size))
        m = tilt @ np.vstack([m, [0, 0, 1]])
        img = cv2.warpPerspective(src, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    else:
        img = cv2.warpAffine(src, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        m = np.vstack([m, [0, 0, 1]])
    img = _camera_damage(rng, img, 0.6 if close else 1.3)
    # The card's outline in the photo, then the quad detection gives: a few mm off, corners jittered.
    card = np.array([[0, 0], [CARD_MM[0], 0], [CARD_MM[0], CARD_MM[1]], [0, CARD_MM[1]]], np.float64)
    grow = float(np.clip(rng.normal(0, 1.3), -3.5, 3.0))
    card = card + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * grow + rng.normal(0, 0.7, (4, 2))
    turn = np.radians(rng.normal(0, 1.5))  # the quad a little turned against the card
    centre = np.array(CARD_MM) / 2
    card = (card - centre) @ np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]]) + centre
    pts = cv2.perspectiveTransform(((card - np.array(CANVAS_MM[:2])) * HI)[None].astype(np.float64), m)[0]
    return corner_crop(img, pts.astype(np.float32), 0)


def _camera_damage(rng: np.random.Generator, img: np.ndarray, blur: float) -> np.ndarray:
    """Lens blur, white balance and gain, a light ramp, glare, shadow, noise, JPEG (uint8 out). The light
    fields are smooth: made from 1-D profiles or a coarse grid."""
    h, w = img.shape[:2]
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.2, blur))
    if rng.random() < 0.1:  # a hand-held photo: motion blur along one direction
        k = np.zeros((7, 7), np.float32)
        a = rng.uniform(0, np.pi)
        r = rng.uniform(1, 3)
        cv2.line(k, (round(3 - r * np.cos(a)), round(3 - r * np.sin(a))),
                 (round(3 + r * np.cos(a)), round(3 + r * np.sin(a))), 1.0, 1, cv2.LINE_AA)
        img = cv2.filter2D(img, -1, k / k.sum())
    dim = rng.uniform(0.3, 0.55) if rng.random() < 0.15 else rng.uniform(0.55, 1.25)  # dim rooms too
    gain = (dim * rng.uniform(0.85, 1.15, 3)).astype(np.float32)
    ys, xs = np.arange(h, dtype=np.float32), np.arange(w, dtype=np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    light = 1 + rng.uniform(-0.35, 0.35) * np.add.outer(ys * np.sin(ang), xs * np.cos(ang)) / max(h, w)
    if rng.random() < 0.2:  # a shadow edge across the corner
        a2 = rng.uniform(0, 2 * np.pi)
        d = np.add.outer((ys - h / 2) * np.sin(a2), (xs - w / 2) * np.cos(a2))
        d -= rng.uniform(-0.3, 0.3) * max(h, w)
        light *= 1 - rng.uniform(0.2, 0.55) / (1 + np.exp(-d / rng.uniform(1, 6)))
    img *= light[..., None] * gain
    if rng.random() < 0.2:  # glare: a soft bright patch (a separable Gaussian)
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.5) * max(h, w)
        img += (rng.uniform(40, 160) * np.outer(np.exp(-(ys - cy) ** 2 / (2 * r * r)),
                                                np.exp(-(xs - cx) ** 2 / (2 * r * r))))[..., None]
    img += rng.normal(0, rng.uniform(1, 9), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.08:  # salt and pepper (a data set's augmentation)
        spots = rng.random((h, w)) < 0.005
        out[spots] = rng.choice([0, 255], size=(int(spots.sum()), 1))
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else out


def sample(rng: np.random.Generator, i: int, close: bool = False) -> tuple[np.ndarray, int, int]:
    """One training sample: (INPUT-sized BGR crop, rank class (NONE: no index), suit class (-1: none))."""
    if rng.random() < NONE_SHARE:
        return photograph(rng, draw_negative(rng, close), close), NONE, -1
    rank, suit = RANKS[i % 13], SUITS[(i // 13) % 4]
    corner = draw_corner(rng, rank, suit, "index", close)
    return photograph(rng, corner, close), RANKS.index(rank), SUITS.index(suit)


def make(n: int, seed: int, close: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n samples from one seed: crops N×H×W×3 uint8, rank and suit labels (`close`: sharp views)."""
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    x = np.empty((n, INPUT[1], INPUT[0], 3), np.uint8)
    yr = np.empty(n, np.int64)
    ys = np.empty(n, np.int64)
    for i in range(n):
        for _ in range(5):
            try:
                x[i], yr[i], ys[i] = sample(rng, i + seed, close)
                break
            except (cv2.error, ValueError, IndexError):  # a rare drawing off the canvas: draw again
                continue
    return x, yr, ys


# Real corners: labelled corners of vision-dev's tuning half A (scripts/index_real.csv: the image, the
# quad the single-frame finder gave, the corner, its code or "-" for no index), each cut many times with
# a jittered quad and camera damage. Half B is never labelled: it stays a held-out figure.
REAL_LABELS = Path(__file__).with_name("index_real.csv")


def half_a(folder: Path) -> set[str]:
    """The tuning half of a vision-dev folder: the 1st, 3rd, ... image of truth.csv in name order."""
    import csv

    with (folder / "truth.csv").open(newline="") as f:
        names = sorted(r["image"] for r in csv.DictReader(f))
    return set(names[::2])


def real_samples(folder: Path, per_index: int, per_none: int, seed: int,
                 labels: Path = REAL_LABELS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops of the labelled real corners: `per_index` draws of each corner with an index, `per_none` of
    each without; only half A's images (an assertion)."""
    import csv

    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    allowed = half_a(folder)
    with labels.open(newline="") as f:
        rows = list(csv.DictReader(f))
    xs, yr, ys = [], [], []
    images: dict[str, np.ndarray] = {}
    for row in rows:
        assert row["image"] in allowed, f"{row['image']} is not in half A"
        if row["image"] not in images:
            img = cv2.imread(str(folder / row["image"]), cv2.IMREAD_COLOR)
            assert img is not None, row["image"]
            images[row["image"]] = img
        quad = np.array([float(row[f"{a}{i}"]) for i in range(4) for a in "xy"], np.float32).reshape(4, 2)
        code, corner = row["code"], int(row["corner"])
        n = per_none if code == "-" else per_index
        for _ in range(n):
            xs.append(_real_view(rng, images[row["image"]], quad, corner))
            yr.append(NONE if code == "-" else RANKS.index(code[0]))
            ys.append(-1 if code == "-" else SUITS.index(code[1]))
    return np.stack(xs), np.array(yr, np.int64), np.array(ys, np.int64)


def _real_view(rng: np.random.Generator, img: np.ndarray, quad: np.ndarray, corner: int) -> np.ndarray:
    """One crop of a real corner: the part of the photo round the card, seen at a lower resolution at
    times, damaged by the camera model, cut through the quad grown or shrunk by up to ~2 mm, jittered."""
    side = float(np.hypot(*(quad[1] - quad[0])) + np.hypot(*(quad[3] - quad[0]))) / (CARD_MM[0] + CARD_MM[1])
    x0, y0 = np.floor(quad.min(axis=0) - 12 * side).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + 12 * side).astype(int)
    x0, y0 = max(x0, 0), max(y0, 0)
    part = img[y0:y1, x0:x1].astype(np.float32)
    q = quad - np.float32([x0, y0])
    scale = rng.uniform(max(1.0 / side, 0.25), 1.0) if side > 1.25 and rng.random() < 0.4 else 1.0
    if scale < 1.0:  # the same card farther away
        part = cv2.resize(part, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        q = q * scale
        side *= scale
    part = _camera_damage(rng, part, 0.8) if rng.random() < 0.7 else np.clip(part, 0, 255).astype(np.uint8)
    centre = q.mean(axis=0)
    grow = float(np.clip(rng.normal(0, 0.8), -2.0, 2.0)) * side
    out = q + (q - centre) / np.linalg.norm(q - centre, axis=1, keepdims=True) * grow * 1.41
    out = out + rng.normal(0, 0.5 * side, (4, 2))
    return corner_crop(part, out.astype(np.float32), corner)
