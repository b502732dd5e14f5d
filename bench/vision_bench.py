"""Frames per second and accuracy of the card pipeline vs a plain global-threshold contour finder, one core.

The peer is the method of the classic open-source card detector (grayscale, blur, one global threshold,
findContours, 4-corner polygon approximation). Both get the same frames, the same calibration, and the
same face classifier and glyph reader on the quadrilaterals they find, so the table compares how cards
are found. Run: PYTHONPATH=. python bench/vision_bench.py [--frames 40] [--seed 7]

`--peer COMMIT --frames 500 --seed 2024` instead compares today's calibrated detector with the detector of
another commit (loaded from git as bench/vision_stages.py does) on the accuracy test's frames at 1296×972
(evaluate.accuracy_frames: ten frames per table), in the same run; a table whose calibration fails is left
out of both, and said.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: numpy's BLAS too, not only OpenCV
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import time

import cv2
import numpy as np

from controller.errors import UsageError
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
from controller.vision.evaluate import NEUTRAL, Score, accuracy_frames, calibrate_look, score_frame
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


def peer_accuracy(n: int, seed: int, commit: str) -> None:
    """Today's calibrated detector and `commit`'s on the same frames (as accuracy_frames draws them)."""
    from bench.vision_stages import _peer_model, load_peer  # here: only this mode needs git
    from controller.vision.render import random_hand, random_light, random_look, render

    pd = load_peer(commit)["detect"]
    size = (1296, 972)
    rng = np.random.default_rng(seed)
    now, peer = Score(), Score()
    cpu = {"now": 0.0, "peer": 0.0}
    skipped: list[str] = []
    model: VisionModel | None = None
    look = None
    for i in range(n):
        if i % 10 == 0:
            look = random_look(rng)
            try:
                model = calibrate_look(look, size, render(look, [], NEUTRAL, size).zones)
            except UsageError as exc:
                model = None
                skipped.append(f"table {i // 10} (frames {i}-{i + 9}): {exc}")
        assert look is not None
        frame = render(look, random_hand(rng, look.seats, p_exposed=0.15), random_light(rng), size,
                       seed=int(rng.integers(1 << 30)))
        if model is None:
            continue
        tag = f"frame{i}({look.felt},{look.back.colour}/{look.back.pattern})"
        runs = (("now", detect, model, now), ("peer", pd.detect, _peer_model(pd, model), peer))
        for name, fn, m, score in runs:
            t0 = time.process_time()
            det = fn(frame.image, m)
            cpu[name] += time.process_time() - t0
            score.add(score_frame(frame, det, tag))
    print(f"{n} frames 1296x972, seed {seed}, peer {commit}; left out: {skipped or 'none'}")
    for name, score in (("now", now), ("peer", peer)):
        print(f"{name:<5} frames {score.frames} cards {score.cards} exposed zones {score.exposed_zones} "
              f"clean {score.clean_zones} readable {score.readable}: "
              + ", ".join(f"{k} {v:.2%}" for k, v in score.rates().items())
              + f"; detect {1000 * cpu[name] / max(score.frames, 1):.1f} ms/frame (process CPU)")
    for line in sorted(set(now.failures) - set(peer.failures)):
        print("  now only: " + line)
    for line in sorted(set(peer.failures) - set(now.failures)):
        print("  peer only: " + line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--peer", help="compare with this commit's calibrated detector at 1296x972 instead")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.peer:
        peer_accuracy(args.frames, args.seed, args.peer)
        return
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
