"""Shared fixtures: how many random hands to check (1,000 by default; 10,000 with CARDTABLE_FULL=1)."""

from __future__ import annotations

import os
import warnings

import pytest

FULL = os.environ.get("CARDTABLE_FULL") == "1"
HANDS = 10_000 if FULL else 1_000


@pytest.fixture(autouse=True)
def _quiet_pokerkit() -> None:
    # PokerKit warns when a test deals a specific card it would not have chosen; irrelevant here.
    warnings.filterwarnings("ignore", category=UserWarning, module="pokerkit")
