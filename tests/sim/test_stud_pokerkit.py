"""PokerKit (FixedLimitSevenCardStud) as an independent referee of the stud simulator: every action of
every clean hand is legal for it and the hands settle to the same stacks."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from pokerkit import Automation, FixedLimitSevenCardStud, FixedLimitTexasHoldem, Mode

from controller.core.events import (
    ActionEvent,
    CardSeen,
    ChipsEvent,
    DeckEvent,
    HandStart,
    LevelEvent,
    SeatEvent,
)
from controller.sim import SimHand, VirtualTable

AUTO = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)


def _replay(hands: list[SimHand]) -> tuple[int, int]:
    """(hands checked, hands that settled alike); raises when PokerKit refuses an action."""
    stacks: dict[int, int] = {}
    uids: dict[str, str] = {}
    level: LevelEvent | None = None
    checked = same = 0
    for hand in hands:
        state: Any = None
        order: list[int] = []
        ops: list[tuple[str, Any]] = []
        for ev in hand.events:
            if isinstance(ev, SeatEvent):
                stacks[ev.seat] = ev.stack
            elif isinstance(ev, DeckEvent):
                uids = dict(ev.cards)
            elif isinstance(ev, LevelEvent):
                level = ev
            elif isinstance(ev, HandStart):
                order = []
            elif isinstance(ev, ChipsEvent):
                order.append(ev.seat)  # antes, one per seat in deal order
            elif isinstance(ev, CardSeen) and ev.zone.startswith("seat"):
                ops.append(("card", ev.card or uids[str(ev.uid)]))
            elif isinstance(ev, ActionEvent):
                ops.append((ev.action, ev.amount))
        assert level is not None
        dealt = sorted(s for s in stacks if stacks[s] > 0 and s in hand.stacks)
        cards = 0
        big_on_4th = False  # 002 §4's open pair: PokerKit has no higher-limit option on 4th street
        for kind, arg in ops:
            cards += kind == "card"
            big_on_4th |= kind == "bet" and arg == level.big_bet and cards <= 4 * len(dealt)
        skip = hand.injected or dealt != order or big_on_4th
        for s in dealt if skip else ():
            stacks[s] = hand.stacks[s]
        if skip:
            continue  # clean hands where every seat anted, without the open-pair big bet
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PokerKit warns when a dealt card was in its burn pile
            state = FixedLimitSevenCardStud.create_state(
                AUTO, True, level.ante, level.bring_in, level.small_bet, level.big_bet,
                tuple(stacks[s] for s in dealt), len(dealt), mode=Mode.CASH_GAME)
            for kind, arg in ops:
                if kind == "card":
                    state.deal_hole(arg)
                elif kind == "fold":
                    state.fold()
                elif kind in ("check", "call"):
                    state.check_or_call()
                elif kind == "bet" and state.can_post_bring_in():
                    state.post_bring_in()
                elif kind == "allin" and arg <= max(state.bets):
                    state.check_or_call()
                else:
                    state.complete_bet_or_raise_to(arg)
        assert not state.status, f"hand {hand.number} did not finish in PokerKit"
        checked += 1
        same += all(state.stacks[i] == hand.stacks[s] for i, s in enumerate(dealt))
        for s in dealt:
            stacks[s] = hand.stacks[s]
    return checked, same


@pytest.mark.parametrize("seats", [2, 4, 7])
@pytest.mark.parametrize("style", ["mixed", "showdown"])
def test_pokerkit_accepts_every_stud_action_and_pays_the_same(seats: int, style: str) -> None:
    n = 80 if style == "mixed" else 30  # showdown hands are long: every seat to 7th street, capped rounds
    hands = list(VirtualTable(seats=seats, seed=seats * 3, game="stud", style=style).hands(n))  # type: ignore[arg-type]
    checked, same = _replay(hands)
    assert checked >= n // 2
    assert same == checked


def _limit_kit(kit: Any, small: int, big: int) -> Any:
    """The bench's hold'em translation, played by PokerKit's fixed-limit hold'em."""
    no_burn = tuple(a for a in AUTO if a != Automation.CARD_BURNING)  # the log names every burn
    state = FixedLimitTexasHoldem.create_state(no_burn, True, 0, kit.blinds, small, big, kit.stacks,
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


@pytest.mark.parametrize("seats", [2, 6])
def test_pokerkit_accepts_every_limit_holdem_action_and_pays_the_same(seats: int) -> None:
    """The mixed table's fixed-limit hold'em hands (a rotation longer than the run: hold'em only)."""
    from tests.sim.test_pokerkit_crosscheck import rb

    vt = VirtualTable(seats=seats, seed=seats, game="mixed", rotate=1000, min_stack_bb=30, max_stack_bb=150)
    hands = list(vt.hands(60))
    kits = rb.translate(hands)  # type: ignore[attr-defined]
    checked = 0
    for hand, kit in zip(hands, kits, strict=True):
        if kit.short_bb or not kit.stacks:
            continue
        state = _limit_kit(kit, kit.bb, 2 * kit.bb)  # the big blind is the small bet; raises if illegal
        assert not state.status
        checked += 1
        assert rb.same_result(kit, state.stacks), f"hand {hand.number}"  # type: ignore[attr-defined]
    assert checked >= 50
