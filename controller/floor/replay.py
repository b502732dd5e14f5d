"""Hand timelines for the floor: the public states of each hand, for step-by-step replay and "state at alert".

The daemon publishes a public state after every event (never a live hand's hole cards; the floor strips
them again in ingest.public_state). The floor keeps the states of the current and recent hands per table
in memory and writes a hand's timeline to the store once, when the table moves on to the next hand.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from controller.core.handbase import BETTING, DEAL, DUE

LIVE_PHASES = frozenset({DEAL, BETTING, DUE})
# Per table in memory; older hands come from the store. A room of 250 tables keeps 250 × KEEP_HANDS
# timelines of a few hundred kB each: 30 made the floor grow by hundreds of MB over an evening.
KEEP_HANDS = 3
MAX_FRAMES = 1000  # per hand: a stuck table must not grow memory without bound

Frame = dict[str, Any]
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


class _Hand:
    """One hand's frames as (at, JSON bytes) pairs, plus what the ingest asks about on every alert.

    Kept as bytes because a room's timelines as dicts were about 600,000 objects that Python's collector
    walked on each full collection: 400-550 ms with 250 tables (the 513 ms stall of the PostgreSQL room
    run). Tuples of a float and bytes are untracked after their first collection."""

    __slots__ = ("dealer", "frames", "phase")

    def __init__(self) -> None:
        self.frames: list[tuple[float, bytes]] = []
        self.dealer: str | None = None  # the last non-empty dealer named in the hand's states
        self.phase: Any = None  # the phase of the newest state

    def decoded(self) -> list[Frame]:
        return [{"at": at, "state": _decode(text)} for at, text in self.frames]


class Timelines:
    """Per table and hand, the {"at", "state"} frames in arrival order."""

    def __init__(self) -> None:
        self._tables: dict[str, OrderedDict[int, _Hand]] = {}

    def add(self, table: str, state: Mapping[str, Any], at: float) -> tuple[int, list[Frame]] | None:
        """Record a state; returns (hand, frames) of the previous hand when this state starts a new one."""
        hand = _hand_of(state)
        if hand is None:
            return None
        hands = self._tables.setdefault(table, OrderedDict())
        finished = None
        if hand not in hands and hands:
            last = next(reversed(hands))
            if last < hand:
                finished = (last, hands[last].decoded())
        record = hands.get(hand)
        if record is None:
            record = hands[hand] = _Hand()
        text = _encode(state)
        if not record.frames or record.frames[-1][1] != text:
            if len(record.frames) >= MAX_FRAMES:
                del record.frames[1]  # keep the first state of the hand, drop the oldest in between
            record.frames.append((at, text))
            dealer = state.get("dealer")
            if isinstance(dealer, str | int) and not isinstance(dealer, bool) and str(dealer):
                record.dealer = str(dealer)
            record.phase = state.get("phase")
        while len(hands) > KEEP_HANDS:
            hands.popitem(last=False)
        return finished

    def frames(self, table: str, hand: int) -> list[Frame] | None:
        record = self._record(table, hand)
        return None if record is None else record.decoded()

    def _record(self, table: str, hand: int) -> _Hand | None:
        hands = self._tables.get(table)
        return None if hands is None else hands.get(hand)

    def state_at(self, table: str, hand: int, at: float, slack: float = 0.05) -> Frame | None:
        """The last frame of `hand` seen by `at` (+ slack: the state of the alert's own event arrives just
        after the alert), else the first frame of the hand."""
        record = self._record(table, hand)
        if record is None or not record.frames:
            return None
        before = [f for f in record.frames if f[0] <= at + slack]
        at_, text = before[-1] if before else record.frames[0]
        return {"at": at_, "state": _decode(text)}

    def dealer(self, table: str, hand: int | None) -> str | None:
        """The dealer named in the states of that hand (a rotation between hands books each hand right)."""
        record = self._record(table, hand) if hand is not None else None
        return None if record is None else record.dealer

    def is_live(self, table: str, hand: int) -> bool:
        """Whether `hand` is the table's newest hand and still being played (its hole cards are secret)."""
        hands = self._tables.get(table)
        if not hands:
            return False
        last = next(reversed(hands))
        return hand == last and hands[last].phase in LIVE_PHASES


def frame_at(frames: Sequence[Frame], at: float, slack: float = 0.05) -> Frame | None:
    """The last of `frames` seen by `at` (+ slack), else the first one."""
    before = [f for f in frames if f["at"] <= at + slack]
    return before[-1] if before else (frames[0] if frames else None)


def _hand_of(state: Mapping[str, Any]) -> int | None:
    h = state.get("hand")
    return h if isinstance(h, int) and not isinstance(h, bool) and h > 0 else None


def public_frames(frames: Sequence[Frame], *, show_cards: bool) -> list[Frame]:
    """Frames for a browser: cards shown at showdown only when the viewer may see finished hands' cards."""
    if show_cards:
        return [dict(f) for f in frames]
    return [{"at": f["at"], "state": _without_shown(f["state"])} for f in frames]


def _without_shown(state: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(state)
    seats = out.get("seats")
    if isinstance(seats, list):
        out["seats"] = [{k: v for k, v in s.items() if k != "shown"} if isinstance(s, dict) else s
                        for s in seats]
    return out


def hole_cards(summary: Mapping[str, Any] | None) -> dict[str, list[str]]:
    """Seat → cards of a finished hand's summary (only the cards its players showed)."""
    shown = (summary or {}).get("shown")
    if not isinstance(shown, dict):
        return {}
    return {str(seat): [str(c) for c in cards] for seat, cards in shown.items() if isinstance(cards, list)}
