"""The calibrated path's batched stages (split.py, orient.py) against the per-card functions they replace."""

from __future__ import annotations

import numpy as np
import pytest

from controller.vision import detect as d
from controller.vision import orient, split
from controller.vision.render import CardPlace, Lighting, TableLook, render, seat_positions

SIZE = (1296, 972)


@pytest.fixture(scope="module")
def hand(green_table: TableLook) -> np.ndarray:
    """Hole pairs (one with a card turned up), a three-card board and a muck pile of four."""
    cards = []
    for seat, up in (("seat1", True), ("seat2", False), ("seat4", False)):
        x, y, ang = seat_positions(6)[seat]
        r = np.deg2rad(ang)
        cards += [CardPlace(code="8h", face_up=up, zone=seat, cx=x, cy=y, angle=ang),
                  CardPlace(code="3s", face_up=False, zone=seat, cx=x + 24 * np.cos(r), cy=y + 24 * np.sin(r),
                            angle=ang + 5)]
    cards += [CardPlace(code=c, face_up=True, zone="board", cx=420 + 70 * i, cy=375) for i, c in
              enumerate(("Ah", "Kd", "7c"))]
    cards += [CardPlace(code=c, face_up=False, zone="muck", cx=595 + dx, cy=675 + dy, angle=a)
              for c, dx, dy, a in (("2c", -20, 0, -30), ("3c", 5, -8, 10), ("4c", 18, 6, 35),
                                   ("5c", 0, 4, -5))]
    return render(green_table, cards, Lighting(gain=0.9, noise=3), SIZE, seed=4).image


def test_face_stats_of_all_cards_at_once_equal_face_stats(hand: np.ndarray,
                                                          green_model: d.VisionModel) -> None:
    sc = d._scene(hand, green_model)
    groups = d.split_clusters(sc, sc.blobs)
    quads = [q for g in groups for q in g]
    group = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    assert len(quads) >= 10 and any(len(g) >= 2 for g in groups)
    got = orient.face_stats_all(hand, np.asarray(quads, np.float32), group, hist=True)
    assert got.hist is not None
    for i, q in enumerate(quads):
        others = [quads[j] for j in range(len(quads)) if group[j] == group[i] and j != i]
        paper, hist, visible = d.face_stats(hand, q, others)
        # One remap of all cards samples as warpPerspective of each (a pixel in thousands may come out one
        # grey level apart: the float maps round to the 1/32-pixel grid on their own).
        n = visible * (d.CANON[0] - 10) * (d.CANON[1] - 12)
        assert got.visible[i] == pytest.approx(visible, abs=1e-6)
        assert got.paper[i] == pytest.approx(paper, abs=2.5 / max(n, 1))
        assert np.abs(got.hist[i] - hist).sum() <= 4.5 / max(n, 1)


def test_pair_scores_in_closed_form_equal_the_scores_of_each_pair(hand: np.ndarray,
                                                                  green_model: d.VisionModel) -> None:
    sc = d._scene(hand, green_model)
    blobs = [b for b in sc.blobs if d._as_single(b, sc.long) is None]
    short = sc.long / d.CARD_ASPECT
    tol = max(1.5, 0.06 * short)
    probe = split._Probe(minch=sc.minch(), scale=sc.scale, mm=short / sc.scale / 63.0)
    ref = np.array([split._white(sc.minch(), b, sc.scale) for b in blobs], np.float32)
    v, u1, u2, cb = split._corners(blobs, short)
    arr, hb = split._proposals(v, u1, u2, cb, probe, ref, short, sc.long)
    keep = split._inside(arr, split._labels(blobs, sc.mask.shape), hb)
    g = split._Groups.make(blobs, arr[keep], hb[keep], probe, ref, tol, short, sc.mask)
    pairs = g._pairs()
    checked = 0
    for b in range(len(blobs)):
        n = int(g.valid[b].sum())
        sets = [[i, j] for i in range(n) for j in range(i + 1, n)]
        if sets:
            direct = g.scores(split._rows(sets, g.valid.shape[1]), b)
            assert np.allclose([pairs[b, i, j] for i, j in sets], direct, atol=1e-4)
            checked += len(sets)
    assert checked >= 20


def test_corner_cutting_and_portrait_order_equal_detect() -> None:
    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(3, 12))
        ang = np.sort(rng.random(n)) * 2 * np.pi
        radius = rng.uniform(20, 60, (n, 1))
        poly = (np.stack([np.cos(ang), np.sin(ang)], 1) * radius + 100).astype(np.float32)
        assert np.allclose(split.cut_corners(poly, 15.0), d._cut_short_edges(poly.copy(), 15.0), atol=1e-3)
        quad = rng.uniform(0, 100, (4, 2)).astype(np.float32)
        assert np.allclose(split.portraits(quad[None])[0], d.portrait(quad))


def test_zones_from_the_label_image_equal_zone_of() -> None:
    zones = {"a": np.float32([[0, 0], [60, 0], [60, 60], [0, 60]]),
             "b": np.float32([[40, 40], [120, 40], [120, 120], [40, 120]])}  # overlaps a: a wins there
    rng = np.random.default_rng(2)
    quads = (rng.uniform(0, 140, (300, 1, 2)) + rng.uniform(-12, 12, (300, 4, 2))).astype(np.float32)
    got = orient.zones_of(quads, zones, (160, 160))
    assert got == [d._zone_of(q, zones) for q in quads]
    assert {"a", "b", None} <= set(got)

