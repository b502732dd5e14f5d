"""The state shared by the parts of a hand (deal, board, betting) and the helpers they all use."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Protocol

from controller.core.alerts import Finding, Street
from controller.core.antes import AnteLedger
from controller.core.catalogue import entry
from controller.core.events import ActionEvent, CardGone, CardSeen, ChipsEvent, Event, Exposed
from controller.core.forced import NO_EXTRAS, Extras, Post
from controller.core.games.base import GamePlan
from controller.core.games.holdem import PLAN as HOLDEM
from controller.core.pots import OddChipOrder
from controller.core.profiles import Profile
from controller.core.record import ActionRecord, BetStreet, HandRecord
from controller.core.table import Level, Positions
from controller.core.zones import Zones

# --- phases and event kinds --------------------------------------------------------------------------
BETWEEN = "between"  # no hand has started yet
DEAL = "deal"  # hole cards are being dealt
BETTING = "betting"  # a betting round is open (street in Hand.street)
DUE = "due"  # the round closed: knock, burn and board cards of the next street are due
SHOWDOWN = "showdown"  # betting is over with two or more hands
ENDED = "ended"  # the hand is over (all but one folded, or settled)
VOID = "void"  # misdeal: the hand is void, waiting for the redeal
PHASES: tuple[str, ...] = (BETWEEN, DEAL, BETTING, DUE, SHOWDOWN, ENDED, VOID)

KINDS: tuple[str, ...] = ("hole", "board", "burn", "muck", "deck", "gone", "exposed", "knock", "action",
                          "chips", "board_count", "misdeal", "clock")



class RoundLike(Protocol):
    """The BettingRound contract (CONTRACTS.md) as the hand uses it."""

    closed: bool
    to_act: int | None
    actions_taken: int
    committed: dict[int, int]
    folded: set[int]
    all_in: set[int]
    last_aggressor: int | None
    records: list[Any]
    current_bet: int

    @property
    def pending(self) -> dict[int, int]: ...  # out-of-turn actions held for their seat's turn
    def feed(self, ev: ActionEvent | ChipsEvent) -> list[Finding]: ...
    def fold(self, seat: int, t: float, reason: str) -> list[Finding]: ...
    def tick(self, t: float) -> list[Finding]: ...
    def quiet(self, t: float) -> bool: ...  # `tick(t)` would say nothing and change nothing
    def clock_called(self, t: float) -> list[Finding]: ...
    def accept_as_played(self) -> None: ...  # the floor accepted the table's amounts as placed
    def passed_over_at_knock(self, t: float) -> list[Finding] | None: ...
    def short_call_passed(self, why: str, t: float) -> list[Finding] | None: ...
    def idle(self, seat: int) -> bool: ...  # nothing to decide in this round
    def table_moved_on(self, t: float) -> list[Finding]: ...  # seats still to act lose their turn


class ShowdownLike(Protocol):
    def open(self, t: float) -> list[Finding]: ...
    def on_card(self, ev: Event, card: str) -> list[Finding]: ...
    def shown_at(self, seat: int, card: str) -> None: ...  # `on_card` of an exposure at a seat
    def mucked_card(self, card: str) -> None: ...  # `on_card` of a card reaching the muck
    def settle(self, t: float) -> Any: ...
    def unfinished(self, t: float) -> dict[str, Any]: ...


class ShowdownFactory(Protocol):
    """Builds the showdown of a hand (showdown.Showdown; the game passes its odd-chip order)."""

    def __call__(self, record: HandRecord, profile: Profile, *,
                 odd_chip_order: OddChipOrder = ...) -> ShowdownLike: ...


RoundFactory = Callable[..., RoundLike]


@dataclass(kw_only=True, slots=True)
class Fix:
    """A board correction the dealer owes: which cards must move and what comes next."""

    code: str
    street: str
    kind: str  # "to_burn" (card goes board→burn, one new card), "recall" (cards leave, street redealt),
    #            "extra_off" (one card leaves the board and becomes the next burn)
    cards: set[str] = field(default_factory=set)
    moved: str | None = None
    redeal_burn: bool = False
    expect: str = ""
    early_card: str | None = None  # to_burn on the flop: the completing card came before the move


def _f(code: str, message: str, *, seat: int | None = None, cards: Sequence[str] = (),
       remedy: str = "", severity: Any = None) -> Finding:
    return Finding(code=code, message=message, seat=seat, cards=tuple(cards), remedy=remedy,
                   severity=severity)


class HandBase:
    """The state of one hand; the handlers live in the parts (deal.py, board.py) and in hand.py."""

    PLAN: ClassVar[GamePlan] = HOLDEM  # the game a hand class follows unless told otherwise
    LANE: ClassVar[bool] = False  # the game has a fast lane for its regular card events (`regular_card`)

    def __init__(self, *, number: int, t: float, table: str, profile: Profile, zones: Zones,
                 positions: Positions | None, level: Level, dealt_in: Sequence[int],
                 players: Mapping[int, str], stacks: Mapping[int, int], absent: set[int],
                 round_factory: RoundFactory, showdown_factory: ShowdownFactory | None,
                 game: GamePlan | None = None, dealing: bool | None = None) -> None:
        """`game`: the plan of the game dealt (default: the class's `PLAN`); `dealing`: the hand starts in
        the deal (default: when it has positions; a game without a button passes True)."""
        game = game if game is not None else self.PLAN
        self.number = number
        self.profile = profile
        self.zones = zones
        self.game = game
        self.positions = positions
        self.level = level
        self.round_factory = round_factory
        self.showdown_factory = showdown_factory
        self.absent = absent  # live view of the table's absent seats
        started = positions is not None if dealing is None else dealing
        self.phase = DEAL if started else BETWEEN
        self.street_i = 0
        btn = positions.button if positions else 0
        self.record = HandRecord(
            table=table, hand=number, t_start=t, button=btn,
            sb_seat=positions.sb_seat if positions else None,
            bb_seat=positions.bb_seat if positions else None,
            sb=level.sb, bb=level.bb, ante=level.ante, chip=level.chip, dealt_in=tuple(dealt_in),
            players={s: players[s] for s in dealt_in},
            starting_stacks={s: stacks[s] for s in dealt_in}, scale=level.scale, ante_mode=level.ante_mode,
        )
        self.dealt_in = list(dealt_in)
        self.deal_seq = [s for _ in range(game.hole_cards) for s in dealt_in]
        self.deal_cards: list[str] = []
        self.deal_round = 0
        self.deal_pos = -1
        self.holes: dict[int, list[str]] = {s: [] for s in dealt_in}
        self.pre_chips: dict[int, int] = {}
        self.ante_ledger = AnteLedger()  # antes and straddles seen before the deal (antes.py)
        self.blind_flagged: set[int] = set()
        self.blinds_done = False
        self.blinds_auto = False
        self.late_blind_flagged = False
        self.posted: dict[int, int] = {}
        self.prev: dict[int, int] = dict.fromkeys(dealt_in, 0)  # chips in before the current round
        self.round: RoundLike | None = None
        self.closed_round: Any = None  # the round that just closed, until the next street opens
        self.event_street: Street | None = None  # the street the last event really belonged to
        self.n_records = 0
        self.runout = False
        self.street_done_t: float | None = None  # when the last street's board cards were complete
        self.flop_fix_burn: str | None = None  # runout, 003 (4): the 4th flop card burned before the knock
        # knock/burn/board procedure of the street being dealt
        self.knocked = False
        self.knock_t: float | None = None
        self.knock_flagged = False
        # a knock while the round is open: its time and the round's action count then (000 §2.8)
        self.early_knock: tuple[float, int] | None = None
        self.burns_now: list[str] = []
        self.board_now: list[str] = []
        self.early_burns: list[str] = []
        self.early_burns_kept: list[str] = []  # the last round's early burns (premature cards kept)
        self.burn_fix_back: str | None = None  # BURN_EXTRA: one burn must go back on the stub
        # corrections owed (see docs/rules.md)
        self.skip_burn: set[str] = set()
        self.makeup_burn: set[str] = set()  # 003 (6): a street that may take two burns (a missed one stood)
        self.must_burn: dict[str, str] = {}
        self.forbid: dict[str, str] = {}
        self.must_leave: dict[str, str] = {}  # card → zone it must leave before the next board card
        self.premature: list[str] = []
        self.premature_street: str | None = None
        # Seats counted as checked when the table began a street on cards dealt early (board.py,
        # moved_on_to_premature): a check they speak next is that lost turn's, said late.
        self.late_checkers: dict[int, int] = {}  # seat -> the street index it may still say it on
        self.fix: Fix | None = None
        self.exposures = 0
        self.exposed_card: str | None = None
        self.replacement_due: int | None = None
        self.extra_first: str | None = None
        self.boxed: set[str] = set()
        self.shown_early: set[int] = set()  # seats that showed a hole card during the betting (000 §4.1)
        # A seat whose turns the rules play after each change of the round (`_checker_turns`; stud: the
        # opener who mucked after the forced bet, 002 §3); None in hold'em.
        self.checker: int | None = None
        # Findings about an event that must not stop it being applied (the card is where it is); the
        # dispatcher appends them to the handler's own findings.
        self.followups: list[Finding] = []
        self.in_flight: dict[str, int] = {}
        self.lost: dict[str, str] = {}
        self.short: set[int] = set()
        self.thrown: dict[int, float] = {}
        self.dead_acting: set[int] = set()  # dead hands told once that they still act (hand.py)
        # A misdeal the table may still play on (hand.py `h_void_play`): what the hand was when it was
        # voided (phase, round, showdown, the misdeal's code) and whether the table overrode it.
        self.voided: tuple[str, Any, Any, str] | None = None
        self.misdeal_overridden = False
        self.voided_by: Event | None = None  # the action whose findings voided the hand, if one did
        # Chips between rounds (hand.py `h_chips_due`): the last amount seen per seat since the round
        # closed, and the seats already told they bet too soon.
        self.due_chips: dict[int, int] = {}
        self.due_chips_street = -1
        self.due_warned: set[tuple[int, int]] = set()
        self.showdown: ShowdownLike | None = None
        self.settled = False
        self.t = t
        self.extras: Extras = NO_EXTRAS  # straddles, posts, dead chips from hand_start (forced.py)
        self._posts_memo: tuple[Level, Extras, tuple[Post, ...]] | None = None  # deal.py forced_posts

    def regular_card(self, kind: str, ev: CardSeen | CardGone | Exposed, card: str, seat: int | None) -> bool:
        """A game's fast lane (`LANE`), asked by the engine before `dispatch` for a card event of a known
        zone and card: it applies the event and says True only where `dispatch` would find nothing and leave
        the phase as it is; otherwise it says False having changed nothing, and `dispatch` follows."""
        return False

    def regular_chips(self, ev: ChipsEvent) -> bool:
        """The fast lane (`LANE`) for a `chips` event, as `regular_card`: True only when applied where
        `dispatch` would find nothing and leave the phase as it is; False with nothing changed."""
        return False

    # --- derived -----------------------------------------------------------------------------------
    @property
    def street(self) -> BetStreet:
        return self.game.streets[self.street_i]

    def alert_street(self) -> Street:
        return self.street_label(self.phase, self.street_i)

    def deal_still_finishing(self) -> bool:
        """An all-in on the blinds left nobody to act, so the hand moved on to the flop as the deal
        completed; until the flop's knock or first board card the deal's own corrections (an exposed
        card burned face up, its replacement dealt last) still belong to the deal. Not once anybody
        acted: then the betting, not the deal, ended the preflop, and cards turned up now are the all-in
        showdown's (TDA 2024 Rule 16), not the deal's exposed cards."""
        return (self.runout and self.phase == DUE and self.street_i == 1 and not self.knocked
                and not self.board_now and not self.record.board
                and all(a.action.startswith("post_") for a in self.record.actions))

    def street_label(self, phase: str, street_i: int) -> Street:
        """The alert `street` for a hand in `phase` on street number `street_i`."""
        if phase == DEAL:
            return "deal"
        if phase in (BETTING, DUE):
            return self.game.streets[street_i]
        if phase == SHOWDOWN:
            return "showdown"
        return "between"

    def live(self) -> list[int]:
        return self.record.live_seats()

    def public_seat(self, seat: int) -> dict[str, Any]:
        """What a game adds to a seat in the public state (stud: its up-cards); never a down-card."""
        return {}

    def public_game(self) -> dict[str, Any]:
        """What a game adds to the public state (stud: the game's name; hold'em, the default, nothing)."""
        return {}

    def stack_now(self, seat: int) -> int:
        committed = self.prev.get(seat, 0) + (self.round.committed.get(seat, 0) if self.round else 0)
        return self.record.starting_stacks.get(seat, 0) - committed

    def _stacks_now(self, seats: Sequence[int]) -> dict[int, int]:
        """`stack_now` of every seat in `seats` (between rounds: one subtraction each)."""
        if self.round is not None:
            return {s: self.stack_now(s) for s in seats}
        start, prev = self.record.starting_stacks, self.prev
        return {s: start.get(s, 0) - prev.get(s, 0) for s in seats}

    def holds_cards(self, seat: int) -> bool:
        """Some of the seat's cards still lie at its seat (not mucked)."""
        zone = f"seat{seat}"
        return any(self.zones.zone_of(c) == zone for c in self.holes.get(seat, ()))

    def dead_plays_on(self) -> bool:
        """A dead hand that kept acting still holds its cards: the table is playing it on."""
        return any(self.holds_cards(s) for s in self.dead_acting)

    def limit_reached(self) -> bool:
        """The "two actions" point after which most dealing errors stand (profile)."""
        rnd = self.round
        if rnd is None:
            return False
        n = rnd.actions_taken
        if self.profile.action_limit_rule == "substantial":
            chips = sum(1 for r in rnd.records if r.added > 0)
            return (n >= 2 and chips >= 1) or n >= 3
        return n >= self.profile.misdeal_action_limit

    def to_act_text(self) -> str:
        if self.round is not None and self.round.to_act is not None:
            return f"seat {self.round.to_act} still to act"
        return "betting not finished"

    def void(self, why: str, code: str = "MISDEAL_CALLED") -> None:
        if why == "misdeal" and (self.phase == DUE or (self.phase == BETTING and self.round is not None)):
            # Kept so the hand can be followed on if the table ignores the misdeal (a fouled deck is
            # never played on: the duplicate card makes the hand meaningless). Stud's deal ends in BETTING
            # before its round opens: a misdeal there is one of the deal, which stays void
            # (stud_deal_seat_skipped_then_acts; taken up without a round, the next action crashed).
            self.voided = (self.phase, self.round, self.showdown, code)
        self.phase = VOID
        self.record.ended = "fouled_deck" if why == "fouled_deck" else "misdeal"
        self.record.t_end = self.t
        self.round = None
        self.showdown = None  # nothing is settled: bets stay for the redeal

    def _dup(self, card: str, zone: str, ev: Event) -> list[Finding]:
        """A card arriving while it lies in another dealing zone is a second card of that name."""
        before = self.zones.zone_of(card)
        if before is None or before == zone or before == "muck" or zone == "muck":
            return []
        uid = _uid(ev)
        if uid is not None and self.zones.uid_of.get(card) == uid:
            return []
        if card in self.must_leave or card in self.must_burn.values() or (
                self.fix is not None and card in self.fix.cards):
            return []
        private = before.startswith("seat") or zone.startswith("seat")  # never show a hole card
        return [_f("DECK_DUPLICATE", f"Card {card} seen in zone {zone} while it lies in zone {before}",
                   cards=[] if private else [card])]

    def _arrive(self, card: str, zone: str, ev: Event) -> list[Finding]:
        """Place an arriving card; a card already lying in another dealing zone is a duplicate."""
        before = self.zones.zone_of(card)
        self.lost.pop(card, None)
        self.in_flight.pop(card, None)
        uid = _uid(ev)
        dup = self._dup(card, zone, ev)
        if dup:
            return dup
        if before is not None and before != zone:
            if before == "board":
                self._board_gone(card)
            self.zones.take(card, before)
        if card in self.boxed and zone == "board" and self.profile.boxed_board_card_plays:
            self.boxed.discard(card)  # 000 §2.5-§2.7: a board card face up in the stub is valid
        elif card in self.boxed and zone in ("board", "burn"):
            # The dealer kept the boxed card in play: say so once, then follow the card where it lies
            # (a flop card is a flop card), so the hand is tracked as it is really played.
            self.boxed.discard(card)
            self.followups.append(_f("CORRECTION_NOT_FOLLOWED",
                                     f"Boxed card {card} turned up in zone {zone}; expected: {card} out of "
                                     f"play; it is played where it lies", cards=[card]))
        self.zones.put(card, zone, uid)
        return []

    def _place_hole(self, seat: int, card: str, ev: Event, register: bool = True) -> None:
        self.zones.put(card, f"seat{seat}", _uid(ev))
        if register and seat in self.holes:
            self.holes[seat].append(card)
            self.record.hole.setdefault(seat, []).append(card)

    def _owner_of(self, card: str) -> int | None:
        """The seat that was dealt `card`, None when no seat was (a board or burn card)."""
        for seat, cards in self.holes.items():
            if card in cards:
                return seat
        return None

    def _hole_count(self, seat: int) -> int:
        return sum(1 for c in self.holes.get(seat, ()) if c != self.exposed_card)

    def _add_record(self, t: float, seat: int, action: str, total: int, added: int) -> None:
        self.record.actions.append(ActionRecord(t=t, street=self.street, seat=seat, action=action,  # type: ignore[arg-type]
                                                total=total, added=added))

    def _sync_committed(self) -> None:
        # Asked after every action: the dicts are read into locals once, not at each seat (replay speed,
        # issue 13; a comprehension and an update measured dearer on CPython 3.11).
        rnd, prev, committed = self.round, self.prev, self.record.committed
        if rnd is None:
            for seat in self.dealt_in:
                committed[seat] = prev[seat]
            return
        now = rnd.committed
        for seat in self.dealt_in:
            committed[seat] = prev[seat] + now.get(seat, 0)

    def _absent_in(self, seats: Sequence[int]) -> tuple[int, ...]:
        """The absent seats among `seats`, in seat order (usually none: no scan then)."""
        return tuple(sorted(self.absent.intersection(seats))) if self.absent else ()

    def _can_bet(self, live: list[int]) -> list[int]:
        """The seats among `live` (the live seats) with chips left to bet."""
        return [s for s in live if self.stack_now(s) > 0]

    def _start_preflop(self, t: float, out: list[Finding]) -> None:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def _after_round_change(self, t: float) -> list[Finding]:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def _open_street(self, t: float) -> list[Finding]:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def _checker_turns(self, out: list[Finding], t: float) -> list[Finding]:
        """The turns of `checker` after a change of the round, added to `out` (a game that has one)."""
        return out

    def _end_betting(self, t: float, how: str) -> list[Finding]:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def _board_gone(self, card: str) -> list[Finding]:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def missing_noticed(self, seat: int) -> list[Finding]:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def exposed_kept_at_seat(self, t: float) -> list[Finding]:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def kept_premature(self, t: float, exclude: str | None = None) -> list[Finding] | None:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def accept_as_played(self) -> None:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def h_action(self, ev: Event, card: str | None) -> list[Finding]:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)

    def handle_in_phase(self, kind: str, ev: Event, card: str | None) -> list[Finding]:
        raise NotImplementedError  # defined by a part of Hand (hand.py, deal.py, board.py)


def _severity(f: Finding) -> str:
    return f.severity or entry(f.code).severity


def _seat(ev: Event) -> int:
    seat = _seat_of(getattr(ev, "zone", ""))
    assert seat is not None
    return seat


@lru_cache(maxsize=256)
def _seat_of(zone: str) -> int | None:
    """The seat of a `seatN` zone (cached: a table has a dozen zones and every card event asks)."""
    if zone.startswith("seat"):
        return int(zone[4:])
    return None


def _uid(ev: Event) -> str | None:
    return getattr(ev, "uid", None)


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats)


def _describe(kind: str, ev: Event, card: str | None) -> str:
    zone = getattr(ev, "zone", None)
    if card is not None and zone is not None:
        return f"{kind} event ({card} in zone {zone})"
    seat = getattr(ev, "seat", None)
    return f"{kind} event" + (f" from seat {seat}" if seat is not None else "")
