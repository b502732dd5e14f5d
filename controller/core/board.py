"""Knock, burn and board cards of each street, and the corrections the profile prescribes (section B)."""

from __future__ import annotations

from controller.core.alerts import Finding
from controller.core.events import ActionEvent, Event
from controller.core.handbase import BETTING, DUE, Fix, HandBase, _f

# In an all-in runout nobody can act on the flop, so "before any flop action" (catalogue, 000 §2.5) lasts
# until the turn's knock. A card that follows the flop within this many seconds with neither knock nor
# burn is taken as a fourth flop card dealt in the same motion, not as a turn dealt without a burn.
FLOP_MOTION_S = 2.0


class BoardPart(HandBase):
    """Handlers for the burn and board zones between and during the betting rounds."""

    # --- knock, burn, board ------------------------------------------------------------------------
    def _knock_check(self, card: str, what: str) -> list[Finding]:
        out: list[Finding] = []
        if self.knock_flagged:
            return out
        self.knock_flagged = True
        if not self.knocked:
            out.append(_f("KNOCK_MISSING", f"{what} {card} came with no knock after the "
                                           f"{self._prev_street()} "
                                           f"betting closed", cards=[card]))
        elif self.knock_t is not None and self.t - self.knock_t < self.profile.knock_pause_s:
            out.append(_f("KNOCK_PAUSE_SHORT", f"{what} {card} came {self.t - self.knock_t:.2f} s after the "
                                               f"knock (pause {self.profile.knock_pause_s:.1f} s)",
                          cards=[card]))
        return out

    def _prev_street(self) -> str:
        return self.game.streets[self.street_i - 1] if self.street_i > 0 else "preflop"

    def h_burn_due(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        out = self._arrive(card, "burn", ev)
        if out:
            return out
        s = self.street
        if self.fix is not None and self.fix.moved == card:
            return out
        if self.must_burn.get(s) == card:
            self.burns_now.append(card)  # the expected burn (exposed or extra card)
            if card == self.exposed_card and self.deal_still_finishing():
                return out  # the deal's correction, before the flop's knock

            if card == self.flop_fix_burn:
                self.flop_fix_burn = None
                return out  # still the flop's correction: the turn's knock comes after it
            return out + self._knock_check(card, "Burn card")
        out += self._knock_check(card, "Burn card")
        if s in self.skip_burn:
            out.append(_f("CORRECTION_NOT_FOLLOWED", f"Burn card {card} before the {s}; expected: no burn "
                                                     f"before the {s} ({self._skip_reason(s)})",
                          cards=[card]))
            self.skip_burn.discard(s)
            self.burns_now.append(card)
            return out
        if s in self.must_burn and self.zones.zone_of(self.must_burn[s]) != "burn":
            want = self.must_burn.pop(s)
            out.append(_f("CORRECTION_NOT_FOLLOWED", f"Burn card {card} before the {s}; expected: {want} as "
                                                     f"the burn card", cards=[card]))
        self.burns_now.append(card)
        if len(self.burns_now) == 2 and s in self.makeup_burn:
            self.makeup_burn.discard(s)  # the burn the stood street missed: the cards come as they would have
            return out
        if len(self.burns_now) == 2:
            self.burn_fix_back = "pending"
            out.append(_f("BURN_EXTRA", f"Second burn card {card} before the {s} (first: "
                                        f"{self.burns_now[0]})",
                          cards=list(self.burns_now)))
        return out

    def _flop_completed_first(self, fix: Fix, card: str, actions_taken: int) -> bool:
        """A flop dealt without a burn, put right in the other order: the card that completes the flop came
        before the first flop card went to the burns (003 (5), 004 §8(2)). Either order puts the flop
        right, so the card is taken and the correction stays open for the move (True)."""
        if not (fix.kind == "to_burn" and fix.street == self.street == "flop" and fix.moved is None
                and fix.early_card is None and actions_taken == 0):
            return False
        fix.early_card = card
        self.record.board.append(card)
        self.board_now.append(card)
        return True

    def board_reread(self, card: str) -> bool:
        """The reader reports a board card again where it already lies (no `card_gone` between): the same
        card, not a new one. Taken as new, the board held it twice and the showdown could not rank the
        hands (f_turn_card_read_twice)."""
        return card in self.record.board and self.zones.zone_of(card) == "board"

    def made_up_burn_allowed(self, street: str) -> None:
        """A street dealt without a burn stood: under 003 (6) the next street may burn two cards, so its
        card is the one it would have been; that second burn is not BURN_EXTRA."""
        i = self.game.streets.index(street) + 1 if street in self.game.streets else len(self.game.streets)
        if self.profile.missed_burn_made_up and i < len(self.game.streets):
            self.makeup_burn.add(self.game.streets[i])

    def _skip_reason(self, s: str) -> str:
        if self.must_burn.get(s) and self.must_burn[s] == self.exposed_card:
            return f"the exposed {self.exposed_card} is the first burn"
        return "correction of an earlier error"

    def _passed_over_at_knock(self, kind: str, ev: Event, card: str | None) -> list[Finding] | None:
        """The dealer knocked and turns a card while the seat to act, which a later seat already acted
        past, stayed silent: 000 §2.8 gives it until the knock, so it has lost its turn (folded facing a
        bet, else checked). If that completes the round, the knock was the street's knock and the card
        belongs to the next street: 000 §2.5-§2.7 call a card premature when it comes without the knock.
        None when the rule does not apply (no knock, or someone acted since it)."""
        knock, self.early_knock = self.early_knock, None
        rnd = self.round
        if knock is None or rnd is None or len(rnd.records) != knock[1]:
            return None
        out = rnd.passed_over_at_knock(ev.t)
        if out is None:
            return None
        out += self._after_round_change(ev.t)
        if self.phase == DUE:
            self.knocked, self.knock_t = True, knock[0]
        return out + self.handle_in_phase(kind, ev, card)

    def h_burn_betting(self, ev: Event, card: str | None) -> list[Finding]:
        """A burn while the round is open: kept; it counts for the next street (003 (7))."""
        assert card is not None
        past = self._passed_over_at_knock("burn", ev, card)
        if past is not None:
            return past
        out = self._arrive(card, "burn", ev)
        if out:
            return out
        fix = self.fix
        if fix is not None and fix.kind == "to_burn" and card in fix.cards:
            fix.moved = card
            if fix.early_card is not None:  # the flop's new card is already out: the flop is right again
                self.fix = None
                self.record.burns.append(card)
            return out
        if card in self.must_burn.values():
            return out
        self.early_burns.append(card)
        return out

    def h_board_due(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        if self.board_reread(card):
            return []
        out = self._arrive(card, "board", ev)
        if out:
            return out
        return self.h_board_due_placed(card, ev)

    def h_board_due_placed(self, card: str, ev: Event) -> list[Finding]:
        """A board card of the street due, already placed in the board zone."""
        fix = self.fix
        if fix is not None and fix.kind == "to_burn" and fix.moved is not None and fix.street != self.street:
            return self._runout_replacement(fix, card, ev.t)
        if self._flop_stood_in_runout(fix):
            return self._flop_stands(fix, card) + self.h_board_due_placed(card, ev)
        kept = self.kept_premature(ev.t, exclude=card)
        out: list[Finding] = kept or []
        if kept is not None and self.phase != DUE:
            return out + self.h_board_betting(ev, card)  # the kept cards opened their street
        if self.fix is not None and self.fix.kind == "scramble" and card in self.fix.cards:
            return self._scramble_back(card, ev.t)
        if self._fourth_flop_card_in_runout(ev.t):
            return self._runout_too_many_flop(card)
        s = self.street
        if self.exposed_card is not None and s == "flop" and not self.board_now and self.phase == DUE:
            out += self.exposed_kept_at_seat(ev.t)  # the exposed hole card's last moment to leave
            if self.phase != DUE:
                return out  # that dead hand left one player: the hand is over
        self._extra_burn_restored(card)
        out += self._owed_before_board(card)
        out += self._knock_check(card, "Board card")
        if self.burn_fix_back == "pending":
            self.burn_fix_back = None
            out.append(_f("CORRECTION_NOT_FOLLOWED", f"Board card {card} dealt with two burn cards out; "
                                                     f"expected: one burn card back on top of the stub "
                                                     f"first", cards=[card]))
        if self.forbid.get(s) == card:
            out.append(_f("CORRECTION_NOT_FOLLOWED", f"The set-aside card {card} was dealt as the {s}; "
                                                     f"expected: the card that would have been the river",
                          cards=[card]))
        self.forbid.pop(s, None)
        if not self.board_now:
            out += self._burn_missing(card, s)
            self.skip_burn.discard(s)
            early = self.must_burn.pop(s, None)
            if early is not None and self.zones.zone_of(early) == "burn" and early not in self.burns_now:
                self.burns_now.insert(0, early)  # burned before the street was due (exposed/extra card)
        elif self.fix is not None and self.fix.street == s and self.fix.moved is None:
            self.fix.cards.add(card)  # any flop card may be the one corrected
        self.board_now.append(card)
        self.record.board.append(card)
        if len(self.board_now) >= self.game.board_cards[s]:
            self.street_done_t = ev.t
            for b in self.burns_now:
                if b not in self.record.burns:
                    self.record.burns.append(b)
            out += self._open_street(ev.t)
        return out

    def _extra_burn_restored(self, card: str) -> None:
        """BURN_EXTRA: the burn that went back on the stub is dealt as this street's board card. That puts
        the cards right (003 (5), (6); 004 §8(2)): the board is what it would have been, so that card is
        no longer owed as the next street's burn (before, that burn was a CORRECTION_NOT_FOLLOWED)."""
        nxt = self.street_i + 1
        if nxt < len(self.game.streets) and self.must_burn.get(self.game.streets[nxt]) == card:
            del self.must_burn[self.game.streets[nxt]]

    def _flop_stood_in_runout(self, fix: Fix | None) -> bool:
        """All-in runout, a four-card flop to be recalled (this profile's remedy, or nothing owed once the
        floor accepted the table): the extra card came off and the three others still lie there when
        the next card comes, so the flop stands."""
        if fix is not None and (fix.kind != "recall" or fix.code != "FLOP_TOO_MANY_CARDS"):
            return False
        return (self.runout and self.street == "flop" and len(self.board_now) == self.game.board_cards["flop"]
                and (fix is None or set(self.board_now) <= fix.cards)
                and all(self.zones.zone_of(c) == "board" for c in self.board_now))

    def _flop_stands(self, fix: Fix | None, card: str) -> list[Finding]:
        """Said once (unless the floor accepted it); the flop is the three cards on the board and this card
        belongs to the turn (its knock and burn, already seen, count for it)."""
        self.fix = None
        self.street_i += 1
        self.event_street = self.street  # this card's alerts belong to the turn
        self.board_now = []
        if fix is None:
            return []
        return [_f("CORRECTION_NOT_FOLLOWED", f"Board card {card} dealt while {fix.code} is open; expected: "
                                              f"{fix.expect}", cards=[card])]

    def _runout_replacement(self, fix: Fix, card: str, t: float) -> list[Finding]:
        """All-in runout: the street dealt without a burn was corrected (its card burned face up) after
        the engine had moved on: this card replaces it; the next street is still due."""
        self.fix = None
        out: list[Finding] = []
        if self.zones.zone_of(fix.moved or "") != "burn":
            out.append(_f("CORRECTION_NOT_FOLLOWED", f"New {fix.street} card {card} dealt before {fix.moved} "
                                                     f"was burned face up", cards=[card]))
        self.record.board.append(card)
        if fix.moved is not None and fix.moved not in self.record.burns:
            self.record.burns.append(fix.moved)
        self.street_done_t = t
        self.knocked = False  # the next street's knock is still to come
        return out

    def moved_on_to_premature(self, ev: Event, card: str | None) -> list[Finding] | None:
        """A seat with nothing left to do in the open round acts while the next street's cards, dealt
        early, lie complete on the board: its action can only belong to that street, so the table
        has kept the premature cards and begun the street. The seats still owing this round lost their
        turn (000 §2.8, as at the knock); the kept cards are then said once (`kept_premature`) and the
        action opens the street. None when this is not that case (the round goes on as usual)."""
        rnd, nxt = self.round, self.premature_street
        if rnd is None or nxt is None or not isinstance(ev, ActionEvent) or not rnd.idle(ev.seat):
            return None
        said_again = ev.amount is not None and ev.amount <= rnd.committed.get(ev.seat, 0)
        if ev.action in ("call", "allin") and said_again:
            return None  # the call it made in this round, said again (a console confirmation): no new street
        if self.street_i + 1 >= len(self.game.streets) or self.game.streets[self.street_i + 1] != nxt:
            return None
        lying = [c for c in self.premature if self.zones.zone_of(c) == "board"]
        if len(lying) < self.game.board_cards.get(nxt, 1):
            return None  # not the whole street on the board: the remedy may still be under way
        out = rnd.table_moved_on(ev.t)
        self.late_checkers = {f.seat: self.street_i + 1 for f in out if f.code == "PLAYER_SKIPPED"
                              and f.seat is not None and f.seat not in rnd.folded}
        out += self._after_round_change(ev.t)
        return out + self.handle_in_phase("action", ev, card)

    def late_check(self, ev: Event) -> bool:
        """A seat counted as checked when the table moved on (above) says "check" facing the new
        street's bet: that is the check it owed on the last street, said late. Already counted, so
        nothing is applied and the seat still owes its action here (no BAD_EVENT for a check facing
        a bet). Any other action from it ends the allowance."""
        seat = getattr(ev, "seat", None)
        if seat is None or seat not in self.late_checkers:
            return False
        on_street = self.late_checkers.pop(seat) == self.street_i
        rnd = self.round
        if not on_street or not isinstance(ev, ActionEvent) or ev.action != "check" or rnd is None:
            return False
        if rnd.committed.get(seat, 0) >= rnd.current_bet:
            return False  # it may check here: that is its action on this street
        last = self.game.streets[self.street_i - 1]
        self.record.notes.append(f"seat {seat}'s late check belongs to the {last}")
        return True

    def kept_premature(self, t: float, exclude: str | None = None) -> list[Finding] | None:
        """Premature cards of the street now due still lie on the board: the dealer kept them as that
        street's cards instead of the remedy. Said once; they are the street (000 §2.6's remedy not
        applied, the board as it lies decides)."""
        s = self.street
        if self.premature_street != s or not self.premature:
            return None
        lying = [c for c in self.premature if c != exclude and self.zones.zone_of(c) == "board"]
        if not lying or self.board_now:
            return None
        owed = any(self.must_leave.get(c) == "board" for c in lying)  # not after a floor ruling
        out = [_f("CORRECTION_NOT_FOLLOWED", f"{s.capitalize()} card(s) {' '.join(lying)} dealt early were "
                                             f"kept on the board; expected: taken back (remedy of the "
                                             f"premature {s})", cards=lying)] if owed else []
        carried = list(self.burns_now)  # burned after the kept cards: they belong to the next street
        self.burns_now = list(self.early_burns_kept)
        self.accept_as_played()
        for c in lying:
            self.board_now.append(c)
            self.record.board.append(c)
        for b in self.burns_now:
            if b not in self.record.burns:
                self.record.burns.append(b)
        self.street_done_t = t
        out += self._open_street(t)
        if self.phase == DUE:
            self.burns_now = carried
            self.knocked = self.knocked or bool(carried)
        return out

    def _fourth_flop_card_in_runout(self, t: float) -> bool:
        return (self.runout and self.street == "turn" and not self.knocked and not self.burns_now
                and not self.board_now and self.fix is None and len(self.record.board) == 3
                and self.street_done_t is not None and t - self.street_done_t <= FLOP_MOTION_S)

    def _runout_too_many_flop(self, card: str) -> list[Finding]:
        """Back to the flop for the four-card-flop correction; a flop that stands moves on again."""
        self.street_i -= 1
        self.event_street = "flop"  # the alert belongs to the flop, not the turn the hand had moved on to
        self.board_now = list(self.record.board)
        out = self._too_many_flop(card)
        if self.fix is not None and self.fix.kind == "extra_off":
            self.street_i += 1  # the three flop cards stand; the extra card becomes the turn's burn
            self.board_now = []
            if self.profile.four_card_flop == "fourth_is_exposed_burn":
                self.flop_fix_burn = card  # burned face up now, as part of the flop's correction
        return out

    def _scramble_back(self, card: str, t: float) -> list[Finding]:
        """TDA four-card flop: three of the scrambled cards come back as the flop."""
        fix = self.fix
        assert fix is not None
        self.record.board.append(card)
        if self.phase == DUE:  # all-in runout: no flop round is open
            self.board_now.append(card)
        if len(self.record.board) < self.game.board_cards["flop"]:
            return []
        rest = sorted(fix.cards - set(self.record.board))
        self.fix = None
        if len(rest) == 1:
            self.must_burn["turn"] = rest[0]  # the card the floor drew (TDA): the turn's burn
        if self.phase == DUE:
            self.street_done_t = t
            return self._open_street(t)
        return []

    def _burn_missing(self, card: str, s: str) -> list[Finding]:
        if self.burns_now or s in self.skip_burn:
            if s in self.must_burn and self.zones.zone_of(self.must_burn[s]) != "burn":
                want = self.must_burn[s]
                return [_f("CORRECTION_NOT_FOLLOWED", f"{s.capitalize()} dealt before {want} was burned face "
                                                      f"up; expected: {want} as the burn card", cards=[want])]
            return []
        if s in self.must_burn and self.zones.zone_of(self.must_burn[s]) == "burn":
            return []
        code = {"flop": "BURN_MISSING_FLOP", "turn": "BURN_MISSING_TURN", "river": "BURN_MISSING_RIVER"}[s]
        if s == "flop":
            how = self.profile.flop_no_burn
            if how in ("recall_reshuffle_redeal", "reshuffle_stub_redeal"):
                self.fix = Fix(code=code, street=s, kind="recall", redeal_burn=True,
                               expect="recall the flop, reshuffle, cut and deal a new flop after a burn")
            else:
                self.fix = Fix(code=code, street=s, kind="to_burn",
                               expect="the first flop card becomes the burn and the next card completes "
                                      "the flop")
            self.fix.cards = {card}
            return [_f(code, f"Flop card {card} dealt with no burn card", cards=[card],
                       remedy=_flop_remedy(how))]
        self.fix = Fix(code=code, street=s, kind="to_burn", cards={card},
                       expect=f"{card} becomes a face-up burn and the next card is the {s}")
        return [_f(code, f"{s.capitalize()} card {card} dealt with no burn card", cards=[card],
                   remedy=f"Burn {card} face up and deal a new {s}; no correction after two actions")]

    def _owed_before_board(self, card: str) -> list[Finding]:
        """Cards that had to leave a zone before this board card (premature cards, exposed card)."""
        out: list[Finding] = []
        for c, zone in sorted(self.must_leave.items()) if self.must_leave else ():
            if self.zones.zone_of(c) == zone:
                out.append(_f("CORRECTION_NOT_FOLLOWED", f"Board card {card} dealt while {c} is still in "
                                                         f"zone "
                                                         f"{zone}; expected: {c} taken out of {zone} first",
                              cards=[c] if not zone.startswith("seat") or c == self.exposed_card else []))
        self.must_leave.clear()
        return out

    def h_board_betting(self, ev: Event, card: str | None) -> list[Finding]:
        """A board card while a round is open: a correction's new card, a 4-card flop or a premature card."""
        assert card is not None
        if self.board_reread(card):
            return []
        past = self._passed_over_at_knock("board", ev, card)
        if past is not None:
            return past
        out = self._arrive(card, "board", ev)
        if out:
            return out
        rnd = self.round
        assert rnd is not None
        s = self.street
        fix = self.fix
        if fix is not None and fix.kind == "to_burn" and fix.moved is not None:
            if self.zones.zone_of(fix.moved) != "burn":
                out.append(_f("CORRECTION_NOT_FOLLOWED", f"New {s} card {card} dealt before {fix.moved} was "
                                                         f"burned face up", cards=[card]))
            self.fix = None
            self.record.board.append(card)
            self.record.burns.append(fix.moved)
            return out
        if fix is not None and fix.kind == "scramble" and card in fix.cards:
            return out + self._scramble_back(card, ev.t)
        if s == "flop" and rnd.actions_taken == 0 and self.zones.cards_in("board") == [card]:
            # Every flop card was taken back and a new flop is coming: the dealer redeals the flop.
            # Not this profile's remedy (else it would be a recall): said once, then followed.
            if fix is not None and fix.kind != "recall":
                out.append(_f("CORRECTION_NOT_FOLLOWED", f"The flop was taken back and a new flop dealt; "
                                                         f"expected: {fix.expect}", cards=[card]))
            self.record.notes.append(f"flop taken back and redealt from {card}")
            self.must_burn.pop("turn", None)
            for gone in [c for c, z in self.lost.items() if z == "board"]:
                del self.lost[gone]  # the old flop went back into the stub
            self._redeal_flop(fix or Fix(code="", street="flop", kind="recall"))
            return out + self.h_board_due_placed(card, ev)
        if (fix is not None and fix.code == "FLOP_TOO_MANY_CARDS" and s == "flop" and rnd.actions_taken == 0
                and fix.moved is None and len(self.board_now) >= 4):
            self.fix = None  # a fifth (sixth …) flop card: the same error, now under the 5+ reading
            self.skip_burn.discard("turn")
            return out + self._too_many_flop(card)
        if fix is not None and self._flop_completed_first(fix, card, rnd.actions_taken):
            return out
        if fix is not None:
            self.fix = None
            out.append(_f("CORRECTION_NOT_FOLLOWED", f"Board card {card} dealt while {fix.code} is open; "
                                                     f"expected: {fix.expect}", cards=[card]))
            self.record.board.append(card)
            return out
        if self.premature_street is not None and len(self.premature) < self.game.board_cards.get(
                self.premature_street, 1):
            self.premature.append(card)
            self.must_leave[card] = "board"
            return out
        if s == "flop" and rnd.actions_taken == 0 and len(self.board_now) >= 3:
            return out + self._too_many_flop(card)
        return out + self._premature(card)

    def _too_many_flop(self, card: str) -> list[Finding]:
        self.board_now.append(card)
        n = len(self.board_now)
        how = self.profile.four_card_flop if n == 4 else self.profile.five_plus_flop
        self.record.board.append(card)
        flop = list(self.board_now)
        out = [_f("FLOP_TOO_MANY_CARDS", f"Flop has {n} cards ({' '.join(flop)}) before any flop action",
                  cards=flop, remedy=_flop_remedy(how))] if n == 4 else []
        if n == 5 and how != self.profile.four_card_flop and _flop_remedy(how) != _flop_remedy(
                self.profile.four_card_flop):
            # The dealer was told the four-card remedy; a fifth card changes it (003 (4): five or more
            # cards are reshuffled), so the table must hear the new one. Profiles whose remedy stays the
            # same say nothing more.
            out = [_f("FLOP_TOO_MANY_CARDS", (
                f"Flop now has {n} cards ({' '.join(flop)}) before any flop action: the remedy for four "
                f"cards no longer applies"), cards=flop,
                remedy=f"{_flop_remedy(how)}; five or more flop cards (003 (4))")]
        if how in ("recall_reshuffle_redeal", "reshuffle_stub_redeal", "correct_or_reshuffle"):
            self.fix = Fix(code="FLOP_TOO_MANY_CARDS", street="flop", kind="recall", cards=set(flop),
                           expect="recall the flop (not the burn), reshuffle, deal a new flop without a burn")
        elif how == "fourth_is_exposed_burn":
            self.fix = Fix(code="FLOP_TOO_MANY_CARDS", street="flop", kind="extra_off", cards=set(flop[3:]),
                           expect=f"{card} becomes a face-up burn")
            self.skip_burn.add("turn")
        elif how == "extra_is_next_burn":
            extra = " ".join(flop[3:])
            self.fix = Fix(code="FLOP_TOO_MANY_CARDS", street="flop", kind="extra_off", cards=set(flop[3:]),
                           expect=f"{extra} back on the stub as the next burn")
        else:
            self.fix = Fix(code="FLOP_TOO_MANY_CARDS", street="flop", kind="scramble", cards=set(flop),
                           expect="scramble the cards face down; the floor draws the next burn, the other "
                                  "three are the flop")
        return out

    def _premature(self, card: str) -> list[Finding]:
        s = self.street
        nxt_i = self.street_i + 1
        if nxt_i >= len(self.game.streets):
            self.record.notes.append(f"card {card} turned during the river betting")
            return [_f("RABBIT_HUNT", f"Card {card} turned during the river betting; the board is complete",
                       cards=[card])]
        nxt = self.game.streets[nxt_i]
        self.premature_street = nxt
        self.premature = [card]
        self.must_leave[card] = "board"
        pending = self.to_act_text()
        if nxt == "flop":
            self.skip_burn.add("flop")
            return [_f("FLOP_PREMATURE", f"Flop card {card} dealt before preflop betting closed ({pending})",
                       cards=[card])]
        if nxt == "turn" and self.profile.premature_turn == "reshuffle":
            return [_f("TURN_PREMATURE", f"Turn card {card} dealt before {s} betting closed ({pending})",
                       cards=[card],
                       remedy=f"Shuffle {card} back into the stub; finish the {s} betting; knock, burn and "
                              f"deal the turn anew (004 §8(4))")]
        if nxt == "turn":
            self.forbid["turn"] = card
            self.skip_burn.add("river")
            # 003 (9): a burn, then the would-be river as the turn. A turn owed no burn (003 (4): the fourth
            # flop card was its burn) had it already: the early card used that up, the correction burns.
            self.skip_burn.discard("turn")
            return [_f("TURN_PREMATURE", f"Turn card {card} dealt before {s} betting closed ({pending})",
                       cards=[card],
                       remedy=f"Set {card} aside; finish the {s} betting; burn; the next card is the turn; "
                              f"shuffle {card} back into the stub before the river; deal the river without "
                              f"a burn")]
        self.skip_burn.add("river")
        return [_f("RIVER_PREMATURE", f"River card {card} dealt before {s} betting closed ({pending})",
                   cards=[card],
                   remedy=f"Finish the {s} betting; shuffle {card} back into the stub, cut; deal a new river "
                          f"without a burn")]

    def h_board_deal(self, ev: Event, card: str | None) -> list[Finding]:
        """A board card during the deal: a premature flop."""
        assert card is not None
        out = self._arrive(card, "board", ev)
        if out:
            return out
        if self.premature_street == "flop" and len(self.premature) < 3:
            self.premature.append(card)
            self.must_leave[card] = "board"
            return out
        return self._premature(card)

    def h_burn_deal(self, ev: Event, card: str | None) -> list[Finding]:
        assert card is not None
        out = self._arrive(card, "burn", ev)
        if out or card in self.must_burn.values():
            return out
        self.early_burns.append(card)
        return out

    def _board_gone(self, card: str) -> list[Finding]:
        rec = self.record
        if card in rec.board:
            rec.board.remove(card)
        if card in self.board_now:
            self.board_now.remove(card)
        if self.must_leave.get(card) == "board":
            del self.must_leave[card]
            return []
        fix = self.fix
        if fix is None or card not in fix.cards:
            if self.phase in (BETTING, DUE):
                self.lost[card] = "board"
            return []
        if fix.kind == "to_burn":
            fix.moved = card
            fix.cards = {card}
            return []
        if fix.kind == "extra_off":
            fix.cards.discard(card)
            if fix.moved is None:
                fix.moved = card  # the first extra card off the board: it is on top of the stub
            if not fix.cards:
                self.fix = None
                if len(self.record.board) == 3 and fix.moved == card:
                    self.must_burn["turn"] = card  # one identifiable extra card: the turn's burn
            return []
        if fix.kind == "scramble":
            return []  # the cards are gathered; the three put back are the flop
        fix.cards.discard(card)
        if not fix.cards:
            self._redeal_flop(fix)
        return []

    def _redeal_flop(self, fix: Fix) -> None:
        """All recalled flop cards are off the board: the flop is due again."""
        self.fix = None
        self.round = None
        self.phase = DUE
        self.street_i = self.game.streets.index("flop")  # in a runout the engine had moved on already
        self.board_now = []
        self.knock_flagged = True  # the knock belongs to the first flop
        if fix.redeal_burn:
            self.burns_now = []
            self.skip_burn.discard("flop")
        else:
            self.skip_burn.add("flop")
            self.burns_now = []

    def h_board_count(self, ev: Event, card: str | None) -> list[Finding]:
        n = int(getattr(ev, "count", 0))
        if getattr(ev, "zone", "") != "board":
            return []
        on_board = len(self.record.board)
        if self.street == "flop" and n >= 4 and on_board <= 3 and self.fix is None and (
                self.phase == DUE or (self.round is not None and self.round.actions_taken == 0)):
            self.fix = Fix(code="FLOP_TOO_MANY_CARDS", street="flop", kind="recall",
                           cards=set(self.record.board), expect="recall the flop and redeal it")
            return [_f("FLOP_TOO_MANY_CARDS", f"Camera counts {n} flop cards face up; the readers have "
                                              f"{on_board}", cards=list(self.record.board),
                       remedy=_flop_remedy(self.profile.four_card_flop))]
        return []


def _flop_remedy(how: str) -> str:
    return {
        "recall_reshuffle_redeal": "Recall the flop (not the burn), shuffle it into the stub, cut, deal "
                                   "a new "
                                   "flop without a new burn (000 §2.5); unless two actions were taken",
        "reshuffle_stub_redeal": "Shuffle the flop back into the remaining deck (burns stay out), deal a new "
                                 "flop (001 §14 2.)",
        "restore_before_bet": "Restore the right order before any bet: the first flop card becomes the burn "
                              "and the next card completes the flop (004 §8(2))",
        "extra_is_next_burn": "Put the identifiable extra card back on the stub as the next burn; if it "
                              "cannot be identified the floor draws one (004 §7)",
        "fourth_is_exposed_burn": "The fourth card becomes a face-up burn; if it cannot be identified, "
                                  "redeal (003 (4))",
        "scramble_floor_picks_burn": "Scramble the cards face down; the floor draws one as the next "
                                     "burn, the "
                                     "rest is the flop (TDA 2024)",
        "correct_or_reshuffle": "Correct the burn if possible, otherwise reshuffle and redeal the flop "
                                "(003 (5))",
    }.get(how, "See docs/rules.md")
