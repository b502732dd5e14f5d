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


def test_scores_over_pixel_kinds_equal_the_scores_over_pixels(hand: np.ndarray,
                                                              green_model: d.VisionModel) -> None:
    """Masks grouped by pixel kind (with counts) score every single, pair and set bit for bit as the masks
    of every pixel (the sums are whole numbers)."""
    from dataclasses import replace

    sc = d._scene(hand, green_model)
    blobs = [b for b in sc.blobs if d._as_single(b, sc.long) is None]
    short = sc.long / d.CARD_ASPECT
    probe = split._Probe(minch=sc.minch(), scale=sc.scale, mm=short / sc.scale / 63.0)
    ref = np.array([split._white(sc.minch(), b, sc.scale) for b in blobs], np.float32)
    arr, hb = split._proposals(*split._corners(blobs, short), probe, ref, short, sc.long)
    keep = split._inside(arr, split._labels(blobs, sc.mask.shape), hb)
    g = split._Groups.make(blobs, arr[keep], hb[keep], probe, ref, max(1.5, 0.06 * short), short, sc.mask)
    masks, target, weight = split._pixel_masks(blobs, g.quads, g.valid)
    plain = replace(g, masks=masks, target=target, weight=weight)
    assert g.masks.shape[2] * 10 < masks.shape[2]  # far fewer kinds than pixels
    assert np.array_equal(g._singles(), plain._singles())
    assert np.array_equal(g._pairs(), plain._pairs())
    rng = np.random.default_rng(3)
    sel = (rng.random((len(blobs), 40, g.valid.shape[1])) < 0.4).astype(np.float32)
    assert np.array_equal(g.scores(sel), plain.scores(sel))
    assert g.choose(short) == plain.choose(short)


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



def test_greedy_outline_on_bit_sets_equals_detect() -> None:
    rng = np.random.default_rng(8)
    for _ in range(300):
        h, n = int(rng.integers(1, 12)), int(rng.integers(1, 150))
        explains = rng.random((h, n)) < rng.uniform(0.05, 0.6)
        centres = rng.uniform(0, 60, (h, 2)).astype(np.float32)
        if h > 2 and rng.random() < 0.3:
            explains[1] = explains[0]  # equal gains: the first is picked
        short = float(rng.uniform(5, 40))
        assert split.greedy_outline(explains, centres, short) == d._greedy_outline(explains, centres, short)


def test_table_search_on_lists_equals_drop_swap_search() -> None:
    rng = np.random.default_rng(9)
    for _ in range(300):
        h = int(rng.integers(1, 9))
        singles = rng.normal(0.3, 0.3, h).astype(np.float32)
        pairs = rng.normal(0.4, 0.3, (h, h)).astype(np.float32)
        pairs = np.where(np.eye(h, dtype=bool), -np.inf, (pairs + pairs.T) / 2).astype(np.float32)
        if rng.random() < 0.3:
            singles[:] = singles[0]  # ties
        table = split._Table(singles.tolist(), pairs.tolist())
        for start in ([], [int(rng.integers(h))], [0, h - 1] if h > 1 else [0]):
            ref = d.drop_swap_search(list(start), table.score,
                                     lambda rest, t=table: np.array(t.with_each(rest)))
            assert table.local_search(list(start)) == ref


def test_inner_edges_per_cluster_equal_the_padded_computation() -> None:
    rng = np.random.default_rng(10)
    nb, h, t = 4, 5, 12
    counts = [30, 0, 80, 55]
    pts = np.full((nb, max(counts), 2), split.FAR, np.float32)
    for b, c in enumerate(counts):
        pts[b, :c] = rng.uniform(0, 100, (c, 2))
    px, py = (rng.uniform(0, 100, (nb, h, 4, t)).astype(np.float32) for _ in range(2))
    edge = rng.random((nb, h, 4, t)) < 0.3
    bi, hi, si, ti = np.nonzero(edge)
    ex, ey = px[bi, hi, si, ti], py[bi, hi, si, ti]
    dx, dy = pts[bi, :, 0] - ex[:, None], pts[bi, :, 1] - ey[:, None]
    far = (dx * dx + dy * dy).min(axis=1, initial=np.inf) > (2 * 4.0) ** 2
    ref = np.bincount(bi * h + hi, far, minlength=nb * h).reshape(nb, h).astype(np.float32)
    assert np.array_equal(split._inner(edge, px, py, pts, counts, 4.0), ref)


def test_row_order_statistic_equals_partition() -> None:
    rng = np.random.default_rng(11)
    for k, n in ((1, 10), (20, 3500), (300, 40)):
        flat = rng.integers(0, 256, (k, n), dtype=np.uint8)
        flat[0] = 7
        for q in (0, n // 2, round(0.95 * (n - 1)), n - 1):
            assert np.array_equal(orient.row_order_stat(flat, q), np.partition(flat, q, axis=1)[:, q])


def test_histogram_bins_by_table_equal_the_bins_by_thresholds() -> None:
    rng = np.random.default_rng(12)
    k = 9
    cards = rng.integers(0, 256, (k, orient._H, orient._W, 3), dtype=np.uint8)
    vis = (rng.random((k, orient._H, orient._W)) < 0.8).astype(np.uint8)
    n = vis.sum(axis=(1, 2)).astype(np.float32)
    ref = np.array([20, 21, 64, 100, 140, 200, 211, 250, 255], np.float32)
    lut = np.clip(((np.arange(256, dtype=np.float32)[None, :] / ref[:, None]) * 4 / 1.1).astype(int), 0, 3)
    steps = np.stack([(lut >= i).argmax(axis=1) for i in (1, 2, 3)], axis=1).astype(np.uint8)
    bins = np.zeros(cards.shape, np.uint8)
    for s in range(3):
        bins += cards >= steps[:, s, None, None, None]
    code = bins[..., 0] * np.uint8(16) + bins[..., 1] * np.uint8(4) + bins[..., 2]
    counts = np.bincount(code[vis > 0].astype(np.intp) + np.repeat(np.arange(k) * 64, n.astype(np.intp)),
                         minlength=k * 64).reshape(k, 64).astype(np.float32)
    assert np.array_equal(orient._hists(cards, ref, vis, n), counts / np.maximum(n, 1)[:, None])


def test_quantile_of_uint8_from_the_histogram_equals_glyphs_quantile() -> None:
    from controller.vision.glyphs import quantile

    rng = np.random.default_rng(13)
    for shape in ((1, 1), (7, 5), (120, 90)):
        a = rng.integers(0, 256, shape, dtype=np.uint8)
        for q in (0.0, 0.5, 0.9, 0.95, 1.0):
            assert split.quantile_u8(a[:, 1:] if shape[1] > 1 else a, q) == quantile(
                a[:, 1:] if shape[1] > 1 else a, q)
