"""Rulebook profiles as data: where the rulebooks disagree, the profile says which reading applies."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

FlopFix = Literal[
    "recall_reshuffle_redeal",  # 000: recall the flop (not the burn), reshuffle with the stub, cut, redeal
    "reshuffle_stub_redeal",  # 001: shuffle the remaining deck (burns not mixed in), redeal the flop
    "restore_before_bet",  # 004: put the cards right if found before any bet in that round
    "extra_is_next_burn",  # 004 §7: identifiable extra card becomes the next burn; else floor draws one
    "fourth_is_exposed_burn",  # 003 (4): the 4th card becomes an exposed burn; unidentifiable: redeal
    "scramble_floor_picks_burn",  # TDA: the cards are scrambled face down, the floor picks the next burn
    "correct_or_reshuffle",  # 003 (5): correct if possible, else reshuffle
]
UnderRaise = Literal["half_or_more_is_raise", "more_than_half_is_raise"]
AllInReopen = Literal["full_raise", "half_raise"]
# What the under-raise's 50 % is taken of: 000 §3.1 measures the raise against the bet the player faces
# (the previous bet, all of it); 001 §8 and TDA against the full raise increment. The two agree for the
# first raise of a round and differ after a re-raise.
UnderRaiseBasis = Literal["raise_increment", "previous_bet"]
# Odd units of a split pot: 000 §4.1 gives one odd unit to each winner in turn from the button's left;
# 001 §9.1 gives the indivisible rest to the first winner left of the button (as TDA does).
OddChips = Literal["one_each", "all_to_first"]
# When a misdeal can no longer be called: after N betting actions (000 §2.4, 001 §14, 004 §4(1)), or
# TDA's "substantial action" (two actions of which one put chips in, or three actions of any kind).
ActionLimitRule = Literal["actions", "substantial"]
# A turn dealt before the flop betting closed: 000 §2.6 / 001 §14 (3.) / 003 (9) set it aside and deal
# the river-to-be as the turn (the set-aside card is shuffled back before a river without a burn);
# 004 §8(4) shuffles it back at once and deals the street anew (burn, turn, then burn, river as usual).
PrematureTurn = Literal["set_aside", "reshuffle"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Profile:
    name: str
    title: str
    max_seats: int = 10
    # Two betting actions in the round make most dealing errors stand (000 §2.4, 001 §14, 004 §4(1)).
    misdeal_action_limit: int = 2
    action_limit_rule: ActionLimitRule = "actions"
    flop_no_burn: FlopFix = "reshuffle_stub_redeal"
    four_card_flop: FlopFix = "reshuffle_stub_redeal"
    five_plus_flop: FlopFix = "reshuffle_stub_redeal"
    under_raise: UnderRaise = "more_than_half_is_raise"
    under_raise_basis: UnderRaiseBasis = "raise_increment"
    all_in_reopen: AllInReopen = "half_raise"
    odd_chips: OddChips = "all_to_first"
    premature_turn: PrematureTurn = "set_aside"
    # A card seen face up in the stub (boxed) that the dealer then turns as a flop, turn or river card:
    # 004 §5 takes a boxed card out of play; 000 §2.5-§2.7 say such a board card is valid and dealt.
    boxed_board_card_plays: bool = False
    # A missed burn that stood (two actions taken): 003 (6) deals the later cards as they would have
    # come, so the next street may take two burns; the other books are silent (a second burn is BURN_EXTRA).
    missed_burn_made_up: bool = False
    # One extra card to the first seat found after the action limit: 003 (3) sets no limit and 004 §4(4)
    # has the floor draw one card as the burn, so the hand plays; 000 §2.4 and 001 §14 make it dead.
    late_extra_card_is_burn: bool = False
    knock_pause_s: float = 0.8
    action_time_s: float = 60.0
    all_in_time_s: float = 120.0
    clock_s: float = 60.0
    # Limit games (controller/core/structures.py): raises allowed after the opening bet in one round
    # (bet + 3 raises), and whether the cap is lifted while only two players are in the hand. TDA 2024
    # Rule 48 keeps the cap heads-up (until an event is down to two players); the rulebooks are silent.
    limit_raise_cap: int = 3
    limit_heads_up_uncapped: bool = False


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            name="handbuch", title="Dealer-Handbuch (000)", max_seats=11,
            flop_no_burn="recall_reshuffle_redeal", four_card_flop="recall_reshuffle_redeal",
            five_plus_flop="recall_reshuffle_redeal", under_raise="half_or_more_is_raise",
            under_raise_basis="previous_bet", all_in_reopen="full_raise", odd_chips="one_each",
            boxed_board_card_plays=True,
        ),
        Profile(name="cuca", title="Cuca's House Rules v1.0.5 (001)"),
        Profile(
            name="uesg", title="Dealer- und Floorman-Ordnung, ÜSG (004)",
            flop_no_burn="restore_before_bet", four_card_flop="extra_is_next_burn",
            five_plus_flop="extra_is_next_burn", all_in_reopen="full_raise",  # 004 is silent: handbuch's
            premature_turn="reshuffle", late_extra_card_is_burn=True,
        ),
        Profile(
            name="classic", title="Hold'em irregularities, classic card-room rules (003)",
            flop_no_burn="correct_or_reshuffle", four_card_flop="fourth_is_exposed_burn",
            five_plus_flop="reshuffle_stub_redeal", all_in_reopen="full_raise",
            missed_burn_made_up=True, late_extra_card_is_burn=True,
        ),
        Profile(
            name="tda", title="TDA 2024 (public Tournament Directors Association rules)",
            flop_no_burn="restore_before_bet", four_card_flop="scramble_floor_picks_burn",
            five_plus_flop="scramble_floor_picks_burn", all_in_reopen="full_raise",
            # TDA 2024 Rule 43: a raise of 50 % or more of the last full bet or raise must be completed
            # (the handbuch measures it against the whole previous bet instead).
            under_raise="half_or_more_is_raise",
            action_limit_rule="substantial",
        ),
    )
}
DEFAULT_PROFILE = "cuca"


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r} (one of {', '.join(PROFILES)})") from None


def with_overrides(profile: Profile, **changes: object) -> Profile:
    """A copy with some fields changed (config may tune pauses and time allowances)."""
    return replace(profile, **changes)  # type: ignore[arg-type]
