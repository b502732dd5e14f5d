"""Poker Hand History (PHH/PHHS): reading hands, playing them through, turning them into table event logs."""

from controller.phh.hands import (
    VARIANT_NAMES,
    PhhError,
    PhhHand,
    Play,
    Step,
    concretize,
    parse_phh,
    require_holdem,
)

__all__ = [
    "VARIANT_NAMES", "PhhError", "PhhHand", "Play", "Step", "concretize", "parse_phh", "require_holdem",
]
