"""Fixtures: a private mosquitto per test (never the system broker), daemon configs in tmp dirs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.broker import MOSQUITTO, Broker

FULL = os.environ.get("CARDTABLE_FULL") == "1"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if not Path(MOSQUITTO).exists():
        pytest.skip("mosquitto not installed")
    d = tmp_path / "broker"
    d.mkdir()
    b = Broker(d)
    b.start()
    yield b
    b.stop()
