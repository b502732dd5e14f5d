"""PokerKit as the oracle for forced-bet forms: big-blind ante, straddles, a returning player's post, a
dead small blind. Random hands, played by PokerKit with random legal actions, dumped as PHH."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from pokerkit import HandHistory, NoLimitTexasHoldem, State

from tests.conformance.oracle import AUTOMATIONS, _stacks, play_out


@dataclass(frozen=True)
class FormHand:
    seed: int
    form: str
    phh_text: str
    final_stacks: list[int]


def _act(state: State, rng: random.Random, inc: dict[str, int | bool], opening: int) -> None:
    """One random legal action that both PokerKit and the table accept.

    The table's minimum raise over a straddle is the straddle again (docs/phh.md); PokerKit allows less,
    so raises are drawn from the table's minimum up. After an all-in short of a full raise nobody
    re-raises on that street (the table's reopening rule, as in oracle.py).
    """
    if inc["street"] != state.street_index:
        inc.update(street=state.street_index or 0, full=opening if state.street_index == 0 else inc["bb"],
                   closed=False)
    r = rng.random()
    facing = max(state.bets)
    hi = state.max_completion_betting_or_raising_to_amount
    lo = state.min_completion_betting_or_raising_to_amount
    can_raise = state.can_complete_bet_or_raise_to() and not inc["closed"]
    if r < 0.12 and state.can_fold() and state.checking_or_calling_amount:
        state.fold()
    elif r < 0.55 or not can_raise or hi is None or lo is None:
        state.check_or_call()
    else:
        lo = max(lo, facing + int(inc["full"]))
        amount = hi if lo >= hi or rng.random() < 0.4 else rng.choice([lo, rng.randint(lo, hi)])
        state.complete_bet_or_raise_to(amount)
        if amount - facing < int(inc["full"]):
            inc["closed"] = True
        else:
            inc["full"] = amount - facing


def _bb_ante(rng: random.Random, n: int, bb: int, stacks: list[int]) -> tuple[object, tuple[int, ...], int]:
    ante = rng.randint(1, bb + bb // 2)
    stacks[1] = bb + rng.randint(0, ante + 3 * bb) if rng.random() < 0.3 else max(stacks[1], bb + ante + 1)
    # TDA 2024: a short big blind covers the blind first; PokerKit posts the ante first, so it is given
    # the ante actually posted (docs/phh.md "Forced bets").
    posted = min(ante, stacks[1] - bb)
    return ({1: posted} if posted else 0), (bb // 2, bb), bb


def _straddle(rng: random.Random, n: int, bb: int, stacks: list[int]) -> tuple[object, tuple[int, ...], int]:
    k = 1 if n < 5 or rng.random() < 0.6 else 2
    blinds = (bb // 2, bb, *(bb * 2 ** (j + 1) for j in range(k)))
    for j, b in enumerate(blinds[2:], start=2):
        stacks[j] = max(stacks[j], b + rng.randint(1, 20 * bb))
    return 0, blinds, blinds[-1]


def _post(rng: random.Random, n: int, bb: int, stacks: list[int]) -> tuple[object, tuple[int, ...], int]:
    i = rng.randint(2, n - 1)
    stacks[i] = max(stacks[i], bb + rng.randint(1, 20 * bb))
    return 0, tuple([bb // 2, bb] + [(-bb if j == i else 0) for j in range(2, n)]), bb


def _dead_sb(rng: random.Random, n: int, bb: int, stacks: list[int]) -> tuple[object, tuple[int, ...], int]:
    stacks[0] = max(stacks[0], bb + rng.randint(1, 20 * bb))
    return 0, (bb, 0), bb


FORMS: dict[str, Callable[[random.Random, int, int, list[int]], tuple[object, tuple[int, ...], int]]] = {
    "bb_ante": _bb_ante, "straddle": _straddle, "post": _post, "dead_sb": _dead_sb,
}


def form_hand(form: str, seed: int) -> FormHand:
    rng = random.Random(f"{form}/{seed}")
    n = rng.randint(4, 9)
    bb = rng.choice([2, 10, 50, 100])
    stacks = _stacks(rng, n, bb)
    stacks[1] = max(stacks[1], bb + rng.randint(1, 3 * bb))  # blinds post in full (see oracle.py)
    stacks[0] = max(stacks[0], bb)
    antes, blinds, opening = FORMS[form](rng, n, bb, stacks)
    game = NoLimitTexasHoldem(AUTOMATIONS, False, antes, blinds, bb)  # type: ignore[arg-type]
    state = game(stacks, n)
    inc: dict[str, int | bool] = {"street": -1, "full": opening, "closed": False, "bb": bb}
    play_out(state, rng, lambda: _act(state, rng, inc, opening))
    assert not state.status, f"{form} {seed}: hand did not finish"
    text = HandHistory.from_game_state(game, state).dumps()
    return FormHand(seed=seed, form=form, phh_text=text, final_stacks=list(state.stacks))
