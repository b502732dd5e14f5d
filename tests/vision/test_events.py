"""Debouncing detections into `exposed` and `board_count` events."""

from __future__ import annotations

from controller.core.events import BoardCountEvent, Exposed
from controller.vision.events import Debouncer, ZoneView

EMPTY: dict[str, ZoneView] = {"seat1": ZoneView(), "board": ZoneView()}


def up(n: int, *cards: str) -> ZoneView:
    return ZoneView(up=n, cards=tuple(sorted(cards)))


def test_one_frame_flicker_is_not_an_event() -> None:
    d = Debouncer(frames=2)
    assert d.feed(1.0, {"seat1": up(1, "Ah")}) == []
    assert d.feed(1.2, EMPTY) == []
    assert d.feed(1.4, EMPTY) == []


def test_exposed_after_two_frames_with_the_card_read() -> None:
    d = Debouncer(frames=2)
    assert d.feed(1.0, {"seat1": up(1, "Ah")}) == []
    assert d.feed(1.2, {"seat1": up(1, "Ah")}) == [Exposed(t=1.2, source="camera", zone="seat1", card="Ah")]
    assert d.feed(1.4, {"seat1": up(1, "Ah")}) == []  # still exposed: reported once


def test_code_misread_in_one_frame_gives_no_code() -> None:
    d = Debouncer(frames=2)
    d.feed(1.0, {"seat1": up(1, "Ah")})
    assert d.feed(1.2, {"seat1": up(1, "Ak")}) == [Exposed(t=1.2, source="camera", zone="seat1", card=None)]


def test_unread_card_later_read_is_not_reported_twice() -> None:
    d = Debouncer(frames=2)
    d.feed(1.0, {"seat1": up(1)})
    assert d.feed(1.2, {"seat1": up(1)}) == [Exposed(t=1.2, source="camera", zone="seat1", card=None)]
    d.feed(1.4, {"seat1": up(1, "7c")})
    assert d.feed(1.6, {"seat1": up(1, "7c")}) == []


def test_second_card_turned_and_card_turned_back_then_again() -> None:
    d = Debouncer(frames=2)
    d.feed(1.0, {"seat1": up(1, "7c")})
    d.feed(1.2, {"seat1": up(1, "7c")})
    d.feed(1.4, {"seat1": up(2, "7c", "9d")})
    second = Exposed(t=1.6, source="camera", zone="seat1", card="9d")
    assert d.feed(1.6, {"seat1": up(2, "7c", "9d")}) == [second]
    d.feed(1.8, EMPTY)
    assert d.feed(2.0, EMPTY) == []
    d.feed(2.2, {"seat1": up(1, "9d")})
    assert d.feed(2.4, {"seat1": up(1, "9d")}) == [Exposed(t=2.4, source="camera", zone="seat1", card="9d")]


def test_board_count_on_change_only() -> None:
    d = Debouncer(frames=2)
    assert d.feed(1.0, EMPTY) == [] and d.feed(1.2, EMPTY) == []  # an empty board is the start state
    d.feed(1.4, {"board": up(3)})
    assert d.feed(1.6, {"board": up(3)}) == [BoardCountEvent(t=1.6, source="camera", zone="board", count=3)]
    assert d.feed(1.8, {"board": up(3)}) == []
    d.feed(2.0, {"board": up(4)})
    assert d.feed(2.2, {"board": up(4)}) == [BoardCountEvent(t=2.2, source="camera", zone="board", count=4)]


def test_debounce_of_three_frames() -> None:
    d = Debouncer(frames=3)
    d.feed(1.0, {"burn": up(1)})
    assert d.feed(1.2, {"burn": up(1)}) == []
    assert d.feed(1.4, {"burn": up(1)}) == [Exposed(t=1.4, source="camera", zone="burn", card=None)]
