"""One Hold'em hand as an explicit phase transition table: (phase, event kind) → handler.

The phases (deal, betting, due, showdown, ended, void) and the table are game-neutral; the `Game` record
(handbase.py) says what a variant deals, so seven-card stud adds its streets and deal checks as new
handlers without a rewrite. The handlers live in three parts: the deal (deal.py), the board (board.py)
and the betting and hand end (here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from controller.core.alerts import Finding
from controller.core.board import BoardPart
from controller.core.deal import DealPart
from controller.core.events import ActionEvent, CardGone, ChipsEvent, Event
from controller.core.handbase import (
    BETTING,
    BETWEEN,
    DEAL,
    DUE,
    ENDED,
    KINDS,
    PHASES,
    SHOWDOWN,
    VOID,
    Fix,
    RoundFactory,
    RoundLike,
    ShowdownFactory,
    ShowdownLike,
    _describe,
    _f,
    _seat_of,
    _severity,
)
from controller.core.structures import round_kwargs

WAGERS = frozenset({"bet", "raise", "call", "allin"})  # actions that put chips in
_BETS = ("action", "chips")  # the event kinds of a betting action

__all__ = ["BETTING", "BETWEEN", "DEAL", "DUE", "ENDED", "KINDS", "PHASES", "SHOWDOWN",
           "TRANSITIONS", "VOID", "Fix", "Hand", "RoundFactory", "RoundLike", "ShowdownFactory",
           "ShowdownLike"]


class Hand(DealPart, BoardPart):
    """The state of one hand and its transition table. Handlers return Findings, never raise.

    A game that deals differently subclasses this and replaces pairs of the table (`TRANSITIONS`): the
    subclass's table is resolved to its own handlers once, when the class is defined.
    """

    TRANSITIONS: ClassVar[dict[tuple[str, str], str]]
    HANDLERS: ClassVar[dict[tuple[str, str], Callable[[Hand, Event, str | None], list[Finding]]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.HANDLERS = {pair: getattr(cls, name) for pair, name in cls.TRANSITIONS.items()}

    # --- dispatch ------------------------------------------------------------------------------------
    def dispatch(self, kind: str, ev: Event, card: str | None) -> list[Finding]:
        self.t = ev.t
        self.event_street = None
        was_void = self.phase == VOID
        handler = self.HANDLERS.get((self.phase, kind))
        if handler is None:
            return [_f("BAD_EVENT", f"{_describe(kind, ev, card)} is not expected in phase {self.phase!r} "
                                    f"(no transition for {self.phase}/{kind}); event not applied")]
        out: list[Finding] = handler(self, ev, card)
        if self.followups:
            out = self.followups + out
            self.followups = []
        if out and not was_void and any(f.code == "CORRECTION_NOT_FOLLOWED" for f in out):
            # (a misdeal played on was accepted before the event that showed it was applied)
            # Said once: from here the core follows what the table did; nothing of that correction is
            # owed any more, so its later steps cannot raise a cascade of follow-up alerts.
            self.accept_as_played()
        if self.phase == BETTING:  # the phase first: most card events come outside a betting round
            rnd = self.round
            if rnd is not None:
                ticked = rnd.tick(ev.t)
                if ticked:
                    out += ticked
                    out += self._after_round_change(ev.t)
        if out:  # most events raise nothing: skip the scans below (replay speed, issue 13)
            self._after_findings(out)
            if not was_void and self.phase == VOID and self.voided is not None and kind in _BETS:
                self.voided_by = ev  # the action the misdeal stopped: real if the table plays on
        return out

    def _after_findings(self, out: list[Finding]) -> None:
        """What some findings do to the hand itself: a dead hand by the clock, a misdeal."""
        for f in out:
            if f.code == "DEAD_HAND_CLOCK" and f.seat is not None:
                self.record.dead.add(f.seat)  # 004 §11(4): a dead hand, not merely a fold
        misdeal = next((f for f in out if _severity(f) == "misdeal"), None)
        if misdeal is not None and self.phase not in (VOID, BETWEEN):
            fouled = any(f.code == "DECK_DUPLICATE" for f in out)
            if self.misdeal_overridden and not fouled:
                # The table already played on through one misdeal: a second one it would ignore alike,
                # so the hand is followed on (the alert still tells the dealer). A fouled deck still
                # voids it: no table can play a hand with a card twice (l_misdeal_played_on_fouled_deck).
                return
            self.void("fouled_deck" if fouled else "misdeal", misdeal.code)

    # --- ignore / generic ----------------------------------------------------------------------------
    def h_ignore(self, ev: Event, card: str | None) -> list[Finding]:
        return []

    # --- a misdeal the table ignores -----------------------------------------------------------------
    def h_void_cards(self, ev: Event, card: str | None) -> list[Finding]:
        """Cards moving after a misdeal: being gathered for the redeal, or the table playing on. Only
        where they lie is kept, so that a hand played on is followed with its cards where they are."""
        if card is not None and self.voided is not None:
            zone = getattr(ev, "zone", "")
            if isinstance(ev, CardGone):
                self.zones.take(card, zone)
            elif zone:
                self.zones.put(card, zone, getattr(ev, "uid", None))
        return []

    def h_void_board(self, ev: Event, card: str | None) -> list[Finding]:
        """A burn or board card after a misdeal while the seats still hold their cards: the table is
        dealing the next street, so it played on (a redeal gathers the hole cards first)."""
        if self.played_on():
            return self._resume(ev.t) + self.handle_in_phase(getattr(ev, "zone", "board"), ev, card)
        return self.h_void_cards(ev, card)

    def h_void_action(self, ev: Event, card: str | None) -> list[Finding]:
        """A betting action after a misdeal from a seat still holding its cards: played on. Chips count
        only when they rise (chips left in front for the redeal, or pulled back, say nothing)."""
        assert isinstance(ev, (ActionEvent, ChipsEvent))
        if not self.played_on() or not self.holds_cards(ev.seat):
            return []
        if isinstance(ev, ChipsEvent):
            # Voided between rounds, the chips lying in front are the closed round's bets (a re-read of
            # them is not the table playing on: l_misdeal_between_rounds_chips_reread).
            rnd = self.voided[1] if self.voided is not None else None
            rnd = rnd if rnd is not None else self.closed_round
            before = rnd.committed.get(ev.seat, 0) if rnd is not None else 0
            if ev.amount <= before:
                return []
        out = self._resume(ev.t)
        stopped, self.voided_by = self.voided_by, None
        if isinstance(stopped, (ActionEvent, ChipsEvent)) and stopped.seat != ev.seat:
            # Another seat acts: the action the misdeal stopped was taken at the table, so it counts
            # first (the same seat acting again is that action said anew).
            stopped_kind = "action" if isinstance(stopped, ActionEvent) else "chips"
            out += self.handle_in_phase(stopped_kind, stopped, None)
        kind = "action" if isinstance(ev, ActionEvent) else "chips"
        return out + self.handle_in_phase(kind, ev, card)

    def played_on(self) -> bool:
        """The misdeal can still be overridden: the hand was voided in a betting round (or between
        rounds) and at least two dealt-in seats still hold their cards."""
        return self.voided is not None and sum(1 for s in self.holes if self.holds_cards(s)) >= 2

    def _resume(self, t: float) -> list[Finding]:
        """The table played on through the misdeal: said once, then the hand is followed as played."""
        assert self.voided is not None
        phase, rnd, showdown, code = self.voided
        self.voided = None
        self.misdeal_overridden = True
        self.phase, self.round, self.showdown = phase, rnd, showdown
        self.record.ended = "open"
        self.record.t_end = None
        self.event_street = self.street_label(phase, self.street_i)
        self.accept_as_played()  # nothing of the misdeal's remedy is owed any more
        self.record.notes.append(f"misdeal ({code}) not taken: the table played the hand on")
        return [_f("CORRECTION_NOT_FOLLOWED", (
            f"The hand was declared a misdeal ({code}) but the table plays it on; the core follows the "
            f"hand as played (stacks as the chips move)"),
            remedy="Stop and redeal with the same button, or call the floor to let the hand stand")]

    def h_rabbit(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        self.zones.put(card, "board", None)
        if self.dead_acting and self.dead_plays_on():
            # The table plays on against a dead hand that kept acting (told once already): the pot is the
            # live hand's, the board cards are only noted.
            self.record.notes.append(f"board card {card} dealt while a dead hand plays on")
            return []
        return [_f("RABBIT_HUNT", f"Board card {card} turned after the hand ended", cards=[card])]

    def h_board_showdown(self, ev: Event, card: str | None) -> list[Finding]:
        """A board card once the betting is over. After an all-in the river opens no betting round, so a
        river dealt without a burn goes straight to the showdown; its remedy arrives here: that card taken
        off the board (as the burn) and a new river, which completes the board the hands are judged on.
        Any other card is a rabbit hunt."""
        assert card is not None
        fix, rec = self.fix, self.record
        old = next(iter(fix.cards)) if fix is not None and len(fix.cards) == 1 else None
        if (fix is None or fix.kind != "to_burn" or old is None or (old not in rec.board and fix.moved != old)
                or self.zones.zone_of(old) == "board"):
            return self.h_rabbit(ev, card)
        lying = [c for c in rec.board if self.zones.zone_of(c) == "board"]
        if len(lying) >= sum(self.game.board_cards.values()):
            return self.h_rabbit(ev, card)
        out = self._arrive(card, "board", ev)
        if out:
            return out
        # 003 (6): with no betting because of an all-in, a missed burn is put right until the pot is
        # pushed, also a turn's found after the river: the cards after it move up (the turn without a
        # burn goes to the burns, the card burned for the river becomes the turn, the river goes to the
        # burns, a new river). The board the hands are judged on is what lies there; the correction
        # stays open until the board is full again.
        if fix.moved != old:
            fix.moved = old
            rec.burns.append(old)
            rec.notes.append(f"{old} burned and the board completed after the betting ({fix.code})")
        rec.board[:] = [*lying, card]
        return []

    def h_misdeal(self, ev: Event, card: str | None) -> list[Finding]:
        if self.round is not None and self.limit_reached() and self.street_i == 0:
            note = f" ({self.round.actions_taken} actions were already taken; normally the hand continues)"
            return [_f("MISDEAL_CALLED", f"Dealer called a misdeal in hand {self.number}{note}")]
        played = sum(1 for a in self.record.actions if not a.action.startswith("post"))
        if (self.street_i > 0 or self.round is None) and played >= self.profile.misdeal_action_limit:
            # A later street: the first betting round was played, so the action limit of 001 §14 and
            # 004 §4(1) has long passed and the hand can no longer be a misdeal. The button press is
            # refused (one alert, severity error) and the core keeps following the hand as played.
            street = self.street
            return [_f("MISDEAL_CALLED", (
                f"Dealer pressed misdeal in hand {self.number} ({street}), after the first "
                f"betting round: too late for a misdeal (001 §14, 004 §4(1)); the hand is not void, play "
                f"goes on"), severity="error",
                remedy="Play the hand on; only the floor can void it now")]
        return [_f("MISDEAL_CALLED", f"Dealer called a misdeal in hand {self.number}")]

    def h_clock(self, ev: Event, card: str | None) -> list[Finding]:
        assert self.round is not None
        out = self.round.clock_called(ev.t)
        return out + self._after_round_change(ev.t)

    def h_knock(self, ev: Event, card: str | None) -> list[Finding]:
        self.knocked = True
        self.knock_t = ev.t
        return []

    def h_knock_early(self, ev: Event, card: str | None) -> list[Finding]:
        # A knock while betting is open does not count for the next street, except that a passed-over
        # seat which stays silent through it has lost its turn (000 §2.8; board.py).
        if self.round is not None:
            self.early_knock = (ev.t, len(self.round.records))
        return []

    def handle_in_phase(self, kind: str, ev: Event, card: str | None) -> list[Finding]:
        """Handle an event again under the phase a handler just moved the hand to."""
        handler = self.HANDLERS.get((self.phase, kind))
        return handler(self, ev, card) if handler is not None else []

    def h_action(self, ev: Event, card: str | None) -> list[Finding]:
        assert isinstance(ev, (ActionEvent, ChipsEvent))  # a tuple: no union object built per action
        rnd = self.round
        assert rnd is not None
        if ev.seat not in self.holes:
            return [_f("BAD_EVENT", f"{ev.TYPE} from seat {ev.seat}, which is not dealt in this hand; event "
                                    f"not applied", seat=ev.seat)]
        dead = self.dead_seat_acts(ev) if self.record.dead else None
        if dead is not None:
            return dead
        out: list[Finding] = self._off_table() if self.in_flight else []
        if self.lost and not out:
            out = self.missing_noticed(ev.seat)
        if out:
            return out
        for seat in sorted(self.thrown) if self.thrown else ():
            if seat != ev.seat and seat not in self.record.folded and seat not in self.record.dead:
                if rnd.to_act == seat:
                    out += rnd.fold(seat, ev.t, "cards thrown forward in turn")
                else:
                    self.record.dead.add(seat)
                    out.append(_f("ACTION_AFTER_FOLD", f"Seat {seat} threw its cards forward and seat "
                                                       f"{ev.seat} acted on it; seat {seat}'s hand is dead",
                                  seat=seat))
                    out += rnd.fold(seat, ev.t, "dead hand: cards thrown forward and acted upon")
        self.thrown.clear()
        if self.premature_street is not None:  # rare: only while a premature card is open
            moved = self.moved_on_to_premature(ev, card)
            if moved is not None:
                return out + moved
        if self.late_checkers and self.late_check(ev):
            return out
        out += rnd.feed(ev)
        out += self._after_round_change(ev.t)
        return out

    def h_chips_due(self, ev: Event, card: str | None) -> list[Finding]:
        """Chips between rounds: the dealer gathering the pot (zones fall, nothing to say), or a live seat
        pushing chips in after its round closed (the zone rises): nothing is open to bet on, so the
        dealer hands them back (000 §3.1, 001 §3: an action out of turn that the action can never reach
        before the street's cards are out); the chips are not booked."""
        assert isinstance(ev, ChipsEvent)
        if self.due_chips_street != self.street_i:
            self.due_chips_street = self.street_i
            self.due_chips.clear()
        rnd = self.closed_round
        before = self.due_chips.get(ev.seat, rnd.committed.get(ev.seat, 0) if rnd is not None else 0)
        self.due_chips[ev.seat] = ev.amount
        if ev.amount <= before or ev.seat not in self.live():
            return []
        return self._pushed_after_round(ev.seat, f"pushed {ev.amount} in")

    def _pushed_after_round(self, seat: int, what: str) -> list[Finding]:
        """A wager after the round closed and before the next street's cards: one warning per seat and
        gap; nothing is applied (the round stays closed, the next street's betting opens as usual)."""
        key = (self.street_i, seat)
        if key in self.due_warned:
            return []
        self.due_warned.add(key)
        nxt = self.street
        return [_f("ACTION_OUT_OF_TURN", (
            f"Seat {seat} {what} after the betting round closed, before the {nxt} was dealt; nothing is "
            f"open to bet on, so it does not count"), seat=seat,
            remedy=f"Hand the chips back to seat {seat}; it acts in turn once the {nxt} betting opens")]

    def h_action_due(self, ev: Event, card: str | None) -> list[Finding]:
        """A player acts while the street's cards are still due: the table has moved on.

        The physical facts win: a repeat of the seat's last action (a refused raise answered by the
        call the engine already applied) changes nothing; otherwise the street is opened with the board
        as it lies, an open correction is reported once as not followed, and the action is applied.
        """
        assert isinstance(ev, ActionEvent)
        dead = self.dead_seat_acts(ev) if self.record.dead else None
        if dead is not None:
            return dead
        kept = self.kept_premature(ev.t)  # the street's cards lie on the board already
        if kept is not None:
            return kept + (self.h_action(ev, card) if self.phase == BETTING else [])
        if self._repeats_last(ev):
            return []
        revived = self._revive_round(ev)
        if revived is not None:
            return revived
        if self.runout:
            return []  # in a runout nobody can bet: a spoken check changes nothing
        if (ev.action in WAGERS and not self.board_now and not self.burns_now
                and any(self.game.board_cards.values()) and ev.seat in self.live()):
            # A wager before any card of the next street: the table has not moved on, a seat bet too
            # soon. Held as the next street's out-of-turn bet it would bind a
            # street the table then checks through; told and not applied instead.
            return self._pushed_after_round(ev.seat, f"said {ev.action}")
        out: list[Finding] = []
        fix = self.fix
        if fix is not None:
            self.fix = None
            out.append(_f("CORRECTION_NOT_FOLLOWED", f"Seat {ev.seat} acted on the {self.street} while "
                                                     f"{fix.code} is open; expected: {fix.expect}"))
        self._board_as_it_lies()
        self.street_done_t = ev.t
        out += self._open_street(ev.t)
        if self.phase == BETTING:
            out += self.h_action(ev, card)
        return out

    def h_action_over(self, ev: Event, card: str | None) -> list[Finding]:
        """An action after betting ended: a repeat of the seat's last action is the same action again."""
        assert isinstance(ev, ActionEvent)
        if self._repeats_last(ev):
            return []
        rec = self.record
        dead = self.dead_seat_acts(ev) if rec.dead else None
        if dead is not None:
            return dead
        if rec.ended == "fold" and rec.live_seats() == [ev.seat]:
            # The pot's only claimant, never asked: everyone else folded or is dead (a dead big blind
            # cannot win, 000 §1.5, so the small blind wins as the others fold to it). Whatever it says
            # now changes nothing; the pot is its own.
            rec.notes.append(f"seat {ev.seat} {ev.action} after the others folded: the pot is its own")
            return []
        if ev.action == "fold" and self.phase == SHOWDOWN and ev.seat in rec.live_seats():
            # A claimant giving up at the showdown (the console's word for "I muck"): 000 §4.1 and 001 §9
            # let a hand that claims nothing go unshown. Its cards reaching the muck decide; nothing else.
            rec.notes.append(f"seat {ev.seat} gave up its claim at the showdown")
            return []
        return [_f("BAD_EVENT", f"action {ev.action} from seat {ev.seat} after the betting of hand "
                                f"{self.number} ended (phase {self.phase!r}, action); event not applied",
                   seat=ev.seat)]

    def dead_seat_acts(self, ev: Event) -> list[Finding] | None:
        """A seat whose hand is dead acts all the same (its cards were not taken). Said once per hand
        (CORRECTION_NOT_FOLLOWED: the dead hand's cards were owed to the muck), then noted. A wager is
        followed as played, so the table's answers to it fit: the seat is put back into the betting
        round (a closed one opens again while the next street's cards are not out); its chips stay in
        the pot and the hand stays dead, so it cannot win (000 §1.5; 001 §13; TDA 2024). A check or
        fold, or a wager that can no longer be placed, changes nothing; a fold (the dealer folding the
        dead hand, its cards on their way to the muck) and a seat whose cards are gone (mucked) only get
        a note. None: not a dead seat."""
        rec = self.record
        if not isinstance(ev, ActionEvent) or ev.seat not in rec.dead:
            return None
        seat = ev.seat
        out: list[Finding] = []
        if not self.holds_cards(seat):  # its cards are gone: the word changes nothing (a note)
            rec.notes.append(f"seat {seat} (dead hand, cards gone) {ev.action} on the {self.street}")
            return out
        if ev.action == "fold":  # the dealer folding the dead hand on the console: the remedy itself
            rec.notes.append(f"seat {seat} (dead hand) folded on the {self.street}")
            return out
        if seat not in self.dead_acting:
            self.dead_acting.add(seat)
            out.append(_f("CORRECTION_NOT_FOLLOWED", (
                f"Seat {seat}'s hand is dead but it still acts ({ev.action}); expected: its cards mucked. "
                f"The hand is followed as played: a dead hand cannot win, chips it puts in stay in the "
                f"pot"), seat=seat))
        if ev.action in WAGERS:
            placed = self._dead_wager(ev)
            if placed is not None:
                return out + placed
        rec.notes.append(f"seat {seat} (dead hand) {ev.action} on the {self.street}: nothing applied")
        return out

    def _dead_wager(self, ev: ActionEvent) -> list[Finding] | None:
        """Place a dead hand's wager in the current round, or in the last one while the next street's
        cards are not out (it closed before the dead seat spoke). None when neither is possible."""
        rnd = self.round if self.phase == BETTING else None
        last = rnd if rnd is not None else self.closed_round
        if ev.amount is not None and ev.action != "allin" and last is not None and (
                ev.amount > last.committed.get(ev.seat, 0) + self.stack_now(ev.seat)):
            # More than it has: nothing can be placed. Put back into the round, the round would wait
            # for it and the next street's cards would look premature (f_dead_hand_bets_above_stack).
            return None
        if rnd is None and self.phase == DUE:
            rnd = self.closed_round
            if rnd is None or self.board_now or self.burns_now or not hasattr(rnd, "rejoin"):
                return None
            self._enter_closed_round(rnd)
            self._round_reopened()
        if rnd is None or not hasattr(rnd, "rejoin"):
            return None
        rnd.rejoin(ev.seat, self.stack_now(ev.seat), ev.t)
        return rnd.feed(ev) + self._after_round_change(ev.t)

    def _revive_round(self, ev: ActionEvent) -> list[Finding] | None:
        """The last round closed on a refused raise taken as a call, but the next seat calls the raise:
        back to that round (nothing of the next street has been dealt yet)."""
        rnd = self.closed_round
        if rnd is None or self.board_now or self.burns_now or not hasattr(rnd, "revive"):
            return None
        street_i, prev = self.street_i, dict(self.prev)
        self._enter_closed_round(rnd)
        found: list[Finding] | None = rnd.revive(ev)
        if found is None:
            self.round, self.phase, self.street_i, self.prev = None, DUE, street_i, prev
            self.event_street = None
            return None
        self._round_reopened()
        return found + self._after_round_change(ev.t)

    def _enter_closed_round(self, rnd: RoundLike) -> None:
        """Step back into the round that just closed (no card of the next street is out): its chips are
        this round's again, not the stacks' (undoes `_round_closed`)."""
        for seat in self.dealt_in:
            self.prev[seat] -= rnd.committed.get(seat, 0)
        self.round, self.phase, self.street_i = rnd, BETTING, self.street_i - 1
        self.event_street = self.alert_street()

    def _round_reopened(self) -> None:
        """The closed round is open again for good. The bet-zone readings kept between rounds were
        taken against its old bets: when it closes anew, a seat's new bet read late must not look like
        chips pushed after the round (f_dead_hand_reopens_round_chips_late)."""
        self.closed_round = None
        self.runout = False
        self.due_chips.clear()
        self.due_chips_street = -1

    def _repeats_last(self, ev: ActionEvent) -> bool:
        """`ev` says again what the seat's last recorded action did (console after chips, a call
        confirming a refused raise that already stands as a call)."""
        acts = self.record.actions
        last = acts[-1] if acts else None
        if last is None:
            return False
        if last.seat != ev.seat:
            return self._late_call(ev)  # someone acted since: a new action unless a late word
        same = ev.action == last.action or (ev.action, last.action) in (("call", "allin"), ("allin", "call"),
                                                                       ("call", "check"))
        return same and (ev.amount is None or ev.amount in (last.total, last.added))

    def _late_call(self, ev: ActionEvent) -> bool:
        """A call naming just what the seat already has in the round that closed, before anybody acts on
        the next street: the dealer's late word for chips already counted (a seat topping up a raise the
        table took as a full wager), not an action of the new street, where a call to a bet of 0 is
        impossible."""
        rnd = self.closed_round
        if ev.action != "call" or ev.amount is None or rnd is None or self.round is not None:
            return False
        return bool(ev.amount) and rnd.committed.get(ev.seat) == ev.amount

    def _board_as_it_lies(self) -> None:
        """Take the board and the burns from the zones (used when the table moved on without the
        procedure the engine expected)."""
        rec = self.record
        lying = set(self.zones.cards_in("board"))
        rec.board[:] = [c for c in rec.board if c in lying] + sorted(lying - set(rec.board))
        self.board_now = [c for c in rec.board]
        for b in self.zones.cards_in("burn"):
            if b not in rec.burns:
                rec.burns.append(b)
        self.premature = []
        self.premature_street = None
        self.must_leave.clear()
        self.burn_fix_back = None

    def _after_round_change(self, t: float) -> list[Finding]:
        rnd = self.round
        out: list[Finding] = []
        if rnd is None:
            return out
        rec = self.record
        new = rnd.records[self.n_records:]
        self.n_records = len(rnd.records)
        rec.actions.extend(new)
        for seat in sorted(rnd.all_in) if rnd.all_in else ():
            if seat not in rec.all_in_order and self.stack_now(seat) == 0:
                rec.all_in_order.append(seat)
        rec.folded |= rnd.folded
        rec.last_aggressor[self.street] = rnd.last_aggressor
        self._sync_committed()
        if self.fix is not None and self.limit_reached():
            fix, self.fix = self.fix, None
            if fix.code.startswith("BURN_MISSING") and fix.early_card is None:  # else four cards lie there
                rec.notes.append(f"{fix.code}: not corrected before two actions; the board stands")
                self.made_up_burn_allowed(fix.street)
            else:
                out.append(_f("CORRECTION_NOT_FOLLOWED", f"{rnd.actions_taken} actions taken on the "
                                                         f"{fix.street} "
                                                         f"before {fix.code} was corrected; expected: "
                                                         f"{fix.expect}"))
        if self.phase == BETTING and self.round is not None and rnd.closed:
            out += self._round_closed(t)
        return out if self.checker is None else self._checker_turns(out, t)

    def _round_closed(self, t: float) -> list[Finding]:
        """The betting round is complete: next street, showdown, or the hand is over."""
        rnd = self.round
        assert rnd is not None
        for seat in self.dealt_in:
            self.prev[seat] += rnd.committed.get(seat, 0)
        self.closed_round = rnd
        self.round = None
        self._sync_committed()
        live = self.live()
        if not live:
            self._revive_last_folded()
            live = self.live()
        if len(live) <= 1:
            return self._end_betting(t, "fold")
        if len(self._can_bet(live)) <= 1:
            self.runout = True
        return self._next_due(t)

    def _revive_last_folded(self) -> None:
        """Everyone folded (e.g. the last live seat was folded for being passed over): the pot needs a
        claimant, so the seat folded by the rules rather than by its own action keeps its hand."""
        rec = self.record
        own = {a.seat for a in rec.actions if a.action == "fold"}
        candidates = [s for s in rec.dealt_in if s in rec.folded and s not in own and s not in rec.dead]
        pick = candidates[-1] if candidates else next(
            (a.seat for a in reversed(rec.actions) if a.action == "fold" and a.seat not in rec.dead), None)
        if pick is not None:
            rec.folded.discard(pick)
            rec.notes.append(f"every seat folded; seat {pick} keeps the pot")

    def _next_due(self, t: float) -> list[Finding]:
        if self.street_i + 1 >= len(self.game.streets):
            return self._end_betting(t, "showdown")
        self.street_i += 1
        self.phase = DUE
        self.knocked = False
        self.knock_t = None
        self.early_knock = None
        self.knock_flagged = False
        self.board_now = []
        self.burn_fix_back = None
        premature_here = self.premature_street == self.street
        if premature_here and self.street == "turn":
            self.burns_now = []  # 000 §2.6: a new card is burned for the corrected turn
        else:
            self.burns_now = list(self.early_burns)
        self.early_burns_kept = list(self.early_burns)  # in case the premature cards are kept after all
        self.early_burns = []
        return []

    def _open_street(self, t: float) -> list[Finding]:
        """The street's board cards are out: open its betting round (or run out the board)."""
        self.closed_round = None
        self.premature = []
        self.premature_street = None
        if self.runout:
            return self._next_due(t)
        self.phase = BETTING
        order = self.live()  # deal order: clockwise from the first seat left of the button
        can = [s for s in order if self.stack_now(s) > 0]
        first = can[0] if can else order[0]
        stacks = {s: self.stack_now(s) for s in order}
        self.round = self.round_factory(street=self.street, seats=order, first_to_act=first, stacks=stacks,
                                        posted={}, bb=self.level.bb, profile=self.profile, t=t,
                                        absent=self._absent_in(order),
                                        **round_kwargs(self.level, self.profile, self.street_i,
                                                       sum(self.prev.values())))
        self.n_records = 0
        for seat in self.shown_early:  # still passive on the later streets (000 §4.1)
            if hasattr(self.round, "show_card"):
                self.round.show_card(seat)
        return self._after_round_change(t)

    def _end_betting(self, t: float, how: str) -> list[Finding]:
        self.round = None
        rec = self.record
        rec.ended = "fold" if how == "fold" else "showdown"
        self.phase = ENDED if how == "fold" else SHOWDOWN
        if self.showdown_factory is None:
            return []
        self.showdown = self.showdown_factory(rec, self.profile, odd_chip_order=self.game.odd_chip_order)
        return self.showdown.open(t)

    def unfinished_summary(self, t: float) -> dict[str, Any] | None:
        """The …/hands payload of a hand that stops while it is still being played: result unknown."""
        if self.showdown_factory is None:
            return None
        self._sync_committed()
        showdown = self.showdown_factory(self.record, self.profile, odd_chip_order=self.game.odd_chip_order)
        return showdown.unfinished(t)

    # --- cards leaving zones -----------------------------------------------------------------------
    def h_gone(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        zone = getattr(ev, "zone", "")
        if not self.zones.take(card, zone):
            return []
        if zone != "burn" and self.phase in (SHOWDOWN, ENDED):
            # The cards gathered after the betting (most of a stud hand's card events): a board or seat
            # card leaving tells nothing now, so skip the checks below (replay speed, issue 13).
            if self.must_leave and self.must_leave.get(card) == zone:
                del self.must_leave[card]
            return []
        seat = _seat_of(zone)
        out: list[Finding] = []
        if zone == "board":
            if self.phase not in (SHOWDOWN, ENDED):  # after betting the dealer gathers; the board stands
                out += self._board_gone(card)
        elif zone == "burn":
            if self.burn_fix_back == "pending" and card in self.burns_now:
                self.burn_fix_back = None
                self.burns_now.remove(card)
                nxt = self.street_i + 1
                if nxt < len(self.game.streets):
                    self.must_burn[self.game.streets[nxt]] = card
            elif self.phase in (BETTING, DUE):
                self.lost[card] = zone
        elif seat is not None and self.phase not in (SHOWDOWN, ENDED):  # after the betting: nothing to do
            out = self._seat_gone(seat, card, ev)  # a fresh list: nothing before it to keep
        if self.must_leave and self.must_leave.get(card) == zone:
            del self.must_leave[card]
        return out

    def _seat_gone(self, seat: int, card: str, ev: Event) -> list[Finding]:
        rec = self.record
        if self.phase == DEAL:
            if card != self.exposed_card and card != self.extra_first:
                self.in_flight[card] = seat
            return []
        if card == self.exposed_card or card == self.extra_first:
            return []
        if self.phase in (SHOWDOWN, ENDED):
            return []  # cards gathered after the betting: the showdown hears of them in the muck (on_card)
        if self.phase in (BETTING, DUE):
            if seat not in rec.folded and seat not in rec.dead:
                left = [c for c in self.holes.get(seat, []) if self.zones.zone_of(c) == f"seat{seat}"]
                if not left and self.phase == BETTING:
                    self.thrown[seat] = self.t
            self.lost[card] = f"seat{seat}"
        return []

    def _to_muck(self, card: str, uid: str | None) -> int | None:
        """`card` reaches the muck (out of the zone it was in; lost or in flight no more). The seat whose
        hole card it is; None for any other card, and for the exposed or extra card already out of play."""
        if self.lost:
            self.lost.pop(card, None)
        if self.in_flight:
            self.in_flight.pop(card, None)
        self.zones.put(card, "muck", uid)
        owner: int | None = None  # `_owner_of`, inlined: each card of a losing hand reaches the muck
        for seat, cards in self.holes.items():
            if card in cards:
                owner = seat
                break
        if owner is None or card == self.exposed_card or card == self.extra_first:
            return None
        return owner

    def _mucked_after_betting(self, owner: int, card: str) -> None:
        """After the betting a live hand's card (its cards are dealt in) mucked unseen is booked so."""
        rec = self.record
        if card not in rec.shown.get(owner, ()) and owner not in rec.folded and owner not in rec.dead:
            if owner not in rec.mucked_unshown:
                rec.muck_order.append(owner)
            rec.mucked_unshown.add(owner)

    def h_muck(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        owner = self._to_muck(card, getattr(ev, "uid", None))
        if owner is None:
            return []
        if self.phase in (SHOWDOWN, ENDED):
            self._mucked_after_betting(owner, card)
            return self.showdown.on_card(ev, card) if self.showdown is not None else []
        rec = self.record
        if owner in rec.folded or owner in rec.dead:
            return []
        rnd = self.round
        self.thrown.pop(owner, None)
        if rnd is not None and self.phase == BETTING and rnd.to_act == owner:
            return self.h_action(ActionEvent(t=ev.t, seat=owner, action="fold", source="engine"), None)
        rec.dead.add(owner)
        out = [_f("HOLE_CARD_IN_MUCK", f"A hole card of seat {owner} reached the muck while the seat was "
                                       f"live; "
                                       f"the hand is dead", seat=owner)]
        if rnd is not None and self.phase == BETTING:
            out += rnd.fold(owner, ev.t, "dead hand: hole card in the muck")
            out += self._after_round_change(ev.t)
        else:
            rec.folded.add(owner)
            if len(self.live()) <= 1 and self.phase in (DUE, DEAL):
                out += self._end_betting(ev.t, "fold")
        return out

    def accept_as_played(self) -> None:
        """The floor accepted what the table did: no correction is owed any more (no later
        CORRECTION_NOT_FOLLOWED); the cards stay where they lie."""
        self.fix = None
        self.skip_burn.clear()
        self.must_burn.clear()
        self.forbid.clear()
        self.must_leave.clear()
        self.burn_fix_back = None
        self.boxed.clear()
        self.replacement_due = None
        rnd = self.round or self.closed_round  # a refused raise may have closed its round
        if rnd is not None:
            rnd.accept_as_played()  # an under-raise booked completed stands as the chips show

    # --- hand end ----------------------------------------------------------------------------------
    def missing_cards(self) -> list[Finding]:
        """Cards that left a zone while the hand was live and never arrived anywhere (CARD_MISSING)."""
        out = []
        for card, zone in sorted(self.lost.items()):
            out.append(_f("CARD_MISSING", f"Card {card} left zone {zone} during the hand and was never seen "
                                          f"again", cards=[]))
        self.lost.clear()
        return out


# --- the transition table ------------------------------------------------------------------------------
# Every (phase, kind) pair the hand accepts, mapped to its handler. A pair that is not listed is an
# irregularity (BAD_EVENT naming both); tests/core/test_engine_transitions.py walks the full product.
TRANSITIONS: dict[tuple[str, str], str] = {
    # before the first hand: cards being set out, chips, knocks are not part of any hand
    (BETWEEN, "hole"): "h_ignore", (BETWEEN, "board"): "h_ignore", (BETWEEN, "burn"): "h_ignore",
    (BETWEEN, "muck"): "h_ignore", (BETWEEN, "deck"): "h_ignore", (BETWEEN, "gone"): "h_ignore",
    (BETWEEN, "exposed"): "h_ignore", (BETWEEN, "knock"): "h_ignore", (BETWEEN, "chips"): "h_ignore",
    (BETWEEN, "board_count"): "h_ignore",
    # the deal
    (DEAL, "hole"): "h_hole_deal", (DEAL, "board"): "h_board_deal", (DEAL, "burn"): "h_burn_deal",
    (DEAL, "muck"): "h_muck", (DEAL, "deck"): "h_ignore", (DEAL, "gone"): "h_gone",
    (DEAL, "exposed"): "h_exposed", (DEAL, "knock"): "h_knock_early", (DEAL, "action"): "h_action_deal",
    (DEAL, "chips"): "h_chips_deal", (DEAL, "board_count"): "h_ignore", (DEAL, "misdeal"): "h_misdeal",
    # a betting round is open
    (BETTING, "hole"): "h_hole_betting", (BETTING, "board"): "h_board_betting",
    (BETTING, "burn"): "h_burn_betting", (BETTING, "muck"): "h_muck", (BETTING, "deck"): "h_ignore",
    (BETTING, "gone"): "h_gone", (BETTING, "exposed"): "h_exposed", (BETTING, "knock"): "h_knock_early",
    (BETTING, "action"): "h_action", (BETTING, "chips"): "h_action",
    (BETTING, "board_count"): "h_board_count",
    (BETTING, "misdeal"): "h_misdeal", (BETTING, "clock"): "h_clock",
    # the round closed: knock, burn, board cards due
    (DUE, "hole"): "h_hole_betting", (DUE, "board"): "h_board_due", (DUE, "burn"): "h_burn_due",
    (DUE, "muck"): "h_muck", (DUE, "deck"): "h_ignore", (DUE, "gone"): "h_gone",
    (DUE, "exposed"): "h_exposed",
    (DUE, "knock"): "h_knock", (DUE, "chips"): "h_chips_due", (DUE, "action"): "h_action_due",
    (DUE, "board_count"): "h_board_count",
    (DUE, "misdeal"): "h_misdeal",
    # showdown: hands shown and mucked; no more board cards
    (SHOWDOWN, "hole"): "h_ignore", (SHOWDOWN, "board"): "h_board_showdown", (SHOWDOWN, "burn"): "h_ignore",
    (SHOWDOWN, "muck"): "h_muck", (SHOWDOWN, "deck"): "h_ignore", (SHOWDOWN, "gone"): "h_gone",
    (SHOWDOWN, "exposed"): "h_exposed", (SHOWDOWN, "knock"): "h_ignore", (SHOWDOWN, "chips"): "h_ignore",
    (SHOWDOWN, "board_count"): "h_ignore", (SHOWDOWN, "action"): "h_action_over",
    # the hand is over: cards gathered; a new board card is a rabbit hunt
    (ENDED, "hole"): "h_ignore", (ENDED, "board"): "h_rabbit", (ENDED, "burn"): "h_ignore",
    (ENDED, "muck"): "h_muck", (ENDED, "deck"): "h_ignore", (ENDED, "gone"): "h_gone",
    (ENDED, "exposed"): "h_exposed", (ENDED, "knock"): "h_ignore", (ENDED, "chips"): "h_ignore",
    (ENDED, "board_count"): "h_ignore", (ENDED, "action"): "h_action_over",
    # misdeal: the cards are being gathered for the redeal
    # (or the table plays on through the misdeal: an action or the next street's cards, docs/rules.md)
    (VOID, "hole"): "h_void_cards", (VOID, "board"): "h_void_board", (VOID, "burn"): "h_void_board",
    (VOID, "muck"): "h_void_cards", (VOID, "deck"): "h_ignore", (VOID, "gone"): "h_void_cards",
    (VOID, "exposed"): "h_ignore", (VOID, "knock"): "h_ignore", (VOID, "chips"): "h_void_action",
    (VOID, "board_count"): "h_ignore", (VOID, "action"): "h_void_action", (VOID, "misdeal"): "h_ignore",
    (VOID, "clock"): "h_ignore",
}

# The table resolved to the handler functions once, so dispatch is one dict lookup and a call.
Hand.TRANSITIONS = TRANSITIONS
Hand.HANDLERS = {pair: getattr(Hand, name) for pair, name in TRANSITIONS.items()}
