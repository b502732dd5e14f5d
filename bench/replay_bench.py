"""Replay benchmark: hands per second through the cardtable Engine vs PokerKit, on the same hands.

The virtual table (controller/sim) generates physical event logs of no-limit hold'em hands, 6-max and
9-max, every hand played to the river (players never fold but bet and raise). The same hands are then
replayed, in the same run:

- through `controller.core.engine.Engine.feed`, event by event (RFID tag uids, blinds as chips, knocks,
  burns, board cards, actions, showdown exposures, mucks), exactly as `cardtable replay` would;
- through PokerKit 0.7.7 (`NoLimitTexasHoldem.create_state`), driven card by card: `deal_hole` once per
  hole card, `burn_card` and `deal_board` per card, `check_or_call`, `complete_bet_or_raise_to`; PokerKit
  settles the showdown with its own automations.

The PokerKit operations are translated from the same events before the clock starts, so PokerKit is
timed on its calls alone (the Engine is timed including uid resolution and every event it reads).
Times are CPU seconds of this process (time.process_time), best of --runs.

Usage: python bench/replay_bench.py [--hands N] [--seed S] [--profile] [--json]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import Automation, Mode, NoLimitTexasHoldem

from controller.core.engine import Engine
from controller.core.events import (
    ActionEvent,
    CardSeen,
    ChipsEvent,
    DeckEvent,
    Event,
    HandStart,
    LevelEvent,
    SeatEvent,
)
from controller.sim import SimHand, VirtualTable

# CPU time of this process: the machine running the benchmark may be shared, wall time is noisy.
CLOCK = time.process_time

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass
class KitHand:
    """One hand as PokerKit operations, players in deal order (index 0 first left of the button)."""

    blinds: tuple[int, ...]
    bb: int
    stacks: tuple[int, ...]
    ops: list[tuple[str, Any]] = field(default_factory=list)
    seats: tuple[int, ...] = ()
    final: dict[int, int] = field(default_factory=dict)  # the simulator's stacks after the hand
    short_bb: bool = False  # the big blind was all-in for less than the big blind


def translate(hands: Sequence[SimHand]) -> list[KitHand]:
    """Turn the simulator's event logs into PokerKit operations (outside the timed region)."""
    uid_card: dict[str, str] = {}
    stacks: dict[int, int] = {}
    sb = bb = 0
    out: list[KitHand] = []
    for hand in hands:
        kit: KitHand | None = None
        street_bet = 0
        blinds: dict[int, int] = {}
        order: list[int] = []
        for ev in hand.events:
            if isinstance(ev, DeckEvent):
                uid_card = dict(ev.cards)
            elif isinstance(ev, SeatEvent):
                stacks[ev.seat] = ev.stack
            elif isinstance(ev, LevelEvent):
                sb, bb = ev.sb, ev.bb
            elif isinstance(ev, HandStart):
                kit = KitHand(blinds=(), bb=bb, stacks=())
                blinds, order = {}, []
            elif isinstance(ev, ChipsEvent):
                blinds[ev.seat] = ev.amount
            elif isinstance(ev, CardSeen) and kit is not None:
                card = ev.card or uid_card[str(ev.uid)]
                if ev.zone.startswith("seat"):
                    seat = int(ev.zone[4:])
                    if seat not in order:
                        order.append(seat)
                    kit.ops.append(("hole", card))
                elif ev.zone == "burn":
                    kit.ops.append(("burn", card))
                    street_bet = 0
                elif ev.zone == "board":
                    kit.ops.append(("board", card))
            elif isinstance(ev, ActionEvent) and kit is not None:
                if not kit.seats:
                    kit.seats = tuple(order)
                    kit.stacks = tuple(stacks[s] for s in order)
                    kit.blinds = _blinds(order, blinds, sb, bb)
                    street_bet = bb
                if ev.action == "fold":
                    kit.ops.append(("fold", None))
                elif ev.amount is not None and ev.amount > street_bet:
                    kit.ops.append(("raise", ev.amount))
                    street_bet = ev.amount
                else:
                    kit.ops.append(("call", None))
        assert kit is not None
        if not kit.seats:  # no betting at all (everyone all-in from the blinds)
            kit.seats = tuple(order)
            kit.stacks = tuple(stacks[s] for s in order)
            kit.blinds = _blinds(order, blinds, sb, bb)
        kit.final = {s: hand.stacks[s] for s in kit.seats}
        kit.short_bb = bool(blinds) and max(blinds.values()) < bb
        stacks = {s: v for s, v in hand.stacks.items() if v > 0}
        out.append(kit)
    return out


def _blinds(order: list[int], posted: dict[int, int], sb: int, bb: int) -> tuple[int, ...]:
    """PokerKit blinds by position (index 0 first left of the button), from the seats that posted.

    The dead-button rule can leave the small blind dead or put the blinds further round (after a
    fresh table sits down); PokerKit takes a blind per position, so both are expressed exactly.
    Heads-up PokerKit swaps the two blinds itself (the button, index 1, posts the small one).
    """
    if len(order) == 2:
        return (sb, bb)
    posters = [i for i, seat in enumerate(order) if seat in posted]
    out = [0] * (posters[-1] + 1)
    out[posters[-1]] = bb
    if len(posters) == 2:
        out[posters[0]] = sb
    return tuple(out)


def same_result(kit: KitHand, stacks: Sequence[int]) -> bool:
    """PokerKit's stacks equal the simulator's, up to odd chips of split pots.

    PokerKit hands odd chips out one at a time; the simulator and the engine give the whole
    indivisible rest to the first winner left of the button (001 §9.1). PokerKit also lets the others
    call a short all-in big blind for its amount, where the simulator and the engine (and the
    rulebooks) keep the full big blind as the bet: such hands (`short_bb`) cannot agree.
    """
    got = dict(zip(kit.seats, stacks, strict=True))
    if sum(got.values()) != sum(kit.final.values()):
        return False
    return all(abs(got[s] - kit.final[s]) < len(kit.seats) for s in kit.seats)


def play_kit(kit: KitHand) -> Any:
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, kit.blinds, kit.bb, kit.stacks,
                                            len(kit.stacks), mode=Mode.TOURNAMENT)
    for op, arg in kit.ops:
        if op == "hole":
            state.deal_hole(arg)
        elif op == "burn":
            state.burn_card(arg)
        elif op == "board":
            state.deal_board(arg)
        elif op == "call":
            state.check_or_call()
        elif op == "raise":
            state.complete_bet_or_raise_to(arg)
        else:
            state.fold()
    return state


def time_engine(events: Sequence[Event]) -> tuple[float, Engine]:
    engine = Engine()
    feed = engine.feed
    t0 = CLOCK()
    for ev in events:
        feed(ev)
    return CLOCK() - t0, engine


def time_kit(kits: Sequence[KitHand]) -> float:
    t0 = CLOCK()
    for kit in kits:
        play_kit(kit)
    return CLOCK() - t0


def best_of(runs: int, fn: Callable[[], float]) -> float:
    return min(fn() for _ in range(runs))


def bench_table(seats: int, hands: int, seed: int, runs: int) -> dict[str, Any]:
    vt = VirtualTable(seats=seats, seed=seed, style="showdown", min_stack_bb=100, max_stack_bb=300,
                      level_hands=0)
    sim = list(vt.hands(hands))
    events = [e for h in sim for e in h.events]
    # PokerKit lets the others call a short all-in big blind for its amount (the rulebooks: the full big
    # blind), so those hands cannot be replayed the same way; they are left out of PokerKit's run.
    kits = [k for k in translate(sim) if not k.short_bb]
    agree = sum(1 for k in kits if same_result(k, play_kit(k).stacks))
    t_engine = best_of(runs, lambda: time_engine(events)[0])
    t_kit = best_of(runs, lambda: time_kit(kits))
    _, engine = time_engine(events)
    stats = engine.statistics()
    engine_hps, kit_hps = hands / t_engine, len(kits) / t_kit
    return {"table": f"{seats}-max", "hands": hands, "events": len(events), "pokerkit_hands": len(kits),
            "engine_hps": engine_hps, "pokerkit_hps": kit_hps, "ratio": engine_hps / kit_hps,
            "stacks_agree": agree, "engine_alerts": stats.get("alerts", 0),
            "to_river": sum(1 for h in sim if sum(isinstance(e, CardSeen) and e.zone == "board"
                                                  for e in h.events) == 5)}


def profile_engine(seats: int, hands: int, seed: int) -> str:
    vt = VirtualTable(seats=seats, seed=seed, style="showdown", min_stack_bb=100, max_stack_bb=300,
                      level_hands=0)
    events = [e for h in vt.hands(hands) for e in h.events]
    prof = cProfile.Profile()
    prof.enable()
    time_engine(events)
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(18)
    return buf.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help="hands per table size (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3, help="timed runs; the best is reported")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of the engine replay")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    rows = [bench_table(seats, args.hands, args.seed, args.runs) for seats in (6, 9)]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'table':<6} {'hands':>6} {'events':>8} {'to river':>8} {'engine h/s':>11} "
              f"{'PokerKit h/s':>13} {'ratio':>6}  PokerKit stacks agree  engine alerts")
        for r in rows:
            print(f"{r['table']:<6} {r['hands']:>6} {r['events']:>8} {r['to_river']:>8} "
                  f"{r['engine_hps']:>11,.0f} {r['pokerkit_hps']:>13,.0f} {r['ratio']:>5.1f}x  "
                  f"{r['stacks_agree']:>6}/{r['pokerkit_hands']:<14}  {r['engine_alerts']}")
    if args.profile:
        print(profile_engine(9, args.hands, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
