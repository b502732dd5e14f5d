"""Showdowns per second at 9 players all-in preflop: cardtable's Showdown against PokerKit, same run.

Both sides get the same hands (stacks, hole cards, board). Timed for cardtable: `Showdown.settle` on a
HandRecord whose betting is over (hand evaluation, side pots, splits, findings, summary). Timed for
PokerKit: from the last call to the chips pushed (dealing the five board cards, showdown, hand
killing, pushing and pulling chips, all automated). Usage: python bench/showdown_bench.py [--hands N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import Automation, NoLimitTexasHoldem, State

from controller.core.cards import FULL_DECK
from controller.core.profiles import PROFILES
from controller.core.record import ActionRecord, HandRecord
from controller.core.showdown import Showdown

PLAYERS = 9
SB, BB = 50, 100
AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)


def deal(rng: random.Random) -> tuple[list[int], list[list[str]], list[str]]:
    stacks = [rng.randint(1_000, 20_000) for _ in range(PLAYERS)]  # distinct stacks: many side pots
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    holes = [[deck.pop(), deck.pop()] for _ in range(PLAYERS)]
    return stacks, holes, [deck.pop() for _ in range(5)]


def record(stacks: list[int], holes: list[list[str]], board: list[str]) -> HandRecord:
    seats = tuple(range(1, PLAYERS + 1))  # button on seat 9: seat 1 is the small blind
    rec = HandRecord(table="b", hand=1, t_start=0.0, button=PLAYERS, sb_seat=1, bb_seat=2, sb=SB, bb=BB,
                     ante=0, chip=1, dealt_in=seats, starting_stacks=dict(zip(seats, stacks, strict=True)),
                     hole={s: holes[s - 1] for s in seats}, board=list(board),
                     committed=dict(zip(seats, stacks, strict=True)), ended="showdown")
    rec.shown = {s: list(h) for s, h in rec.hole.items()}  # all-in: every hand is tabled
    rec.all_in_order = [*seats[2:], 1, 2]
    rec.actions = [ActionRecord(t=0.0, street="preflop", seat=s, action="allin", total=c, added=c)
                   for s, c in rec.committed.items()]
    return rec


def kit_until_last_call(stacks: list[int], holes: list[list[str]]) -> State:
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (SB, BB), BB, stacks, PLAYERS)
    for i in range(PLAYERS):
        state.deal_hole("".join(holes[i]))
    while state.actor_index is not None:
        if state.can_complete_bet_or_raise_to():
            state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
        else:
            state.check_or_call()
    return state


def kit_finish(state: State, board: list[str]) -> list[int]:
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")  # an unknown burn: no deck bookkeeping warnings in the timing
            continue
        state.deal_board("".join(board[len(state.board_cards):][: 3 if not state.board_cards else 1]))
    return list(state.stacks)


def measure(hands: int, seed: int) -> tuple[float, float, int]:
    rng = random.Random(seed)
    deals = [deal(rng) for _ in range(hands)]
    records = [record(*d) for d in deals]
    kit_states = [kit_until_last_call(st, h) for st, h, _ in deals]
    cuca = PROFILES["cuca"]
    t0 = time.perf_counter()
    ours = [Showdown(r, cuca, merge_equal_pots=True).settle(1.0).finishing_stacks for r in records]
    t1 = time.perf_counter()
    theirs = [kit_finish(s, d[2]) for s, d in zip(kit_states, deals, strict=True)]
    t2 = time.perf_counter()
    same = sum(1 for o, k in zip(ours, theirs, strict=True) if [o[s] for s in sorted(o)] == k)
    return hands / (t1 - t0), hands / (t2 - t1), same


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    warnings.filterwarnings("ignore", category=UserWarning)
    runs = [measure(args.hands, seed) for seed in range(args.rounds)]
    ours = statistics.median(r[0] for r in runs)
    kit = statistics.median(r[1] for r in runs)
    same = sum(r[2] for r in runs)
    total = args.hands * args.rounds
    print(f"9 players all-in preflop, {args.hands} hands x {args.rounds} rounds (median)")
    print(f"{'engine':<28}{'showdowns/s':>14}{'us/showdown':>14}")
    print(f"{'cardtable Showdown.settle':<28}{ours:>14,.0f}{1e6 / ours:>14.1f}")
    print(f"{'PokerKit 0.7.7':<28}{kit:>14,.0f}{1e6 / kit:>14.1f}")
    print(f"{'ratio cardtable/PokerKit':<28}{ours / kit:>14.2f}")
    print(f"identical final stacks: {same}/{total}")
    return 0 if same == total else 1


if __name__ == "__main__":
    raise SystemExit(main())
