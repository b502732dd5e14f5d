"""The events' direct `__init__` (controller/core/events.py `_direct_init`) builds exactly what the frozen
dataclass's own builds, with the same signature and the same errors."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

from controller.core.events import DATACLASS_INITS, EVENT_TYPES, CardSeen, DeckEvent

SAMPLE: dict[str, Any] = {"t": 12.5, "source": "rfid", "seat": 3, "player": "Zoë", "stack": 900, "id": "d1",
                          "sb": 5, "bb": 10, "ante": 1, "chip": 5, "ante_mode": "bb", "scale": 100,
                          "game": "stud7", "limit": "fixed", "bring_in": 2, "small_bet": 10, "big_bet": 20,
                          "ante_chips": True, "button": 4, "straddles": (20,), "posts": {5: 10},
                          "dead": {6: 5}, "dead_sb": True, "zone": "seat3", "card": "Ah", "uid": "04a1b2",
                          "unread": True,
                          "action": "raise", "amount": 40, "declared": "raise", "declared_amount": 60,
                          "present": False, "ruling": "accept", "note": "n", "count": 3, "dealer": "D7"}


def _built(init: Any, cls: type, kwargs: dict[str, Any]) -> Any:
    obj = object.__new__(cls)
    try:
        init(obj, **kwargs)
    except TypeError as exc:
        return "TypeError", str(exc).split("__init__()")[-1]
    return "ok", tuple(getattr(obj, f.name) for f in dataclasses.fields(cls))


def test_every_class_but_a_default_factory_has_the_direct_init() -> None:
    assert set(DATACLASS_INITS) == {c for c in EVENT_TYPES.values() if c is not DeckEvent}
    assert CardSeen.__init__ is not DATACLASS_INITS[CardSeen]


@pytest.mark.parametrize("cls", sorted(DATACLASS_INITS, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_direct_init_builds_what_the_dataclass_builds(cls: type) -> None:
    names = [f.name for f in dataclasses.fields(cls)]
    required = [f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING]
    assert inspect.signature(cls.__init__) == inspect.signature(DATACLASS_INITS[cls])
    cases = [{n: SAMPLE[n] for n in names}, {n: SAMPLE[n] for n in required},
             {n: SAMPLE[n] for n in required[1:]}, {**{n: SAMPLE[n] for n in names}, "bogus": 1}]
    for kwargs in cases:
        assert _built(cls.__init__, cls, kwargs) == _built(DATACLASS_INITS[cls], cls, kwargs), kwargs
    event = cls(**{n: SAMPLE[n] for n in names})
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.t = 1.0  # still frozen
    again = cls(**{n: SAMPLE[n] for n in names})
    assert event == again and _hash(event) == _hash(again)


def _hash(event: object) -> object:
    try:
        return hash(event)
    except TypeError:  # a mapping field (hand_start's posts): unhashable either way
        return "unhashable"
