"""The deal of a hand: blinds, hole-card order and counts, exposed and extra cards (section H)."""

from __future__ import annotations

from controller.core import antes
from controller.core.alerts import Finding
from controller.core.events import ChipsEvent, Event
from controller.core.forced import AnteMode, ForcedBets, Post, PostKind, posts_due, preflop_bet, straddlers
from controller.core.handbase import (
    BETTING,
    DEAL,
    DUE,
    ENDED,
    SHOWDOWN,
    HandBase,
    _f,
    _seat,
    _seat_of,
    _seats,
    _severity,
    _uid,
)
from controller.core.record import RecordedAction
from controller.core.structures import round_kwargs

_RECORDED: dict[PostKind, RecordedAction] = {
    "ante": "post_ante", "dead": "post_dead", "sb": "post_sb", "bb": "post_bb", "straddle": "post_straddle",
    "post": "post_bb",  # a live post out of position plays like a big blind for that seat
}


class DealPart(HandBase):
    """Handlers and checks for the deal, from the blinds to the first betting action."""

    # --- the deal --------------------------------------------------------------------------------
    def _resolve_blinds(self) -> list[Finding]:
        """At the first hole card: every blind due must have been seen (unless no chips were reported)."""
        self.blinds_done = True
        out: list[Finding] = []
        due = self.expected_posts()
        if not self.pre_chips:
            self.blinds_auto = True  # a table without chip readers: the blinds are taken as posted
            return out
        for seat in due:
            if self.pre_chips.get(seat, 0) == 0:
                kind = "big" if seat == self.record.bb_seat else "small"
                out.append(_f("DEAL_BEFORE_BLINDS", f"First hole card dealt before seat {seat} posted the "
                                                    f"{kind} blind ({due[seat]})", seat=seat))
                self.late_blind_flagged = True
        return out + antes.missing(self.ante_ledger, self._pre_deal(), pre_chips=self.pre_chips,
                                   flagged=self.blind_flagged)

    def _pre_deal(self) -> antes.PreDeal:
        lv = self.level
        return antes.PreDeal(posts=self.forced_posts(), ante_chips=lv.ante_chips, ante=lv.ante,
                             ante_mode=lv.ante_mode, straddles=self.extras.straddles)

    def check_blind(self, seat: int, amount: int) -> list[Finding]:
        """A chips event before the deal: it must be a blind seat posting the level's amount (001 §7)."""
        self.pre_chips[seat] = amount
        self.ante_ledger.see(seat, amount)
        if amount == 0 or seat in self.blind_flagged:
            return []
        screened = antes.screen(self.ante_ledger, seat, amount, self._pre_deal())
        if screened is not None:  # an ante or a straddle, right or wrong (antes.py)
            self.blind_flagged.update([seat] if screened else [])
            return screened
        due = self.expected_posts()
        lv = self.level
        if seat not in due:
            self.blind_flagged.add(seat)
            return [_f("BLIND_WRONG", f"Seat {seat} put {amount} in before the deal, but it owes no blind "
                                      f"({self.blind_text()}, level {lv.sb}/{lv.bb})", seat=seat)]
        if amount != due[seat]:
            self.blind_flagged.add(seat)
            kind = "big" if seat == self.record.bb_seat else "small"
            return [_f("BLIND_WRONG", f"Seat {seat} posted {amount} as the {kind} blind; level "
                                      f"{lv.sb}/{lv.bb} "
                                      f"in force when the button moved needs {due[seat]}", seat=seat)]
        return []

    def blind_text(self) -> str:
        r = self.record
        sb = f"SB seat {r.sb_seat}" if r.sb_seat is not None else "dead SB"
        return f"{sb}, BB seat {r.bb_seat}"

    def _forced_bets(self) -> ForcedBets:
        lv, ex = self.level, self.extras
        return ForcedBets(sb=lv.sb, bb=lv.bb, ante=lv.ante, ante_mode=_ante_mode(lv.ante_mode),
                          straddles=ex.straddles, posts=ex.posts, dead=ex.dead)

    def forced_posts(self) -> list[Post]:
        """Every forced bet of this hand, as controller/core/forced.py rules (ante modes, short stacks).

        Worked out once per level and extras (the hand's seats, button and starting stacks never change):
        every chips event before the deal and the deal's start ask for it (import speed, issue 16)."""
        memo = self._posts_memo
        if memo is None or memo[0] is not self.level or memo[1] is not self.extras:
            r = self.record
            posts = posts_due(self._forced_bets(), button=r.button, sb_seat=r.sb_seat, bb_seat=r.bb_seat,
                              order=self.dealt_in, stacks=r.starting_stacks)
            memo = self._posts_memo = (self.level, self.extras, tuple(posts))
        return list(memo[2])

    def expected_posts(self) -> dict[int, int]:
        """Blinds due this hand (a short stack posts what it has; a seat all-in on its ante owes none)."""
        return {p.seat: p.amount for p in self.forced_posts() if p.live and p.seat in self.holes}

    def h_chips_deal(self, ev: Event, card: str | None) -> list[Finding]:
        assert isinstance(ev, ChipsEvent)
        if ev.seat not in self.holes:
            return [_f("BAD_EVENT", f"Chips from seat {ev.seat}, which is not dealt in this hand; "
                                    f"event not applied", seat=ev.seat)]
        if not self.deal_cards:
            return self.check_blind(ev.seat, ev.amount)
        due = self.expected_posts()
        late = antes.late_amounts(ev.seat, self._pre_deal())  # with ante readers: blind plus ante
        if (ev.seat in due and ev.amount == due[ev.seat]) or ev.amount in late:
            if self.blinds_auto and not self.late_blind_flagged:
                self.late_blind_flagged = True
                return [_f("DEAL_BEFORE_BLINDS", f"Seat {ev.seat} posted its blind ({ev.amount}) after the "
                                                 f"deal had begun", seat=ev.seat)]
            return []
        return self.h_action_deal(ev, card)

    def h_hole_deal(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        seat = _seat(ev)
        out: list[Finding] = []
        if seat in self.holes and card in self.holes[seat]:
            self.in_flight.pop(card, None)  # a card lifted and put back
            self.zones.put(card, f"seat{seat}", _uid(ev))
            return out
        if self.zones.zone_of(card) is not None:  # a card not on the table cannot be a duplicate
            out = self._dup(card, f"seat{seat}", ev)
            if out:
                return out
        out += self._flight_check(card)
        if not self.blinds_done:
            out += self._resolve_blinds()
        if card in self.boxed:
            out.append(_f("CORRECTION_NOT_FOLLOWED", f"Boxed card {card} dealt to seat {seat}; expected: "
                                                     f"take {card} out of play", seat=seat, cards=[card]))
        if seat not in self.holes:
            self._place_hole(seat, card, ev, register=False)
            msg = f"Hole card dealt to seat {seat}, which is not dealt in (dealt in: {_seats(self.dealt_in)})"
            return [*out, _f("DEAL_EMPTY_SEAT", msg, seat=seat)]
        if self._dealt_count() >= len(self.deal_seq):
            if self.replacement_due is None:
                return out + self._extra_hole(seat, card, ev)
            if seat != self.replacement_due:
                out.append(_f("CORRECTION_NOT_FOLLOWED", f"Card dealt to seat {seat}; expected: the "
                              f"replacement card for seat {self.replacement_due} (exposed card)", seat=seat))
            self._place_hole(seat, card, ev)
            self.replacement_due = None
            self._maybe_deal_complete(ev.t, out)
            return out
        if seat == self.replacement_due and seat != self._next_in_order():
            return out + self._replaced_at_once(seat, card, ev)
        wrong = self._deal_order(seat)
        self._place_hole(seat, card, ev)
        self.deal_cards.append(card)
        if wrong:
            return out + wrong  # a misdeal: the hand is void
        self._maybe_deal_complete(ev.t, out)
        return out

    def _next_in_order(self) -> int:
        """The seat the deal's next card goes to (after the last seat of a round: the first seat)."""
        order = self.dealt_in
        return order[self.deal_pos + 1] if self.deal_pos + 1 < len(order) else order[0]

    def _replaced_at_once(self, seat: int, card: str, ev: Event) -> list[Finding]:
        """The seat whose hole card was exposed gets its replacement at once, not after the deal.

        000 §2.4 and 003 (1) want the deal finished first and the replacement last, but no seat is passed
        over and nobody has seen a card it should not have: not the deal-order misdeal of 004 §4(2h)
        (004 §4(3) wants errors corrected where possible). The remedy was not followed (said once); the
        card is the seat's and the deal goes on in order from the seat that was next."""
        self._place_hole(seat, card, ev)
        self.replacement_due = None
        exposed = self.exposed_card
        if exposed is not None and self.zones.zone_of(exposed) == "burn" and exposed not in self.early_burns:
            # Already burned face up as the remedy asks; the alert below forgives the rest of the remedy
            # (Hand.accept_as_played), so that burn must count as the flop's burn like any early burn.
            self.early_burns.append(exposed)
        return [_f("CORRECTION_NOT_FOLLOWED", f"Seat {seat} got its replacement card at once; expected: the "
                                              f"deal finished first and the replacement dealt last "
                                              f"(000 §2.4); the deal goes on from seat "
                                              f"{self._next_in_order()}", seat=seat)]

    def _dealt_count(self) -> int:
        return len(self.deal_cards)

    def _deal_order(self, seat: int) -> list[Finding]:
        """Clockwise order within each round of the deal, every round from the first seat (001 §6, 000 §2.4).

        A card that passes over a seat, or goes back against the order, is out of order (001 §14(2)). A
        round that simply stops early leaves seats short: DEAL_SEAT_SKIPPED when the betting starts.
        """
        order = self.dealt_in
        p = order.index(seat)
        if not self.deal_cards:
            self.deal_pos = p
            if p != 0:
                return [_f("DEAL_WRONG_FIRST_SEAT", f"First hole card went to seat {seat}; the first seat "
                                                    f"left of the button (seat {self.record.button}) is seat "
                                                    f"{order[0]}", seat=seat)]
            return []
        if p <= self.deal_pos and self.deal_round + 1 < self.game.hole_cards:
            if self.deal_pos != len(order) - 1:
                # A new round before the last seat got its card: that seat was passed over.
                return [_f("DEAL_OUT_OF_ORDER", f"Hole card {len(self.deal_cards) + 1} went to seat "
                                                f"{seat}; seat "
                                                f"{order[self.deal_pos + 1]} was next in clockwise order",
                           seat=seat)]
            self.deal_round += 1  # back to the start: the next round begins
            self.deal_pos = -1
        if p > self.deal_pos:
            passed = order[self.deal_pos + 1:p]
            self.deal_pos = p
            if not passed:
                return []
            return [_f("DEAL_OUT_OF_ORDER", f"Hole card {len(self.deal_cards) + 1} went to seat {seat}; seat "
                                            f"{passed[0]} was next in clockwise order", seat=seat)]
        nxt = order[self.deal_pos + 1] if self.deal_pos + 1 < len(order) else order[0]
        return [_f("DEAL_OUT_OF_ORDER", f"Hole card {len(self.deal_cards) + 1} went to seat {seat}, back "
                                        f"against the clockwise order (seat {nxt} was next)", seat=seat)]

    def _flight_check(self, arriving: str) -> list[Finding]:
        """A card that left a seat during the deal must come back before the deal goes on (000 §2.4)."""
        self.in_flight.pop(arriving, None)
        return []

    def _off_table(self) -> list[Finding]:
        if not self.in_flight:
            return []
        card, seat = next(iter(self.in_flight.items()))
        self.in_flight.clear()
        return [_f("CARD_OFF_TABLE", f"Card {card} left seat {seat} during the deal and was not seen again "
                                     f"before the betting began", seat=seat, cards=[card])]

    def missing_noticed(self, seat: int) -> list[Finding]:
        """Another seat acts preflop, before two actions, while a live seat's hole card has left its reader
        and reached no zone: the card is missing, noticed before the action limit, a misdeal (004 §4(2i)
        with §4(1); 000 §2.4 says the same of a card leaving the table while dealing). Later, or on a
        later street, the hand goes on and CARD_MISSING is said at its end (004 §6(3)). Both cards gone
        is a hand thrown forward (ACTION_AFTER_FOLD), not a missing card; the seat's own action is not
        the moment (a player lifts a card to look at it before acting)."""
        if self.street_i != 0 or self.limit_reached():
            return []
        rec = self.record
        for card, zone in sorted(self.lost.items()):
            owner = _seat_of(zone)
            if owner is None or owner == seat or owner in rec.folded or owner in rec.dead:
                continue
            if owner in self.thrown:
                continue  # both cards off the reader: thrown forward, judged as such
            del self.lost[card]
            return [_f("CARD_MISSING", f"Card {card} left seat {owner} and was not seen again before two "
                                       f"actions: misdeal; count the cards before reshuffling (004 §4(2i))",
                       seat=owner, severity="misdeal",
                       remedy="Misdeal: count the cards, reshuffle and redeal; bets and button stay")]
        return []

    def _maybe_deal_complete(self, t: float, out: list[Finding]) -> None:
        if len(self.deal_cards) < len(self.deal_seq) or self.replacement_due is not None:
            return
        self._start_preflop(t, out)

    def _start_preflop(self, t: float, out: list[Finding]) -> None:
        """The deal is over (complete, or betting began): absent seats are dead, the blinds go in."""
        if not self.blinds_done:
            out += self._resolve_blinds()
        self.phase = BETTING
        self.street_i = 0
        r = self.record
        posts = self.forced_posts()
        for post in posts:
            if not post.live:  # antes and dead chips are dead money: in before the round, not a bet
                self.prev[post.seat] += post.amount
                self._add_record(t, post.seat, _RECORDED[post.kind], post.amount, post.amount)
        self.posted = self.expected_posts()
        for post in posts:
            if post.live and post.seat in self.holes:
                total = sum(p.amount for p in posts if p.live and p.seat == post.seat)
                self._add_record(t, post.seat, _RECORDED[post.kind], total, post.amount)
        self._sync_committed()
        fb = self._forced_bets()
        straddled = [s for s, _ in straddlers(fb, r.bb_seat, self.dealt_in) if s in self.posted]
        bb = straddled[-1] if straddled else r.bb_seat if r.bb_seat is not None else r.button
        first = self._first_after(bb)
        stacks = {s: r.starting_stacks[s] - self.prev[s] - self.posted.get(s, 0) for s in self.dealt_in}
        self.round = self.round_factory(street="preflop", seats=list(self.dealt_in), first_to_act=first,
                                        stacks=stacks, posted=dict(self.posted),
                                        bb=preflop_bet(fb),
                                        profile=self.profile, t=t, absent=tuple(sorted(self.absent)),
                                        **round_kwargs(self.level, self.profile, 0, sum(self.prev.values())))
        self.n_records = 0
        for seat in self.dealt_in:
            if seat in self.absent:
                r.dead.add(seat)
                out.append(_f("DEAD_HAND_ABSENT", f"Seat {seat} ({r.players.get(seat)}) was not seated when "
                                                  f"the deal completed; the hand is dead, its blinds stay in",
                              seat=seat))
                out += self.round.fold(seat, t, "dead hand: absent at the end of the deal")
        self.short = {s for s in self.dealt_in if self._hole_count(s) < self.game.hole_cards
                      and s not in r.dead}
        for seat in sorted(self.short):
            # 000 §2.4, 004 §4(2f): betting started with a seat short of cards.
            n = self._hole_count(seat)
            if not self.limit_reached():
                out.append(_f("DEAL_SEAT_SKIPPED", f"Betting began while seat {seat} holds {n} hole card(s)",
                              seat=seat))
                break
            r.dead.add(seat)
            out.append(_f("DEAL_SEAT_SKIPPED", f"Seat {seat} holds {n} hole card(s) after "
                                               f"{self.round.actions_taken} "
                                               f"actions; its hand is dead", seat=seat, severity="dead_hand"))
            out += self.round.fold(seat, t, "dead hand: too few cards")
        self.short.clear()
        out += self._after_round_change(t)

    def _first_after(self, seat: int) -> int:
        """First dealt-in seat clockwise after `seat` with chips behind (preflop: left of the BB)."""
        ring = sorted(self.dealt_in)
        after = [s for s in ring if s > seat] + [s for s in ring if s <= seat]
        starts = self.record.starting_stacks
        for s in after:
            if starts[s] - self.prev[s] - self.posted.get(s, 0) > 0:
                return s
        return after[0]

    def exposed_kept_at_seat(self, t: float) -> list[Finding]:
        """The flop's first card comes while the exposed hole card (HOLE_CARD_EXPOSED) still lies at its
        seat: the remedy's step "it leaves the seat as the first burn" never happened, and the seat keeps
        it. With its replacement too the seat plays three cards: a hand with the wrong number of cards is
        dead (000 §1.5), and found this late (the preflop action is over) that is the remedy 000 §2.4 and
        the DEAL_TOO_MANY_CARDS row give, not a misdeal. Without a replacement the exposed card is simply
        one of the seat's two and plays. Checked once per hand."""
        card, self.exposed_card = self.exposed_card, None  # from here a plain card wherever it lies
        zone = self.zones.zone_of(card) if card is not None else None
        seat = _seat_of(zone) if zone is not None else None
        if card is None or seat is None or seat not in self.holes or seat in self.record.folded:
            return []
        if len(self.holes[seat]) < self.game.hole_cards:
            self._exposed_plays(seat, card)  # no replacement came: the exposed card is one of its two
            return []
        self.must_leave.pop(card, None)
        self.record.dead.add(seat)
        self.record.folded.add(seat)
        out = [_f("DEAL_TOO_MANY_CARDS", f"Seat {seat} kept its exposed {card} besides its replacement: it "
                                         f"holds {len(self.holes[seat]) + 1} cards when the flop comes; its "
                                         f"hand is dead (000 §1.5)", seat=seat, cards=[card],
                  severity="dead_hand")]
        if len(self.live()) <= 1 and self.phase == DUE:
            out += self._end_betting(t, "fold")
        return out

    def _exposed_plays(self, seat: int, card: str) -> None:
        """The exposed card stays at its seat with no replacement: it is one of the seat's cards again."""
        self.must_leave.pop(card, None)
        self.must_burn = {s: c for s, c in self.must_burn.items() if c != card}
        self.holes[seat].append(card)
        self.record.hole.setdefault(seat, []).append(card)
        self.record.notes.append(f"exposed {card} never replaced: it plays for seat {seat}")

    def _still_preflop(self) -> bool:
        """Preflop, or an all-in on the blinds left nobody to act and the flop is due with nothing of it
        out yet (no knock, burn or board card): a card to the first seat now is still the deal's extra
        card, not one found after the betting (the core moves to the flop as the deal completes)."""
        return self.street_i == 0 or (self.deal_still_finishing() and not self.burns_now)

    def _extra_hole(self, seat: int, card: str, ev: Event) -> list[Finding]:
        """A hole card after the deal was complete (003 (3), 001 §14 4., 004 §4(4))."""
        self._place_hole(seat, card, ev)
        first = self.dealt_in[0] if self.dealt_in else None
        if self.street_i > 0 and self._still_preflop():
            self.event_street = "preflop"  # the deal's error, though the hand moved on to the flop
        # A late third card to the first seat (before the action limit) is still the one extra card of
        # 001 §14 (4.) / 003 (3): it goes back as the flop's burn; not a misdeal. 003 (3) and 004 §4(4)
        # keep the hand after the limit too (profile `late_extra_card_is_burn`).
        in_time = not self.limit_reached() or self.profile.late_extra_card_is_burn
        if seat == first and self.extra_first is None and in_time and self._still_preflop():
            self.extra_first = card
            self.holes[seat].remove(card)  # not part of the seat's hand: it is the next burn
            self.record.hole[seat].remove(card)
            self.must_leave[card] = f"seat{seat}"
            self.must_burn.setdefault("flop", card)
            return [_f("DEAL_EXTRA_CARD_FIRST_SEAT", f"Seat {seat} (first seat) received an extra card after "
                                                     f"the deal", seat=seat)]
        if self.limit_reached() or not self._still_preflop():
            self.record.dead.add(seat)
            out = [_f("DEAL_TOO_MANY_CARDS", f"Seat {seat} holds {len(self.holes[seat])} cards, found after "
                                             f"the betting was under way; its hand is dead", seat=seat,
                      severity="dead_hand")]
            if self.round is not None and not self.round.closed:
                out += self.round.fold(seat, ev.t, "dead hand: too many cards")
                out += self._after_round_change(ev.t)
            else:
                self.record.folded.add(seat)
            return out
        what = "a second extra card" if self.extra_first is not None else f"{len(self.holes[seat])} cards"
        return [_f("DEAL_TOO_MANY_CARDS", f"Seat {seat} received {what} before two actions", seat=seat)]

    def h_hole_betting(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        seat = _seat(ev)
        if seat in self.holes and card in self.holes[seat]:
            self.zones.put(card, f"seat{seat}", _uid(ev))
            self.lost.pop(card, None)
            self.in_flight.pop(card, None)
            self.thrown.pop(seat, None)
            return []
        thrower = next((s for s, cs in self.holes.items() if s != seat and card in cs), None)
        if thrower is not None:
            return self._thrown_onto(thrower, seat, card, ev)
        dup = self._dup(card, f"seat{seat}", ev)
        if dup:
            return dup
        if seat in self.short and seat in self.holes:
            self._place_hole(seat, card, ev)
            if self._hole_count(seat) >= self.game.hole_cards:
                self.short.discard(seat)
            return []
        if seat not in self.holes:
            self.zones.put(card, f"seat{seat}", _uid(ev))
            return [_f("DEAL_EMPTY_SEAT", f"Card dealt to seat {seat}, which is not in this hand", seat=seat,
                       severity="error")]
        if seat in self.record.folded or seat in self.record.dead:
            self.zones.put(card, f"seat{seat}", _uid(ev))
            return []
        if self.replacement_due == seat and ((self.phase == BETTING and self.street_i == 0)
                                             or self.deal_still_finishing()):
            self._place_hole(seat, card, ev)
            self.replacement_due = None
            return []
        return self._extra_hole(seat, card, ev)

    def _thrown_onto(self, thrower: int, seat: int, card: str, ev: Event) -> list[Finding]:
        """001 §13 (e): a hole card of `thrower` lands on seat `seat`'s cards: the thrower's hand is dead;
        the readers still tell the two hands apart, so `seat` plays on."""
        self.lost.pop(card, None)
        self.zones.put(card, f"seat{seat}", _uid(ev))
        rec = self.record
        if thrower in rec.folded or thrower in rec.dead:
            return []
        rec.dead.add(thrower)
        out = [_f("HOLE_CARD_IN_MUCK", f"Seat {thrower} threw its cards onto seat {seat}'s; seat {thrower}'s "
                                       f"hand is dead (001 §13 (e)), seat {seat} plays on", seat=thrower)]
        rnd = self.round
        if rnd is not None and self.phase == BETTING:
            out += rnd.fold(thrower, ev.t, "dead hand: cards thrown onto another hand")
            out += self._after_round_change(ev.t)
        else:
            rec.folded.add(thrower)
        return out

    # --- exposed cards ----------------------------------------------------------------------------
    def h_exposed(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        zone = getattr(ev, "zone", "")
        where = self.zones.where.get(card)  # `_camera_check` only when the readers place it elsewhere
        if where is not None and where != zone and zone != "deck":
            return self._camera_check(zone, card)
        if zone == "deck":
            return self._boxed(card)
        if zone == "burn":
            if card in self.must_burn.values() or (self.fix and self.fix.moved == card):
                return []  # burned face up on purpose (a correction)
            return [_f("BURN_EXPOSED", f"Burn card {card} seen face up; it stays burned face up",
                       cards=[card])]
        seat = _seat_of(zone)
        past = self._shown_past_short_call(seat, ev, card)
        if past is not None:
            return past
        if seat is not None and (self.phase == DEAL or (
                self.phase == BETTING and self.street_i == 0 and self.round is not None
                and self.round.actions_taken == 0 and card in self.deal_cards) or (
                self.street_i > 0 and self._still_preflop() and self._deal_exposure_at_runout(card))):
            # still part of the deal: the last card, seen at once (also when an all-in on the blinds
            # left nobody to act and the hand moved on to the flop as the deal completed)
            if self.street_i > 0:
                self.event_street = "preflop"  # the deal's error, though the hand is at the flop
            return self._exposed_hole(seat, card)
        if seat is not None and self.phase in (SHOWDOWN, ENDED):
            shown = self.record.shown.setdefault(seat, [])
            if card not in shown:
                shown.append(card)
            return self.showdown.on_card(ev, card) if self.showdown is not None else []
        if seat is not None and self.phase == DUE and self.runout and card in self.holes.get(seat, ()):
            # all-in and the betting over: the hands are turned up before the board is out (TDA 2024
            # Rule 16; 001 §10 in our reading): that is showing them for the showdown
            shown = self.record.shown.setdefault(seat, [])
            if card not in shown:
                shown.append(card)
            return []
        if seat is not None and self.phase in (BETTING, DUE) and card in self.holes.get(seat, ()):
            self.shown_early.add(seat)  # 000 §4.1: showed a card at the wrong time: passive, not dead
            # ... and the card lies face up: at the showdown it is shown (an all-in player turning his
            # hand up before the action is over is not asked to show it again)
            shown = self.record.shown.setdefault(seat, [])
            if card not in shown:
                shown.append(card)
            if self.round is not None and hasattr(self.round, "show_card"):
                self.round.show_card(seat)
        return []

    def _deal_exposure_at_runout(self, card: str) -> bool:
        """An all-in on the blinds left nobody to act: a card seen face up before the flop is still the
        deal's error only when it is the deal's last card, seen at once, before any hand was turned up.
        Any other card is a player turning his hand for the all-in showdown (TDA 2024 Rule 16; the first
        two cards of the deal were dealt long before, an exposure then would have been seen then)."""
        return bool(self.deal_cards) and card == self.deal_cards[-1] and not self.record.shown

    def _shown_past_short_call(self, seat: int | None, ev: Event, card: str) -> list[Finding] | None:
        """The last street's round is open only for a short call (CALL_SHORT) nobody completed, and a
        player shows a hole card: the table went to the showdown, so the call stands as placed (as at the
        knock, 000 §2.8 and §3.1 in our reading) and the card is a showdown card. None when not so."""
        rnd = self.round
        if (seat is None or self.phase != BETTING or rnd is None
                or self.street_i != len(self.game.streets) - 1 or card not in self.holes.get(seat, ())):
            return None
        out = rnd.short_call_passed("the hands were shown", ev.t)
        if out is None:
            return None
        out += self._after_round_change(ev.t)
        return out + self.handle_in_phase("exposed", ev, card)

    def _camera_check(self, zone: str, card: str) -> list[Finding]:
        where = self.zones.zone_of(card)
        if where is None or where == zone or zone == "deck":
            return []
        return [_f("CAMERA_RFID_MISMATCH", f"Camera sees {card} face up in zone {zone}; the readers place it "
                                            f"in zone {where}", cards=[card])]

    def _boxed(self, card: str) -> list[Finding]:
        self.boxed.add(card)
        if self.phase == DEAL:
            self.exposures += 1
            if self.exposures >= 2:
                return [_f("HOLE_CARDS_EXPOSED_MULTIPLE", f"Card {card} found face up in the stub during the "
                                                          f"deal; {self.exposures} cards exposed",
                           cards=[card])]
        if self.profile.boxed_board_card_plays:
            return [_f("BOXED_CARD", f"Card {card} found face up in the stub: valid if it comes as a flop, "
                                     f"turn or river card (000 §2.5-§2.7); otherwise take it out of play",
                       cards=[card], remedy="A flop, turn or river card face up in the stub is valid and "
                                            "dealt (000 §2.5-§2.7); any other boxed card is taken out "
                                            "of play (004 §5)")]
        return [_f("BOXED_CARD", f"Card {card} found face up in the stub; take it out of play", cards=[card])]

    def _exposed_hole(self, seat: int, card: str) -> list[Finding]:
        self.exposures += 1
        if self.exposures >= 2:
            return [_f("HOLE_CARDS_EXPOSED_MULTIPLE", f"A second card ({card}, seat {seat}) exposed "
                                                      f"during the "
                                                      f"deal", seat=seat, cards=[card])]
        idx = self.deal_cards.index(card) if card in self.deal_cards else len(self.deal_cards)
        if idx < 2:
            return [_f("HOLE_CARD_EXPOSED_FIRST", f"Card {card} to seat {seat} was exposed as card {idx + 1} "
                                                  f"of the deal", seat=seat, cards=[card])]
        self.exposed_card = card
        self.replacement_due = seat
        self.must_leave[card] = f"seat{seat}"
        self.must_burn["flop"] = card
        self.skip_burn.add("flop")
        self.holes[seat] = [c for c in self.holes[seat] if c != card]
        self.record.hole[seat] = [c for c in self.record.hole.get(seat, []) if c != card]
        return [_f("HOLE_CARD_EXPOSED", f"Hole card {card} of seat {seat} exposed by the dealer during "
                                        f"the deal",
                   seat=seat, cards=[card],
                   remedy=f"Finish the deal; seat {seat} gets the next card last; {card} is the first burn, "
                          f"burned face up; no other burn before the flop")]

    # --- betting -----------------------------------------------------------------------------------
    def h_action_deal(self, ev: Event, card: str | None) -> list[Finding]:
        """Betting starts before the deal completed (000 §2.4, 004 §4(2f))."""
        out = self._off_table()
        if out:
            return out
        if self.replacement_due is not None:
            seat, card = self.replacement_due, self.exposed_card
            out.append(_f("CORRECTION_NOT_FOLLOWED", f"Betting began before seat {seat} got "
                                                     f"its replacement card; expected: the replacement card "
                                                     f"dealt last", seat=seat))
            self.replacement_due = None
            if card is not None and self.zones.zone_of(card) == f"seat{seat}":
                self._exposed_plays(seat, card)  # still at the seat: it holds its two cards
                self.exposed_card = None
        self._start_preflop(ev.t, out)
        if any(_severity(f) == "misdeal" for f in out):
            return out  # the hand is void; the action does not count
        if self.phase == BETTING:
            out += self.h_action(ev, card)
        return out


def _ante_mode(mode: str) -> AnteMode:
    """The level's ante mode (validated where the level event is read)."""
    return "bb" if mode == "bb" else "button" if mode == "button" else "each"
