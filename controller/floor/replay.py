"""Hand timelines for the floor: the public states of each hand, for step-by-step replay and "state at alert".

The daemon publishes a public state after every event (never a live hand's hole cards; the floor strips
them again in ingest.public_state). The floor keeps the states of the current and recent hands per table
in memory and writes a hand's timeline to the store once, when the table moves on to the next hand.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from controller.core.handbase import BETTING, DEAL, DUE

LIVE_PHASES = frozenset({DEAL, BETTING, DUE})
# Per table in memory; older hands come from the store. A room of 250 tables keeps 250 × KEEP_HANDS
# timelines of a few hundred kB each: 30 made the floor grow by hundreds of MB over an evening.
KEEP_HANDS = 3
MAX_FRAMES = 1000  # per hand: a stuck table must not grow memory without bound

Frame = dict[str, Any]


class Timelines:
    """Per table and hand, the list of {"at", "state"} frames in arrival order."""

    def __init__(self) -> None:
        self._tables: dict[str, OrderedDict[int, list[Frame]]] = {}

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
                finished = (last, hands[last])
        frames = hands.setdefault(hand, [])
        if not frames or frames[-1]["state"] != state:
            if len(frames) >= MAX_FRAMES:
                del frames[1]  # keep the first state of the hand, drop the oldest in between
            frames.append({"at": at, "state": dict(state)})
        while len(hands) > KEEP_HANDS:
            hands.popitem(last=False)
        return finished

    def frames(self, table: str, hand: int) -> list[Frame] | None:
        hands = self._tables.get(table)
        return None if hands is None else hands.get(hand)

    def state_at(self, table: str, hand: int, at: float, slack: float = 0.05) -> Frame | None:
        """The last frame of `hand` seen by `at` (+ slack: the state of the alert's own event arrives just
        after the alert), else the first frame of the hand."""
        return frame_at(self.frames(table, hand) or [], at, slack)

    def dealer(self, table: str, hand: int | None) -> str | None:
        """The dealer named in the states of that hand (a rotation between hands books each hand right)."""
        frames = self.frames(table, hand) if hand is not None else None
        for f in reversed(frames or []):
            d = f["state"].get("dealer")
            if isinstance(d, str | int) and str(d):
                return str(d)
        return None

    def is_live(self, table: str, hand: int) -> bool:
        """Whether `hand` is the table's newest hand and still being played (its hole cards are secret)."""
        hands = self._tables.get(table)
        if not hands:
            return False
        last = next(reversed(hands))
        return hand == last and hands[last][-1]["state"].get("phase") in LIVE_PHASES


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
