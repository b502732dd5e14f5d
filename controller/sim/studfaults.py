"""Dealer-error injectors for stud and limit hold'em hands (issue 13): the erroneous sequence, then the
correction, on the hooks of controller/sim/stud.py. docs/simulator.md lists every sequence.

A stud injector's key names the error (several errors share one catalogue code, e.g. an up-card dealt
down and a down-card dealt up are both `STUD_STREET_CARD_WRONG`); `code` is what the core must raise.
"""

from __future__ import annotations

import random
from typing import ClassVar

from controller.core.events import ActionEvent, ChipsEvent
from controller.sim.faults import (
    FAULTS,
    ActionOutOfTurn,
    CallShort,
    CheckFacingBet,
    Fault,
    MisdealCalledLate,
    OversizedChip,
    StringBet,
    TableView,
)
from controller.sim.hand import HandPlay, Seating
from controller.sim.limits import FixedRound
from controller.sim.players import Style
from controller.sim.rounds import Round
from controller.sim.stud import UP_STREETS, StudPlay, bring_in_seat

# Hold'em injectors that mean the same at a fixed-limit table (the no-limit sizing ones are left out:
# BET_BELOW_MINIMUM, OVERSIZED_CHIP, RAISE_NOT_REOPENED assume no-limit amounts).
LIMIT_HOLDEM_FAULTS: dict[str, type[Fault]] = {
    code: cls for code, cls in FAULTS.items()
    if code not in ("BET_BELOW_MINIMUM", "OVERSIZED_CHIP", "RAISE_NOT_REOPENED")}


def _stud(hp: HandPlay) -> StudPlay:
    assert isinstance(hp, StudPlay), "a stud injector in a hold'em hand"
    return hp


class StudDealOrder(Fault):
    """The initial deal starts at the second seat instead of the dealer's left: misdeal, redeal (002 §2)."""

    code = "STUD_DEAL_ORDER"

    def deal(self, hp: HandPlay) -> bool:
        sp = _stud(hp)
        seats = list(sp.seating.dealt_in)
        k = self.rng.randint(1, len(seats) - 1)
        for seat in seats[k:]:  # the dealer notices after a few cards
            sp.deal_down(seat)
            if self.rng.random() < 0.4:
                break
        self.seat, self.fired = seats[k], True
        sp.misdeal()
        return True


class StudDownCardExposed(Fault):
    """One of a seat's two down-cards of the initial deal is turned face up. That card is the seat's
    up-card: its third card comes face down (TDA 2024 stud practice; 002 is silent)."""

    code = "HOLE_CARD_EXPOSED"

    def deal(self, hp: HandPlay) -> bool:
        sp = _stud(hp)
        seats = list(sp.seating.dealt_in)
        who = self.rng.choice(seats)
        round_ = self.rng.randint(0, 1)
        for r in range(2):
            for seat in seats:
                card = sp.deal_down(seat)
                if seat == who and r == round_:
                    sp.expose(sp.seat_zone(seat), card, 0.05, 0.3)
                    sp.up[seat].append(card)
        for seat in seats:
            if seat == who:
                sp.deal_down(seat)  # the compensating down-card
            else:
                sp.deal_up(seat)
        self.seat, self.fired = who, True
        return True


class StudDownCardsExposedMultiple(Fault):
    """Two down-cards of the initial deal are turned face up (two seats): misdeal, the cards are
    collected, the hand is dealt again (the first exposure is a `HOLE_CARD_EXPOSED` when it happens)."""

    code = "HOLE_CARDS_EXPOSED_MULTIPLE"
    also = ("HOLE_CARD_EXPOSED",)

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return len(seating.dealt_in) >= 3

    def deal(self, hp: HandPlay) -> bool:
        sp = _stud(hp)
        seats = list(sp.seating.dealt_in)
        order = seats * 2  # the two rounds of down-cards
        a = self.rng.randrange(len(order) - 1)
        later = [k for k in range(a + 1, len(order)) if order[k] != order[a]]  # another seat's card
        b = self.rng.choice(later)
        for k, seat in enumerate(order[:b + 1]):
            card = sp.deal_down(seat)
            if k in (a, b):
                sp.expose(sp.seat_zone(seat), card, 0.05, 0.3)
        self.seat, self.fired = order[b], True
        sp.misdeal()
        return True


class StudUpCardDealtDown(Fault):
    """A 4th–6th street card comes face down; once the street's betting has begun (the core judges the
    faces then: up-card readers and the camera report an exposure with a little delay) the dealer turns
    it up (002 §4–6)."""

    code = "STUD_STREET_CARD_WRONG"
    style: ClassVar[Style | None] = "passive"
    ignorable = True  # ignored: the card stays face down (it still plays as the seat's up-card)

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.street = rng.choice(UP_STREETS)
        self.down: tuple[int, str] | None = None  # (seat, card) still to be turned up

    def board(self, hp: HandPlay, street: str) -> bool:
        self.flush(hp)  # no betting on the street (all-in): turned up before the next one
        if self.fired or street != self.street:
            return False
        sp = _stud(hp)
        if sp.bettors() < 2:
            return False  # a street nobody bets on: the faces are never judged (the hand is retried)
        order = sp.street_order()
        who = self.rng.choice(order)
        for seat in order:
            if seat == who:
                card = sp.deal_down(seat)
                sp.up[seat].append(card)  # an up-card by the plan, whatever its face: it shows for 002 §4
                self.down = (seat, card)
            else:
                sp.deal_up(seat)
        self.seat, self.fired = who, True
        return True

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if rnd.actions >= 1:
            self.flush(hp)
        return False

    def after_hand(self, hp: HandPlay) -> None:
        self.flush(hp)

    def flush(self, hp: HandPlay) -> None:
        seat_cards = hp.zones.get(hp.seat_zone(self.down[0]), ()) if self.down is not None else ()
        if self.down is not None and self.down[1] in seat_cards and self.remedy(hp):
            turn_up(_stud(hp), *self.down)
        self.down = None


class StudDoorCardDealtDown(StudUpCardDealtDown):
    """The third card of the initial deal (the door card) comes face down to one seat; it is turned up
    after the bring-in (002 §2). It still counts for the bring-in."""

    def board(self, hp: HandPlay, street: str) -> bool:
        self.flush(hp)
        return False

    def deal(self, hp: HandPlay) -> bool:
        sp = _stud(hp)
        if sp.bettors() < 2:
            return False  # all but one all in on the antes: no bring-in, no action, the door never judged
        seats = list(sp.seating.dealt_in)
        who = self.rng.choice(seats)
        for _ in range(2):
            for seat in seats:
                sp.deal_down(seat)
        for seat in seats:
            if seat == who:
                card = sp.deal_down(seat)
                sp.up[seat].append(card)  # the door card whatever its face: it decides the bring-in
                self.down = (seat, card)
            else:
                sp.deal_up(seat)
        self.seat, self.fired = who, True
        return True


def turn_up(sp: StudPlay, seat: int, card: str) -> None:
    """The dealer turns a card that should be face up: its `exposed` event."""
    sp.expose(sp.seat_zone(seat), card, 0.5, 2.0)


class StudDownCardDealtUp(Fault):
    """7th street comes face up to one seat; the card stays up as dealt, the others get theirs down."""

    code = "STUD_STREET_CARD_WRONG"
    style: ClassVar[Style | None] = "passive"

    def board(self, hp: HandPlay, street: str) -> bool:
        if self.fired or street != "seventh":
            return False
        sp = _stud(hp)
        if sp.bettors() < 2:
            return False  # all in: every hand is tabled at once, a card up is no error anybody can see
        order = sp.street_order()
        who = self.rng.choice(order)
        for seat in order:
            if seat == who:
                sp.deal_up(seat)
            else:
                sp.deal_down(seat)
        self.seat, self.fired = who, True
        return True


class StudBringInWrong(Fault):
    """A seat other than the lowest up-card posts the bring-in. Remedy: its chips go back and the right
    seat brings in (002 §3). Ignored (or the floor accepts it): the next seat acts on it and the wrong
    bring-in stands; the round goes on from its left."""

    code = "STUD_BRING_IN_WRONG"
    ignorable = True

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return len(seating.dealt_in) >= 2

    def bring_in(self, hp: HandPlay, rnd: Round) -> bool:
        sp = _stud(hp)
        right = sp.first
        others = [s for s in rnd.pending if s != right and rnd.behind[s] >= sp.stakes.bring_in]
        if right is None or not others or rnd.behind[right] <= 0:
            return False
        up = {s: sp.up[s][-1] for s in others}
        wrong = bring_in_seat(up)  # the next-lowest card: the dealer misread the ranks
        amount = sp.stakes.bring_in
        sp.events.append(ActionEvent(t=sp.clock.after(1.0, 4.0), seat=wrong, action="bet", amount=amount))
        self.seat, self.fired = wrong, True
        if self.remedy(sp):
            sp.events.append(ChipsEvent(t=sp.clock.after(2.0, 6.0), seat=wrong, amount=0))  # taken back
            sp.bring_in(rnd, right)
            return True
        # the wrong bring-in stands: the round starts over from it
        live = [s for s in rnd.order]
        i = live.index(wrong)
        fresh = sp.round_for(live[i:] + live[:i], "third")
        fresh.post_bring_in(wrong)
        sp.round = fresh
        return True


class StudActionOutOfTurn(ActionOutOfTurn):
    """A fold out of turn after the street's first action. At the first action it would be the wrong seat
    acting first, which the core reports as STUD_FIRST_TO_ACT_WRONG (a street's first actor is the
    dealer's call in stud; that error has its own injector)."""

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        return rnd.actions > 0 and super().before_action(hp, rnd)


class StudFirstToActWrong(Fault):
    """From 4th street the dealer points at the wrong seat, which checks first; the high hand then acts
    and play goes on in order (the out-of-turn check stands while nobody bets)."""

    code = "STUD_FIRST_TO_ACT_WRONG"
    style: ClassVar[Style | None] = "passive"
    also = ("ACTION_OUT_OF_TURN",)

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        sp = _stud(hp)
        if self.fired or sp.street == "third" or rnd.actions or len(rnd.pending) < 3:
            return False
        wrong = rnd.pending[1]
        sp.events.append(ActionEvent(t=sp.clock.after(1.0, 4.0), seat=wrong, action="check"))
        self.seat, self.fired = wrong, True
        sp.play_turn(rnd)  # the high hand acts
        seat = rnd.to_act
        if seat == wrong and rnd.options(wrong).to_call == 0:  # its check stands: nobody bet
            rnd.act(wrong, rnd.committed[wrong])  # logged out of turn already
        return True


class _FourthStreetOpening(Fault):
    """A wrong limit on 4th street, at the round's opening bet (open pair or not, as `pair` says)."""

    style: ClassVar[Style | None] = "passive"
    pair: ClassVar[bool] = False

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        sp = _stud(hp)
        seat = rnd.to_act
        if (self.fired or sp.street != "fourth" or seat is None or rnd.current_bet or rnd.actions
                or sp.open_pair() != self.pair or len(rnd.pending) < 2):
            return False
        assert isinstance(rnd, FixedRound)
        if not self.wrong(sp, rnd, seat):
            return False
        self.fired = True
        return True

    def wrong(self, sp: StudPlay, rnd: FixedRound, seat: int) -> bool:
        raise NotImplementedError


class StudBigBetWithoutPair(_FourthStreetOpening):
    """4th street without an open pair: the opener bets the big bet; it stands as the small bet and the
    excess goes back (002 §4; TDA 2024 Rule 54)."""

    code = "BET_ABOVE_LIMIT"

    def wrong(self, sp: StudPlay, rnd: FixedRound, seat: int) -> bool:
        small, big = sp.stakes.small_bet, sp.stakes.big_bet
        if rnd.behind[seat] < big:
            return False
        sp.events.append(ActionEvent(t=sp.clock.after(1.0, 5.0), seat=seat, action="bet", amount=big))
        sp.events.append(ChipsEvent(t=sp.clock.after(1.0, 3.0), seat=seat, amount=small))  # excess back
        rnd.act(seat, small)
        self.seat = seat
        return True


class StudSmallRaiseAfterOpenPair(_FourthStreetOpening):
    """4th street with an open pair: the opener bets the big bet and the next seat raises by only the
    small bet, although every raise of the round is now a big bet (002 §4). A raise of exactly half the
    full raise: under `half_or_more_is_raise` profiles it stands and is completed to the full raise,
    under the others it counts as a call and the excess goes back (000 §3.1, 001 §8)."""

    code = "BET_BELOW_MINIMUM"
    pair = True
    ignorable = True  # ignored or accepted by the floor: the short raise stands as placed

    def wrong(self, sp: StudPlay, rnd: FixedRound, seat: int) -> bool:
        small, big = sp.stakes.small_bet, sp.stakes.big_bet
        nxt = rnd.pending[1]
        if rnd.behind[seat] < big or rnd.behind[nxt] < 2 * big:
            return False
        sp.act(rnd, seat, big)  # legal: the open pair allows the big bet
        sp.events.append(ActionEvent(t=sp.clock.after(1.0, 5.0), seat=nxt, action="raise",
                                     amount=big + small))
        self.seat = nxt
        if not self.remedy(sp):
            rnd.act(nxt, big + small)  # everybody answers the short raise as it was placed
            return True
        stands = sp.profile.under_raise == "half_or_more_is_raise"
        total = 2 * big if stands else big
        sp.events.append(ChipsEvent(t=sp.clock.after(1.0, 3.0), seat=nxt, amount=total))
        rnd.act(nxt, total)
        self.seat = nxt
        return True


# Injectors about the fixed-limit sizes of 4th street (002 §4): left out of pot- and no-limit stud.
FIXED_ONLY: frozenset[str] = frozenset({"STUD_BIG_BET_WITHOUT_PAIR", "STUD_SMALL_RAISE_AFTER_OPEN_PAIR"})
# A second motion above a fixed-limit wager has no legal room: only at pot and no limit.
NOT_FIXED: frozenset[str] = frozenset({"STRING_BET"})

STUD_FAULTS: dict[str, type[Fault]] = {
    "STUD_DEAL_ORDER": StudDealOrder,
    "STUD_DOWN_CARD_EXPOSED": StudDownCardExposed,
    "STUD_DOWN_CARDS_EXPOSED_MULTIPLE": StudDownCardsExposedMultiple,
    "STUD_UP_CARD_DEALT_DOWN": StudUpCardDealtDown,
    "STUD_DOOR_CARD_DEALT_DOWN": StudDoorCardDealtDown,
    "STUD_DOWN_CARD_DEALT_UP": StudDownCardDealtUp,
    "STUD_BRING_IN_WRONG": StudBringInWrong,
    "STUD_FIRST_TO_ACT_WRONG": StudFirstToActWrong,
    "STUD_ACTION_OUT_OF_TURN": StudActionOutOfTurn,
    "STUD_BIG_BET_WITHOUT_PAIR": StudBigBetWithoutPair,
    "STUD_SMALL_RAISE_AFTER_OPEN_PAIR": StudSmallRaiseAfterOpenPair,
    # Betting errors of every game, with their ignore and ruling reactions (a string bet and an oversized
    # chip need room above the bet: pot and no limit; at fixed limit they do not fire or play the remedy).
    "CALL_SHORT": CallShort,
    "CHECK_FACING_BET": CheckFacingBet,
    "MISDEAL_CALLED_LATE": MisdealCalledLate,
    "STRING_BET": StringBet,
    "OVERSIZED_CHIP": OversizedChip,
}
