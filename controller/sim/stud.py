"""One simulated seven-card stud hand (002): antes, 2 down + 1 up, bring-in, 4th–6th up, 7th down, showdown.

The physical log follows interfaces.md §1a: antes are `chips` events before the deal, an up-card is a
`card` event followed by an `exposed` event for the same card, a down-card has none, the bring-in is a
`bet` of the bring-in and its completion a `raise` to the small bet. Seats are dealt from the dealer's
left (the lowest seat) clockwise; there is no button and no blind. Betting is fixed limit, or pot or no
limit with the bring-in by the highest up-card (controller/sim/limits.py). Like the rest of
controller/sim this model does not import the engine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from controller.core.events import ActionEvent, ChipsEvent, HandStart
from controller.core.profiles import Profile
from controller.sim.hand import Clock, HandPlay, Hooks, Outcome, Seating
from controller.sim.limits import BringInRound, FixedRound, StudRound
from controller.sim.players import Policy
from controller.sim.rounds import Round
from controller.sim.settle import Pot, odd_chips_for, settle

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # 002 §3: clubs lowest, then diamonds, hearts, spades
STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
UP_STREETS = ("fourth", "fifth", "sixth")  # one card face up each; 7th street comes face down
MAX_SEATS = 7  # 7 × 7 = 49 cards: the deck never runs short on 7th street (no common card needed)


@dataclass(frozen=True, kw_only=True, slots=True)
class StudStakes:
    """A stud level: ante, bring-in, small bet (3rd and 4th street), big bet (5th to 7th)."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int


def card_key(card: str) -> tuple[int, int]:
    """Rank, then suit (clubs lowest): the bring-in comparison of 002 §3."""
    return RANKS.index(card[0]), SUITS.index(card[1])


def bring_in_seat(up: Mapping[int, str], *, high: bool = False) -> int:
    """The seat with the lowest up-card (highest in pot- and no-limit), ties by suit (002 §3)."""
    pick = max if high else min
    return pick(up, key=lambda s: card_key(up[s]))


def showing_value(cards: Sequence[str]) -> tuple[int, ...]:
    """Strength of the up-cards alone (002 §4): quads > trips > two pair > pair > high cards; straights
    and flushes need five cards and cannot show before 7th street's face-down card."""
    counts = Counter(RANKS.index(c[0]) for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    if shape[0] == 4:
        category = 4
    elif shape[0] == 3:
        category = 3
    elif shape[0] == 2:
        category = 2 if shape[1:2] == [2] else 1
    else:
        category = 0
    return (category, *(r for r, _ in groups))


def first_to_act(up: Mapping[int, Sequence[str]], order: Iterable[int]) -> int:
    """Highest showing hand; equal hands: the one nearest the dealer's left (first in `order`). Only the
    door card and 4th-6th street count: a 7th-street card dealt up by mistake does not change the order."""
    seats = list(order)
    return max(seats, key=lambda s: (showing_value(up[s][:4]), -seats.index(s)))


class StudPlay(HandPlay):
    """Plays one stud hand; stud faults (controller/sim/studfaults.py) hook into the same steps."""

    def __init__(self, *, seating: Seating, stakes: StudStakes, profile: Profile, deck: Sequence[str],
                 uids: Mapping[str, str] | None, clock: Clock, rng: random.Random, policy: Policy,
                 fault: Hooks | None = None, game: str | None = None, limit: str = "fixed") -> None:
        super().__init__(seating=seating, sb=stakes.bring_in, bb=stakes.small_bet, chip=1, profile=profile,
                         deck=deck, uids=uids, clock=clock, rng=rng, policy=policy, fault=fault, game=game,
                         limit=limit)
        self.stakes = stakes
        self.up: dict[int, list[str]] = {s: [] for s in seating.dealt_in}  # face-up cards per seat
        self.antes: dict[int, int] = {}
        self.first: int | None = None  # who opened the current round (bring-in or high hand)
        self.last_first: int | None = None

    # ------------------------------------------------------------------ primitives
    def deal_up(self, seat: int, card: str | None = None) -> str:
        card = card if card is not None else self.draw()
        zone = self.seat_zone(seat)
        self.put(zone, card, 0.3, 0.7)
        self.expose(zone, card, 0.05, 0.25)
        self.up[seat].append(card)
        return card

    def deal_down(self, seat: int) -> str:
        card = self.draw()
        self.put(self.seat_zone(seat), card, 0.3, 0.7)
        return card

    def street_order(self) -> list[int]:
        """Live seats from the dealer's left: the dealing order of every street."""
        return self.live()

    # ------------------------------------------------------------------ the hand
    def play(self) -> Outcome:
        if self.fault is None or not self.fault.hand_start(self):
            self.events.append(HandStart(t=self.clock.after(3.0, 8.0), button=None, game=self.game))
        if self.void:
            return self._void()
        for step in (self.post_blinds, self.deal, self.after_deal):
            step()
            if self.void:
                return self._void()
        self.betting("third")
        for street in STREETS[1:]:
            if self.void:
                return self._void()
            if len(self.live()) <= 1:
                break
            self.board(street)
            if self.void:
                return self._void()
            self.betting(street)
        if self.void:
            return self._void()
        return self.finish()

    def _void(self) -> Outcome:
        return Outcome(void=True, stacks=dict(self.seating.stacks), new_deck=self.new_deck)

    def post_blinds(self) -> None:
        """The antes (002 §1), as `chips` events before the deal; a short stack antes what it has."""
        if self.fault is not None and self.fault.blinds(self):
            return
        self.post_antes()

    def post_antes(self) -> None:
        for seat in self.seating.dealt_in:
            amount = min(self.stakes.ante, self.behind[seat])
            if amount <= 0:
                continue
            self.antes[seat] = amount
            self.events.append(ChipsEvent(t=self.clock.after(0.2, 0.8), seat=seat, amount=amount))

    def bettors(self) -> int:
        """Live seats with chips to bet on the street being dealt (during the deal the antes are still
        to come off). Under two, nobody acts on it: the core judges a street's faces at its first action,
        so an error of the faces there cannot be seen (and a late exposure is one a slow reader makes)."""
        owed = self.antes if self.street == "deal" else {}
        return sum(1 for s in self.live() if self.behind[s] - owed.get(s, 0) > 0)

    def deal_order(self) -> list[int]:
        return list(self.seating.dealt_in) * 3

    def deal(self) -> None:
        """3rd street (002 §2): two rounds face down, then one face up, from the dealer's left."""
        self.street = "deal"
        if self.fault is not None and self.fault.deal(self):
            return
        seats = list(self.seating.dealt_in)
        for _ in range(2):
            for seat in seats:
                self.deal_down(seat)
        for seat in seats:
            self.deal_up(seat)

    def board(self, street: str) -> None:
        """4th–6th street one card up, 7th one card down, to every live seat from the dealer's left."""
        self.street = street
        if self.fault is not None and self.fault.board(self, street):
            return
        self.deal_street(street)

    def deal_street(self, street: str, seats: Sequence[int] | None = None) -> None:
        for seat in (self.street_order() if seats is None else seats):
            if street in UP_STREETS:
                self.deal_up(seat)
            else:
                self.deal_down(seat)

    # ------------------------------------------------------------------ betting
    def bet_size(self, street: str) -> int:
        return self.stakes.small_bet if street in ("third", "fourth") else self.stakes.big_bet

    def open_pair(self) -> bool:
        """An open pair on 4th street among the live hands (002 §4): the big bet may be bet."""
        return any(len(self.up[s]) == 2 and self.up[s][0][0] == self.up[s][1][0] for s in self.live())

    def opener(self, street: str) -> int:
        """Who must act first: the bring-in on 3rd street, the highest showing hand later."""
        live = self.live()
        if street == "third":
            low = bring_in_seat({s: self.up[s][-1] for s in live}, high=self.limit in ("pot", "no"))
        else:
            low = first_to_act({s: self.up[s] for s in live}, live)
        # All-in (on the ante, or earlier): the opening passes to the next seat clockwise that still has
        # chips, as it does for any seat that cannot act (PokerKit plays it so too; 002 is silent).
        i = live.index(low)
        return next((s for s in live[i:] + live[:i] if self.behind[s] > 0), low)

    def new_round(self, street: str) -> Round:
        live = self.live()
        if street == "third":
            for seat, amount in self.antes.items():
                self.behind[seat] -= amount
                self.committed[seat] += amount  # antes are every seat's own contribution
        first = self.opener(street)
        self.first = first
        i = live.index(first)
        return self.round_for(live[i:] + live[:i], street)

    def round_for(self, order: list[int], street: str) -> StudRound:
        """The street's betting round over `order` (the first to act first) in the hand's structure."""
        stacks = {s: self.behind[s] for s in order}
        bring_in = self.stakes.bring_in if street == "third" else 0
        if self.limit in ("pot", "no"):
            return BringInRound(seats=order, stacks=stacks, limit=self.limit, small_bet=self.stakes.small_bet,
                                bring_in=bring_in, pot=sum(self.committed.values()))
        big = self.stakes.big_bet if street == "fourth" and self.open_pair() else None
        return FixedRound(seats=order, stacks=stacks, posted={}, bet=self.bet_size(street), big_bet=big,
                          bring_in=bring_in)

    def betting(self, street: str) -> None:
        self.street = street
        rnd = self.new_round(street)
        self.round = rnd
        if street == "third" and (self.fault is None or not self.fault.bring_in(self, rnd)):
            self.bring_in(rnd, self.first)
        rnd = self.round  # an injector may have started the round over (a wrong bring-in that stands)
        while not self.void and rnd.to_act is not None:
            if self.fault is not None and self.fault.before_action(self, rnd):
                continue
            self.play_turn(rnd)
        self._close_round(rnd)

    def bring_in(self, rnd: Round, seat: int | None) -> None:
        assert seat is not None and isinstance(rnd, FixedRound | BringInRound)
        if rnd.behind[seat] <= 0 or rnd.to_act is None:
            return  # all in on the ante, or nobody left to bet against (the rest went all in on the antes)
        name = rnd.post_bring_in(seat)
        amount = rnd.committed[seat]
        self.events.append(ActionEvent(t=self.clock.after(1.0, 4.0), seat=seat, action=name,  # type: ignore[arg-type]
                                       amount=amount))

    def play_turn(self, rnd: Round, *, think: tuple[float, float] | None = None) -> None:
        seat = rnd.to_act
        assert seat is not None
        opt = rnd.options(seat)
        decision = self.policy.decide(opt, pot=self.pot_total(), bb=self.bb)
        lo, hi = think or (1.0, 8.0)
        if decision.action == "fold":
            self.fold(rnd, seat, lo, hi)
            return
        total = decision.total
        if (isinstance(rnd, FixedRound) and rnd.big_bet and rnd.current_bet == 0 and opt.may_raise
                and total == opt.min_total
                and rnd.committed[seat] + rnd.behind[seat] >= rnd.big_bet and self.rng.random() < 0.5):
            total = rnd.big_bet  # open pair on 4th: the opener chooses the higher limit
        self.act(rnd, seat, total, lo, hi)

    def _close_round(self, rnd: Round) -> None:
        self.last_first = self.first
        super()._close_round(rnd)
        if self.street == "seventh":
            self.river_aggressor = rnd.last_aggressor

    # ------------------------------------------------------------------ showdown and settlement
    def finish(self) -> Outcome:
        live = self.live()
        hole = {s: list(self.zones[self.seat_zone(s)]) for s in live}
        if len(live) > 1 and any(len(h) != 7 for h in hole.values()):
            raise AssertionError("stud showdown without seven cards")
        paid, pots = settle(committed=self.committed, live=live, hole=hole, board=[],
                            order_from_button=self.odd_chip_order(), chip=self.chip,
                            odd=odd_chips_for(self.profile))
        self.street = "showdown"
        if len(live) > 1:
            self.showdown(live, pots)
        self.ended = True
        if self.fault is not None:
            self.fault.after_hand(self)
        stacks = {s: self.behind[s] + paid.get(s, 0) for s in self.seating.dealt_in}
        return Outcome(stacks=stacks, pots=pots, new_deck=self.new_deck)

    def odd_chip_order(self) -> list[int]:
        """Tied winners take odd chips by the highest card they hold, by rank and then suit (clubs lowest,
        diamonds, hearts, spades), every card they were dealt counting (TDA 2024 "Awarding Odd Chips"; 002
        is silent); deal order after that. The settlement used deal order: one chip of a split pot went
        to the wrong seat."""
        seats = list(self.seating.dealt_in)

        def key(seat: int) -> tuple[int, int, int]:
            cards = [c for c in self.zones.get(self.seat_zone(seat), ()) if len(c) == 2]
            rank, suit = max(((RANKS.index(c[0]), SUITS.index(c[1])) for c in cards
                              if c[0] in RANKS and c[1] in SUITS), default=(-1, -1))
            return -rank, -suit, seats.index(seat)

        return sorted(seats, key=key)

    def showdown_order(self, live: list[int]) -> list[int]:
        """The last bettor or raiser on 7th street first, else the seat that opened 7th; then clockwise."""
        first = self.river_aggressor if self.river_aggressor in live else self.last_first
        if first not in live:
            first = live[0]
        i = live.index(first)
        return live[i:] + live[:i]

    def showdown(self, live: list[int], pots: list[Pot]) -> None:
        for seat in self.showdown_order(live):
            zone = self.seat_zone(seat)
            for card in self.zones[zone]:
                if card not in self.up[seat]:  # the up-cards are face up already
                    self.expose(zone, card, 0.4, 1.2)
        winners = {s for pot in pots for s in pot.winners}
        for seat in live:
            if seat not in winners:
                self.muck_hand(seat)


def stud_seating(players: Mapping[int, str | None], stacks: Mapping[int, int], seats: int) -> Seating:
    """Stud seating: every seat with chips, dealt from the dealer's left (seat 1) clockwise."""
    active = tuple(s for s in range(1, seats + 1) if players.get(s) is not None and stacks.get(s, 0) > 0)
    empty = tuple(s for s in range(1, seats + 1) if s not in active)
    return Seating(button=0, sb_pos=0, sb_seat=None, bb_seat=active[0], dealt_in=active,
                   stacks={s: stacks[s] for s in active}, empty=empty)


__all__ = ["MAX_SEATS", "STREETS", "StudPlay", "StudStakes", "bring_in_seat", "card_key", "first_to_act",
           "showing_value", "stud_seating"]
