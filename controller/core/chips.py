"""Pure helpers for reading chips placed in a bet zone: the oversized-chip test and the under-raise rule."""

from __future__ import annotations

from collections.abc import Collection

from controller.core.profiles import Profile

# Chip readers report totals, not denominations. A single chips event whose increase is exactly one of
# these values is read as ONE chip (the usual tournament chip set: T25 … T1M). The engine may pass the
# chips actually in play instead (BettingRound(chip_values=...)). See docs/betting.md "Oversized chip".
DEFAULT_CHIP_VALUES: frozenset[int] = frozenset(
    {25, 100, 500, 1_000, 5_000, 25_000, 100_000, 500_000, 1_000_000}
)


def is_oversized_chip(increase: int, to_call: int, chip_values: Collection[int]) -> bool:
    """True when `increase` looks like one chip worth more than the amount to call (000 §3.1, 001 §8)."""
    return increase > to_call and increase in chip_values


def under_raise_stands(profile: Profile, raised_by: int, full_increment: int, declared: bool,
                       facing: int = 0) -> bool:
    """Does a bet/raise short of the minimum stand as a raise (to be completed) rather than a call?

    `raised_by` is how far the new total goes above the current bet, `full_increment` the legal minimum
    increment (last full raise, at least the big blind), `facing` the current bet itself (0: an opening
    bet, or a caller that does not know it). The half is taken of the increment, or, under the profile's
    `under_raise_basis` "previous_bet" (handbuch: 000 §3.1 speaks of the bet made before the player), of
    the bet faced when there is one. handbuch: an undeclared raise of 50 % or more stands; a declared
    raise always stands. cuca (001 §8): more than half stands, at most half is a call, declared or not.
    """
    basis = facing if profile.under_raise_basis == "previous_bet" and facing > 0 else full_increment
    if profile.under_raise == "half_or_more_is_raise":
        return declared or 2 * raised_by >= basis
    return 2 * raised_by > basis


def all_in_reopens(profile: Profile, raised_by: int, full_increment: int) -> bool:
    """Does an all-in that raises by less than a full raise reopen the betting (001 §8.2, 000 §3.1)?

    full_raise profiles: never (only a full raise reopens). half_raise (cuca): when it reaches at least
    half the minimum raise; below that it is treated as a call.
    """
    if profile.all_in_reopen == "half_raise":
        return 2 * raised_by >= full_increment
    return False
