"""PokerKit as the test-only oracle: random no-limit hands and final stacks of PHH hands."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from pokerkit import Automation, HandHistory, NoLimitTexasHoldem, State

from controller.core.cards import FULL_DECK
from controller.phh import PhhHand, parse_phh

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def kit_final_stacks(hand: PhhHand) -> list[int]:
    """PokerKit's stacks after playing a concrete (no `??`) NT hand; antes untrimmed (dead money)."""
    hh = HandHistory(
        variant="NT", antes=list(hand.antes), blinds_or_straddles=list(hand.blinds), min_bet=hand.min_bet,
        starting_stacks=list(hand.starting_stacks), actions=list(hand.actions), ante_trimming_status=False,
    )
    states = list(hh)
    return list(states[-1].stacks)


@dataclass(frozen=True)
class RandomHand:
    seed: int
    phh_text: str
    final_stacks: list[int]


def _stacks(rng: random.Random, n: int, bb: int) -> list[int]:
    """A mix of deep stacks, short stacks and stacks that cannot even cover the big blind."""
    out = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.45:
            out.append(rng.randint(bb, 30 * bb))
        elif kind < 0.9:
            out.append(rng.randint(40 * bb, 300 * bb))
        else:
            out.append(rng.randint(1, bb))
    return out


@dataclass
class _Street:
    """Raise bookkeeping: after an all-in short of a full raise nobody raises again on that street.

    PokerKit lets every seat re-raise after any all-in; the table's betting rules (001 §8.2 per
    profile) do not reopen the betting for seats that already acted. Both agree when nobody re-raises.
    """

    index: int | None = None
    full_increment: int = 0
    closed_to_raises: bool = False


def _act(state: State, rng: random.Random, street: _Street, bb: int) -> None:
    """One random legal action, leaning towards big bets and all-ins."""
    if street.index != state.street_index:
        street.index, street.full_increment, street.closed_to_raises = state.street_index, bb, False
    r = rng.random()
    can_raise = state.can_complete_bet_or_raise_to() and not street.closed_to_raises
    if r < 0.12 and state.can_fold() and state.checking_or_calling_amount:
        state.fold()
    elif r < 0.55 or not can_raise:
        state.check_or_call()
    else:
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        assert lo is not None and hi is not None
        pick = rng.random()
        if pick < 0.4:
            amount = hi
        elif pick < 0.7:
            amount = lo
        else:
            amount = rng.randint(lo, hi)
        facing = max(state.bets)
        state.complete_bet_or_raise_to(amount)
        increment = amount - facing
        if increment < street.full_increment:
            street.closed_to_raises = True
        else:
            street.full_increment = increment


def play_out(state: State, rng: random.Random, act: Callable[[], None]) -> None:
    """Deal from a shuffled deck and let `act` take every decision until the hand is over."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    while state.can_deal_hole():
        state.deal_hole(deck.pop())
    while state.status:
        if state.can_burn_card():
            state.burn_card(deck.pop())
        elif state.can_deal_board():
            state.deal_board(deck.pop())
        elif state.actor_index is not None:
            act()
        else:
            break


@cache
def random_hand(seed: int) -> RandomHand:
    rng = random.Random(seed)
    n = rng.randint(2, 9)
    bb = rng.choice([2, 10, 50, 100])
    sb = bb // 2 if rng.random() < 0.8 else rng.randint(1, bb - 1)
    ante = 0 if rng.random() < 0.7 else rng.randint(1, bb // 2 or 1)
    stacks = _stacks(rng, n, bb)
    # The big blind posts in full: with a short big blind the table's betting rules (docs/betting.md)
    # make the others call the full big blind, PokerKit only what was posted; not a settlement question.
    bb_i = 0 if n == 2 else 1
    stacks[bb_i] = max(stacks[bb_i], ante + bb + rng.randint(1, 3 * bb))
    game = NoLimitTexasHoldem(AUTOMATIONS, False, ante, (sb, bb), bb)
    state = game(stacks, n)
    street = _Street()
    play_out(state, rng, lambda: _act(state, rng, street, bb))
    assert not state.status, f"seed {seed}: hand did not finish"
    text = HandHistory.from_game_state(game, state).dumps()
    return RandomHand(seed=seed, phh_text=text, final_stacks=list(state.stacks))


def parse_one(text: str) -> PhhHand:
    (hand,) = parse_phh(text)
    return hand
