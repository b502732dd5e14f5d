"""Score `cardtable camera detect` in single-frame mode on real photos with truth, and on rendered frames.

Real photos: a folder of images and a truth CSV in the vision-dev format (image, n_cards, n_face_up,
n_face_down, cards_up, board). The figures are the issue's: cards found, face up/down right among found
cards, rank+suit among readable face-up cards, board count exact among images with a board; plus image
count exact, the codes reported that are not in the truth ("wrong codes"), a per-source line (source = the
file name up to the first underscore) and the two halves of docs/camera.md (A: the 1st, 3rd, ... image in
name order, used for tuning; B: the 2nd, 4th, ..., held out). `--read-times` adds the CPU time of the
corner reader per face-up card found (no cache), median and p95; pin it to one core (taskset -c 0).
Rendered: random tables (felt, back, light, perspective, JPEG) with exact truth, detected uncalibrated.

    PYTHONPATH=. python bench/vision_score.py --real ../shared/vision-dev [--truth FILE] [--worst 8]
        [--read-times] [--hog-fallback]
    PYTHONPATH=. python bench/vision_score.py --rendered 40 [--size 640x480]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
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


def read_times(folder: Path, truth_csv: Path) -> dict[str, list[float]]:
    """Process CPU seconds (one thread: pin it, and OpenCV is held to one) per face-up card found in the
    photos, uncached: the whole reader and, where the reader has one, its CNN alone."""
    from controller.vision import index

    index.load_model()
    readers = {"reader": index.read_code}
    if hasattr(index, "read_cnn"):
        readers["cnn alone"] = index.read_cnn
    times: dict[str, list[float]] = {k: [] for k in readers}
    for row in csv.DictReader(truth_csv.open(newline="")):
        img = cv2.imread(str(folder / row["image"]), cv2.IMREAD_COLOR)
        READS.clear()
        for card in detect(img, VisionModel()).cards:
            if card.face_up:
                for name, fn in readers.items():
                    t0 = time.process_time()
                    fn(img, card.polygon)
                    times[name].append(time.process_time() - t0)
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
    ap.add_argument("--json", action="store_true", help="print the rates as one JSON line instead")
    ap.add_argument("--read-times", action="store_true", help="time the corner reader per face-up card")
    ap.add_argument("--hog-fallback", action="store_true",
                    help="let the HOG reader read where the CNN is not confident (off by default since the "
                    "sixth round)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.hog_fallback:
        from controller.vision import index

        index.HOG_FALLBACK = True
    if args.real is None and not args.rendered:
        ap.error("give --real FOLDER and/or --rendered N")
    result: dict[str, dict[str, float | None]] = {}
    if args.real is not None:
        tallies = score_real(args.real, args.truth or args.real / "truth.csv")
        result.update({k: v.rates() for k, v in tallies.items()})
        if not args.json:
            _print(sorted(tallies.items(), key=lambda kv: (kv[0] != "all", kv[0])), args.worst)
        if args.read_times:
            for name, got in read_times(args.real, args.truth or args.real / "truth.csv").items():
                ms = np.array(got) * 1000
                print(f"read per face-up card ({name}, CPU): median {np.median(ms):.2f} ms, "
                      f"p95 {np.percentile(ms, 95):.2f} ms, max {ms.max():.2f} ms ({len(ms)} cards)")
    if args.rendered:
        w, h = (int(v) for v in args.size.split("x"))
        t = score_rendered(args.rendered, (w, h))
        result["rendered"] = t.rates()
        if not args.json:
            _print([("render", t)], args.worst)
    if args.json:
        json.dump(result, sys.stdout)
        print()


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
