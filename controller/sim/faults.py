"""Dealer-error injectors: each plays the erroneous physical sequence, then the prescribed correction.

One class per catalogue code. A fault hooks into one step of controller/sim/hand.py (blinds, deal,
after the deal, a street's board, a betting turn, after the hand) and uses the hand's primitives, so the
hand goes on correctly after the correction. docs/simulator.md lists every sequence.
"""

from __future__ import annotations

import random
from typing import ClassVar, Protocol

from controller.core.events import (
    ActionEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    ConsoleEvent,
    Event,
    Exposed,
    HandStart,
    PresentEvent,
)
from controller.core.profiles import Profile
from controller.sim.hand import Clock, HandPlay, Seating
from controller.sim.players import Style
from controller.sim.rounds import Round


class TableView(Protocol):
    """What an injector may ask of the virtual table (controller/sim/table.py `VirtualTable`); a
    Protocol, so the injectors do not import the table that draws them: no import circle."""

    use_uids: bool
    profile: Profile
    bb_ante: bool

    def level_blinds(self) -> tuple[int, int]: ...

    @property
    def hands_played(self) -> int: ...


class Fault:
    """Base injector: every hook does nothing; a subclass overrides the step where its error happens."""

    code: ClassVar[str] = ""
    style: ClassVar[Style | None] = None  # force a player style so the hand reaches the error's street
    also: tuple[str, ...] = ()  # other codes this error legitimately raises
    # The injector can also play a dealer who does not carry out the remedy (reaction "ignore").
    ignorable: ClassVar[bool] = False
    reacts: ClassVar[bool] = True  # False: always the plain remedy (no reaction is drawn)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.fired = False
        self.seat: int | None = None
        # What the dealer does after the error (table.py draws it from the table's reactions):
        # "remedy" the correction; "ignore" none (ignorable injectors only); "ruling" the floor is
        # called and accepts the table as it is; "second" the remedy, then a second error on the river.
        self.reaction = "remedy"

    def remedy(self, hp: HandPlay) -> bool:
        """Between the error and its correction: True when the dealer now carries out the remedy."""
        if self.reaction == "ruling":
            hp.events.append(ConsoleEvent(t=hp.clock.after(2.0, 6.0), button="floor"))
            hp.events.append(ConsoleEvent(t=hp.clock.after(10.0, 30.0), button="ruling", ruling="accept",
                                          note="the table stays as it is"))
        return not self.ignorable or self.reaction not in ("ignore", "ruling")

    def also_codes(self) -> tuple[str, ...]:
        """Codes the hand may legitimately raise besides `code`, given the dealer's reaction."""
        extra: tuple[str, ...] = ()
        if self.reaction == "ignore" and self.ignorable:
            extra = ("CORRECTION_NOT_FOLLOWED",)
        elif self.reaction == "second":
            extra = ("KNOCK_MISSING",)
        return (*self.also, *extra)

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return True

    def before_start(self, hp: HandPlay, table: TableView) -> None:
        return None

    def hand_start(self, hp: HandPlay) -> bool:
        return False

    def blinds(self, hp: HandPlay) -> bool:
        return False

    def deal(self, hp: HandPlay) -> bool:
        return False

    def after_deal(self, hp: HandPlay) -> None:
        return None

    def board(self, hp: HandPlay, street: str) -> bool:
        return False

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        return False

    def bring_in(self, hp: HandPlay, rnd: Round) -> bool:
        """Stud 3rd street: True when the injector posted (or misposted) the bring-in itself."""
        return False

    def after_hand(self, hp: HandPlay) -> None:
        return None

    def after_play(self, hp: HandPlay, table: TableView, clock: Clock) -> list[Event]:
        return []


# ====================================================================== helpers
def _deal_until(hp: HandPlay, order: list[int], stop: int) -> None:
    """Deal the hole cards of `order[:stop]` correctly."""
    for seat in order[:stop]:
        hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)


def _foreign_uid(hp: HandPlay, rng: random.Random) -> str:
    known = set(hp.uids.values()) if hp.uids else set()
    while True:
        uid = f"04{rng.getrandbits(48):012x}"
        if uid not in known:
            return uid


class _Street(Fault):
    """A fault at one street's board procedure; the players just check and call so the street comes."""

    style: ClassVar[Style | None] = "passive"
    streets: ClassVar[tuple[str, ...]] = ("flop", "turn", "river")

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.target = rng.choice(self.streets)

    def board(self, hp: HandPlay, street: str) -> bool:
        if self.fired or street != self.target:
            return False
        self.fired = True
        self.wrong(hp, street)
        return True

    def wrong(self, hp: HandPlay, street: str) -> None:
        raise NotImplementedError


class _Misdeal(Fault):
    """A deal error that voids the hand: the dealer collects the cards; the next hand is the redeal."""

    def deal(self, hp: HandPlay) -> bool:
        order = hp.deal_order()
        self.fired = True
        self.wrong(hp, order)
        if not hp.void:
            hp.misdeal()
        return True

    def wrong(self, hp: HandPlay, order: list[int]) -> None:
        raise NotImplementedError


# ====================================================================== D: deck integrity
class DeckIncomplete(Fault):
    """A deck check between hands reads 51 cards; the floor finds the card and the recheck has 52."""

    code = "DECK_INCOMPLETE"

    def before_start(self, hp: HandPlay, table: TableView) -> None:
        cards = list(hp.stub)
        self.rng.shuffle(cards)
        missing = cards.pop()
        for cards_read in (cards, [*cards, missing]):
            hp.events.append(ConsoleEvent(t=hp.clock.after(2.0, 5.0), button="deck_check"))
            for card in cards_read:
                hp.events.append(CardSeen(t=hp.clock.after(0.05, 0.15), zone="deck", **hp.ref(card)))
            hp.events.append(ConsoleEvent(t=hp.clock.after(0.5, 1.5), button="deck_check_done"))
        self.fired = True


class DeckDuplicate(Fault):
    """The third flop card is the same card as the burn (a doubled card): the hand ends, bets go back."""

    code = "DECK_DUPLICATE"
    style: ClassVar[Style | None] = "passive"

    def board(self, hp: HandPlay, street: str) -> bool:
        if street != "flop":
            return False
        self.fired = True
        hp.knock()
        lo, hi = hp.pause_after_knock()
        burn = hp.draw()
        hp.put("burn", burn, lo, hi)
        hp.put("board", hp.draw())
        hp.put("board", hp.draw())
        # the doubled card carries its own tag, so the readers report it by its code (camera/console)
        hp.events.append(CardSeen(t=hp.clock.after(0.2, 0.5), zone="board", card=burn))
        hp.new_deck = True
        hp.misdeal()
        return True


class ForeignCard(Fault):
    """A tag not enrolled in the deck is dealt to a seat; the dealer swaps it for the next card."""

    code = "FOREIGN_CARD"

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return table.use_uids

    def deal(self, hp: HandPlay) -> bool:
        order = hp.deal_order()
        k = self.rng.randrange(len(order))
        _deal_until(hp, order, k)
        seat = order[k]
        zone = hp.seat_zone(seat)
        uid = _foreign_uid(hp, self.rng)
        hp.events.append(CardSeen(t=hp.clock.after(0.25, 0.6), zone=zone, uid=uid))
        hp.events.append(CardGone(t=hp.clock.after(1.0, 3.0), zone=zone, uid=uid))
        for s in order[k:]:
            hp.put(hp.seat_zone(s), hp.draw(), 0.25, 0.6)
        self.seat, self.fired = seat, True
        return True


class BoxedCard(Fault):
    """The camera sees the top card of the stub face up; the dealer takes it out of play (to the muck)."""

    code = "BOXED_CARD"
    ignorable = True

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired:
            return False
        card = hp.draw()
        hp.events.append(Exposed(t=hp.clock.after(0.5, 2.0), zone="deck", **hp.ref(card)))
        if self.remedy(hp):
            hp.put("muck", card, 0.5, 1.5)
        else:
            hp.stub.append(card)  # left on top of the stub: it is dealt next
        self.fired = True
        return False  # the seat to act then acts as usual


class CardMissing(Fault):
    """During the flop betting the flop's burn card slides off the table and is not found again.

    Reported when the hand is over (at the next `hand_start`); the hand itself goes on unchanged.
    """

    code = "CARD_MISSING"
    style: ClassVar[Style | None] = "passive"

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired or hp.street != "flop" or not hp.zones["burn"]:
            return False
        hp.take("burn", hp.zones["burn"][0], 1.0, 4.0)
        self.fired = True
        return False


class CardOffTable(Fault):
    """A hole card leaves its seat during the deal and is never seen again; betting starts: misdeal."""

    code = "CARD_OFF_TABLE"

    def deal(self, hp: HandPlay) -> bool:
        order = hp.deal_order()
        k = self.rng.randrange(len(order) - 1)  # not the last card: after it the deal is complete
        for i, seat in enumerate(order):
            card = hp.draw()
            hp.put(hp.seat_zone(seat), card, 0.25, 0.6)
            if i == k:
                hp.take(hp.seat_zone(seat), card, 0.1, 0.3)  # flipped off the table
                self.seat = seat
        return True

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired:
            return False
        hp.play_turn(rnd)
        hp.misdeal()
        self.fired = True
        return True


class CardMissingPreflop(Fault):
    """Preflop, after the first action, a live seat's hole card leaves its reader and is not seen again;
    the next seat acts: noticed before two actions, a misdeal (004 §4(2i), §4(1)); redeal."""

    code = "CARD_MISSING"

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired or hp.street != "preflop" or rnd.actions != 0:
            return False
        first = rnd.to_act
        hp.play_turn(rnd)
        nxt = rnd.to_act
        owners = [s for s in hp.live()
                  if s not in (first, nxt) and len(hp.zones.get(hp.seat_zone(s), ())) == 2]
        if nxt is None or not owners:
            return True  # cannot fire in this hand: retried with another kind
        seat = self.rng.choice(owners)
        zone = hp.seat_zone(seat)
        hp.take(zone, self.rng.choice(hp.zones[zone]), 0.5, 2.0)
        hp.play_turn(rnd)
        hp.misdeal()
        self.seat, self.fired = seat, True
        return True


# ====================================================================== H: dealing the hole cards
class DealBeforeBlinds(Fault):
    """The dealer starts pitching before the blinds are in, notices, takes the blinds, goes on."""

    code = "DEAL_BEFORE_BLINDS"

    def blinds(self, hp: HandPlay) -> bool:
        return True

    def deal(self, hp: HandPlay) -> bool:
        order = hp.deal_order()
        k = self.rng.randint(1, 2)
        _deal_until(hp, order, k)
        hp.post_blind_chips()
        for seat in order[k:]:
            hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)
        self.fired = True
        return True


class DealWrongFirstSeat(_Misdeal):
    code = "DEAL_WRONG_FIRST_SEAT"

    def wrong(self, hp: HandPlay, order: list[int]) -> None:
        seat = order[1]
        hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)
        self.seat = seat


class DealOutOfOrder(_Misdeal):
    """A card goes to the seat after the one whose turn it is."""

    code = "DEAL_OUT_OF_ORDER"

    def wrong(self, hp: HandPlay, order: list[int]) -> None:
        k = self.rng.randrange(1, len(order) - 1)
        _deal_until(hp, order, k)
        seat = order[k + 1]
        hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)
        self.seat = seat


class DealEmptySeat(_Misdeal):
    code = "DEAL_EMPTY_SEAT"

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return bool(seating.empty)

    def wrong(self, hp: HandPlay, order: list[int]) -> None:
        k = self.rng.randrange(1, len(order))
        _deal_until(hp, order, k)
        seat = self.rng.choice(hp.seating.empty)
        hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)
        self.seat = seat


class HoleCardExposedFirst(_Misdeal):
    """The first or second card of the deal is turned face up."""

    code = "HOLE_CARD_EXPOSED_FIRST"

    def wrong(self, hp: HandPlay, order: list[int]) -> None:
        k = self.rng.randint(0, 1)
        _deal_until(hp, order, k)
        seat = order[k]
        card = hp.draw()
        hp.put(hp.seat_zone(seat), card, 0.25, 0.6)
        hp.expose(hp.seat_zone(seat), card, 0.1, 0.4)
        self.seat = seat


class HoleCardsExposedMultiple(_Misdeal):
    """Two later hole cards are turned face up during the deal."""

    code = "HOLE_CARDS_EXPOSED_MULTIPLE"
    also = ("HOLE_CARD_EXPOSED",)  # the first of the two is a single exposed card when it happens

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return len(seating.dealt_in) >= 3

    def wrong(self, hp: HandPlay, order: list[int]) -> None:
        a, b = sorted(self.rng.sample(range(2, len(order)), 2))
        for k, seat in enumerate(order[:b + 1]):
            card = hp.draw()
            hp.put(hp.seat_zone(seat), card, 0.25, 0.6)
            if k in (a, b):
                hp.expose(hp.seat_zone(seat), card, 0.1, 0.4)
        self.seat = order[b]


class HoleCardExposed(Fault):
    """One later hole card face up: finish the deal, replace it last, it is the face-up first burn."""

    code = "HOLE_CARD_EXPOSED"

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return len(seating.dealt_in) >= 2

    def deal(self, hp: HandPlay) -> bool:
        order = hp.deal_order()
        k = self.rng.randrange(2, len(order))
        exposed = ""
        for i, seat in enumerate(order):
            card = hp.draw()
            hp.put(hp.seat_zone(seat), card, 0.25, 0.6)
            if i == k:
                hp.expose(hp.seat_zone(seat), card, 0.1, 0.4)
                exposed = card
        seat = order[k]
        zone = hp.seat_zone(seat)
        hp.take(zone, exposed, 0.5, 1.5)
        hp.put("burn", exposed, 0.3, 0.8)
        hp.put(zone, hp.draw(), 0.4, 1.0)
        hp.no_burn.add("flop")
        self.seat, self.fired = seat, True
        return True


class HoleCardExposedReplacedAtOnce(Fault):
    """A hole card face up in the deal (not its last card); the dealer burns it face up and gives the
    seat its replacement at once instead of last, then deals on: the core says CORRECTION_NOT_FOLLOWED
    (not the deal-order misdeal) and the exposed card is the flop's burn (docs/rules.md)."""

    code = "HOLE_CARD_EXPOSED"
    also = ("CORRECTION_NOT_FOLLOWED",)
    reacts: ClassVar[bool] = False

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return len(seating.dealt_in) >= 2

    def deal(self, hp: HandPlay) -> bool:
        order = hp.deal_order()
        k = self.rng.randrange(2, len(order) - 1)  # another seat is next: "at once" is not "last"
        for i, seat in enumerate(order):
            card = hp.draw()
            zone = hp.seat_zone(seat)
            hp.put(zone, card, 0.25, 0.6)
            if i == k:
                hp.expose(zone, card, 0.1, 0.4)
                hp.take(zone, card, 0.5, 1.5)
                hp.put("burn", card, 0.3, 0.8)
                hp.put(zone, hp.draw(), 0.4, 1.0)
                self.seat = seat
        hp.no_burn.add("flop")
        self.fired = True
        return True


class HoleCardExposedKept(Fault):
    """A hole card face up in the deal; the seat gets its replacement last but the exposed card is never
    taken away: when the flop comes (without a burn) the seat holds three cards and its hand is dead
    (DEAL_TOO_MANY_CARDS, dead hand; 000 §1.5). Players check and call, so the flop comes."""

    code = "HOLE_CARD_EXPOSED"
    also = ("DEAL_TOO_MANY_CARDS", "CORRECTION_NOT_FOLLOWED")
    style: ClassVar[Style | None] = "passive"
    reacts: ClassVar[bool] = False

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return len(seating.dealt_in) >= 3

    def deal(self, hp: HandPlay) -> bool:
        order = hp.deal_order()
        k = self.rng.randrange(2, len(order))
        for i, seat in enumerate(order):
            card = hp.draw()
            hp.put(hp.seat_zone(seat), card, 0.25, 0.6)
            if i == k:
                hp.expose(hp.seat_zone(seat), card, 0.1, 0.4)
                self.seat = order[k]
        assert self.seat is not None
        hp.put(hp.seat_zone(self.seat), hp.draw(), 0.4, 1.0)  # the replacement, last; the card stays
        hp.no_burn.add("flop")
        return True

    def board(self, hp: HandPlay, street: str) -> bool:
        if street == "flop" and self.seat is not None and self.seat in hp.live() and not self.fired:
            hp.kill(self.seat)  # three cards at the flop: dead, its chips stay in the pot
            self.fired = True
        return False


class DealExtraCardFirstSeat(Fault):
    """After the deal the first seat gets a third card; it goes back on the stub as the next burn."""

    code = "DEAL_EXTRA_CARD_FIRST_SEAT"

    def after_deal(self, hp: HandPlay) -> None:
        seat = hp.seating.dealt_in[0]
        zone = hp.seat_zone(seat)
        card = hp.draw()
        hp.put(zone, card, 0.25, 0.6)
        hp.take(zone, card, 1.0, 2.5)
        hp.stub.append(card)  # on top: the flop's burn
        self.seat, self.fired = seat, True


class DealTooManyCards(Fault):
    """A seat other than the first gets a third hole card before any action: misdeal."""

    code = "DEAL_TOO_MANY_CARDS"

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return len(seating.dealt_in) >= 2

    def after_deal(self, hp: HandPlay) -> None:
        seat = self.rng.choice(hp.seating.dealt_in[1:])
        hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)
        hp.misdeal()
        self.seat, self.fired = seat, True


class DealSeatSkipped(Fault):
    """The dealer ends the second round early: the first seat to act holds one card when it acts."""

    code = "DEAL_SEAT_SKIPPED"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.skipped: int | None = None

    def deal(self, hp: HandPlay) -> bool:
        ring = list(hp.seating.dealt_in)
        first = hp.preflop_order(ring)[0]
        short = ring[ring.index(first):]  # every second-round card from the first to act on is missing
        for seat in ring:
            hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)
        for seat in ring:
            if seat not in short:
                hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)
        self.skipped = first
        return True

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired:
            return False
        hp.play_turn(rnd)
        hp.misdeal()
        self.seat, self.fired = self.skipped, True
        return True


class DeadHandAbsent(Fault):
    """A player is away when the deal completes: the blinds are posted for him, the hand is mucked."""

    code = "DEAD_HAND_ABSENT"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.away = 0

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return len(seating.dealt_in) >= 3

    def blinds(self, hp: HandPlay) -> bool:
        self.away = self.rng.choice(hp.seating.dealt_in)
        hp.events.append(PresentEvent(t=hp.clock.after(0.3, 1.0), seat=self.away, present=False))
        hp.post_blind_chips()
        return True

    def after_deal(self, hp: HandPlay) -> None:
        hp.kill(self.away)
        hp.dead.add(self.away)
        hp.muck_hand(self.away)
        self.seat, self.fired = self.away, True

    def after_play(self, hp: HandPlay, table: TableView, clock: Clock) -> list[Event]:
        return [PresentEvent(t=clock.after(2.0, 6.0), seat=self.away, present=True)]


# ====================================================================== B: knock, burn and board
class KnockMissing(_Street):
    code = "KNOCK_MISSING"

    def wrong(self, hp: HandPlay, street: str) -> None:
        hp.deal_board(street, knock=False)


class KnockPauseShort(_Street):
    code = "KNOCK_PAUSE_SHORT"

    def wrong(self, hp: HandPlay, street: str) -> None:
        hp.knock()
        short = hp.profile.knock_pause_s
        hp.put("burn", hp.draw(), 0.1, short * 0.6)
        hp.put_board(street)


class BurnMissingFlop(_Street):
    """Flop turned without a burn; corrected per the profile (redeal, or the first card becomes the burn)."""

    code = "BURN_MISSING_FLOP"
    streets = ("flop",)
    ignorable = True

    def wrong(self, hp: HandPlay, street: str) -> None:
        hp.knock()
        lo, hi = hp.pause_after_knock()
        flop = [hp.draw() for _ in range(3)]
        for card in flop:
            hp.put("board", card, lo, hi)
            lo, hi = 0.2, 0.5
        if not self.remedy(hp):
            return  # the flop stands as dealt
        if hp.profile.flop_no_burn in ("recall_reshuffle_redeal", "reshuffle_stub_redeal"):
            for card in flop:
                hp.take("board", card, 0.3, 0.6)
            hp.reshuffle(flop)
            hp.put("burn", hp.draw(), 1.0, 3.0)
            for _ in range(3):
                hp.put("board", hp.draw(), 0.2, 0.5)
        else:  # put it right: the first flop card is the burn, the next card completes the flop
            hp.take("board", flop[0], 0.5, 1.5)
            hp.put("burn", flop[0], 0.2, 0.5)
            hp.put("board", hp.draw(), 0.3, 0.8)


class _BurnMissingLater(_Street):
    """Turn/river turned without a burn: it becomes a burn and a new card is turned."""

    ignorable = True

    def wrong(self, hp: HandPlay, street: str) -> None:
        hp.knock()
        lo, hi = hp.pause_after_knock()
        card = hp.draw()
        hp.put("board", card, lo, hi)
        if not self.remedy(hp):
            return  # the unburned card stands as the street's card
        hp.take("board", card, 0.5, 1.5)
        hp.put("burn", card, 0.2, 0.5)
        hp.put("board", hp.draw(), 0.3, 0.8)


class BurnMissingTurn(_BurnMissingLater):
    code = "BURN_MISSING_TURN"
    streets = ("turn",)


class BurnMissingRiver(_BurnMissingLater):
    code = "BURN_MISSING_RIVER"
    streets = ("river",)


class BurnExtra(_Street):
    """Two burns before the street; the second is taken back and is the next street's burn (003 (6))."""

    code = "BURN_EXTRA"
    streets = ("flop", "turn")
    ignorable = True

    def wrong(self, hp: HandPlay, street: str) -> None:
        hp.knock()
        lo, hi = hp.pause_after_knock()
        hp.put("burn", hp.draw(), lo, hi)
        second = hp.draw()
        hp.put("burn", second, 0.3, 0.6)
        fixed = self.remedy(hp)
        if fixed:
            hp.take("burn", second, 0.8, 2.0)
        for _ in range(3 if street == "flop" else 1):
            hp.put("board", hp.draw(), 0.3, 0.6)
        if fixed:
            hp.stub.append(second)  # on top of the stub again: the next street burns it


class BurnExposed(_Street):
    code = "BURN_EXPOSED"

    def wrong(self, hp: HandPlay, street: str) -> None:
        hp.knock()
        lo, hi = hp.pause_after_knock()
        burn = hp.draw()
        hp.put("burn", burn, lo, hi)
        hp.expose("burn", burn, 0.1, 0.3)
        hp.put_board(street)


class FlopTooManyCards(_Street):
    """Four flop cards; corrected per the profile's four-card-flop rule."""

    code = "FLOP_TOO_MANY_CARDS"
    streets = ("flop",)
    ignorable = True

    def wrong(self, hp: HandPlay, street: str) -> None:
        hp.knock()
        lo, hi = hp.pause_after_knock()
        hp.put("burn", hp.draw(), lo, hi)
        four = [hp.draw() for _ in range(4)]
        for card in four:
            hp.put("board", card, 0.2, 0.5)
        if not self.remedy(hp):
            hp.take("board", four[3], 0.5, 1.5)  # the dealer just mucks the fourth card
            hp.put("muck", four[3], 0.2, 0.5)
            return
        rule = hp.profile.four_card_flop
        if rule in ("recall_reshuffle_redeal", "reshuffle_stub_redeal", "correct_or_reshuffle"):
            for card in four:
                hp.take("board", card, 0.2, 0.5)
            hp.reshuffle(four)
            for _ in range(3):
                hp.put("board", hp.draw(), 0.3, 0.8)
        elif rule == "extra_is_next_burn":
            hp.take("board", four[3], 0.5, 1.5)
            hp.stub.append(four[3])
        elif rule == "fourth_is_exposed_burn":
            hp.take("board", four[3], 0.5, 1.5)
            hp.put("burn", four[3], 0.2, 0.5)
            hp.no_burn.add("turn")
        else:  # scramble_floor_picks_burn: all four come off, the floor picks the next burn
            for card in four:
                hp.take("board", card, 0.2, 0.5)
            self.rng.shuffle(four)
            picked = four.pop()
            for card in four:
                hp.put("board", card, 0.3, 0.8)
            hp.stub.append(picked)


_NEXT = {"preflop": "flop", "flop": "turn", "turn": "river"}


class _Premature(Fault):
    """The next street's burn and card(s) come while the betting round is still open."""

    street: ClassVar[str] = ""
    style: ClassVar[Style | None] = "passive"
    ignorable = True

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.aside: list[str] = []
        self.kept: list[str] = []  # premature cards the dealer left on the board (no remedy)

    def board(self, hp: HandPlay, street: str) -> bool:
        if self.kept and street == _NEXT[self.street]:
            self.kept = []
            return True  # the street's cards are already out: nothing more is dealt
        return False

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired or hp.street != self.street or rnd.actions < 1:
            return False
        self.fired = True
        self.seat = rnd.to_act
        hp.put("burn", hp.draw(), 0.5, 1.5)
        count = 3 if self.street == "preflop" else 1
        cards = [hp.draw() for _ in range(count)]
        for card in cards:
            hp.put("board", card, 0.2, 0.5)
        if not self.remedy(hp):
            self.kept = cards
            return True
        for card in cards:
            hp.take("board", card, 0.8, 2.0)
        self.recalled(hp, cards)
        return True

    def recalled(self, hp: HandPlay, cards: list[str]) -> None:
        raise NotImplementedError


class FlopPremature(_Premature):
    """Flop recalled (not the burn) and shuffled into the stub; redealt without a new burn."""

    code = "FLOP_PREMATURE"
    street = "preflop"

    def recalled(self, hp: HandPlay, cards: list[str]) -> None:
        hp.reshuffle(cards)
        hp.no_burn.add("flop")


class TurnPremature(_Premature):
    """Set aside; burn, the would-be river is the turn; shuffled back before an unburned river.

    Under a `reshuffle` profile (004 §8(4)) the card is shuffled back at once and the turn and river
    come as usual, each after a burn.
    """

    code = "TURN_PREMATURE"
    street = "flop"

    def recalled(self, hp: HandPlay, cards: list[str]) -> None:
        if hp.profile.premature_turn == "reshuffle":
            hp.reshuffle(cards)
            return
        self.aside = cards

    def board(self, hp: HandPlay, street: str) -> bool:
        if super().board(hp, street):
            return True
        if street != "river" or not self.aside:
            return False
        hp.reshuffle(self.aside)
        self.river(hp)
        return True

    def river(self, hp: HandPlay) -> None:
        hp.deal_board("river", burn=False)


class TurnPrematureBetOn(Fault):
    """Triple fault (golden scenario f_premature_turn_passed_over_bet): on the flop the last seat checks
    out of turn past the seat before it, the dealer turns the turn card without a knock while that seat
    still owes its flop action, and the first seat bets the turn on it. The table kept the card: one
    CORRECTION_NOT_FOLLOWED; the passed-over seat counts as checked on the flop (000 §2.8) and plays on."""

    code = "TURN_PREMATURE"
    also = ("ACTION_OUT_OF_TURN", "PLAYER_SKIPPED", "CORRECTION_NOT_FOLLOWED")
    style: ClassVar[Style | None] = "passive"
    reacts: ClassVar[bool] = False

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.turn_bet = False

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired:
            return self._bet_turn(hp, rnd)
        if hp.street != "flop" or rnd.actions != 0 or len(rnd.pending) < 3 or rnd.current_bet != 0:
            return False
        skipped, last = rnd.pending[-2], rnd.pending[-1]
        while rnd.to_act != skipped:
            seat = rnd.to_act
            assert seat is not None
            hp.act(rnd, seat, rnd.committed[seat])  # checks in turn
        rnd.act(skipped, rnd.committed[skipped])  # passed over: counts as checked, says nothing
        hp.act(rnd, last, rnd.committed[last])  # its check, out of turn
        hp.put("burn", hp.draw(), 0.5, 1.5)  # no knock: the turn comes while `skipped` still owes
        hp.put("board", hp.draw(), 0.2, 0.5)
        self.seat, self.fired = skipped, True
        return True

    def board(self, hp: HandPlay, street: str) -> bool:
        return self.fired and street == "turn"  # the turn card is out already

    def _bet_turn(self, hp: HandPlay, rnd: Round) -> bool:
        """The first seat to act on the turn bets the smallest bet on the early card."""
        if self.turn_bet or hp.street != "turn" or rnd.actions != 0:
            return False
        self.turn_bet = True
        seat = rnd.to_act
        assert seat is not None
        opt = rnd.options(seat)
        if not opt.may_raise or opt.to_call != 0:
            return False
        hp.act(rnd, seat, min(opt.min_total, opt.max_total), 1.0, 4.0)
        return True


class RiverPremature(_Premature):
    """Shuffled back into the stub after the betting; new river without a burn."""

    code = "RIVER_PREMATURE"
    street = "turn"

    def recalled(self, hp: HandPlay, cards: list[str]) -> None:
        self.aside = cards

    def board(self, hp: HandPlay, street: str) -> bool:
        if super().board(hp, street):
            return True
        if street != "river" or not self.aside:
            return False
        hp.reshuffle(self.aside)
        hp.deal_board("river", burn=False)
        return True


class CorrectionNotFollowed(TurnPremature):
    """A premature turn corrected, but the dealer burns again before the river."""

    code = "CORRECTION_NOT_FOLLOWED"
    also = ("TURN_PREMATURE",)
    ignorable = False
    reacts = False  # the error is itself the dealer's reaction

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return table.profile.premature_turn == "set_aside"  # a burned river is right after a reshuffle

    def river(self, hp: HandPlay) -> None:
        hp.deal_board("river", burn=True)


class RabbitHunt(Fault):
    """After everyone folded, the dealer turns the next card anyway, then takes it back."""

    code = "RABBIT_HUNT"

    def after_hand(self, hp: HandPlay) -> None:
        if len(hp.zones["board"]) >= 5 or len(hp.live()) != 1:
            return
        card = hp.draw()
        hp.put("board", card, 1.5, 4.0)
        hp.take("board", card, 1.0, 3.0)
        self.fired = True


# ====================================================================== A: betting
class BlindWrong(Fault):
    """The big blind puts in the small-blind amount; found at the first card and corrected in the deal."""

    code = "BLIND_WRONG"

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return seating.stacks[seating.bb_seat] > table.level_blinds()[1]

    def blinds(self, hp: HandPlay) -> bool:
        s = hp.seating
        if s.sb_seat is not None:
            hp.events.append(ChipsEvent(t=hp.clock.after(0.8, 2.0), seat=s.sb_seat,
                                        amount=min(hp.sb, hp.behind[s.sb_seat])))
        hp.events.append(ChipsEvent(t=hp.clock.after(0.5, 1.5), seat=s.bb_seat, amount=hp.sb))
        return True

    def deal(self, hp: HandPlay) -> bool:
        order = hp.deal_order()
        _deal_until(hp, order, 1)
        s = hp.seating
        hp.events.append(ChipsEvent(t=hp.clock.after(2.0, 5.0), seat=s.bb_seat, amount=hp.bb))
        for seat in order[1:]:
            hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)
        self.seat, self.fired = s.bb_seat, True
        return True


class AnteNotPosted(Fault):
    """Big-blind ante: the big blind puts in its blind alone; after the first card the dealer takes the
    ante and moves it to the pot."""

    code = "ANTE_NOT_POSTED"

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return table.bb_ante and seating.stacks[seating.bb_seat] > table.level_blinds()[1]

    def blinds(self, hp: HandPlay) -> bool:
        hp.post_blind_chips(ante=False)
        return True

    def deal(self, hp: HandPlay) -> bool:
        order = hp.deal_order()
        _deal_until(hp, order, 1)
        s = hp.seating
        blind = min(hp.bb, hp.behind[s.bb_seat])
        late = blind + hp.bb_ante_due()
        hp.events.append(ChipsEvent(t=hp.clock.after(2.0, 5.0), seat=s.bb_seat, amount=late))
        hp.sweep_ante()
        for seat in order[1:]:
            hp.put(hp.seat_zone(seat), hp.draw(), 0.25, 0.6)
        self.seat, self.fired = s.bb_seat, True
        return True


class AnteWrongSeat(Fault):
    """Big-blind ante: the small blind puts the ante in with its blind (or the button puts it in); the
    dealer gives it back and the big blind posts it, all before the deal."""

    code = "ANTE_WRONG_SEAT"

    def applicable(self, seating: Seating, table: TableView) -> bool:
        sb, bb = table.level_blinds()
        return (table.bb_ante and seating.stacks[seating.bb_seat] > bb
                and any(seating.stacks[w] > a + bb for w, a in self._wrong(seating, sb)))

    @staticmethod
    def _wrong(seating: Seating, sb: int) -> list[tuple[int, int]]:
        """(seat, its own blind) of the seats that might put the ante in by mistake."""
        out = [(seating.sb_seat, sb)] if seating.sb_seat is not None else []
        if seating.button in seating.dealt_in and seating.button not in (seating.sb_seat, seating.bb_seat):
            out.append((seating.button, 0))
        return out

    def blinds(self, hp: HandPlay) -> bool:
        s = hp.seating
        seat, own = self.rng.choice([(w, a) for w, a in self._wrong(s, hp.sb) if s.stacks[w] > a + hp.bb])
        ante = hp.bb_ante_due()
        if s.sb_seat is not None and s.sb_seat != seat:
            hp.events.append(ChipsEvent(t=hp.clock.after(0.8, 2.0), seat=s.sb_seat,
                                        amount=min(hp.sb, hp.behind[s.sb_seat])))
        hp.events.append(ChipsEvent(t=hp.clock.after(0.8, 2.0), seat=seat, amount=own + hp.bb))
        blind = min(hp.bb, hp.behind[s.bb_seat])
        hp.events.append(ChipsEvent(t=hp.clock.after(0.5, 1.5), seat=s.bb_seat, amount=blind))
        hp.events.append(ChipsEvent(t=hp.clock.after(1.0, 3.0), seat=seat, amount=own))  # given back
        hp.events.append(ChipsEvent(t=hp.clock.after(0.5, 1.5), seat=s.bb_seat, amount=blind + ante))
        hp.sweep_ante()
        self.seat, self.fired = seat, True
        return True


class ButtonWrong(Fault):
    """The hand starts with the button one seat too far; the dealer moves it and plays the hand right."""

    code = "BUTTON_WRONG"

    def applicable(self, seating: Seating, table: TableView) -> bool:
        return len(seating.dealt_in) >= 3 and table.hands_played > 0  # the first hand sets the button

    def hand_start(self, hp: HandPlay) -> bool:
        wrong = hp.seating.dealt_in[0]
        hp.events.append(HandStart(t=hp.clock.after(3.0, 8.0), button=wrong))
        self.seat, self.fired = wrong, True
        return True


class ActionOutOfTurn(Fault):
    """The seat after the one to act folds out of turn (binding); then play goes on in order."""

    code = "ACTION_OUT_OF_TURN"

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired or len(rnd.pending) < 2 or rnd.live_count() < 3:
            return False
        seat = rnd.pending[1]
        self.seat, self.fired = seat, True
        rnd.fold(seat)
        hp.folded.add(seat)
        rnd.actions += 1
        hp.events.append(ActionEvent(t=hp.clock.after(0.5, 3.0), seat=seat, action="fold"))
        hp.muck_hand(seat)
        return True


class PlayerSkipped(Fault):
    """Two seats after the one to act call or check; the skipped seat counts as folded (001 §8)."""

    code = "PLAYER_SKIPPED"
    also = ("ACTION_OUT_OF_TURN",)

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired or len(rnd.pending) < 3 or rnd.live_count() < 4:
            return False
        skipped = rnd.pending[0]
        self.seat, self.fired = skipped, True
        rnd.fold(skipped)
        hp.folded.add(skipped)
        for _ in range(2):
            seat = rnd.to_act
            if seat is None:
                break
            hp.act(rnd, seat, rnd.options(seat).call_total, 1.0, 4.0)
        hp.muck_hand(skipped)
        return True


class CallShort(Fault):
    """A call short of the amount to call, then completed (or, ignored or accepted by the floor, left
    short while the next seat acts, the dealer knocks or deals the next street, or the hands are shown:
    the seat stays in for what it put in)."""

    code = "CALL_SHORT"
    ignorable = True

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        seat = rnd.to_act
        if self.fired or seat is None:
            return False
        opt = rnd.options(seat)
        if opt.to_call < 2 or opt.max_total <= opt.call_total:
            return False
        mine = opt.call_total - opt.to_call
        short = mine + max(1, opt.to_call // 2)
        hp.events.append(ActionEvent(t=hp.clock.after(1.0, 6.0), seat=seat, action="call", amount=short))
        self.seat, self.fired = seat, True
        if not self.remedy(hp):
            rnd.act(seat, short)  # the short call stands: the next seat acts
            return True
        hp.act(rnd, seat, opt.call_total, 1.0, 3.0)
        return True


class BetBelowMinimum(Fault):
    """An opening bet of three quarters of the big blind; the player adds chips up to the minimum (or,
    ignored or accepted by the floor, the bet stands as placed and the others answer it)."""

    code = "BET_BELOW_MINIMUM"
    style: ClassVar[Style | None] = "passive"
    ignorable = True

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        seat = rnd.to_act
        if self.fired or seat is None or hp.street == "preflop":
            return False
        opt = rnd.options(seat)
        minimum = opt.min_total  # the big blind; in fixed limit the street's bet
        if opt.to_call != 0 or not opt.may_raise or opt.max_total <= minimum:
            return False
        below = minimum * 3 // 4
        hp.events.append(ActionEvent(t=hp.clock.after(1.0, 6.0), seat=seat, action="bet", amount=below))
        self.seat, self.fired = seat, True
        if not self.remedy(hp):
            rnd.act(seat, below)  # the short bet stands as placed: a bet that sets no raise increment
            return True
        rnd.act(seat, minimum)  # more than half the minimum: a bet that must be completed (001 §8)
        hp.events.append(ChipsEvent(t=hp.clock.after(1.0, 3.0), seat=seat, amount=minimum))
        return True


class StringBet(Fault):
    """A seat bets or raises, then reaches back for more chips in a second motion (000 §3.1): the action
    stands at its first amount and the extra goes back. Ignored: the extra stays and the next seat calls
    the whole amount; accepted by the floor: the whole amount stands and the hand goes on."""

    code = "STRING_BET"
    ignorable = True

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        seat = rnd.to_act
        if self.fired or seat is None or len(rnd.pending) < 2:
            return False
        opt = rnd.options(seat)
        first, second = opt.min_total, opt.min_total + hp.bb
        nxt = rnd.pending[1]
        if not opt.may_raise or second > opt.max_raise or rnd.committed[nxt] + rnd.behind[nxt] <= second:
            return False  # no room for a second motion (fixed limit), or the next seat could not call it
        name = "bet" if rnd.current_bet == 0 else "raise"
        hp.events.append(ActionEvent(t=hp.clock.after(1.0, 6.0), seat=seat, action=name, amount=first))
        hp.events.append(ChipsEvent(t=hp.clock.after(0.5, 2.0), seat=seat, amount=second))
        self.seat, self.fired = seat, True
        if self.remedy(hp):
            rnd.act(seat, first)
            hp.events.append(ChipsEvent(t=hp.clock.after(1.0, 3.0), seat=seat, amount=first))  # extra back
            return True
        rnd.act(seat, second)
        if self.reaction == "ignore":  # the table shows it let the chips stand: the next seat calls them
            hp.act(rnd, nxt, rnd.options(nxt).call_total)
        return True


class OversizedChip(Fault):
    """Facing a bet, the seat to act drops one big chip without a word: a call; the change goes back.
    Ignored or accepted by the floor (no and pot limit): the change stays, the chip stands as a raise
    and the next seat calls it."""

    code = "OVERSIZED_CHIP"
    ignorable = True
    CHIPS: ClassVar[tuple[int, ...]] = (25, 100, 500, 1_000, 5_000, 25_000, 100_000)

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        seat = rnd.to_act
        if self.fired or seat is None:
            return False
        opt = rnd.options(seat)
        mine = opt.call_total - opt.to_call
        chip = next((c for c in self.CHIPS if c > opt.to_call), 0)
        if opt.to_call == 0 or not chip or mine + chip > opt.max_total or opt.call_total == opt.max_total:
            return False
        stands = self.reaction in ("ignore", "ruling") and hp.limit != "fixed"
        nxt = rnd.pending[1] if len(rnd.pending) > 1 else None
        if stands and (nxt is None or rnd.committed[nxt] + rnd.behind[nxt] <= mine + chip):
            return False  # the table shows the chip stood by the next seat's call of it
        hp.events.append(ChipsEvent(t=hp.clock.after(1.0, 6.0), seat=seat, amount=mine + chip))
        self.seat, self.fired = seat, True
        if stands and not self.remedy(hp):
            rnd.act(seat, mine + chip)
            assert nxt is not None
            hp.act(rnd, nxt, rnd.options(nxt).call_total)
            return True
        rnd.act(seat, opt.call_total)
        hp.events.append(ChipsEvent(t=hp.clock.after(1.0, 3.0), seat=seat, amount=opt.call_total))
        return True


class RaiseNotReopened(Fault):
    """A bets, B is all-in for a little more (not a full raise), the others call; A tries to raise.

    The dealer stops it: A may only call or fold, and calls.
    """

    code = "RAISE_NOT_REOPENED"
    style: ClassVar[Style | None] = "passive"

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired or hp.street == "preflop" or rnd.current_bet or len(rnd.pending) < 3:
            return False
        if hp.limit != "no":  # its amounts are no-limit ones (limit: tests/core/test_betting_limits.py)
            return False
        a, b = rnd.pending[0], rnd.pending[1]
        cap_b = rnd.behind[b]
        bet = -(-cap_b * 4 // 5)  # 80 % of B's stack: B's all-in raises by less than half a raise
        others = rnd.pending[2:]
        if bet < hp.bb or bet >= cap_b or rnd.behind[a] <= 3 * cap_b:
            return False
        if any(rnd.behind[s] <= cap_b for s in others):
            return False
        hp.act(rnd, a, bet)
        hp.act(rnd, b, cap_b, 2.0, 10.0)
        while rnd.to_act is not None and rnd.to_act != a:
            seat = rnd.to_act
            hp.act(rnd, seat, rnd.options(seat).call_total)
        if rnd.to_act != a:
            return True
        illegal = cap_b + rnd.min_raise
        hp.events.append(ActionEvent(t=hp.clock.after(1.0, 6.0), seat=a, action="raise", amount=illegal))
        hp.act(rnd, a, rnd.options(a).call_total, 1.0, 3.0)
        self.seat, self.fired = a, True
        return True


class ActionTime(Fault):
    """The seat to act takes longer than the time allowance."""

    code = "ACTION_TIME"

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired:
            return False
        # over the longer allowance, so the alert comes whether or not the engine sees an all-in
        allowance = max(hp.profile.all_in_time_s, hp.profile.action_time_s)
        self.seat, self.fired = rnd.to_act, True
        hp.play_turn(rnd, think=(allowance + 5.0, allowance + min(hp.profile.clock_s, 40.0)))
        return True


class DeadHandClock(Fault):
    """The clock is called on a slow seat and runs out: the dealer kills the hand."""

    code = "DEAD_HAND_CLOCK"
    also = ("ACTION_TIME",)

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        seat = rnd.to_act
        if self.fired or seat is None or rnd.live_count() < 3:
            return False
        allowance = max(hp.profile.all_in_time_s, hp.profile.action_time_s)
        hp.events.append(ConsoleEvent(t=hp.clock.after(allowance + 2.0, allowance + 10.0),
                                      button="clock"))
        hp.clock.after(hp.profile.clock_s + 1.0, hp.profile.clock_s + 3.0)
        rnd.fold(seat)
        hp.folded.add(seat)
        rnd.actions += 1
        hp.muck_hand(seat)
        self.seat, self.fired = seat, True
        return True


# ====================================================================== L: hand lifecycle
class MisdealCalled(_Misdeal):
    """The dealer presses misdeal during the deal."""

    code = "MISDEAL_CALLED"

    def wrong(self, hp: HandPlay, order: list[int]) -> None:
        k = self.rng.randrange(1, len(order))
        _deal_until(hp, order, k)
        hp.events.append(ConsoleEvent(t=hp.clock.after(0.5, 2.0), button="misdeal"))


class MisdealCalledLate(Fault):
    """The dealer presses misdeal on a later street (hold'em turn, stud 5th street on), after a first
    action there: far past the two actions of 001 §14 and 004 §4(1), so the core refuses it
    (MISDEAL_CALLED, severity error) and the hand plays on unchanged."""

    code = "MISDEAL_CALLED"
    style: ClassVar[Style | None] = "passive"
    reacts: ClassVar[bool] = False
    LATE: ClassVar[frozenset[str]] = frozenset({"turn", "river", "fifth", "sixth", "seventh"})

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired or hp.street not in self.LATE or rnd.actions < 1:
            return False
        hp.events.append(ConsoleEvent(t=hp.clock.after(0.5, 3.0), button="misdeal"))
        self.fired = True
        return False


class CheckFacingBet(Fault):
    """A seat facing a bet says check (no action, the books are silent; TDA 2024 Rules 1, 3), then acts
    as it would have: the core says CHECK_FACING_BET once and follows the hand."""

    code = "CHECK_FACING_BET"
    reacts: ClassVar[bool] = False

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        seat = rnd.to_act
        if self.fired or seat is None or rnd.actions < 1 or rnd.options(seat).to_call <= 0:
            return False
        hp.events.append(ActionEvent(t=hp.clock.after(1.0, 4.0), seat=seat, action="check"))
        self.seat, self.fired = seat, True
        hp.play_turn(rnd)
        return True


class HoleCardInMuck(Fault):
    """A live hand (not the one to act) reaches the muck: it is dead."""

    code = "HOLE_CARD_IN_MUCK"

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired or rnd.live_count() < 3 or len(rnd.pending) < 2:
            return False
        seat = rnd.pending[-1]
        hp.kill(seat)
        hp.muck_hand(seat)
        self.seat, self.fired = seat, True
        return True


class ActionAfterFold(Fault):
    """A seat throws its cards forward out of turn; the seat to act acts on it; the hand is dead."""

    code = "ACTION_AFTER_FOLD"

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired or rnd.live_count() < 3 or len(rnd.pending) < 2:
            return False
        seat = rnd.pending[1]
        zone = hp.seat_zone(seat)
        thrown = list(hp.zones[zone])
        for card in thrown:
            hp.take(zone, card, 0.3, 1.0)
        hp.kill(seat)
        hp.play_turn(rnd)
        for card in thrown:
            hp.put("muck", card, 0.3, 0.8)
        self.seat, self.fired = seat, True
        return True


class FloorCalled(Fault):
    code = "FLOOR_CALLED"

    def before_action(self, hp: HandPlay, rnd: Round) -> bool:
        if self.fired:
            return False
        hp.events.append(ConsoleEvent(t=hp.clock.after(1.0, 5.0), button="floor"))
        self.fired = True
        return False


_ALL: tuple[type[Fault], ...] = (
    DeckIncomplete, DeckDuplicate, ForeignCard, BoxedCard, CardMissing, CardOffTable,
    DealBeforeBlinds, DealWrongFirstSeat, DealOutOfOrder, DealEmptySeat, HoleCardExposedFirst,
    HoleCardsExposedMultiple, HoleCardExposed, DealExtraCardFirstSeat, DealTooManyCards, DealSeatSkipped,
    DeadHandAbsent,
    KnockMissing, KnockPauseShort, BurnMissingFlop, BurnMissingTurn, BurnMissingRiver, BurnExtra,
    BurnExposed, FlopTooManyCards, FlopPremature, TurnPremature, RiverPremature, CorrectionNotFollowed,
    RabbitHunt,
    BlindWrong, ButtonWrong, AnteNotPosted, AnteWrongSeat, ActionOutOfTurn, PlayerSkipped, CallShort,
    BetBelowMinimum, StringBet, OversizedChip,
    RaiseNotReopened, ActionTime,
    DeadHandClock,
    MisdealCalled, HoleCardInMuck, ActionAfterFold, FloorCalled,
)
FAULTS: dict[str, type[Fault]] = {cls.code: cls for cls in _ALL}
# Variants of a code already drawn above, named by what the dealer does (their `code` is the alert).
FAULTS.update({
    "CARD_MISSING_PREFLOP": CardMissingPreflop,
    "HOLE_CARD_EXPOSED_REPLACED_AT_ONCE": HoleCardExposedReplacedAtOnce,
    "HOLE_CARD_EXPOSED_KEPT": HoleCardExposedKept,
    "TURN_PREMATURE_BET_ON": TurnPrematureBetOn,
    "MISDEAL_CALLED_LATE": MisdealCalledLate,
    "CHECK_FACING_BET": CheckFacingBet,
})
ANTE_FAULTS: frozenset[str] = frozenset({"ANTE_NOT_POSTED", "ANTE_WRONG_SEAT"})  # big-blind-ante tables only
