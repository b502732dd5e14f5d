"""Differential: fixed-limit and pot-limit hold'em through the Engine against PokerKit (test oracle).

Random hands are played in PokerKit and, event by event, at the table: seats, a `level` with the limit,
blinds as chips, hole cards, knocks, burns, board cards, actions (a fold mucks the cards), and the live
hands exposed at the end. Before every decision the seat to act, the amount to call, whether a raise is
allowed (the cap) and the legal raise totals (fixed: the one amount; pot: minimum and pot maximum) are
compared; after the hand the side pots (amount and eligible seats) and every final stack.

Where PokerKit differs from the rules we follow on purpose, the test configures or steers around it and
the rule is tested elsewhere (docs/rules.md "Limit hold'em against PokerKit"):
- PokerKit allows four raises after the big blind preflop; our cap (a bet and three raises, TDA 2024
  Rule 48's house limit) counts the big blind as the bet: PokerKit's preflop street is built with 3.
- Short all-ins in fixed limit: PokerKit reopens only on a full raise (cumulative) and counts every all-in
  toward the cap; TDA 2024 Rule 47-B reopens at half a bet. After a short all-in on a street the driver
  only calls or folds, and the raise options there are not compared (scenarios l_fixed_limit_short_* and
  tests/core/test_betting_limits.py test the rulebook).
- PokerKit refuses a raise when every other player is all-in (nobody could call it); the table does not
  stop such a bet (it comes back as an uncalled bet): the comparison asks for a player who could call.

100 hands per structure in the everyday run; the slow test plays 1,000 (10,000 with CARDTABLE_FULL=1).
"""

from __future__ import annotations

import os
import random
import warnings
from dataclasses import dataclass, field, replace
from functools import partial

import pytest
from pokerkit import Automation, FixedLimitTexasHoldem, Mode, State
from pokerkit import BettingStructure as KitStructure
from pokerkit.games import PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem

from controller.core.alerts import Alert
from controller.core.betting import BettingRound
from controller.core.cards import FULL_DECK
from controller.core.engine import Engine
from controller.core.events import (
    ActionEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    Event,
    Exposed,
    HandStart,
    Knock,
    LevelEvent,
    SeatEvent,
)
from controller.core.profiles import PROFILES
from controller.core.showdown import Showdown


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """PokerKit ships pot-limit Omaha, not pot-limit hold'em: the same parts put together."""


FULL = os.environ.get("CARDTABLE_FULL") == "1"
SHORT = 100  # the everyday run: about 2 CPU-seconds per structure
LONG = 10_000 if FULL else 1_000  # the slow test (tests/conftest.py SLOW)
# handbuch: odd chips one at a time from the button's left (000 §4.1), as PokerKit hands them out; only a
# full raise reopens no-/pot-limit betting (000 §3.1), as in PokerKit.
PROFILE = PROFILES["handbuch"]
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
)  # showdown, hand killing and pushing are done by hand: the pots are read before any hand is killed


@dataclass
class Table:
    """The engine side of one hand: events go in as the PokerKit hand is played."""

    engine: Engine
    t: float = 0.0
    alerts: list[Alert] = field(default_factory=list)
    holes: dict[int, list[str]] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)
    events: list[Event] = field(default_factory=list)

    def feed(self, make: type[Event], **fields: object) -> None:
        self.t += 0.5
        event = make(t=self.t, **fields)  # type: ignore[call-arg]
        self.events.append(event)
        self.alerts += [o for o in self.engine.feed(event) if isinstance(o, Alert)]

    def stacks(self, n: int) -> list[int]:
        seats = self.engine.seats.seats
        return [seats[s].stack if s in seats else 0 for s in range(1, n + 1)]

    def merged_stacks(self, n: int) -> list[int]:
        """The same hand replayed with PokerKit's convention: pots left to the same winners are split
        as one (docs/showdown.md); the rulebook (000 §4.1) splits each pot on its own."""
        engine = Engine(profile=PROFILE)
        engine.showdown_factory = partial(Showdown, merge_equal_pots=True)
        for ev in self.events:
            engine.feed(ev)
        engine.finish(self.t + 1.0)
        return Table(engine=engine).stacks(n)

    def round(self) -> BettingRound | None:
        rnd = self.engine.current.round
        return rnd if isinstance(rnd, BettingRound) else None


@dataclass
class Tally:
    hands: int = 0
    decisions: int = 0
    raise_checks: int = 0
    capped: int = 0
    short_all_in_streets: int = 0
    showdowns: int = 0
    side_pots: int = 0
    odd_chip_splits: int = 0
    odd_chip_order: int = 0
    idle_checks: int = 0
    mismatches: list[str] = field(default_factory=list)


def kit_state(limit: str, ante: int, sb: int, bb: int, stacks: list[int]) -> State:
    if limit == "fixed":
        game = FixedLimitTexasHoldem(AUTOMATIONS, False, ante, (sb, bb), bb, 2 * bb, mode=Mode.TOURNAMENT)
        # Our cap counts the big blind as the opening bet (bet + 3 raises): PokerKit's preflop street
        # allows four raises after the blind, so its preflop street is given three.
        streets = (replace(game.streets[0], max_completion_betting_or_raising_count=3), *game.streets[1:])
        return State(game.automations, game.deck, game.hand_types, streets, KitStructure.FIXED_LIMIT,
                     False, game.raw_antes, game.raw_blinds_or_straddles, 0, stacks, len(stacks),
                     mode=Mode.TOURNAMENT)
    game = PotLimitTexasHoldem(AUTOMATIONS, False, ante, (sb, bb), bb, mode=Mode.TOURNAMENT)
    return game(stacks, len(stacks))


def random_setup(rng: random.Random, limit: str) -> tuple[int, int, int, list[int]]:
    n = rng.randint(2, 9)
    bb = rng.choice([2, 10, 50, 100])
    sb = bb // 2
    ante = 0 if limit == "fixed" or rng.random() < 0.6 else rng.randint(1, max(1, bb // 2))
    stacks = []
    for _ in range(n):
        r = rng.random()
        # Fixed-limit hands cost at most 24 big blinds: short stacks make the all-ins and side pots.
        top = 30 if limit == "fixed" else 200
        stacks.append(rng.randint(1, top * bb) if r < 0.6 else rng.randint(top * bb, 4 * top * bb))
    for i in (0, 1):  # the blinds post in full (a short blind is not a limit question)
        stacks[i] = max(stacks[i], ante + bb + rng.randint(1, 3 * bb))
    return ante, sb, bb, stacks


def seat_of(i: int) -> int:
    return i + 1  # PokerKit index 0 is the first seat left of the button; the button is the last seat


def setup_table(limit: str, ante: int, sb: int, bb: int, stacks: list[int]) -> Table:
    table = Table(engine=Engine(profile=PROFILE))
    n = len(stacks)
    for i, stack in enumerate(stacks):
        table.feed(SeatEvent, seat=seat_of(i), player=f"p{i + 1}", stack=stack)
    table.feed(LevelEvent, sb=sb, bb=bb, ante=ante, limit=limit)
    table.feed(HandStart, button=n)
    sb_seat, bb_seat = (2, 1) if n == 2 else (1, 2)
    table.feed(ChipsEvent, seat=sb_seat, amount=sb)
    table.feed(ChipsEvent, seat=bb_seat, amount=bb)
    return table


def others_can_call(state: State, i: int) -> bool:
    """Someone else could put in more than the bet now (PokerKit allows a raise only then)."""
    top = max(state.bets)
    return any(state.statuses[j] and state.stacks[j] + state.bets[j] > top
               for j in range(state.player_count) if j != i)


def compare(state: State, table: Table, i: int, short_all_in: bool, tally: Tally, where: str) -> bool:
    """Compare the decision of PokerKit's actor `i` with the table's; True when a raise may be compared."""
    seat = seat_of(i)
    rnd = table.round()
    tally.decisions += 1
    if rnd is None:
        tally.mismatches.append(f"{where}: no betting round ({[a.message for a in table.alerts]})")
        return False
    if rnd.to_act != seat:
        tally.mismatches.append(f"{where}: to act {rnd.to_act}, PokerKit {seat}")
        return False
    if rnd.to_call(seat) != state.checking_or_calling_amount:
        kit_call = state.checking_or_calling_amount
        tally.mismatches.append(f"{where}: call {rnd.to_call(seat)}, PokerKit {kit_call}")
    if short_all_in:
        return False
    tally.raise_checks += 1
    cap = rnd.committed[seat] + rnd.stacks[seat]
    w = rnd.legal_wager(seat) if rnd.can_raise(seat) else None
    ours = w is not None and cap > rnd.current_bet and others_can_call(state, i)
    kit = state.can_complete_bet_or_raise_to()
    if w is None and rnd.can_raise(seat):
        tally.capped += 1
    if ours != kit:
        tally.mismatches.append(f"{where}: seat {seat} may raise {ours}, PokerKit {kit} (wagers "
                                f"{rnd.wagers}, bets {list(state.bets)}, stacks {list(state.stacks)})")
        return False
    if ours and w is not None:
        lo, hi = min(w.min_to, cap), min(w.max_to, cap)
        kit_lo = state.min_completion_betting_or_raising_to_amount
        kit_hi = state.max_completion_betting_or_raising_to_amount
        if (lo, hi) != (kit_lo, kit_hi):
            tally.mismatches.append(f"{where}: raise {lo}…{hi}, PokerKit {kit_lo}…{kit_hi}")
    return True


def act(state: State, table: Table, rng: random.Random, street: dict[str, int], tally: Tally,
        where: str) -> None:
    """One random legal PokerKit action, mirrored as an `action` event at the table."""
    i = state.actor_index
    assert i is not None
    seat = seat_of(i)
    rnd = table.round()
    if (rnd is None or rnd.closed) and not state.checking_or_calling_amount:
        # PokerKit asks for a check nobody needs (everyone else is all-in or folded and the seat faces
        # no bet); at the table the betting is simply over (as the PHH importer's idle checks).
        tally.idle_checks += 1
        state.check_or_call()
        return
    if street.get("index") != state.street_index:
        street.clear()
        street["index"] = state.street_index
    short = "short" in street
    comparable = compare(state, table, i, short, tally, where)
    r = rng.random()
    if r < 0.1 and state.can_fold() and state.checking_or_calling_amount:
        state.fold()
        table.folded.add(seat)
        table.feed(ActionEvent, seat=seat, action="fold")
        for card in table.holes[seat]:
            table.feed(CardGone, zone=f"seat{seat}", card=card)
            table.feed(CardSeen, zone="muck", card=card)
        return
    if r < 0.5 or short or not comparable or not state.can_complete_bet_or_raise_to():
        added = state.checking_or_calling_amount or 0
        total = state.bets[i] + added  # read first: PokerKit collects the bets when the street closes
        state.check_or_call()
        if added:
            table.feed(ActionEvent, seat=seat, action="call", amount=total)
        else:
            table.feed(ActionEvent, seat=seat, action="check")
        return
    lo = state.min_completion_betting_or_raising_to_amount
    hi = state.max_completion_betting_or_raising_to_amount
    assert lo is not None and hi is not None
    pick = rng.random()
    amount = hi if pick < 0.4 else lo if pick < 0.7 else rng.randint(lo, hi)
    facing = max(state.bets)
    assert state.street is not None
    full = max(state.completion_betting_or_raising_amount,
               state.street.min_completion_betting_or_raising_amount)
    all_in = amount == state.stacks[i] + state.bets[i]
    state.complete_bet_or_raise_to(amount)
    if amount - facing < full:
        street["short"] = 1  # a short all-in: the rest of the street is only called or folded
        tally.short_all_in_streets += 1
    action = "allin" if all_in else "bet" if facing == 0 else "raise"
    table.feed(ActionEvent, seat=seat, action=action, amount=amount)


def play(seed: int, limit: str, tally: Tally) -> None:
    rng = random.Random(seed * 2 + (limit == "pot"))
    ante, sb, bb, stacks = random_setup(rng, limit)
    state = kit_state(limit, ante, sb, bb, stacks)
    table = setup_table(limit, ante, sb, bb, stacks)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    where = f"{limit} seed {seed}"
    street: dict[str, int] = {}
    kit_pots: list[tuple[int, tuple[int, ...]]] = []
    while state.status:
        if state.can_deal_hole():
            i = state.hole_dealee_index
            assert i is not None
            card = deck.pop()
            state.deal_hole(card)
            table.holes.setdefault(seat_of(i), []).append(card)
            table.feed(CardSeen, zone=f"seat{seat_of(i)}", card=card)
        elif state.can_burn_card():
            card = deck.pop()
            state.burn_card(card)
            table.feed(Knock)
            table.t += 0.5  # the dealer's pause after the knock (KNOCK_PAUSE_SHORT below 0.8 s)
            table.feed(CardSeen, zone="burn", card=card)
        elif state.can_deal_board():
            card = deck.pop()
            state.deal_board(card)
            table.feed(CardSeen, zone="board", card=card)
        elif state.actor_index is not None:
            act(state, table, rng, street, tally, where)
        elif state.can_show_or_muck_hole_cards() or state.can_kill_hand() or state.can_push_chips():
            if not kit_pots:
                kit_pots = [(p.amount, tuple(seat_of(j) for j in p.player_indices)) for p in state.pots]
            if state.can_show_or_muck_hole_cards():
                state.show_or_muck_hole_cards(True)
            elif state.can_kill_hand():
                state.kill_hand()
            else:
                state.push_chips()
        elif state.can_pull_chips():
            state.pull_chips()
        else:
            tally.mismatches.append(f"{where}: PokerKit stuck")
            return
    live = [s for s in table.holes if s not in table.folded]
    if len(live) > 1:
        tally.showdowns += 1
        for s in live:
            for card in table.holes[s]:
                table.feed(Exposed, zone=f"seat{s}", card=card)
    table.alerts += [o for o in table.engine.finish(table.t + 1.0) if isinstance(o, Alert)]
    tally.hands += 1
    bad = [f"{a.code} {a.message}" for a in table.alerts if a.severity not in ("info",)]
    if bad:
        tally.mismatches.append(f"{where}: alerts in a hand played by the book: {bad}")
    award = [a for a in table.alerts if a.code == "POT_AWARD"]
    if len(live) > 1 and award:
        ours = [(p["amount"], tuple(p["eligible"])) for p in award[-1].extra["pots"]]
        tally.side_pots += max(0, len(ours) - 1)
        if sorted(ours) != sorted((a, tuple(sorted(e))) for a, e in kit_pots):
            tally.mismatches.append(f"{where}: pots {ours}, PokerKit {kit_pots}")
    got, kit = table.stacks(len(stacks)), list(state.stacks)
    if got != kit and sum(got) == sum(kit) and table.merged_stacks(len(stacks)) == kit:
        tally.odd_chip_splits += 1  # only where PokerKit splits merged pots: the rulebook splits each
        return
    if got != kit and sum(got) == sum(kit) and award and odd_chips_by_the_rulebook(award[-1], got, kit):
        tally.odd_chip_order += 1  # PokerKit hands a split pot's odd chips out in another order
        return
    if got != kit:
        tally.mismatches.append(f"{where}: stacks {got}, PokerKit {kit}")


def odd_chips_by_the_rulebook(award: Alert, got: list[int], kit: list[int]) -> bool:
    """The stacks differ only by odd chips of split pots, and ours follow 000 §4.1: in every pot the
    shares differ by at most one chip, the larger ones to the winners first from the button's left (the
    button is the last seat, so that is ascending seat order here)."""
    split_winners: set[int] = set()
    for pot in award.extra["pots"]:
        shares = [(int(seat), amount) for seat, amount in pot["winners"].items()]
        if len(shares) < 2:
            continue
        amounts = [a for _, a in sorted(shares)]
        if max(amounts) - min(amounts) > 1 or amounts != sorted(amounts, reverse=True):
            return False
        split_winners |= {seat for seat, _ in shares}
    differ = {i + 1 for i, (a, b) in enumerate(zip(got, kit, strict=True)) if a != b}
    return bool(differ) and differ <= split_winners and all(
        abs(a - b) < len(split_winners) for a, b in zip(got, kit, strict=True))


def run(limit: str, hands: int) -> Tally:
    tally = Tally()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module="pokerkit")
        for seed in range(hands):
            play(seed, limit, tally)
    return tally


def _report(limit: str, tally: Tally) -> str:
    return (f"{limit}: {tally.hands} hands, {tally.decisions} decisions, {tally.raise_checks} raise "
            f"options compared, {tally.capped} at the cap, {tally.short_all_in_streets} streets with a "
            f"short all-in, {tally.showdowns} showdowns, {tally.side_pots} side pots, "
            f"{tally.odd_chip_splits} odd chips split per pot (000 §4.1) where PokerKit splits merged pots, "
            f"{tally.odd_chip_order} odd chips handed out from the button's left (000 §4.1) where PokerKit "
            f"uses another order, {tally.idle_checks} idle checks PokerKit asked for, "
            f"{len(tally.mismatches)} mismatches")


def _check(limit: str, hands: int) -> None:
    tally = run(limit, hands)
    print(_report(limit, tally))
    assert tally.mismatches == [], tally.mismatches[:5]
    assert tally.hands == hands and tally.raise_checks > hands
    if limit == "fixed":
        assert tally.capped > 0  # the cap was reached and compared
    assert tally.short_all_in_streets > 0 and tally.side_pots > 0


@pytest.mark.parametrize("limit", ["fixed", "pot"])
def test_limit_holdem_matches_pokerkit(limit: str) -> None:
    _check(limit, SHORT)


@pytest.mark.timeout(7_200 if FULL else 900)
@pytest.mark.parametrize("limit", ["fixed", "pot"])
def test_limit_holdem_matches_pokerkit_long(limit: str) -> None:
    _check(limit, LONG)


if __name__ == "__main__":  # python -m tests.core.test_limits_kit [HANDS]: the report of both structures
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else LONG
    for name in ("fixed", "pot"):
        print(_report(name, run(name, n)), flush=True)
