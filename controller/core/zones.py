"""Where every card is: enrolled decks, uid resolution, card locations by zone, and deck checks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.core.cards import FULL_DECK, Deck


@dataclass(frozen=True, kw_only=True, slots=True)
class Resolved:
    """A card reference resolved against the decks: `card` is None for a tag no active deck knows."""

    card: str | None
    uid: str | None
    foreign: str = ""  # why the tag is foreign ("" when it belongs to the active deck)


@dataclass(kw_only=True, slots=True)
class DeckCheck:
    """Cards read in zone `deck` between console `deck_check` and `deck_check_done`."""

    t: float
    seen: dict[str, str | None] = field(default_factory=dict)  # card → uid (None for a card code)
    duplicates: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)


class Zones:
    """The physical state of the cards. Zone names as in interfaces.md §1; `aside` holds recalled cards."""

    def __init__(self) -> None:
        self.decks: list[Deck] = []
        self.where: dict[str, str] = {}  # card → zone it lies in now
        self.uid_of: dict[str, str] = {}  # card → uid it was last seen with
        self.counts: dict[str, int] = {}  # zone → number of cards in it
        self.check: DeckCheck | None = None

    # --- decks ------------------------------------------------------------------------------------
    def enrol(self, deck_id: str, cards: Mapping[str, str]) -> Deck:
        deck = Deck.from_mapping(deck_id, cards)
        self.decks.append(deck)
        return deck

    @property
    def active(self) -> Deck | None:
        return self.decks[-1] if self.decks else None

    def resolve(self, card: str | None, uid: str | None) -> Resolved:
        """A card code is taken as read; a uid is looked up in the active (newest) deck."""
        if card is not None:
            return Resolved(card=card, uid=None)
        assert uid is not None
        deck = self.active
        if deck is None:
            return Resolved(card=None, uid=uid, foreign=f"tag {uid} read but no deck is enrolled")
        found = deck.uid_to_card.get(uid)
        if found is not None:
            return Resolved(card=found, uid=uid)
        for old in reversed(self.decks[:-1]):
            if uid in old.uid_to_card:
                return Resolved(card=None, uid=uid,
                                foreign=f"tag {uid} is {old.uid_to_card[uid]} of deck {old.id!r}, "
                                        f"not of the active deck {deck.id!r}")
        return Resolved(card=None, uid=uid, foreign=f"tag {uid} is not enrolled in deck {deck.id!r}")

    # --- locations ----------------------------------------------------------------------------------
    def put(self, card: str, zone: str, uid: str | None) -> str | None:
        """Place a card; returns the zone it was in before (None when it was not on the table)."""
        where, counts = self.where, self.counts
        before = where.get(card)
        if before is not None:
            counts[before] -= 1
        where[card] = zone
        counts[zone] = counts.get(zone, 0) + 1
        if uid is not None:
            self.uid_of[card] = uid
        return before

    def take(self, card: str, zone: str) -> bool:
        """A card leaves `zone`; False when the readers never placed it there."""
        if self.where.get(card) != zone:
            return False
        del self.where[card]
        self.counts[zone] -= 1
        return True

    def zone_of(self, card: str) -> str | None:
        return self.where.get(card)

    def count(self, zone: str) -> int:
        return self.counts.get(zone, 0)

    def cards_in(self, zone: str) -> list[str]:
        return [c for c, z in self.where.items() if z == zone]

    def clear(self) -> None:
        """A new hand: the dealer gathered and shuffled every card."""
        self.where.clear()
        self.counts.clear()

    # --- deck checks --------------------------------------------------------------------------------
    def start_check(self, t: float) -> None:
        self.check = DeckCheck(t=t)

    def check_card(self, resolved: Resolved) -> None:
        chk = self.check
        assert chk is not None
        if resolved.card is None:
            chk.foreign.append(resolved.foreign)
            return
        card = resolved.card
        if card in chk.seen:
            # The same tag read twice is one card passing the reader twice; another tag is a duplicate.
            if resolved.uid is None or chk.seen[card] != resolved.uid:
                chk.duplicates.append(card)
            return
        chk.seen[card] = resolved.uid

    def finish_check(self) -> tuple[list[str], list[str], list[str]]:
        """(missing cards in deck order, duplicated cards, foreign-tag descriptions)."""
        chk = self.check
        assert chk is not None
        self.check = None
        missing = [c for c in FULL_DECK if c not in chk.seen]
        return missing, sorted(set(chk.duplicates)), chk.foreign
