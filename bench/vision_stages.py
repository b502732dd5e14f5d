"""Frames per second of each detection stage on one core, against the detector of an earlier commit.

Both run in the same process on the same 640×480 frames: rendered tables (calibrated like a real table,
the daemon's path, and uncalibrated, single-frame mode) and the committed real photos (tests/data/vision,
scaled to 640×480, single-frame mode). The peer is loaded from git (`--peer COMMIT`, default the commit
before issue #18's speed work) into its own package, so nothing of it is shared with today's code.

Run pinned to one core, and say the load (`uptime`) next to the figures:
    taskset -c 0 env PYTHONPATH=. python bench/vision_stages.py [--frames 20] [--seed 7] [--peer 8401ec8]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

from controller.vision import detect as d
from controller.vision import single as s
from controller.vision.evaluate import accuracy_frames
from controller.vision.index import read_code

ROOT = Path(__file__).resolve().parents[1]
# CPU time of this process (one thread: OpenCV and BLAS are held to one): on a machine shared with other
# jobs, wall time counts their turns on the core too. --wall measures wall time instead.
CLOCK = time.process_time
PEER_MODULES = ("detect", "single", "index", "glyphs")
Timer = dict[str, float]


def load_peer(commit: str) -> dict[str, ModuleType]:
    """controller/vision/{detect,single,index,glyphs}.py of `commit` as a separate package `peer_vision`."""
    pkg = Path(tempfile.mkdtemp(prefix="peer_vision_")) / "peer_vision"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name in PEER_MODULES:
        src = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:controller/vision/{name}.py"],
                             capture_output=True, text=True, check=True).stdout
        for other in PEER_MODULES:
            src = src.replace(f"controller.vision.{other} ", f"peer_vision.{other} ")
        (pkg / f"{name}.py").write_text(src)
    sys.path.insert(0, str(pkg.parent))
    return {name: importlib.import_module(f"peer_vision.{name}") for name in PEER_MODULES}


def _t(out: Timer, key: str, fn: Callable[[], object]) -> object:
    t0 = CLOCK()
    r = fn()
    out[key] = out.get(key, 0.0) + CLOCK() - t0
    return r


def felt_stages(frame: np.ndarray, model: d.VisionModel, out: Timer) -> int:
    """Stages of the calibrated pipeline (detect_on_felt), cold: nothing known from earlier frames."""
    zones = model.scaled_zones((frame.shape[1], frame.shape[0]))
    sc = _t(out, "felt 1 mask + blobs", lambda: d._scene(frame, model))
    assert isinstance(sc, d._Scene)
    groups = []
    for blob in sc.blobs:
        quads = _t(out, "felt 2 split clusters", lambda b=blob: sc.quads(b))
        assert isinstance(quads, list)
        groups.append(d._Group(quads=quads, blob=blob, alpha=np.zeros((0, 0), np.float32)))
    cards = 0
    before = out.get("felt 3 face up/down", 0.0)
    for g in groups:
        got = _t(out, "felt 3 face up/down",
                 lambda g=g: d._group_cards(frame, g, sc, model, zones, read=False))
        assert isinstance(got, tuple)
        cards += sum(c.face_up for c in got)
    t0 = CLOCK()
    for g in groups:
        d._group_cards(frame, g, sc, model, zones)
    # Face and read together, less the face alone just measured: the read's own share.
    out["felt 4 rank+suit (glyphs)"] = out.get("felt 4 rank+suit (glyphs)", 0.0) + max(
        0.0, CLOCK() - t0 - (out["felt 3 face up/down"] - before))
    return cards


def single_stages(frame: np.ndarray, out: Timer, prefix: str) -> int:
    key = f"{prefix} 1 find (level cuts, split)"
    smooth = _t(out, key, lambda: s.smooth_table_share(frame) >= s.FELT_SHARE)
    found = _t(out, key, lambda: s.find_cards(frame, split=not smooth)[0])
    assert isinstance(found, list)
    found = _t(out, f"{prefix} 2 felt-model merge", lambda: s._felt_cards(frame, found, bool(smooth)))
    assert isinstance(found, list)
    ups = _t(out, f"{prefix} 3 face up/down",
             lambda: [f.quad for f in found if s.is_face_up(s.face_features(frame, f.quad))])
    assert isinstance(ups, list)
    _t(out, f"{prefix} 4 rank+suit (index model)", lambda: [read_code(frame, q) for q in ups])
    return len(ups)


def real_frames(n: int) -> list[np.ndarray]:
    paths = sorted((ROOT / "tests" / "data" / "vision").glob("*.jpg"))[:n]
    return [cv2.resize(cv2.imread(str(p)), (640, 480), interpolation=cv2.INTER_AREA) for p in paths]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--peer", default="8401ec8", help="commit whose detector is the peer")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of process CPU time")
    args = ap.parse_args()
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    cv2.setNumThreads(1)
    peer = load_peer(args.peer)
    rendered = list(accuracy_frames(args.frames, (640, 480), args.seed, frames_per_table=5))
    real = real_frames(args.frames)
    n_r, n_p = len(rendered), len(real)
    # Warm-up: first calls load the index model, allocate and fill caches.
    single_stages(rendered[0][0].image, {}, "w")
    felt_stages(rendered[0][0].image, rendered[0][1], {})
    t: Timer = {}
    for fr, model, _ in rendered:
        felt_stages(fr.image, model, t)
        single_stages(fr.image, t, "single")
    for img in real:
        single_stages(img, t, "real")
    # The daemon's video: each table's frame seen again (a steady table), with the scene memory.
    for fr, model, _ in rendered:
        mem = d.SceneMemory()
        d.detect(fr.image, model, mem)
        _t(t, "video: same frame again (memory)", lambda fr=fr, m=model, mem=mem: d.detect(fr.image, m, mem))
    # Peers, same frames, same process.
    for fr, model, _ in rendered:
        pmodel = peer["detect"].VisionModel(zones=model.zones, frame_size=model.frame_size,
                                            card_long_px=model.card_long_px, glyphs=model.glyphs,
                                            back=peer["detect"].BackModel(paper=model.back.paper,
                                                                          hist=model.back.hist)
                                            if model.back else None)
        _t(t, "peer felt: whole detect (calibrated)",
           lambda fr=fr, pm=pmodel: peer["detect"].detect(fr.image, pm))
        peer["single"].READS.clear()
        _t(t, "peer single: whole detect", lambda fr=fr: peer["single"].detect_single(fr.image))
    for img in real:
        peer["single"].READS.clear()
        _t(t, "peer real: whole detect", lambda img=img: peer["single"].detect_single(img))
    for fr, model, _ in rendered:
        s.READS.clear()
        _t(t, "now single: whole detect", lambda fr=fr: d.detect(fr.image, d.VisionModel()))
        _t(t, "now felt: whole detect (calibrated)", lambda fr=fr, m=model: d.detect(fr.image, m))
    for img in real:
        s.READS.clear()
        _t(t, "now real: whole detect", lambda img=img: d.detect(img, d.VisionModel()))
    print(f"{n_r} rendered 640x480 frames ({n_r // 5} tables, calibrated once each), {n_p} real photos "
          f"scaled to 640x480; one core (cv2.setNumThreads(1), OMP_NUM_THREADS=1); peer = {args.peer}; "
          f"{'wall' if args.wall else 'process CPU'} time")
    print(f"{'stage':<46} {'ms/frame':>9} {'frames/s':>9}")

    def row(name: str, total: float, n: int) -> None:
        ms = 1000 * total / n
        print(f"{name:<46} {ms:9.2f} {1000 / ms if ms else float('inf'):9.1f}")

    for group, n in (("felt", n_r), ("single", n_r), ("real", n_p)):
        keys = sorted(k for k in t if k.startswith(group + " "))
        for k in keys:
            row(k, t[k], n)
        find = sum(t[k] for k in keys if " 4 " not in k)
        row(f"{group}: find + orient (stages 1-3)", find, n)
    for k in ("now felt: whole detect (calibrated)", "peer felt: whole detect (calibrated)",
              "video: same frame again (memory)", "now single: whole detect", "peer single: whole detect",
              "now real: whole detect", "peer real: whole detect"):
        row(k, t[k], n_p if "real" in k else n_r)


if __name__ == "__main__":
    main()
