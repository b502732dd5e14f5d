"""The simulator's virtual camera: cards by zone → rendered frames → the real pipeline → events."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.core.events import BoardCountEvent, Event, Exposed
from controller.vision.render import TableLook
from controller.vision.virtual import TableCards, VirtualCamera

ROOT = Path(__file__).resolve().parents[2]


def test_virtual_camera_reports_exposed_hole_card_and_board_count() -> None:
    state: dict[str, list[tuple[str, bool]]] = {
        "seat1": [("Kd", False), ("Ah", True)],
        "seat3": [("7c", False), ("7d", False)],
        "board": [("2s", True), ("9h", True), ("Jc", True)],
        "burn": [("4s", False)],
    }

    def current() -> TableCards:
        return state

    cam = VirtualCamera(current, look=TableLook(felt="green"), size=(1296, 972), seed=3)
    ticks = iter(range(10_000))
    source = cam.source(fps=50, clock=lambda: float(next(ticks)))
    events: list[Event] = []

    async def main() -> None:
        task = asyncio.create_task(source.run(events.append))
        await asyncio.sleep(2.5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    exposed = [e for e in events if isinstance(e, Exposed)]
    boards = [e for e in events if isinstance(e, BoardCountEvent)]
    assert [(e.zone, e.card) for e in exposed] in ([("seat1", "Ah")], [("seat1", None)])
    assert [b.count for b in boards] == [3]
    assert source.statistics()["frames"] >= 2


def test_camera_route_sees_board_and_exposure_in_lock_step() -> None:
    from controller.core.events import CardSeen, DeckEvent, HandStart
    from controller.vision.virtual import CameraRoute

    route = CameraRoute(size=(1296, 972), seed=5)
    got: list[Event] = []
    route.bind(got.append)
    deck = DeckEvent(t=0.0, id="d1", cards={"0a01": "Ah", "0a02": "Kd"})

    async def play() -> list[int]:
        counts = []
        for ev in (deck, HandStart(t=1.0, button=1),
                   CardSeen(t=2.0, zone="seat1", uid="0a01"), CardSeen(t=2.1, zone="seat1", uid="0a02"),
                   CardSeen(t=3.0, zone="board", card="2s"), CardSeen(t=3.1, zone="board", card="9h"),
                   CardSeen(t=3.2, zone="board", card="Jc")):
            counts.append(await route.after(ev))
        assert route.accepts(Exposed(t=4.0, zone="seat1", uid="0a01"))
        counts.append(await route.send(Exposed(t=4.0, zone="seat1", uid="0a01")))
        return counts

    counts = asyncio.run(play())
    assert sum(counts) == len(got)  # what the route says it emitted is what it emitted: lock-step holds
    boards = [e.count for e in got if isinstance(e, BoardCountEvent)]
    assert boards and boards[-1] == 3
    exposed = [e for e in got if isinstance(e, Exposed)]
    assert [(e.zone, e.card) for e in exposed] in ([("seat1", "Ah")], [("seat1", None)])


def test_simulate_with_camera_runs_the_vision_path(tmp_path: Path) -> None:
    log = tmp_path / "sim.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-m", "controller", "simulate", "--hands", "3", "--seats", "6",
                          "--camera", "--seed", "3", "--json", "--log", str(log)],
                         capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    assert summary["type"] == "summary" and summary["hands"] == 3
    camera_events = [json.loads(line) for line in log.read_text().splitlines() if '"source":"camera"' in line]
    assert any(e["type"] == "board_count" for e in camera_events)


def test_camera_route_draws_every_seat_of_the_simulated_table() -> None:
    """A 9-seat simulation needs a 9-seat picture: cards in seat7…seat9 were never drawn with the default
    6-seat look, so their showdown exposures went unseen (false MUCKED_WINNER on clean hands)."""
    from controller.vision.virtual import CameraRoute

    route = CameraRoute(seats=9, size=(640, 480))
    assert route.camera.look.seats == 9
    assert {"seat7", "seat8", "seat9"} <= set(route.camera.model.zones)


@pytest.fixture(scope="module")
def small_table() -> tuple[dict[str, list[tuple[str, bool]]], VirtualCamera]:
    """A 640×480 virtual camera over a state the tests change (calibrated once: that is the slow part)."""
    state: dict[str, list[tuple[str, bool]]] = {}
    return state, VirtualCamera(lambda: state, look=TableLook(felt="green"), size=(640, 480), seed=3)


def _deal(state: dict[str, list[tuple[str, bool]]]) -> None:
    state.clear()
    state.update({"seat1": [("Kd", False), ("Ah", False)],
                  "board": [("2s", True), ("9h", True), ("Jc", True)]})


def test_still_table_gives_the_same_picture_and_a_change_a_new_one(
        small_table: tuple[dict[str, list[tuple[str, bool]]], VirtualCamera]) -> None:
    state, cam = small_table
    _deal(state)
    first = cam.frame()
    assert cam.frame() is first  # nothing changed: no second render (the simulator's costliest step)
    state["board"] = [*state["board"], ("5d", True)]
    turned = cam.frame()
    assert turned is not first and turned.shape == first.shape
    # The cards that stayed lie exactly where they lay: offsets come from the card, not from a draw.
    seat = (slice(300, 480), slice(0, 320))
    assert float(abs(turned[seat].astype(int) - first[seat].astype(int)).mean()) < 4.0
    cam.vary = True
    try:
        assert cam.frame() is not cam.frame()  # vary: new light and noise every frame
    finally:
        cam.vary = False


def test_scene_memory_reuses_steady_clusters_and_redoes_a_changed_one(
        small_table: tuple[dict[str, list[tuple[str, bool]]], VirtualCamera]) -> None:
    from controller.vision.detect import SceneMemory, detect

    state, cam = small_table
    _deal(state)
    mem = SceneMemory()
    cold = detect(cam.frame(), cam.model, mem)
    misses = mem.misses
    again = detect(cam.frame(), cam.model, mem)
    assert mem.misses == misses and mem.hits == misses  # every cluster remembered
    seen = [(c.zone, c.face_up, c.card) for c in cold.cards]
    assert [(c.zone, c.face_up, c.card) for c in again.cards] == seen
    state["seat1"] = [("Kd", False), ("Ah", True)]  # the hole card turned up: its cluster is found again
    turned = detect(cam.frame(), cam.model, mem)
    assert mem.misses == misses + 1
    assert ("seat1", True) in {(c.zone, c.face_up) for c in turned.cards}
    assert turned.board_count() == cold.board_count() == 3
