"""Score the rules core against the simulator: injected errors detected or missed, and false alerts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.core.alerts import FAULT_SEVERITIES, Alert
from controller.core.events import HandStart
from controller.sim.table import SimHand


@dataclass(kw_only=True)
class Score:
    hands: int = 0
    clean_hands: int = 0
    injected: Counter[str] = field(default_factory=Counter)  # by code
    detected: Counter[str] = field(default_factory=Counter)
    missed: Counter[str] = field(default_factory=Counter)
    alerts: Counter[str] = field(default_factory=Counter)  # every alert by code
    false_alerts: Counter[str] = field(default_factory=Counter)  # fault alerts nobody injected, by code
    clean_faults: Counter[str] = field(default_factory=Counter)  # fault alerts in clean hands, by code
    missed_hands: list[int] = field(default_factory=list)  # hand numbers of the misses
    stuck: int = 0  # hands the core had not followed to their end when the next one started
    stuck_hands: list[int] = field(default_factory=list)

    @property
    def follow_up_false(self) -> int:
        """Fault alerts in hands with an injected error that neither the error nor its legitimate
        follow-ups explain (a cascade after the correction)."""
        return sum(self.false_alerts.values()) - sum(self.clean_faults.values())

    @property
    def all_detected(self) -> bool:
        return not self.missed

    def summary(self) -> str:
        """The closing table of `cardtable simulate`: injected, detected, missed, false alerts."""
        lines = [f"hands {self.hands} (clean {self.clean_hands}, with an injected error "
                 f"{sum(self.injected.values())})",
                 f"{'code':<30} {'injected':>8} {'detected':>8} {'missed':>6} {'alerts':>6} {'false':>5}"]
        codes = sorted(set(self.injected) | set(self.alerts) | set(self.false_alerts))
        for code in codes:
            lines.append(f"{code:<30} {self.injected[code]:>8} {self.detected[code]:>8} "
                         f"{self.missed[code]:>6} {self.alerts[code]:>6} {self.false_alerts[code]:>5}")
        lines.append(f"{'total':<30} {sum(self.injected.values()):>8} {sum(self.detected.values()):>8} "
                     f"{sum(self.missed.values()):>6} {sum(self.alerts.values()):>6} "
                     f"{sum(self.false_alerts.values()):>5}")
        lines.append(f"fault alerts (misdeal/error/warning/dead_hand) on clean hands: "
                     f"{sum(self.clean_faults.values())}")
        lines.append(f"stuck hands (not followed to their end): {self.stuck}; follow-up false alerts "
                     f"after an error: {self.follow_up_false}")
        return "\n".join(lines)


def _windows(hands: Sequence[SimHand]) -> list[tuple[float, float, float]]:
    """Each hand's time span (first event, next hand's first event) and how far its late alerts reach.

    Alerts raised between the next hand's first event and its `hand_start` inclusive (settlement, a card
    missing at the end of the hand) may still be about this hand.
    """
    starts = [h.events[0].t if h.events else 0.0 for h in hands]
    ends = [*starts[1:], float("inf")]
    late = [*(_hand_start_t(h) for h in hands[1:]), float("inf")]
    return list(zip(starts, ends, late, strict=True))


def _hand_start_t(hand: SimHand) -> float:
    return next((e.t for e in hand.events if isinstance(e, HandStart)),
                hand.events[0].t if hand.events else 0.0)


class Summary(Protocol):
    """A hand summary as the engine emits it (controller.core.engine.HandSummary)."""

    @property
    def hand(self) -> int: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...


STUCK_NOTE = "hand not finished when the next hand started"  # written by Engine._close_hand


def score(hands: Sequence[SimHand], alerts: Iterable[Alert], summaries: Iterable[Summary] = ()) -> Score:
    """Match alerts to the hands by time and compare their codes with the injected errors; hand
    summaries (when given) tell which hands the core had not followed to their end."""
    out = Score(hands=len(hands))
    for summ in summaries:
        if STUCK_NOTE in summ.payload.get("notes", ()):
            out.stuck += 1
            out.stuck_hands.append(summ.hand)
    spans = _windows(hands)
    per_hand: list[list[Alert]] = [[] for _ in hands]
    late: list[list[Alert]] = [[] for _ in hands]  # alerts from the next hand's start to its hand_start
    for alert in sorted(alerts, key=lambda a: a.t):
        out.alerts[alert.code] += 1
        for i, (lo, hi, late_hi) in enumerate(spans):
            if lo <= alert.t < hi:
                per_hand[i].append(alert)
                break
            if hi <= alert.t <= late_hi:
                late[i].append(alert)
        else:
            if spans and alert.t < spans[0][0]:
                per_hand[0].append(alert)
    consumed: set[str] = set()  # boundary alerts that an earlier hand needed for its detection
    for i, hand in enumerate(hands):
        own = [a for a in per_hand[i] if a.id not in consumed]
        expected = {hand.injected, *hand.also} if hand.injected else set()
        if hand.injected:
            out.injected[hand.injected] += 1
            late_hit = [a for a in late[i] if a.code == hand.injected]
            if any(a.code == hand.injected for a in own):
                out.detected[hand.injected] += 1
            elif late_hit:
                out.detected[hand.injected] += 1
                consumed.add(late_hit[0].id)
            else:
                out.missed[hand.injected] += 1
                out.missed_hands.append(hand.number)
            consumed.update(a.id for a in late[i] if a.code in hand.also)
        else:
            out.clean_hands += 1
        for alert in own:
            if alert.severity in FAULT_SEVERITIES and alert.code not in expected:
                out.false_alerts[alert.code] += 1
                if not hand.injected:
                    out.clean_faults[alert.code] += 1
    return out
