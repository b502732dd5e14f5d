"""One betting round: turn order, legal amounts, reopening and betting irregularities.

No limit is the default; a `BettingStructure` (controller/core/structures.py) makes the same round play
pot, fixed, spread, split or step-spread limit, with a stud bring-in and completion. Pure: the only
clock is the `t` of the events fed in. Rules and their sources are explained in docs/betting.md; the
profile decides where the rulebooks disagree (under-raise, all-in reopening, the limit raise cap).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Literal

from controller.core.alerts import Finding
from controller.core.chips import DEFAULT_CHIP_VALUES, all_in_reopens, is_oversized_chip, under_raise_stands
from controller.core.events import ActionEvent, ChipsEvent
from controller.core.profiles import Profile
from controller.core.record import ActionRecord, BetStreet, RecordedAction
from controller.core.structures import LIMIT_KINDS, NO_LIMIT, BettingStructure, Situation, Wager

IntentKind = Literal["check", "call", "raise"]


class Intent:
    """What a seat's action or chips mean before the turn/minimum rules are applied.

    `total` is the seat's total for the round the seat asked for; `declared` is True for console
    actions and spoken declarations (the handbuch's 50 % rule only covers undeclared raises).
    """

    __slots__ = ("declared", "from_chips", "kind", "oversized", "total", "what")

    def __init__(self, kind: IntentKind, total: int, *, declared: bool, oversized: bool = False,
                 what: str = "", from_chips: bool = False) -> None:
        self.kind = kind
        self.from_chips = from_chips
        self.total = total
        self.declared = declared
        self.oversized = oversized
        self.what = what or f"{kind} {total}"


class BettingRound:
    """One betting round (no limit unless a structure says otherwise). Pure: time only from events' `t`.

    Limit and stud set-up (all optional): `structure` the betting structure; `big` the higher limit is in
    force this round (hold'em turn/river, stud 5th street on); `big_allowed` the higher limit may be bet
    (002 §4: an open pair on 4th street); `pot` the chips in the middle before this round (antes and dead
    money included: pot limit counts them); `forced_opener` a stud seat that must bring in (post the
    bring-in or complete) and may neither check nor fold before it has; `wagers` how many wagers that
    count toward the raise cap are already in (a big blind counts as the opening bet).
    """

    def __init__(self, *, street: BetStreet, seats: Sequence[int], first_to_act: int,
                 stacks: Mapping[int, int], posted: Mapping[int, int], bb: int, profile: Profile,
                 t: float, absent: Collection[int] = (),
                 chip_values: Collection[int] = DEFAULT_CHIP_VALUES,
                 structure: BettingStructure = NO_LIMIT, big: bool = False, big_allowed: bool = False,
                 pot: int = 0, forced_opener: int | None = None, wagers: int | None = None) -> None:
        if bb <= 0 and structure.kind != "no":
            bb = structure.small_bet  # stud has no big blind: its minimum bet is the small bet
        if first_to_act not in seats or len(set(seats)) != len(seats) or bb <= 0:
            raise ValueError(f"bad betting round set-up: seats {list(seats)}, first {first_to_act}, bb {bb}")
        self.street: BetStreet = street
        self.profile = profile
        self.bb = bb
        self.structure = structure
        self._limited = structure.kind != "no"  # no limit keeps its own (faster) path unchanged
        self.big = big
        self.big_allowed = big_allowed
        self.pot_before = pot
        self.forced_opener = forced_opener if forced_opener in seats else None
        self.seats: tuple[int, ...] = tuple(seats)
        self._index = {s: i for i, s in enumerate(self.seats)}
        self._chip_values = chip_values
        self.committed: dict[int, int] = {s: posted.get(s, 0) for s in self.seats}
        self.stacks: dict[int, int] = {s: stacks[s] for s in self.seats}  # chips behind
        if min(self.stacks.values(), default=0) < 0 or min(posted.values(), default=0) < 0:
            raise ValueError("negative stack or post")
        self.folded: set[int] = set()
        self.all_in: set[int] = {s for s in self.seats if self.stacks[s] == 0}
        self._n_can_act = len(self.seats) - len(self.all_in)  # neither folded nor all-in
        self._ring = self.seats + self.seats
        bet = max(posted.values(), default=0)
        # Preflop the big blind is the bet to call even when the big blind itself is short.
        self.current_bet = max(bet, bb) if street == "preflop" and bet > 0 else bet
        self.min_raise_inc = bb  # the last full bet/raise increment, at least the big blind (001 §8)
        # Limit: wagers counting toward the cap (opening bet + full raises); a posted blind is the bet.
        self.wagers = (1 if self.current_bet > 0 else 0) if wagers is None else wagers
        self.bring_in_open = False  # a stud bring-in is the bet to call and nobody completed it yet
        if self._limited and structure.kind in ("fixed", "split"):
            self.min_raise_inc = structure.bet_unit(big)
        self.last_aggressor: int | None = None
        self.records: list[ActionRecord] = []
        self.actions_taken = 0
        self.to_act: int | None = None
        self.closed = False
        self._acted: set[int] = set()  # acted since the betting was last (re)opened
        self._must_call: set[int] = set()  # short callers who must complete (000 §3.1)
        self._short_stood: dict[int, int] = {}  # short calls the table left standing: seat → bet they faced
        self._short_accepted = False  # the floor accepted a short call as it lies
        self._pending: dict[int, tuple[Intent, int]] = {}  # out-of-turn intent, bet it faced
        self._refused: tuple[int, int] | None = None  # a refused raise (seat, total) that stands as a call
        self._refused_accepted = False  # the floor accepted the table as it is: a call to it owes nothing
        self._booked: _Booked | None = None  # an under-raise booked completed, the chips short of it
        self._string: tuple[int, int, int, int] | None = None  # string bet: seat, chips, stood at, bet before
        self._announced: tuple[int, int] | None = None  # "raise" said, only the call placed: seat, chips
        self._bet_before = 0  # the bet the last applied action faced
        self._acted_at: dict[int, int] = {}  # the bet each seat matched or made when it last acted
        self.passive: set[int] = set()  # seats that showed a hole card: no bet or raise (000 §4.1)
        self._oot: set[int] = set()  # seats that acted out of turn during the current turn
        self._checked_facing: set[int] = set()  # seats told once that a check facing a bet is no action
        self._zone: dict[int, int] = dict(self.committed)  # chips last seen in each bet zone
        self._rec_total: dict[int, int] = dict(self.committed)
        self._absent: set[int] = set(absent)
        self._turn_t = t
        self._time_flagged = False
        self._clock_deadline: float | None = None
        self._limit = min(profile.action_time_s, profile.all_in_time_s)
        self._sit_wager: tuple[Situation, Wager | None] | None = None  # a limit wager's last structure answer
        self._run(first_to_act, t, [], include_start=True)

    # ------------------------------------------------------------------ public views

    @property
    def min_raise_to(self) -> int:
        """The smallest legal total for a bet or raise now (an all-in may be less)."""
        if self._limited:
            w = self.legal_wager(self.to_act)
            return w.min_to if w is not None else self.current_bet
        return self.current_bet + self.min_raise_inc

    def situation(self, seat: int | None) -> Situation:
        """The round as the structure sees it for `seat` (controller/core/structures.py)."""
        committed = self.committed.get(seat, 0) if seat is not None else 0
        return Situation(current_bet=self.current_bet, last_increment=self.min_raise_inc, wagers=self.wagers,
                         big=self.big, big_allowed=self.big_allowed,
                         pot=self.pot_before + sum(self.committed.values()), committed=committed,
                         live=len(self.seats) - len(self.folded), bring_in_open=self.bring_in_open)

    def legal_wager(self, seat: int | None) -> Wager | None:
        """The structure's legal bet/raise/completion for `seat` now (None: the cap is reached)."""
        return self.structure.wager(self.situation(seat))

    def must_bring_in(self, seat: int) -> bool:
        """The stud forced opener has not posted yet: it may not check or fold (002 §3)."""
        return seat == self.forced_opener and self.committed[seat] == 0 and seat not in self.folded

    def to_call(self, seat: int) -> int:
        """Chips `seat` must add to call (capped by its chips behind)."""
        return max(0, min(self.current_bet - self.committed[seat], self.stacks[seat]))

    def can_raise(self, seat: int) -> bool:
        """Whether the betting is open for `seat` to raise (not after a non-reopening all-in)."""
        if seat in self._must_call or seat in self.passive:
            return False
        return seat not in self._acted or self._reopened_by_short_all_ins(seat)

    def _reopened_by_short_all_ins(self, seat: int) -> bool:
        """TDA 2024 Rule 47 (full-raise profiles): short all-ins that together raise the bet the seat
        last acted on by a full raise reopen the betting for it (limit: always, by a full bet)."""
        if seat not in self._acted_at:
            return False
        if self.structure.is_limit:
            return self.current_bet - self._acted_at[seat] >= self.min_raise_inc and not self.bring_in_open
        if self.profile.all_in_reopen != "full_raise":
            return False
        return self.current_bet - self._acted_at[seat] >= self.min_raise_inc

    @property
    def pending(self) -> dict[int, int]:
        """Out-of-turn actions waiting for their seat's turn: seat → total it asked for."""
        return {s: it.total for s, (it, _) in self._pending.items()}

    # ------------------------------------------------------------------ inputs

    def feed(self, ev: ActionEvent | ChipsEvent) -> list[Finding]:
        """Interpret one `action` or `chips` event.

        Time is checked first, so a seat acting after its clock ran out is dead whether or not the
        engine ticked in between (its late action is then not applied).
        """
        timed = self.tick(ev.t) if self.to_act is not None else []
        if timed and timed[0].code == "DEAD_HAND_CLOCK" and timed[0].seat == ev.seat:
            return timed
        if self._announced is not None and (ev.seat != self._announced[0] or isinstance(ev, ActionEvent)):
            timed += self._settle_announced(ev.t, ev.seat == self._announced[0])
        out = self._feed_action(ev) if isinstance(ev, ActionEvent) else self._feed_chips(ev)
        return timed + out if timed else out

    def _settle_announced(self, t: float, by_console: bool = False) -> list[Finding]:
        """A raise was said and the call placed (000 §3.1 (c)), but the raise chips never followed: the
        next seat acted, or the dealer knocked. The chips in front of the seat are its call. A console
        action of the seat itself says what it did instead, so nothing is applied for it."""
        seat, placed = self._announced or (0, 0)
        self._announced = None
        if by_console or seat != self.to_act or seat in self.folded:
            return []
        findings: list[Finding] = []
        intent = Intent("call", placed, declared=True, what=f"declared raise, {placed} placed",
                        from_chips=True)
        if self._apply(seat, intent, t, findings):
            self._run(seat, t, findings)
        return findings

    def _announced_call_part(self, ev: ChipsEvent, committed: int, cap: int) -> bool:
        """000 §3.1 (c): a raise may be said first, the call placed, then the raise in one motion. Chips
        with a raise said but no amount, not above the bet faced, are that call part: held until the
        seat's next chips (the raise) or the next seat's action (then they are its call)."""
        if (ev.declared not in ("bet", "raise") or ev.declared_amount is not None
                or ev.seat != self.to_act or not committed < ev.amount <= self.current_bet
                or ev.amount >= cap):
            return False
        self._zone[ev.seat] = ev.amount
        self._announced = (ev.seat, ev.amount)
        return True

    def fold(self, seat: int, t: float, reason: str) -> list[Finding]:
        """Engine-caused fold (hand mucked, dead hand). Idempotent; unknown seats are ignored."""
        if seat not in self._index or seat in self.folded:
            return []
        self._pending.pop(seat, None)
        self._do_fold(seat, t)
        findings: list[Finding] = []
        if not self.closed:
            self._recheck(t, findings)
        return findings

    def set_present(self, seat: int, present: bool, t: float) -> list[Finding]:
        """A `present` event: an absent seat facing a bet is folded, otherwise it checks (001 §5)."""
        if present:
            self._absent.discard(seat)
            return []
        self._absent.add(seat)
        findings: list[Finding] = []
        if seat == self.to_act:
            self._run(seat, t, findings, include_start=True)
        return findings

    def show_card(self, seat: int) -> None:
        """The seat showed one of its hole cards during the betting: it may only check or call."""
        if seat in self._index and seat not in self.folded:
            self.passive.add(seat)

    def quiet(self, t: float) -> bool:
        """`tick(t)` would say nothing and change nothing: no clock called and a young turn."""
        return self._clock_deadline is None and t - self._turn_t <= self._limit

    def tick(self, t: float) -> list[Finding]:
        """Time passes: ACTION_TIME once per turn, DEAD_HAND_CLOCK when a called clock ran out."""
        if self._clock_deadline is None and t - self._turn_t <= self._limit:
            return []  # the usual case, asked at every event of a round: no clock called, a young turn
        seat = self.to_act
        if seat is None:
            return []
        deadline = self._clock_deadline
        if deadline is not None and t >= deadline:
            msg = f"Seat {seat} did not act within {self.profile.clock_s:g} s of the clock: its hand is dead"
            forced = min(self.structure.bring_in, self.stacks[seat]) if self.must_bring_in(seat) else 0
            if forced:
                msg += f"; its bring-in ({forced}) is posted and stays in"
            f = [Finding(code="DEAD_HAND_CLOCK", seat=seat, message=msg)]
            if forced:
                # Stud: the forced bet is owed even by a dead hand (002 §3: no check, no fold); it is
                # posted and stays in, and the next seat acts on it (docs/rules.md, Seven-card stud).
                self._apply(seat, Intent("raise", forced, declared=True, what=f"bring-in {forced}"), t, f)
            self._do_fold(seat, t)
            self._run(seat, t, f)
            return f
        waited = t - self._turn_t
        if self._time_flagged or waited <= self._limit:
            return []
        limit = self.profile.all_in_time_s if self._facing_all_in(seat) else self.profile.action_time_s
        if waited <= limit:
            return []
        self._time_flagged = True
        return [Finding(code="ACTION_TIME", seat=seat,
                        message=f"Seat {seat} has been to act for {waited:.0f} s (allowance {limit:g} s)")]

    def clock_called(self, t: float) -> list[Finding]:
        """Console `clock`: the seat to act has profile.clock_s more seconds (004 §11(4))."""
        if self.to_act is not None and self._clock_deadline is None:
            self._clock_deadline = t + self.profile.clock_s
        return []

    # ------------------------------------------------------------------ event interpretation

    def _bad(self, seat: int | None, message: str) -> list[Finding]:
        return [Finding(code="BAD_EVENT", seat=seat, message=message)]

    def _feed_action(self, ev: ActionEvent) -> list[Finding]:
        seat, act = ev.seat, ev.action
        if seat not in self._index:
            return self._bad(seat, f"Action from seat {seat}, which is not in this betting round")
        if seat in self.folded:
            return self._bad(seat, f"Action {act} from seat {seat}, which has folded")
        committed = self.committed[seat]
        if self.closed:
            if self._is_repeat(seat, committed if ev.amount is None else ev.amount):
                return []
            return self._bad(seat, f"Action {act} from seat {seat} after the betting round closed")
        if act in ("fold", "check") and seat == self.forced_opener and self.must_bring_in(seat):
            return self._bad(seat, f"Seat {seat} must bring in ({self.structure.bring_in}) or complete to "
                                   f"{self.structure.completion_to()}: no check or fold (002 §3)")
        left: list[Finding] = []  # the table went on past a short call: `seat` is then in turn
        if seat != self.to_act and self._short_call_left(seat, ev.t, left) and self.closed:
            return left + self._bad(seat, f"Action {act} from seat {seat} after the betting round closed")
        if act == "fold":
            return left + self._fold_action(seat, ev.t)
        if seat in self.all_in:
            return self._bad(seat, f"Action {act} from seat {seat}, which is all-in")
        cap = committed + self.stacks[seat]
        if act == "check" and committed < self.current_bet:
            return left + self._check_facing_bet(seat)
        if act == "check":
            total = committed
        elif act == "allin":
            total = cap
            if ev.amount is not None and ev.amount != cap:
                return self._bad(seat, f"Seat {seat} all-in to {ev.amount}, but its chips make {cap}")
        elif ev.amount is None:
            if act != "call":
                return self._bad(seat, f"Action {act} from seat {seat} without an amount")
            total = min(self.current_bet, cap)
        else:
            total = self._said_above_stack(act, ev.amount, cap)
        problem = self._amount_problem(seat, total, committed, cap)
        if problem:
            return self._bad(seat, problem)
        findings: list[Finding] = []
        if act in ("call", "bet") and seat == self.to_act and self._is_full_bring_in(total):
            self._make_bring_in_full(seat, total, ev.t)
            self._run(seat, ev.t, left)
            return left
        if act == "call" and total > self.current_bet:
            findings += self._refused_raise_stood(total, ev.t)
            if self._string is not None and self._string_stood(total):
                findings.append(Finding(code="CORRECTION_NOT_FOLLOWED", seat=self.last_aggressor, message=(
                    f"Seat {self.last_aggressor}'s string bet to {total} was called; expected: it stands at "
                    f"its first amount. It is taken as played")))
        if not findings and not left and seat != self.to_act and self._is_repeat(seat, total):
            return []  # the console confirming a wager the chip readers already reported
        intent = self._action_intent(seat, act, total, cap)
        if isinstance(intent, str):
            return self._bad(seat, intent)
        findings = left + findings
        if seat != self.to_act:
            if self._is_repeat(seat, total):
                return []
            return findings + self._out_of_turn(seat, intent, ev.t)
        if self._apply(seat, intent, ev.t, findings):
            self._run(seat, ev.t, findings)
        return findings

    def _check_facing_bet(self, seat: int) -> list[Finding]:
        """A check said facing a bet. The books are silent; with TDA 2024 (Rules 1, 3) it is no action:
        nothing is applied, the seat keeps its turn (or its place) and still calls, raises or folds. Said
        once per seat and round, so a repeated word does not flood the floor (docs/betting.md)."""
        if seat in self._checked_facing:
            return []
        self._checked_facing.add(seat)
        return [Finding(code="CHECK_FACING_BET", seat=seat, message=(
            f"Seat {seat} says check facing a bet of {self.current_bet}: not an action; it still calls "
            f"({self.to_call(seat)} more), raises or folds"))]

    def rejoin(self, seat: int, stack: int, t: float) -> None:
        """A dead hand that keeps betting and is answered: it is back in this round as played, to act now
        (its chips stay in the pot; the engine keeps the hand dead, so it cannot win). Seats are kept in
        clockwise order from the round's first seat; a closed round opens again."""
        if seat in self._index:
            if seat in self.folded:
                self.folded.discard(seat)
                if self.stacks[seat] == 0:
                    self.all_in.add(seat)
                else:
                    self._n_can_act += 1
        else:
            first = self.seats[0]
            # clockwise from the first seat: the seats at or after it, then those before it
            self.seats = tuple(sorted((*self.seats, seat), key=lambda s: (s < first, s)))
            self._index = {s: i for i, s in enumerate(self.seats)}
            self._ring = self.seats + self.seats
            self.committed[seat] = self._zone[seat] = self._rec_total[seat] = 0
            self.stacks[seat] = stack
            if stack == 0:
                self.all_in.add(seat)
            else:
                self._n_can_act += 1
        self.closed = False
        self.to_act = seat
        self._turn_t = t

    def _is_full_bring_in(self, total: int) -> bool:
        """Stud: the bring-in seat went all-in for less than the bring-in and `total` is the full
        bring-in. 002 §3 and TDA 2024 are silent; we let the next seat either call the short amount or
        bring it in to the full bring-in (room practice, docs/rules.md): both are legal, neither is a
        completion."""
        bring_in = self.structure.bring_in
        return (self._limited and self.bring_in_open and 0 < self.current_bet < bring_in == total
                and self.wagers == 0)

    def _make_bring_in_full(self, seat: int, total: int, t: float) -> None:
        """The full bring-in over a short all-in one: it becomes the bet to call, still a bring-in (the
        next seat may complete; it counts toward no cap and reopens nothing)."""
        self._bet_before = self.current_bet
        self._acted.add(seat)
        self.current_bet = total
        self._commit(seat, total, "call", t)
        self._zone[seat] = total

    def revive(self, ev: ActionEvent) -> list[Finding] | None:
        """After the round closed on a refused raise standing as a call: a call to the refused amount
        shows the table let the raise stand. Reopen the round and apply both; None when not the case."""
        if self._refused is None or ev.action != "call" or ev.amount is None or ev.amount < self._refused[1]:
            return None
        if ev.amount > self._refused[1] and ev.amount != self._refused_full():
            return None
        if ev.seat not in self._index or ev.seat in self.folded or ev.seat in self.all_in:
            return None
        self.closed = False
        self.to_act = ev.seat
        self._turn_t = ev.t
        return self.feed(ev)

    def _refused_full(self) -> int:
        """The smallest full raise (or completion) the refused raiser had: a call to it shows the table
        took the refused raise as that full wager."""
        assert self._refused is not None
        legal = self.legal_wager(self._refused[0]) if self._limited else None
        return legal.min_to if legal is not None else self.min_raise_to

    def _refused_raise_stood(self, total: int, t: float) -> list[Finding]:
        """A call to the amount of a refused raise: the table let that raise stand. Said once; the
        raise is applied as the chips show, so the round follows the hand actually played."""
        refused = self._refused
        if refused is None:
            return []
        raiser = refused[0]
        minimum = self._refused_full()
        if total != refused[1] and not refused[1] < total == minimum:
            return []
        self._refused = None
        cap = self.committed[raiser] + self.stacks[raiser]
        how = "was called" if total == refused[1] else (
            f"was called at {total}: the table took it as the full wager (seat {raiser} adds "
            f"{total - refused[1]})")
        # An opening bet that was refused counted as a check (nothing to call), a raise as a call: the
        # message says what the first alert said.
        wager, stood = ("bet", "a check") if self.current_bet == 0 else ("raise", "a call")
        findings = [Finding(code="CORRECTION_NOT_FOLLOWED", seat=raiser, message=(
            f"Seat {raiser}'s refused {wager} to {refused[1]} {how}; expected: it counts as {stood}. The "
            f"{wager} is taken as played"))]
        if self._refused_accepted:  # the floor accepted the table as it is: nothing was owed
            findings.clear()
        if total < minimum and total < cap:
            self._as_played(raiser, total, t)  # an under-raise: no full raise, the increment stays
        elif self.structure.is_limit or self.bring_in_open:  # stud: a completion, not a raise (002 §3)
            self._limit_raise(raiser, min(total, cap), cap, t, findings)
        else:
            self._raise(raiser, min(total, cap), cap, t, findings)
        return findings

    def _action_intent(self, seat: int, act: str, total: int, cap: int) -> Intent | str:
        """The intent of a console action, or the reason it is impossible."""
        bet = self.current_bet
        if act == "check":
            if self.committed[seat] < bet:
                return f"Seat {seat} checks facing a bet of {bet}"
            return Intent("check", total, declared=True, what="check")
        if act == "call":
            if total > bet:
                return f"Seat {seat} calls to {total}, above the current bet of {bet}"
            return Intent("call", total, declared=True, what=f"call {total}")
        if act in ("bet", "raise") and total <= bet:
            return f"Seat {seat} {act}s to {total}, not above the current bet of {bet}"
        if act == "allin" and total <= bet:
            return Intent("call", total, declared=True, what=f"all-in {total}")
        return Intent("raise", total, declared=True, what=f"{act} to {total}")

    def _said_above_stack(self, act: str, amount: int, cap: int) -> int:
        """A call of a bet bigger than the seat's chips is an all-in call: a player can only wager what is
        in front of him (001 §8: bets are bounded by the table stake; 001 §8.1: an all-in call for less).
        The console sends the bet asked, not the stack. A bet or raise above the stack stays impossible
        input (a wrong amount: which one was meant cannot be told)."""
        if act != "call" or amount <= cap or amount > self.current_bet:
            return amount
        return cap

    def _amount_problem(self, seat: int, total: int, committed: int, cap: int) -> str:
        if total > cap:
            return f"Seat {seat}: total {total} is more than its {cap} chips"
        if total < committed:
            return f"Seat {seat}: total {total} is lower than the {committed} already committed"
        return ""

    def _is_repeat(self, seat: int, total: int) -> bool:
        """The same seat's last accepted action reported again (console and chip readers both)."""
        if not self.records:
            return False
        last = self.records[-1]
        return last.seat == seat and last.total == total == self.committed[seat]

    def _feed_chips(self, ev: ChipsEvent) -> list[Finding]:
        seat, amount = ev.seat, ev.amount
        if seat not in self._index:
            return self._bad(seat, f"Chips from seat {seat}, which is not in this betting round")
        committed = self.committed[seat]
        prev_zone = self._zone[seat]
        if self._refused is not None and self._refused[0] == seat and amount < self._refused[1]:
            self._refused = None  # the excess went back: the refused amount no longer lies there
        if self.closed and seat not in self.folded and seat not in self.all_in:
            string = self._string_bet(ev, committed, prev_zone)
            if string:
                return string
        if seat in self.folded or seat in self.all_in or self.closed:
            if amount <= max(committed, prev_zone):
                self._zone[seat] = amount  # chips swept into the pot or change returned
                return []
            why = "has folded" if seat in self.folded else "is all-in" if seat in self.all_in else \
                "bet after the betting round closed"
            return self._bad(seat, f"Seat {seat} added chips (bet zone {amount}) but {why}")
        cap = committed + self.stacks[seat]
        if amount > cap:
            return self._bad(seat, f"Seat {seat}: {amount} in the bet zone is more than its {cap} chips")
        if self._announced is not None and self._announced[0] == seat and amount > self._announced[1]:
            self._announced = None  # the raise chips after the call part: one declared raise
            ev = replace(ev, declared="raise")
        if self._announced_call_part(ev, committed, cap):
            return []
        string = self._string_bet(ev, committed, prev_zone)
        if string:
            return string
        self._zone[seat] = amount
        if amount < committed:
            if prev_zone <= amount:  # still completing a corrected total: nothing new
                return []
            return [Finding(code="BET_TAKEN_BACK", seat=seat, message=(
                f"Seat {seat}: bet zone {amount} is lower than the {committed} already committed: chips "
                f"placed are binding, {committed} stand; {committed - amount} must go back in"))]
        if amount == committed:
            self._pending.pop(seat, None)  # out-of-turn chips taken back
            return []
        if (prev_zone > committed and amount <= prev_zone and seat != self.to_act
                and seat not in self._pending):
            return []  # the dealer is returning an excess / making change
        intent = self._chips_intent(ev, committed, cap)
        if isinstance(intent, str):
            return self._bad(seat, intent)
        if seat != self.to_act:
            return self._out_of_turn(seat, intent, ev.t)
        findings: list[Finding] = []
        if self._apply(seat, intent, ev.t, findings):
            self._run(seat, ev.t, findings)
        return findings

    def _string_bet(self, ev: ChipsEvent, committed: int, prev_zone: int) -> list[Finding]:
        """000 §3.1: chips added in a second motion after the seat's action (nobody acted since) are a
        string bet: not allowed; the action stands as the first amount and the extra goes back."""
        seat = ev.seat
        last = self.records[-1] if self.records else None
        if (last is None or last.seat != seat or ev.amount <= max(committed, prev_zone)
                or ev.declared is not None or seat in self._pending or last.action == "fold"):
            return []
        self._zone[seat] = ev.amount
        if not self.closed:  # a later call to these chips shows the table let them stand
            self._string = (seat, ev.amount, committed, self._bet_before)
        return [Finding(code="STRING_BET", seat=seat, message=(
            f"Seat {seat} added chips in a second motion ({committed} → {ev.amount}): a string bet; its "
            f"action stands at {committed}, return {ev.amount - committed}"))]

    def _chips_intent(self, ev: ChipsEvent, committed: int, cap: int) -> Intent | str:
        """Read chips placed (000 §3.1, 001 §8): declaration, oversized chip, call, all-in or raise."""
        amount, bet = ev.amount, self.current_bet
        if ev.declared == "call":
            return Intent("call", amount, declared=True, what=f"declared call ({amount} placed)",
                          from_chips=True)
        if ev.declared is not None:
            total = amount if ev.declared_amount is None else min(ev.declared_amount, cap)
            if total < committed:
                return f"Seat {ev.seat}: declared {ev.declared} to {total}, below its {committed} committed"
            return Intent("raise", total, declared=True, what=f"declared {ev.declared} to {total}",
                          from_chips=True)
        increase = amount - committed
        to_call = max(0, bet - committed)
        if (to_call > 0 or self.street == "preflop") and is_oversized_chip(increase, to_call,
                                                                            self._chip_values):
            return Intent("call", amount, declared=False, oversized=True, what=f"one {increase} chip",
                          from_chips=True)
        kind: IntentKind = "call" if amount <= bet else "raise"
        return Intent(kind, amount, declared=False, what=f"{amount} in chips", from_chips=True)

    # ------------------------------------------------------------------ applying an action in turn

    def _apply(self, seat: int, intent: Intent, t: float, findings: list[Finding]) -> bool:
        """Apply `seat`'s action in turn. True when the seat's turn is over, False when it must act again."""
        done = self._apply_rules(seat, intent, t, findings)
        if not intent.from_chips:
            self._zone[seat] = self.committed[seat]  # a console action: the chips are what it says
        return done

    def _apply_rules(self, seat: int, intent: Intent, t: float, findings: list[Finding]) -> bool:
        self._bet_before = self.current_bet
        committed = self.committed[seat]
        cap = committed + self.stacks[seat]
        bet = self.current_bet
        kind, total = intent.kind, intent.total
        sit: Situation | None = None  # a limit wager's view of the round: built once, read by both steps
        if kind == "raise" and total <= bet and (not intent.declared or total == cap):
            kind = "call"
        if kind == "raise":
            if seat in self._must_call:
                findings.append(Finding(
                    code="CALL_SHORT", seat=seat,
                    message=f"Seat {seat} must complete its call to {min(bet, cap)}; no raise allowed: "
                            f"counted as the call, return {total - min(bet, cap)}"))
                kind, total = "call", min(bet, cap)
            elif seat in self.passive:
                findings.append(Finding(
                    code="RAISE_AFTER_EXPOSED_CARD", seat=seat,
                    message=f"Seat {seat} ({intent.what}) showed a hole card during the betting and may only "
                            f"check or call (000 §4.1): it stands as "
                            f"{'a check' if min(bet, cap) == committed else f'a call to {min(bet, cap)}'}"))
                kind, total = "call", min(bet, cap)
            elif seat in self._acted and not self._reopened_by_short_all_ins(seat):
                # 000 §3.1, 001 §8.2: the raise is refused; by default it stands as a call (TDA 2024
                # Rule 47's reading), so the hand goes on whether or not the dealer repeats the call.
                findings.append(Finding(
                    code="RAISE_NOT_REOPENED", seat=seat,
                    message=f"Seat {seat} ({intent.what}) may not raise: the betting was not reopened since "
                            f"it acted; it stands as a call to {min(bet, cap)} (return the excess)"))
                self._refused = (seat, total)
                kind, total = "call", min(bet, cap)
            elif self._limited:
                sit = self.situation(seat)
                kind, total = self._limit_amount(seat, intent, total, cap, findings, sit)
            elif total < self.min_raise_to and total < cap:
                kind, total = self._under_raise(seat, intent, total, cap, findings)
        if kind == "raise" and self._limited and (self.structure.kind in LIMIT_KINDS or self.bring_in_open
                                                  or self.must_bring_in(seat)):
            self._limit_raise(seat, total, cap, t, findings, sit)
            return True
        if kind == "raise":
            self._raise(seat, total, cap, t, findings)
            return True
        return self._call(seat, intent, total, cap, t, findings)

    # ------------------------------------------------------------------ limit structures

    def _limit_amount(self, seat: int, intent: Intent, total: int, cap: int, findings: list[Finding],
                      sit: Situation) -> tuple[IntentKind, int]:
        """A bet/raise under a limit structure: the bring-in, the cap, the exact or bounded amount."""
        bet = self.current_bet
        if seat == self.forced_opener and self.must_bring_in(seat) and total <= self.structure.bring_in:
            if total < self.structure.bring_in and total < cap:
                findings.append(Finding(
                    code="BET_BELOW_MINIMUM", seat=seat,
                    message=f"Seat {seat}: bring-in of {total} is below the bring-in of "
                            f"{self.structure.bring_in}: complete it to {self.structure.bring_in}"))
                total = self.structure.bring_in
            return "raise", total
        w = self.structure.wager(sit)
        self._sit_wager = (sit, w)  # `_limit_raise` applies this wager next: the same situation
        if w is None:
            fixed = min(bet, cap)
            as_what = "a check" if fixed == self.committed[seat] else f"a call to {fixed}"
            findings.append(Finding(
                code="BET_ABOVE_LIMIT", seat=seat,
                message=f"Seat {seat} ({intent.what}): the raise cap of this round is reached (a bet and "
                        f"{self.structure.raise_cap} raises); it stands as {as_what}, "
                        f"return {total - fixed}"))
            return "call", fixed
        if total > w.max_to or (w.exact and total > w.min_to and total not in w.exact):
            legal = max(a for a in w.exact if a <= total) if w.exact else w.max_to
            legal = min(legal, cap)
            findings.append(Finding(
                code="BET_ABOVE_LIMIT", seat=seat,
                message=f"Seat {seat}: {_noun(w.kind)} to {total} is above the {self._limit_name()} of "
                        f"{legal}: it stands as a {_noun(w.kind)} to {legal}, return {total - legal}"))
            return "raise", legal
        if total < w.min_to and total < cap:
            return self._under_limit(seat, intent, total, cap, w, findings)
        return "raise", total

    def _limit_name(self) -> str:
        kind = self.structure.kind
        if kind == "pot":
            return "pot-limit maximum"
        if kind in ("fixed", "split"):
            return "fixed amount"
        return "spread limit"

    def _under_limit(self, seat: int, intent: Intent, total: int, cap: int, w: Wager,
                     findings: list[Finding]) -> tuple[IntentKind, int]:
        """A limit bet/raise/completion short of the legal amount: it stands (completed) or is a call."""
        bet, minimum = self.current_bet, w.min_to
        if under_raise_stands(self.profile, total - bet, minimum - bet, intent.declared):
            fixed = min(minimum, cap)
            self._book(seat, intent, fixed)
            findings.append(Finding(
                code="BET_BELOW_MINIMUM", seat=seat,
                message=f"Seat {seat}: {_noun(w.kind)} to {total} is below the {_noun(w.kind)} of {minimum}; "
                        f"it stands as a {_noun(w.kind)}: complete it to {fixed}"))
            return "raise", fixed
        fixed = min(bet, cap)
        as_what = "a check" if fixed == self.committed[seat] else f"a call to {fixed}"
        self._refused = (seat, total)  # a later call to `total` shows the table let it stand as a raise
        findings.append(Finding(
            code="BET_BELOW_MINIMUM", seat=seat,
            message=f"Seat {seat}: {_noun(w.kind)} to {total} is below the {_noun(w.kind)} of {minimum}; it "
                    f"counts as {as_what}: return {total - fixed}"))
        return "call", fixed

    def _limit_raise(self, seat: int, total: int, cap: int, t: float, findings: list[Finding],
                     sit: Situation | None = None) -> None:
        """Apply a legal limit wager: bring-in, completion, full raise or short all-in (TDA 2024 47-B);
        `sit`: the round as `_limit_amount` saw it for this wager (nothing changed since)."""
        bet, structure = self.current_bet, self.structure
        sit = sit if sit is not None else self.situation(seat)
        name: RecordedAction = "allin" if total == cap else "bet" if bet == 0 else "raise"
        forced = seat == self.forced_opener and self.must_bring_in(seat)
        if forced and total <= structure.bring_in:
            self.bring_in_open = True  # the bring-in: not a bet that counts, completing it is no raise
            self._acted.add(seat)
        elif structure.is_completion(sit, total) or (forced and total > bet):
            # 002 §3: completing the bring-in is the round's opening bet, not a raise; it reopens the
            # betting for the bring-in. A short all-in completion does not count or reopen; in pot and
            # no limit the bring-in then stays open, to be completed on top of the all-in.
            full_completion = total >= structure.completion_to()
            self.bring_in_open = not full_completion and structure.kind in ("pot", "no")
            if full_completion:
                self.wagers = 1
                self.min_raise_inc = max(self.min_raise_inc, total - bet, structure.small_bet)
                self._acted = {seat}
                self.last_aggressor = seat
            else:
                self._acted.add(seat)
        else:
            memo = self._sit_wager
            w = memo[1] if memo is not None and memo[0] is sit else structure.wager(sit)
            full = w is not None and total >= w.min_to
            if full or structure.short_all_in_reopens(sit, total):
                if full and structure.kind not in ("fixed", "split"):
                    self.min_raise_inc = max(self.min_raise_inc, total - bet)
                self.wagers += 1
                self._acted = {seat}
                self.last_aggressor = seat
                self.bring_in_open = False
            else:
                self._acted.add(seat)
                findings.append(Finding(
                    code="ALL_IN_AS_CALL", seat=seat,
                    message=f"Seat {seat} all-in to {total} raises by {total - bet}, less than half a bet: "
                            f"a call for reopening (TDA 2024 Rule 47-B)"))
        if self.big_allowed and structure.kind in ("fixed", "split") and total - bet > structure.small_bet:
            self.big = True  # 002 §4: the higher limit was bet; the round stays at it
        if structure.kind in ("fixed", "split"):
            self.min_raise_inc = structure.bet_unit(self.big or (self.big_allowed and self.wagers > 0))
        self.current_bet = total
        self._commit(seat, total, name, t)

    def _under_raise(self, seat: int, intent: Intent, total: int, cap: int,
                     findings: list[Finding]) -> tuple[IntentKind, int]:
        """A bet/raise short of the minimum: it stands (completed) or is a call, per profile."""
        bet, minimum = self.current_bet, self.min_raise_to
        word = "bet" if bet == 0 else "raise"
        if under_raise_stands(self.profile, total - bet, self.min_raise_inc, intent.declared, facing=bet):
            fixed = min(minimum, cap)
            self._book(seat, intent, fixed)
            how = f"complete it to {fixed}" if fixed == minimum else f"complete it all-in to {fixed}"
            findings.append(Finding(
                code="BET_BELOW_MINIMUM", seat=seat,
                message=f"Seat {seat}: {word} to {total} is below the minimum of {minimum}; it stands as a "
                        f"{word}: {how}"))
            return "raise", fixed
        fixed = min(bet, cap)
        as_what = "a check" if fixed == self.committed[seat] else f"a call to {fixed}"
        change = f"return {total - fixed}" if total >= fixed else f"add {fixed - total}"
        if total > bet:
            self._refused = (seat, total)  # a later call to `total` shows the table let it stand
        findings.append(Finding(
            code="BET_BELOW_MINIMUM", seat=seat,
            message=f"Seat {seat}: {word} to {total} is below the minimum of {minimum}; it counts as "
                    f"{as_what}: {change}"))
        return "call", fixed

    def _raise(self, seat: int, total: int, cap: int, t: float, findings: list[Finding]) -> None:
        bet = self.current_bet
        raised_by = total - bet
        name: RecordedAction = "allin" if total == cap else "bet" if bet == 0 else "raise"
        if raised_by >= self.min_raise_inc:
            self.min_raise_inc = raised_by
            self._acted = {seat}
            self.last_aggressor = seat
        elif all_in_reopens(self.profile, raised_by, self.min_raise_inc):
            self._acted = {seat}  # cuca: half a raise reopens; the minimum increment stays (001 §8.2)
            self.last_aggressor = seat
        else:
            self._acted.add(seat)
            self.last_aggressor = seat  # it raised the bet all the same: it is called, so it shows first
            if self.profile.all_in_reopen == "half_raise":
                findings.append(Finding(
                    code="ALL_IN_AS_CALL", seat=seat,
                    message=f"Seat {seat} all-in to {total} raises by {raised_by}, less than half the "
                            f"minimum raise of {self.min_raise_inc}: a call for reopening; a raise must "
                            f"go to at least {total + self.min_raise_inc}"))
        if self.forced_opener is not None:
            self._completion_floor(total)
        self.current_bet = total
        self._commit(seat, total, name, t)

    def _completion_floor(self, total: int) -> None:
        """No-limit stud, 3rd street: a wager that reaches the completion (the small bet) is the round's
        opening bet of at least a small bet (002 §3), so the next raise is at least a small bet above it,
        as in pot limit (structures.py). This round opens at the bring-in (its big blind is the bring-in,
        so a forced bet below the small bet is legal), which alone would let a completion from 10 to 20
        be re-raised by 10."""
        small = self.structure.small_bet
        if total >= small and self.min_raise_inc < small:
            self.min_raise_inc = small

    def _call(self, seat: int, intent: Intent, total: int, cap: int, t: float,
              findings: list[Finding]) -> bool:
        committed = self.committed[seat]
        target = min(self.current_bet, cap)
        if total < target and self._booked is not None and self._booked_ignored(total, t, findings):
            target = min(self.current_bet, cap)
        if intent.oversized:
            self._refused = (seat, intent.total)  # a later call to the chip shows it stood as a raise
            as_what = "a check" if target == committed else f"a call to {target}"
            findings.append(Finding(
                code="OVERSIZED_CHIP", seat=seat,
                message=f"Seat {seat} placed one {intent.total - committed} chip without a declaration: "
                        f"it counts as {as_what}; return {intent.total - target}"))
            total = target
        if total < target:
            findings.append(Finding(
                code="CALL_SHORT", seat=seat,
                message=f"Seat {seat} put in {total} but the call is {target}: complete the call with "
                        f"{target - total} more (no raise) or give up the pot"))
            self.stacks[seat] -= total - committed
            self.committed[seat] = total
            self._must_call.add(seat)
            return False
        if seat in self._must_call:
            self._must_call.discard(seat)
            self._short_accepted = False  # completed after all: a floor acceptance is spent
        name: RecordedAction = "check" if target == committed else "allin" if target == cap else "call"
        self._acted.add(seat)
        self._commit(seat, target, name, t)
        return True

    # ------------------------------------------------------------------ a short call left standing

    def _short_call_left(self, seat: int, t: float, findings: list[Finding]) -> bool:
        """The seat to act called short (`CALL_SHORT`) and the next seat in turn acts without the call
        being completed: the table went on. The short call stands as placed — the seat stays in and, by
        the pots built from what each seat put in, can win only what it matched — and `seat` is in turn."""
        short = self.to_act
        if short is None or short not in self._must_call:
            return False
        if self._next_needing_after_short(short) != seat:
            return False
        findings += self._short_call_stands(short, f"seat {seat} acted", t)
        return True

    def _short_call_stands(self, short: int, why: str, t: float) -> list[Finding]:
        """The table went on (the next seat acted, or the dealer knocked) past `short`'s uncompleted
        call: it stands as placed and the turn moves on (closing the round if nobody else owes)."""
        self._must_call.discard(short)
        self._short_stood[short] = self.current_bet
        self._acted.add(short)
        findings: list[Finding] = []
        if not self._short_accepted:
            findings.append(Finding(code="CORRECTION_NOT_FOLLOWED", seat=short, message=(
                f"Seat {short}'s short call ({self.committed[short]} of {self.current_bet}) was not "
                f"completed and {why}: the call stands as placed; seat {short} can win only what it "
                f"matched")))
        self._short_accepted = False
        self._run(short, t, findings)
        return findings

    def _next_needing_after_short(self, short: int) -> int | None:
        """The seat that would act next if `short`'s call stood as it is."""
        self._short_stood[short] = self.current_bet
        try:
            return self._next_needing(short, False)
        finally:
            del self._short_stood[short]

    # ------------------------------------------------------------------ a string bet as played

    def _string_stood(self, total: int) -> bool:
        """The chips of a string bet (000 §3.1) were called, or accepted by the floor, before the
        excess went back and before anybody else put in more: the wager is the whole amount, as a bet
        or raise from the bet the seat faced. True when it was applied (the caller says so, if owed)."""
        assert self._string is not None
        seat, chips, first, before = self._string
        cap = self.committed[seat] + self.stacks[seat]
        if (total != chips or self.committed[seat] != first or self.current_bet != first
                or self._zone.get(seat, 0) < chips or chips > cap):
            return False
        self._string = None
        added = chips - first
        self.stacks[seat] -= added
        self.committed[seat] = self.current_bet = self._zone[seat] = self._rec_total[seat] = chips
        if chips - before >= self.min_raise_inc and self.structure.kind not in ("fixed", "split"):
            self.min_raise_inc = chips - before
        if self._limited and first == before:
            self.wagers += 1  # what stood as a call is a raise as played
        if self.bring_in_open and chips >= self.structure.completion_to():
            self.bring_in_open = False  # stud: the whole amount completes the bring-in (002 §3)
        self._acted = {seat}
        self.last_aggressor = seat
        if self.stacks[seat] == 0:
            self.all_in.add(seat)
            self._n_can_act -= 1
        name: RecordedAction = "allin" if self.stacks[seat] == 0 else "bet" if before == 0 else "raise"
        self._rewrite_record(seat, first, chips, lambda _: name)
        return True

    def _rewrite_record(self, seat: int, old: int, new: int,
                        name: Callable[[RecordedAction], RecordedAction]) -> None:
        """The seat's last action recorded at `old` was played at `new`: its record says so."""
        for i in range(len(self.records) - 1, -1, -1):
            r = self.records[i]
            if r.seat == seat and r.total == old:
                self.records[i] = replace(r, action=name(r.action), total=new, added=r.added + new - old)
                return

    # ------------------------------------------------------------------ an under-raise as played

    def _book(self, seat: int, intent: Intent, fixed: int) -> None:
        """An under-raise stands and is booked completed to `fixed` before the table completes it: what
        the round was before it, so a table that lets it stand as placed can be followed."""
        if fixed > intent.total:
            self._booked = _Booked(seat=seat, placed=intent.total, fixed=fixed, inc=self.min_raise_inc,
                                   bring_in_open=self.bring_in_open, big=self.big,
                                   from_chips=intent.from_chips, opened=self.current_bet == 0)

    def _booked_ignored(self, total: int, t: float, findings: list[Finding]) -> bool:
        """A call to the amount an under-raise was placed at, before anybody matched the completed total
        and while the raiser's chips still show the short amount: the table let it stand as placed."""
        b = self._booked
        assert b is not None
        if (total != b.placed or self.current_bet != b.fixed or self.committed[b.seat] != b.fixed
                or (b.from_chips and self._zone.get(b.seat, 0) >= b.fixed)
                or any(c >= b.fixed for s, c in self.committed.items() if s != b.seat)):
            return False
        self._booked = None
        findings.append(Finding(code="CORRECTION_NOT_FOLLOWED", seat=b.seat, message=(
            f"Seat {b.seat}'s {'bet' if b.opened else 'raise'} to {b.placed} was called at {b.placed}; "
            f"expected: completed to {b.fixed}. It is taken as played")))
        self._unbook(b)
        return True

    def accept_as_played(self) -> None:
        """The floor accepted the table as it is (004 §1(2)): an under-raise booked completed stands as
        placed, a string bet's chips stand as the wager, and a call to a refused raise's amount or the
        table going on past a short call are taken as played without a further alert."""
        self._refused_accepted = self._refused is not None
        self._short_accepted = self.to_act in self._must_call
        if self._string is not None:
            self._string_stood(self._string[1])
        b, self._booked = self._booked, None
        if b is not None and self.current_bet == b.fixed and self.committed[b.seat] == b.fixed:
            self._unbook(b)

    def _unbook(self, b: _Booked) -> None:
        """Take the booked completion back to the amount placed (the raise still counts as made)."""
        seat, back = b.seat, b.fixed - b.placed
        if seat in self.all_in:  # booked all-in to its chips, placed short of them
            self.all_in.discard(seat)
            self._n_can_act += 1
        self.stacks[seat] += back
        self.committed[seat] = self.current_bet = b.placed
        self.min_raise_inc, self.big = b.inc, b.big
        self.bring_in_open = b.bring_in_open and b.placed < self.structure.completion_to()
        self._zone[seat] = self._rec_total[seat] = b.placed
        wager: RecordedAction = "bet" if b.opened else "raise"  # booked all-in, placed short of it
        self._rewrite_record(seat, b.fixed, b.placed, lambda a: wager if a == "allin" else a)

    def _as_played(self, seat: int, total: int, t: float) -> None:
        """A raise short of the minimum that the table let stand: everybody must answer it; it does not
        set a new raise increment (only a full raise does)."""
        cap = self.committed[seat] + self.stacks[seat]
        name: RecordedAction = "allin" if total == cap else "bet" if self.current_bet == 0 else "raise"
        if self.structure.is_limit and self.structure.short_all_in_reopens(self.situation(seat), total):
            self.wagers += 1  # half a bet or more counts toward the cap (TDA 2024 Rule 47-B)
        self._acted = {seat}
        self.last_aggressor = seat
        if self.bring_in_open and total >= self.structure.completion_to():
            self.bring_in_open = False
        self.current_bet = total
        self._commit(seat, total, name, t)

    def _commit(self, seat: int, total: int, name: RecordedAction, t: float) -> None:
        self.stacks[seat] -= total - self.committed[seat]
        self.committed[seat] = total
        self._acted_at[seat] = self.current_bet
        if self.stacks[seat] == 0 and seat not in self.all_in:
            self.all_in.add(seat)
            self._n_can_act -= 1
        self._record(seat, name, total, t)

    def _record(self, seat: int, name: RecordedAction, total: int, t: float) -> None:
        self.records.append(ActionRecord(t=t, street=self.street, seat=seat, action=name, total=total,
                                         added=total - self._rec_total[seat]))
        self._rec_total[seat] = total
        self.actions_taken += 1

    def _do_fold(self, seat: int, t: float) -> None:
        if seat in self.all_in:
            self.all_in.discard(seat)
        else:
            self._n_can_act -= 1
        self.folded.add(seat)
        self._must_call.discard(seat)
        self._record(seat, "fold", self.committed[seat], t)

    # ------------------------------------------------------------------ out of turn

    def _fold_action(self, seat: int, t: float) -> list[Finding]:
        findings: list[Finding] = []
        if seat == self.to_act:
            self._do_fold(seat, t)
            self._run(seat, t, findings)
            return findings
        findings.append(Finding(
            code="ACTION_OUT_OF_TURN", seat=seat,
            message=f"Seat {seat} folded out of turn (seat {self.to_act} to act): a fold is binding"))
        self._pending.pop(seat, None)
        self._do_fold(seat, t)
        self._oot.add(seat)
        if not self._skip_if_passed_over(t, findings):
            self._recheck(t, findings)
        return findings

    def _out_of_turn(self, seat: int, intent: Intent, t: float) -> list[Finding]:
        """Hold an out-of-turn action until the seat's turn (000 §3.1, 001 §3)."""
        if intent.total == self.committed[seat] and not self._needs(seat, self._can_act_count()):
            return []  # a seat with nothing to decide repeating a check or call changes nothing
        held = self._pending.get(seat)
        if held is not None and held[0].total == intent.total and held[1] == self.current_bet:
            return []  # the same held action reported again (chip readers, then the console)
        if (held is not None and held[0].from_chips and intent.from_chips and not intent.declared
                and intent.total > held[0].total and held[1] == self.current_bet):
            # 000 §3.1: more chips in a second motion are a string bet, in turn or not: the held
            # action stays at its first amount and the extra goes back.
            self._zone[seat] = intent.total
            return [Finding(code="STRING_BET", seat=seat, message=(
                f"Seat {seat} added chips in a second motion ({held[0].total} → {intent.total}) to its "
                f"out-of-turn action: a string bet; the held action stays at {held[0].total}, return "
                f"{intent.total - held[0].total}"))]
        findings = [Finding(
            code="ACTION_OUT_OF_TURN", seat=seat,
            message=f"Seat {seat} acted out of turn ({intent.what}) while seat {self.to_act} is to act: "
                    "binding if the action to it does not change, otherwise its chips go back")]
        self._pending[seat] = (intent, self.current_bet)
        self._oot.add(seat)
        self._skip_if_passed_over(t, findings)
        return findings

    def _skip_if_passed_over(self, t: float, findings: list[Finding]) -> bool:
        """001 §8: two later seats acted while the seat to act did nothing: it counts as folded."""
        skipped = self.to_act
        if skipped is None or len(self._oot) < 2:
            return False
        others = ", ".join(str(s) for s in sorted(self._oot, key=self._index.__getitem__))
        findings.append(Finding(
            code="PLAYER_SKIPPED", seat=skipped,
            message=f"Seat {skipped} was to act but seats {others} acted: seat {skipped} counts as folded"))
        self._do_fold(skipped, t)
        self._run(skipped, t, findings)
        return True

    def short_call_passed(self, why: str, t: float) -> list[Finding] | None:
        """The dealer went on (knocked; in stud, dealt the next street; or the hands were shown) while the
        only thing open is the uncompleted short call of the seat to act: it stands as placed (findings
        empty when the floor had accepted it). None when that is not the case."""
        seat = self.to_act
        if seat is None or seat not in self._must_call or self._others_owe_action(seat):
            return None
        return self._short_call_stands(seat, why, t)

    def passed_over_at_knock(self, t: float) -> list[Finding] | None:
        """000 §2.8: the knock is the last moment for a passed-over player to speak. The seat to act, which
        a later seat has already acted past, is folded if it owed chips and checks if it owed nothing;
        the held actions then apply. None when no seat acted past the one to act (and no short call
        was left standing)."""
        settled = self._settle_announced(t) if self._announced is not None else None
        if settled is not None and self.closed:
            return settled
        stood = self.short_call_passed("the dealer knocked", t)
        if stood is not None:
            return stood
        seat = self.to_act
        if seat is None or not self._oot or seat in self._oot or self._others_owe_action(seat):
            return None
        return self._lose_turn(seat, "was passed over and did not speak by the dealer's knock", t)

    def _lose_turn(self, seat: int, why: str, t: float) -> list[Finding]:
        """`seat` lost its turn (000 §2.8): folded if it owed chips, else checked; the turn moves on."""
        owed = self.committed[seat] < self.current_bet
        as_what = f"folded (it owed {self.current_bet - self.committed[seat]})" if owed else "checked"
        findings = [Finding(code="PLAYER_SKIPPED", seat=seat,
                            message=f"Seat {seat} {why}: it counts as {as_what}")]
        if owed:
            self._do_fold(seat, t)
        else:
            self._acted.add(seat)
            self._record(seat, "check", self.committed[seat], t)
        self._run(seat, t, findings)
        return findings

    def idle(self, seat: int) -> bool:
        """`seat` is in the round and could act, but has nothing to decide: not to act, no action held,
        nothing owed (folded and all-in seats are not idle: they act no more at all)."""
        return (seat in self._index and seat != self.to_act and seat not in self._pending
                and seat not in self.folded and seat not in self.all_in
                and not self._needs(seat, self._can_act_count()))

    def table_moved_on(self, t: float) -> list[Finding]:
        """The table began the next street (on a card dealt early) while seats still owed this round:
        each seat still to act lost its turn as at the knock (000 §2.8: folded if it owed chips, else
        checked); held out-of-turn actions apply as their turns come. Closes the round."""
        findings: list[Finding] = self._settle_announced(t) if self._announced is not None else []
        for _ in range(len(self.seats)):  # each pass settles one seat; never loops past the table
            seat = self.to_act
            if self.closed or seat is None:
                break
            if seat in self._must_call:
                findings += self._short_call_stands(seat, "the next street began", t)
                continue
            findings += self._lose_turn(
                seat, "was still to act when the next street's betting began on the card dealt early", t)
        return findings

    def _others_owe_action(self, seat: int) -> bool:
        """Whether a seat other than `seat` still has to act and has not acted out of turn already: then
        the knock came early for that seat too, and the card after it is premature (000 §2.6)."""
        can_act = self._can_act_count()
        return any(s != seat and s not in self._pending and self._needs(s, can_act) for s in self.seats)

    # ------------------------------------------------------------------ turn order

    def _can_act_count(self) -> int:
        return self._n_can_act

    def _needs(self, seat: int, can_act: int) -> bool:
        if seat in self.folded or seat in self.all_in:
            return False
        if self.committed[seat] < self.current_bet:
            return self._short_stood.get(seat) != self.current_bet
        return seat not in self._acted and can_act >= 2

    def _next_needing(self, after: int, include_start: bool) -> int | None:
        if len(self.seats) - len(self.folded) <= 1:
            return None
        several = self._n_can_act >= 2
        bet, committed, folded, all_in, acted = (self.current_bet, self.committed, self.folded,
                                                 self.all_in, self._acted)
        i = self._index[after]
        for s in self._ring[i if include_start else i + 1:i + len(self.seats) + 1]:
            if s in folded or s in all_in:
                continue
            if committed[s] < bet:
                if self._short_stood.get(s) != bet:
                    return s
            elif several and s not in acted:
                return s
        return None

    def _recheck(self, t: float, findings: list[Finding]) -> None:
        """After a fold off-turn: move on only if the seat to act no longer has a decision."""
        seat = self.to_act
        if seat is None:
            return
        if len(self.seats) - len(self.folded) <= 1 or not self._needs(seat, self._can_act_count()):
            self._run(seat, t, findings)

    def _run(self, after: int, t: float, findings: list[Finding], include_start: bool = False) -> None:
        """Pass the turn on from `after`, applying pending out-of-turn and absent players' actions."""
        while True:
            nxt = self._next_needing(after, include_start)
            include_start = False
            if nxt is None:
                self._close(t, findings)
                return
            if nxt != self.to_act:
                self.to_act = nxt
                self._turn_t = t
                self._time_flagged = False
                self._clock_deadline = None
                self._oot.clear()
            pending = self._pending.pop(nxt, None)
            if pending is not None:
                if not self._resolve_pending(nxt, pending, t, findings):
                    return
            elif nxt in self._absent:
                # 001 §5: an absent player checks when it can and is folded once it would have to call.
                if self.committed[nxt] < self.current_bet:
                    self._do_fold(nxt, t)
                else:
                    self._acted.add(nxt)
                    self._record(nxt, "check", self.committed[nxt], t)
            else:
                return
            after = nxt

    def _resolve_pending(self, seat: int, pending: tuple[Intent, int], t: float,
                         findings: list[Finding]) -> bool:
        intent, faced = pending
        if faced == self.current_bet:
            return self._apply(seat, intent, t, findings)
        findings.append(Finding(
            code="ACTION_OUT_OF_TURN", seat=seat, severity="info",
            message=f"The action changed since seat {seat} acted out of turn ({intent.what}): it is void, "
                    "its chips go back and the seat acts now"))
        return False

    def _close(self, t: float, findings: list[Finding]) -> None:
        self.to_act = None
        self.closed = True
        self._clock_deadline = None
        for seat, (intent, _) in sorted(self._pending.items()):
            findings.append(Finding(
                code="ACTION_OUT_OF_TURN", seat=seat, severity="info",
                message=f"Betting closed before seat {seat}'s out-of-turn action ({intent.what}) came "
                        "into turn: it is void, its chips go back"))
        self._pending.clear()

    def _facing_all_in(self, seat: int) -> bool:
        mine = self.committed[seat]
        return any(self.committed[s] > mine for s in self.all_in)


def _noun(kind: str) -> str:
    """A wager kind as the alert text names it ("complete" is the verb of the console's action)."""
    return "completion" if kind == "complete" else kind


class _Booked:
    """An under-raise booked completed (`fixed`) while the chips show `placed`, and the round before it."""

    __slots__ = ("big", "bring_in_open", "fixed", "from_chips", "inc", "opened", "placed", "seat")

    def __init__(self, *, seat: int, placed: int, fixed: int, inc: int, bring_in_open: bool, big: bool,
                 from_chips: bool, opened: bool) -> None:
        self.seat, self.placed, self.fixed, self.opened = seat, placed, fixed, opened
        self.inc, self.bring_in_open, self.big, self.from_chips = inc, bring_in_open, big, from_chips
