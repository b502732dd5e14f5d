"""Frames per second and accuracy of the card pipeline vs a plain global-threshold contour finder, one core.

The peer is the method of the classic open-source card detector (grayscale, blur, one global threshold,
findContours, 4-corner polygon approximation). Both get the same frames, the same calibration, and the
same face classifier and glyph reader on the quadrilaterals they find, so the table compares how cards
are found. Run: PYTHONPATH=. python bench/vision_bench.py [--frames 40] [--seed 7]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: numpy's BLAS too, not only OpenCV
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import time

import cv2
import numpy as np

from controller.vision.detect import (
    CARD_ASPECT,
    FALLBACK_LONG,
    DetectedCard,
    Detection,
    VisionModel,
    _zone_of,
    detect,
    face_stats,
    is_face_up,
    portrait,
)
from controller.vision.evaluate import Score, accuracy_frames, score_frame
from controller.vision.glyphs import read_index

BKG_THRESH = 60  # the classic detector: threshold = background sample + 60


def global_threshold_detect(frame: np.ndarray, model: VisionModel) -> Detection:
    """Grayscale, 5×5 blur, one global threshold, contours with 4 corners of card size."""
    h, w = frame.shape[:2]
    gray = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    bkg = int(gray[h // 100, w // 2])  # the classic method samples the background at the top centre
    _, thresh = cv2.threshold(gray, min(bkg + BKG_THRESH, 250), 255, cv2.THRESH_BINARY)
    contours, hier = cv2.findContours(thresh, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    long = model.card_long_at((w, h)) or FALLBACK_LONG * h
    area = long * long / CARD_ASPECT
    quads = []
    for i, c in enumerate(contours):
        if hier[0][i][3] != -1 or not 0.5 * area < cv2.contourArea(c) < 2.0 * area:
            continue
        approx = cv2.approxPolyDP(c, 0.01 * cv2.arcLength(c, True), True)
        if len(approx) == 4:
            quads.append(portrait(approx.reshape(4, 2).astype(np.float32)))
    zones = model.scaled_zones((w, h))
    cards = []
    for q in quads:
        paper, hist, _ = face_stats(frame, q, [])
        up = is_face_up(paper, hist, model.back)
        code = read_index(frame, q, [], model.glyphs) if up else None
        cards.append(DetectedCard(polygon=q, face_up=up, paper=paper, card=code, zone=_zone_of(q, zones)))
    return Detection(cards=tuple(cards), card_long_px=long)


def bench(n: int, size: tuple[int, int], seed: int) -> list[tuple[str, float, Score]]:
    data = list(accuracy_frames(n, size, seed))
    rows = []
    for name, fn in (("cardtable", detect), ("global-threshold", global_threshold_detect)):
        score = Score()
        elapsed = 0.0
        for frame, model, tag in data:
            t0 = time.process_time()  # CPU time: on a shared machine wall time counts others' turns
            det = fn(frame.image, model)
            elapsed += time.process_time() - t0
            score.add(score_frame(frame, det, tag))
        rows.append((name, n / elapsed, score))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    head = (f"{'resolution':<10} {'method':<17} {'fps':>6} {'found':>6} {'face':>6} {'board':>6} "
            f"{'exposed':>8} {'false':>6} {'rank+suit':>9} {'misread':>8}")
    print(f"{args.frames} frames per resolution, one core (cv2.setNumThreads(1)), process CPU time; "
          "same frames for both methods")
    print(head)
    print("-" * len(head))
    for size in ((640, 480), (1296, 972)):
        for name, fps, s in bench(args.frames, size, args.seed):
            r = s.rates()
            print(f"{size[0]}x{size[1]:<6} {name:<17} {fps:6.1f} {r['found']:6.1%} {r['face']:6.1%} "
                  f"{r['board']:6.1%} {r['exposed']:8.1%} {r['false_exposed']:6.2%} {r['rank_suit']:9.1%} "
                  f"{r['misread']:8.1%}")
    print("found/face: per visible card (missed = wrong); board: frames with the exact count; exposed: zones "
          "with a face-up card found; false: clean zones reported exposed; rank+suit: face-up cards with a "
          "visible index read correctly")


if __name__ == "__main__":
    main()
