"""Hand timelines in the floor's memory: the same answers as before they were kept as JSON bytes, and few
objects for the garbage collector to walk at room size."""

from __future__ import annotations

import gc
import json
from typing import Any

from controller.floor.gcwatch import GcWatch
from controller.floor.replay import KEEP_HANDS, MAX_FRAMES, Timelines


def state(hand: int, phase: str = "betting", dealer: Any = "d1", n: int = 0) -> dict[str, Any]:
    return {"hand": hand, "phase": phase, "dealer": dealer, "pot": n,
            "seats": [{"seat": s, "stack": 100 + s + n, "cards": []} for s in range(1, 10)]}


def test_frames_state_at_dealer_and_live_answer_as_stored() -> None:
    tl = Timelines()
    assert tl.add("t1", state(1, n=0), 10.0) is None
    assert tl.add("t1", state(1, n=0), 10.5) is None  # the same state again is not a new frame
    tl.add("t1", state(1, n=1, dealer=""), 11.0)  # an empty dealer does not hide the one named before
    frames = tl.frames("t1", 1)
    assert frames is not None and [f["at"] for f in frames] == [10.0, 11.0]
    assert frames[1]["state"] == state(1, n=1, dealer="")
    assert tl.state_at("t1", 1, 10.9) == {"at": 10.0, "state": state(1, n=0)}
    assert tl.state_at("t1", 1, 10.96) == {"at": 11.0, "state": state(1, n=1, dealer="")}  # 50 ms slack
    assert tl.state_at("t1", 1, 1.0) == {"at": 10.0, "state": state(1, n=0)}  # before: the first frame
    assert tl.dealer("t1", 1) == "d1" and tl.dealer("t1", 2) is None and tl.dealer("t9", 1) is None
    assert tl.is_live("t1", 1)
    tl.add("t1", state(1, phase="settled", n=2), 12.0)
    assert not tl.is_live("t1", 1)
    finished = tl.add("t1", state(2, dealer=7), 20.0)
    assert finished is not None and finished[0] == 1 and len(finished[1]) == 3
    assert json.loads(json.dumps(finished[1])) == finished[1]  # what save_replay writes
    assert tl.dealer("t1", 2) == "7" and tl.is_live("t1", 2) and not tl.is_live("t1", 1)


def test_old_hands_leave_memory_and_a_stuck_hand_keeps_its_first_frame() -> None:
    tl = Timelines()
    for hand in range(1, KEEP_HANDS + 3):
        tl.add("t", state(hand), float(hand))
    assert tl.frames("t", 1) is None and tl.frames("t", KEEP_HANDS + 2) is not None
    for n in range(MAX_FRAMES + 5):
        tl.add("t", state(100, n=n), 1000.0 + n)
    frames = tl.frames("t", 100) or []
    assert len(frames) == MAX_FRAMES and frames[0]["state"]["pot"] == 0
    assert frames[-1]["state"]["pot"] == MAX_FRAMES + 4


def test_a_room_of_timelines_is_a_few_objects_for_the_collector() -> None:
    """250 tables x 3 hands x 60 states as dicts were ~600,000 tracked objects (a 400-550 ms full
    collection); as bytes they add about one object per hand."""
    tl = Timelines()
    gc.collect()
    before = len(gc.get_objects())
    for t in range(250):
        for hand in range(1, 4):
            for n in range(60):
                tl.add(f"t{t}", json.loads(json.dumps(state(hand, n=n))), float(n))
    gc.collect()
    assert len(gc.get_objects()) - before < 250 * 3 * 4


def test_gc_watch_counts_collections_and_keeps_the_longest() -> None:
    watch = GcWatch().install()
    try:
        gc.collect()
        gc.collect(0)
    finally:
        watch.remove()
    stats = watch.statistics()
    assert stats["collections"][2] >= 1 and stats["collections"][0] >= 1
    assert stats["max_ms"] >= 0.0 and stats["slow"] >= 0
    assert watch not in gc.callbacks


def test_the_floor_process_freezes_what_start_up_made() -> None:
    """serve() freezes start-up's objects once (no full collection walks them again) and keeps timing the
    collections after it."""
    from controller.floor.app import FloorService

    svc = FloorService.__new__(FloorService)  # only the collector part of a started service
    svc.gc = GcWatch().install()
    try:
        svc.freeze_startup()
        assert gc.get_freeze_count() > 0 and svc.gc in gc.callbacks
        assert svc.gc.slow == 0  # its own collection is not counted as a floor pause
    finally:
        gc.unfreeze()
        svc.gc.remove()
