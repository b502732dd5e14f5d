"""The fast PHH reader (controller/phh/fasttoml.py) gives exactly tomllib's value, or steps aside (None).

Every PHH file in tests/data, a handful of hand-made TOML corners, and fuzzed variants of the real files
(the import fuzzer's mutations; 250, or 5,000 with CARDTABLE_FULL=1): where the fast reader answers,
tomllib must read the same value; where tomllib refuses a text, the fast reader must not accept it.
"""

from __future__ import annotations

import os
import random
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from controller.phh import fasttoml
from tests.phh.test_import_fuzz import DATA, SEEDS, _mutate

FILES = sorted(DATA.rglob("*.phh*"))
# Measured with 5,000 (seed 99): 1,313 read by the fast reader, every one equal to tomllib's value.
FUZZ = 5_000 if os.environ.get("CARDTABLE_FULL") == "1" else 250


def _same(text: str) -> bool | None:
    """True: both read it alike; None: the fast reader stepped aside. Fails when they disagree."""
    fast = fasttoml.loads(text)
    try:
        slow: Any = tomllib.loads(text, parse_float=Decimal)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        assert fast is None, text[:200]
        return None
    if fast is None:
        return None
    assert repr(fast) == repr(slow), text[:200]  # repr: Decimal('NaN') is not equal to itself
    return True


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_phh_file_of_the_suite_is_read_fast_and_alike(path: Path) -> None:
    assert _same(path.read_text(encoding="utf-8")) is True


CORNERS = [
    'a = 1\nb = -0\nc = +7\nd = 1.50\ne = 1e5\nf = -2.5E-3\ng = inf\nh = -inf\ni = nan\nj = +nan\n',
    'a = \'x\'\nb = "y # not a comment"\nc = true\nd = false # yes\n# only a comment\n\n',
    "[1]\na = [1, 2,]\n[2]\na = [\n  'p1 cc', # first\n  'p2 f',\n]\n",
    'a = []\nb = [ ]\nc = [\'a]b\', "[c"]\n', 'a = [1, [2]]\n', 'a = {b = 1}\n', 'a.b = 1\n', 'a = 1_000\n',
    'a = 0x1F\n', 'a = 1979-05-27\n', 'a = 01\n', 'a = .5\n', 'a = 5.\n', "a = 'x\\y'\n", 'a = "x\\ty"\n',
    'a = 1\na = 2\n', '[1]\n[1]\n', 'a = 1\n[a]\n', 'a = [1,,2]\n', 'a = [,]\n', 'a = [1 2]\n',
    'a = [\n1,\n', "'a' = 1\n", 'a = 1 2\n', 'a = 1\r\nb = 2\r\n', 'a = 1\rb = 2\n', '\ufeffa = 1\n',
    "a = 'x\x01'\n", '# c\x7f\n', 'a=1\n', 'a = 1 # ]\nb = [1] # ]\n', '[[a]]\nb = 1\n', "a = '''x'''\n",
    'a = """x"""\n', "a = 1" + "0" * 5000, 'a = [1, # c\n 2]\n', 't = 00:00:01\nd = 2019-06-30\n',
    't = 25:00:00\n', 'd = 2019-02-30\n', 't = 07:32:00.5\n', 'd = 1979-05-27 07:32:00\n',
    'd = 1979-05-27T07:32:00Z\n', 't = 7:32:00\n', 'a = [ # c\n]\n', 'a = [1]]\n', 'a = [[1]\n',
]


@pytest.mark.parametrize("text", CORNERS)
def test_toml_corners_agree_with_tomllib(text: str) -> None:
    _same(text)


def test_fuzzed_phh_files_agree_with_tomllib() -> None:
    rng = random.Random(16)
    texts = [(DATA / s).read_text(encoding="utf-8") for s in SEEDS]
    answered = sum(bool(_same(_mutate(rng, rng.choice(texts)))) for _ in range(FUZZ))
    assert answered > FUZZ // 8  # many mutations stay plain TOML: the fast path is really compared
