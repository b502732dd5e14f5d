"""The PHH standard's fields for the variants the table plays (NT, FT, F7S): read, kept, or refused.

Nothing is dropped silently: a field the standard defines is either used by the importer (READ), kept as
information that does not change play (INFO), or refused by name (REFUSED: it would change the hand and
the table cannot play it). User-defined fields start with `_` (the standard reserves that prefix).
An unknown field (a typo, or a field of another variant) is an error naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

READ = frozenset({
    "variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions", "players",
    "finishing_stacks", "winnings", "ante_trimming_status", "seats", "seat_count", "hand",
})
INFO = frozenset({
    "author", "event", "url", "venue", "address", "city", "region", "postal_code", "country", "time",
    "time_zone", "time_zone_abbreviation", "day", "month", "year", "level", "table", "currency",
    "currency_symbol", "time_limit", "time_banks", "casino",
})
# Fields of other variants (limit, stud, draw) and of rake: they change what the hand is.
REFUSED = {
    "bring_in": "a bring-in (stud)",
    "small_bet": "fixed-limit bet sizes",
    "big_bet": "fixed-limit bet sizes",
    "rake": "a rake taken from the pot",
    "rake_percentage": "a rake taken from the pot",
    "rake_cap": "a rake taken from the pot",
}


class FieldError(ValueError):
    """A field the importer cannot accept (one line, names the field)."""


# Per variant, the REFUSED fields it reads after all (PHH's required-field table: fixed-limit hold'em has
# small and big bets, fixed-limit stud a bring-in and small and big bets and no blinds).
VARIANT_READS: dict[str, frozenset[str]] = {
    "NT": frozenset(),
    "FT": frozenset({"small_bet", "big_bet"}),
    "F7S": frozenset({"bring_in", "small_bet", "big_bet"}),
}
TITLES = {"NT": "no-limit hold'em", "FT": "fixed-limit hold'em", "F7S": "fixed-limit seven-card stud"}


def check_fields(raw: Mapping[str, Any], variant: str = "NT") -> None:
    """Refuse, by name, any field that would change the hand, and any field the standard does not know."""
    extra = VARIANT_READS.get(variant, frozenset())
    for name, value in raw.items():
        if name in READ or name in INFO or name in extra or name.startswith("_"):
            continue
        if name in REFUSED:
            if value in (0, None, False):
                continue  # present but without effect (e.g. rake = 0)
            raise FieldError(f"field {name!r} ({REFUSED[name]}) is not part of "
                             f"{TITLES.get(variant, variant)} as the table plays it")
        raise FieldError(f"field {name!r} is not a PHH field (user-defined fields start with '_')")


def check_shape(raw: Mapping[str, Any], n: int) -> None:
    """Per-player lists must have one entry per player; seat numbers must be distinct and in range."""
    for name in ("antes", "blinds_or_straddles", "players", "finishing_stacks", "winnings", "seats"):
        v = raw.get(name)
        if v is not None and (not isinstance(v, list) or len(v) != n):
            raise FieldError(f"field {name!r} must list {n} entries (one per player)")
    trim = raw.get("ante_trimming_status")
    if trim is not None and not isinstance(trim, bool):
        raise FieldError("field 'ante_trimming_status' must be true or false")
    # Read, and the same either way at the table: antes are dead money for the main pot (docs/phh.md).
    seat_count = raw.get("seat_count")
    if seat_count is not None and (isinstance(seat_count, bool) or not isinstance(seat_count, int)
                                   or not n <= seat_count <= 99):
        raise FieldError(f"field 'seat_count' must be a whole number from {n} to 99")
    seats = raw.get("seats")
    if seats is not None:
        top = seat_count if isinstance(seat_count, int) else 99
        if any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= top for s in seats):
            raise FieldError(f"field 'seats' must hold seat numbers from 1 to {top}")
        if len(set(seats)) != len(seats):
            raise FieldError("field 'seats' names a seat twice")
