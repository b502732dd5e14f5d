"""One seven-card stud hand (002): the hold'em hand's machinery with stud's deal, streets and forced bet.

The phases, betting rounds, pots, showdown and the irregularity handling are shared (hand.py); this class
replaces the pairs of the transition table where stud deals differently: the initial deal (two down, one
up), a card per seat on each later street (4th–6th up, 7th down), up-cards as `exposed` events
(interfaces.md §1a), the bring-in on 3rd street and the highest showing hand first from 4th street.
What each rule does and where it comes from: docs/rules.md, section "Seven-card stud (002)".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from controller.core.alerts import Finding
from controller.core.cards import FULL_DECK
from controller.core.events import ActionEvent, ActionName, CardGone, CardSeen, ChipsEvent, Event, Exposed
from controller.core.forced import Post
from controller.core.games import stud
from controller.core.hand import TRANSITIONS, Hand
from controller.core.handbase import (
    BETTING,
    DEAL,
    DUE,
    ENDED,
    SHOWDOWN,
    _f,
    _seat,
    _seat_of,
    _severity,
    _uid,
)
from controller.core.structures import BettingStructure, structure_for

_DECK_SIZE = len(FULL_DECK)

STUD_TRANSITIONS: dict[tuple[str, str], str] = {
    **TRANSITIONS,
    (DEAL, "hole"): "h_stud_deal", (DEAL, "exposed"): "h_stud_exposed", (DEAL, "chips"): "h_stud_chips_deal",
    (DEAL, "action"): "h_stud_action_deal", (DEAL, "board"): "h_stud_board", (DEAL, "burn"): "h_stud_burn",
    (DEAL, "knock"): "h_ignore", (BETTING, "hole"): "h_stud_hole_betting",
    (BETTING, "exposed"): "h_stud_exposed", (BETTING, "action"): "h_stud_action",
    (BETTING, "chips"): "h_stud_action", (BETTING, "muck"): "h_stud_muck", (BETTING, "board"): "h_stud_board",
    (BETTING, "burn"): "h_stud_burn", (BETTING, "knock"): "h_ignore", (BETTING, "board_count"): "h_ignore",
    (DUE, "hole"): "h_stud_street_card", (DUE, "exposed"): "h_stud_exposed", (DUE, "board"): "h_stud_common",
    (DUE, "burn"): "h_stud_burn", (DUE, "action"): "h_stud_action_due", (DUE, "board_count"): "h_ignore",
    (SHOWDOWN, "hole"): "h_stud_rabbit", (ENDED, "hole"): "h_stud_rabbit",
}


class StudHand(Hand):
    """A seven-card stud hand. Seats are numbered clockwise from the dealer's left; no button, no blinds."""

    PLAN = stud.PLAN
    TRANSITIONS = STUD_TRANSITIONS
    LANE = True  # the engine asks `regular_card` first for every card event of a stud hand

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        rec = self.record
        rec.game = stud.NAME
        rec.final_street = "seventh"
        rec.final_dealt = False
        rec.antes_live = True  # every seat antes: a short ante is a short contribution (as PokerKit)
        self.up: dict[int, list[str]] = {s: [] for s in self.dealt_in}  # cards showing, in deal order
        self.face_due: dict[str, int] = {}  # up-cards dealt but not yet seen face up → seat
        self.card_street: dict[str, int] = {}  # card → street index it was dealt on
        self.third_down: set[int] = set()  # a down-card was exposed: the seat's third card comes down
        self.turn_owed: set[str] = set()  # up-cards dealt face down, to be turned up (a remedy)
        self.street_got: set[int] = set()  # seats that received this street's card
        self.used: set[str] = set()  # every card that came out of the stub this hand
        self.bring_in: int | None = None  # the seat that must open 3rd street (002 §3)
        self.opener: int | None = None  # the seat that actually made the forced bet
        self.wrong_bringer: int | None = None  # a wrong bring-in waiting for its correction
        self.stood_wrong: int | None = None  # a wrong bring-in that stood (the next player acted on it)
        self.third_mark = 0  # index in record.actions where 3rd street's actions begin
        self.checker = None  # the opener who mucked: treated as checked (002 §3; `_checker_turns`)
        self.first_due: int | None = None  # who must act first on this street
        self.faces_checked = False  # this street's up-cards were checked at its first action
        self.common: str | None = None  # 7th street's common card when the deck ran short
        self.early: dict[int, str] = {}  # seat → a next-street card dealt while the betting was open
        self.early_up: set[str] = set()  # premature cards seen face up
        self.early_ok = False  # the floor accepted the table as played: a kept premature card plays
        self.misplaced: dict[str, int] = {}  # street card dealt to the wrong seat → the seat it belongs to
        self.burned_in_round = False  # a burn card came while this street's betting was open
        self.skipped: set[int] = set()  # live seats passed by on this street: their card comes late
        self.burns_mark = 0  # burn cards recorded when this street's betting opened
        self.common_void: str | None = None  # a common card turned up while the stub was not short
        self.structure: BettingStructure | None = None

    # --- forced bets: antes only (002 §1) --------------------------------------------------------------
    def forced_posts(self) -> list[Post]:
        ante = self.level.ante
        stacks = self.record.starting_stacks
        return [Post(seat=s, kind="ante", amount=min(ante, stacks[s])) for s in self.dealt_in if ante > 0]

    def check_blind(self, seat: int, amount: int) -> list[Finding]:
        self.pre_chips[seat] = amount  # an ante placed before the deal (interfaces.md §1a)
        return []

    def h_stud_chips_deal(self, ev: Event, card: str | None) -> list[Finding]:
        assert isinstance(ev, ChipsEvent)
        if ev.seat not in self.holes:
            return [_f("BAD_EVENT", f"Chips from seat {ev.seat}, which is not dealt in this hand; event not "
                                    f"applied", seat=ev.seat)]
        if not self.deal_cards:
            return self.check_blind(ev.seat, ev.amount)
        return []  # antes being gathered while the cards go out

    # --- the initial deal (002 §2) ---------------------------------------------------------------------
    def h_stud_deal(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        seat = _seat_of(getattr(ev, "zone", ""))  # `_seat`, inlined (as `_uid` below): every card asks
        assert seat is not None
        mine = self.holes.get(seat)
        zones = self.zones
        if mine is not None and card in mine:
            self.in_flight.pop(card, None)  # a card lifted and put back
            zones.put(card, f"seat{seat}", _uid(ev))
            return []
        dup = self._dup(card, f"seat{seat}", ev) if card in zones.where else None
        if dup:
            return dup
        if self.in_flight:
            self.in_flight.pop(card, None)
        self.blinds_done = True
        self.used.add(card)
        if card in self.boxed:
            return self._boxed_dealt(seat, card) + self.h_stud_deal(ev, card)
        if mine is None:
            self._place_hole(seat, card, ev, register=False)
            return [_f("DEAL_EMPTY_SEAT", f"Card dealt to seat {seat}, which is not dealt in (dealt in: "
                                          f"{', '.join(map(str, self.dealt_in))})", seat=seat)]
        deal_cards = self.deal_cards
        n = len(deal_cards)  # < len(deal_seq): the last card of the deal opens 3rd street
        want = self.deal_seq[n]
        zones.put(card, f"seat{seat}", getattr(ev, "uid", None))  # `_place_hole`, inlined (replay speed)
        mine.append(card)
        self.record.hole.setdefault(seat, []).append(card)
        deal_cards.append(card)
        self.card_street[card] = 0
        if seat != want:
            kind = "down" if n < 2 * len(self.dealt_in) else "up"
            msg = (f"Card {n + 1} of the initial deal went to seat {seat}; seat {want} was next (three "
                   f"rounds from the dealer's left, the third face up; this one due {kind})")
            return [_f("STUD_DEAL_ORDER", msg, seat=seat)]
        if self.game.deal_up[len(mine) - 1] and seat not in self.third_down:
            self.face_due[card] = seat
        out: list[Finding] = []
        if n + 1 == len(self.deal_seq):
            self._start_third(ev.t, out)
        return out

    def h_stud_action_deal(self, ev: Event, card: str | None) -> list[Finding]:
        """Betting began before the initial deal was complete: a seat short of cards (000 §2.4)."""
        out = self._off_table()
        if out:
            return out
        self._start_third(ev.t, out)
        if any(_severity(f) == "misdeal" for f in out):
            return out  # a seat short of cards: the hand is void, the action does not count
        if self.phase == BETTING:
            out += self.h_stud_action(ev, card)
        return out

    def _door(self, seat: int) -> str | None:
        """The seat's up-card of the initial deal: the exposed down-card when its third card came down."""
        return _door_of(self._showing(seat), self.holes[seat])

    def _start_third(self, t: float, out: list[Finding]) -> None:
        """The initial deal is over: antes in, the bring-in seat opens 3rd street (002 §1, §3)."""
        self.phase = BETTING
        self.street_i = 0
        rec = self.record
        for post in self.forced_posts():
            self.prev[post.seat] += post.amount
            self._add_record(t, post.seat, "post_ante", post.amount, post.amount)
        self._sync_committed()
        self.third_mark = len(rec.actions)
        short = [s for s in self.dealt_in if len(self.holes[s]) < self.game.hole_cards]
        if short:
            out.append(_f("DEAL_SEAT_SKIPPED", f"Betting began while seat {short[0]} holds "
                                               f"{len(self.holes[short[0]])} card(s)", seat=short[0]))
            return  # a misdeal (the hand is void)
        live = self.live()
        showing = self._showing_all(live)  # every seat's up-cards in one pass (not one scan per seat)
        doors = {s: d for s in live if (d := _door_of(showing[s], self.holes[s])) is not None}
        can = [s for s in self.dealt_in if self.stack_now(s) > 0]
        if not doors or not can:
            self.runout = True
            out += self._round_closed_empty(t)
            return
        self.bring_in = self._next_with_chips(stud.bring_in_seat(doors, self.level.limit), live)
        self._new_round(t, self.bring_in, live)
        for seat in self.dealt_in:
            if seat in self.absent:
                out += self._absent_dead(seat, t)
        out += self._after_round_change(t)

    def _absent_dead(self, seat: int, t: float) -> list[Finding]:
        """An absent seat's hand is dead at the end of the deal; its ante stays in and, holding the
        bring-in card, its bring-in is posted for it (as an absent player's blinds, 001 §5; TDA's
        at-your-seat rule says so for stud), so the next seat acts on the bring-in."""
        rec = self.record
        rnd = self.round
        assert rnd is not None
        rec.dead.add(seat)
        what = "its ante stays in"
        if seat == self.bring_in:
            amount = self._post_bring_in_for(seat, t)
            what = f"its ante and its bring-in ({amount}, posted for it) stay in"
        msg = (f"Seat {seat} ({rec.players.get(seat)}) was not seated when the deal completed; the hand is "
               f"dead, {what}")
        return [_f("DEAD_HAND_ABSENT", msg, seat=seat), *rnd.fold(seat, t, "dead hand: absent at the end of "
                                                                           "the deal")]

    def _post_bring_in_for(self, seat: int, t: float) -> int:
        """Post the bring-in for a seat whose hand dies before it could (absent, or its cards mucked): the
        forced bet cannot be refused (002 §3), so it is in the pot and the next seat acts on it. Returns
        the amount (a short stack posts what it has)."""
        rnd = self.round
        assert rnd is not None
        amount = min(self.level.bring_in or self._structure().small_bet, self.stack_now(seat))
        rnd.feed(ActionEvent(t=t, seat=seat, action="bet", amount=amount, source="engine"))
        self.opener = seat
        return amount

    def _next_with_chips(self, seat: int, live: list[int] | None = None) -> int:
        """`seat`, or when it is all-in the next live seat clockwise that can still bet: an all-in seat
        with the lowest card (or the highest hand) cannot act, so the seat on its left opens (the usual
        stud procedure; PokerKit plays it the same way)."""
        order = self.live() if live is None else live  # the caller's list of the live seats, if it has it
        if self.stack_now(seat) > 0 and seat in order:
            return seat  # the usual case: the seat itself can bet
        i = order.index(seat)
        for s in order[i:] + order[:i]:
            if self.stack_now(s) > 0:
                return s
        return seat

    def _round_closed_empty(self, t: float) -> list[Finding]:
        """Nobody can bet (every seat all-in on its ante): the cards are dealt out."""
        return self._next_due(t)

    # --- betting rounds --------------------------------------------------------------------------------
    def _new_round(self, t: float, first: int, live: list[int] | None = None,
                   showing: dict[int, list[str]] | None = None) -> None:
        """Open the street's betting round from `first`; `live`: the live seats, when the caller has them;
        `showing`: their up-cards (`_showing_all`), when the caller has them."""
        order = self.live() if live is None else live
        stacks = self._stacks_now(order)
        self.round = self.round_factory(
            street=self.street, seats=order, first_to_act=first, stacks=stacks, posted={},
            bb=self._min_bet(), profile=self.profile, t=t,
            absent=self._absent_acting(order, first), **self._structure_args(first, order, showing))
        self.n_records = 0
        self.faces_checked = False
        self.first_due = first
        self.burned_in_round = False
        self.burns_mark = len(self.record.burns)

    def _absent_acting(self, order: list[int], first: int) -> tuple[int, ...]:
        """Absent seats the round acts for (001 §5); not an absent bring-in seat, whose forced bet the
        core posts before its hand is killed (`_absent_dead`)."""
        absent = self._absent_in(order)
        return tuple(s for s in absent if s != first) if self.street_i == 0 else absent

    def _min_bet(self) -> int:
        """The smallest bet of the round: the small bet; in no limit the bring-in on 3rd street, where
        the betting round has no limit structure to say that the forced bet may be below the minimum."""
        lv = self.level
        if self.street_i == 0 and lv.bring_in and lv.limit == "no":
            return lv.bring_in
        return self._structure().small_bet

    def _structure(self) -> BettingStructure:
        """The level's betting structure (one per hand: the level does not change during a hand)."""
        if self.structure is None:
            prof = self.profile
            self.structure = structure_for(self.level, raise_cap=prof.limit_raise_cap,
                                           heads_up_uncapped=prof.limit_heads_up_uncapped)
        return self.structure

    def _structure_args(self, first: int, live: list[int],
                        showing: dict[int, list[str]] | None = None) -> dict[str, Any]:
        """The betting structure of the round (controller/core/structures.py): 5th street on at the higher
        limit, on 4th street an open pair allows it (002 §4–5), the first seat must open 3rd street."""
        structure = self._structure()
        four = self.street_i == 1
        pair = four and any(stud.open_pair(self._showing(s) if showing is None else showing[s]) for s in live)
        return {"structure": structure, "big": structure.big_round(self.game.name, self.street_i),
                "big_allowed": pair,
                "pot": sum(self.prev.values()),
                "forced_opener": first if self.street_i == 0 else None}  # a wrong bring-in while it stands

    def _open_street(self, t: float, live: list[int] | None = None) -> list[Finding]:
        """This street's cards are out: the highest showing hand acts first (002 §4). `live`: the live
        seats, when the caller has them (the street's last card just checked them)."""
        self.closed_round = None
        self.street_got = set()
        self.skipped = set()
        if self.runout:
            return self._next_due(t)
        self.phase = BETTING
        order = self.live() if live is None else live
        showing = self._showing_all(order)
        first = self._next_with_chips(stud.first_to_act(showing, order), order)
        self._new_round(t, first, order, showing)
        return self._after_round_change(t)

    def _showing(self, seat: int) -> list[str]:
        """The seat's up-cards, those still to be turned up included (the readers know them)."""
        return self.up[seat] + [c for c, s in self.face_due.items() if s == seat]

    def _showing_all(self, seats: list[int]) -> dict[int, list[str]]:
        """`_showing` of every seat in `seats`, in one pass over the cards still to be turned up. Read only:
        a seat's list is its `up` list itself unless cards still to be turned up are added (a new list)."""
        up = self.up
        showing = {s: up[s] for s in seats}
        for card, seat in self.face_due.items():
            if seat in showing:
                showing[seat] = [*showing[seat], card]
        return showing

    def _checker_turns(self, out: list[Finding], t: float) -> list[Finding]:
        """Asked by `_after_round_change` only while `checker` is set (not after every action: replay
        speed, issue 13). A turn played here changes the round again, which plays the next turn from
        within (the same turns in the same order as a loop)."""
        rnd = self.round
        # The opener who mucked after his forced bet checks while he can and is out once he cannot (002 §3).
        while (rnd is not None and rnd is self.round and self.phase == BETTING and self.checker is not None
               and rnd.to_act == self.checker and not rnd.closed):
            seat = self.checker
            facing = rnd.committed.get(seat, 0) < max(rnd.committed.values(), default=0)
            if facing:
                self.checker = None
                self.record.notes.append(f"seat {seat} (mucked after the forced bet) faces a bet: out")
            act: ActionName = "fold" if facing else "check"
            out += rnd.feed(ActionEvent(t=t, seat=seat, action=act, source="engine"))
            out += self._after_round_change(t)
        return out

    def h_stud_action(self, ev: Event, card: str | None) -> list[Finding]:
        assert isinstance(ev, (ActionEvent, ChipsEvent))  # a tuple: no union object built per action
        rnd = self.round
        assert rnd is not None
        if (self.faces_checked and rnd.actions_taken != 0 and rnd.quiet(ev.t) and (self.street_i != 0 or (
                self.wrong_bringer is None and self.opener is not None and ev.seat != self.opener))):
            # The usual action (replay speed, issue 13): not its street's first (first to act, the faces
            # check), no clock to report, on 3rd street after the bring-in by another seat than the one
            # that made it (no wrong bring-in, no opener mucking): nothing below applies to it.
            return self.h_action(ev, card)
        out = self._faces_check() if not self.faces_checked else []
        timed = rnd.tick(ev.t)  # a clock that ran out comes first, before a bring-in is judged wrong
        if timed:
            out += timed + self._after_round_change(ev.t)
            if self.phase != BETTING or self.round is not rnd or any(f.seat == ev.seat for f in timed
                                                                     if f.code == "DEAD_HAND_CLOCK"):
                return out  # the round is over, or the late action of the dead seat is not applied
        seat = ev.seat
        if self.street_i == 0:  # the bring-in's street: the checks below are about 3rd street only
            if self._posted_for_absent(ev):
                return out  # the dealer puts in the bring-in the core already posted for the absent seat
            if isinstance(ev, ActionEvent) and self._bet_on_posted_bring_in(ev):
                ev = replace(ev, action="call")  # the same chips as a call of the bring-in posted for it
            if seat in self.holes:
                wrong = self._bring_in_event(ev)
                if wrong is not None:
                    return out + wrong
            if isinstance(ev, ActionEvent) and ev.action == "fold" and self._may_check_instead(seat):
                return out + self._opener_mucked(seat)
            found = self.h_action(ev, card)
            return out + found if out else found
        # Only the street's very first action can be "first to act wrong"; a second seat acting before the
        # high board (an out-of-turn action is held, not counted) is a plain ACTION_OUT_OF_TURN. The later
        # actions, most of them, go straight to the betting (replay speed, issue 13).
        if rnd.actions_taken != 0 or rnd.pending:
            found = self.h_action(ev, card)
            return out + found if out else found
        # the street and its first seat as they were: an action that ends the round moves both on
        street, due = self.street, self.first_due
        found = self.h_action(ev, card)
        if seat != due:
            found = [self._first_wrong(f, street, due) if f.code == "ACTION_OUT_OF_TURN" and f.seat == seat
                     else f for f in found]
        return out + found if out else found

    def _posted_for_absent(self, ev: ActionEvent | ChipsEvent) -> bool:
        """The bring-in of a dead seat (absent, or its cards mucked before it brought in), posted by the
        core, reported as that seat's bet: already posted."""
        rnd = self.round
        return (isinstance(ev, ActionEvent) and ev.action == "bet" and ev.seat == self.opener
                and ev.seat in self.record.dead and rnd is not None
                and self.street_i == 0 and ev.amount == rnd.committed.get(ev.seat))

    def _bet_on_posted_bring_in(self, ev: ActionEvent) -> bool:
        """The seat to act `bet`s exactly the bring-in the core posted for a dead bring-in seat: the table
        took it for the new bring-in, but the chips are a call of the bring-in already in (so the round
        does not refuse a bet that is not above the current bet)."""
        rnd = self.round
        if ev.action != "bet" or rnd is None or ev.seat != rnd.to_act or self.opener is None:
            return False
        posted = rnd.committed.get(self.opener, 0)  # nobody completed yet: the bring-in is the bet
        return (self.opener in self.record.dead and posted > 0 and ev.amount == posted
                and max(rnd.committed.values()) == posted)

    def _first_wrong(self, f: Finding, street: str, due: int | None) -> Finding:
        showing = " ".join(self._showing(due)) if due is not None else ""
        msg = (f"Seat {f.seat} acted first on {street} street; seat {due} shows the highest hand "
               f"({showing}) and acts first")
        return _f("STUD_FIRST_TO_ACT_WRONG", msg, seat=f.seat,
                  remedy=f"Seat {due} acts first; seat {f.seat}'s action is binding only if the action to it "
                         f"does not change, otherwise its chips go back")

    # --- the bring-in (002 §3) --------------------------------------------------------------------------
    def _bring_in_event(self, ev: ActionEvent | ChipsEvent) -> list[Finding] | None:
        """A wrong seat bringing in, and what the table does next; None: an ordinary action."""
        rnd = self.round
        assert rnd is not None
        wrong = self.wrong_bringer
        if wrong is None and self.stood_wrong is not None:
            late = self._wrong_bring_in_taken_back_late(ev)
            if late is not None:
                return late
        if wrong is not None:
            took_back = isinstance(ev, ChipsEvent) and ev.seat == wrong and ev.amount == 0
            # The right seat's bring-in (or its completing instead) is a `bet` (interfaces.md §1a); its
            # `raise` acts on the wrong bring-in, which then stands (heads-up that seat is the next one).
            brings_in = isinstance(ev, ActionEvent) and ev.seat == self.bring_in and ev.action == "bet"
            if took_back or brings_in:
                # The remedy: the wrong seat's chips go back and the right seat brings in.
                self.wrong_bringer = None
                self._restart_third(ev.t)
                self.record.notes.append(f"wrong bring-in by seat {wrong} taken back")
                if took_back:
                    return []
                self.opener = ev.seat
                return self.h_action(ev, None)
            if ev.seat != wrong and ev.seat == rnd.to_act:
                self.wrong_bringer = None  # the next player acted: the wrong bring-in stands
                self.stood_wrong = wrong
                self.record.notes.append(f"wrong bring-in by seat {wrong} stands (the next seat acted)")
            # A seat acting out of turn does not make it stand: its action is held or refused as out of
            # turn, and the remedy (the right seat's bring-in) is still owed. Before, any seat's event did,
            # even one the round refused, and the right seat's bring-in that followed was refused too.
            return None
        if self.opener is not None or rnd.actions_taken > 0 or ev.seat == self.bring_in or not _wagers(ev):
            if self.opener is None and ev.seat == self.bring_in and _wagers(ev):
                self.opener = ev.seat
            return None
        self.wrong_bringer = ev.seat
        self.opener = ev.seat
        right = self.bring_in
        why = self._bring_in_why(right)
        self._restart_third(ev.t, first=ev.seat)
        msg = f"Seat {ev.seat} brought in; seat {right} {why} and must bring in"
        found = [_f("STUD_BRING_IN_WRONG", msg, seat=ev.seat,
                    remedy=f"Seat {ev.seat}'s chips go back and seat {right} brings in; once the next player "
                           f"has acted the bring-in stands")]
        return found + self.h_action(ev, None)

    def _wrong_bring_in_taken_back_late(self, ev: ActionEvent | ChipsEvent) -> list[Finding] | None:
        """The wrong bring-in stood (the next player acted on it), yet the dealer takes its chips back
        (its bet zone reads 0) while 3rd street is still bet: the table rewinds 3rd street and the right
        seat brings in. Against the rule, so said once, but followed as played: 3rd street restarts from
        the bring-in seat, every wager of it back (as the remedy in time does). Before, the take-back was
        refused, the right seat's bring-in too, and the next street's cards killed the live hands."""
        wrong = self.stood_wrong
        if not (isinstance(ev, ChipsEvent) and ev.seat == wrong and ev.amount == 0 and self.street_i == 0):
            return None
        self.stood_wrong = None
        self._restart_third(ev.t)
        self.record.notes.append(f"wrong bring-in by seat {wrong} taken back after the next seat acted")
        msg = (f"Seat {wrong}'s wrong bring-in was taken back after the next player had acted on it; "
               f"expected: it stands. Third street restarts from seat {self.bring_in}, as played")
        return [_f("CORRECTION_NOT_FOLLOWED", msg, seat=wrong)]

    def _bring_in_why(self, right: int | None) -> str:
        """Why `right` must bring in, for the dealer: it holds the lowest (pot/no limit: highest) up-card,
        or that card's seat is all-in on its ante and `right` is the next seat on its left with chips
        (`_next_with_chips`). Before, the message named `right`'s own card as the lowest even then."""
        which = "highest" if self.level.limit in stud.HIGH_BRING_IN else "lowest"
        if right is None:
            return f"has the {which} up-card"
        live = self.live()
        showing = self._showing_all(live)
        doors = {s: d for s in live if (d := _door_of(showing[s], self.holes[s])) is not None}
        card_seat = stud.bring_in_seat(doors, self.level.limit) if doors else right
        if card_seat == right:
            return f"has the {which} up-card ({doors.get(right)})"
        return (f"is the next seat with chips on the left of seat {card_seat} ({which} up-card "
                f"{doors[card_seat]}, all-in on its ante)")

    def _restart_third(self, t: float, first: int | None = None) -> None:
        """3rd street's betting starts again from `first` (default: the bring-in seat)."""
        rec = self.record
        del rec.actions[self.third_mark:]
        self.round = None
        for seat in self.dealt_in:
            rec.committed[seat] = self.prev[seat]
        start = first if first is not None else self.bring_in
        assert start is not None
        self.opener = first
        self._new_round(t, start)

    def _may_check_instead(self, seat: int) -> bool:
        """The opener throws his cards away after the forced bet while nobody raised it (002 §3)."""
        rnd = self.round
        return (self.street_i == 0 and seat == self.opener and rnd is not None and rnd.to_act != seat
                and seat not in self.record.folded and seat not in self.record.dead and self.checker is None)

    def _opener_mucked(self, seat: int) -> list[Finding]:
        self.checker = seat
        self.thrown.pop(seat, None)
        self.record.notes.append(f"seat {seat} mucked after the forced bet: treated as checked")
        return [_f("STUD_OPENER_MUCKED", f"Seat {seat} threw its cards away after the forced bet; it counts "
                                         f"as checked", seat=seat,
                   remedy=f"Announce 'checked'; put seat {seat}'s three cards face down in front of it; it "
                          f"receives further cards as long as it could stay in by checking")]

    def h_stud_muck(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        owner = self._owner_of(card)
        if owner is not None and owner == self.checker:
            self.zones.put(card, "muck", _uid(ev))
            self.lost.pop(card, None)
            self.thrown.pop(owner, None)  # his cards are set aside, not thrown forward
            return []
        if owner is not None and self._may_check_instead(owner):
            self.zones.put(card, "muck", _uid(ev))
            self.lost.pop(card, None)
            return self._opener_mucked(owner)
        if owner is not None and self._bring_in_unposted(owner):
            self.zones.put(card, "muck", _uid(ev))
            self.lost.pop(card, None)
            return self._bring_in_mucked(owner, ev.t)
        return self.h_muck(ev, card)

    def _bring_in_unposted(self, seat: int) -> bool:
        """`seat` must still make 3rd street's forced bet (002 §3: it can neither check nor fold)."""
        rnd = self.round
        return (self.street_i == 0 and self.phase == BETTING and rnd is not None and self.opener is None
                and seat == self.bring_in and rnd.committed.get(seat, 0) == 0
                and seat not in self.record.dead and seat not in self.record.folded)

    def _bring_in_mucked(self, seat: int, t: float) -> list[Finding]:
        """The bring-in seat throws its cards into the muck instead of bringing in. The forced bet cannot
        be refused (002 §3) and the cards cannot come back from the muck: its bring-in is posted for it,
        its hand is dead and the next seat acts on the bring-in, as for an absent bring-in seat or one
        whose clock ran out (our reading; 002 and TDA 2024 are silent). Before, the muck was read as a fold
        the round refused, the seat stayed to act and the next street's cards killed the live hands."""
        rnd = self.round
        assert rnd is not None
        amount = self._post_bring_in_for(seat, t)
        self.record.dead.add(seat)
        self.thrown.pop(seat, None)
        msg = (f"Seat {seat} threw its cards into the muck instead of bringing in; the hand is dead and its "
               f"bring-in ({amount}) is owed (002 §3: the forced bet cannot be refused)")
        out = [_f("HOLE_CARD_IN_MUCK", msg, seat=seat,
                  remedy=f"Take seat {seat}'s bring-in ({amount}) from its stack into the pot; seat "
                         f"{self._left_of(seat)} acts on the bring-in")]
        out += rnd.fold(seat, t, "dead hand: mucked before its forced bet")
        return out + self._after_round_change(t)

    def _left_of(self, seat: int) -> int:
        """The next live seat clockwise after `seat` (the seat that acts after it)."""
        order = self.live()
        later = [s for s in order if s > seat]
        return (later or order or [seat])[0]

    # --- up-cards and down-cards -----------------------------------------------------------------------
    def h_stud_exposed(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        seat = _seat_of(getattr(ev, "zone", ""))
        if self.early and self.early.get(seat or 0) == card:
            self.early_up.add(card)  # a premature card dealt face up: it is no hole card (yet)
            return []
        mine = self.holes.get(seat) if seat is not None else None
        if seat is None or mine is None or card not in mine or self.phase in (SHOWDOWN, ENDED):
            return self.h_exposed(ev, card)
        if self.phase == BETTING and card not in self.face_due:
            shown = self._shown_past_short_call(seat, ev, card)  # 7th street: hands shown past a short call
            if shown is not None:
                return shown
        face_due = self.face_due
        if card in face_due:  # the usual case: an up-card seen face up as it was dealt
            del face_due[card]
            self.up[seat].append(card)
            return []
        if card in self.turn_owed:
            self.turn_owed.discard(card)  # the remedy of an up-card dealt face down
            return []
        if card in self.up[seat]:
            return []
        if self.phase == DUE and self.runout and self.card_street.get(card, 0) == 0:
            # all-in and the betting over: a down-card turned up is the hand shown for the showdown
            # (TDA 2024 Rule 16), as in hold'em (deal.py)
            turned = self.record.shown.setdefault(seat, [])
            if card not in turned:
                turned.append(card)
            return []
        return self._down_card_up(seat, card)

    def _down_card_up(self, seat: int, card: str) -> list[Finding]:
        """A card due face down is seen face up: a down-card of the initial deal, or the 7th-street card."""
        street = self.card_street.get(card, 0)
        rnd = self.round
        if seat in self.third_down and card in self.holes[seat][2:3]:
            self.third_down.discard(seat)  # the remedy asked for this card face down
            self.up[seat].append(card)
            return [_f("CORRECTION_NOT_FOLLOWED", f"Seat {seat}'s third card {card} dealt face up; expected: "
                                                  f"face down (its exposed down-card is its up-card); both "
                                                  f"play face up", seat=seat, cards=[card])]
        in_deal = self.phase == DEAL or (street == 0 and self.street_i == 0 and rnd is not None
                                         and rnd.actions_taken == 0)
        if street == 0 and in_deal:
            self.exposures += 1
            self.up[seat].insert(0, card)
            if self.exposures >= 2:
                msg = f"A second down-card ({card}, seat {seat}) exposed during the initial deal"
                return [_f("HOLE_CARDS_EXPOSED_MULTIPLE", msg, seat=seat, cards=[card])]
            if len(self.holes[seat]) < self.game.hole_cards:
                self.third_down.add(seat)
                return [_f("HOLE_CARD_EXPOSED", f"Down-card {card} of seat {seat} exposed during the initial "
                                                f"deal", seat=seat, cards=[card],
                           remedy=f"{card} plays as seat {seat}'s up-card; its third card is dealt face "
                                  f"down")]
            third = self.holes[seat][2]
            self.face_due.pop(third, None)
            self.record.notes.append(f"seat {seat}: down-card {card} exposed after its up-card; both play up")
            if third not in self.up[seat]:
                self.up[seat].append(third)
            return [_f("HOLE_CARD_EXPOSED", f"Down-card {card} of seat {seat} exposed during the initial "
                                            f"deal", seat=seat, cards=[card],
                       remedy=f"The third card is already out: {card} stays face up and plays as an up-card")]
        if street == len(self.game.streets) - 1 and self.phase in (DUE, BETTING):
            self.up[seat].append(card)
            return [_f("STUD_STREET_CARD_WRONG", f"Seventh-street card {card} of seat {seat} dealt face up",
                       seat=seat, cards=[card],
                       remedy=f"{card} stays face up and plays; the other seventh-street cards are dealt "
                              f"face down as usual")]
        # a player showing his own down-card: his business (it plays as dealt); it lies face up, so at the
        # showdown it is shown (000 §4.1: shown at the wrong time, the hand stays live)
        turned = self.record.shown.setdefault(seat, [])
        if card not in turned:
            turned.append(card)
        return []

    def _faces_check(self) -> list[Finding]:
        """At the street's first action: up-cards nobody saw face up were dealt face down (002 §2, §4–6)."""
        if self.faces_checked:
            return []
        self.faces_checked = True
        out: list[Finding] = []
        for card in sorted(self.turn_owed):
            seat = next(s for s, cs in self.holes.items() if card in cs)
            if seat not in self.record.folded and seat not in self.record.dead:
                msg = f"Up-card {card} of seat {seat} is still face down; expected: turned face up"
                out.append(_f("CORRECTION_NOT_FOLLOWED", msg, seat=seat, cards=[card]))
        self.turn_owed.clear()
        for card, seat in list(self.face_due.items()):
            if seat in self.record.folded or seat in self.record.dead:
                continue
            del self.face_due[card]
            self.up[seat].append(card)
            self.turn_owed.add(card)
            out.append(_f("STUD_STREET_CARD_WRONG", f"Up-card {card} of seat {seat} dealt face down "
                                                    f"({self.street} street)", seat=seat, cards=[card],
                          remedy=f"Turn {card} face up: it is seat {seat}'s up-card"))
        return out

    # --- the later streets (002 §3–7) --------------------------------------------------------------------
    def h_stud_street_card(self, ev: Event, card: str | None) -> list[Finding]:
        # A card of 4th-7th street, one a live seat: the most frequent card event of a stud hand, so the
        # usual case reads the zones and the hand's lists directly (replay speed, issue 13).
        assert card is not None
        seat = _seat_of(getattr(ev, "zone", ""))  # `_seat`, inlined (as `_uid` below)
        assert seat is not None
        holes = self.holes
        mine = holes.get(seat)
        zones = self.zones
        if mine is not None and card in mine:
            zones.put(card, f"seat{seat}", _uid(ev))
            self.lost.pop(card, None)
            return []
        moved = self.misplaced.pop(card, None) if self.misplaced else None  # usually none: no lookup
        if moved is not None:  # the remedy: slid from the wrong seat to the right one
            self.lost.pop(card, None)
            if (before := zones.zone_of(card)) is not None:
                zones.take(card, before)
        # A card not on the table cannot be a duplicate: the usual case asks no more (replay speed).
        dup = self._dup(card, f"seat{seat}", ev) if card in zones.where else None
        if dup:
            return dup
        if card in self.boxed:
            return self._boxed_dealt(seat, card) + self.h_stud_street_card(ev, card)
        left = self._misplaced_left(seat) if self.misplaced else []
        self.used.add(card)
        rec = self.record
        if mine is None:
            zones.put(card, f"seat{seat}", _uid(ev))
            return [_f("DEAL_EMPTY_SEAT", f"Card dealt to seat {seat}, which is not in this hand", seat=seat,
                       severity="error")]
        got = self.street_got
        if self.dead_acting and seat in self.dead_acting and seat not in got and self.holds_cards(seat):
            # A dead hand that kept acting is dealt its street card: the table plays it on (hand.py,
            # dead_seat_acts); it takes the card, noted, and still cannot win.
            self._take_street_card(seat, card, f"seat{seat}", getattr(ev, "uid", None), mine)
            rec.notes.append(f"card {card} to seat {seat} (dead hand playing on) on {self.street} street")
            return left
        if seat in rec.folded or seat in rec.dead or seat in got:
            zones.put(card, f"seat{seat}", _uid(ev))
            rec.notes.append(f"card {card} to seat {seat} on {self.street} street set aside")
            return left + self._wrong_seat(seat, card)
        if self.early:
            self.early.pop(seat, None)  # the remedy: a new card for the street (the early one is out)
        self._take_street_card(seat, card, f"seat{seat}", getattr(ev, "uid", None), mine)
        # `_street_dealt`, inlined: the count first, the live seats only once enough cards are out.
        if len(got) < len(self.dealt_in) - len(rec.folded) - len(rec.dead):
            return left
        live = self.live()
        if not got.issuperset(live):
            return left
        self.street_done_t = ev.t
        return left + self._open_street(ev.t, live)

    def _wrong_seat(self, seat: int, card: str) -> list[Finding]:
        """A street card to a seat that already has its card, or has folded, while a live seat still waits
        for one: it went to the wrong seat. After 3rd street's betting a misdeal is out of the question
        (the catalogue's DEAL_OUT_OF_ORDER goes on after two actions): the card goes to the first seat still
        owed one, in the order of the deal (our reading; 002 is silent)."""
        owed = next((s for s in self.live() if s not in self.street_got), None)
        if owed is None:
            return []
        self.misplaced[card] = owed
        up = self.game.street_up.get(self.street, False)
        why = "has folded" if seat not in self.live() else "already has its card"
        msg = f"{self.street.capitalize()} street card dealt to seat {seat}, which {why}; seat {owed} waits"
        return [_f("STUD_CARD_WRONG_SEAT", msg, seat=seat, cards=[card] if up else [],
                   remedy=f"Move the card to seat {owed}: it is that seat's {self.street} street card")]

    def _misplaced_left(self, seat: int) -> list[Finding]:
        """The seat owed a misplaced card gets a new card instead: the misplaced one stays out of play,
        said once (the table did otherwise; the core follows the cards it was dealt)."""
        stale = [c for c, s in self.misplaced.items() if s == seat]
        for c in stale:
            del self.misplaced[c]
        if not stale:
            return []
        msg = (f"Seat {seat} got a new {self.street} street card; expected: the card dealt to the wrong "
               f"seat; that card does not play")
        return [_f("CORRECTION_NOT_FOLLOWED", msg, seat=seat)]

    def _boxed_dealt(self, seat: int, card: str) -> list[Finding]:
        """A card seen face up in the stub (BOXED_CARD) dealt to a seat anyway: said once, then the card
        plays where it lands, as hold'em's boxed card on the board (004 §5)."""
        if card not in self.boxed:
            return []
        self.boxed.discard(card)
        return [_f("CORRECTION_NOT_FOLLOWED", f"Boxed card {card} dealt to seat {seat}; expected: {card} out "
                                              f"of play; it plays where it lies", seat=seat, cards=[card])]

    def _street_dealt(self) -> bool:
        """Every live seat has this street's card. Asked at each card: the count comes first, so the live
        seats are listed only once enough cards are out (folded and dead seats are live's complement)."""
        rec = self.record
        if len(self.street_got) < len(self.dealt_in) - len(rec.folded) - len(rec.dead):
            return False
        return self.street_got.issuperset(self.live())

    def h_stud_common(self, ev: Event, card: str | None) -> list[Finding]:
        """7th street with too few cards left for every seat: one common card, face up, for all."""
        assert card is not None
        out = self._arrive(card, "board", ev)
        if out:
            return out
        self.used.add(card)
        rec = self.record
        if self.street == self.game.streets[-1] and self.common is None:
            self._street_card_back(card)
        if self.street != self.game.streets[-1] or self.street_got or self.common is not None:
            rec.notes.append(f"card {card} on the board on {self.street} street")
            return []
        wrong = self._common_not_short(card)
        if wrong is not None:
            return [wrong]
        return self._play_common(card, ev.t)

    def _street_card_back(self, card: str) -> None:
        """The only 7th-street card dealt so far moved to the board: the dealer gave the last card to the
        first seat, saw the stub could not serve every seat and turned it up as the common card. It is no
        longer that seat's card (before, the common card was refused and every other seat was found
        without its 7th card)."""
        seat = next((s for s in self.street_got if card in self.holes[s]), None)
        if seat is None or len(self.street_got) != 1:
            return
        self.holes[seat].remove(card)
        if card in self.record.hole.get(seat, ()):
            self.record.hole[seat].remove(card)
        self.street_got.discard(seat)
        self.card_street.pop(card, None)
        self.face_due.pop(card, None)
        self.record.final_dealt = False

    def _play_common(self, card: str, t: float) -> list[Finding]:
        """`card` is 7th street's common card: every live seat plays it; the betting opens."""
        rec = self.record
        self.common = card
        self.common_void = None
        rec.board.append(card)
        rec.final_dealt = True
        rec.notes.append(f"seventh street: common card {card} (stub of {self._stub()} card(s) left)")
        self.street_done_t = t
        return self._open_street(t)

    def _common_not_short(self, card: str) -> Finding | None:
        """A common card is only for a stub too short to give every live seat its own 7th-street card
        (after the street's burn, if the dealer has not burned yet). With enough cards left it is a 7th
        card dealt face up against the rule (002 §7: 7th street face down to each seat): the card is out of
        play and each seat gets its own card (our reading; 002 is silent on the common card). None: the
        stub is short, the common card is right. Before, any card on the board on 7th street was taken as
        the common card, even with half the deck left."""
        left = self._stub()  # cards in the stub before this one
        burned = len(self.record.burns) > self.burns_mark
        live = self.live()
        if left - (0 if burned else 1) < len(live):
            return None
        self.common_void = card
        return _f("STUD_STREET_CARD_WRONG", f"Common card {card} turned up on seventh street with {left} "
                                           f"card(s) left for {len(live)} seat(s): the deck is not short",
                  cards=[card],
                  remedy=f"{card} does not play: take it out (to the burns); deal each live seat its "
                         f"seventh-street card face down")

    def _stub(self) -> int:
        """Cards left in the stub before the last card dealt (the deck has 52)."""
        return _DECK_SIZE - len(self.used) + 1

    def _short_call_dealt_past(self, kind: str, ev: Event, card: str | None) -> list[Finding] | None:
        """Stud has no knock: the dealer burning or dealing the next street is the moment the table went
        on. A short call (CALL_SHORT) left as the round's last open item then stands as placed, as at the
        knock in hold'em, and the card is the next street's. None when nothing of the kind is open."""
        rnd = self.round
        if self.phase != BETTING or rnd is None or self.street_i >= len(self.game.streets) - 1:
            return None
        out = rnd.short_call_passed("the next street was dealt", ev.t)
        if out is None:
            return None
        out += self._after_round_change(ev.t)
        return out + self.handle_in_phase(kind, ev, card)

    def h_stud_burn(self, ev: Event, card: str | None) -> list[Finding]:
        """Stud burns a card before each street; 002 is silent on it, so a burn is recorded, not required."""
        assert card is not None
        past = self._short_call_dealt_past("burn", ev, card)
        if past is not None:
            return past
        out = self._arrive(card, "burn", ev)
        if not out:
            self.used.add(card)
            if card not in self.record.burns:
                self.record.burns.append(card)
            if self.phase == BETTING:
                self.burned_in_round = True  # the dealer is about to deal the next street: cards are early
        return out

    def h_stud_board(self, ev: Event, card: str | None) -> list[Finding]:
        """A card on the board while cards are dealt or bet on: stud has no board before 7th street."""
        assert card is not None
        out = self._arrive(card, "board", ev)
        if not out:
            self.used.add(card)
            self.record.notes.append(f"card {card} on the board on {self.street} street")
        return out

    def h_stud_hole_betting(self, ev: Event, card: str | None) -> list[Finding]:
        """A card to a seat while a round is open: its own card put back, a card from the stub after the
        initial deal (3rd street: too many cards, or a seat not dealt in), or a card set aside."""
        assert card is not None
        seat = _seat(ev)
        fresh = card not in self.used and all(card not in cs for cs in self.holes.values())
        if fresh and seat in self.holes and seat in self.live():
            past = self._short_call_dealt_past("hole", ev, card)
            if past is not None:
                return past
        self.zones.put(card, f"seat{seat}", _uid(ev))
        self.lost.pop(card, None)
        self.in_flight.pop(card, None)
        self.thrown.pop(seat, None)
        if seat in self.holes and card in self.holes[seat]:
            return []
        self.used.add(card)
        if fresh and seat not in self.holes:
            return [_f("DEAL_EMPTY_SEAT", f"Card dealt to seat {seat}, which is not in this hand", seat=seat,
                       severity="error")]  # after the deal: the card is out of play (as hold'em)
        rec = self.record
        if fresh and self.street_i == 0 and seat not in rec.folded and seat not in rec.dead:
            if self.burned_in_round and seat not in self.early:
                return self._premature_card(seat, card)  # 4th street dealt early, after its burn
            return self._extra_third(seat, card, ev)
        if fresh and seat in self.skipped and seat not in rec.folded and seat not in rec.dead:
            return self._late_street_card(seat, card)
        if (fresh and self.street_i < len(self.game.streets) - 1 and seat not in rec.folded
                and seat not in rec.dead and seat not in self.early):
            return self._premature_card(seat, card)
        rec.notes.append(f"card {card} to seat {seat} during the {self.street} street betting")
        return []

    def _extra_third(self, seat: int, card: str, ev: Event) -> list[Finding]:
        """A fourth card to a live seat after the initial deal: a misdeal before two actions, after them
        that seat's hand is dead (catalogue DEAL_TOO_MANY_CARDS; 000 §2.4, 004 §4(2g), §4(4))."""
        self._place_hole(seat, card, ev)
        n = len(self.holes[seat])
        if not self.limit_reached():
            return [_f("DEAL_TOO_MANY_CARDS", f"Seat {seat} holds {n} cards after the initial deal, found "
                                              f"before two actions", seat=seat)]
        self.record.dead.add(seat)
        out = [_f("DEAL_TOO_MANY_CARDS", f"Seat {seat} holds {n} cards, found after the betting was under "
                                         f"way; its hand is dead", seat=seat, severity="dead_hand")]
        assert self.round is not None
        out += self.round.fold(seat, ev.t, "dead hand: too many cards")
        return out + self._after_round_change(ev.t)

    def _premature_card(self, seat: int, card: str) -> list[Finding]:
        """A card from the stub to a live seat while 3rd-6th street is still being bet: the next street's
        card, dealt too early. It does not play: it goes back out of play, the action completes and the
        street is dealt as usual (our reading of the premature-card rules 000 §2.6, 003 (9); 002 silent).
        On 3rd street only after a burn during the betting: the dealer has started 4th street, so the card
        is early, not a fourth card of the initial deal (a seat's hand is not killed for the dealer's early
        street; without a burn it stays DEAL_TOO_MANY_CARDS, `_extra_third`)."""
        self.early[seat] = card
        nxt = self.game.streets[self.street_i + 1]
        up = self.game.street_up.get(nxt, False)
        self.record.notes.append(f"card {card} to seat {seat} during the {self.street} street betting")
        return [_f("STUD_CARD_PREMATURE", f"Card dealt to seat {seat} while the {self.street} street betting "
                                          f"is open", seat=seat, cards=[card] if up else [],
                   remedy=f"The card does not play: take it out; finish the {self.street} street betting, "
                          f"then deal {nxt} street as usual")]

    def _premature_kept(self, t: float) -> list[Finding]:
        """The street was dealt around a premature card left at its seat: it is that seat's street card
        (the cards as they lie), said once."""
        out: list[Finding] = []
        for seat, card in list(self.early.items()):
            lies = self.zones.zone_of(card) == f"seat{seat}"
            if seat in self.street_got or not lies or seat not in self.live():
                continue
            del self.early[seat]
            self.holes[seat].append(card)
            self.record.hole.setdefault(seat, []).append(card)
            self.street_got.add(seat)
            self.card_street[card] = self.street_i
            if self.game.street_up.get(self.street, False):
                if card in self.early_up:
                    self.up[seat].append(card)
                else:
                    self.face_due[card] = seat
            if not out and not self.early_ok:
                msg = (f"Premature card of seat {seat} kept and played as its {self.street} street card; "
                       f"expected: taken out, a new card dealt")
                out.append(_f("CORRECTION_NOT_FOLLOWED", msg, seat=seat))
        return out

    def h_stud_rabbit(self, ev: Event, card: str | None) -> list[Finding]:
        """A card from the stub to a seat once the betting is over: stud's rabbit hunt, as a board card
        after the hand ended in hold'em (000 §2.3; 004 §10). A seat's own card put back is nothing."""
        assert card is not None
        seat = _seat(ev)
        fresh = card not in self.used and all(card not in cs for cs in self.holes.values())
        self.zones.put(card, f"seat{seat}", _uid(ev))
        if not fresh:
            return []
        self.used.add(card)
        if self.dead_acting and self.dead_plays_on():
            # The table plays on against a dead hand that kept acting (told once already): the pot is the
            # live hand's, the cards are only noted.
            self.record.notes.append(f"card {card} to seat {seat} while a dead hand plays on")
            return []
        return [_f("RABBIT_HUNT", f"Card {card} dealt to seat {seat} after the betting ended", seat=seat,
                   cards=[card])]

    def h_stud_action_due(self, ev: Event, card: str | None) -> list[Finding]:
        """A player acts before every seat has this street's card: the street is played as it lies."""
        assert isinstance(ev, ActionEvent)
        if self._repeats_last(ev):
            return []
        if not self.street_got and not self.burns_now:
            revived = self._revive_round(ev)  # a call to a refused raise: the last round goes on
            if revived is not None:
                return revived
        if self.runout:
            return []
        if self.common_void is not None and not self.street_got:
            return self._common_kept(ev) + self.h_stud_action_due(ev, card)
        out = self._premature_kept(ev.t)
        skipped = [s for s in self.live() if s not in self.street_got] if self.street_got else []
        if skipped:
            self.record.notes.append(f"{self.street} street opened by an action before every card was out")
        out += self._open_street(ev.t)
        if skipped and self.phase == BETTING:
            out += self._street_skipped(skipped)
        if self.phase == BETTING:
            out += self.h_stud_action(ev, card)
        return out

    def _common_kept(self, ev: ActionEvent) -> list[Finding]:
        """Players act on a common card turned up with enough cards left (`_common_not_short`): the table
        plays it as every seat's seventh card, as it lies; said once."""
        card = self.common_void
        assert card is not None
        msg = (f"Betting began on common card {card}; expected: {card} out of play, each seat dealt its own "
               f"seventh-street card; it plays as every seat's seventh card")
        return [_f("CORRECTION_NOT_FOLLOWED", msg, cards=[card]), *self._play_common(card, ev.t)]

    def _street_skipped(self, seats: list[int]) -> list[Finding]:
        """The street's betting began while live seats had no card of it: the dealer passed them by.
        After 3rd street a misdeal is out of the question; the seat gets its card late, the next card from
        the stub, and the action so far stands (our reading; 002 is silent; the catalogue's misdeal is for
        the initial deal). Before, the late card was called premature and did not play."""
        self.skipped.update(seats)
        out: list[Finding] = []
        for s in seats:
            moved = [c for c, owed in self.misplaced.items() if owed == s]
            if moved:  # its card went to another seat (STUD_CARD_WRONG_SEAT) and was not moved: said there
                for c in moved:
                    del self.misplaced[c]
                msg = (f"The {self.street} street betting began with seat {s}'s card still at the wrong "
                       f"seat; expected: moved to seat {s}. That card does not play; seat {s} gets the next "
                       f"card")
                out.append(_f("CORRECTION_NOT_FOLLOWED", msg, seat=s))
                continue
            msg = f"The {self.street} street betting began while seat {s} had no {self.street} street card"
            out.append(_f("DEAL_SEAT_SKIPPED", msg, seat=s, severity="error",
                          remedy=f"Deal seat {s} its {self.street} street card now (the next card from the "
                                 f"stub); the action so far stands"))
        return out

    def _late_street_card(self, seat: int, card: str) -> list[Finding]:
        """The card a seat passed by on this street gets late (`_street_skipped`): its street card."""
        self.skipped.discard(seat)
        self.holes[seat].append(card)
        self.record.hole.setdefault(seat, []).append(card)
        self.card_street[card] = self.street_i  # (not `street_got`: that is the next street's deal now)
        if self.game.street_up.get(self.street, False):
            self.face_due[card] = seat  # seen face up by its `exposed`; the lead stays as it was
        if self.street == self.game.streets[-1]:
            self.record.final_dealt = True
        return []

    def accept_as_played(self) -> None:
        """The floor accepted what the table did (or the core said CORRECTION_NOT_FOLLOWED): nothing of a
        stud remedy is owed any more either (a card to turn up, a third card face down, a bring-in)."""
        super().accept_as_played()
        self.turn_owed.clear()
        self.third_down.clear()
        self.early_ok = bool(self.early)
        self.misplaced.clear()
        if self.wrong_bringer is not None:
            self.record.notes.append(f"wrong bring-in by seat {self.wrong_bringer} stands (floor)")
            self.wrong_bringer = None

    # --- the fast lane: a stud hand's regular card events (replay speed, issue 13) -------------------------
    def regular_card(self, kind: str, ev: CardSeen | CardGone | Exposed, card: str, seat: int | None) -> bool:
        """The fast lane (`HandBase.regular_card`): most of a stud hand's 116 events are cards doing what the
        deal expects; each case below does what `dispatch` and its handler would do, checked first to be one
        in which they find nothing and leave the phase as it is. Anything else (a card out of order, on the
        table already, the last of a deal or street, a remedy pending) says False untouched and goes through
        `dispatch`."""
        phase = self.phase
        if phase in (SHOWDOWN, ENDED):  # the cards gathered after the betting: nothing to find
            if kind == "muck":  # `h_muck` after the betting: it only books who mucked unseen
                self.t, self.event_street = ev.t, None
                self._muck_after(ev, card)
                return True
            if seat is None:
                return False
            zone = ev.zone
            if kind == "gone":  # `h_gone` after the betting: the card leaves its seat, nothing more to check
                self.t, self.event_street = ev.t, None
                if self.zones.take(card, zone) and self.must_leave and self.must_leave.get(card) == zone:
                    del self.must_leave[card]
                return True
            # `h_exposed` after the betting: a card shown where the readers place it (not a hand over on 3rd
            # street, whose down-cards shown may still be the deal's)
            where = self.zones.where.get(card)
            if kind != "exposed" or self.street_i == 0 or (where is not None and where != zone):
                return False
            self.t, self.event_street = ev.t, None
            shown = self.record.shown.setdefault(seat, [])
            if card not in shown:
                shown.append(card)
            if self.showdown is not None:
                self.showdown.shown_at(seat, card)  # `on_card` for this exposure (the zone is `seatN`)
            return True
        if seat is None or self.early or phase not in (DEAL, DUE, BETTING):
            return False
        mine = self.holes.get(seat)
        if mine is None:
            return False
        if kind == "exposed":  # `h_stud_exposed`: an up-card of the seat seen face up as it was dealt
            face_due = self.face_due
            if card not in face_due or card not in mine:
                return False
            rnd = self.round  # a round open (the street's last card opened it): the clock must have
            if phase == BETTING and rnd is not None and not rnd.quiet(ev.t):  # nothing to say either
                return False
            self.t, self.event_street = ev.t, None
            del face_due[card]
            self.up[seat].append(card)
            return True
        if kind != "hole" or phase == BETTING:
            return False
        if card in mine or card in self.zones.where or card in self.boxed:
            return False  # not a card fresh from the stub
        rec = self.record
        if phase == DEAL:  # `h_stud_deal`'s usual case: the seat the deal expects, not the deal's last card
            deal_cards = self.deal_cards
            n = len(deal_cards)
            if self.in_flight or n + 1 >= len(self.deal_seq) or self.deal_seq[n] != seat:
                return False
            self.t, self.event_street = ev.t, None
            self.blinds_done = True
            self.used.add(card)
            self.zones.put(card, ev.zone, ev.uid)  # the zone is `seatN` (the engine's lane zones)
            mine.append(card)
            rec.hole.setdefault(seat, []).append(card)
            deal_cards.append(card)
            self.card_street[card] = 0
            if self.game.deal_up[len(mine) - 1] and seat not in self.third_down:
                self.face_due[card] = seat
            return True
        # `h_stud_street_card`'s usual case: a live seat still owed this street's card, not the street's
        # last (that one opens the betting)
        got = self.street_got
        if (self.misplaced or seat in got or seat in rec.folded or seat in rec.dead
                or len(got) + 1 >= len(self.dealt_in) - len(rec.folded) - len(rec.dead)):
            return False
        self.t, self.event_street = ev.t, None
        self.used.add(card)
        self._take_street_card(seat, card, ev.zone, ev.uid, mine)  # the zone is `seatN` (lane zones)
        return True

    def _take_street_card(self, seat: int, card: str, zone: str, uid: str | None, mine: list[str]) -> None:
        """A live seat takes this street's card (the street card handler and the fast lane): placed,
        recorded, owed face up if the street is dealt up; the last street's marks the final deal."""
        self.zones.put(card, zone, uid)  # `_place_hole`, inlined
        mine.append(card)
        rec = self.record
        rec.hole.setdefault(seat, []).append(card)
        self.street_got.add(seat)
        street_i = self.street_i
        self.card_street[card] = street_i
        game = self.game
        streets = game.streets
        street = streets[street_i]
        if game.street_up.get(street, False):
            self.face_due[card] = seat
        if street == streets[-1]:
            rec.final_dealt = True

    def regular_chips(self, ev: ChipsEvent) -> bool:
        """The fast lane for chips (`HandBase.regular_chips`): `h_stud_chips_deal`, which finds nothing
        for a seat dealt in: an ante placed before the deal (as `check_blind`), or antes being gathered
        while the cards go out."""
        if self.phase != DEAL or ev.seat not in self.holes:
            return False
        self.t, self.event_street = ev.t, None
        if not self.deal_cards:
            self.pre_chips[ev.seat] = ev.amount  # `check_blind`: an ante placed before the deal
        return True

    def _muck_after(self, ev: CardSeen | CardGone | Exposed, card: str) -> None:
        """`h_muck`'s path once the betting is over (it finds nothing there): the card to the muck, its
        owner's hand, unless shown, mucked unseen, for the record and the showdown."""
        owner = self._to_muck(card, ev.uid)
        if owner is None:
            return
        self._mucked_after_betting(owner, card)
        if self.showdown is not None:
            self.showdown.mucked_card(card)  # `on_card` for a card reaching the muck

    # --- public state (interfaces.md §3: never a down-card of a live hand) ------------------------------
    def public_seat(self, seat: int) -> dict[str, Any]:
        """The seat's up-cards as the table sees them: only cards seen face up (an up-card dealt face down
        stays hidden until it is turned); none once the seat folded or its hand is dead (its cards are
        gone from the table)."""
        rec = self.record
        if seat in rec.folded or seat in rec.dead:
            return {"up": []}
        return {"up": [c for c in self.up.get(seat, ()) if c not in self.turn_owed]}

    def public_game(self) -> dict[str, Any]:
        lv = self.level
        return {"game": self.game.name, "limit": lv.limit,
                "stakes": {"ante": lv.ante, "bring_in": lv.bring_in, "small_bet": lv.small_bet,
                           "big_bet": lv.big_bet}}

    # --- showdown ----------------------------------------------------------------------------------------
    def _end_betting(self, t: float, how: str) -> list[Finding]:
        rec = self.record
        live = rec.live_seats()
        showing = self._showing_all(live)
        for seat in live:  # up-cards are seen by everyone: they count as shown
            shown = rec.shown.setdefault(seat, [])
            shown += [c for c in showing[seat] if c not in shown]
        rec.show_first = stud.first_to_act(showing, live) if live else None
        return super()._end_betting(t, how)


def _door_of(showing: list[str], hole: list[str]) -> str | None:
    """A seat's door card from its showing cards (`StudHand._showing`) and its cards: the first card
    showing, else its third card (dealt face down after a down-card was exposed)."""
    if showing:
        return showing[0]
    return hole[2] if len(hole) > 2 else None


def _wagers(ev: ActionEvent | ChipsEvent) -> bool:
    """The event puts chips in as a bet (the forced bet is a `bet`, interfaces.md §1a)."""
    if isinstance(ev, ChipsEvent):
        return ev.amount > 0
    return ev.action in ("bet", "raise", "allin", "call")

