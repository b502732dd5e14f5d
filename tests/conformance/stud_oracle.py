"""Random fixed-limit seven-card stud hands played by PokerKit, written as physical event logs (§1a).

PokerKit (`FixedLimitSevenCardStud`) chooses nothing: a seeded generator picks every action among the
ones PokerKit allows (bring-in or completion, calls, folds, raises up to its cap), so PokerKit is the
oracle for bring-in seat, first actor, legal amounts, side pots and final stacks. The same hand becomes an
event log as the table would report it: antes as chips before the deal, cards in physical order (three
rounds from the dealer's left, an up-card followed by its `exposed` event), burns, actions with the seat's
round total, and the live hands shown at the end.

Two places where 002 says more than PokerKit plays, kept out of the generated hands and tested by the
golden scenarios instead (docs/rules.md, "Seven-card stud"): PokerKit has no open-pair rule for 4th
street (002 §4 lets a bet be the higher limit and then makes every raise of the round the higher limit),
so no raise is generated on a 4th street that shows an open pair; and PokerKit lets a seat all-in on its
ante still be chosen as the bring-in, while we pass the forced bet to the lowest card among seats with
chips, so every stack covers the ante and the bring-in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from pokerkit import Automation, FixedLimitSevenCardStud, Mode

from controller.core.cards import FULL_DECK

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
STREET_NAMES = ("third", "fourth", "fifth", "sixth", "seventh")


@dataclass
class StudHand:
    """One generated hand: the event log (JSON objects) and what PokerKit decided."""

    seed: int
    events: list[dict[str, Any]] = field(default_factory=list)
    final_stacks: dict[int, int] = field(default_factory=dict)
    bring_in_seat: int = 0
    first_actors: dict[str, int] = field(default_factory=dict)  # street → seat PokerKit let act first
    raises: int = 0
    completions: int = 0
    capped_rounds: int = 0
    all_ins: int = 0


class _Log:
    def __init__(self, out: list[dict[str, Any]]) -> None:
        self.out = out
        self.t = 0.0
        self.cards: dict[int, list[tuple[str, bool]]] = {}  # player index → (card, face up) as dealt
        self.folded: set[int] = set()

    def e(self, kind: str, **fields: Any) -> None:
        self.t = round(self.t + 0.5, 3)
        self.out.append({"t": self.t, "type": kind, **fields})


def random_stud_hand(seed: int) -> StudHand:
    rng = random.Random(seed)
    n = rng.randint(2, 6)  # six players stay within 52 cards (6 × 7 + 4 burns)
    bring_in = rng.choice((1, 2, 3, 5))
    small = bring_in * rng.choice((2, 3, 4))
    big = 2 * small
    ante = rng.choice((0, 1, bring_in))
    low, high = ante + small + 1, ante + 12 * big
    stacks = [rng.randint(low, high) if rng.random() < 0.5 else rng.randint(low, 3 * big) for _ in range(n)]
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hand = StudHand(seed=seed)
    log = _Log(hand.events)
    for i, stack in enumerate(stacks):
        log.e("seat", seat=i + 1, player=f"P{i + 1}", stack=stack)
    log.e("level", sb=0, bb=0, ante=ante, game="stud7", limit="fixed", bring_in=bring_in, small_bet=small,
          big_bet=big)
    log.e("hand_start")
    if ante:
        for i in range(n):
            log.e("chips", seat=i + 1, amount=ante)
    st = FixedLimitSevenCardStud.create_state(AUTOMATIONS, True, ante, bring_in, small, big, tuple(stacks), n,
                                              mode=Mode.TOURNAMENT)
    for street in range(5):
        _deal_street(st, deck, log, street)
        if st.actor_index is None:
            continue
        hand.first_actors[STREET_NAMES[street]] = st.actor_index + 1
        if street == 0:
            hand.bring_in_seat = st.actor_index + 1
        _bet_street(st, rng, log, hand, street, small if street < 2 else big)
        if not st.status:
            break
    _showdown(log)
    log.e("session_end")
    hand.final_stacks = {i + 1: s for i, s in enumerate(st.stacks)}
    return hand


def _deal_street(st: Any, deck: list[str], log: _Log, street: int) -> None:
    """Deal the street to PokerKit in its order and log it in the physical order (seat by seat, round by
    round from the dealer's left)."""
    if not st.status:
        return
    if st.can_burn_card():
        burn = deck.pop()
        st.burn_card(burn)
        log.e("card", zone="burn", card=burn)
    if not st.can_deal_hole():
        return
    dealt: list[tuple[int, str, bool]] = []
    got: dict[int, int] = {}
    while st.can_deal_hole():
        i = st.hole_dealee_index
        card = deck.pop()
        st.deal_hole(card)
        k = got[i] = got.get(i, 0) + 1
        # PokerKit's street plan: 3rd street down, down, up; 4th-6th up; 7th down (its cards may already
        # be mucked by the showdown automation when nobody can act, so the plan is read, not the state)
        dealt.append((i, card, k == 3 if street == 0 else street < 4))
    rounds: dict[int, list[tuple[int, str, bool]]] = {}
    for i, card, up in dealt:
        rounds.setdefault(i, []).append((i, card, up))
        log.cards.setdefault(i, []).append((card, up))
    for r in range(max(len(v) for v in rounds.values())):
        for i in sorted(rounds):
            if r < len(rounds[i]):
                _, card, up = rounds[i][r]
                log.e("card", zone=f"seat{i + 1}", card=card)
                if up:
                    log.e("exposed", zone=f"seat{i + 1}", card=card)


def _open_pair_showing(log: _Log) -> bool:
    for i, cards in log.cards.items():
        ups = [c for c, up in cards if up]
        if i not in log.folded and len(ups) == 2 and ups[0][0] == ups[1][0]:
            return True
    return False


def _bet_street(st: Any, rng: random.Random, log: _Log, hand: StudHand, street: int, unit: int) -> None:
    no_raise = street == 1 and _open_pair_showing(log)
    raises = 0
    acted: set[int] = set()  # seats that acted since the betting was last reopened (TDA 2024 Rule 47-B)
    while st.actor_index is not None and st.street_index == street:
        i = st.actor_index
        seat = i + 1
        before = st.bets[i]
        stack = st.stacks[i]
        top = max(st.bets)
        r = rng.random()
        if st.can_post_bring_in() and r < 0.6:
            st.post_bring_in()
            log.e("action", seat=seat, action="bet", amount=before + min(stack, st.bring_in))
            continue
        # A short all-in of less than half a bet does not reopen the betting for a seat that acted
        # (TDA 2024 Rule 47-B); PokerKit lets it raise anyway, so no such raise is generated.
        can_raise = st.can_complete_bet_or_raise_to() and not no_raise and i not in acted
        if can_raise and r < 0.3:
            to = st.min_completion_betting_or_raising_to_amount
            name = "bet" if max(st.bets) == 0 or st.can_post_bring_in() else "raise"
            hand.completions += bool(st.completion_status)
            st.complete_bet_or_raise_to(to)
            raises += 1
            hand.raises += 1
            all_in = st.stacks[i] == 0
            hand.all_ins += all_in
            total = min(to, before + stack)
            log.e("action", seat=seat, action="allin" if all_in else name, amount=total)
            if not all_in or 2 * (total - top) >= unit:
                acted.clear()
            acted.add(i)
            continue
        if st.can_fold() and st.checking_or_calling_amount > 0 and r > 0.85:
            st.fold()
            log.folded.add(i)
            log.e("action", seat=seat, action="fold")
            continue
        if st.can_post_bring_in():
            st.post_bring_in()
            log.e("action", seat=seat, action="bet", amount=before + min(stack, st.bring_in))
            continue
        owe = st.checking_or_calling_amount
        st.check_or_call()
        acted.add(i)
        if owe == 0:
            log.e("action", seat=seat, action="check")
        else:
            all_in = owe >= stack
            hand.all_ins += all_in
            log.e("action", seat=seat, action="allin" if all_in else "call", amount=before + owe)
    hand.capped_rounds += raises >= 4


def _showdown(log: _Log) -> None:
    """Every hand still in shows its down-cards at the seat (its up-cards are seen already)."""
    live = [i for i in sorted(log.cards) if i not in log.folded]
    if len(live) < 2:
        return
    for i in live:
        for card, up in log.cards[i]:
            if not up:
                log.e("exposed", zone=f"seat{i + 1}", card=card)
