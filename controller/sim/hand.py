"""One simulated hand: the virtual dealer's physical procedure, as table events, with fault hooks."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.core.events import (
    ActionEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    Event,
    Exposed,
    HandStart,
    Knock,
)
from controller.core.profiles import Profile
from controller.sim.players import Policy
from controller.sim.rounds import Round
from controller.sim.settle import Pot, odd_chips_for, settle


class Hooks(Protocol):
    """What the hand calls at each step: an injected dealer error (controller/sim/faults.py `Fault`).

    A Protocol, so this module does not import the injectors (which build on it): no import circle.
    """

    fired: bool
    reaction: str

    def hand_start(self, hp: HandPlay) -> bool: ...
    def blinds(self, hp: HandPlay) -> bool: ...
    def deal(self, hp: HandPlay) -> bool: ...
    def after_deal(self, hp: HandPlay) -> None: ...
    def board(self, hp: HandPlay, street: str) -> bool: ...
    def before_action(self, hp: HandPlay, rnd: Round) -> bool: ...
    def bring_in(self, hp: HandPlay, rnd: Round) -> bool: ...
    def after_hand(self, hp: HandPlay) -> None: ...

STREETS = ("preflop", "flop", "turn", "river")
BOARD_COUNT = {"flop": 3, "turn": 1, "river": 1}


class Clock:
    """Strictly increasing event times, rounded to milliseconds."""

    def __init__(self, t: float, rng: random.Random) -> None:
        self.t = round(t, 3)
        self.rng = rng

    def after(self, lo: float, hi: float) -> float:
        step = max(0.001, round(self.rng.uniform(lo, hi), 3))
        self.t = round(self.t + step, 3)
        return self.t


@dataclass(kw_only=True, slots=True)
class Seating:
    """Who is where for one hand, from the dead-button rule (controller/sim/table.py)."""

    button: int
    sb_pos: int  # the small blind's position (the seat may be empty: a dead small blind)
    sb_seat: int | None  # the seat that posts the small blind
    bb_seat: int
    dealt_in: tuple[int, ...]  # deal order: clockwise from the first seat left of the button
    stacks: dict[int, int]
    empty: tuple[int, ...] = ()  # seats of the table without a player


@dataclass(kw_only=True, slots=True)
class Outcome:
    """What the table needs after a hand."""

    void: bool = False  # misdeal: stacks and button stay, the hand is redealt
    stacks: dict[int, int] = field(default_factory=dict)
    pots: list[Pot] = field(default_factory=list)
    new_deck: bool = False  # the deck was replaced (duplicate card)


class HandPlay:
    """Plays one hand; faults (controller/sim/faults.py) hook into the steps and use the primitives."""


    def __init__(self, *, seating: Seating, sb: int, bb: int, chip: int, profile: Profile,
                 deck: Sequence[str], uids: Mapping[str, str] | None, clock: Clock, rng: random.Random,
                 policy: Policy, fault: Hooks | None = None, bb_ante: bool = False,
                 game: str | None = None, limit: str = "no") -> None:
        self.seating = seating
        self.game = game  # named in hand_start (interfaces.md §1a) in mixed rotations; None: the level's
        self.limit = limit  # "no", "pot" or "fixed" (fixed: the big blind preflop and flop, twice it later)
        self.bb_ante = bb_ante  # the big blind also posts one big blind as ante, after its blind (TDA 2024)
        self.dead_money = 0  # antes: dead money for the main pot
        self.sb, self.bb, self.chip = sb, bb, chip
        self.profile = profile
        self.uids = uids
        self.clock = clock
        self.rng = rng
        self.policy = policy
        self.fault = fault
        self.events: list[Event] = []
        self.stub = list(deck)  # top of the stub is the end of the list
        self.rng.shuffle(self.stub)
        self.zones: dict[str, list[str]] = {"board": [], "burn": [], "muck": []}
        for s in seating.dealt_in:
            self.zones[f"seat{s}"] = []
        self.behind = dict(seating.stacks)
        self.committed = {s: 0 for s in seating.dealt_in}  # whole hand
        self.folded: set[int] = set()
        self.dead: set[int] = set()
        self.street = "deal"
        self.round: Round | None = None
        self.no_burn: set[str] = set()  # streets dealt without a burn (corrections)
        self.void = False
        self.ended = False
        self.new_deck = False
        self.set_aside: list[str] = []  # premature cards waiting to be shuffled back
        self.extra_burn: str | None = None  # a card put back on top of the stub as the next burn

    # ------------------------------------------------------------------ primitives
    def ref(self, card: str) -> dict[str, str]:
        return {"uid": self.uids[card]} if self.uids is not None else {"card": card}

    def draw(self) -> str:
        return self.stub.pop()

    def put(self, zone: str, card: str, lo: float = 0.3, hi: float = 0.6) -> None:
        self.zones.setdefault(zone, []).append(card)
        self.events.append(CardSeen(t=self.clock.after(lo, hi), zone=zone, **self.ref(card)))

    def take(self, zone: str, card: str, lo: float = 0.2, hi: float = 0.5) -> None:
        self.zones[zone].remove(card)
        self.events.append(CardGone(t=self.clock.after(lo, hi), zone=zone, **self.ref(card)))

    def expose(self, zone: str, card: str, lo: float = 0.2, hi: float = 0.6) -> None:
        self.events.append(Exposed(t=self.clock.after(lo, hi), zone=zone, **self.ref(card)))

    def knock(self) -> None:
        self.events.append(Knock(t=self.clock.after(0.8, 2.0)))

    def pause_after_knock(self) -> tuple[float, float]:
        """A realistic wait before the burn: never shorter than the profile's knock pause."""
        p = self.profile.knock_pause_s
        return p + 0.15, p + 1.2

    def to_muck(self, zone: str, card: str) -> None:
        self.take(zone, card)
        self.put("muck", card, 0.1, 0.3)

    def reshuffle(self, cards: Sequence[str]) -> None:
        """Shuffle `cards` back into the stub (premature cards, recalled flops)."""
        self.stub.extend(cards)
        self.rng.shuffle(self.stub)

    def misdeal(self) -> None:
        """The hand is void: the dealer collects the cards dealt so far (redeal follows)."""
        self.void = True
        for s in self.seating.dealt_in:
            for card in list(self.zones.get(f"seat{s}", ())):
                self.take(f"seat{s}", card, 0.1, 0.3)

    def seat_zone(self, seat: int) -> str:
        return f"seat{seat}"

    def live(self) -> list[int]:
        return [s for s in self.seating.dealt_in if s not in self.folded and s not in self.dead]

    # ------------------------------------------------------------------ the hand
    def play(self) -> Outcome:
        if self.fault is None or not self.fault.hand_start(self):
            self.events.append(HandStart(t=self.clock.after(3.0, 8.0), button=self.seating.button,
                                         game=self.game))
        if self.void:
            return Outcome(void=True, stacks=dict(self.seating.stacks))
        steps = (self.post_blinds, self.deal, self.after_deal)
        for step in steps:
            step()
            if self.void:
                return Outcome(void=True, stacks=dict(self.seating.stacks), new_deck=self.new_deck)
        for street in STREETS:
            if street != "preflop":
                if len(self.live()) <= 1:
                    break
                self.board(street)
                if self.void:
                    return Outcome(void=True, stacks=dict(self.seating.stacks), new_deck=self.new_deck)
            self.betting(street)
            if self.void:
                return Outcome(void=True, stacks=dict(self.seating.stacks), new_deck=self.new_deck)
        return self.finish()

    def post_blinds(self) -> None:
        if self.fault is not None and self.fault.blinds(self):
            return
        self.post_blind_chips()

    def post_blind_chips(self, sb_amount: int | None = None, *, ante: bool = True) -> None:
        """The blinds as the readers see them; with a big-blind ante the big blind puts blind and ante in
        and the dealer moves the ante to the pot before dealing (`level.ante_chips`, core/antes.py)."""
        s = self.seating
        if s.sb_seat is not None:
            amount = sb_amount if sb_amount is not None else min(self.sb, self.behind[s.sb_seat])
            self.events.append(ChipsEvent(t=self.clock.after(0.8, 2.0), seat=s.sb_seat, amount=amount))
        blind = min(self.bb, self.behind[s.bb_seat])
        due = self.bb_ante_due() if ante else 0
        self.events.append(ChipsEvent(t=self.clock.after(0.5, 1.5), seat=s.bb_seat, amount=blind + due))
        if due:
            self.sweep_ante()

    def sweep_ante(self) -> None:
        """The dealer moves the big blind's ante to the pot: its bet zone holds the blind alone."""
        bb_seat = self.seating.bb_seat
        self.events.append(ChipsEvent(t=self.clock.after(0.3, 1.0), seat=bb_seat,
                                      amount=min(self.bb, self.behind[bb_seat])))

    def bb_ante_due(self) -> int:
        """The big-blind ante this hand: one big blind from what the big blind has left after its blind."""
        if not self.bb_ante:
            return 0
        left = self.behind[self.seating.bb_seat]
        return min(self.bb, left - min(self.bb, left))

    def blind_posts(self) -> dict[int, int]:
        s = self.seating
        posted = {s.bb_seat: min(self.bb, self.behind[s.bb_seat])}
        if s.sb_seat is not None:
            posted[s.sb_seat] = min(self.sb, self.behind[s.sb_seat])
        return posted

    def deal_order(self) -> list[int]:
        """The 2 × N hole-card sequence, clockwise from the first seat left of the button."""
        return list(self.seating.dealt_in) * 2

    def deal(self) -> None:
        self.street = "deal"
        if self.fault is not None and self.fault.deal(self):
            return
        for seat in self.deal_order():
            self.put(self.seat_zone(seat), self.draw(), 0.25, 0.6)

    def after_deal(self) -> None:
        if self.fault is not None:
            self.fault.after_deal(self)

    def board(self, street: str) -> None:
        self.street = street
        if self.fault is not None and self.fault.board(self, street):
            return
        if self.fault is not None and self.fault.reaction == "second" and street == "river" \
                and self.fault.fired:
            self.deal_board(street, knock=False)  # a second error after the first: no knock
            return
        self.deal_board(street)

    def deal_board(self, street: str, *, knock: bool = True, burn: bool = True) -> None:
        if knock:
            self.knock()
        lo, hi = self.pause_after_knock()
        if burn and street not in self.no_burn:
            self.put("burn", self.draw(), lo, hi)
            lo, hi = 0.3, 0.8
        self.put_board(street, lo, hi)

    def put_board(self, street: str, lo: float = 0.2, hi: float = 0.5) -> None:
        """The street's board cards from the stub, the first after a pause of lo…hi seconds."""
        for _ in range(BOARD_COUNT[street]):
            self.put("board", self.draw(), lo, hi)
            lo, hi = 0.2, 0.5

    # ------------------------------------------------------------------ betting
    def new_round(self, street: str) -> Round:
        live = self.live()
        if street == "preflop":
            posted = self.blind_posts()
            for seat, amount in posted.items():
                self.behind[seat] -= amount
                if seat not in live:  # a dead hand's blind still goes into the pot
                    self.committed[seat] += amount
            if self.bb_ante:  # what the big blind has left after its blind, up to one big blind
                self.dead_money = min(self.bb, self.behind[self.seating.bb_seat])
                self.behind[self.seating.bb_seat] -= self.dead_money
            order = self.preflop_order(live)
            return Round(seats=order, stacks={s: self.behind[s] for s in order},
                         posted={s: a for s, a in posted.items() if s in live}, bb=self.bb,
                         current_bet=self.bb, **self._limit_args(street))
        return Round(seats=live, stacks={s: self.behind[s] for s in live}, posted={}, bb=self.bb,
                     current_bet=0, **self._limit_args(street))

    def _limit_args(self, street: str) -> dict[str, Any]:
        if self.limit == "no":
            return {}
        big = street in ("turn", "river")
        return {"limit": self.limit, "bet_size": 2 * self.bb if big else self.bb,
                "cap": self.profile.limit_raise_cap,
                "pot": sum(self.committed.values()) + self.dead_money}

    def preflop_order(self, live: list[int]) -> list[int]:
        s = self.seating
        ring = list(s.dealt_in)
        if len(ring) == 2:
            first = s.button if s.button in ring else ring[-1]
        else:
            first = ring[(ring.index(s.bb_seat) + 1) % len(ring)]
        i = ring.index(first)
        return [x for x in ring[i:] + ring[:i] if x in live]

    def betting(self, street: str) -> None:
        self.street = street
        rnd = self.new_round(street)
        self.round = rnd
        while not self.void and rnd.to_act is not None:
            if self.fault is not None and self.fault.before_action(self, rnd):
                continue
            self.play_turn(rnd)
        self._close_round(rnd)

    def pot_total(self) -> int:
        rnd = self.round
        now = sum(rnd.committed.values()) if rnd is not None else 0
        return sum(self.committed.values()) + now + self.dead_money

    def play_turn(self, rnd: Round, *, think: tuple[float, float] | None = None) -> None:
        seat = rnd.to_act
        assert seat is not None
        opt = rnd.options(seat)
        decision = self.policy.decide(opt, pot=self.pot_total(), bb=self.bb)
        facing_all_in = bool(rnd.all_in) and opt.to_call > 0
        lo, hi = think or ((2.0, 14.0) if facing_all_in else (1.0, 8.0))
        if decision.action == "fold":
            self.fold(rnd, seat, lo, hi)
            return
        self.act(rnd, seat, decision.total, lo, hi)

    def act(self, rnd: Round, seat: int, total: int, lo: float = 1.0, hi: float = 8.0) -> None:
        name = rnd.act(seat, total)
        amount = None if name == "check" else total
        self.events.append(ActionEvent(t=self.clock.after(lo, hi), seat=seat, action=name,  # type: ignore[arg-type]
                                       amount=amount))

    def fold(self, rnd: Round, seat: int, lo: float = 1.0, hi: float = 8.0) -> None:
        rnd.actions += 1
        rnd.fold(seat)
        self.folded.add(seat)
        self.events.append(ActionEvent(t=self.clock.after(lo, hi), seat=seat, action="fold"))
        self.muck_hand(seat)

    def muck_hand(self, seat: int) -> None:
        zone = self.seat_zone(seat)
        for card in list(self.zones[zone]):
            self.to_muck(zone, card)

    def kill(self, seat: int) -> None:
        """The engine-side fold of a dead hand (no action event)."""
        if self.round is not None and seat in self.round.order:
            self.round.fold(seat)
        self.folded.add(seat)

    def _close_round(self, rnd: Round) -> None:
        for seat, amount in rnd.committed.items():
            self.committed[seat] += amount
            self.behind[seat] = rnd.behind[seat]
        if self.street == "river":
            self.river_aggressor = rnd.last_aggressor
        self.round = None

    # ------------------------------------------------------------------ showdown and settlement
    def finish(self) -> Outcome:
        live = self.live()
        hole = {s: self.zones[self.seat_zone(s)] for s in live}
        board = self.zones["board"]
        if len(live) > 1 and len(board) < 5:
            raise AssertionError("showdown without a full board")
        paid, pots = settle(committed=self.committed, live=live, hole=hole, board=board,
                            order_from_button=self.seating.dealt_in, chip=self.chip,
                            odd=odd_chips_for(self.profile), dead=self.dead_money)
        self.street = "showdown"
        if len(live) > 1:
            self.showdown(live, pots)
        self.ended = True
        if self.fault is not None:
            self.fault.after_hand(self)
        stacks = {s: self.behind[s] + paid.get(s, 0) for s in self.seating.dealt_in}
        return Outcome(stacks=stacks, pots=pots, new_deck=self.new_deck)

    def showdown_order(self, live: list[int]) -> list[int]:
        """Last river aggressor first, else first seat left of the button; then clockwise."""
        first = self.river_aggressor if self.river_aggressor in live else live[0]
        i = live.index(first)
        return live[i:] + live[:i]

    river_aggressor: int | None = None

    def showdown(self, live: list[int], pots: list[Pot]) -> None:
        for seat in self.showdown_order(live):
            for card in self.zones[self.seat_zone(seat)]:
                self.expose(self.seat_zone(seat), card, 0.4, 1.2)
        winners = {s for pot in pots for s in pot.winners}
        for seat in live:
            if seat not in winners:
                self.muck_hand(seat)
