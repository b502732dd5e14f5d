"""Shared fixtures for the vision tests: a calibrated virtual table (rendered, nothing cached on disk)."""

from __future__ import annotations

import cv2
import pytest

from controller.vision.detect import VisionModel
from controller.vision.evaluate import NEUTRAL, calibrate_look
from controller.vision.render import BackDesign, TableLook, render

cv2.setNumThreads(1)


@pytest.fixture(scope="session")
def green_table() -> TableLook:
    return TableLook(felt="green", back=BackDesign(colour="red", pattern="lattice"))


@pytest.fixture(scope="session")
def green_model(green_table: TableLook) -> VisionModel:
    size = (1296, 972)
    return calibrate_look(green_table, size, render(green_table, [], NEUTRAL, size).zones)
