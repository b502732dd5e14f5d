"""Fuzzed PHH files through `cardtable import-phh`: exit 0 or a one-line error with exit 2, never a traceback,
and every file answered within a second. 300 mutated files by default (fixed seed); CARDTABLE_FULL=1 runs
3,000. Named hostile amounts (inf, nan, huge, negative, too fine) each have their documented answer.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import time
from pathlib import Path

import pytest

from controller.commands import import_phh

DATA = Path(__file__).resolve().parents[1] / "data" / "phh"
SEEDS = ["phhstd_example_dwan_ivey.phh", "ps_25NL_handhq_1_first5.phhs", "real/handhq_dev.phhs",
         "real/wsop2023_e43_dev.phhs", "wsop_2019_42_3_00-01-07.phh",
         "real_more/wsop2023_e43_onecard.phhs", "real_more/handhq_raw.phhs"]  # one-card deals; raw fields
N = 3_000 if os.environ.get("CARDTABLE_FULL") == "1" else 300
TOKENS = ["inf", "-inf", "nan", "1e400", "-5", "0", "0.001", "1e-9", "9" * 60, "1" + "0" * 5000, "[", "]",
          "'", '"', "=", "??", "????", "p9", "cbr", "sm", "d db", "\n[2]\n", "true", "[[1]]", "{a=1}",
          "#", "0.125", "-0.25", "p1 cbr 99999999999", "p1 sm XXYY", "d dh p1 AcAc"]


def _run(path: Path, out: Path, skip: bool) -> tuple[int, str, float]:
    args = argparse.Namespace(file=str(path), output=str(out), profile="cuca", skip_other_variants=skip)
    err = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stderr(err):
        code = import_phh.run(args)
    return code, err.getvalue(), time.perf_counter() - t0


def _mutate(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.random()
        if kind < 0.45:  # replace a token of the line
            words = lines[i].split(" ")
            j = rng.randrange(len(words))
            words[j] = rng.choice(TOKENS)
            lines[i] = " ".join(words)
        elif kind < 0.6:
            del lines[i]
        elif kind < 0.75:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind < 0.9:  # a number inside the line
            lines[i] = lines[i].replace(rng.choice("0123456789"), rng.choice(TOKENS[:10]), 1)
        else:
            pos = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:pos] + chr(rng.randrange(32, 127)) + lines[i][pos:]
    return "\n".join(lines) + "\n"


def test_fuzzed_files_get_a_one_line_answer_quickly(tmp_path: Path) -> None:
    rng = random.Random(16)
    texts = [(DATA / s).read_text(encoding="utf-8") for s in SEEDS]
    slow, codes = [], {0: 0, 2: 0}
    for n in range(N):
        path = tmp_path / f"f{n}.phhs"
        path.write_text(_mutate(rng, rng.choice(texts)), encoding="utf-8")
        code, err, dt = _run(path, tmp_path / "out.jsonl", skip=rng.random() < 0.5)
        assert code in (0, 2), (n, code)
        assert "Traceback" not in err
        if code == 2:
            assert len(err.strip().splitlines()) >= 1 and err.strip().splitlines()[-1].startswith(
                "cardtable import-phh:"), err
            if "skipped" not in err:
                assert len(err.strip().splitlines()) == 1, err
        if dt > 1.0:
            slow.append((n, round(dt, 2)))
        codes[code] += 1
    assert slow == []
    assert codes[0] > N // 20 and codes[2] > N // 4  # the mutations both keep and break files


HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [{s1}, 200, 200]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 7h2s', 'p3 f', 'p1 cbr {bet}', 'p2 f']
"""


@pytest.mark.parametrize(("s1", "bet", "code", "words"), [
    ("inf", "10", 0, ""),  # an unknown stack: played as a deep stack (docs/phh.md)
    ("nan", "10", 2, "starting_stacks: nan is not an amount"),
    ("200", "inf", 2, "cbr: Infinity is not an amount here"),
    ("200", "nan", 2, "cbr: nan is not an amount"),
    ("-200", "10", 2, "starting_stacks: -200 is negative"),
    ("200", "-10", 2, "cbr: -10 is negative"),
    ("1e40", "10", 2, "starting_stacks: 1E+40 is too large"),
    ("200", "1" + "0" * 30, 2, "is too large"),
    ("200", "10.0000001", 2, "decimal places"),
    ("200.5", "10.25", 0, ""),  # the unit is a hundredth: taken from the inputs
])
def test_named_hostile_amounts(tmp_path: Path, s1: str, bet: str, code: int, words: str) -> None:
    path = tmp_path / "h.phh"
    path.write_text(HAND.format(s1=s1, bet=bet), encoding="utf-8")
    got, err, _ = _run(path, tmp_path / "out.jsonl", skip=False)
    assert got == code, err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and words in err, err
        assert str(path) in err  # names the file


def test_unknown_field_refused_by_name_and_info_fields_read(tmp_path: Path) -> None:
    path = tmp_path / "h.phh"
    path.write_text(HAND.format(s1=200, bet=10) + "casino = 'Bellagio'\ncurrency = 'USD'\ntime_zone = 'UTC'\n"
                    "seat_count = 9\nseats = [1, 4, 9]\n", encoding="utf-8")
    assert _run(path, tmp_path / "o", skip=False)[0] == 0
    path.write_text(HAND.format(s1=200, bet=10) + "bring_in = 5\n", encoding="utf-8")
    code, err, _ = _run(path, tmp_path / "o", skip=False)
    assert code == 2 and "field 'bring_in'" in err
    path.write_text(HAND.format(s1=200, bet=10) + "venu = 'typo'\n", encoding="utf-8")
    code, err, _ = _run(path, tmp_path / "o", skip=False)
    assert code == 2 and "field 'venu' is not a PHH field" in err
    path.write_text(HAND.format(s1=200, bet=10) + "seats = [1, 1, 2]\n", encoding="utf-8")
    code, err, _ = _run(path, tmp_path / "o", skip=False)
    assert code == 2 and "names a seat twice" in err


def test_mixed_file_imports_what_it_can(tmp_path: Path) -> None:
    good = HAND.format(s1=200, bet=10)
    bad = good.replace("'p1 cbr 10'", "'p1 cbr 5000'")
    path = tmp_path / "m.phhs"
    path.write_text(f"[1]\n{good}\n[2]\n{bad}\n[3]\n{good}", encoding="utf-8")
    code, err, _ = _run(path, tmp_path / "o.jsonl", skip=False)
    assert code == 2 and "hand 2" in err
    code, err, _ = _run(path, tmp_path / "o.jsonl", skip=True)
    assert code == 0 and "skipped" in err and "hand 2" in err and "2 hand(s)" in err
    path.write_text(f"[1]\n{bad}", encoding="utf-8")
    assert _run(path, tmp_path / "o.jsonl", skip=True)[0] == 2  # nothing imported
