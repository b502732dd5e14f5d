"""A tiny independent reader of simulated logs: where every card is, per hand (for conservation tests)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from controller.core.events import CardGone, CardSeen, ConsoleEvent, DeckEvent, Event, HandStart


@dataclass
class Zones:
    """Card → zone for the current hand; zone `deck` (deck checks) is tracked apart."""

    uid_to_card: dict[str, str] = field(default_factory=dict)
    where: dict[str, str] = field(default_factory=dict)
    deck_seen: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    hands: int = 0

    def card_of(self, ev: CardSeen | CardGone) -> str | None:
        if ev.card is not None:
            return ev.card
        assert ev.uid is not None
        return self.uid_to_card.get(ev.uid)

    def feed(self, ev: Event) -> None:
        if isinstance(ev, DeckEvent):
            self.uid_to_card = dict(ev.cards)
        elif isinstance(ev, HandStart):
            self.hands += 1
            self.where = {}
        elif isinstance(ev, ConsoleEvent) and ev.button == "deck_check":
            self.deck_seen = []
        elif isinstance(ev, CardSeen | CardGone):
            self._move(ev)

    def _move(self, ev: CardSeen | CardGone) -> None:
        card = self.card_of(ev)
        if card is None:
            self.foreign.append(str(ev.uid))
            return
        if ev.zone == "deck":
            self.deck_seen.append(card)
            return
        if isinstance(ev, CardSeen):
            if card in self.where:
                self.doubled.append(card)
                return
            self.where[card] = ev.zone
            return
        now = self.where.get(card)
        assert now == ev.zone, f"{card} leaves {ev.zone} but is in {now}"
        del self.where[card]

    def feed_all(self, events: Iterable[Event]) -> None:
        for ev in events:
            self.feed(ev)

    def in_zone(self, prefix: str) -> list[str]:
        return [c for c, z in self.where.items() if z.startswith(prefix)]
