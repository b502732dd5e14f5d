"""Single-frame detection on real photos (tests/data/vision, licensed copies with truth) and rendered frames.

Bounds sit a few points under the figures measured when they were set (docs/camera.md), so a regression
fails while the noise of one card does not. They are not the issue's targets, which are not met yet.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.vision_score import Tally, score_per_card, score_real, score_rendered

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "vision"

# Measured on the 26 committed photos when set (found 89.0 %, up/down 96.3 %, rank+suit 42.9 %, count
# exact 53.8 %): see docs/camera.md. Tightened with issue #18's second round (up/down was 91.4 %, rank+suit
# 35.7 %) and third round (pale-card sweep, whole-index reader, suit colour: found 96.7 %, up/down 96.6 %,
# rank+suit 60.0 %, count exact 69.2 %).
# Fourth round (CNN reader, HOG fallback): rank+suit 62.9 % (44/70), 19 wrong codes of 63.
# Fifth round (outline finder, white-paper and pile face tests): found 96.7 %, up/down 98.9 %, rank+suit
# 68.6 % (48/70), count exact 65.4 %.
# Seventh round (retrained CNN, HOG fallback off): rank+suit 62.9 % (44/70), 7 wrong codes of 51 (with the
# fallback 70.0 %, 18 wrong of 67). 12 of the 26 photos are in vision-dev's half A, whose corners the CNN
# is now trained on.
# Seventh round as shipped (the retrained CNN with the HOG fallback on, sixth round's finder): the bounds
# of the fifth round hold again.
# Eighth round (single corners read in their own frames where the portrait pair gives no code): rank+suit
# 71.4 -> 77.1 % (50 -> 54 of 70), 18 wrong codes of 68 -> 10 of 64 (the HOG reader asked only where a
# corner frame shows an index).
REAL_BOUNDS = {"found": 0.93, "face_of_found": 0.95, "rank_suit": 0.75, "count_exact": 0.62}
# The CNN alone on the same photos (issue #18 Build 4): 33 of 70 read, 7 wrong codes of 40 reported; seventh
# round: 44 read, 7 wrong of 51 (45 read, 8 wrong of 53 on the sixth round's finder); eighth round: 52 read,
# 8 wrong of 60.
CNN_READ_MIN, CNN_WRONG_MAX = 50, 10
# 8 rendered frames at 1296×972 when set: found 100 %, up/down 83.8 %, rank+suit 100 %, board 100 %.
# Now (issue #18, second round): up/down 82.4 % (the low-card face rule turns one more hole-card sliver
# up), rank+suit 100 % with the retrained index model, board 100 %.
# Fifth round (cards on cards judged on their own part): up/down 95.9 %, rank+suit 96.4 %.
# Seventh round (CNN alone, no HOG fallback): rank+suit 82.1 % (23/28; with the fallback 96.4 %, 27/28, but
# 13 wrong codes of 40 reported against 10 of 33).
RENDERED_BOUNDS = {"found": 0.95, "face_of_found": 0.92, "rank_suit": 0.9, "board_exact": 0.75}  # HOG on


@pytest.fixture(scope="module")
def real() -> dict[str, Tally]:
    return score_real(DATA, DATA / "truth.csv")


@pytest.mark.parametrize("metric", sorted(REAL_BOUNDS))
def test_real_photos_hold_their_figures(real: dict[str, Tally], metric: str) -> None:
    value = real["all"].rates()[metric]
    assert value is not None and value >= REAL_BOUNDS[metric], \
        f"{metric} = {value}\n" + "\n".join(r[1] for r in sorted(real["all"].rows, key=lambda r: -r[0])[:10])


def test_the_cnn_reader_alone_holds_its_reads_and_its_precision(monkeypatch: pytest.MonkeyPatch) -> None:
    from controller.vision import index

    monkeypatch.setattr(index, "HOG_FALLBACK", False)
    t = score_real(DATA, DATA / "truth.csv")["all"]
    wrong = t.reported - t.read_ok
    assert t.read_ok >= CNN_READ_MIN and wrong <= CNN_WRONG_MAX, (t.read_ok, wrong, t.reported)


def test_every_source_finds_most_of_its_cards(real: dict[str, Tally]) -> None:
    for src in ("src1", "src2", "src3"):
        found = real[src].rates()["found"]
        assert found is not None and found >= 0.8, f"{src}: found {found}"


def test_single_rendered_frames_hold_their_figures() -> None:
    rates = score_rendered(8, (1296, 972), seed=3).rates()
    for metric, bound in RENDERED_BOUNDS.items():
        value = rates[metric]
        assert value is not None and value >= bound, f"{metric} = {value} (bound {bound})"


# Per card (bench/vision_score.py --per-card 6 --seed 21 --sizes 640x480), issue #18 sixth round: felt found
# 95.2 %, face right 95.0 %, buried cards found 27/38; wood grain 95.2 %, 90.0 %, 29/38 (main before it:
# felt 95.2 %, 67.5 %, 20/38; wood 92.9 %, 51.3 %, 2/38). Hole pairs squared up are split at the top card's
# own edge and the top card is judged whole: a regression here is a pile found as one card again.
PER_CARD_BOUNDS = {"found": 0.9, "face_of_matched": 0.85}
BURIED_MIN = 0.5  # share of the cards under others (< 50 % visible) found, on either table


def test_rendered_hole_pairs_per_card_on_felt_and_wood() -> None:
    cards, _ = score_per_card(6, [(640, 480)], 21, ("felt", "wood"))
    for table in ("felt", "wood"):
        t = cards[table]
        rates = t.rates()
        for metric, bound in PER_CARD_BOUNDS.items():
            value = rates[metric]
            assert value is not None and value >= bound, f"{table} {metric} = {value}: {t.failures}"
        assert t.buried_found >= BURIED_MIN * t.buried, (table, t.buried_found, t.buried)
        assert t.unmatched <= 0.05 * t.detections, (table, t.unmatched, t.detections)


def test_cli_prints_one_json_line_per_image_without_config() -> None:
    images = [DATA / "src2_003.jpg", DATA / "src3_002.jpg"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "controller", "camera", "detect", *map(str, images), "--json"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    lines = [json.loads(line) for line in res.stdout.splitlines()]
    assert [Path(d["image"]).name for d in lines] == ["src2_003.jpg", "src3_002.jpg"]
    assert all({"image", "board_count", "cards"} <= d.keys() for d in lines)
    assert len(lines[1]["cards"]) == 1 and lines[1]["cards"][0]["face"] == "up"


def test_a_row_of_three_face_up_cards_is_the_board_without_zones() -> None:
    from bench.vision_score import detect_json

    pred = detect_json(DATA / "src2_003.jpg")
    assert pred["board_count"] == 3


def test_rank_and_suit_are_read_only_for_new_or_changed_cards() -> None:
    from controller.vision.index import ReadCache
    from controller.vision.render import BOARD_CENTRE, CardPlace, Lighting, TableLook, render
    from controller.vision.single import detect_single

    def board(codes: list[str]) -> object:
        cards = [CardPlace(code=c, face_up=True, zone="board", cx=BOARD_CENTRE[0] + (i - 1) * 70,
                           cy=BOARD_CENTRE[1]) for i, c in enumerate(codes)]
        return render(TableLook(felt="green"), cards, Lighting(), (1296, 972), seed=2).image

    cache = ReadCache()
    first = detect_single(board(["Ah", "Kd", "7c"]), cache)
    assert (cache.hits, cache.misses) == (0, 3)
    again = detect_single(board(["Ah", "Kd", "7c"]), cache)
    assert (cache.hits, cache.misses) == (3, 3)
    assert sorted(str(c.card) for c in again.cards) == sorted(str(c.card) for c in first.cards)
    swapped = detect_single(board(["Ah", "Kd", "2s"]), cache)  # one card replaced in place: read again
    assert (cache.hits, cache.misses) == (5, 4)
    assert "2s" in {c.card for c in swapped.cards}


def _touching_boards(n: int, wood: bool = True) -> list[tuple[int, np.ndarray]]:
    """Boards of 3–5 face-up cards in a row, touching or 1 mm apart (up to 1 mm overlapping), alone on a
    wood-grain table or the renderer's felt (a new look, light and camera each), at 1296×972 and 640×480
    in turn."""
    from bench.vision_score import wood_grain
    from controller.vision.render import (
        BOARD_CENTRE,
        CardPlace,
        felt_texture,
        random_light,
        random_look,
        render,
    )

    rng = np.random.default_rng(7)
    codes = ["Ah", "Kd", "7c", "Ts", "2h", "9s", "Qc", "5d", "3s", "Jh"]
    out = []
    for trial in range(n):
        look = random_look(rng)
        gap, count, angle = rng.uniform(-1.0, 1.5), int(rng.integers(3, 6)), rng.uniform(-8, 8)
        chosen = rng.choice(codes, count, replace=False)
        pitch = 63 + gap
        places = [CardPlace(code=str(c), face_up=True, zone="board", angle=angle, cy=BOARD_CENTRE[1],
                            cx=BOARD_CENTRE[0] + (i - (count - 1) / 2) * pitch) for i, c in enumerate(chosen)]
        size = (640, 480) if trial % 2 else (1296, 972)
        fseed = int(rng.integers(1 << 30))
        cv2.setRNGSeed(fseed + 1)
        grain = wood_grain(size, np.random.default_rng(fseed + 2))
        felt = felt_texture(look, size, fseed + 1) * grain[:, :, None] if wood else None
        out.append((count, render(look, places, random_light(rng), size, seed=fseed, felt=felt).image))
    return out


def test_a_board_of_touching_cards_is_found_card_by_card() -> None:
    # Issue #18 ninth round: the gaps of a board dealt touching vanish at the work scale, the row is one
    # region and no card gives the size: main found the board on none of 16 such frames (0–2 quads), now
    # on 14. Here 8 of them; a regression is the row found as one quad or as fragments again.
    from controller.vision.index import ReadCache
    from controller.vision.single import detect_single

    exact = sum(sum(c.zone == "board" for c in detect_single(img, ReadCache()).cards) == count
                for count, img in _touching_boards(8))
    assert exact >= 6, exact
    # On felt the felt model split the row into two-card blocks (1.45 × a card) that replaced the level
    # cuts' cards: main 0 of these 8 (2 of 16), now 6 (8 of 16; `_cards_apart`).
    exact = sum(sum(c.zone == "board" for c in detect_single(img, ReadCache()).cards) == count
                for count, img in _touching_boards(8, wood=False))
    assert exact >= 5, exact


def test_a_single_card_stretched_long_is_not_cut_into_a_row() -> None:
    # src1_025's 2♥, a single card that a squeezed photo stretched to 2.4 × as long as wide, has a row's
    # shape; its bare middle third is no face, so it is no board of three.
    from bench.vision_score import detect_json

    assert len(detect_json(DATA / "src1_025.jpg")["cards"]) == 4
