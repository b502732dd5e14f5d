"""Per-frame detections → debounced `exposed` and `board_count` events for the rules core."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from controller.core.events import BoardCountEvent, Event, Exposed
from controller.vision.detect import Detection


@dataclass(frozen=True, kw_only=True, slots=True)
class ZoneView:
    """What one frame shows in one zone: how many cards face up, and the codes read among them."""

    up: int = 0
    cards: tuple[str, ...] = ()


def views(det: Detection, zones: Iterable[str]) -> dict[str, ZoneView]:
    """The view of every named zone (zones without a face-up card get an empty view)."""
    out = {z: ZoneView() for z in zones}
    for c in det.cards:
        if c.zone is None or not c.face_up:
            continue
        v = out.get(c.zone, ZoneView())
        out[c.zone] = ZoneView(up=v.up + 1, cards=tuple(sorted((*v.cards, c.card) if c.card else v.cards)))
    return out


class Debouncer:
    """Reports a zone's change only after the same view held for `frames` consecutive frames.

    Board zone: a `board_count` event whenever its stable count of face-up cards changes. Other zones: one
    `exposed` event per card that newly turns face up (with its code when read in every one of those frames,
    else no code: the core then takes the zone's RFID card). A physical card is reported once: when an
    unread card is later read no second event follows, since the core would count two exposed cards.
    """

    def __init__(self, *, frames: int = 2, board_zone: str = "board", source: str = "camera") -> None:
        if frames < 1:
            raise ValueError("debounce needs at least one frame")
        self.frames = frames
        self.board_zone = board_zone
        self.source = source
        self._history: dict[str, deque[ZoneView]] = {}
        self._reported: dict[str, list[str | None]] = {}
        self._board = 0

    def feed(self, t: float, frame_views: Mapping[str, ZoneView]) -> list[Event]:
        out: list[Event] = []
        for zone in sorted(set(frame_views) | set(self._history)):
            hist = self._history.setdefault(zone, deque(maxlen=self.frames))
            hist.append(frame_views.get(zone, ZoneView()))
            if len(hist) < self.frames or len({v.up for v in hist}) != 1:
                continue
            up = hist[-1].up
            if zone == self.board_zone:
                if up != self._board:
                    self._board = up
                    out.append(BoardCountEvent(t=t, source=self.source, zone=zone, count=up))
                continue
            out.extend(self._exposures(t, zone, up, _common(hist)))
        return out

    def _exposures(self, t: float, zone: str, up: int, codes: Counter[str]) -> list[Event]:
        reported = self._reported.setdefault(zone, [])
        if up < len(reported):
            # Cards turned back or taken away: forget codes no longer seen first, then unread ones.
            keep = [c for c in reported if c is not None and codes[c] > 0]
            reported[:] = (keep + [None] * len(reported))[:up]
            return []
        new = codes - Counter(c for c in reported if c is not None)
        fresh: list[str | None] = sorted(new.elements())
        fresh = (fresh + [None] * up)[:up - len(reported)]
        reported.extend(fresh)
        return [Exposed(t=t, source=self.source, zone=zone, card=c) for c in fresh]


def _common(hist: Iterable[ZoneView]) -> Counter[str]:
    """Codes read in every frame of the window (a one-frame misread never becomes an event)."""
    common: Counter[str] | None = None
    for v in hist:
        c = Counter(v.cards)
        common = c if common is None else common & c
    return common or Counter()
