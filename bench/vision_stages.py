"""Frames per second of each stage of single-frame detection on one core, against the felt-model detector.

Both run on the same rendered 640×480 frames in the same process. Run pinned to one core:
    taskset -c 0 env PYTHONPATH=. python bench/vision_stages.py [--frames 30] [--seed 7]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import time
from collections.abc import Callable

import cv2
import numpy as np

from controller.vision import single as s
from controller.vision.detect import VisionModel, detect_on_felt
from controller.vision.index import ReadCache, read_code
from controller.vision.render import random_frame


def _time(fn: Callable[[], object], repeat: int = 1) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t0) / repeat


def stages(frame: np.ndarray) -> dict[str, float]:
    """Seconds per stage for one frame (the stages of single.find_cards and detect_single)."""
    out: dict[str, float] = {}
    fh, fw = frame.shape[:2]
    scale = min(1.0, s.WORK_LONG / max(fh, fw))
    t0 = time.perf_counter()
    small = cv2.resize(frame, (round(fw * scale), round(fh * scale)), interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    out["1 scale + grey"] = time.perf_counter() - t0
    side = max(gray.shape)
    min_area = (s.MIN_LONG * side) ** 2 / s.CARD_ASPECT
    max_area = s.MAX_AREA * gray.shape[0] * gray.shape[1]
    t0 = time.perf_counter()
    s._components(gray, small, min_area, max_area)
    out["2 level cuts + card shapes"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    found, _ = s.find_cards(frame)
    total_find = time.perf_counter() - t0
    out["3 rest of find (refine, split touching)"] = max(total_find - out["1 scale + grey"]
                                                        - out["2 level cuts + card shapes"], 0.0)
    t0 = time.perf_counter()
    found = s._felt_cards(frame, found)
    out["4 felt-model merge"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    ups = [f.quad for f in found if s.is_face_up(s.face_features(frame, f.quad))]
    out["5 face up/down"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    for q in ups:
        read_code(frame, q)
    out["6 rank+suit (all face-up cards)"] = time.perf_counter() - t0
    out["_cards_up"] = float(len(ups))
    cache = ReadCache()
    for q in ups:
        cache.read(frame, q)
    t0 = time.perf_counter()
    for q in ups:  # the next frame of a steady table: every card is a cache hit
        cache.read(frame, q)
    out["_steady"] = time.perf_counter() - t0
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    frames = [random_frame(args.seed + i, (640, 480)).image for i in range(args.frames)]
    stages(frames[0])  # warm-up: first calls load the index model and allocate
    sums: dict[str, float] = {}
    for f in frames:
        for k, v in stages(f).items():
            sums[k] = sums.get(k, 0.0) + v
    old = sum(_time(lambda f=f: detect_on_felt(f, VisionModel())) for f in frames)
    n = len(frames)
    print(f"{n} rendered frames 640x480, one core (cv2.setNumThreads(1), OMP_NUM_THREADS=1)")
    print(f"{'stage':<42} {'ms/frame':>9} {'frames/s':>9}")
    find = 0.0
    for k in sorted(k for k in sums if not k.startswith("_")):
        ms = 1000 * sums[k] / n
        if not k.startswith("6"):
            find += ms
        print(f"{k:<42} {ms:9.2f} {1000 / ms if ms else float('inf'):9.1f}")
    print(f"{'find + orient (stages 1-5)':<42} {find:9.2f} {1000 / find:9.1f}")
    cards = sums["_cards_up"]
    if cards:
        per_card = 1000 * sums["6 rank+suit (all face-up cards)"] / cards
        print(f"{'rank+suit per face-up card':<42} {per_card:9.2f}")
        print(f"{'  same card next frame (read cache hit)':<42} {1000 * sums['_steady'] / cards:9.2f}")
    print(f"{'felt-model detector (e63a500 pipeline)':<42} {1000 * old / n:9.2f} {n / old:9.1f}")


if __name__ == "__main__":
    main()
