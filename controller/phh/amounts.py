"""PHH amounts to integer units: the unit comes from the hand's inputs only; unknown (`inf`) stacks.

A file's amounts may be decimals (cash games in dollars). The integer unit is the smallest power of ten
that makes every *input* amount whole: antes, blinds or straddles, min_bet, starting stacks and bet
amounts. The results (`finishing_stacks`, `winnings`) are never used for it: they are what a replay must
reproduce, and a recorded half chip in a split pot says nothing about the chips that were played.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

from controller.core.forced import UNKNOWN_STACK

INPUT_FIELDS = ("antes", "blinds_or_straddles", "starting_stacks", "min_bet", "bring_in", "small_bet",
                "big_bet")
MAX_PLACES = 6  # a millionth of the file's unit: finer amounts are refused, not rounded
MAX_UNITS = UNKNOWN_STACK // 1000  # a known amount above this is refused (unknown stacks sit above it)


class AmountError(ValueError):
    """An amount that cannot be played (one line, names the field)."""


def decimals(v: Any) -> Iterator[Decimal | int]:
    """Every amount in `v` (a value or nested lists): a Decimal as it is, an int as it is (whole)."""
    if isinstance(v, list):
        for x in v:
            yield from decimals(x)
    elif isinstance(v, Decimal | int) and not isinstance(v, bool):
        yield v


def bet_amounts(actions: Iterable[Any], *, fractional_only: bool = False) -> Iterator[Decimal]:
    """The amounts of `cbr` actions (a malformed one is reported when the action is read);
    `fractional_only`: leave out those written in digits only (whole, or not a number at all)."""
    for a in actions:
        words = str(a).split("#")[0].split()
        if len(words) == 3 and words[1] == "cbr" and not (fractional_only and words[2].isdigit()):
            try:
                yield Decimal(words[2])
            except InvalidOperation:
                continue


def unit_scale(raws: Iterable[dict[str, Any]]) -> int:
    """The power of ten that makes every input amount of the file whole (finite amounts only)."""
    places = 0
    for raw in raws:
        # Whole numbers have no places: only decimals are looked at (parse speed, bench/phh_bench.py).
        values = [d for f in INPUT_FIELDS for d in decimals(raw.get(f)) if not isinstance(d, int)]
        actions = raw.get("actions")
        if isinstance(actions, list):
            values += bet_amounts(actions, fractional_only=True)
        for d in values:
            if not d.is_finite():
                continue
            places = max(places, _places(d))
    if places > MAX_PLACES:
        raise AmountError(f"an amount has {places} decimal places; at most {MAX_PLACES} are supported")
    return int(10**places)


def _places(d: Decimal) -> int:
    """Decimal places that matter (trailing zeros do not); no context arithmetic, so no overflow."""
    _sign, digits, exp = d.as_tuple()
    if not isinstance(exp, int) or exp >= 0:
        return 0
    trailing = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return max(0, -exp - trailing)


def to_units(x: Any, scale: int, what: str, *, signed: bool = False, unknown_ok: bool = False) -> int:
    """One amount in integer units. `inf` is an unknown stack where `unknown_ok`, else an error."""
    if type(x) is int and (signed or x >= 0) and abs(x) * scale <= MAX_UNITS:
        return x * scale  # a whole amount in range: what the Decimal steps below give, without them
    if isinstance(x, bool) or not isinstance(x, Decimal | int):
        raise AmountError(f"{what}: {x!r} is not an amount")
    d = Decimal(x)
    if d.is_nan():
        raise AmountError(f"{what}: nan is not an amount")
    if d.is_infinite():
        if unknown_ok and d > 0:
            return UNKNOWN_STACK
        raise AmountError(f"{what}: {d} is not an amount here (only a starting stack may be inf: unknown)")
    if d < 0 and not signed:
        raise AmountError(f"{what}: {d} is negative")
    if d.copy_abs() > Decimal(MAX_UNITS) / scale:  # copy_abs: no context, no overflow
        raise AmountError(f"{what}: {d} is too large (at most {Decimal(MAX_UNITS) / scale:f})")
    value = d * scale
    if value != value.to_integral_value():
        raise AmountError(f"{what}: {d} is finer than the file's unit 1/{scale} (taken from blinds, antes, "
                          f"stacks and bets)")
    return int(value)


def units_list(v: Any, scale: int, what: str, *, signed: bool = False, unknown_ok: bool = False) -> list[int]:
    if not isinstance(v, list):
        raise AmountError(f"{what} must be a list of amounts")
    return [to_units(x, scale, what, signed=signed, unknown_ok=unknown_ok) for x in v]


def result_list(v: Any, what: str, *, unknown_ok: bool = False) -> list[Decimal]:
    """A recorded result (finishing_stacks, winnings) kept in the file's units, checked but not scaled."""
    if not isinstance(v, list):
        raise AmountError(f"{what} must be a list of amounts")
    out = []
    for x in v:
        if isinstance(x, bool) or not isinstance(x, Decimal | int):
            raise AmountError(f"{what}: {x!r} is not an amount")
        d = Decimal(x)
        if d.is_nan() or (d.is_infinite() and not unknown_ok) or d < 0:
            raise AmountError(f"{what}: {d} is not a result")
        out.append(d)
    return out


def file_amount(units: int, scale: int) -> str:
    """An amount in integer units written back in the file's units (`inf` for an unknown stack)."""
    if units >= UNKNOWN_STACK // 2:
        return "inf"
    d = Decimal(units) / scale
    return f"{d:f}" if scale > 1 else str(units)
