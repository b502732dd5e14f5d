"""Synthetic overhead frames of a virtual card table with ground truth, for tests, bench and simulator."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import cv2
import numpy as np

from controller.core.cards import FULL_DECK

TABLE_W, TABLE_H = 1000.0, 750.0  # mm: the part of the table the camera sees
CARD_W, CARD_H = 63.0, 88.0  # mm: poker size
TEX_PX_MM = 3.0  # card texture resolution
CORNER_R = 3.0  # mm: rounded card corners
# Index area of a card in mm (x0, y0, x1, y1) from the top-left corner, portrait; jumbo index.
INDEX_BOX = (1.5, 2.0, 16.0, 31.0)

RED = (40, 30, 190)
BLACK = (30, 28, 28)
PAPER = (242, 244, 244)

FELTS: dict[str, tuple[int, int, int]] = {  # BGR
    "green": (60, 120, 40),
    "dark_green": (35, 70, 25),
    "blue": (140, 80, 30),
    "navy": (70, 35, 15),
    "burgundy": (40, 30, 110),
    "black": (28, 28, 30),
    "grey": (120, 118, 115),
    "tan": (120, 160, 190),
    "light_blue": (200, 165, 120),
    "purple": (100, 40, 80),
}
BACK_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (45, 40, 170),
    "blue": (150, 80, 35),
    "black": (40, 38, 38),
    "green": (60, 110, 30),
}
BACK_PATTERNS = ("lattice", "dots", "stripes")


@dataclass(frozen=True, kw_only=True, slots=True)
class BackDesign:
    colour: str = "red"
    pattern: str = "lattice"


@dataclass(frozen=True, kw_only=True, slots=True)
class CardPlace:
    """One card on the virtual table: centre and rotation in table millimetres / degrees."""

    code: str
    face_up: bool
    zone: str
    cx: float
    cy: float
    angle: float = 0.0


@dataclass(frozen=True, kw_only=True, slots=True)
class Camera:
    """Where the four table corners (TL, TR, BR, BL) land in the image, as fractions of width/height."""

    corners: tuple[tuple[float, float], ...] = ((0.02, 0.02), (0.98, 0.02), (0.98, 0.98), (0.02, 0.98))

    def homography(self, size: tuple[int, int]) -> np.ndarray:
        w, h = size
        src = np.float32([[0, 0], [TABLE_W, 0], [TABLE_W, TABLE_H], [0, TABLE_H]])
        dst = np.float32([[x * w, y * h] for x, y in self.corners])
        return cv2.getPerspectiveTransform(src, dst)


@dataclass(frozen=True, kw_only=True, slots=True)
class Lighting:
    gain: float = 1.0
    gradient: float = 0.0  # relative brightness change across the frame along `direction`
    direction: float = 0.0  # degrees
    vignette: float = 0.0  # relative darkening at the corners
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR multipliers (colour temperature)
    noise: float = 2.0  # sigma of sensor noise, grey levels
    blur: float = 0.5  # sigma of lens blur, pixels


@dataclass(frozen=True, kw_only=True, slots=True)
class TableLook:
    felt: str = "green"
    back: BackDesign = field(default_factory=BackDesign)
    camera: Camera = field(default_factory=Camera)
    seats: int = 6


@dataclass(frozen=True, kw_only=True, slots=True)
class CardTruth:
    place: CardPlace
    polygon: np.ndarray  # 4×2 image corners, portrait order TL TR BR BL
    visible: float  # fraction of the card not covered by cards on top of it
    index_visible: float  # best visible fraction of its two index corners


@dataclass(frozen=True, kw_only=True, slots=True)
class Frame:
    image: np.ndarray
    cards: tuple[CardTruth, ...]
    zones: dict[str, np.ndarray]  # zone polygons in image pixels
    homography: np.ndarray  # table mm -> image px


# ---------------------------------------------------------------- layout of the virtual table


def seat_positions(seats: int = 6) -> dict[str, tuple[float, float, float]]:
    """Hole-card spot (x, y mm) and the card rotation facing the seat, for seat1…seatN clockwise."""
    out: dict[str, tuple[float, float, float]] = {}
    cx, cy, rx, ry = TABLE_W / 2, TABLE_H / 2 - 20, 390.0, 265.0
    for i in range(seats):
        # The dealer sits bottom centre (90°); seat1 is on the dealer's left and seats run clockwise.
        ang = 90 + 360 * (i + 1) / (seats + 1)
        a = np.deg2rad(ang)
        x, y = cx + rx * np.cos(a), cy + ry * np.sin(a)
        out[f"seat{i + 1}"] = (float(x), float(y), float(ang - 90))
    return out


BOARD_CENTRE = (TABLE_W / 2, TABLE_H / 2 - 20)
BURN_SPOT = (TABLE_W / 2 - 95, TABLE_H - 75)
MUCK_SPOT = (TABLE_W / 2 + 95, TABLE_H - 75)
BOARD_PITCH = CARD_W + 6.0


def zone_polygons_mm(seats: int = 6) -> dict[str, np.ndarray]:
    """Zone polygons in table mm, as an operator would mark them at calibration."""

    def box(x: float, y: float, w: float, h: float, ang: float = 0.0) -> np.ndarray:
        pts = cv2.boxPoints(((x, y), (w, h), ang))
        return np.asarray(pts, np.float32)

    zones = {name: box(x, y, 150, 130, a) for name, (x, y, a) in seat_positions(seats).items()}
    zones["board"] = box(*BOARD_CENTRE, BOARD_PITCH * 5 + 30, CARD_H + 40)
    zones["burn"] = box(*BURN_SPOT, 135, 140)
    zones["muck"] = box(*MUCK_SPOT, 170, 140)
    return zones


# ---------------------------------------------------------------- card textures


def draw_suit(img: np.ndarray, suit: str, cx: float, cy: float, size: float, colour: tuple[int, ...]) -> None:
    """Suit symbols drawn from circles and polygons (no font needed); `size` is the symbol height."""
    s = size

    def pt(dx: float, dy: float) -> tuple[int, int]:
        return (round((cx + dx * s) * 16), round((cy + dy * s) * 16))

    def circle(dx: float, dy: float, r: float) -> None:
        cv2.circle(img, pt(dx, dy), round(r * s * 16), colour, -1, cv2.LINE_AA, shift=4)

    def poly(*pts: tuple[float, float]) -> None:
        arr = np.array([pt(dx, dy) for dx, dy in pts], np.int32)
        cv2.fillPoly(img, [arr], colour, cv2.LINE_AA, shift=4)

    if suit == "h":
        circle(-0.22, -0.2, 0.27)
        circle(0.22, -0.2, 0.27)
        poly((-0.48, -0.12), (0.48, -0.12), (0.0, 0.5))
    elif suit == "d":
        poly((0.0, -0.5), (0.36, 0.0), (0.0, 0.5), (-0.36, 0.0))
    elif suit == "s":
        circle(-0.22, 0.08, 0.24)
        circle(0.22, 0.08, 0.24)
        poly((-0.45, 0.02), (0.45, 0.02), (0.0, -0.5))
        poly((0.0, 0.05), (-0.2, 0.5), (0.2, 0.5))
    else:  # clubs
        circle(0.0, -0.24, 0.22)
        circle(-0.24, 0.08, 0.22)
        circle(0.24, 0.08, 0.22)
        poly((0.0, -0.05), (-0.2, 0.5), (0.2, 0.5))


def _rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


def _index_layer(code: str, k: float) -> np.ndarray:
    """Ink of one corner index (rank above suit) on a transparent layer the size of the card."""
    layer = np.zeros((round(CARD_H * k), round(CARD_W * k), 3), np.uint8)
    colour = RED if code[1] in "hd" else BLACK
    text = _rank_text(code[0])
    font, thick = cv2.FONT_HERSHEY_DUPLEX, max(1, round(1.0 * k))
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    target_h, max_w = 11.0 * k, 13.0 * k
    scale = min(target_h / th, max_w / tw)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    x = round((INDEX_BOX[0] + 7.5) * k - tw / 2)
    y = round(3.5 * k + th)
    cv2.putText(layer, text, (x, y), font, scale, colour, thick, cv2.LINE_AA)
    draw_suit(layer, code[1], (INDEX_BOX[0] + 7.5) * k, 23.5 * k, 8.5 * k, colour)
    return layer


_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.15), (0.5, 0.85)],
    3: [(0.5, 0.15), (0.5, 0.5), (0.5, 0.85)],
    4: [(0.2, 0.15), (0.8, 0.15), (0.2, 0.85), (0.8, 0.85)],
    5: [(0.2, 0.15), (0.8, 0.15), (0.5, 0.5), (0.2, 0.85), (0.8, 0.85)],
    6: [(0.2, 0.15), (0.8, 0.15), (0.2, 0.5), (0.8, 0.5), (0.2, 0.85), (0.8, 0.85)],
    7: [(0.2, 0.15), (0.8, 0.15), (0.5, 0.32), (0.2, 0.5), (0.8, 0.5), (0.2, 0.85), (0.8, 0.85)],
    8: [(0.2, 0.15), (0.8, 0.15), (0.5, 0.32), (0.2, 0.5), (0.8, 0.5), (0.5, 0.68), (0.2, 0.85),
        (0.8, 0.85)],
    9: [(0.2, 0.12), (0.8, 0.12), (0.2, 0.37), (0.8, 0.37), (0.5, 0.5), (0.2, 0.63), (0.8, 0.63),
        (0.2, 0.88), (0.8, 0.88)],
    10: [(0.2, 0.12), (0.8, 0.12), (0.5, 0.25), (0.2, 0.37), (0.8, 0.37), (0.2, 0.63), (0.8, 0.63),
         (0.5, 0.75), (0.2, 0.88), (0.8, 0.88)],
}


def _blank(k: float) -> tuple[np.ndarray, np.ndarray]:
    """White card with rounded corners and a faint edge line; returns (BGR, alpha)."""
    h, w = round(CARD_H * k), round(CARD_W * k)
    alpha = np.zeros((h, w), np.uint8)
    r = round(CORNER_R * k)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
    img = np.full((h, w, 3), PAPER, np.uint8)
    edge = cv2.morphologyEx(alpha, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    img[edge > 0] = (200, 200, 200)
    return img, alpha


@functools.lru_cache(maxsize=64)
def face_texture(code: str, k: float = TEX_PX_MM) -> tuple[np.ndarray, np.ndarray]:
    """A card face: jumbo corner indices top-left and bottom-right, pips or a picture in the centre."""
    img, alpha = _blank(k)
    colour = RED if code[1] in "hd" else BLACK
    layer = _index_layer(code, k)
    layer = np.maximum(layer, layer[::-1, ::-1])
    ink = layer.any(axis=2)
    img[ink] = layer[ink]
    x0, y0, x1, y1 = 18.5 * k, 11.0 * k, (CARD_W - 18.5) * k, (CARD_H - 11.0) * k
    rank = code[0]
    if rank in "JQK":
        cv2.rectangle(img, (round(x0), round(y0)), (round(x1), round(y1)), colour, max(1, round(k * 0.6)))
        mid = round((y0 + y1) / 2)
        cv2.rectangle(img, (round(x0 + 3 * k), round(y0 + 8 * k)), (round(x1 - 3 * k), mid - round(4 * k)),
                      (40, 170, 220), -1)
        cv2.rectangle(img, (round(x0 + 3 * k), mid + round(4 * k)), (round(x1 - 3 * k), round(y1 - 8 * k)),
                      (150, 60, 40) if colour == BLACK else (40, 40, 170), -1)
        draw_suit(img, code[1], (x0 + x1) / 2, mid, 7 * k, colour)
    elif rank == "A":
        draw_suit(img, code[1], CARD_W * k / 2, CARD_H * k / 2, 22 * k, colour)
    else:
        n = int(rank) if rank != "T" else 10
        for fx, fy in _PIPS[n]:
            draw_suit(img, code[1], x0 + fx * (x1 - x0), y0 + fy * (y1 - y0), 9 * k, colour)
    return img, alpha


@functools.lru_cache(maxsize=16)
def back_texture(design: BackDesign, k: float = TEX_PX_MM) -> tuple[np.ndarray, np.ndarray]:
    """A card back: white border, coloured field with a light pattern."""
    img, alpha = _blank(k)
    h, w = img.shape[:2]
    col = np.array(BACK_COLOURS[design.colour], np.float32)
    light = tuple(int(v) for v in np.clip(col * 0.5 + 100, 0, 255))
    b = round(4.0 * k)
    field_img = np.full((h - 2 * b, w - 2 * b, 3), col, np.uint8)
    fh, fw = field_img.shape[:2]
    step = round(5 * k)
    if design.pattern == "lattice":
        for off in range(-fh, fw + fh, step):
            cv2.line(field_img, (off, 0), (off + fh, fh), light, max(1, round(0.5 * k)), cv2.LINE_AA)
            cv2.line(field_img, (off, fh), (off + fh, 0), light, max(1, round(0.5 * k)), cv2.LINE_AA)
    elif design.pattern == "dots":
        for y in range(step // 2, fh, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, fw, step):
                cv2.circle(field_img, (x, y), max(1, round(1.2 * k)), light, -1, cv2.LINE_AA)
    else:
        for x in range(0, fw, step):
            cv2.line(field_img, (x, 0), (x, fh), light, max(1, round(0.8 * k)), cv2.LINE_AA)
    cv2.rectangle(field_img, (0, 0), (fw - 1, fh - 1), light, max(1, round(0.7 * k)))
    img[b:h - b, b:w - b] = field_img
    return img, alpha


# ---------------------------------------------------------------- rendering


def card_corners_mm(p: CardPlace) -> np.ndarray:
    """Portrait corners TL TR BR BL of a placed card in table mm."""
    a = np.deg2rad(p.angle)
    ux, uy = np.cos(a), np.sin(a)  # the card's x axis (short side)
    vx, vy = -np.sin(a), np.cos(a)  # its y axis (long side)
    out = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        out.append((p.cx + sx * CARD_W / 2 * ux + sy * CARD_H / 2 * vx,
                    p.cy + sx * CARD_W / 2 * uy + sy * CARD_H / 2 * vy))
    return np.array(out, np.float32)


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float32).reshape(-1, 1, 2), h).reshape(-1, 2)


def felt_texture(look: TableLook, size: tuple[int, int], seed: int) -> np.ndarray:
    """The table cloth alone (float32 BGR), to pass to `render` for every frame of one table."""
    return _felt(look, size, np.random.default_rng(seed))


def _felt(look: TableLook, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    base = np.array(FELTS[look.felt], np.float32)
    low = cv2.resize(rng.normal(0, 1, (12, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    fine = np.empty((h, w), np.float32)
    cv2.randn(fine, 0.0, 1.0)  # OpenCV's generator: several times faster than numpy's for a full frame
    fine = cv2.GaussianBlur(fine, (0, 0), 1.2)
    tex = 1.0 + 0.04 * low + 0.05 * fine
    return base[None, None, :] * tex[:, :, None]


def _paste(canvas: np.ndarray, ids: np.ndarray, idx: int, tex: np.ndarray, alpha: np.ndarray,
           h_card: np.ndarray, shadow: tuple[float, float]) -> None:
    """Warp one card texture into the canvas (only its bounding box), marking its pixels in `ids`.

    The card first casts a soft shadow, offset away from the light, on whatever lies beneath: a card's
    thickness shows as a dark rim along some of its edges, as in a real overhead photo.
    """
    th, tw = alpha.shape
    corners = project(h_card, np.float32([[0, 0], [tw, 0], [tw, th], [0, th]]))
    pad = int(np.ceil(max(abs(shadow[0]), abs(shadow[1])))) + 3
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + pad
    hh, ww = ids.shape
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, ww), min(y1, hh)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    hs = shift @ h_card
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(tex, hs, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    a = cv2.warpPerspective(alpha, hs, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
    roi = canvas[y0:y1, x0:x1]
    sh = cv2.warpAffine(a, np.float32([[1, 0, shadow[0]], [0, 1, shadow[1]]]), size)
    sh = cv2.GaussianBlur(sh, (0, 0), max(0.6, 0.4 * float(np.hypot(*shadow))))
    roi *= (1.0 - 0.35 * sh)[:, :, None]
    roi[:] = roi * (1 - a[:, :, None]) + warped.astype(np.float32) * a[:, :, None]
    ids[y0:y1, x0:x1][a > 0.5] = idx


def _light_field(size: tuple[int, int], light: Lighting) -> np.ndarray:
    w, h = size
    nx = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :]
    ny = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None]
    d = np.deg2rad(light.direction)
    grad = 1.0 + light.gradient * (nx * np.float32(np.cos(d)) + ny * np.float32(np.sin(d)))
    vig = 1.0 - light.vignette * (nx**2 + ny**2) * 2.0
    return (light.gain * grad * vig).astype(np.float32)


def _region_visible(ids: np.ndarray, idx: int, poly: np.ndarray) -> float:
    """Fraction of the polygon's pixels where card `idx` is the one on top."""
    pts = np.round(poly).astype(np.int32)
    x0, y0 = np.maximum(pts.min(axis=0), 0)
    x1, y1 = np.minimum(pts.max(axis=0) + 1, (ids.shape[1], ids.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [pts - [x0, y0]], 1)
    total = int(mask.sum())
    return 1.0 if total == 0 else float(((ids[y0:y1, x0:x1] == idx) & (mask > 0)).sum()) / total


def render(look: TableLook, cards: list[CardPlace] | tuple[CardPlace, ...], light: Lighting,
           size: tuple[int, int] = (1296, 972), seed: int = 0, felt: np.ndarray | None = None) -> Frame:
    """Render the cards (later ones on top) as the overhead camera would see them. `felt` (from
    `felt_texture`) reuses a table cloth drawn once (a video of one table: the cloth does not change)."""
    rng = np.random.default_rng(seed)
    cv2.setRNGSeed(seed)
    w, h = size
    hom = look.camera.homography(size)
    canvas = felt.copy() if felt is not None else _felt(look, size, rng)
    ids = np.full((h, w), -1, np.int32)
    px_per_mm = float(np.sqrt(abs(np.linalg.det(hom[:2, :2] / hom[2, 2]))))
    k = TEX_PX_MM
    d = np.deg2rad(light.direction)
    # Shadows fall away from the brighter side of the frame, about a millimetre long.
    shadow = (-float(np.cos(d)) * 1.2 * px_per_mm, -float(np.sin(d)) * 1.2 * px_per_mm)
    polys = []
    for i, p in enumerate(cards):
        tex, alpha = face_texture(p.code) if p.face_up else back_texture(look.back)
        kk = k
        while px_per_mm / kk < 0.55:  # pre-shrink the texture so the warp does not alias the pattern
            tex, alpha, kk = cv2.pyrDown(tex), cv2.pyrDown(alpha), kk / 2
        corners_img = project(hom, card_corners_mm(p))
        th, tw = alpha.shape
        h_card = cv2.getPerspectiveTransform(np.float32([[0, 0], [tw, 0], [tw, th], [0, th]]), corners_img)
        _paste(canvas, ids, i, tex, alpha, h_card, shadow)
        polys.append(corners_img)
    canvas *= _light_field(size, light)[:, :, None]
    canvas *= np.array(light.tint, np.float32)[None, None, :]
    if light.blur > 0:
        canvas = cv2.GaussianBlur(canvas, (0, 0), light.blur)
    noise = np.empty(canvas.shape, np.float32)
    cv2.randn(noise, 0.0, light.noise)
    canvas += noise
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    truths = []
    for i, (p, poly) in enumerate(zip(cards, polys, strict=True)):
        visible = _region_visible(ids, i, poly)
        best_index = 0.0
        for corner in (0, 2):
            box = _index_box_mm(p, corner)
            best_index = max(best_index, _region_visible(ids, i, project(hom, box)))
        truths.append(CardTruth(place=p, polygon=poly, visible=visible, index_visible=best_index))
    zones = {name: project(hom, poly) for name, poly in zone_polygons_mm(look.seats).items()}
    return Frame(image=image, cards=tuple(truths), zones=zones, homography=hom)


def _index_box_mm(p: CardPlace, corner: int) -> np.ndarray:
    """The index area of corner 0 (top-left) or 2 (bottom-right) of a placed card, in table mm."""
    x0, y0, x1, y1 = INDEX_BOX
    if corner == 2:
        x0, y0, x1, y1 = CARD_W - x1, CARD_H - y1, CARD_W - x0, CARD_H - y0
    a = np.deg2rad(p.angle)
    ux, uy, vx, vy = np.cos(a), np.sin(a), -np.sin(a), np.cos(a)
    out = []
    for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
        dx, dy = x - CARD_W / 2, y - CARD_H / 2
        out.append((p.cx + dx * ux + dy * vx, p.cy + dx * uy + dy * vy))
    return np.array(out, np.float32)


# ---------------------------------------------------------------- random tables and hands


def random_look(rng: np.random.Generator, *, max_tilt: float = 0.16) -> TableLook:
    """A table with a random felt, back design and camera pose (keystone, rotation, margins)."""
    felt = str(rng.choice(list(FELTS)))
    back = BackDesign(colour=str(rng.choice(list(BACK_COLOURS))), pattern=str(rng.choice(BACK_PATTERNS)))
    tilt = float(rng.uniform(0, max_tilt))
    side = rng.integers(4)
    m = rng.uniform(0.01, 0.04, size=4)
    c = [[m[0], m[1]], [1 - m[2], m[1]], [1 - m[2], 1 - m[3]], [m[0], 1 - m[3]]]
    # Keystone: the edge farther from the camera appears shorter.
    a, b = [(0, 1), (1, 2), (2, 3), (3, 0)][side]
    axis = 0 if side in (0, 2) else 1
    c[a][axis] += tilt / 2 * (1 if c[a][axis] < 0.5 else -1)
    c[b][axis] += tilt / 2 * (1 if c[b][axis] < 0.5 else -1)
    rot = np.deg2rad(rng.uniform(-3, 3))
    cr = [((x - 0.5) * np.cos(rot) - (y - 0.5) * np.sin(rot) + 0.5,
           (x - 0.5) * np.sin(rot) + (y - 0.5) * np.cos(rot) + 0.5) for x, y in c]
    shrink = 1 - abs(float(np.sin(rot))) * 1.4  # keep the rotated table inside the frame
    cr = [(0.5 + (x - 0.5) * shrink, 0.5 + (y - 0.5) * shrink) for x, y in cr]
    return TableLook(felt=felt, back=back, camera=Camera(corners=tuple((float(x), float(y)) for x, y in cr)))


def random_light(rng: np.random.Generator) -> Lighting:
    tint = tuple(float(v) for v in rng.uniform(0.9, 1.1, 3))
    return Lighting(gain=float(rng.uniform(0.6, 1.15)), gradient=float(rng.uniform(0, 0.5)),
                    direction=float(rng.uniform(0, 360)), vignette=float(rng.uniform(0, 0.35)),
                    tint=(tint[0], tint[1], tint[2]), noise=float(rng.uniform(1, 6)),
                    blur=float(rng.uniform(0.3, 1.0)))


def random_hand(rng: np.random.Generator, seats: int = 6, *, p_exposed: float = 0.06) -> list[CardPlace]:
    """A snapshot of a hand in progress: hole cards, burns, board, muck; some cards face up by accident."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    street = int(rng.integers(4))  # 0 preflop, 1 flop, 2 turn, 3 river
    places: list[CardPlace] = []
    folded = []
    for name, (x, y, ang) in seat_positions(seats).items():
        if rng.random() < 0.25:
            folded.append(name)
            continue
        spread = rng.uniform(18, 30)
        base = ang + rng.uniform(-8, 8)
        for j in range(2):
            off = (j - 0.5) * spread
            a = np.deg2rad(base)
            places.append(CardPlace(code=deck.pop(), face_up=bool(rng.random() < p_exposed), zone=name,
                                    cx=x + off * np.cos(a) + rng.uniform(-3, 3),
                                    cy=y + off * np.sin(a) + rng.uniform(-3, 3),
                                    angle=base + (j - 0.5) * rng.uniform(0, 14)))
    for j in range(street):
        places.append(CardPlace(code=deck.pop(), face_up=bool(rng.random() < p_exposed), zone="burn",
                                cx=BURN_SPOT[0] + j * rng.uniform(12, 22),
                                cy=BURN_SPOT[1] + rng.uniform(-6, 6),
                                angle=rng.uniform(-10, 10)))
    n_board = [0, 3, 4, 5][street]
    if street == 1 and rng.random() < 0.05:
        n_board = 4  # a four-card flop
    for j in range(n_board):
        places.append(CardPlace(code=deck.pop(), face_up=True, zone="board",
                                cx=BOARD_CENTRE[0] + (j - 2) * BOARD_PITCH + rng.uniform(-2, 2),
                                cy=BOARD_CENTRE[1] + rng.uniform(-3, 3), angle=rng.uniform(-3, 3)))
    n_muck = min(2 * len(folded), 4)
    for _ in range(n_muck):
        places.append(CardPlace(code=deck.pop(), face_up=bool(rng.random() < p_exposed / 2), zone="muck",
                                cx=MUCK_SPOT[0] + rng.uniform(-25, 25),
                                cy=MUCK_SPOT[1] + rng.uniform(-12, 12),
                                angle=rng.uniform(-40, 40)))
    return places


def random_frame(seed: int, size: tuple[int, int] = (1296, 972), look: TableLook | None = None) -> Frame:
    """One complete random frame: table look (unless given), light and hand all drawn from `seed`."""
    rng = np.random.default_rng(seed)
    look = look or random_look(rng)
    return render(look, random_hand(rng, look.seats), random_light(rng), size, seed=seed)
