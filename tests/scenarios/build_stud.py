"""Writes the seven-card stud golden scenarios (`stud_*.jsonl` + `stud_*.expected.jsonl`), rulebook 002.

Same format and runner as build.py (test_scenarios.py replays every log); the expected alerts and stacks
are worked out by hand from 002 and docs/rules.md ("Seven-card stud"), not captured from the engine.
Run `python tests/scenarios/build_stud.py` after editing (build.py leaves the `stud_` files alone).

The standard hand: 4 players with 1000, ante 5, bring-in 10, small bet 20, big bet 40 (fixed limit unless
a scenario says otherwise). Seats are numbered from the dealer's left. Initial deal (down, down, up):
seat 1 As Kd / 7c, seat 2 2h 3h / 4d, seat 3 Qc Qd / 2c, seat 4 9s 9h / Jh. So seat 3 (2c) brings in at
fixed and split limit, seat 4 (Jh) at pot and no limit. Later streets (seats 1, 3, 4 stay in):
4th 8c 5s Jd (seat 4 shows a pair of jacks), 5th Tc 6s 3c, 6th Ac Qh 4s, 7th Th Qs 5c (down).
Seat 3 makes four queens with Qc Qd Qh Qs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build import HERE, Scenario  # the hold'em builder's Scenario and writer

STUD: dict[str, Callable[[], Scenario]] = {}
DOWN = {1: ("As", "Kd"), 2: ("2h", "3h"), 3: ("Qc", "Qd"), 4: ("9s", "9h")}
UP = {1: "7c", 2: "4d", 3: "2c", 4: "Jh"}
STREETS = {"fourth": {1: "8c", 2: "6c", 3: "5s", 4: "Jd"}, "fifth": {1: "Tc", 2: "7d", 3: "6s", 4: "3c"},
           "sixth": {1: "Ac", 2: "8d", 3: "Qh", 4: "4s"}, "seventh": {1: "Th", 2: "6d", 3: "Qs", 4: "5c"}}
LEVELS = {
    "fixed": {"limit": "fixed", "bring_in": 10, "small_bet": 20, "big_bet": 40},
    "split": {"limit": "split", "bring_in": 10, "small_bet": 20, "big_bet": 40},
    "step_spread": {"limit": "step_spread", "bring_in": 10, "small_bet": 20, "big_bet": 40},
    "spread": {"limit": "spread", "bring_in": 10, "small_bet": 20, "big_bet": 40},
    "pot": {"limit": "pot", "bring_in": 10, "small_bet": 20},
    "no": {"limit": "no", "bring_in": 10, "small_bet": 20},
}


class Stud(Scenario):
    def __init__(self, name: str, about: str, profile: str = "cuca") -> None:
        super().__init__(f"stud_{name}", about, profile)
        self.down = dict(DOWN)
        self.upcards = dict(UP)

    def setup_stud(self, limit: str = "fixed", players: int = 4, stack: int = 1000) -> Stud:
        for seat in range(1, players + 1):
            self.e("seat", seat=seat, player=f"P{seat}", stack=stack)
        self.e("level", sb=0, bb=0, ante=5, game="stud7", **LEVELS[limit])
        return self

    def begin(self, seats: tuple[int, ...] = (1, 2, 3, 4)) -> Stud:
        self.e("hand_start")
        for seat in seats:
            self.e("chips", seat=seat, amount=5)
        return self

    def up(self, seat: int, card: str) -> Stud:
        self.card(f"seat{seat}", card)
        self.e("exposed", zone=f"seat{seat}", card=card)
        return self

    def deal3(self, seats: tuple[int, ...] = (1, 2, 3, 4)) -> Stud:
        for rnd in range(2):
            for seat in seats:
                self.card(f"seat{seat}", self.down[seat][rnd])
        for seat in seats:
            self.up(seat, self.upcards[seat])
        return self

    def muck(self, seat: int, cards: tuple[str, ...]) -> Stud:
        for c in cards:
            self.gone(f"seat{seat}", c).card("muck", c)
        return self

    def fold(self, seat: int, cards: tuple[str, ...] | None = None) -> Stud:
        self.act(seat, "fold")
        return self.muck(seat, cards if cards is not None else (*self.down[seat], self.upcards[seat]))

    def third_fixed(self) -> Stud:
        """Seat 3 brings in, seat 4 completes, seat 1 calls, seat 2 folds, seat 3 calls."""
        self.act(3, "bet", 10).act(4, "raise", 20).act(1, "call", 20)
        return self.fold(2).act(3, "call", 20)

    def street(self, name: str, seats: tuple[int, ...] = (1, 3, 4), up: bool = True) -> Stud:
        self.e("card", dt=1.0, zone="burn", card={"fourth": "2s", "fifth": "3s", "sixth": "4c",
                                                  "seventh": "5d"}[name])
        for seat in seats:
            card = STREETS[name][seat]
            if up:
                self.up(seat, card)
            else:
                self.card(f"seat{seat}", card)
        return self

    def street_cards_down(self, name: str, seats: tuple[int, ...] = (1, 3, 4)) -> Stud:
        """The street's cards face down to `seats`, without a burn (it came before)."""
        for seat in seats:
            self.card(f"seat{seat}", STREETS[name][seat])
        return self

    def checks(self, seats: tuple[int, ...] = (4, 1, 3)) -> Stud:
        for seat in seats:
            self.act(seat, "check")
        return self

    def rest_checked(self, start: str = "fourth", seats: tuple[int, ...] = (1, 3, 4),
                     order: tuple[int, ...] | None = (4, 1, 3)) -> Stud:
        """Streets from `start` to 7th dealt to `seats` (7th face down), each checked in `order` (None:
        no action, all-in)."""
        names = ["fourth", "fifth", "sixth", "seventh"]
        for name in names[names.index(start):]:
            self.street(name, seats=seats, up=name != "seventh")
            if order is not None:
                self.checks(order)
        return self

    def shows(self, seat: int) -> Stud:
        """The seat turns up its two down-cards and its 7th-street card (the camera reports each)."""
        for c in (*DOWN[seat], STREETS["seventh"][seat]):
            self.e("exposed", zone=f"seat{seat}", card=c)
        return self

    def show_three(self) -> Stud:
        """Seat 3 shows its three down-cards (four queens); seats 1 and 4 muck theirs."""
        self.shows(3)
        self.muck(1, (*DOWN[1], "Th")).muck(4, (*DOWN[4], "5c"))
        return self

    def heads_up_checked_down(self, first: str = "fifth") -> Stud:
        """Seats 3 and 4 check from street `first` to 7th street; seat 4 shows first, seat 3's four queens
        win."""
        streets = ("fifth", "sixth", "seventh")
        for name in streets[streets.index(first):]:
            self.street(name, seats=(3, 4), up=name != "seventh").checks((4, 3))
        self.expect("SHOWDOWN_ORDER", 4, "showdown")
        self.shows(3)
        return self.muck(4, (*DOWN[4], "5c"))

    def next_hand(self, last_winner: int, bring_in: int = 3) -> Stud:
        """The next hand: it starts (the last one is settled, POT_AWARD), is dealt and tracked; everybody
        folds to the bring-in, which comes back uncalled (each seat -5, `bring_in` +15)."""
        self.e("hand_start", dt=5.0).expect("POT_AWARD", last_winner, "showdown")
        for seat in (1, 2, 3, 4):
            self.e("chips", seat=seat, amount=5)
        self.deal3().act(bring_in, "bet", 10)
        for seat in [x for x in (1, 2, 3, 4) if x > bring_in] + [x for x in (1, 2, 3, 4) if x < bring_in]:
            self.fold(seat)
        return self.expect("UNCALLED_BET", bring_in, "showdown")

    def clean_redeal(self) -> Stud:
        """After a misdeal: the redeal (antes stay) played as clean_fixed, then the next hand."""
        self.begin().deal3().third_fixed().rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown")
        return self.show_three().next_hand(3)

    def end(self, winner: int, **stacks: int) -> Stud:
        self.e("session_end", dt=2.0).expect("POT_AWARD", winner, "showdown")
        self.stacks = {int(k[1:]): v for k, v in stacks.items()}
        return self


def stud(fn: Callable[[], Scenario]) -> Callable[[], Scenario]:
    STUD[fn.__name__] = fn
    return fn


# --- 002 played by the book ------------------------------------------------------------------------
@stud
def clean_fixed() -> Scenario:
    s = Stud("clean_fixed", "002 by the book at fixed limit: antes, two down one up from the dealer's "
                            "left, seat 3 (2c, lowest) brings in, seat 4 completes (not a raise), 4th-6th "
                            "up, 7th down; seat 4 (open jacks) acts first from 4th street; no bet on 7th: "
                            "seat 4 shows first; seat 3's four queens (best five of seven) win")
    s.setup_stud().begin().deal3().third_fixed().rest_checked()
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def clean_pot() -> Scenario:
    s = Stud("clean_pot", "pot limit: the highest up-card (seat 4, Jh) brings in (002 §3); seat 1 "
                          "completes to 20, the others call; checked down; seat 3 wins")
    s.setup_stud("pot").begin().deal3()
    s.act(4, "bet", 10).act(1, "raise", 20).fold(2).act(3, "call", 20).act(4, "call", 20)
    s.rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def clean_no_limit() -> Scenario:
    s = Stud("clean_no_limit", "no limit: the highest up-card (seat 4, Jh) brings in; everyone calls the "
                               "bring-in; checked down; seat 3 wins")
    s.setup_stud("no").begin().deal3()
    s.act(4, "bet", 10).act(1, "call", 10).fold(2).act(3, "call", 10)
    s.rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=985, s2=995, s3=1035, s4=985)


@stud
def bring_in_suit_order() -> Scenario:
    s = Stud("bring_in_suit_order", "two deuces up: seat 2 (2c) and seat 3 (2d); clubs is the lowest suit, "
                                    "so seat 2 brings in (002 §3); everybody folds to it: the bring-in is "
                                    "uncalled and returned, seat 2 wins the antes")
    s.upcards = {**UP, 2: "2c", 3: "2d"}
    return _seat_two_brings_in_alone(s.setup_stud())


def _seat_two_brings_in_alone(s: Stud, wrong: int | None = None) -> Stud:
    """Seat 2 brings in and everybody folds to it: the bring-in comes back, seat 2 wins the antes. With
    `wrong`, that seat brings in first: STUD_BRING_IN_WRONG, and its chips go back before seat 2's."""
    s.begin().deal3()
    if wrong is not None:
        s.act(wrong, "bet", 10).expect("STUD_BRING_IN_WRONG", wrong, "third").e("chips", seat=wrong, amount=0)
    s.act(2, "bet", 10)
    s.fold(3).fold(4).fold(1)
    s.expect("UNCALLED_BET", 2, "showdown")
    return s.end(2, s1=995, s2=1015, s3=995, s4=995)


@stud
def bring_in_wrong_suit() -> Scenario:
    s = Stud("bring_in_wrong_suit", "two deuces up: seat 3 (2d) brings in, but seat 2 (2c) has the lower "
                                    "card by suit: STUD_BRING_IN_WRONG; seat 3's chips go back and seat 2 "
                                    "brings in (remedy followed); the hand goes on and settles")
    s.upcards = {**UP, 2: "2c", 3: "2d"}
    return _seat_two_brings_in_alone(s.setup_stud(), wrong=3)


@stud
def bring_in_wrong_fixed() -> Scenario:
    s = Stud("bring_in_wrong_fixed", "fixed limit: seat 4 (Jh) brings in, but the lowest up-card is seat "
                                     "3's 2c: STUD_BRING_IN_WRONG; seat 3 then brings in (remedy); the hand "
                                     "is played out as in clean_fixed")
    s.setup_stud().begin().deal3().act(4, "bet", 10).expect("STUD_BRING_IN_WRONG", 4, "third")
    s.third_fixed().rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def bring_in_wrong_stands() -> Scenario:
    s = Stud("bring_in_wrong_stands", "fixed limit: seat 2 (4d) brings in instead of seat 3 (2c): "
                                      "STUD_BRING_IN_WRONG; seat 3 (the next player) calls before it is "
                                      "corrected: the bring-in stands; no further alert; checked down")
    s.setup_stud().begin().deal3().act(2, "bet", 10).expect("STUD_BRING_IN_WRONG", 2, "third")
    s.act(3, "call", 10).act(4, "call", 10).act(1, "call", 10)
    s.rest_checked(seats=(1, 2, 3, 4), order=(4, 1, 2, 3))
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    s.muck(2, (*DOWN[2], "6d"))
    return s.end(3, s1=985, s2=985, s3=1045, s4=985)


@stud
def bring_in_wrong_pot() -> Scenario:
    s = Stud("bring_in_wrong_pot", "pot limit: seat 3 brings in with the lowest card (2c), but in pot and no "
                                   "limit the highest up-card (seat 4, Jh) brings in: STUD_BRING_IN_WRONG; "
                                   "seat 4 brings in (remedy); everybody folds to it")
    return _wrong_bring_in_pot(s, "bet", 10, s3=995, s4=1015)


def _wrong_bring_in_pot(s: Stud, action: str, amount: int, *, s3: int, s4: int) -> Scenario:
    """Pot limit: seat 3 brings in instead of seat 4; seat 4 wagers `action` `amount`; all fold to it."""
    s.setup_stud("pot").begin().deal3().act(3, "bet", 10).expect("STUD_BRING_IN_WRONG", 3, "third")
    s.act(4, action, amount).fold(1).fold(2).fold(3)
    s.expect("UNCALLED_BET", 4, "showdown")
    return s.end(4, s1=995, s2=995, s3=s3, s4=s4)


@stud
def bring_in_wrong_raised_over() -> Scenario:
    s = Stud("bring_in_wrong_raised_over", "pot limit: seat 3 (2c) brings in instead of seat 4 (Jh): "
                                           "STUD_BRING_IN_WRONG; seat 4, the right seat and the next player, "
                                           "raises over it instead of bringing in itself (a bring-in is a "
                                           "bet): the wrong bring-in stands and its 10 stay in the pot; all "
                                           "fold to seat 4, whose 30 not called go back")
    return _wrong_bring_in_pot(s, "raise", 40, s3=985, s4=1025)


def _completed_then_capped(s: Stud) -> Stud:
    """Bring-in 10, completion to 20, raises to 40, 60 and 80 (the cap), a fifth wager refused, all call;
    checked down from 4th street; seat 3 wins."""
    s.begin().deal3().act(3, "bet", 10).act(4, "raise", 20).act(1, "raise", 40)
    s.act(2, "raise", 60).act(3, "raise", 80).act(4, "raise", 100).expect("BET_ABOVE_LIMIT", 4, "third")
    s.act(1, "call", 80).act(2, "call", 80)
    s.rest_checked(seats=(1, 2, 3, 4), order=(4, 1, 2, 3))
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    s.muck(2, (*DOWN[2], "6d"))
    return s.end(3, s1=915, s2=915, s3=1255, s4=915)


@stud
def completion_then_cap() -> Scenario:
    s = Stud("completion_then_cap", "fixed limit: seat 3 brings in (10), seat 4 completes to 20 (not a "
                                    "raise, 002 §3), then three raises (40, 60, 80) reach the cap of a bet "
                                    "and three raises; seat 4's fourth raise is BET_ABOVE_LIMIT and stands "
                                    "as a call; everybody calls 80; checked down, seat 3 wins")
    return _completed_then_capped(s.setup_stud())


@stud
def completion_then_cap_split() -> Scenario:
    s = Stud("completion_then_cap_split", "split limit (002 §3): the bring-in (10) completed to the upper "
                                          "forced-bet amount (20) is a completion, not a raise, so three "
                                          "raises (40, 60, 80) still fit under the cap; the fourth is "
                                          "BET_ABOVE_LIMIT and stands as a call; settled as at fixed limit")
    return _completed_then_capped(s.setup_stud("split"))


@stud
def opener_mucked_checks() -> Scenario:
    s = Stud("opener_mucked_checks", "seat 3 brings in and throws its cards away while seat 4 is to act: "
                                     "STUD_OPENER_MUCKED, treated as checked (002 §3); nobody completes, so "
                                     "seat 3 keeps getting cards; on 5th street seat 4 bets and seat 3, "
                                     "facing a bet it cannot check, is out; seat 4 wins")
    s.setup_stud().begin().deal3().act(3, "bet", 10)
    s.muck(3, (*DOWN[3], UP[3])).expect("STUD_OPENER_MUCKED", 3, "third")
    s.act(4, "call", 10).act(1, "call", 10).fold(2)
    s.street("fourth").checks((4, 1))
    s.street("fifth").act(4, "bet", 40).fold(1, (*DOWN[1], UP[1], "8c", "Tc"))
    s.expect("UNCALLED_BET", 4, "showdown")
    return s.end(4, s1=985, s2=995, s3=985, s4=1035)


@stud
def first_to_act_tie() -> Scenario:
    s = Stud("first_to_act_tie", "4th street: seats 1 and 4 both show king-seven; the tie goes to the seat "
                                 "nearest the dealer's left, seat 1 (002 §4); it bets, the others fold")
    s.upcards = {**UP, 1: "Kc", 4: "Kh"}
    s.setup_stud().begin().deal3().third_fixed()
    s.e("card", dt=1.0, zone="burn", card="2s").up(1, "7s").up(3, "5s").up(4, "7h")
    s.act(1, "bet", 20).fold(3, (*DOWN[3], UP[3], "5s")).fold(4, (*DOWN[4], "Kh", "7h"))
    s.expect("UNCALLED_BET", 1, "showdown")
    return s.end(1, s1=1055, s2=995, s3=975, s4=975)


@stud
def first_to_act_wrong() -> Scenario:
    s = Stud("first_to_act_wrong", "4th street: seat 1 checks first, but seat 4's open jacks act "
                                   "first: STUD_FIRST_TO_ACT_WRONG; seat 4 checks, seat 1's check stands "
                                   "(the action to it did not change); checked down, seat 3 wins")
    s.setup_stud().begin().deal3().third_fixed().street("fourth")
    s.act(1, "check").expect("STUD_FIRST_TO_ACT_WRONG", 1, "fourth").act(4, "check").act(3, "check")
    s.rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def out_of_turn_third() -> Scenario:
    s = Stud("out_of_turn_third", "3rd street: after the bring-in seat 1 calls before seat 4: "
                                  "ACTION_OUT_OF_TURN; seat 4 completes, so the action to seat 1 changed "
                                  "and its call is void (second, info alert); seat 1 calls again; the "
                                  "hand is played out as in clean_fixed")
    s.setup_stud().begin().deal3().act(3, "bet", 10).act(1, "call", 10)
    s.expect("ACTION_OUT_OF_TURN", 1, "third").act(4, "raise", 20)
    s.expect("ACTION_OUT_OF_TURN", 1, "third")  # (info) the action to seat 1 changed: its call is void
    s.act(1, "call", 20).fold(2)
    s.act(3, "call", 20).rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def open_pair_big_bet_fixed() -> Scenario:
    s = Stud("open_pair_big_bet_fixed", "fixed limit: seat 4 shows an open pair on 4th street and bets the "
                                        "big bet (40), allowed (002 §4); seat 1 folds, seat 3 calls; 5th "
                                        "street at the big bet; checked down")
    s.setup_stud().begin().deal3().third_fixed().street("fourth")
    s.act(4, "bet", 40).fold(1, (*DOWN[1], UP[1], "8c")).act(3, "call", 40)
    s.heads_up_checked_down()
    return s.end(3, s1=975, s2=995, s3=1095, s4=935)


@stud
def open_pair_big_bet_split() -> Scenario:
    s = Stud("open_pair_big_bet_split", "split limit (002 §4): the same open pair on 4th street; seat 4 bets "
                                        "the higher limit (40); seat 3 calls; settled as in the fixed-limit "
                                        "scenario")
    s.setup_stud("split").begin().deal3().third_fixed().street("fourth")
    s.act(4, "bet", 40).fold(1, (*DOWN[1], UP[1], "8c")).act(3, "call", 40)
    s.heads_up_checked_down()
    return s.end(3, s1=975, s2=995, s3=1095, s4=935)


@stud
def open_pair_step_spread() -> Scenario:
    s = Stud("open_pair_step_spread", "step-spread limit (002 §4): 4th street bets are spread up to the "
                                      "lower step (20), but seat 4's open pair lets it bet 35, inside the "
                                      "higher step (40); seat 1 folds, seat 3 calls; checked down, seat 3 "
                                      "wins")
    s.setup_stud("step_spread").begin().deal3().third_fixed().street("fourth")
    s.act(4, "bet", 35).fold(1, (*DOWN[1], UP[1], "8c")).act(3, "call", 35)
    s.heads_up_checked_down()
    return s.end(3, s1=975, s2=995, s3=1090, s4=940)


@stud
def step_spread_without_pair() -> Scenario:
    s = Stud("step_spread_without_pair", "step-spread limit, no open pair on 4th street (seat 4 shows Jh "
                                         "8h): a bet of 35 is above the lower step (20): BET_ABOVE_LIMIT, it "
                                         "stands at 20 (002 §4); seats 1 and 3 call; seat 3 wins")
    s.setup_stud("step_spread").begin().deal3().third_fixed()
    s.e("card", dt=1.0, zone="burn", card="2s").up(1, "8c").up(3, "5s").up(4, "8h")
    s.act(4, "bet", 35).expect("BET_ABOVE_LIMIT", 4, "fourth").act(1, "call", 20).act(3, "call", 20)
    s.street("fifth").checks((4, 1, 3)).street("sixth").checks((1, 3, 4))
    s.street("seventh", up=False).checks((1, 3, 4)).expect("SHOWDOWN_ORDER", 1, "showdown")
    s.shows(3)
    s.muck(1, (*DOWN[1], "Th")).muck(4, (*DOWN[4], "5c"))
    return s.end(3, s1=955, s2=995, s3=1095, s4=955)


@stud
def big_bet_without_pair() -> Scenario:
    s = Stud("big_bet_without_pair", "fixed limit, no open pair on 4th street (seat 4 shows Jh 8h): seat 4 "
                                     "bets the big bet (40): BET_ABOVE_LIMIT, it stands as a bet of 20 (002 "
                                     "§4: only an open pair allows the higher limit); seats 1 and 3 call; "
                                     "from 6th street seat 1's ace-high board acts first; seat 3 wins")
    s.setup_stud().begin().deal3().third_fixed()
    s.e("card", dt=1.0, zone="burn", card="2s").up(1, "8c").up(3, "5s").up(4, "8h")
    s.act(4, "bet", 40).expect("BET_ABOVE_LIMIT", 4, "fourth").act(1, "call", 20).act(3, "call", 20)
    s.street("fifth").checks((4, 1, 3)).street("sixth").checks((1, 3, 4))
    s.street("seventh", up=False).checks((1, 3, 4)).expect("SHOWDOWN_ORDER", 1, "showdown")
    s.shows(3)
    s.muck(1, (*DOWN[1], "Th")).muck(4, (*DOWN[4], "5c"))
    return s.end(3, s1=955, s2=995, s3=1095, s4=955)


@stud
def open_pair_small_raise() -> Scenario:
    s = Stud("open_pair_small_raise", "fixed limit, open jacks on 4th street: seat 4 bets the big bet (40); "
                                      "seat 1 raises by the small bet only (to 60): once the higher limit "
                                      "was bet every raise is at it (002 §4): BET_BELOW_MINIMUM, under cuca "
                                      "half a raise counts as a call; seat 3 calls; checked down")
    s.setup_stud().begin().deal3().third_fixed().street("fourth")
    s.act(4, "bet", 40).act(1, "raise", 60).expect("BET_BELOW_MINIMUM", 1, "fourth").act(3, "call", 40)
    s.rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=935, s2=995, s3=1135, s4=935)


@stud
def up_card_dealt_down() -> Scenario:
    s = Stud("up_card_dealt_down", "5th street: seat 1's Tc is dealt face down (no exposure): "
                                   "STUD_STREET_CARD_WRONG at the street's first action; the dealer turns it "
                                   "up (remedy followed); checked down, seat 3 wins")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks()
    s.e("card", dt=1.0, zone="burn", card="3s").card("seat1", "Tc").up(3, "6s").up(4, "3c")
    s.act(4, "check").expect("STUD_STREET_CARD_WRONG", 1, "fifth").e("exposed", zone="seat1", card="Tc")
    s.act(1, "check").act(3, "check")
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def up_card_left_down() -> Scenario:
    s = Stud("up_card_left_down", "5th street: seat 1's Tc is dealt face down: STUD_STREET_CARD_WRONG; the "
                                  "dealer never turns it up: CORRECTION_NOT_FOLLOWED once, at 6th street's "
                                  "first action; then followed as played, seat 3 wins")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks()
    s.e("card", dt=1.0, zone="burn", card="3s").card("seat1", "Tc").up(3, "6s").up(4, "3c")
    s.act(4, "check").expect("STUD_STREET_CARD_WRONG", 1, "fifth").act(1, "check").act(3, "check")
    s.street("sixth").act(4, "check").expect("CORRECTION_NOT_FOLLOWED", 1, "sixth").act(1, "check")
    s.act(3, "check").street("seventh", up=False).checks().expect("SHOWDOWN_ORDER", 4, "showdown")
    s.show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def door_card_dealt_down() -> Scenario:
    s = Stud("door_card_dealt_down", "initial deal: seat 3's up-card 2c is dealt face down: "
                                     "STUD_STREET_CARD_WRONG when the betting starts; 2c is still the lowest "
                                     "up-card and seat 3 brings in; played out as in clean_fixed")
    s.setup_stud().begin()
    for rnd in range(2):
        for seat in (1, 2, 3, 4):
            s.card(f"seat{seat}", DOWN[seat][rnd])
    s.up(1, "7c").up(2, "4d").card("seat3", "2c").up(4, "Jh")
    s.act(3, "bet", 10).expect("STUD_STREET_CARD_WRONG", 3, "third").e("exposed", zone="seat3", card="2c")
    s.act(4, "raise", 20).act(1, "call", 20).fold(2).act(3, "call", 20)
    s.rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def seventh_dealt_up() -> Scenario:
    s = Stud("seventh_dealt_up", "7th street: seat 1's Th is dealt face up: STUD_STREET_CARD_WRONG; it "
                                 "stays up and plays, the other 7th-street cards come down; seat 3 wins")
    s.setup_stud().begin().deal3().third_fixed()
    for name in ("fourth", "fifth", "sixth"):
        s.street(name).checks()
    s.e("card", dt=1.0, zone="burn", card="5d").up(1, "Th").expect("STUD_STREET_CARD_WRONG", 1, "seventh")
    s.card("seat3", "Qs").card("seat4", "5c").checks().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def seventh_dealt_up_keeps_order() -> Scenario:
    s = Stud("seventh_dealt_up_keeps_order", "7th street: seat 1's Ah is dealt face up and pairs its Ac: "
                                             "STUD_STREET_CARD_WRONG; it plays, but the order of 6th street "
                                             "stands on 7th (002 silent; usual stud practice): seat 4's open "
                                             "jacks act first, then seats 1 and 3; seat 3 wins")
    s.setup_stud().begin().deal3().third_fixed()
    for name in ("fourth", "fifth", "sixth"):
        s.street(name).checks()
    s.e("card", dt=1.0, zone="burn", card="5d").up(1, "Ah").expect("STUD_STREET_CARD_WRONG", 1, "seventh")
    s.card("seat3", "Qs").card("seat4", "5c").checks().expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(3)
    s.muck(1, (*DOWN[1], "Ah")).muck(4, (*DOWN[4], "5c"))
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def down_card_exposed() -> Scenario:
    s = Stud("down_card_exposed", "initial deal: seat 2's first down-card 2h is exposed by the dealer: "
                                  "HOLE_CARD_EXPOSED; it plays as seat 2's up-card and seat 2's third card "
                                  "(4d) comes face down (remedy followed); 2c (seat 3) is still lowest, "
                                  "played out as in clean_fixed")
    s.setup_stud().begin()
    s.card("seat1", "As").card("seat2", "2h").e("exposed", zone="seat2", card="2h")
    s.expect("HOLE_CARD_EXPOSED", 2, "deal").card("seat3", "Qc").card("seat4", "9s")
    for seat in (1, 2, 3, 4):
        s.card(f"seat{seat}", DOWN[seat][1])
    s.up(1, "7c").card("seat2", "4d").up(3, "2c").up(4, "Jh")
    s.act(3, "bet", 10).act(4, "raise", 20).act(1, "call", 20).act(2, "fold").muck(2, ("2h", "3h", "4d"))
    s.act(3, "call", 20).rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def down_card_exposed_third_up() -> Scenario:
    s = Stud("down_card_exposed_third_up", "initial deal: seat 2's first down-card 2h is exposed: "
                                           "HOLE_CARD_EXPOSED; the dealer deals seat 2's third card (4d) "
                                           "face up anyway: CORRECTION_NOT_FOLLOWED; both play up; 2c (seat "
                                           "3) still brings in; played out as in clean_fixed")
    s.setup_stud().begin()
    s.card("seat1", "As").card("seat2", "2h").e("exposed", zone="seat2", card="2h")
    s.expect("HOLE_CARD_EXPOSED", 2, "deal").card("seat3", "Qc").card("seat4", "9s")
    for seat in (1, 2, 3, 4):
        s.card(f"seat{seat}", DOWN[seat][1])
    s.up(1, "7c").up(2, "4d").expect("CORRECTION_NOT_FOLLOWED", 2, "deal").up(3, "2c").up(4, "Jh")
    s.act(3, "bet", 10).act(4, "raise", 20).act(1, "call", 20).act(2, "fold").muck(2, ("2h", "3h", "4d"))
    s.act(3, "call", 20).rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def down_cards_exposed_multiple() -> Scenario:
    s = Stud("down_cards_exposed_multiple", "initial deal: two down-cards exposed (seat 1's As, seat 3's "
                                            "Qc): HOLE_CARDS_EXPOSED_MULTIPLE, misdeal; the redeal is clean "
                                            "and played out as in clean_fixed (antes stay)")
    s.setup_stud().begin()
    s.card("seat1", "As").e("exposed", zone="seat1", card="As").expect("HOLE_CARD_EXPOSED", 1, "deal")
    s.card("seat2", "2h").card("seat3", "Qc").e("exposed", zone="seat3", card="Qc")
    s.expect("HOLE_CARDS_EXPOSED_MULTIPLE", 3, "deal")
    s.begin().deal3().third_fixed().rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def deal_order() -> Scenario:
    s = Stud("deal_order", "the initial deal starts at seat 2 instead of seat 1 (dealer's left): "
                           "STUD_DEAL_ORDER, misdeal; the redeal is clean and played out")
    s.setup_stud().begin().card("seat2", "2h").expect("STUD_DEAL_ORDER", 2, "deal")
    s.begin().deal3().third_fixed().rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def common_card() -> Scenario:
    s = Stud("common_card", "8 players stay to 7th street: 24 + 3 × 8 cards and three burns leave one card "
                            "for eight seats, so the dealer turns one common card face up in the centre "
                            "(standard stud procedure; 002 is silent); every seat plays it as its seventh "
                            "card; seat 8's aces full win")
    ranks = "23456789TJQKA"
    deck = [r + su for r in ranks for su in "cdhs"]
    hands: dict[int, list[str]] = {s_: [] for s_ in range(1, 9)}
    # Cards are handed out in deal order from a fixed deck order; seat 8 gets the aces and kings.
    strong = ["Ac", "Ad", "Kc", "Ah", "Kd", "Kh"]
    rest = [c for c in deck if c not in strong]
    burns = [rest.pop() for _ in range(3)]
    for _ in range(6):
        for seat in range(1, 9):
            hands[seat].append(strong.pop(0) if seat == 8 else rest.pop(0))
    common = rest.pop(0)
    s.setup_stud(players=8)
    s.e("hand_start")
    for seat in range(1, 9):
        s.e("chips", seat=seat, amount=5)
    for rnd in range(3):
        for seat in range(1, 9):
            c = hands[seat][rnd]
            if rnd == 2:
                s.up(seat, c)
            else:
                s.card(f"seat{seat}", c)
    doors = {seat: hands[seat][2] for seat in range(1, 9)}
    low = min(doors, key=lambda x: ("23456789TJQKA".index(doors[x][0]), "cdhs".index(doors[x][1])))
    s.act(low, "bet", 10)
    for seat in [x for x in range(low + 1, 9)] + list(range(1, low)):
        s.act(seat, "call", 10)
    for street in range(3):
        s.e("card", dt=1.0, zone="burn", card=burns[street])
        for seat in range(1, 9):
            s.up(seat, hands[seat][3 + street])
        s.e("action", seat=8, action="check")  # seat 8 shows the highest hand from 4th street on
        for seat in range(1, 8):
            s.act(seat, "check")
    s.e("card", dt=1.0, zone="board", card=common).e("exposed", zone="board", card=common)
    s.act(8, "check")
    for seat in range(1, 8):
        s.act(seat, "check")
    s.expect("SHOWDOWN_ORDER", 8, "showdown")
    for c in hands[8][:2]:
        s.e("exposed", zone="seat8", card=c)
    s.end(8, **{f"s{x}": 985 for x in range(1, 8)}, s8=1105)
    return s


# --- dealing errors of the H rows, in stud (catalogue H; docs/rules.md "Seven-card stud") ------------
# clean_fixed's stacks (975, 995, 1055, 975) after the next hand (everyone -5, seat 3 +15):
AFTER_CLEAN = {"s1": 970, "s2": 990, "s3": 1070, "s4": 970}


@stud
def deal_empty_seat() -> Scenario:
    s = Stud("deal_empty_seat", "initial deal: after the first round's card to seat 4 the dealer gives a "
                                "card to empty seat 5: DEAL_EMPTY_SEAT, a misdeal (004 §4(2e); in stud as in "
                                "hold'em); the redeal is played out as in clean_fixed, then the next hand")
    s.setup_stud().begin()
    for seat in (1, 2, 3, 4):
        s.card(f"seat{seat}", DOWN[seat][0])
    s.card("seat5", "Kh").expect("DEAL_EMPTY_SEAT", 5, "deal", "misdeal")
    return s.clean_redeal().end(3, **AFTER_CLEAN)


@stud
def deal_empty_seat_fourth() -> Scenario:
    s = Stud("deal_empty_seat_fourth", "4th street: the dealer gives an up-card to empty seat 5 between "
                                       "seats 3 and 4: DEAL_EMPTY_SEAT as an error, not a misdeal (the "
                                       "initial deal is over); the card is taken away, seat 4 gets its "
                                       "card and the hand is played out as in clean_fixed; next hand")
    s.setup_stud().begin().deal3().third_fixed()
    s.e("card", dt=1.0, zone="burn", card="2s").up(1, "8c").up(3, "5s")
    s.card("seat5", "Kh").expect("DEAL_EMPTY_SEAT", 5, "fourth", "error")
    s.gone("seat5", "Kh").card("muck", "Kh")
    s.up(4, "Jd").checks().rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def too_many_cards() -> Scenario:
    s = Stud("too_many_cards", "after the initial deal, before any action, seat 2 receives a fourth card: "
                               "DEAL_TOO_MANY_CARDS, a misdeal before two actions (000 §2.4; 004 §4(2g)); "
                               "the redeal is played out as in clean_fixed, then the next hand")
    s.setup_stud().begin().deal3().card("seat2", "Kh").expect("DEAL_TOO_MANY_CARDS", 2, "third", "misdeal")
    return s.clean_redeal().end(3, **AFTER_CLEAN)


@stud
def too_many_cards_dead() -> Scenario:
    s = Stud("too_many_cards_dead", "seat 1 is found with a fourth card after two actions (bring-in, "
                                    "completion): DEAL_TOO_MANY_CARDS, its hand is dead, its ante stays "
                                    "(000 §2.4; 004 §4(4)); seat 2 folds, seat 3 calls; seats 3 and 4 check "
                                    "it down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().act(3, "bet", 10).act(4, "raise", 20).card("seat1", "Kh")
    s.expect("DEAL_TOO_MANY_CARDS", 1, "third", "dead_hand").muck(1, (*DOWN[1], UP[1], "Kh"))
    s.fold(2).act(3, "call", 20).street("fourth", seats=(3, 4)).checks((4, 3)).heads_up_checked_down()
    return s.next_hand(3).end(3, s1=990, s2=990, s3=1050, s4=970)


@stud
def deal_seat_skipped() -> Scenario:
    s = Stud("deal_seat_skipped", "the up-card round stops before seat 4 and seat 3 brings in: "
                                  "DEAL_SEAT_SKIPPED, a misdeal before two actions (000 §2.4; 004 §4(2f)); "
                                  "the bring-in does not count; the redeal is played out, then the next hand")
    s.setup_stud().begin()
    for rnd in range(2):
        for seat in (1, 2, 3, 4):
            s.card(f"seat{seat}", DOWN[seat][rnd])
    s.up(1, "7c").up(2, "4d").up(3, "2c").act(3, "bet", 10).expect("DEAL_SEAT_SKIPPED", 4, "deal", "misdeal")
    return s.clean_redeal().end(3, **AFTER_CLEAN)


@stud
def deal_seat_skipped_then_acts() -> Scenario:
    s = Stud("deal_seat_skipped_then_acts", "as deal_seat_skipped (a misdeal during the deal), then seat 1 "
                                            "folds and seat 3 bets again before the cards are gathered: a "
                                            "misdeal during the deal stays void, nothing more is said "
                                            "(before: the hand was taken up without a betting round and "
                                            "the core raised an internal error)")
    s.setup_stud().begin()
    for rnd in range(2):
        for seat in (1, 2, 3, 4):
            s.card(f"seat{seat}", DOWN[seat][rnd])
    s.up(1, "7c").up(2, "4d").up(3, "2c").act(3, "bet", 10).expect("DEAL_SEAT_SKIPPED", 4, "deal", "misdeal")
    s.act(1, "fold").act(3, "bet", 10)
    return s.clean_redeal().end(3, **AFTER_CLEAN)


@stud
def card_off_table() -> Scenario:
    s = Stud("card_off_table", "seat 2's first down-card leaves its reader during the initial deal and is "
                               "not seen again; the deal is finished; at the bring-in: CARD_OFF_TABLE, a "
                               "misdeal (000 §2.4); the redeal is played out, then the next hand")
    s.setup_stud().begin().card("seat1", "As").card("seat2", "2h").gone("seat2", "2h")
    s.card("seat3", "Qc").card("seat4", "9s")
    for seat in (1, 2, 3, 4):
        s.card(f"seat{seat}", DOWN[seat][1])
    for seat in (1, 2, 3, 4):
        s.up(seat, UP[seat])
    s.act(3, "bet", 10).expect("CARD_OFF_TABLE", 2, "third", "misdeal")
    return s.clean_redeal().end(3, **AFTER_CLEAN)


@stud
def dead_hand_absent() -> Scenario:
    s = Stud("dead_hand_absent", "seat 2 is away when the initial deal completes: DEAD_HAND_ABSENT, its hand "
                                 "is dead and mucked, its ante stays (000 §1.5; 001 §6); 3rd street without "
                                 "it, played out as in clean_fixed; seat 2 is back for the next hand")
    s.setup_stud().begin().e("present", seat=2, present=False).deal3()
    s.expect("DEAD_HAND_ABSENT", 2, "deal", "dead_hand")
    s.muck(2, (*DOWN[2], UP[2])).act(3, "bet", 10).act(4, "raise", 20).act(1, "call", 20)
    s.act(3, "call", 20).rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    s.e("present", seat=2, present=True)
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def dead_hand_absent_bring_in() -> Scenario:
    s = Stud("dead_hand_absent_bring_in", "seat 3 holds the bring-in card (2c) and is away when the deal "
                                          "completes: DEAD_HAND_ABSENT; its ante and its bring-in are posted "
                                          "(as an absent player's blinds; TDA's at-your-seat rule) and stay "
                                          "in, the dealer puts in the 10 (no alert); seat 4 completes, seat "
                                          "1 calls, seat 2 folds; checked down, seat 1's aces and tens beat "
                                          "seat 4's jacks and nines; "
                                          "seat 3 is back for the next hand")
    s.setup_stud().begin().e("present", seat=3, present=False).deal3()
    s.expect("DEAD_HAND_ABSENT", 3, "deal", "dead_hand")
    s.e("chips", seat=3, amount=10).muck(3, (*DOWN[3], UP[3]))
    s.act(4, "raise", 20).act(1, "call", 20).fold(2)
    s.rest_checked(seats=(1, 4), order=(4, 1))
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(4).shows(1)
    s.muck(4, (*DOWN[4], "5c")).e("present", seat=3, present=True)
    return s.next_hand(1).end(3, s1=1040, s2=990, s3=1000, s4=970)


# --- hand lifecycle rows (catalogue L) in stud -----------------------------------------------------
@stud
def misdeal_called() -> Scenario:
    s = Stud("misdeal_called", "after the initial deal, before the bring-in, the dealer presses misdeal: "
                               "MISDEAL_CALLED, the hand is void (000 §2.4; 004 §4); the redeal (antes stay) "
                               "is played out as in clean_fixed, then the next hand")
    s.setup_stud().begin().deal3().e("console", button="misdeal")
    s.expect("MISDEAL_CALLED", None, "third", "misdeal")
    return s.clean_redeal().end(3, **AFTER_CLEAN)


@stud
def misdeal_called_played_on() -> Scenario:
    s = Stud("misdeal_called_played_on", "after the initial deal the dealer presses misdeal, but the table "
                                         "plays the hand on (seat 3 brings in): one CORRECTION_NOT_FOLLOWED "
                                         "naming the misdeal, then the hand is followed as clean_fixed and "
                                         "settled as the chips moved (before: the hand stayed void)")
    s.setup_stud().begin().deal3().e("console", button="misdeal")
    s.expect("MISDEAL_CALLED", None, "third", "misdeal").act(3, "bet", 10)
    s.expect("CORRECTION_NOT_FOLLOWED", None, "third")
    s.act(4, "raise", 20).act(1, "call", 20).fold(2).act(3, "call", 20).rest_checked()
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


@stud
def dead_hand_plays_on() -> Scenario:
    s = Stud("dead_hand_plays_on", "seat 1 is found with a fourth card after two actions: its hand is dead "
                                   "(000 §2.4; 004 §4(4)), but its cards stay and it calls the completion: "
                                   "one CORRECTION_NOT_FOLLOWED, the call is followed as played; it is "
                                   "dealt its street cards, checks on 4th, bets 40 on 5th, seat 3 calls and "
                                   "seat 4 folds: the dead hand cannot win, seat 3 takes the pot of 160; "
                                   "the rest of the cards are only noted (before: a BAD_EVENT per action, "
                                   "wrong-seat cards and rabbit hunts)")
    s.setup_stud().begin().deal3().act(3, "bet", 10).act(4, "raise", 20).card("seat1", "Kh")
    s.expect("DEAL_TOO_MANY_CARDS", 1, "third", "dead_hand").act(1, "call", 20)
    s.expect("CORRECTION_NOT_FOLLOWED", 1, "third").fold(2).act(3, "call", 20)
    s.street("fourth").checks((4, 1, 3)).street("fifth").act(4, "check").act(1, "bet", 40).act(3, "call", 40)
    s.fold(4, (*DOWN[4], UP[4], "Jd", "3c"))
    s.street("sixth", seats=(1, 3)).checks((1, 3)).street("seventh", seats=(1, 3), up=False).checks((1, 3))
    s.muck(1, (*DOWN[1], UP[1], "Kh", "8c", "Tc", "Ac", "Th"))
    return s.next_hand(3).end(3, s1=930, s2=990, s3=1110, s4=970)


@stud
def misdeal_called_fifth_street() -> Scenario:
    s = Stud("misdeal_called_fifth_street", "5th street, after seat 4 checks, the dealer presses misdeal: "
                                            "far past the two actions of 001 §14 and 004 §4(1), so the hand "
                                            "is not void: one MISDEAL_CALLED (error, not a misdeal), seats 1 "
                                            "and 3 check and the hand is played out as in clean_fixed; next "
                                            "hand (before: the hand was voided without a word and the rest "
                                            "of it was lost)")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth").act(4, "check")
    s.e("console", button="misdeal").expect("MISDEAL_CALLED", None, "fifth", "error").act(1, "check")
    s.act(3, "check").rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def hole_card_in_muck() -> Scenario:
    s = Stud("hole_card_in_muck", "4th street: seat 1's down-card As reaches the muck while seat 4 is to "
                                  "act: HOLE_CARD_IN_MUCK, seat 1's hand is dead, its chips stay (000 §1.5; "
                                  "001 §13); seats 4 and 3 check it down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").gone("seat1", "As").card("muck", "As")
    s.expect("HOLE_CARD_IN_MUCK", 1, "fourth", "dead_hand").muck(1, ("Kd", "7c", "8c"))
    s.checks((4, 3)).heads_up_checked_down()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def action_after_fold() -> Scenario:
    s = Stud("action_after_fold", "4th street: seat 4 checks; while seat 1 is to act seat 3 pushes its "
                                  "four cards forward and seat 1 checks on it: ACTION_AFTER_FOLD, seat 3's "
                                  "hand is dead (001 §13(b)); seats 4 and 1 check it down, seat 1's aces "
                                  "and tens win; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").act(4, "check")
    for c in (*DOWN[3], UP[3], "5s"):
        s.gone("seat3", c)
    s.act(1, "check").expect("ACTION_AFTER_FOLD", 3, "fourth", "dead_hand")
    for c in (*DOWN[3], UP[3], "5s"):
        s.card("muck", c)
    for name in ("fifth", "sixth", "seventh"):
        s.street(name, seats=(1, 4), up=name != "seventh").checks((4, 1))
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(4).shows(1)
    s.muck(4, (*DOWN[4], "5c"))
    return s.next_hand(1).end(3, s1=1050, s2=990, s3=990, s4=970)


# --- the open pair on 4th street per betting structure (002 §4) --------------------------------------
def _open_pair_small_bet_raised(s: Stud, to: int) -> Stud:
    """4th street: seat 4 (open jacks) bets 20, seat 1 raises to `to`, seats 3 and 4 call it."""
    return s.street("fourth").act(4, "bet", 20).act(1, "raise", to).act(3, "call", to).act(4, "call", to)


@stud
def open_pair_small_bet_raise_fixed() -> Scenario:
    about = ("fixed limit, open jacks on 4th street: seat 4 bets the small bet (20); seat 1 raises by the "
             "small bet (to 40), but after an open pair every raise of the round is the big bet (002 §4, to "
             "60): BET_BELOW_MINIMUM, under cuca half a raise is a call; seat 3 calls; checked down; "
             "next hand")
    s = Stud("open_pair_small_bet_raise_fixed", about)
    s.setup_stud().begin().deal3().third_fixed().street("fourth").act(4, "bet", 20).act(1, "raise", 40)
    s.expect("BET_BELOW_MINIMUM", 1, "fourth").act(3, "call", 20)
    s.rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, s1=950, s2=990, s3=1110, s4=950)


@stud
def open_pair_pot() -> Scenario:
    s = Stud("open_pair_pot", "pot limit, open jacks on 4th street: the open pair changes nothing (002 §4 "
                              "names split and step-spread limit; the pot bounds the bets): seat 4 bets 20 "
                              "and seat 1 raises by 20 (to 40), a legal pot-limit raise (at fixed limit the "
                              "same raise is below the big bet); all call; checked down; next hand")
    s.setup_stud("pot").begin().deal3()
    s.act(4, "bet", 10).act(1, "raise", 20).fold(2).act(3, "call", 20).act(4, "call", 20)
    _open_pair_small_bet_raised(s, 40).rest_checked("fifth")
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3, bring_in=4).end(4, s1=930, s2=990, s3=1130, s4=950)


@stud
def open_pair_no_limit() -> Scenario:
    s = Stud("open_pair_no_limit", "no limit, open jacks on 4th street: no effect (002 §4): seat 4 bets 20, "
                                   "seat 1 raises by 20 (to 40), a full no-limit raise; all call; checked "
                                   "down; next hand")
    s.setup_stud("no").begin().deal3().act(4, "bet", 10).act(1, "call", 10).fold(2).act(3, "call", 10)
    _open_pair_small_bet_raised(s, 40).rest_checked("fifth")
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3, bring_in=4).end(4, s1=940, s2=990, s3=1110, s4=960)


@stud
def open_pair_step_spread_raise() -> Scenario:
    s = Stud("open_pair_step_spread_raise", "step-spread limit, open jacks on 4th street: seat 4 bets 20; "
                                            "seat 1 raises by 35 (to 55): every raise of the round may go "
                                            "to the higher step (40) after an open pair (002 §4), without "
                                            "it the lower step (20) would be the bound; all call; next hand")
    s.setup_stud("step_spread").begin().deal3().third_fixed()
    _open_pair_small_bet_raised(s, 55).rest_checked("fifth")
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, s1=915, s2=990, s3=1180, s4=915)


@stud
def spread_big_bet_without_pair() -> Scenario:
    s = Stud("spread_big_bet_without_pair", "spread limit 20-40 (no steps): no open pair on 4th street (seat "
                                            "4 shows Jh 8h), seat 4 bets 35, legal: the spread has one bound "
                                            "on every street, so the open-pair rule of 002 §4 (split and "
                                            "step-spread) has nothing to lift; seats 1 and 3 call; next hand")
    s.setup_stud("spread").begin().deal3().third_fixed()
    s.e("card", dt=1.0, zone="burn", card="2s").up(1, "8c").up(3, "5s").up(4, "8h")
    s.act(4, "bet", 35).act(1, "call", 35).act(3, "call", 35)
    s.street("fifth").checks((4, 1, 3)).street("sixth").checks((1, 3, 4))
    s.street("seventh", up=False).checks((1, 3, 4)).expect("SHOWDOWN_ORDER", 1, "showdown")
    s.shows(3)
    s.muck(1, (*DOWN[1], "Th")).muck(4, (*DOWN[4], "5c"))
    return s.next_hand(3).end(3, s1=935, s2=990, s3=1140, s4=935)
# --- split pots: the odd chip (TDA 2024 Rule 20; 002 is silent) ------------------------------------------
def _odd_chip_hand(name: str, about: str, cards: dict[int, tuple[str, ...]]) -> Stud:
    """Three players, ante 5, fixed limit. `cards[seat]` are the seat's seven cards in deal order (down,
    down, door, 4th-6th up, 7th down). Seat 1 (the lowest door, 8c) brings in, seats 2 and 3 call: 45 in
    the pot; 4th street seat 2 (ace high showing) checks, seat 3 bets 20, seat 1 calls, seat 2 folds:
    85; checked down; seats 1 and 3 show the same queen-high straight and split 85 = 42 + 43."""
    s = Stud(name, about)
    s.down = {seat: c[:2] for seat, c in cards.items()}
    s.upcards = {seat: c[2] for seat, c in cards.items()}
    s.setup_stud(players=3).begin((1, 2, 3)).deal3((1, 2, 3))
    s.act(1, "bet", 10).act(2, "call", 10).act(3, "call", 10)
    burns = {"fourth": "2s", "fifth": "3s", "sixth": "4c", "seventh": "5d"}
    for i, street in enumerate(("fourth", "fifth", "sixth", "seventh")):
        live = (1, 2, 3) if street == "fourth" else (1, 3)
        s.e("card", dt=1.0, zone="burn", card=burns[street])
        for seat in live:
            if street == "seventh":
                s.card(f"seat{seat}", cards[seat][3 + i])
            else:
                s.up(seat, cards[seat][3 + i])
        if street == "fourth":
            s.act(2, "check").act(3, "bet", 20).act(1, "call", 20).fold(2, cards[2][:4])
        else:  # equal up-cards on 5th and 6th street: the seat nearest the dealer's left acts first
            s.checks((1, 3))
    s.expect("SHOWDOWN_ORDER", 1, "showdown")
    for seat in (1, 3):
        for c in (*cards[seat][:2], cards[seat][6]):
            s.e("exposed", zone=f"seat{seat}", card=c)
    return s


@stud
def odd_chip_high_card() -> Scenario:
    s = _odd_chip_hand(
        "odd_chip_high_card", "seats 1 and 3 tie with a queen-high straight; 85 splits 42/43 and the odd "
        "chip goes to the highest card by suit among the winners' cards, seat 3's Qs (TDA 2024 Rule 20; "
        "002 is silent), not to seat 1, the first winner from the dealer's left (hold'em's rule)",
        {1: ("2c", "3d", "8c", "9d", "Th", "Jc", "Qd"), 2: ("Kh", "Kd", "Ac", "2h"),
         3: ("2d", "3c", "8d", "9h", "Ts", "Jh", "Qs")})
    return s.end(3, s1=1007, s2=985, s3=1008)


@stud
def odd_chip_down_card() -> Scenario:
    s = _odd_chip_hand(
        "odd_chip_down_card", "the same split, but seat 1 shows the higher up-cards (Js over Jh) while "
        "seat 3 holds the As face down, outside its straight: every card of the seat counts, down-cards "
        "too, not just the up-cards or the best five (docs/rules.md), so the odd chip goes to seat 3",
        {1: ("2c", "3d", "8c", "9d", "Th", "Js", "Qd"), 2: ("Kh", "Kd", "Ac", "2h"),
         3: ("As", "3c", "8d", "9h", "Ts", "Jh", "Qh")})
    return s.end(3, s1=1007, s2=985, s3=1008)


# --- the game from the table config (issue 13: replay and the daemon take the game from the config) ------
@stud
def table_game_from_config() -> Scenario:
    s = Stud("table_game_from_config", "clean_fixed with a level that names no game and leaves out the "
                                       "limit and the big bet: the table config says game stud7, fixed "
                                       "limit, big bet 40 (header table_game), so the hand is stud and "
                                       "plays exactly as clean_fixed; replayed as hold'em the level would "
                                       "be refused (no big blind)")
    s.table_game = {"game": "stud7", "limit": "fixed", "big_bet": 40}
    for seat in range(1, 5):
        s.e("seat", seat=seat, player=f"P{seat}", stack=1000)
    s.e("level", ante=5, bring_in=10, small_bet=20)
    s.begin().deal3().third_fixed().rest_checked()
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=975, s2=995, s3=1055, s4=975)


# --- deck integrity (catalogue D) in stud --------------------------------------------------------------
FULL = [r + u for r in "23456789TJQKA" for u in "cdhs"]
UIDS = {c: f"{i:02x}b0" for i, c in enumerate(FULL)}


def _heads_up_13(s: Stud, start: str = "fifth") -> Stud:
    """Seats 1 and 3 check from `start` to 7th street (seat 1's board is higher on every street, so it
    acts first and shows first); seat 3's four queens win, seat 1 mucks."""
    names = ["fourth", "fifth", "sixth", "seventh"]
    for name in names[names.index(start):]:
        s.street(name, seats=(1, 3), up=name != "seventh").checks((1, 3))
    s.expect("SHOWDOWN_ORDER", 1, "showdown")
    s.shows(3)
    return s.muck(1, (*DOWN[1], "Th"))


@stud
def deck_duplicate() -> Scenario:
    s = Stud("deck_duplicate", "initial deal: seat 4's first card is a second As while seat 1 holds the "
                               "As: DECK_DUPLICATE, the deck is fouled, the hand is over at once "
                               "(001 §14(7); 004 §6(1)); the redeal (new deck, antes again) is played "
                               "out as in clean_fixed, then the next hand")
    s.setup_stud().begin()
    for seat in (1, 2, 3):
        s.card(f"seat{seat}", DOWN[seat][0])
    s.card("seat4", "As").expect("DECK_DUPLICATE", None, "deal", "misdeal")
    return s.clean_redeal().end(3, **AFTER_CLEAN)


@stud
def deck_duplicate_fifth() -> Scenario:
    s = Stud("deck_duplicate_fifth", "5th street, after bets on 3rd and 4th street: seat 1's card is a "
                                     "second Qc while seat 3 holds the Qc: DECK_DUPLICATE, the hand ends at "
                                     "once and every bet goes back, antes too (001 §14(7): fouled deck, no "
                                     "matter how far the hand went); the next hand is dealt and tracked")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").act(4, "bet", 20).act(1, "call", 20)
    s.act(3, "call", 20).e("card", dt=1.0, zone="burn", card="3s").up(3, "6s")
    s.card("seat1", "Qc").expect("DECK_DUPLICATE", None, "fifth", "misdeal")
    s.e("hand_start", dt=5.0)  # a void hand has no pot to award
    for seat in (1, 2, 3, 4):
        s.e("chips", seat=seat, amount=5)
    s.deal3().act(3, "bet", 10)
    for seat in (4, 1, 2):
        s.fold(seat)
    s.expect("UNCALLED_BET", 3, "showdown")
    return s.end(3, s1=995, s2=995, s3=1015, s4=995)


@stud
def foreign_card() -> Scenario:
    s = Stud("foreign_card", "initial deal with an enrolled deck: seat 2's first card is a tag not in the "
                             "deck: FOREIGN_CARD, not a misdeal (001 §14(6)); the card is not applied, the "
                             "dealer gives seat 2 a correct card in its place and the deal goes on in order; "
                             "played out as in clean_fixed, then the next hand")
    s.setup_stud().e("deck", id="blue-1", cards={uid: c for c, uid in UIDS.items()}).begin()
    s.card("seat1", "As").e("card", zone="seat2", uid="ffee").expect("FOREIGN_CARD", 2, "deal")
    s.card("seat2", "2h").card("seat3", "Qc").card("seat4", "9s")
    for seat in (1, 2, 3, 4):
        s.card(f"seat{seat}", DOWN[seat][1])
    for seat in (1, 2, 3, 4):
        s.up(seat, UP[seat])
    s.third_fixed().rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def foreign_card_sixth() -> Scenario:
    s = Stud("foreign_card_sixth", "6th street: seat 3's card is a tag not in the enrolled deck: "
                                   "FOREIGN_CARD (001 §14(6)); it is replaced by the next card (Qh), which "
                                   "counts as seat 3's 6th-street up-card; checked down, seat 3 wins; next "
                                   "hand")
    s.setup_stud().e("deck", id="blue-1", cards={uid: c for c, uid in UIDS.items()}).begin().deal3()
    s.third_fixed().street("fourth").checks().street("fifth").checks()
    s.e("card", dt=1.0, zone="burn", card="4c").up(1, "Ac").e("card", zone="seat3", uid="ffee")
    s.expect("FOREIGN_CARD", 3, "sixth").up(3, "Qh").up(4, "4s").checks()
    s.street("seventh", up=False).checks().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def boxed_card() -> Scenario:
    s = Stud("boxed_card", "4th street betting: the camera sees Kh face up in the stub: BOXED_CARD (004 "
                           "§5); the dealer takes it out and deals 5th street from the next cards; checked "
                           "down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").act(4, "check")
    s.e("exposed", zone="deck", card="Kh").expect("BOXED_CARD", None, "fourth").checks((1, 3))
    s.rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def boxed_card_dealt() -> Scenario:
    s = Stud("boxed_card_dealt", "4th street betting: Kh is seen face up in the stub: BOXED_CARD; the dealer "
                                 "deals it anyway as seat 1's 5th-street card: CORRECTION_NOT_FOLLOWED once "
                                 "(004 §5), then the card plays where it lies (seat 1's up-card, now the "
                                 "highest board: it acts first); checked down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").act(4, "check")
    s.e("exposed", zone="deck", card="Kh").expect("BOXED_CARD", None, "fourth").checks((1, 3))
    s.e("card", dt=1.0, zone="burn", card="3s").up(1, "Kh").expect("CORRECTION_NOT_FOLLOWED", 1, "fifth")
    s.up(3, "6s").up(4, "3c").checks()
    for name in ("sixth", "seventh"):
        s.street(name, up=name != "seventh").checks()
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(3)
    s.muck(1, (*DOWN[1], "Th")).muck(4, (*DOWN[4], "5c"))
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def card_missing() -> Scenario:
    s = Stud("card_missing", "5th street: seat 4 bets, seat 1 folds and its Kd leaves the seat but never "
                             "reaches the muck; seat 3 calls and wins at showdown; at the next hand_start "
                             "CARD_MISSING (004 §6(3): count the deck; the result stands), then the pot")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth")
    s.act(4, "bet", 40).act(1, "fold").muck(1, ("As", "7c", "8c", "Tc")).gone("seat1", "Kd")
    s.act(3, "call", 40)
    s.heads_up_checked_down("sixth")
    s.e("hand_start", dt=5.0).expect("CARD_MISSING", None, "between").expect("POT_AWARD", 3, "showdown")
    for seat in (1, 2, 3, 4):
        s.e("chips", seat=seat, amount=5)
    s.deal3().act(3, "bet", 10)
    for seat in (4, 1, 2):
        s.fold(seat)
    s.expect("UNCALLED_BET", 3, "showdown")
    return s.end(3, s1=970, s2=990, s3=1110, s4=930)


# --- betting rows of catalogue A in stud ---------------------------------------------------------------
@stud
def player_skipped() -> Scenario:
    s = Stud("player_skipped", "3rd street: after seat 3's bring-in seat 4 is to act, but seat 1 calls and "
                               "seat 2 folds: ACTION_OUT_OF_TURN twice, then PLAYER_SKIPPED: seat 4 counts "
                               "as folded (001 §8); seat 1's call stands (the action to it did not change); "
                               "seats 1 and 3 check it down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().act(3, "bet", 10).act(1, "call", 10)
    s.expect("ACTION_OUT_OF_TURN", 1, "third")
    s.act(2, "fold").expect("ACTION_OUT_OF_TURN", 2, "third").expect("PLAYER_SKIPPED", 4, "third")
    s.muck(2, (*DOWN[2], UP[2])).muck(4, (*DOWN[4], UP[4]))
    _heads_up_13(s, "fourth")
    return s.next_hand(3).end(3, s1=980, s2=990, s3=1040, s4=990)


@stud
def player_skipped_fourth() -> Scenario:
    s = Stud("player_skipped_fourth", "4th street: seat 4's open jacks must act first (002 §4), but seat 1 "
                                      "checks (STUD_FIRST_TO_ACT_WRONG) and seat 3 checks "
                                      "(ACTION_OUT_OF_TURN): two later seats acted, PLAYER_SKIPPED: seat 4 "
                                      "counts as folded (001 §8; in stud the skipped seat is the high "
                                      "board, not the seat left of a button); seats 1 and 3 check it "
                                      "down; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth")
    s.act(1, "check").expect("STUD_FIRST_TO_ACT_WRONG", 1, "fourth")
    s.act(3, "check").expect("ACTION_OUT_OF_TURN", 3, "fourth").expect("PLAYER_SKIPPED", 4, "fourth")
    s.muck(4, (*DOWN[4], UP[4], "Jd"))
    _heads_up_13(s, "fifth")
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def call_short() -> Scenario:
    s = Stud("call_short", "5th street (big bet 40): seat 4 bets 40, seat 1 puts in 20: CALL_SHORT (000 "
                           "§3.1: complete the call, no raise); seat 1 then tries to raise to 80: CALL_SHORT "
                           "again, it stands as the call to 40; seat 3 calls; checked down; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth")
    s.act(4, "bet", 40).act(1, "call", 20).expect("CALL_SHORT", 1, "fifth", "error")
    s.act(1, "raise", 80).expect("CALL_SHORT", 1, "fifth").act(3, "call", 40)
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, s1=930, s2=990, s3=1150, s4=930)


def _show_for_side_pot(s: Stud) -> Stud:
    """Showdown of the short-call scenarios: seat 4 shows first (jacks up), seat 3 shows four queens and
    takes the main pot, seat 1 shows aces up for the side pot it and seat 4 made above seat 3's call."""
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(4)
    s.shows(3)
    s.shows(1)
    return s


@stud
def call_short_left_dealt_past() -> Scenario:
    s = Stud("call_short_left_dealt_past",
             "5th street: seat 4 bets 40, seat 1 calls, seat 3 puts in 20 as the last to act: CALL_SHORT; "
             "nobody completes it and the dealer burns and deals 6th street: stud has no knock, so the "
             "deal is the moment the table went on (our reading of 000 §2.8, 002 silent): "
             "CORRECTION_NOT_FOLLOWED once, the call stands as placed and the cards are 6th street's, not "
             "premature; seat 3's four queens win the main pot, seat 1's aces up the 40 side pot")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth")
    s.act(4, "bet", 40).act(1, "call", 40).act(3, "call", 20).expect("CALL_SHORT", 3, "fifth", "error")
    s.street("sixth").expect("CORRECTION_NOT_FOLLOWED", 3, "fifth").checks()
    s.street("seventh", up=False).checks()
    _show_for_side_pot(s)
    # POT_AWARD names the first pot's winner: the side pot is listed first
    return s.next_hand(1).end(3, s1=970, s2=990, s3=1110, s4=930)


@stud
def call_short_left_third_no_burn() -> Scenario:
    s = Stud("call_short_left_third_no_burn",
             "3rd street: seat 3 brings in, seat 4 completes to 20, seat 1 calls, seat 2 folds, seat 3 puts "
             "in 5 more (15 of 20) as the last to act: CALL_SHORT; the dealer deals 4th street at once, "
             "without a burn: the short call stands (CORRECTION_NOT_FOLLOWED), the cards are 4th street's; "
             "checked down, seat 3's four queens win the main pot, seat 1 the 10 side pot")
    s.setup_stud().begin().deal3()
    s.act(3, "bet", 10).act(4, "raise", 20).act(1, "call", 20).fold(2)
    s.act(3, "call", 15).expect("CALL_SHORT", 3, "third", "error")
    s.up(1, STREETS["fourth"][1]).expect("CORRECTION_NOT_FOLLOWED", 3, "third")
    s.up(3, STREETS["fourth"][3]).up(4, STREETS["fourth"][4]).checks()
    s.rest_checked("fifth")
    _show_for_side_pot(s)
    return s.next_hand(1).end(3, s1=980, s2=990, s3=1060, s4=970)


@stud
def call_short_left_at_showdown() -> Scenario:
    s = Stud("call_short_left_at_showdown",
             "7th street: seat 4 bets 40, seat 1 calls, seat 3 puts in 20 as the last to act: CALL_SHORT; "
             "nobody completes it and seat 4 shows its down-cards: the table went to the showdown, one "
             "CORRECTION_NOT_FOLLOWED, the call stands as placed; seat 3's four queens win the main pot, "
             "seat 1's aces up the 40 side pot")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth").checks()
    s.street("sixth").checks().street("seventh", up=False)
    s.act(4, "bet", 40).act(1, "call", 40).act(3, "call", 20).expect("CALL_SHORT", 3, "seventh", "error")
    s.e("exposed", zone="seat4", card=DOWN[4][0]).expect("CORRECTION_NOT_FOLLOWED", 3, "seventh")
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    for c in (DOWN[4][1], "5c"):
        s.e("exposed", zone="seat4", card=c)
    s.shows(3)
    s.shows(1)
    return s.next_hand(1).end(3, s1=970, s2=990, s3=1110, s4=930)


@stud
def short_completion_called_full() -> Scenario:
    s = Stud("short_completion_called_full",
             "fixed limit, 3rd street: seat 3 brings in 10, seat 4 completes to 15 only: less than half "
             "the completion's step counts as a call (cuca, 001 §8): BET_BELOW_MINIMUM, return 5; the table "
             "instead takes it as the full completion: seat 1 calls 20, CORRECTION_NOT_FOLLOWED once, the "
             "completion to 20 is taken as played; seat 3 calls 20 and seat 4 says 'call 20' as it adds its "
             "5 (already counted: nothing more); checked down, seat 3's four queens win (before: a "
             "BAD_EVENT for every call to 20, then premature cards and dead hands)")
    s.setup_stud().begin().deal3()
    s.act(3, "bet", 10).act(4, "raise", 15).expect("BET_BELOW_MINIMUM", 4, "third")
    s.act(1, "call", 20).expect("CORRECTION_NOT_FOLLOWED", 4, "third").fold(2)
    s.act(3, "call", 20).act(4, "call", 20)
    s.rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, s1=970, s2=990, s3=1070, s4=970)


@stud
def dead_hand_clock() -> Scenario:
    s = Stud("dead_hand_clock", "5th street: seat 4 bets 40 and seat 1 thinks: after 65 s ACTION_TIME; "
                                "the clock is called (004 §11: one more minute); seat 1 still has not acted "
                                "when seat 3 calls 70 s later: DEAD_HAND_CLOCK, seat 1's hand is dead, its "
                                "chips stay in; seat 3's call is in turn; checked down, seat 3 wins; "
                                "next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth")
    s.act(4, "bet", 40).e("console", dt=65.0, button="clock").expect("ACTION_TIME", 1, "fifth")
    s.e("action", dt=70.0, seat=3, action="call", amount=40)
    s.expect("DEAD_HAND_CLOCK", 1, "fifth", "dead_hand")
    s.muck(1, (*DOWN[1], UP[1], "8c", "Tc"))
    s.heads_up_checked_down("sixth")
    return s.next_hand(3).end(3, s1=970, s2=990, s3=1110, s4=930)


# --- showdown rows of catalogue S in stud --------------------------------------------------------------
@stud
def mucked_winner() -> Scenario:
    s = Stud("mucked_winner", "checked down to the showdown: seat 4 shows first (the highest board), seat 1 "
                              "mucks, and the dealer mucks seat 3's down-cards (Qc Qd Qs) before the pot is "
                              "awarded; the muck reader identifies them: MUCKED_WINNER, seat 3's four queens "
                              "still win (000 §4.1; 001 §9); next hand")
    s.setup_stud().begin().deal3().third_fixed().rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(4)
    s.muck(1, (*DOWN[1], "Th")).muck(3, (*DOWN[3], "Qs"))
    s.e("hand_start", dt=5.0).expect("MUCKED_WINNER", 3, "showdown", "error")
    s.expect("POT_AWARD", 3, "showdown")
    for seat in (1, 2, 3, 4):
        s.e("chips", seat=seat, amount=5)
    s.deal3().act(3, "bet", 10)
    for seat in (4, 1, 2):
        s.fold(seat)
    s.expect("UNCALLED_BET", 3, "showdown")
    return s.end(3, **AFTER_CLEAN)


@stud
def dead_hand_clock_bring_in() -> Scenario:
    s = Stud("dead_hand_clock_bring_in", "3rd street: seat 3 (2c) must bring in and does not act; the clock "
                                         "is called and runs out when seat 4 completes 70 s later: "
                                         "DEAD_HAND_CLOCK, seat 3's hand is dead; the bring-in is forced "
                                         "(002 §3: no check, no fold), so the core posts it for seat 3 and "
                                         "it stays in (as an absent bring-in); seat 4's completion is in "
                                         "turn; seat 1's aces and tens win; next hand")
    s.setup_stud().begin().deal3().e("console", dt=5.0, button="clock")
    s.e("action", dt=70.0, seat=4, action="raise", amount=20)
    s.expect("DEAD_HAND_CLOCK", 3, "third", "dead_hand").muck(3, (*DOWN[3], UP[3]))
    s.act(1, "call", 20).fold(2)
    s.rest_checked(seats=(1, 4), order=(4, 1))
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(4).shows(1)
    s.muck(4, (*DOWN[4], "5c"))
    return s.next_hand(1).end(3, s1=1040, s2=990, s3=1000, s4=970)


@stud
def dead_hand_clock_bring_in_pot() -> Scenario:
    s = Stud("dead_hand_clock_bring_in_pot", "pot limit: the highest up-card (seat 4, Jh) must bring in "
                                             "(002 §3) and lets its clock run out: DEAD_HAND_CLOCK when seat "
                                             "1 completes to 20; seat 4's bring-in (10) is posted for it and "
                                             "stays in; seat 2 folds, seat 3 calls; seats 1 and 3 check it "
                                             "down, seat 3 wins; the next hand's bring-in is seat 4 again")
    s.setup_stud("pot").begin().deal3().e("console", dt=5.0, button="clock")
    s.e("action", dt=70.0, seat=1, action="raise", amount=20)
    s.expect("DEAD_HAND_CLOCK", 4, "third", "dead_hand").muck(4, (*DOWN[4], UP[4]))
    s.fold(2).act(3, "call", 20)
    _heads_up_13(s, "fourth")
    return s.next_hand(3, bring_in=4).end(4, s1=970, s2=990, s3=1040, s4=1000)


@stud
def out_of_turn_fifth_binding() -> Scenario:
    about = ("5th street: seat 4's open jacks check first; seat 3 bets 40 before seat 1: ACTION_OUT_OF_TURN; "
             "seat 1 checks, so the action to seat 3 did not change and its bet stands (000 §3.1); seat 4 "
             "calls, seat 1 folds; seats 3 and 4 check it down, seat 3 wins; next hand")
    s = Stud("out_of_turn_fifth_binding", about)
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth").act(4, "check")
    s.act(3, "bet", 40).expect("ACTION_OUT_OF_TURN", 3, "fifth").act(1, "check").act(4, "call", 40)
    s.fold(1, (*DOWN[1], UP[1], "8c", "Tc"))
    s.heads_up_checked_down("sixth")
    return s.next_hand(3).end(3, s1=970, s2=990, s3=1110, s4=930)


@stud
def out_of_turn_fourth_void_no_limit() -> Scenario:
    s = Stud("out_of_turn_fourth_void_no_limit", "no limit, 4th street: seat 4's open jacks act first (002 "
                                                 "§4), but seat 1 bets 30 first: STUD_FIRST_TO_ACT_WRONG; "
                                                 "seat 4 bets 50, the action to seat 1 changed, so its 30 "
                                                 "is void (ACTION_OUT_OF_TURN, info) and seat 1 acts again: "
                                                 "it calls 50; seat 3 calls; checked down; next hand")
    s.setup_stud("no").begin().deal3().act(4, "bet", 10).act(1, "call", 10).fold(2).act(3, "call", 10)
    s.street("fourth").act(1, "bet", 30).expect("STUD_FIRST_TO_ACT_WRONG", 1, "fourth")
    s.act(4, "bet", 50).expect("ACTION_OUT_OF_TURN", 1, "fourth", "info")
    s.act(1, "call", 50).act(3, "call", 50)
    s.rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3, bring_in=4).end(4, s1=930, s2=990, s3=1130, s4=950)


# --- a street card dealt before the betting ended (ours: STUD_CARD_PREMATURE) ---------------------------
@stud
def card_premature() -> Scenario:
    s = Stud("card_premature", "4th street: seat 4 checks and, while seat 1 is to act, the dealer already "
                               "gives seat 1 its 5th-street card Tc face up: STUD_CARD_PREMATURE (as a "
                               "premature board card, 000 §2.6, 003 (9); 002 silent): Tc does not play; the "
                               "dealer takes it out (to the burns), the betting ends, 5th street is dealt as "
                               "usual and seat 1 gets Kh; checked down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").act(4, "check").up(1, "Tc")
    s.expect("STUD_CARD_PREMATURE", 1, "fourth", "error").gone("seat1", "Tc").card("burn", "Tc")
    s.act(1, "check").act(3, "check")
    s.e("card", dt=1.0, zone="burn", card="3s").up(1, "Kh").up(3, "6s").up(4, "3c").checks()
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def card_premature_kept() -> Scenario:
    s = Stud("card_premature_kept", "4th street: seat 1's 5th-street card Tc is dealt face up while seat 1 "
                                    "is to act: STUD_CARD_PREMATURE; the dealer leaves it and, after the "
                                    "betting, deals 5th street to seats 3 and 4 only: at 5th street's first "
                                    "action CORRECTION_NOT_FOLLOWED once, and Tc plays as seat 1's "
                                    "5th-street card (the cards as they lie); checked down, seat 3 wins; "
                                    "next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").act(4, "check").up(1, "Tc")
    s.expect("STUD_CARD_PREMATURE", 1, "fourth", "error").act(1, "check").act(3, "check")
    s.e("card", dt=1.0, zone="burn", card="3s").up(3, "6s").up(4, "3c")
    s.act(4, "check").expect("CORRECTION_NOT_FOLLOWED", 1, "fifth").act(1, "check").act(3, "check")
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def card_premature_seventh_down() -> Scenario:
    s = Stud("card_premature_seventh_down", "6th street: seat 4 bets 40 and, before seat 1 acts, seat 3 gets "
                                            "a 7th-street card (face down): STUD_CARD_PREMATURE without "
                                            "naming the card (a down-card); it goes to the burns; seat 1 "
                                            "folds, seat 3 calls; 7th street is dealt as usual (seat 3: Qs), "
                                            "checked; seat 3's four queens win; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth").checks()
    s.street("sixth").act(4, "bet", 40).card("seat3", "Kc").expect("STUD_CARD_PREMATURE", 3, "sixth")
    s.gone("seat3", "Kc").card("burn", "Kc").fold(1, (*DOWN[1], UP[1], "8c", "Tc", "Ac")).act(3, "call", 40)
    s.street("seventh", seats=(3, 4), up=False).checks((4, 3)).expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(3)
    s.muck(4, (*DOWN[4], "5c"))
    return s.next_hand(3).end(3, s1=970, s2=990, s3=1110, s4=930)


# --- between hands and the floor (catalogue D, S, L) in stud ----------------------------------------------
@stud
def deck_incomplete() -> Scenario:
    s = Stud("deck_incomplete", "after a clean hand the dealer checks the deck and reads 51 cards (7h "
                                "missing): DECK_INCOMPLETE between the hands (000 §2.1; 004 §2(1)); the last "
                                "hand is unchanged and the next one is dealt and tracked")
    s.setup_stud().begin().deal3().third_fixed().rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown")
    s.show_three().e("console", dt=3.0, button="deck_check")
    for c in FULL:
        if c != "7h":
            s.e("card", dt=0.1, zone="deck", card=c)
    s.e("console", button="deck_check_done").expect("DECK_INCOMPLETE", None, "between")
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def floor_called() -> Scenario:
    s = Stud("floor_called", "5th street: the dealer calls the floor from the console: FLOOR_CALLED (004 "
                             "§12, info); the hand goes on, checked down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth").act(4, "check")
    s.e("console", button="floor").expect("FLOOR_CALLED", None, "fifth").checks((1, 3))
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def elimination_order() -> Scenario:
    s = Stud("elimination_order", "seats 1 and 2 start with 25 each: after the ante both call the "
                                  "completion all-in on 3rd street (seat 1 first: stud's order runs from the "
                                  "bring-in, not from a button); seat 3's four queens win, both are out: "
                                  "ELIMINATION_ORDER, equal stacks, so the later all-in (seat 2) places "
                                  "higher (001 §10); they leave and the next hand is heads-up")
    for seat, stack in ((1, 25), (2, 25), (3, 1000), (4, 1000)):
        s.e("seat", seat=seat, player=f"P{seat}", stack=stack)
    s.e("level", sb=0, bb=0, ante=5, game="stud7", **LEVELS["fixed"])
    s.begin().deal3().act(3, "bet", 10).act(4, "raise", 20).act(1, "call", 20).act(2, "call", 20)
    s.act(3, "call", 20)
    s.rest_checked(seats=(1, 2, 3, 4), order=(4, 3))
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three().muck(2, (*DOWN[2], "6d"))
    s.e("hand_start", dt=5.0).expect("POT_AWARD", 3, "showdown").expect("ELIMINATION_ORDER", 2, "showdown")
    for seat in (3, 4):
        s.e("chips", seat=seat, amount=5)
    s.deal3(seats=(3, 4)).act(3, "bet", 10).fold(4).expect("UNCALLED_BET", 3, "showdown")
    return s.end(3, s3=1080, s4=970)


@stud
def string_bet_bring_in() -> Scenario:
    s = Stud("string_bet_bring_in", "chip readers, 3rd street: seat 3 puts in the bring-in (10), then "
                                    "reaches back and adds 10 more to complete: a string bet (000 §3.1): "
                                    "STRING_BET, the bring-in stands and the 10 go back; seat 4 completes, "
                                    "the hand is played out as in clean_fixed; next hand")
    s.setup_stud().begin().deal3().e("chips", seat=3, amount=10).e("chips", seat=3, amount=20)
    s.expect("STRING_BET", 3, "third").e("chips", seat=3, amount=10)
    s.e("chips", seat=4, amount=20).e("chips", seat=1, amount=20).fold(2).e("chips", seat=3, amount=20)
    s.rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def string_bet_fifth() -> Scenario:
    s = Stud("string_bet_fifth", "chip readers, 5th street: seat 4 bets 40, seat 1 calls 40 and in a second "
                                 "motion adds 40 more: STRING_BET (000 §3.1), the call stands and the 40 go "
                                 "back; seat 3 calls; checked down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth")
    s.e("chips", seat=4, amount=40).e("chips", seat=1, amount=40).e("chips", seat=1, amount=80)
    s.expect("STRING_BET", 1, "fifth").e("chips", seat=1, amount=40).e("chips", seat=3, amount=40)
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, s1=930, s2=990, s3=1150, s4=930)


@stud
def oversized_chip() -> Scenario:
    s = Stud("oversized_chip", "chip readers, 5th street: seat 4 bets 40, seat 1 puts in one 100 chip "
                               "without a word: OVERSIZED_CHIP (000 §3.1; 001 §8), a call of 40, 60 "
                               "back; seat 3 calls; checked down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth")
    s.e("chips", seat=4, amount=40).e("chips", seat=1, amount=100).expect("OVERSIZED_CHIP", 1, "fifth")
    s.e("chips", seat=1, amount=40).e("chips", seat=3, amount=40)
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, s1=930, s2=990, s3=1150, s4=930)


def _short_all_in_fifth(s: Stud, limit: str, stack1: int) -> Stud:
    """Seat 1 starts with `stack1` and has 65 left on 5th street; seat 4 bets 40 and seat 1 goes all-in for
    65, 25 more: short of a full raise (40), but at least half of one; seat 3 calls 65."""
    for seat in (1, 2, 3, 4):
        s.e("seat", seat=seat, player=f"P{seat}", stack=stack1 if seat == 1 else 1000)
    s.e("level", sb=0, bb=0, ante=5, game="stud7", **LEVELS[limit])
    s.begin().deal3()
    if limit == "fixed":
        s.third_fixed()
    else:
        s.act(4, "bet", 10).act(1, "call", 10).fold(2).act(3, "call", 10)
    s.street("fourth").checks().street("fifth").act(4, "bet", 40).act(1, "raise", 65).act(3, "call", 65)
    return s


def _short_all_in_rest(s: Stud) -> Stud:
    """Seats 3 and 4 check 6th and 7th street; seat 3's four queens win every pot; seat 1 is out."""
    s.street("sixth").checks((4, 3)).street("seventh", up=False).checks((4, 3))
    return s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()


def _heads_up_next(s: Stud, winner: int, bring_in: int) -> Stud:
    """Seat 1 is out: the next hand is dealt to seats 2-4; all fold to the bring-in."""
    s.e("hand_start", dt=5.0).expect("POT_AWARD", winner, "showdown")
    for seat in (2, 3, 4):
        s.e("chips", seat=seat, amount=5)
    s.deal3(seats=(2, 3, 4)).act(bring_in, "bet", 10)
    for seat in [x for x in (2, 3, 4) if x > bring_in] + [x for x in (2, 3, 4) if x < bring_in]:
        s.fold(seat)
    return s.expect("UNCALLED_BET", bring_in, "showdown")


@stud
def short_all_in_fixed_reopens() -> Scenario:
    s = Stud("short_all_in_fixed_reopens", "fixed limit, profile handbuch: on 5th street seat 4 bets 40 and "
                                           "seat 1 goes all-in for 65 (25 more, at least half a bet): in a "
                                           "limit game that reopens the betting (TDA 2024 Rule 47-B, every "
                                           "profile), so seat 4 may raise again to 105, no alert; seat 3 "
                                           "calls; seat 3 wins every pot, seat 1 is out; next hand without "
                                           "it",
             profile="handbuch")
    _short_all_in_fifth(s, "fixed", 90).act(4, "raise", 105).act(3, "call", 105)
    _short_all_in_rest(s)
    return _heads_up_next(s, 3, 3).end(3, s2=990, s3=1235, s4=865)


@stud
def short_all_in_no_limit_not_reopened() -> Scenario:
    s = Stud("short_all_in_no_limit_not_reopened", "no limit, profile handbuch, the same 5th street: seat "
                                                   "1's all-in of 25 more is short of a full raise (40), so "
                                                   "it does not reopen the betting for seat 4 (000 §3.1): "
                                                   "its raise to 105 is RAISE_NOT_REOPENED and stands as a "
                                                   "call of 65; seat 3 wins every pot, seat 1 is out; next "
                                                   "hand without it",
             profile="handbuch")
    _short_all_in_fifth(s, "no", 80).act(4, "raise", 105).expect("RAISE_NOT_REOPENED", 4, "fifth")
    _short_all_in_rest(s)
    return _heads_up_next(s, 3, 4).end(4, s2=990, s3=1160, s4=930)


# --- a street card to the wrong seat (ours: STUD_CARD_WRONG_SEAT) ----------------------------------------
@stud
def card_wrong_seat() -> Scenario:
    s = Stud("card_wrong_seat", "5th street: seat 3 gets its 6s and then seat 4's 3c as well: "
                                "STUD_CARD_WRONG_SEAT (dealt out of order; after 3rd street's betting no "
                                "misdeal, 001 §14(2), 004 §4(2h)); the dealer slides 3c to seat 4 (remedy); "
                                "played out as in clean_fixed; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks()
    s.e("card", dt=1.0, zone="burn", card="3s").up(1, "Tc").up(3, "6s").up(3, "3c")
    s.expect("STUD_CARD_WRONG_SEAT", 3, "fifth", "error").gone("seat3", "3c").up(4, "3c").checks()
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def card_wrong_seat_folded() -> Scenario:
    s = Stud("card_wrong_seat_folded", "4th street: after seat 1's 8c the dealer gives 5s to seat 2, which "
                                       "folded on 3rd street: STUD_CARD_WRONG_SEAT; the card goes to seat 3, "
                                       "the next seat waiting (remedy); played out as in clean_fixed; next "
                                       "hand")
    s.setup_stud().begin().deal3().third_fixed()
    s.e("card", dt=1.0, zone="burn", card="2s").up(1, "8c").up(2, "5s")
    # seat 3's reader sees 5s before seat 2's reports it gone: a slide, not a second 5s (no DECK_DUPLICATE)
    s.expect("STUD_CARD_WRONG_SEAT", 2, "fourth", "error").up(3, "5s").gone("seat2", "5s").up(4, "Jd")
    s.checks().rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def card_wrong_seat_kept() -> Scenario:
    s = Stud("card_wrong_seat_kept", "5th street: seat 3 gets 6s and then 3c, meant for seat 4: "
                                     "STUD_CARD_WRONG_SEAT; the dealer leaves 3c at seat 3 and deals seat 4 "
                                     "a new card (Kh): CORRECTION_NOT_FOLLOWED once; 3c does not play, seat "
                                     "4 plays Kh; checked down, seat 3's four queens win; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks()
    s.e("card", dt=1.0, zone="burn", card="3s").up(1, "Tc").up(3, "6s").up(3, "3c")
    s.expect("STUD_CARD_WRONG_SEAT", 3, "fifth").up(4, "Kh").expect("CORRECTION_NOT_FOLLOWED", 4, "fifth")
    s.checks()
    for name in ("sixth", "seventh"):
        s.street(name, up=name != "seventh").checks()
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(3)
    s.muck(1, (*DOWN[1], "Th")).muck(4, (*DOWN[4], "5c"))
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def rabbit_hunt() -> Scenario:
    s = Stud("rabbit_hunt", "4th street: seat 4 bets, seats 1 and 3 fold; the hand is over, but the dealer "
                            "burns and deals seat 4 its 5th-street card anyway: RABBIT_HUNT (000 §2.3; 004 "
                            "§10: no card is shown once the hand has ended); the result stands; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").act(4, "bet", 40)
    s.fold(1, (*DOWN[1], UP[1], "8c")).fold(3, (*DOWN[3], UP[3], "5s")).expect("UNCALLED_BET", 4, "showdown")
    s.e("card", dt=1.0, zone="burn", card="3s").up(4, "3c").expect("RABBIT_HUNT", 4, "between")
    return s.next_hand(4).end(3, s1=970, s2=990, s3=990, s4=1050)


# --- limits on the later streets (BET_ABOVE_LIMIT) per structure ----------------------------------------
@stud
def cap_fifth_fixed() -> Scenario:
    s = Stud("cap_fifth_fixed", "fixed limit, 5th street (big bet 40): seat 4 bets, seat 1 raises to 80, "
                                "seat 3 to 120, seat 4 to 160: a bet and three raises, the cap (TDA 2024 "
                                "Rule 48); seat 1's raise to 200 is BET_ABOVE_LIMIT and stands as a call of "
                                "160; seat 3 calls; checked down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed().street("fourth").checks().street("fifth")
    s.act(4, "bet", 40).act(1, "raise", 80).act(3, "raise", 120).act(4, "raise", 160)
    s.act(1, "raise", 200).expect("BET_ABOVE_LIMIT", 1, "fifth").act(3, "call", 160)
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, s1=810, s2=990, s3=1390, s4=810)


@stud
def pot_limit_overbet_fourth() -> Scenario:
    about = ("pot limit: after 3rd street the pot is 80 (antes 20, three calls of 20: stud antes are live "
             "money in the pot); on 4th street seat 4 bets 100: BET_ABOVE_LIMIT, it stands at the pot, 80 "
             "(TDA 2024 Rule 54); seats 1 and 3 call; checked down, seat 3 wins; next hand")
    s = Stud("pot_limit_overbet_fourth", about)
    s.setup_stud("pot").begin().deal3()
    s.act(4, "bet", 10).act(1, "raise", 20).fold(2).act(3, "call", 20).act(4, "call", 20)
    s.street("fourth").act(4, "bet", 100).expect("BET_ABOVE_LIMIT", 4, "fourth")
    s.act(1, "call", 80).act(3, "call", 80)
    s.rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3, bring_in=4).end(4, s1=890, s2=990, s3=1210, s4=910)


# --- audit (issue 13): the rules of 002 per betting structure where the structures differ ---------------
@stud
def bring_in_suit_order_pot() -> Scenario:
    s = Stud("bring_in_suit_order_pot", "pot limit, two kings up: seat 1 (Kh) and seat 2 (Ks); the highest "
                                        "up-card brings in (002 §3) and spades is the highest suit, so seat "
                                        "2 brings in; everybody folds to it: the bring-in comes back")
    s.upcards = {**UP, 1: "Kh", 2: "Ks"}
    return _seat_two_brings_in_alone(s.setup_stud("pot"))


@stud
def bring_in_wrong_suit_no_limit() -> Scenario:
    s = Stud("bring_in_wrong_suit_no_limit", "no limit, two kings up: seat 1 (Kh) brings in, but seat 2's Ks "
                                             "is the higher card by suit (002 §3: the highest brings in at "
                                             "no limit, spades highest): STUD_BRING_IN_WRONG; seat 1's chips "
                                             "go back, seat 2 brings in, everybody folds to it")
    s.upcards = {**UP, 1: "Kh", 2: "Ks"}
    return _seat_two_brings_in_alone(s.setup_stud("no"), wrong=1)


@stud
def open_pair_other_seat_big_bet() -> Scenario:
    s = Stud("open_pair_other_seat_big_bet", "fixed limit, open jacks on 4th street (seat 4): seat 4 checks "
                                             "and seat 1, with no pair, bets the big bet (40): any seat may "
                                             "(002 §4); seat 3 raises by the big bet (to 80); seat 4 folds, "
                                             "seat 1 calls; checked down, seat 3 wins")
    s.setup_stud().begin().deal3().third_fixed().street("fourth")
    s.act(4, "check").act(1, "bet", 40).act(3, "raise", 80).fold(4, (*DOWN[4], UP[4], "Jd"))
    s.act(1, "call", 80)
    for name in ("fifth", "sixth", "seventh"):
        s.street(name, seats=(1, 3), up=name != "seventh").checks((1, 3))  # seat 1's board is high
    s.expect("SHOWDOWN_ORDER", 1, "showdown")
    s.shows(3)
    s.muck(1, (*DOWN[1], "Th"))
    return s.end(3, s1=895, s2=995, s3=1135, s4=975)


@stud
def fifth_big_bet_split() -> Scenario:
    s = Stud("fifth_big_bet_split", "split limit, 5th street: bets and raises are at the higher limit from "
                                    "here on (002 §5); seat 4 bets 30, short of the big bet (40): "
                                    "BET_BELOW_MINIMUM, more than half a bet stands (cuca) and is completed "
                                    "to 40; seats 1 and 3 call 40; checked down, seat 3 wins")
    s.setup_stud("split").begin().deal3().third_fixed().street("fourth").checks().street("fifth")
    s.act(4, "bet", 30).expect("BET_BELOW_MINIMUM", 4, "fifth").act(1, "call", 40).act(3, "call", 40)
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=935, s2=995, s3=1135, s4=935)


@stud
def fifth_step_spread() -> Scenario:
    s = Stud("fifth_step_spread", "step-spread limit, 5th street: bets are spread up to the higher step "
                                  "(40) from here on, open pair or not (002 §5); seat 4 bets 35 (legal, "
                                  "above the lower step of 20); seat 1 raises by 45 (to 80): "
                                  "BET_ABOVE_LIMIT, it stands at the largest raise, 35 + 40 = 75; seats 3 "
                                  "and 4 call; checked down, seat 3 wins")
    s.setup_stud("step_spread").begin().deal3().third_fixed().street("fourth").checks().street("fifth")
    s.act(4, "bet", 35).act(1, "raise", 80).expect("BET_ABOVE_LIMIT", 1, "fifth")
    s.act(3, "call", 75).act(4, "call", 75)
    s.rest_checked("sixth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.end(3, s1=900, s2=995, s3=1205, s4=900)


def _short_all_in_over_bring_in(s: Stud) -> Stud:
    """Pot limit, seat 1 with 20 chips: seat 4 (Jh) brings in 10, seat 1 antes and goes all in for 15 —
    more than the bring-in, less than the completion (20)."""
    for seat in (1, 2, 3, 4):
        s.e("seat", seat=seat, player=f"P{seat}", stack=20 if seat == 1 else 1000)
    s.e("level", sb=0, bb=0, ante=5, game="stud7", **LEVELS["pot"])
    return s.begin().deal3().act(4, "bet", 10).act(1, "allin", 15)


def _all_in_run_out(s: Stud) -> Stud:
    """Seats 1 (all in) and 2 get 4th to 7th street without betting; seat 1 shows first (no bet on 7th)
    and its aces win; seat 2 mucks. The session ends with seat 2 having called the all-in's 15."""
    s.rest_checked(seats=(1, 2), order=None)
    s.expect("SHOWDOWN_ORDER", 1, "showdown")
    s.shows(1)
    s.muck(2, (*DOWN[2], "6d"))
    return s.end(1, s1=60, s2=980, s3=995, s4=985)


@stud
def short_all_in_then_completed_pot() -> Scenario:
    s = Stud("short_all_in_then_completed_pot",
             "pot limit: seat 4 (Jh) brings in 10, seat 1 goes all in for 15 (less than the completion to "
             "20); seat 2 raises to 25, the completion's increment (10) on top of the all-in: legal, no "
             "alert (the all-in is a call plus an extra that later wagers carry, TDA 2024 Rule 43's "
             "reading; 002 is silent); seats 3 and 4 fold, seat 2's 10 over the all-in go back; the cards "
             "are dealt out, seat 1's aces win")
    _short_all_in_over_bring_in(s).act(2, "raise", 25).fold(3).fold(4)
    return _all_in_run_out(s.expect("UNCALLED_BET", 2, "showdown"))


@stud
def short_all_in_completion_short_pot() -> Scenario:
    s = Stud("short_all_in_completion_short_pot",
             "pot limit: seat 4 brings in 10, seat 1 goes all in for 15; seat 2 makes it 20 (the plain "
             "completion amount), 5 over the all-in where the legal minimum is 25: BET_BELOW_MINIMUM, at "
             "most half the increment (cuca, 001 §8): a call to 15, 5 go back; seats 3 and 4 fold; dealt "
             "out, seat 1's aces win")
    _short_all_in_over_bring_in(s).act(2, "raise", 20).expect("BET_BELOW_MINIMUM", 2, "third")
    return _all_in_run_out(s.fold(3).fold(4))


@stud
def small_raise_after_open_pair_ignored() -> Scenario:
    s = Stud("small_raise_after_open_pair_ignored",
             "fixed limit, 4th street, seat 4 shows a pair of jacks and bets the big bet (40); seat 1 "
             "raises by the small bet only (to 60): every raise is now a big bet (002 §4), and half a raise "
             "counts as a call (cuca, 001 §8): BET_BELOW_MINIMUM; seat 3 folds, which closes the round; "
             "then seat 4 calls the 60: the table let the raise stand, CORRECTION_NOT_FOLLOWED, the round "
             "goes on with the raise as played; seats 1 and 4 check it down, seat 1's aces up win")
    s.setup_stud().begin().deal3().third_fixed().street("fourth")
    s.act(4, "bet", 40).act(1, "raise", 60).expect("BET_BELOW_MINIMUM", 1, "fourth").fold(3)
    s.act(4, "call", 60).expect("CORRECTION_NOT_FOLLOWED", 1, "fourth")
    for name in ("fifth", "sixth", "seventh"):
        s.street(name, seats=(1, 4), up=name != "seventh").checks((4, 1))
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(1)
    s.muck(4, (*DOWN[4], "5c"))
    return s.end(1, s1=1115, s2=995, s3=975, s4=915)



# --- the stud audit of 28 Nov 2026 (branch wt-studaudit): cases the core got wrong, with their follow-on ---
def _to_sixth_checked(s: Stud) -> Stud:
    """clean_fixed up to the end of 6th street: 3rd street as third_fixed, 4th-6th checked (seats 1, 3, 4)."""
    s.setup_stud().begin().deal3().third_fixed()
    for name in ("fourth", "fifth", "sixth"):
        s.street(name).checks()
    return s


@stud
def common_card_not_short() -> Scenario:
    s = Stud("common_card_not_short", "7th street with three seats left and 27 cards in the stub: the dealer "
                                      "burns and turns Th up in the centre as a common card. The deck is not "
                                      "short, so that is a 7th card dealt face up against 002 §7: "
                                      "STUD_STREET_CARD_WRONG (Th out of play, each seat its own card face "
                                      "down). The players check on it anyway: CORRECTION_NOT_FOLLOWED once, "
                                      "Th plays as every seat's 7th card (as played); seat 3's three queens "
                                      "win; next hand. Before, any board card on 7th street was taken as the "
                                      "common card, however many cards were left")
    _to_sixth_checked(s).e("card", dt=1.0, zone="burn", card="5d").card("board", "Th")
    s.e("exposed", zone="board", card="Th").expect("STUD_STREET_CARD_WRONG", None, "seventh", "error")
    s.act(4, "check").expect("CORRECTION_NOT_FOLLOWED", None, "seventh").act(1, "check").act(3, "check")
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    for c in DOWN[3]:
        s.e("exposed", zone="seat3", card=c)
    s.muck(1, DOWN[1]).muck(4, DOWN[4])
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def common_card_not_short_taken_out() -> Scenario:
    s = Stud("common_card_not_short_taken_out", "as common_card_not_short, but the dealer follows the "
                                                "remedy: 9d goes to the burns and each seat gets its own 7th "
                                                "card face down (Th, Qs, 5c); checked; seat 3's four queens "
                                                "win; next hand")
    _to_sixth_checked(s).e("card", dt=1.0, zone="burn", card="5d").card("board", "9d")
    s.e("exposed", zone="board", card="9d").expect("STUD_STREET_CARD_WRONG", None, "seventh", "error")
    s.gone("board", "9d").card("burn", "9d").street_cards_down("seventh").checks()
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


def _to_seventh_many(s: Stud, players: int) -> tuple[dict[int, list[str]], list[str]]:
    """`players` seats (the last holds aces and kings) ante, are dealt 3rd to 6th street from a fixed deck
    order (burns from the deck's end) and check every street (the last seat shows the highest hand); the
    undealt cards are returned, the 7th street burn first."""
    deck = [r + su for r in "23456789TJQKA" for su in "cdhs"]
    strong = ["Ac", "Ad", "Kc", "Ah", "Kd", "Kh"]
    rest = [c for c in deck if c not in strong]
    burns = [rest.pop() for _ in range(4)]
    hands: dict[int, list[str]] = {x: [] for x in range(1, players + 1)}
    for _ in range(6):
        for seat in hands:
            hands[seat].append(strong.pop(0) if seat == players else rest.pop(0))
    s.setup_stud(players=players).e("hand_start")
    for seat in hands:
        s.e("chips", seat=seat, amount=5)
    for rnd in range(3):
        for seat in hands:
            if rnd == 2:
                s.up(seat, hands[seat][rnd])
            else:
                s.card(f"seat{seat}", hands[seat][rnd])
    doors = {seat: hands[seat][2] for seat in hands}
    low = min(doors, key=lambda x: ("23456789TJQKA".index(doors[x][0]), "cdhs".index(doors[x][1])))
    s.act(low, "bet", 10)
    for seat in [x for x in hands if x > low] + [x for x in hands if x < low]:
        s.act(seat, "call", 10)
    for street in range(3):
        s.e("card", dt=1.0, zone="burn", card=burns[street])
        for seat in hands:
            s.up(seat, hands[seat][3 + street])
        s.checks((players, *range(1, players)))
    return hands, [burns[3], *rest]


def _seventh_common_checked(s: Stud, hands: dict[int, list[str]], common: str) -> Stud:
    """The common card is out: everyone checks, the last seat shows its aces full and wins."""
    players = len(hands)
    s.e("exposed", zone="board", card=common).checks((players, *range(1, players)))
    s.expect("SHOWDOWN_ORDER", players, "showdown")
    for c in hands[players][:2]:
        s.e("exposed", zone=f"seat{players}", card=c)
    return s.end(players, **{f"s{x}": 985 for x in range(1, players)}, **{f"s{players}": 985 + 15 * players})


@stud
def common_card_seven_burned() -> Scenario:
    s = Stud("common_card_seven_burned", "7 players to 7th street: 21 + 3 × 7 cards and four burns leave 6 "
                                         "cards for 7 seats, so after its burn the dealer rightly turns a "
                                         "common card (no alert: the boundary of common_card_not_short); "
                                         "seat 7's aces full win")
    hands, left = _to_seventh_many(s, 7)
    s.e("card", dt=1.0, zone="burn", card=left[0]).card("board", left[1])
    return _seventh_common_checked(s, hands, left[1])


@stud
def common_card_after_last_card_dealt() -> Scenario:
    s = Stud("common_card_after_last_card_dealt", "8 players to 7th street leave one card and no burn: the "
                                                  "dealer gives it to seat 1, sees the stub is empty and "
                                                  "turns it up in the centre as the common card (no alert); "
                                                  "it is no longer seat 1's card, every seat plays it; seat "
                                                  "8's aces full win. Before, the common card was refused "
                                                  "(a seat already had a 7th card) and, after the audit's "
                                                  "DEAL_SEAT_SKIPPED, seats 2-8 were found without theirs")
    hands, left = _to_seventh_many(s, 8)
    last = left[0]  # the one card left (what would have been the burn)
    s.card("seat1", last).gone("seat1", last).card("board", last)
    return _seventh_common_checked(s, hands, last)


@stud
def third_street_card_premature() -> Scenario:
    s = Stud("third_street_card_premature", "3rd street: bring-in, completion, seat 1 calls, seat 2 folds; "
                                            "before seat 3 acts the dealer burns and gives seat 1 its 4th "
                                            "street card 8c face up: STUD_CARD_PREMATURE, as on later "
                                            "streets (the burn says 4th street began; the card does not "
                                            "play). The dealer leaves it; seat 3 calls and 4th street goes "
                                            "to seats 3 and 4 only: CORRECTION_NOT_FOLLOWED once, 8c plays "
                                            "as seat 1's 4th card; checked down, seat 3 wins; next hand. "
                                            "Before, the card was a fourth card of the initial deal and "
                                            "seat 1's hand was killed for the dealer's early street")
    s.setup_stud().begin().deal3().act(3, "bet", 10).act(4, "raise", 20).act(1, "call", 20).fold(2)
    s.e("card", dt=1.0, zone="burn", card="2s").up(1, "8c").expect("STUD_CARD_PREMATURE", 1, "third", "error")
    s.act(3, "call", 20).up(3, "5s").up(4, "Jd")
    s.act(4, "check").expect("CORRECTION_NOT_FOLLOWED", 1, "fourth").act(1, "check").act(3, "check")
    s.rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def fourth_street_seat_skipped() -> Scenario:
    s = Stud("fourth_street_seat_skipped", "4th street: the dealer deals seats 1 and 4 and passes seat 3 by; "
                                           "seat 4 (open jacks) checks: DEAL_SEAT_SKIPPED as an error, not a "
                                           "misdeal after 3rd street; seat 3 then gets its card 5s late, "
                                           "which plays as its 4th street card (before: STUD_CARD_PREMATURE, "
                                           "the card did not play); seats 1 and 3 check; checked down, seat "
                                           "3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed()
    s.e("card", dt=1.0, zone="burn", card="2s").up(1, "8c").up(4, "Jd")
    s.act(4, "check").expect("DEAL_SEAT_SKIPPED", 3, "fourth", "error").up(3, "5s").act(1, "check")
    s.act(3, "check").rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3).end(3, **AFTER_CLEAN)


@stud
def bring_in_mucked() -> Scenario:
    s = Stud("bring_in_mucked", "seat 3 holds the bring-in card and throws its three cards into the muck "
                                "instead of bringing in: the forced bet cannot be refused (002 §3), so its "
                                "bring-in is posted for it and its hand is dead (HOLE_CARD_IN_MUCK, as an "
                                "absent or timed-out bring-in seat). The table takes seat 4 for the new "
                                "bring-in: its bet of 10 is a call of the bring-in; seat 1 calls, seat 2 "
                                "folds; seats 1 and 4 check it down, seat 1's aces and tens win; next hand. "
                                "Before, the muck was a refused fold, seat 3 stayed to act and 4th street's "
                                "cards killed seats 1 and 4: the mucked hand won the pot")
    s.setup_stud().begin().deal3().muck(3, (*DOWN[3], UP[3]))
    s.expect("HOLE_CARD_IN_MUCK", 3, "third", "dead_hand")
    s.act(4, "bet", 10).act(1, "call", 10).fold(2)
    s.street("fourth", seats=(1, 4)).checks((4, 1)).street("fifth", seats=(1, 4)).checks((4, 1))
    s.street("sixth", seats=(1, 4)).checks((4, 1)).street("seventh", seats=(1, 4), up=False).checks((4, 1))
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    s.shows(1)
    s.muck(4, (*DOWN[4], "5c"))
    return s.next_hand(1).end(3, s1=1030, s2=990, s3=1000, s4=980)


@stud
def no_limit_completion_min_raise() -> Scenario:
    s = Stud("no_limit_completion_min_raise", "no limit: seat 4 (Jh) brings in 10, seat 1 completes to 20, "
                                              "seat 2 folds, seat 3 raises to 30: the completion is the "
                                              "opening bet of a small bet (002 §3), so the next raise is at "
                                              "least 40, as in pot limit: BET_BELOW_MINIMUM (cuca: a call). "
                                              "Seats 4 and 1 call 30: CORRECTION_NOT_FOLLOWED, the raise "
                                              "stands as played; checked down, seat 3 wins; next hand (seat "
                                              "4 brings in). Before, no limit let 20 be re-raised by 10")
    s.setup_stud("no").begin().deal3().act(4, "bet", 10).act(1, "raise", 20).fold(2).act(3, "raise", 30)
    s.expect("BET_BELOW_MINIMUM", 3, "third").act(4, "call", 30).expect("CORRECTION_NOT_FOLLOWED", 3, "third")
    s.act(1, "call", 30).rest_checked().expect("SHOWDOWN_ORDER", 4, "showdown").show_three()
    return s.next_hand(3, bring_in=4).end(4, s1=960, s2=990, s3=1070, s4=980)


@stud
def card_wrong_seat_left_at_betting() -> Scenario:
    s = Stud("card_wrong_seat_left_at_betting", "4th street: seat 1 gets 8c and then 5s, meant for seat 3: "
                                                "STUD_CARD_WRONG_SEAT; nobody moves it and "
                                                "seat 4 checks with seat 3 still without a card: "
                                                "CORRECTION_NOT_FOLLOWED once (5s does not play; not also "
                                                "DEAL_SEAT_SKIPPED); the dealer then gives seat 3 Kc, which "
                                                "plays as its 4th card (before: STUD_CARD_PREMATURE, Kc did "
                                                "not play, and a stale CORRECTION_NOT_FOLLOWED came on 5th "
                                                "street); checked down, seat 3 wins; next hand")
    s.setup_stud().begin().deal3().third_fixed()
    s.e("card", dt=1.0, zone="burn", card="2s").up(1, "8c").up(1, "5s").up(4, "Jd")
    s.expect("STUD_CARD_WRONG_SEAT", 1, "fourth").act(4, "check")
    s.expect("CORRECTION_NOT_FOLLOWED", 3, "fourth").up(3, "Kc").act(1, "check").act(3, "check")
    s.rest_checked("fifth").expect("SHOWDOWN_ORDER", 4, "showdown")
    return s.show_three().next_hand(3).end(3, **AFTER_CLEAN)


@stud
def bring_in_all_in_short_called_full() -> Scenario:
    s = Stud("bring_in_all_in_short_called_full", "seat 3 (2c) brings in all-in for 7, short of the 10 "
                                                  "bring-in; seat 4 calls the full bring-in of 10 (our "
                                                  "reading, 002 §3 and TDA 2024 silent: the next seat may "
                                                  "call the short amount or make the bring-in full; no "
                                                  "completion), seat 1 completes to 20, seat 2 folds, seat "
                                                  "4 calls; checked down. Seat 3's queens win the main pot "
                                                  "of 41, seat 1's aces and tens the side pot of 26 (before: "
                                                  "a BAD_EVENT per call, premature cards, dead hands)")
    for seat, stack in ((1, 1000), (2, 1000), (3, 12), (4, 1000)):
        s.e("seat", seat=seat, player=f"P{seat}", stack=stack)
    s.e("level", sb=0, bb=0, ante=5, game="stud7", **LEVELS["fixed"]).e("hand_start")
    for seat in (1, 2, 3, 4):
        s.e("chips", seat=seat, amount=5)
    s.deal3().act(3, "allin", 7).act(4, "call", 10).act(1, "raise", 20).fold(2).act(4, "call", 20)
    s.rest_checked(order=(4, 1))
    s.expect("SHOWDOWN_ORDER", 4, "showdown").muck(4, (*DOWN[4], "5c"))
    s.shows(1).shows(3)
    return s.end(1, s1=1001, s2=995, s3=41, s4=975)  # the alert names the side pot's winner


@stud
def bring_in_all_in_on_ante() -> Scenario:
    s = Stud("bring_in_all_in_on_ante", "seat 3 holds the lowest up-card (2c) but only 3 chips: all-in on "
                                        "its short ante, it cannot bring in, so seat 4, next on its left "
                                        "with chips, must (docs/rules.md 002 §3). Seat 1 brings in instead: "
                                        "STUD_BRING_IN_WRONG (its message names seat 3's all-in card, not "
                                        "seat 4's Jh as the lowest); seat 4 brings in (the remedy), seat 1 "
                                        "calls, seat 2 folds; seat 4's open jacks act first, checked down. "
                                        "The short ante is live: seat 3's four queens win 12 (3 from each "
                                        "seat), seat 1's aces and tens the 26 over it")
    for seat, stack in ((1, 1000), (2, 1000), (3, 3), (4, 1000)):
        s.e("seat", seat=seat, player=f"P{seat}", stack=stack)
    s.e("level", sb=0, bb=0, ante=5, game="stud7", **LEVELS["fixed"]).e("hand_start")
    for seat, ante in ((1, 5), (2, 5), (3, 3), (4, 5)):
        s.e("chips", seat=seat, amount=ante)
    s.deal3().act(1, "bet", 10).expect("STUD_BRING_IN_WRONG", 1, "third").act(4, "bet", 10).act(1, "call", 10)
    s.fold(2)
    s.rest_checked(order=(4, 1))
    s.expect("SHOWDOWN_ORDER", 4, "showdown").muck(4, (*DOWN[4], "5c"))
    s.shows(1).shows(3)
    return s.end(1, s1=1011, s2=995, s3=12, s4=985)  # the alert names the side pot's winner


@stud
def bring_in_wrong_then_out_of_turn_fold() -> Scenario:
    about = ('seat 1 brings in, but seat 3 (2c) must: STUD_BRING_IN_WRONG; seat 4 folds out of turn (seat 2 '
             'is next): binding, but not the next player acting, so the wrong bring-in does not stand; seat 3'
             " brings in (the remedy, seat 1's chips go back), seat 1 calls, seat 2 folds; seats 1 and 3 "
             "check it down, seat 3 wins; next hand. Before, any seat's action made the wrong bring-in stand,"
             " seat 3's bring-in was refused and 4th street killed the live hands")
    s = Stud("bring_in_wrong_then_out_of_turn_fold", about)
    s.setup_stud().begin().deal3().act(1, "bet", 10).expect("STUD_BRING_IN_WRONG", 1, "third").fold(4)
    s.expect("ACTION_OUT_OF_TURN", 4, "third").act(3, "bet", 10).act(1, "call", 10).fold(2)
    s.rest_checked(seats=(1, 3), order=(1, 3))
    s.expect("SHOWDOWN_ORDER", 1, "showdown")
    s.shows(3)
    s.muck(1, (*DOWN[1], "Th"))
    return s.next_hand(3).end(3, s1=980, s2=990, s3=1040, s4=990)


@stud
def bring_in_wrong_taken_back_late() -> Scenario:
    s = Stud("bring_in_wrong_taken_back_late", "seat 1 brings in, but seat 3 (2c) must: STUD_BRING_IN_WRONG; "
                                               "seat 2 calls, so it stands; the dealer takes seat 1's chips "
                                               "back anyway (its bet zone reads 0): CORRECTION_NOT_FOLLOWED "
                                               "once, 3rd street restarts from seat 3 as played; seat 3 "
                                               "brings in, all call; checked down, seat 3 wins; next hand. "
                                               "Before, the take-back and seat 3's bring-in were refused and "
                                               "4th street killed three live hands")
    s.setup_stud().begin().deal3().act(1, "bet", 10).expect("STUD_BRING_IN_WRONG", 1, "third")
    s.act(2, "call", 10).e("chips", seat=1, amount=0).expect("CORRECTION_NOT_FOLLOWED", 1, "third")
    s.act(3, "bet", 10).act(4, "call", 10).act(1, "call", 10).act(2, "call", 10)
    s.rest_checked(seats=(1, 2, 3, 4), order=(4, 1, 2, 3))
    s.expect("SHOWDOWN_ORDER", 4, "showdown").show_three().muck(2, (*DOWN[2], "6d"))
    return s.next_hand(3).end(3, s1=980, s2=980, s3=1060, s4=980)


@stud
def all_in_hands_turned_up() -> Scenario:
    s = Stud("all_in_hands_turned_up", "all-in showdown (TDA 2024 Rule 16; 002 is silent): seat 4 bets its "
                                       "last 20 on 4th street, seat 1 folds, seat 3 calls; both turn their "
                                       "down-cards up before 5th street. They are the showdown's hands, "
                                       "shown; seat 3's four queens win (before: MUCKED_WINNER, seat 3's "
                                       "hand 'not shown', because down-cards turned up during the runout "
                                       "did not count)")
    s.setup_stud()
    s.events[3]["stack"] = 45
    s.begin().deal3().third_fixed().street("fourth").act(4, "allin", 20)
    s.fold(1, (*DOWN[1], UP[1], STREETS["fourth"][1])).act(3, "call", 20)
    for seat in (4, 3):
        for c in DOWN[seat]:
            s.e("exposed", zone=f"seat{seat}", card=c)
    s.street("fifth", seats=(3, 4)).street("sixth", seats=(3, 4)).street("seventh", seats=(3, 4), up=False)
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    for seat in (4, 3):
        s.e("exposed", zone=f"seat{seat}", card=STREETS["seventh"][seat])
    return s.end(3, s1=975, s2=995, s3=1075)


@stud
def all_in_hand_turned_up_early() -> Scenario:
    s = Stud("all_in_hand_turned_up_early", "000 §4.1: seat 3 calls all in on 4th street and turns its "
                                            "down-cards up while seats 4 and 1 bet on; shown at the wrong "
                                            "time, the hand stays live and its cards lie face up; 4 and 1 "
                                            "check down, seat 1 mucks, and seat 3's four queens win without "
                                            "being turned again (before: MUCKED_WINNER, 'not shown')")
    s.setup_stud()
    s.events[2]["stack"] = 45
    s.begin().deal3().third_fixed().street("fourth").act(4, "bet", 20).act(1, "call", 20)
    s.act(3, "allin", 20)
    for c in DOWN[3]:
        s.e("exposed", zone="seat3", card=c)
    for name in ("fifth", "sixth", "seventh"):
        s.street(name, up=name != "seventh").checks((4, 1))
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    for c in (*DOWN[4], STREETS["seventh"][4]):
        s.e("exposed", zone="seat4", card=c)
    s.e("exposed", zone="seat3", card=STREETS["seventh"][3])
    s.muck(1, (*DOWN[1], STREETS["seventh"][1]))
    return s.end(3, s1=955, s2=995, s3=140, s4=955)


def main() -> None:
    for old in HERE.glob("stud_*.jsonl"):
        old.unlink()
    for fn in STUD.values():
        fn().write()
    print(f"wrote {len(STUD)} stud scenarios to {HERE}")


if __name__ == "__main__":
    main()
