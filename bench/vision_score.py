"""Score `cardtable camera detect` in single-frame mode on real photos with truth, and on rendered frames.

Real photos: a folder of images and a truth CSV in the vision-dev format (image, n_cards, n_face_up,
n_face_down, cards_up, board). The figures are the issue's: cards found, face up/down right among found
cards, rank+suit among readable face-up cards, board count exact among images with a board; plus image
count exact, the codes reported that are not in the truth ("wrong codes"), a per-source line (source = the
file name up to the first underscore) and the two halves of docs/camera.md (A: the 1st, 3rd, ... image in
name order, used for tuning; B: the 2nd, 4th, ..., held out). `--read-times` adds the CPU time of the
corner reader per face-up card found (no cache), median and p95; pin it to one core (taskset -c 0).
Rendered: random tables (felt, back, light, perspective, JPEG) with exact truth, detected uncalibrated.
`--per-card N` scores rendered frames card by card instead of by counts: every truth card at least half
visible is matched one-to-one to a detected quad at IoU >= 0.5 (greedily, best IoU first), and the lines
give cards found, face up/down right among the matched cards, and detections that match no card (a
pile's straddling quad, a fragment, a duplicate; a detection matched to a card less than half visible
counts neither way). N frames per size (`--sizes`) and table (`--tables`): "felt" is the renderer's
cloth, "wood" the same hands, light and camera on a wood-grain table (the cloth multiplied by a wavy
grain and slow blotches), which breaks the smooth-table test and so takes the level cuts' path.

    PYTHONPATH=. python bench/vision_score.py --real ../shared/vision-dev [--truth FILE] [--worst 8]
        [--read-times] [--no-hog-fallback] [--no-corner-search]
    PYTHONPATH=. python bench/vision_score.py --rendered 40 [--size 640x480]
    PYTHONPATH=. python bench/vision_score.py --per-card 20 [--seed 21] [--sizes 1296x972,640x480]
        [--tables felt,wood] [--failures] [--peer main]

With `--peer COMMIT` the per-card lines are given for that commit's detector too (the same frames, in
the same process), with the CPU time per frame of `find_cards` and `detect_single` of both, timed in
turn frame by frame: pin it to one core (taskset -c 1) and say the load.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from controller.vision.detect import Detection, VisionModel, detect
from controller.vision.single import READS


@dataclass(slots=True)
class Tally:
    images: int = 0
    cards: int = 0
    found: int = 0
    exact: int = 0
    face_ok: int = 0
    readable: int = 0
    read_ok: int = 0
    boards: int = 0
    board_ok: int = 0
    reported: int = 0  # codes reported on face-up cards
    rows: list[tuple[float, str]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for k in ("images", "cards", "found", "exact", "face_ok", "readable", "read_ok", "boards",
                  "board_ok", "reported"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.rows += other.rows

    def rates(self) -> dict[str, float | None]:
        def r(a: int, b: int) -> float | None:
            return a / b if b else None

        return {"found": r(self.found, self.cards), "face_of_found": r(self.face_ok, self.found),
                "rank_suit": r(self.read_ok, self.readable), "board_exact": r(self.board_ok, self.boards),
                "count_exact": r(self.exact, self.images)}

    def line(self, name: str) -> str:
        def pct(v: float | None, a: int, b: int) -> str:
            return "n/a" if v is None else f"{100 * v:.1f}% ({a}/{b})"

        r = self.rates()
        return (f"{name:<6} images {self.images:>3} | found {pct(r['found'], self.found, self.cards)} | "
                f"up/down of found {pct(r['face_of_found'], self.face_ok, self.found)} | "
                f"rank+suit {pct(r['rank_suit'], self.read_ok, self.readable)} | "
                f"board exact {pct(r['board_exact'], self.board_ok, self.boards)} | "
                f"count exact {pct(r['count_exact'], self.exact, self.images)} | "
                f"wrong codes {self.reported - self.read_ok}/{self.reported}")


def _norm(code: object) -> str | None:
    if not isinstance(code, str):
        return None
    c = code.strip()
    c = "T" + c[2:] if c[:2] == "10" else c
    return c[0].upper() + c[1].lower() if len(c) == 2 else None


def score_image(truth: dict[str, str], pred: dict[str, object]) -> Tally:
    """One image against its truth row. Face up/down among found cards: with counts only, a found card is
    right up to the smaller of predicted and true counts of its side."""
    cards = pred.get("cards") or []
    assert isinstance(cards, list)
    up = sum(1 for c in cards if c.get("face") == "up")
    n, dn = len(cards), len(cards) - up
    tn, tu, td = int(truth["n_cards"]), int(truth["n_face_up"]), int(truth["n_face_down"])
    found = min(n, tn)
    want = Counter(_norm(c) for c in truth["cards_up"].split())
    got = Counter(_norm(c.get("card")) for c in cards if _norm(c.get("card")))
    hit = sum((want & got).values())
    board = len(truth.get("board", "").split())
    face_ok = min(min(up, tu) + min(dn, td), found)
    t = Tally(images=1, cards=tn, found=found, exact=int(n == tn), face_ok=face_ok,
              readable=sum(want.values()), read_ok=hit, boards=int(board > 0), reported=sum(got.values()),
              board_ok=int(board > 0 and pred.get("board_count") == board))
    miss = (tn - found) + abs(n - tn) + (sum(want.values()) - hit)
    t.rows.append((miss, f"{truth['image']}: cards {n}/{tn} up {up}/{tu} down {dn}/{td} "
                         f"read {hit}/{sum(want.values())} "
                         f"({truth.get('surface', '')}: {truth.get('notes', '')[:70]})"))
    return t


def detect_json(path: Path, model: VisionModel | None = None) -> dict[str, object]:
    """What `cardtable camera detect --json` prints for one image."""
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise SystemExit(f"{path}: not an image file OpenCV can read")
    READS.clear()  # photos are unrelated: no read carries over
    det = detect(img, model or VisionModel())
    return {"image": str(path), "board_count": det.board_count(), "cards": [c.to_json() for c in det.cards]}


def score_real(folder: Path, truth_csv: Path) -> dict[str, Tally]:
    """Per source prefix, per half (A, B) and 'all'."""
    rows = sorted(csv.DictReader(truth_csv.open(newline="")), key=lambda r: r["image"])
    out: dict[str, Tally] = {"all": Tally()}
    for i, row in enumerate(rows):
        t = score_image(row, detect_json(folder / row["image"]))
        out.setdefault(row["image"].split("_")[0], Tally()).add(t)
        out.setdefault("half " + "AB"[i % 2], Tally()).add(t)
        out["all"].add(t)
    return out


def read_times(folder: Path, truth_csv: Path, peer: str | None = None) -> dict[str, list[float]]:
    """Process CPU seconds (one thread: pin it, and OpenCV is held to one) per face-up card found in the
    photos, uncached: the whole reader and, where the reader has one, its CNN alone; with `peer` (a
    commit), that commit's reader too (loaded from git as bench/vision_stages.py does), timed on the same
    card in turn with today's, so both see the same load. Every peer code must equal today's."""
    from controller.vision import index

    index.load_model()
    readers: dict[str, Callable[[np.ndarray, np.ndarray], str | None]] = {"reader": index.read_code}
    if hasattr(index, "read_cnn"):
        readers["cnn alone"] = index.read_cnn
    if peer is not None:
        from bench.vision_stages import load_peer

        pi = load_peer(peer)["index"]
        pi.load_model()
        pi.HOG_FALLBACK, pi.SEARCH = index.HOG_FALLBACK, index.SEARCH
        readers["peer reader"] = pi.read_code
        if hasattr(pi, "read_cnn"):
            readers["peer cnn alone"] = pi.read_cnn
    times: dict[str, list[float]] = {k: [] for k in readers}
    codes: dict[str, list[str | None]] = {k: [] for k in readers}
    for row in csv.DictReader(truth_csv.open(newline="")):
        img = cv2.imread(str(folder / row["image"]), cv2.IMREAD_COLOR)
        READS.clear()
        for card in detect(img, VisionModel()).cards:
            if card.face_up:
                for name, fn in readers.items():
                    t0 = time.process_time()
                    code = fn(img, card.polygon)
                    times[name].append(time.process_time() - t0)
                    codes[name].append(code)
    for name in readers:
        if name.startswith("peer "):
            same = sum(a == b for a, b in zip(codes[name], codes[name[5:]], strict=True))
            print(f"{name[5:]}: the same code as the peer's on {same} of {len(codes[name])} cards")
    return times


def score_rendered(n: int, size: tuple[int, int], seed: int = 3) -> Tally:
    """Rendered random tables, JPEG-compressed like a camera stream, detected with no calibration."""
    from controller.vision.evaluate import accuracy_frames

    total = Tally()
    for frame, _, tag in accuracy_frames(n, size, seed):
        ok, enc = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        READS.clear()
        det = detect(cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else frame.image, VisionModel())
        total.add(_rendered_tally(frame, det, tag))
    return total


def _rendered_tally(frame: object, det: Detection, tag: str) -> Tally:
    from controller.vision.evaluate import MIN_VISIBLE
    from controller.vision.render import Frame

    assert isinstance(frame, Frame)
    seen = [t for t in frame.cards if t.visible >= MIN_VISIBLE]
    row = {"image": tag, "n_cards": str(len(seen)), "n_face_up": str(sum(t.place.face_up for t in seen)),
           "n_face_down": str(sum(not t.place.face_up for t in seen)),
           "cards_up": " ".join(t.place.code for t in seen if t.place.face_up and t.index_visible >= 0.95),
           "board": " ".join(t.place.code for t in frame.cards
                             if t.place.zone == "board" and t.place.face_up)}
    pred = {"board_count": det.board_count(), "cards": [c.to_json() for c in det.cards]}
    return score_image(row, pred)


@dataclass(slots=True)
class CardTally:
    """Per-card figures of single-frame mode on rendered frames (truth quads from the renderer)."""

    frames: int = 0
    cards: int = 0  # truth cards at least MIN_VISIBLE visible
    found: int = 0  # of those, matched one-to-one to a detection at IoU >= MATCH_IOU
    face_ok: int = 0  # of the found, face up/down right
    detections: int = 0
    unmatched: int = 0  # detections matched to no truth card at all
    buried: int = 0  # truth cards less than MIN_VISIBLE visible (under others), not scored
    buried_found: int = 0  # of those, matched to a detection left over by the scored cards
    failures: list[str] = field(default_factory=list)

    def add(self, other: CardTally) -> None:
        for k in ("frames", "cards", "found", "face_ok", "detections", "unmatched", "buried", "buried_found"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.failures += other.failures

    def rates(self) -> dict[str, float | None]:
        return {"found": self.found / self.cards if self.cards else None,
                "face_of_matched": self.face_ok / self.found if self.found else None,
                "unmatched": self.unmatched / self.detections if self.detections else None}

    def line(self, name: str) -> str:
        r = self.rates()

        def pct(v: float | None) -> str:
            return "n/a" if v is None else f"{100 * v:.1f}%"

        return (f"{name:<16} frames {self.frames:>3} | found {pct(r['found'])} ({self.found}/{self.cards}) | "
                f"face right of matched {pct(r['face_of_matched'])} ({self.face_ok}/{self.found}) | "
                f"detections matching no card {self.unmatched}/{self.detections} | "
                f"buried cards found {self.buried_found}/{self.buried}")


MATCH_IOU = 0.5  # a detection is a truth card's when their quads overlap at least this (IoU)


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    if inter <= 0:
        return 0.0
    union = abs(cv2.contourArea(a)) + abs(cv2.contourArea(b)) - inter
    return float(inter / union) if union > 0 else 0.0


def _greedy_match(truths: list[np.ndarray], quads: list[np.ndarray], used: set[int]) -> dict[int, int]:
    """Truth index -> detection index, one-to-one, highest IoU first, IoU >= MATCH_IOU; detections in
    `used` are taken already (and those matched here are added)."""
    pairs = sorted(((quad_iou(t, q), ti, di) for ti, t in enumerate(truths) for di, q in enumerate(quads)
                    if di not in used), reverse=True)
    match: dict[int, int] = {}
    for iou, ti, di in pairs:
        if iou < MATCH_IOU:
            break
        if ti not in match and di not in used:
            match[ti] = di
            used.add(di)
    return match


def per_card_tally(frame: object, det: Detection, tag: str = "") -> CardTally:
    """Match the detections one-to-one to the truth cards at least MIN_VISIBLE visible (greedily, highest
    IoU first, IoU >= MATCH_IOU), then what is left to the cards less visible (a hole pair's card beneath,
    a muck pile's): those are neither scored nor, when found, counted as detections matching no card."""
    from controller.vision.evaluate import MIN_VISIBLE
    from controller.vision.render import Frame

    assert isinstance(frame, Frame)
    scored = [t for t in frame.cards if t.visible >= MIN_VISIBLE]
    buried = [t for t in frame.cards if 0 < t.visible < MIN_VISIBLE]
    quads = [c.polygon for c in det.cards]
    used: set[int] = set()
    match = _greedy_match([t.polygon for t in scored], quads, used)
    under = _greedy_match([t.polygon for t in buried], quads, used)
    t = CardTally(frames=1, detections=len(det.cards), unmatched=len(det.cards) - len(used),
                  buried=len(buried), buried_found=len(under))
    for ti, truth in enumerate(scored):
        t.cards += 1
        if ti not in match:
            t.failures.append(f"{tag} {truth.place.code} {truth.place.zone} up={truth.place.face_up} "
                              f"visible={truth.visible:.2f}: missed")
            continue
        t.found += 1
        ok = det.cards[match[ti]].face_up == truth.place.face_up
        t.face_ok += ok
        if not ok:
            seen = "up" if not truth.place.face_up else "down"
            t.failures.append(f"{tag} {truth.place.code} {truth.place.zone} up={truth.place.face_up} "
                              f"visible={truth.visible:.2f}: called {seen}")
    for di, c in enumerate(det.cards):
        if di not in used:
            t.failures.append(f"{tag} detection at {np.round(c.polygon.mean(axis=0)).astype(int).tolist()} "
                              f"up={c.face_up}: matches no card")
    return t


def wood_grain(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A multiplier field (H×W float32) that turns the renderer's smooth cloth into a wood-grain table:
    1 + 0.18 × broad wavy bands (a 60–150 mm period, planks, at the renderer's scale; bent by a slow
    wave) + 0.05 × a fine grain along them (3–6 mm) + 0.08 × slow blotches. The bands are what a real
    wood table shows a camera, and they fail the smooth-table test (single.smooth_table_share) as a real
    one does; a finer grain alone does not (the test's 32×24 thumbnail averages it out)."""
    w, h = size
    ang = rng.uniform(0, np.pi)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    u = x * np.cos(ang) + y * np.sin(ang)
    v = -x * np.sin(ang) + y * np.cos(ang)
    mm = w / 1000.0  # the renderer's table is ~1000 mm across the frame
    broad = rng.uniform(60, 150) * mm
    bend = rng.uniform(0.3, 1.0) * broad * np.sin(2 * np.pi * u / (w * rng.uniform(0.2, 0.5))
                                                  + rng.uniform(0, 2 * np.pi))
    bands = np.sin(2 * np.pi * (v + bend) / broad)
    fine = np.sin(2 * np.pi * (v + bend) / (rng.uniform(3, 6) * mm))
    blot = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return (1.0 + 0.18 * bands + 0.05 * fine + 0.08 * blot).astype(np.float32)


def per_card_frames(n: int, size: tuple[int, int], seed: int, tables: tuple[str, ...]
                    ) -> Iterator[tuple[str, object, str]]:
    """(table, frame, tag): n random hands (a new table look every 10 frames, hole cards exposed 15 % of
    the time as in `evaluate.accuracy_frames`), each rendered on every table of `tables` with the same
    cards, light and camera, JPEG q85."""
    from controller.vision.render import felt_texture, random_hand, random_light, random_look, render

    rng = np.random.default_rng(seed)
    look = random_look(rng)
    for i in range(n):
        if i and i % 10 == 0:
            look = random_look(rng)
        places = random_hand(rng, look.seats, p_exposed=0.15)
        light = random_light(rng)
        fseed = int(rng.integers(1 << 30))
        for table in tables:
            felt = None
            if table == "wood":
                cv2.setRNGSeed(fseed + 1)  # felt_texture draws its fine texture from OpenCV's generator
                felt = felt_texture(look, size, fseed + 1) \
                    * wood_grain(size, np.random.default_rng(fseed + 2))[:, :, None]
            elif table != "felt":
                raise ValueError(f"unknown table {table!r} (felt, wood)")
            frame = render(look, places, light, size, seed=fseed, felt=felt)
            ok, enc = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
            if ok:
                frame = replace(frame, image=cv2.imdecode(enc, cv2.IMREAD_COLOR))
            yield table, frame, f"{table} {size[0]}x{size[1]} seed{seed} frame{i}"


def score_per_card(n: int, sizes: list[tuple[int, int]], seed: int, tables: tuple[str, ...],
                   peer: str | None = None) -> tuple[dict[str, CardTally], dict[str, float]]:
    """Per table and size ("felt 640x480"), and per table over the sizes ("felt"); with `peer` (a commit),
    the same for that commit's single-frame detector (keys "peer felt", …), run on the same frames in
    the same process, and the CPU seconds of `find_cards` (with the smooth-table test) and of the whole
    `detect_single` of both, timed frame by frame in turn (the second dict: "find now", "find peer",
    "detect now", "detect peer", "frames")."""
    out: dict[str, CardTally] = {}
    times: dict[str, float] = {"frames": 0.0}
    ps = None
    if peer is not None:
        from bench.vision_stages import load_peer

        ps = load_peer(peer)["single"]
    from controller.vision import single

    def clock(key: str, fn: Callable[[], object]) -> object:
        t0 = time.process_time()
        got = fn()
        times[key] = times.get(key, 0.0) + time.process_time() - t0
        return got

    for size in sizes:
        for table, frame, tag in per_card_frames(n, size, seed, tables):
            img = frame.image  # type: ignore[attr-defined]
            runs = [("", single)] + ([("peer ", ps)] if ps is not None else [])
            if ps is not None and not times["frames"]:
                for _, mod in runs:  # warm-up: the first calls load models and fill caches
                    mod.detect_single(img)
            if int(times["frames"]) % 2:
                runs.reverse()  # each goes first every other frame
            for prefix, mod in runs:
                who = "peer" if prefix else "now"
                if ps is not None:
                    clock(f"find {who}", lambda m=mod, im=img: m.find_cards(
                        im, split=m.smooth_table_share(im) < m.FELT_SHARE))
                mod.READS.clear()
                det = clock(f"detect {who}", lambda m=mod, im=img: m.detect_single(im))
                t = per_card_tally(frame, det, prefix + tag)  # type: ignore[arg-type]
                out.setdefault(f"{prefix}{table} {size[0]}x{size[1]}", CardTally()).add(t)
                out.setdefault(prefix + table, CardTally()).add(t)
            times["frames"] += 1
    return out, times


def _print(tallies: Iterable[tuple[str, Tally]], worst: int) -> None:
    items = list(tallies)
    for name, t in items:
        print(t.line(name))
    every = [r for name, t in items if name == "all" or len(items) == 1 for r in t.rows]
    if worst:
        print("worst images:")
        for _, text in sorted(every, key=lambda r: -r[0])[:worst]:
            print("  " + text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, help="folder of photos with truth.csv")
    ap.add_argument("--truth", type=Path, help="truth CSV (default: REAL/truth.csv)")
    ap.add_argument("--rendered", type=int, default=0, help="number of rendered frames")
    ap.add_argument("--size", default="640x480")
    ap.add_argument("--worst", type=int, default=8)
    ap.add_argument("--per-card", type=int, default=0, metavar="N",
                    help="per-card figures on N rendered frames per size and table")
    ap.add_argument("--seed", type=int, default=21, help="seed of the per-card frames")
    ap.add_argument("--sizes", default="1296x972,640x480", help="frame sizes of the per-card frames")
    ap.add_argument("--tables", default="felt,wood", help="tables of the per-card frames (felt, wood)")
    ap.add_argument("--failures", action="store_true", help="list every per-card miss and error")
    ap.add_argument("--peer", help="per-card: also score and time this commit's single-frame detector "
                                   "(loaded from git as bench/vision_stages.py does) on the same frames; "
                                   "with --read-times, time this commit's reader on the same cards")
    ap.add_argument("--json", action="store_true", help="print the rates as one JSON line instead")
    ap.add_argument("--read-times", action="store_true", help="time the corner reader per face-up card")
    ap.add_argument("--no-hog-fallback", action="store_true",
                    help="the CNN alone: no HOG reader where the CNN is not confident (fewer wrong codes, "
                    "fewer cards read; docs/camera.md, sixth round)")
    ap.add_argument("--no-corner-search", action="store_true",
                    help="no single-corner frames where the quad's corner pairs give no code (the reader "
                    "before the eighth round; docs/camera.md)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    from controller.vision import index

    index.HOG_FALLBACK = not args.no_hog_fallback
    index.SEARCH = not args.no_corner_search
    if args.real is None and not args.rendered and not args.per_card:
        ap.error("give --real FOLDER, --rendered N and/or --per-card N")
    result: dict[str, dict[str, float | None]] = {}
    if args.real is not None:
        tallies = score_real(args.real, args.truth or args.real / "truth.csv")
        result.update({k: v.rates() for k, v in tallies.items()})
        if not args.json:
            _print(sorted(tallies.items(), key=lambda kv: (kv[0] != "all", kv[0])), args.worst)
        if args.read_times:
            for name, got in read_times(args.real, args.truth or args.real / "truth.csv",
                                        args.peer).items():
                ms = np.array(got) * 1000
                print(f"read per face-up card ({name}, CPU): median {np.median(ms):.2f} ms, "
                      f"p95 {np.percentile(ms, 95):.2f} ms, max {ms.max():.2f} ms ({len(ms)} cards)")
    if args.rendered:
        w, h = (int(v) for v in args.size.split("x"))
        t = score_rendered(args.rendered, (w, h))
        result["rendered"] = t.rates()
        if not args.json:
            _print([("render", t)], args.worst)
    if args.per_card:
        sizes = [(int(a), int(b)) for a, b in (v.split("x") for v in args.sizes.split(","))]
        cards, times = score_per_card(args.per_card, sizes, args.seed, tuple(args.tables.split(",")),
                                      args.peer)
        result.update({"per-card " + k: v.rates() for k, v in cards.items()})
        if not args.json:
            def order(kv: tuple[str, CardTally]) -> tuple[bool, bool, str]:
                peer = kv[0].startswith("peer")
                return peer, len(kv[0].split()) == 1 + peer, kv[0]

            for k, v in sorted(cards.items(), key=order):
                print(v.line(k))
                if args.failures and not k.startswith("peer") and len(k.split()) > 1:
                    print("\n".join("  " + f for f in v.failures))
            if args.peer:
                n = times["frames"]
                for what in ("find", "detect"):
                    now, old = 1000 * times[f"{what} now"] / n, 1000 * times[f"{what} peer"] / n
                    name = "find_cards" if what == "find" else "detect_single"
                    print(f"{name}: now {now:.2f} ms, peer ({args.peer}) {old:.2f} ms per frame "
                          f"({100 * (now / old - 1):+.1f} %; process CPU, {int(n)} frames)")
    if args.json:
        json.dump(result, sys.stdout)
        print()


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
