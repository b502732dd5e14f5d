"""The rules engine's public face: `Engine.feed(event) -> list[Outcome]`, pure and deterministic."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from controller.core.alerts import Alert, Finding, Street
from controller.core.betting import BettingRound
from controller.core.catalogue import entry
from controller.core.corrections import Tracker
from controller.core.events import (
    ActionEvent,
    BoardCountEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    ConsoleEvent,
    DealerEvent,
    DeckEvent,
    Event,
    Exposed,
    HandStart,
    Knock,
    LevelEvent,
    PresentEvent,
    SeatEvent,
    SessionEnd,
    SessionStart,
)
from controller.core.forced import Extras
from controller.core.games.registry import game_named
from controller.core.hand import BETTING, BETWEEN, DEAL, DUE, ENDED, SHOWDOWN, VOID, Hand, RoundFactory
from controller.core.handbase import _seat_of
from controller.core.levels import DEFAULT as DEFAULT_GAME
from controller.core.levels import TableGame, for_hand
from controller.core.profiles import DEFAULT_PROFILE, PROFILES, Profile
from controller.core.record import HandRecord
from controller.core.showdown import Showdown
from controller.core.state import public_state
from controller.core.table import Level, Table
from controller.core.zones import Zones


@dataclass(frozen=True, kw_only=True, slots=True)
class HandSummary:
    """A finished hand, as published on `…/hands` (payload documented in docs/interfaces.md)."""

    hand: int
    t: float
    payload: Mapping[str, Any] = field(default_factory=dict)


Outcome: TypeAlias = Alert | HandSummary
_CARD_KIND: dict[type, str] = {CardSeen: "card", CardGone: "gone", Exposed: "exposed"}
LIVE = (DEAL, BETTING, DUE)  # phases in which the hand is still being played


class Engine:
    """Tracks one table: seats and button across hands, the current hand, and alert numbering."""

    def __init__(self, *, table: str = "t1", profile: Profile | None = None, strict: bool = False,
                 game: TableGame | None = None) -> None:
        """`strict`: let a bug in the rules code raise (tests); otherwise it becomes a BAD_EVENT alert so
        a live table keeps running. `game`: the table's game from its config (`[table] game`), for levels
        that name none (controller/core/levels.py); None: hold'em."""
        self.table = table
        self.strict = strict
        self.table_game = game or DEFAULT_GAME
        self.profile = profile or PROFILES[DEFAULT_PROFILE]
        self.seats = Table(max_seats=self.profile.max_seats)
        self.zones = Zones()
        # tag → card of the active deck (`_on_card`'s usual case); Any: it is asked with a missing tag too
        self._deck_cards: Mapping[Any, str] = {}
        self.hand = 0
        self.current = Hand(number=0, t=0.0, table=table, profile=self.profile, zones=self.zones,
                            positions=None, level=Level(sb=0, bb=0), dealt_in=(), players={}, stacks={},
                            absent=set(), round_factory=BettingRound, showdown_factory=None)
        self.round_factory: RoundFactory = BettingRound
        self.showdown_factory = Showdown
        self.redeal = False  # the last hand was a misdeal: the next deal keeps its button
        self.disputed: int | None = None  # a button we called wrong (BUTTON_WRONG) in the last hand
        self.deferred: list[SeatEvent] = []  # seat changes for players in the running hand
        self.pre_blinds: dict[int, int] = {}  # chips placed between hands (blinds during the shuffle)
        self.unread_claimed: dict[str, set[str]] = {}  # zone → cards unread exposures stood for
        self.unread_count = 0  # stand-ins for unread cards dealt this hand (`??1`, `??2`, …)
        self.unread_moving: list[str] = []  # unread cards that left a zone and have not arrived yet
        self.last_t = 0.0
        self.dealer: str | None = None  # the dealer at the table (dealer event), for the floor's statistics
        self.counters: dict[int, int] = {}
        self.session = ""  # from a `session` event: part of every alert id after it
        self.tracker = Tracker()  # the running hand's open irregularities (corrections.py)
        self.last_corrections: list[dict[str, str]] = []  # what became of the last hand's
        self._events = 0  # every event fed: counted apart from the other statistics (replay speed, issue 13)
        self._stats = {"events": 0, "hands": 0, "alerts": 0, "bad_events": 0, "misdeals": 0, "summaries": 0,
                      "internal_errors": 0}
        self._dispatch: dict[type, Callable[[Any], list[Outcome]]] = {
            SeatEvent: self._on_seat, DeckEvent: self._on_deck, LevelEvent: self._on_level,
            HandStart: self._on_hand_start, CardSeen: self._on_card, CardGone: self._on_card,
            Exposed: self._on_card, Knock: self._on_knock, ActionEvent: self._on_betting,
            ChipsEvent: self._on_betting, PresentEvent: self._on_present, ConsoleEvent: self._on_console,
            BoardCountEvent: self._on_board_count, SessionEnd: self._on_session_end,
            SessionStart: self._on_session_start,
            DealerEvent: self._on_dealer,
        }

    @property
    def stats(self) -> dict[str, int]:
        """The engine's counters (events, hands, alerts, …): the dict itself, its event count brought up to
        date when it is read."""
        self._stats["events"] = self._events
        return self._stats

    @property
    def record(self) -> HandRecord | None:
        return self.current.record if self.hand else None

    # --- the one entry point ----------------------------------------------------------------------
    def feed(self, event: Event) -> list[Outcome]:
        self._events += 1
        t = event.t
        if t < self.last_t:
            return self._alerts(t, [Finding(code="BAD_EVENT", message=(
                f"{event.TYPE} event at t={t} is earlier than the previous event (t={self.last_t}); "
                f"event not applied"))])
        self.last_t = t
        if self.strict:
            return self._dispatch[type(event)](event)
        try:
            return self._dispatch[type(event)](event)
        except Exception as exc:  # a bug must not stop a live table; it is reported as an alert
            self._stats["internal_errors"] += 1
            return self._bad(event.t, f"internal error while applying a {event.TYPE} event "
                                      f"({type(exc).__name__}: {exc}); please report it with the event log")

    def _on_session_start(self, ev: SessionStart) -> list[Outcome]:
        self.session = ev.id
        return []

    def _on_dealer(self, ev: DealerEvent) -> list[Outcome]:
        self.dealer = ev.dealer  # named in the public state from now on; no rule depends on it
        return []

    def _on_session_end(self, ev: SessionEnd) -> list[Outcome]:
        return self._close_hand(ev.t)

    def finish(self, t: float) -> list[Outcome]:
        """Settle the last hand (end of a session); the next hand_start does this otherwise."""
        return self._close_hand(t)

    # --- numbering ----------------------------------------------------------------------------------
    def _alerts(self, t: float, findings: list[Finding], street: Street | None = None) -> list[Outcome]:
        out: list[Outcome] = []
        hand = self.hand
        where = street or self.current.alert_street()
        for f in findings:
            row = entry(f.code)
            n = self.counters.get(hand, 0) + 1
            self.counters[hand] = n
            sev = f.severity or row.severity
            # A `session` event (extension) scopes the ids, so a new daemon session never repeats them.
            scope = f"{self.table}-{self.session}" if self.session else self.table
            out.append(Alert(id=f"{scope}-h{hand}-{n}", t=t, table=self.table, hand=hand, code=f.code,
                             severity=sev, street=where, seat=f.seat, cards=f.cards, message=f.message,
                             remedy=f.remedy or row.remedy, rule=f.rule or row.rule, extra=f.extra))
            last = out[-1]
            if isinstance(last, Alert):
                self.tracker.raised(last.id, f.code)
            self._stats["alerts"] += 1
            if f.code == "BAD_EVENT":
                self._stats["bad_events"] += 1
            if sev == "misdeal":
                self._stats["misdeals"] += 1
        return out

    def _bad(self, t: float, message: str, seat: int | None = None) -> list[Outcome]:
        bad = Finding(code="BAD_EVENT", message=message + "; event not applied", seat=seat)
        return self._alerts(t, [bad])

    # --- table events -------------------------------------------------------------------------------
    def _on_seat(self, ev: SeatEvent) -> list[Outcome]:
        if ev.seat > self.profile.max_seats:
            top = self.profile.max_seats
            return self._bad(ev.t, f"seat {ev.seat} is outside the table (1…{top})", ev.seat)
        hand = self.current
        if hand.phase in LIVE and ev.seat in hand.holes:
            self.deferred.append(ev)  # a player in the hand: the change applies when the hand is over
            return []
        # Players moving between hands: the last hand is over, settle it before the seat changes.
        out = self._close_hand(ev.t) if hand.phase in (SHOWDOWN, ENDED, VOID) else []
        self.seats.sit(ev.seat, ev.player, ev.stack)
        return out

    def _on_deck(self, ev: DeckEvent) -> list[Outcome]:
        try:
            deck = self.zones.enrol(ev.id, ev.cards)
        except ValueError as exc:
            return self._bad(ev.t, f"deck {ev.id!r}: {exc}")
        self._deck_cards = deck.uid_to_card  # the newest deck is the active one (Zones.resolve)
        problems = deck.problems()
        if not problems:
            return []
        return self._alerts(ev.t, [Finding(code="DECK_INCOMPLETE", message=(
            f"Deck {ev.id!r} enrolled with {len(deck.uid_to_card)} tags: " + "; ".join(problems)))])

    def _on_level(self, ev: LevelEvent) -> list[Outcome]:
        if ev.sb > ev.bb:
            return self._bad(ev.t, f"level with small blind {ev.sb} above big blind {ev.bb}")
        level, problem = self.table_game.level(ev)
        if problem is not None:  # only a level that names no game: the reader checked the others
            name = self.table_game.game
            return self._bad(ev.t, f"level names no game, so it is the table's {name!r} ([table] game in "
                                   f"the config; replay --config or --game); field '{problem[0]}': "
                                   f"{problem[1]}")
        self.seats.level = level
        return []

    def _on_present(self, ev: PresentEvent) -> list[Outcome]:
        info = self.seats.seats.get(ev.seat)
        if info is None:
            return self._bad(ev.t, f"presence reported for seat {ev.seat}, which is empty", ev.seat)
        info.present = ev.present
        hand = self.current
        if ev.present:
            hand.absent.discard(ev.seat)
        elif ev.seat in hand.holes:
            hand.absent.add(ev.seat)
        rnd = hand.round
        if rnd is None or hand.phase != BETTING or not hasattr(rnd, "set_present"):
            return []
        street = hand.alert_street()
        findings = rnd.set_present(ev.seat, ev.present, ev.t)
        findings += hand._after_round_change(ev.t)
        return self._alerts(ev.t, findings, street) if findings else []

    # --- hands --------------------------------------------------------------------------------------
    def _close_hand(self, t: float) -> list[Outcome]:
        """End of the previous hand: missing cards, settlement, finishing stacks, busted players leave."""
        hand = self.current
        out: list[Outcome] = []
        if self.hand == 0 or hand.settled:
            return out
        hand.settled = True
        findings = hand.missing_cards() if hand.phase != VOID else []
        unfinished = False
        out += self._alerts(t, findings, street="between")
        rec = hand.record
        if hand.phase == VOID or (hand.phase == DEAL and not hand.deal_cards):
            # A misdeal, or a hand restarted before any card was dealt (e.g. to move a wrong button):
            # the next deal keeps this hand's button and blinds.
            self.redeal = True
        elif hand.phase in LIVE:
            rec.notes.append("hand not finished when the next hand started")
            unfinished = True
        self.last_corrections = self.tracker.close_hand()
        rec.notes += [f"correction {c['code']} ({c['alert']}): {c['status']}" for c in self.last_corrections]
        if hand.showdown is not None:
            settlement = hand.showdown.settle(t)
            out += self._alerts(t, list(settlement.findings), street="showdown")
            for seat, stack in settlement.finishing_stacks.items():
                info = self.seats.seats.get(seat)
                if info is not None and info.player == rec.players.get(seat):
                    info.stack = stack
            payload: Mapping[str, Any] = settlement.summary
        else:  # a hand stopped while being played has no result; one never played has no seats either
            payload = (hand.unfinished_summary(t) if unfinished else None) or _plain_summary(rec)
        rec.t_end = rec.t_end if rec.t_end is not None else t
        out.append(HandSummary(hand=rec.hand, t=t, payload=payload))
        self._stats["summaries"] += 1
        for ev in self.deferred:
            self.seats.sit(ev.seat, ev.player, ev.stack)
        self.deferred.clear()
        for seat in [s for s, info in self.seats.seats.items() if info.stack <= 0]:
            self.seats.sit(seat, None, 0)  # busted players leave their seat (001 §1)
        hand.phase = ENDED if hand.phase != VOID else VOID
        return out

    def _on_hand_start(self, ev: HandStart) -> list[Outcome]:
        out = self._close_hand(ev.t)
        self.unread_claimed.clear()
        self.unread_count = 0
        self.unread_moving.clear()
        occ = self.seats.occupied()
        if len(occ) < 2:
            return out + self._bad(ev.t, f"hand_start with {len(occ)} player(s) holding chips; a hand "
                                         f"needs two")
        findings: list[Finding] = []
        level = self.seats.level
        if level is None:
            findings.append(Finding(code="BAD_EVENT", message=(
                "hand_start with no blind level in force (send a level event first); no blinds, the "
                "minimum bet is taken as 1 chip")))
            level = Level(sb=0, bb=1)
        game = game_named(ev.game or level.game)  # hand_start beats the level, which beats the table
        level_game = level.game
        level, problem = for_hand(level, game.name)
        if problem is not None:
            findings.append(Finding(code="BAD_EVENT", message=(
                f"hand_start names {game.name!r}, but the level in force is {level_game!r} "
                f"(field '{problem[0]}': {problem[1]}); the hand is followed as far as it goes")))
        start = game.begin(self, ev, level)  # positions, seats dealt in (games/holdem.py, games/stud.py)
        findings += start.findings
        level = start.level
        self.hand += 1
        self._stats["hands"] += 1
        self.zones.clear()
        dealt = start.dealt_in
        info = self.seats.seats
        self.current = game.hand_class(
            number=self.hand, t=ev.t, table=self.table, profile=self.profile, zones=self.zones,
            positions=start.positions, level=level, dealt_in=dealt,
            players={s: info[s].player for s in dealt},
            stacks={s: info[s].stack for s in dealt}, absent={s for s in dealt if not info[s].present},
            round_factory=self.round_factory, showdown_factory=self.showdown_factory, dealing=True)
        self.current.extras = Extras(straddles=ev.straddles or (), posts=ev.posts, dead=ev.dead)
        for seat, amount in sorted(self.pre_blinds.items()):
            if seat in self.current.holes:
                findings += self.current.check_blind(seat, amount)
        self.pre_blinds.clear()
        return out + self._alerts(ev.t, findings)

    # --- hand events --------------------------------------------------------------------------------
    @property
    def profile(self) -> Profile:
        """The rule profile; setting it forgets the zones checked against the old one's seats."""
        return self._profile

    @profile.setter
    def profile(self, profile: Profile) -> None:
        self._profile = profile
        self._zone_kinds: dict[str, tuple[int | None, str]] = {}  # checked against this profile's seats
        self._lane_zones: dict[str, tuple[int | None, str]] = {}  # the same but the deck: `_on_card`'s usual

    def _on_card(self, ev: CardSeen | CardGone | Exposed) -> list[Outcome]:
        # Every card event passes here (most of a stud hand's). The usual one, a tag of the active deck read
        # in a zone seen before (not the deck), takes two dict lookups to reach the hand; anything else
        # goes the general way (`_on_card_general`), unchanged (replay speed, issue 13).
        known = self._lane_zones.get(ev.zone)
        card = ev.card
        if card is None:
            card = self._deck_cards.get(ev.uid)  # no tag (None) is no deck's key either
        if known is None or card is None:
            return self._on_card_general(ev)
        hand = self.current
        kind = known[1] if type(ev) is CardSeen else _CARD_KIND[type(ev)]
        if hand.LANE and hand.regular_card(kind, ev, card, known[0]):
            return []  # a regular card event of the game, applied: nothing to say
        phase, street_i = hand.phase, hand.street_i
        findings = hand.dispatch(kind, ev, card)
        return self._hand_alerts(hand, phase, street_i, ev, findings) if findings else []

    def _on_card_general(self, ev: CardSeen | CardGone | Exposed) -> list[Outcome]:
        # A zone's seat and the kind of a card arriving there are looked up once per zone, not parsed at
        # each event (replay speed, issue 13).
        zone = ev.zone
        known = self._zone_kinds.get(zone)
        if known is None:
            seat = _seat_of(zone)
            if seat is not None and seat > self.profile.max_seats:
                top = self.profile.max_seats
                return self._bad(ev.t, f"card for zone {zone}, outside the table (1…{top})", seat)
            known = self._zone_kinds[zone] = (seat, zone if seat is None else "hole")
            if zone != "deck" and (seat is None or zone == f"seat{seat}"):
                # the usual way for a zone the hand's fast lane may name as it is (`seatN` as the seat's
                # own name); the deck's cards (deck checks) and any other spelling go the general way
                self._lane_zones[zone] = known
        card = ev.card
        if card is None:
            uid = ev.uid
            if uid is None:  # neither face nor tag read (extension)
                card = self._unread_exposed(zone) if isinstance(ev, Exposed) else self._unread_card(ev)
                if card is None:
                    return []  # nothing the readers placed there: nothing to apply
            else:
                decks = self.zones.decks
                if decks:
                    card = decks[-1].uid_to_card.get(uid)  # fast path: a tag of the active deck
        if card is None or (zone == "deck" and self.zones.check is not None):
            res = self.zones.resolve(ev.card, ev.uid)
            if isinstance(ev, CardSeen) and zone == "deck" and self.zones.check is not None:
                self.zones.check_card(res)
                return []
            if res.card is None:
                if isinstance(ev, CardGone):
                    return []
                return self._alerts(ev.t, [Finding(code="FOREIGN_CARD", message=(
                    f"Card in zone {zone}: {res.foreign}"), seat=known[0])])
            card = res.card
        # `_hand` inlined: card events are most of a stud hand's (replay speed, issue 13). A card arriving
        # is of its zone's kind; where the event happened is read before it moves the hand on.
        hand = self.current
        phase, street_i = hand.phase, hand.street_i
        findings = hand.dispatch(known[1] if type(ev) is CardSeen else _CARD_KIND[type(ev)], ev, card)
        return self._hand_alerts(hand, phase, street_i, ev, findings) if findings else []

    def _unread_card(self, ev: CardSeen | CardGone) -> str | None:
        """A card whose face nobody read (extension): a stand-in `??n` that never matches a real card, so
        it can be dealt, burned, folded and mucked but never shown, evaluated or win a pot."""
        if isinstance(ev, CardGone):
            held = [c for c in self.zones.cards_in(ev.zone) if c.startswith("??")]
            if held:
                self.unread_moving.append(held[0])
            return held[0] if held else None
        if self.unread_moving and not ev.zone.startswith("seat"):
            return self.unread_moving.pop(0)
        self.unread_count += 1
        return f"??{self.unread_count}"

    def _unread_exposed(self, zone: str) -> str | None:
        """The card an unread camera exposure stands for: the zone's most recently placed card that no
        unread exposure has claimed yet this hand (a card turned during the deal is the latest one)."""
        claimed = self.unread_claimed.setdefault(zone, set())
        for card in reversed(self.zones.cards_in(zone)):
            if card not in claimed and not card.startswith("??"):  # an unread card is never shown
                claimed.add(card)
                return card
        return None

    def _hand(self, kind: str, ev: Event, card: str | None) -> list[Outcome]:
        hand = self.current
        phase, street_i = hand.phase, hand.street_i  # where the event happened, before it moved the hand on
        findings = hand.dispatch(kind, ev, card)
        return self._hand_alerts(hand, phase, street_i, ev, findings) if findings else []

    def _hand_alerts(self, hand: Hand, phase: str, street_i: int, ev: Event,
                     findings: list[Finding]) -> list[Outcome]:
        """The alerts of an event's findings, named by the street the event happened on."""
        street = hand.street_label(phase, street_i)
        street = hand.event_street or street  # the event took the hand back to an earlier round
        out: list[Outcome] = []
        for f in findings:
            # Showdown announcements (section S) belong to the showdown even when the last action
            # of the river triggered them.
            out += self._alerts(ev.t, [f], "showdown" if entry(f.code).section == "S" else street)
        return out

    def _on_knock(self, ev: Knock) -> list[Outcome]:
        return self._hand("knock", ev, None)

    def _on_betting(self, ev: ActionEvent | ChipsEvent) -> list[Outcome]:
        info = self.seats.seats.get(ev.seat)
        if info is None and ev.seat not in self.current.holes:
            return self._bad(ev.t, f"{ev.TYPE} from seat {ev.seat}, which is empty", ev.seat)
        if self.current.phase == VOID and self.current.voided is not None:
            # A misdeal in a betting round: chips or an action may show the table playing on (hand.py)
            out = self._hand("action" if isinstance(ev, ActionEvent) else "chips", ev, None)
            if out or self.current.phase != VOID:
                return out
        if self.current.phase in (ENDED, VOID, SHOWDOWN, BETWEEN) and isinstance(ev, ChipsEvent):
            # Chips between hands: blinds placed during the shuffle (000 §2.2), or the pot being pushed.
            if ev.amount > 0:
                self.pre_blinds[ev.seat] = ev.amount
            else:
                self.pre_blinds.pop(ev.seat, None)
            return []
        hand = self.current
        if hand.LANE and type(ev) is ChipsEvent and hand.regular_chips(ev):
            return []  # chips the game expects (stud: an ante before or during the deal), applied
        return self._hand("action" if isinstance(ev, ActionEvent) else "chips", ev, None)

    def _on_board_count(self, ev: BoardCountEvent) -> list[Outcome]:
        return self._hand("board_count", ev, None)

    def _on_console(self, ev: ConsoleEvent) -> list[Outcome]:
        b = ev.button
        if b == "floor":
            return self._alerts(ev.t, [Finding(code="FLOOR_CALLED", message=(
                f"Dealer called the floor to table {self.table} (hand {self.hand}, "
                f"{self.current.alert_street()}; {self.counters.get(self.hand, 0)} alert(s) in this hand)"))])
        if b == "deck_check":
            if self.current.phase in LIVE:
                return self._bad(ev.t, f"deck check started during hand {self.hand} ({self.current.phase})")
            self.zones.start_check(ev.t)
            return []
        if b == "deck_check_done":
            return self._deck_check_done(ev)
        if b == "misdeal":
            return self._hand("misdeal", ev, None)
        if b == "ruling":
            return self._ruling(ev)
        return self._hand("clock", ev, None)

    def _ruling(self, ev: ConsoleEvent) -> list[Outcome]:
        """The floor's ruling (004 §1(2): final) closes an open irregularity. `accept`: the hand goes on as
        the table played it, nothing more is owed; `reverse`: the remedy stands and is still expected."""
        ruling = ev.ruling or "accept"
        closed = self.tracker.rule(ruling, ev.id, ev.note or "")
        if ruling == "accept" and self.current.phase in LIVE:
            self.current.accept_as_played()
        what = f"{closed.code} ({closed.alert})" if closed is not None else "no open irregularity"
        how = ("the hand goes on as played" if ruling == "accept" else "the remedy applies")
        note = f"; note: {ev.note}" if ev.note else ""
        self.current.record.notes.append(f"floor ruling {ruling} on {what}{note}")
        return self._alerts(ev.t, [Finding(code="FLOOR_RULING", message=(
            f"Floor ruling: {ruling} on {what}: {how}{note}"))])

    def _deck_check_done(self, ev: ConsoleEvent) -> list[Outcome]:
        if self.zones.check is None:
            return self._bad(ev.t, "deck_check_done without a deck_check")
        missing, dups, foreign = self.zones.finish_check()
        findings: list[Finding] = []
        if missing:
            findings.append(Finding(code="DECK_INCOMPLETE", message=(
                f"Deck check read {52 - len(missing)} of 52 cards; missing: {' '.join(missing)}"),
                cards=tuple(missing)))
        for card in dups:
            findings.append(Finding(code="DECK_DUPLICATE", message=f"Deck check read {card} twice (two tags)",
                                    cards=(card,)))
        for why in foreign:
            findings.append(Finding(code="FOREIGN_CARD", message=f"Deck check: {why}"))
        return self._alerts(ev.t, findings, street="between")

    # --- views ----------------------------------------------------------------------------------------
    def public_state(self) -> dict[str, Any]:
        return public_state(self)

    def statistics(self) -> dict[str, int]:
        return dict(self.stats)


def _plain_summary(rec: HandRecord) -> dict[str, Any]:
    """The hand summary when no settlement exists (misdeal, or showdown.py not merged)."""
    return {
        "hand": rec.hand, "table": rec.table, "button": rec.button, "ended": rec.ended,
        "board": list(rec.board), "actions": [
            {"t": a.t, "street": a.street, "seat": a.seat, "action": a.action, "total": a.total}
            for a in rec.actions],
        "committed": {str(s): c for s, c in sorted(rec.committed.items())},
        "notes": list(rec.notes),  # e.g. a hand not followed to its end, corrections and rulings
    } | ({"game": rec.game} if rec.game != "holdem" else {})  # contract v1.1: absent means hold'em
