"""Open irregularities of a hand and what became of each: remedy pending, followed, overridden or ruled."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Status = Literal["pending", "followed", "overridden", "accepted", "reversed"]

# Alerts whose remedy the dealer still has to carry out at the table (a card to move, a street to redeal,
# chips to return). Announcements, misdeals (the hand is void) and dead hands (done by the alert itself)
# open nothing.
CORRECTABLE: frozenset[str] = frozenset({
    "BOXED_CARD", "FOREIGN_CARD", "DEAL_EXTRA_CARD_FIRST_SEAT", "HOLE_CARD_EXPOSED", "BURN_MISSING_FLOP",
    "BURN_MISSING_TURN", "BURN_MISSING_RIVER", "BURN_EXTRA", "FLOP_TOO_MANY_CARDS", "FLOP_PREMATURE",
    "TURN_PREMATURE", "RIVER_PREMATURE", "RAISE_NOT_REOPENED", "CALL_SHORT", "BET_BELOW_MINIMUM",
    "OVERSIZED_CHIP", "BLIND_WRONG", "BUTTON_WRONG", "DEAL_BEFORE_BLINDS",
    "STUD_BRING_IN_WRONG", "STUD_STREET_CARD_WRONG",  # the right seat brings in; an up-card is turned up
    "STUD_CARD_PREMATURE", "STUD_CARD_WRONG_SEAT",  # early card out; a misdealt card to its seat
})


@dataclass(slots=True)
class Correction:
    """One irregularity whose remedy was asked for."""

    alert: str  # the alert's id
    code: str
    status: Status = "pending"
    note: str = ""

    def as_dict(self) -> dict[str, str]:
        out = {"alert": self.alert, "code": self.code, "status": self.status}
        if self.note:
            out["note"] = self.note
        return out


class Tracker:
    """The corrections of the running hand, in the order their alerts were raised."""

    def __init__(self) -> None:
        self.items: list[Correction] = []

    def raised(self, alert: str, code: str) -> None:
        """An alert went out: a correctable one opens a correction; CORRECTION_NOT_FOLLOWED closes the
        latest open one as overridden (the table did something else, which the core now follows)."""
        if code in CORRECTABLE:
            self.items.append(Correction(alert=alert, code=code))
        elif code == "CORRECTION_NOT_FOLLOWED":
            latest = self._latest_open()
            if latest is not None:
                latest.status = "overridden"

    def open(self) -> list[Correction]:
        return [c for c in self.items if c.status in ("pending", "reversed")]

    def rule(self, ruling: str, alert: str | None, note: str) -> Correction | None:
        """The floor's ruling closes the named open correction (else the latest one still open, else the
        latest overridden one): `accept` what the table did, or `reverse` it."""
        pick = next((c for c in self.items if c.alert == alert), None) if alert else None
        if pick is None:
            pick = self._latest_open() or next(
                (c for c in reversed(self.items) if c.status == "overridden"), None)
        if pick is not None:
            pick.status = "accepted" if ruling == "accept" else "reversed"
            pick.note = note
        return pick

    def close_hand(self) -> list[dict[str, str]]:
        """The hand is over: every correction still pending was followed (no alert said otherwise); a
        reversed one keeps its status (the floor's ruling is the record)."""
        for c in self.items:
            if c.status == "pending":
                c.status = "followed"
        done = [c.as_dict() for c in self.items]
        self.items = []
        return done

    def _latest_open(self) -> Correction | None:
        # A reversed ruling keeps the remedy owed: the table may still fail to carry it out.
        return next((c for c in reversed(self.items) if c.status in ("pending", "reversed")), None)
