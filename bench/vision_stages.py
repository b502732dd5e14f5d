"""Frames per second of each detection stage on one core, against the detector of another commit.

Both run in the same process on the same 640×480 frames: rendered tables calibrated like a real table
(the daemon's path: the felt model, and the empty-table reference), the same tables uncalibrated
(single-frame mode) and the committed real photos (tests/data/vision, scaled to 640×480, single-frame
mode). Every calibrated frame is cold: nothing is known from an earlier frame (no SceneMemory, no reused
felt fit), as for a camera's first frame or a table nobody has seen. The peer (`--peer`, default the
branch point with main) is loaded from git into its own package, so nothing of it is shared with today's
code; its calibrated stages are timed the same way, in the same run.

Run pinned to one core, and say the load (`uptime`) next to the figures:
    taskset -c 0 env PYTHONPATH=. python bench/vision_stages.py [--frames 20] [--seed 7] [--peer main]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import importlib
import inspect
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

from controller.vision import detect as d
from controller.vision import single as s
from controller.vision.evaluate import NEUTRAL, Score, calibrate_look, score_frame
from controller.vision.index import read_code
from controller.vision.render import Frame, random_hand, random_light, random_look, render

ROOT = Path(__file__).resolve().parents[1]
# CPU time of this process (one thread: OpenCV and BLAS are held to one): on a machine shared with other
# jobs, wall time counts their turns on the core too. --wall measures wall time instead.
CLOCK = time.process_time
PEER_MODULES = ("detect", "single", "index", "hog", "glyphs", "split", "orient")
Timer = dict[str, float]
Rendered = tuple[Frame, d.VisionModel, d.VisionModel]  # frame, felt-model calibration, with a reference


def load_peer(commit: str) -> dict[str, ModuleType]:
    """controller/vision/{detect,single,index,glyphs,…}.py of `commit` as a separate package `peer_vision`
    (the modules that exist at that commit)."""
    pkg = Path(tempfile.mkdtemp(prefix="peer_vision_")) / "peer_vision"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    names = []
    for name in PEER_MODULES:
        got = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:controller/vision/{name}.py"],
                             capture_output=True, text=True)
        if got.returncode:
            continue
        src = got.stdout
        for other in PEER_MODULES:
            src = src.replace(f"controller.vision.{other} ", f"peer_vision.{other} ")
            src = src.replace(f"from controller.vision import {other}\n",
                              f"from peer_vision import {other}\n")
        (pkg / f"{name}.py").write_text(src)
        names.append(name)
    # The trained index model and other data files of that commit sit beside its modules, as at home.
    (pkg / "data").mkdir()
    tree = ["git", "-C", str(ROOT), "ls-tree", "--name-only", commit, "controller/vision/data/"]
    listed = subprocess.run(tree, capture_output=True, text=True, check=True).stdout.split()
    for path in listed:
        blob = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{path}"], capture_output=True,
                              check=True).stdout
        (pkg / "data" / Path(path).name).write_bytes(blob)
    sys.path.insert(0, str(pkg.parent))
    return {name: importlib.import_module(f"peer_vision.{name}") for name in names}


def _t(out: Timer, key: str, fn: Callable[[], object]) -> object:
    t0 = CLOCK()
    r = fn()
    out[key] = out.get(key, 0.0) + CLOCK() - t0
    return r


def felt_stages(frame: np.ndarray, model: object, out: Timer, prefix: str, dm: ModuleType = d) -> Detection:
    """Stages of the batched calibrated pipeline (detect_on_felt) of module `dm` (today's detect, or a
    peer's that has it), cold."""
    zones = model.scaled_zones((frame.shape[1], frame.shape[0]))  # type: ignore[attr-defined]
    sc = _t(out, f"{prefix} 1 mask + blobs", lambda: dm._scene(frame, model))
    groups = _t(out, f"{prefix} 2 split clusters", lambda: dm.split_clusters(sc, sc.blobs))  # type: ignore[attr-defined]
    assert isinstance(groups, list)
    t0 = CLOCK()
    dm.orient_clusters(frame, sc, sc.blobs, groups, model, zones, read=False)  # type: ignore[attr-defined]
    face = CLOCK() - t0
    key = f"{prefix} 3 face up/down, zones, hidden faces"
    out[key] = out.get(key, 0.0) + face
    t0 = CLOCK()
    got = dm.orient_clusters(frame, sc, sc.blobs, groups, model, zones)  # type: ignore[attr-defined]
    # Face and read together, less the face alone (just timed on the same clusters): the read's share.
    key = f"{prefix} 4 rank+suit (glyphs)"
    out[key] = out.get(key, 0.0) + max(0.0, CLOCK() - t0 - face)
    return d.Detection(cards=tuple(c for g in got for c in g), card_long_px=sc.long / sc.scale)  # type: ignore[attr-defined]


Detection = d.Detection


def peer_felt_stages(pd: ModuleType, frame: np.ndarray, model: object, out: Timer) -> None:
    """The same stages of the peer's calibrated pipeline, cold: its batched path when it has one
    (`split_clusters`, as today's), else one cluster at a time (`_Scene.quads`, `_group_cards`)."""
    if hasattr(pd, "split_clusters") and hasattr(pd, "orient_clusters"):
        felt_stages(frame, model, out, "peer felt", pd)
        return
    zones = model.scaled_zones((frame.shape[1], frame.shape[0]))  # type: ignore[attr-defined]
    sc = _t(out, "peer felt 1 mask + blobs", lambda: pd._scene(frame, model))
    groups = []
    for blob in sc.blobs:  # type: ignore[attr-defined]
        quads = _t(out, "peer felt 2 split clusters", lambda b=blob: sc.quads(b))  # type: ignore[attr-defined]
        groups.append(pd._Group(quads=quads, blob=blob, alpha=np.zeros((0, 0), np.float32)))
    for g in groups:
        _t(out, "peer felt 3 face up/down, zones, hidden faces",
           lambda g=g: pd._group_cards(frame, g, sc, model, zones, read=False) if g.quads else ())


def single_stages(frame: np.ndarray, out: Timer, prefix: str, sm: ModuleType = s) -> int:
    """Stages of single-frame mode of module `sm` (today's single, or a peer's): the stages it lacks are
    not timed (a peer before the pile split has no stage 2b; its face test sees no occlusion order)."""
    key = f"{prefix} 1 find (level cuts, split)"
    smooth = _t(out, key, lambda: sm.smooth_table_share(frame) >= sm.FELT_SHARE)
    got = _t(out, key, lambda: sm.find_cards(frame, split=not smooth))
    assert isinstance(got, tuple)
    found, long = got
    # As detect_single calls it: since the sixth round with the level cuts' card size (when they found any).
    args = (long if found else None,) if "long" in inspect.signature(sm._felt_cards).parameters else ()
    found = _t(out, f"{prefix} 2 felt-model merge", lambda: sm._felt_cards(frame, found, bool(smooth), *args))
    assert isinstance(found, list)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if hasattr(sm, "split_piles"):
        found = _t(out, f"{prefix} 2b pile split (inner edge)", lambda: sm.split_piles(grey, found))
        assert isinstance(found, list)

    def faces() -> list[np.ndarray]:
        if hasattr(sm, "covers"):
            cover = sm.covers(found, grey)
        else:  # a peer whose face test knows no occlusion order
            cover = [sm._overlapping(found, i) for i in range(len(found))]
        return [f.quad for f, others in zip(found, cover, strict=True)
                if sm.is_face_up(sm.face_features(frame, f.quad, others))]

    ups = _t(out, f"{prefix} 3 face up/down", faces)
    assert isinstance(ups, list)
    _t(out, f"{prefix} 4 rank+suit (index model)", lambda: [read_code(frame, q) for q in ups])
    return len(ups)


def rendered_frames(n: int, size: tuple[int, int], seed: int, per_table: int = 5) -> Iterator[Rendered]:
    """Frames of random tables as `evaluate.accuracy_frames`, each with two calibrations: the felt model,
    and the same plus an empty-table reference taken under the frame's light (a fixed camera whose
    reference has followed the room's light)."""
    rng = np.random.default_rng(seed)
    look, model = None, None
    for i in range(n):
        if i % per_table == 0:
            look = random_look(rng)
            model = calibrate_look(look, size, render(look, [], NEUTRAL, size).zones)
        assert look is not None and model is not None
        places = random_hand(rng, look.seats, p_exposed=0.15)
        light = random_light(rng)
        fseed = int(rng.integers(1 << 30))
        frame = render(look, places, light, size, seed=fseed)
        empty = render(look, [], light, size, seed=fseed).image
        yield frame, model, replace(model, reference=d.learn_reference(empty))


def real_frames(n: int) -> list[np.ndarray]:
    paths = sorted((ROOT / "tests" / "data" / "vision").glob("*.jpg"))[:n]
    return [cv2.resize(cv2.imread(str(p)), (640, 480), interpolation=cv2.INTER_AREA) for p in paths]


def _peer_model(pd: ModuleType, model: d.VisionModel) -> object:
    back = pd.BackModel(paper=model.back.paper, hist=model.back.hist) if model.back else None
    return pd.VisionModel(zones=model.zones, frame_size=model.frame_size, card_long_px=model.card_long_px,
                          glyphs=model.glyphs, back=back, reference=model.reference)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--peer", default="main", help="commit whose detector is the peer (default: main)")
    ap.add_argument("--rounds", type=int, default=3, help="timed passes (interleaved, totals added)")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of process CPU time")
    args = ap.parse_args()
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    cv2.setNumThreads(1)
    peer = load_peer(args.peer)
    pd = peer["detect"]
    rendered = list(rendered_frames(args.frames, (640, 480), args.seed))
    real = real_frames(args.frames)
    n_r, n_p = len(rendered), len(real)
    # Warm-up: first calls load the index model, allocate and fill caches.
    fr0, m0, r0 = rendered[0]
    single_stages(fr0.image, {}, "w")
    felt_stages(fr0.image, m0, {}, "w")
    felt_stages(fr0.image, r0, {}, "w")
    peer_felt_stages(pd, fr0.image, _peer_model(pd, m0), {})
    t: Timer = {}
    scores = {"felt": Score(), "peer felt": Score(), "reference": Score(), "peer reference": Score()}
    for _ in range(args.rounds):
        for fr, model, ref_model in rendered:
            pm, prm = _peer_model(pd, model), _peer_model(pd, ref_model)
            felt_stages(fr.image, model, t, "felt")
            peer_felt_stages(pd, fr.image, pm, t)
            felt_stages(fr.image, ref_model, t, "reference")
            _t(t, "now felt: whole detect (calibrated)", lambda fr=fr, m=model: d.detect(fr.image, m))
            _t(t, "peer felt: whole detect (calibrated)", lambda fr=fr, m=pm: pd.detect(fr.image, m))
            _t(t, "now reference: whole detect", lambda fr=fr, m=ref_model: d.detect(fr.image, m))
            _t(t, "peer reference: whole detect", lambda fr=fr, m=prm: pd.detect(fr.image, m))
    for fr, model, ref_model in rendered:
        scores["felt"].add(score_frame(fr, d.detect(fr.image, model)))
        scores["reference"].add(score_frame(fr, d.detect(fr.image, ref_model)))
        scores["peer felt"].add(score_frame(fr, pd.detect(fr.image, _peer_model(pd, model))))
        scores["peer reference"].add(score_frame(fr, pd.detect(fr.image, _peer_model(pd, ref_model))))
    ps = peer["single"]
    for fr, _, _ in rendered:
        single_stages(fr.image, t, "single")
        single_stages(fr.image, t, "peer single", ps)
        s.READS.clear()
        _t(t, "now single: whole detect", lambda fr=fr: d.detect(fr.image, d.VisionModel()))
        ps.READS.clear()
        _t(t, "peer single: whole detect", lambda fr=fr: ps.detect_single(fr.image))
    for img in real:
        single_stages(img, t, "real")
        single_stages(img, t, "peer real", ps)
        s.READS.clear()
        _t(t, "now real: whole detect", lambda img=img: d.detect(img, d.VisionModel()))
        ps.READS.clear()
        _t(t, "peer real: whole detect", lambda img=img: ps.detect_single(img))
    # The daemon's video: each table's frame seen again (a steady table), with the scene memory.
    for fr, model, _ in rendered:
        mem = d.SceneMemory()
        d.detect(fr.image, model, mem)
        _t(t, "video: same frame again (memory)", lambda fr=fr, m=model, mem=mem: d.detect(fr.image, m, mem))
    print(f"{n_r} rendered 640x480 frames ({-(-n_r // 5)} tables, calibrated once each; calibrated stages "
          f"timed over {args.rounds} interleaved rounds), {n_p} real photos scaled to 640x480; one core "
          f"(cv2.setNumThreads(1), OMP_NUM_THREADS=1); peer = {args.peer}; "
          f"{'wall' if args.wall else 'process CPU'} time")
    print(f"{'stage':<52} {'ms/frame':>9} {'frames/s':>9}")

    def row(name: str, total: float, n: int) -> None:
        ms = 1000 * total / n
        print(f"{name:<52} {ms:9.2f} {1000 / ms if ms else float('inf'):9.1f}")

    calibrated = n_r * args.rounds
    for group, n in (("felt", calibrated), ("peer felt", calibrated), ("reference", calibrated),
                     ("single", n_r), ("peer single", n_r), ("real", n_p), ("peer real", n_p)):
        keys = sorted(k for k in t if k.startswith(group + " ") and k[len(group) + 1].isdigit())
        for k in keys:
            row(k, t[k], n)
        row(f"{group}: find + orient (stages 1-3)", sum(t[k] for k in keys if " 4 " not in k), n)
    for k, n in (("now felt: whole detect (calibrated)", calibrated),
                 ("peer felt: whole detect (calibrated)", calibrated),
                 ("now reference: whole detect", calibrated), ("peer reference: whole detect", calibrated),
                 ("video: same frame again (memory)", n_r), ("now single: whole detect", n_r),
                 ("peer single: whole detect", n_r), ("now real: whole detect", n_p),
                 ("peer real: whole detect", n_p)):
        row(k, t[k], n)
    for name, sc in scores.items():
        print(f"accuracy {name}: " + ", ".join(f"{k} {v:.1%}" for k, v in sc.rates().items())
              + f" ({sc.cards} cards, {sc.exposed_zones} exposed zones, {sc.clean_zones} clean zones)")


if __name__ == "__main__":
    main()
