"""Card codes (rank + suit, e.g. 'Ts'), zones, and enrolled decks mapping RFID tag uids to cards."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs < diamonds < hearts < spades: the suit order of 001 §5 and 002 §3
FULL_DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
_CARD_SET = frozenset(FULL_DECK)
_UID_RE = re.compile(r"^[0-9a-f]{2,40}$")
_SEAT_ZONE_RE = re.compile(r"^seat([1-9][0-9]?)$")
FIXED_ZONES = ("board", "burn", "muck", "deck")


class CardError(ValueError):
    """A card code, uid or zone is malformed."""


# Whether a string is a card code ('Ts'): the set's own membership test, a C call with no Python frame
# (a showdown asks it for every hole card of every hand).
is_card: Callable[[object], bool] = _CARD_SET.__contains__


def parse_card(code: str) -> str:
    """Return the canonical card code or raise CardError (accepts '10h' and upper-case suits)."""
    if type(code) is str and code in _CARD_SET:
        return code  # already canonical: the common case, checked first
    if not isinstance(code, str):
        raise CardError(f"card must be a string, got {type(code).__name__}")
    text = code.strip()
    if text[:2] == "10":
        text = "T" + text[2:]
    if len(text) == 2:
        text = text[0].upper() + text[1].lower()
    if text not in _CARD_SET:
        raise CardError(f"bad card code {code!r} (rank from {RANKS}, suit from {SUITS}, e.g. 'Ts')")
    return text


def rank_index(card: str) -> int:
    """0 for a deuce … 12 for an ace."""
    return RANKS.index(card[0])


def suit_index(card: str) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return SUITS.index(card[1])


def normalise_uid(uid: str) -> str:
    if not isinstance(uid, str):
        raise CardError(f"uid must be a hex string, got {type(uid).__name__}")
    text = uid.strip().lower().replace(":", "")
    if not _UID_RE.fullmatch(text) or len(text) % 2:
        raise CardError(f"bad tag uid {uid!r} (even number of hex digits, 2 to 40)")
    return text


@lru_cache(maxsize=256)
def seat_of_zone(zone: str) -> int | None:
    """The seat number for 'seatN', else None (cached: a table has a dozen zones, every card asks)."""
    m = _SEAT_ZONE_RE.fullmatch(zone)
    return int(m.group(1)) if m else None


def check_zone(zone: str, max_seat: int = 99) -> str:
    """Validate a zone name: seat1…seatN, board, burn, muck, deck."""
    if not isinstance(zone, str):
        raise CardError(f"zone must be a string, got {type(zone).__name__}")
    if zone in FIXED_ZONES:
        return zone
    seat = seat_of_zone(zone)
    if seat is None or seat > max_seat:
        raise CardError(f"unknown zone {zone!r} (seat1…seat{max_seat}, board, burn, muck, deck)")
    return zone


@dataclass(frozen=True, kw_only=True, slots=True)
class Deck:
    """An enrolled deck: each RFID tag uid maps to one card code."""

    id: str
    uid_to_card: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, deck_id: str, cards: Mapping[str, str]) -> Deck:
        mapping = {normalise_uid(uid): parse_card(code) for uid, code in cards.items()}
        return cls(id=deck_id, uid_to_card=mapping)

    def card_for(self, uid: str) -> str | None:
        """The card a tag stands for, or None for a tag foreign to this deck."""
        return self.uid_to_card.get(normalise_uid(uid))

    def problems(self) -> list[str]:
        """What is wrong with the enrolment itself: missing and doubled cards."""
        seen: dict[str, int] = {}
        for card in self.uid_to_card.values():
            seen[card] = seen.get(card, 0) + 1
        out = [f"{c} enrolled {n} times" for c, n in sorted(seen.items()) if n > 1]
        missing = missing_cards(seen)
        if missing:
            out.append("not enrolled: " + " ".join(missing))
        return out


def missing_cards(seen: Iterable[str]) -> list[str]:
    """Cards of a full deck not in `seen`, in deck order."""
    have = set(seen)
    return [c for c in FULL_DECK if c not in have]
