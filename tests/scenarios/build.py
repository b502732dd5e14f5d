"""Writes the golden scenarios: `<name>.jsonl` (event log) and `<name>.expected.jsonl` (expected alerts).

The expected alerts below are written by hand from the rulebooks (docs/rules.md), not captured from the
engine. Run `python tests/scenarios/build.py` after editing; the runner test (test_scenarios.py) replays
every log and compares code, seat and street of every alert, in order.

The first line of each expected file is a header `{"profile": …, "about": …}`: the profile the log is
replayed with and what the scenario shows. An expected alert may also name its `severity` (a dealing
error that is a misdeal in one case and an error or a dead hand in another).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCENARIOS: dict[str, Callable[[], Scenario]] = {}

# The standard hand: 4 players, button seat 1, SB seat 2, BB seat 3, seat 4 first to act preflop.
# Undealt: burns 3s 4s 5s, flop Kh 8d 2c, turn Jh, river 9c; spare cards 6h 9d Ts 3c 4d Td.
HOLES = {2: ("Ah", "Kd"), 3: ("7c", "7d"), 4: ("Qs", "Js"), 1: ("2h", "6c")}


class Scenario:
    def __init__(self, name: str, about: str, profile: str = "cuca") -> None:
        self.name, self.about, self.profile = name, about, profile
        self.events: list[dict[str, Any]] = []
        self.expected: list[dict[str, Any]] = []
        self.t = 0.0
        self.stacks: dict[int, int] | None = None
        self.profile_overrides: dict[str, Any] = {}  # profile fields changed for this scenario
        self.table_game: dict[str, Any] = {}  # the table config's game (`[table] game`, limit, amounts)

    def e(self, kind: str, dt: float = 0.5, **fields: Any) -> Scenario:
        self.t = round(self.t + dt, 3)
        self.events.append({"t": self.t, "type": kind, **fields})
        return self

    def expect(self, code: str, seat: int | None = None, street: str = "preflop",
               severity: str | None = None) -> Scenario:
        """One expected alert; `severity` when the scenario is about it (misdeal, dead hand or error)."""
        want: dict[str, Any] = {"code": code, "seat": seat, "street": street}
        if severity is not None:
            want["severity"] = severity
        self.expected.append(want)
        return self

    # --- building blocks ------------------------------------------------------------------------
    def setup(self, players: int = 4, stack: int = 10000, sb: int = 50, bb: int = 100) -> Scenario:
        for seat in range(1, players + 1):
            self.e("seat", seat=seat, player=f"P{seat}", stack=stack)
        return self.e("level", sb=sb, bb=bb, ante=0)

    def start(self, button: int | None = 1, blinds: bool = True) -> Scenario:
        if button is None:
            self.e("hand_start")
        else:
            self.e("hand_start", button=button)
        if blinds:
            self.e("chips", seat=2, amount=50).e("chips", seat=3, amount=100)
        return self

    def card(self, zone: str, card: str) -> Scenario:
        return self.e("card", zone=zone, card=card)

    def gone(self, zone: str, card: str) -> Scenario:
        return self.e("card_gone", zone=zone, card=card)

    def deal(self, order: tuple[int, ...] = (2, 3, 4, 1)) -> Scenario:
        for rnd in range(2):
            for seat in order:
                self.card(f"seat{seat}", HOLES[seat][rnd])
        return self

    def act(self, seat: int, action: str, amount: int | None = None) -> Scenario:
        if amount is None:
            return self.e("action", seat=seat, action=action)
        return self.e("action", seat=seat, action=action, amount=amount)

    def preflop(self) -> Scenario:
        """Seat 4 calls, seat 1 folds (cards to the muck), seat 2 completes, seat 3 checks."""
        self.act(4, "call", 100).act(1, "fold").gone("seat1", "2h").card("muck", "2h")
        self.gone("seat1", "6c").card("muck", "6c")
        return self.act(2, "call", 100).act(3, "check")

    def checks(self, seats: tuple[int, ...] = (2, 3, 4)) -> Scenario:
        for seat in seats:
            self.act(seat, "check")
        return self

    def street(self, burn: str, *board: str) -> Scenario:
        self.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card=burn)
        for c in board:
            self.card("board", c)
        return self

    def flop(self) -> Scenario:
        return self.street("3s", "Kh", "8d", "2c")

    def turn(self) -> Scenario:
        return self.street("4s", "Jh")

    def river(self) -> Scenario:
        return self.street("5s", "9c")

    def showdown(self) -> Scenario:
        """Seat 2 shows Ah Kd (pair of kings wins); seats 3 and 4 muck unseen."""
        self.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
        for seat in (3, 4):
            for c in HOLES[seat]:
                self.gone(f"seat{seat}", c).card("muck", c)
        return self

    def settle(self, **stacks: int) -> Scenario:
        """End the session (the hand is settled) and expect these stacks, e.g. `s2=10200`."""
        self.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")  # seat 2 wins in every one
        self.stacks = {int(k[1:]): v for k, v in stacks.items()}
        return self

    def write(self) -> None:
        log = HERE / f"{self.name}.jsonl"
        log.write_text("".join(json.dumps(ev, separators=(",", ":")) + "\n" for ev in self.events))
        head: dict[str, Any] = {"profile": self.profile, "about": self.about}
        if self.profile_overrides:
            head["overrides"] = self.profile_overrides
        if self.table_game:
            head["table_game"] = self.table_game
        if self.stacks is not None:
            head["stacks"] = {str(k): v for k, v in sorted(self.stacks.items())}
        exp = HERE / f"{self.name}.expected.jsonl"
        exp.write_text("".join(json.dumps(x, separators=(",", ":")) + "\n" for x in [head, *self.expected]))


def scenario(fn: Callable[[], Scenario]) -> Callable[[], Scenario]:
    SCENARIOS[fn.__name__] = fn
    return fn


# --- clean play ------------------------------------------------------------------------------------
@scenario
def clean_hand() -> Scenario:
    s = Scenario("clean_hand", "a full hand played by the book: only the announcements (who shows "
                               "first, the pot award when the next hand starts)")
    s.setup().start().deal().preflop().flop().checks().turn().checks().river().checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    s.e("hand_start", dt=5.0).expect("POT_AWARD", 2, "showdown")
    return s


@scenario
def clean_hand_no_chip_readers() -> Scenario:
    s = Scenario("clean_hand_no_chip_readers", "no chips events at all: blinds are taken as posted")
    s.setup().start(blinds=False).deal().preflop().flop().checks()
    return s


@scenario
def basic_premature_river() -> Scenario:
    s = Scenario("basic_premature_river", "as config/examples/basic.jsonl: river turned, seat 3 to act")
    s.setup().start().deal().preflop().flop().checks().turn().act(2, "check").card("board", "9c")
    return s.expect("RIVER_PREMATURE", None, "turn")


# --- worked examples of the rulebooks ---------------------------------------------------------------
@scenario
def worked_000_2_4_exposed_hole_card() -> Scenario:
    s = Scenario("worked_000_2_4_exposed_hole_card",
                 "000 §2.4: seat 4's first card (third dealt) exposed; the deal finishes, seat 4 gets the "
                 "next card last, the exposed card is burned face up, no burn before the flop")
    s.setup().start()
    s.card("seat2", "Ah").card("seat3", "7c").card("seat4", "Qs").e("exposed", zone="seat4", card="Qs")
    s.expect("HOLE_CARD_EXPOSED", 4, "deal")
    s.card("seat1", "2h").card("seat2", "Kd").card("seat3", "7d").card("seat4", "Js").card("seat1", "6c")
    s.card("seat4", "3s").gone("seat4", "Qs").card("burn", "Qs")
    s.preflop()
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="Kh").card("board", "8d").card("board", "2c")
    s.checks().turn().checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown")


@scenario
def worked_000_2_4_exposed_then_burn() -> Scenario:
    s = Scenario("worked_000_2_4_exposed_then_burn",
                 "000 §2.4 not followed: after the exposed card became the first burn the dealer burns again "
                 "before the flop")
    s.setup().start()
    s.card("seat2", "Ah").card("seat3", "7c").card("seat4", "Qs").e("exposed", zone="seat4", card="Qs")
    s.expect("HOLE_CARD_EXPOSED", 4, "deal")
    s.card("seat1", "2h").card("seat2", "Kd").card("seat3", "7d").card("seat4", "Js").card("seat1", "6c")
    s.card("seat4", "3s").gone("seat4", "Qs").card("burn", "Qs")
    s.preflop().e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="4s")
    s.expect("CORRECTION_NOT_FOLLOWED", None, "flop")
    s.card("board", "Kh").card("board", "8d").card("board", "2c")
    return s


@scenario
def f_exposed_replaced_at_once() -> Scenario:
    s = Scenario("f_exposed_replaced_at_once",
                 "000 §2.4 not followed: seat 4's exposed Qs is burned face up and seat 4 gets its "
                 "replacement 3s at once instead of last; no seat was passed over, so not the deal-order "
                 "misdeal (004 §4(2h)): one CORRECTION_NOT_FOLLOWED, the deal goes on from seat 1, the flop "
                 "comes without a burn (Qs was its burn) and seat 2 wins (before: DEAL_OUT_OF_ORDER, "
                 "misdeal)")
    s.setup().start()
    s.card("seat2", "Ah").card("seat3", "7c").card("seat4", "Qs").e("exposed", zone="seat4", card="Qs")
    s.expect("HOLE_CARD_EXPOSED", 4, "deal")
    s.gone("seat4", "Qs").card("burn", "Qs").card("seat4", "3s")
    s.expect("CORRECTION_NOT_FOLLOWED", 4, "deal", severity="error")
    s.card("seat1", "2h").card("seat2", "Kd").card("seat3", "7d").card("seat4", "Js").card("seat1", "6c")
    s.preflop()
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="Kh").card("board", "8d").card("board", "2c")
    s.checks().turn().checks().river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_exposed_replaced_at_once_burn() -> Scenario:
    s = Scenario("f_exposed_replaced_at_once_burn",
                 "as f_exposed_replaced_at_once, but the dealer mucks the exposed Qs and burns as usual "
                 "before the flop: the one CORRECTION_NOT_FOLLOWED covers the remedy, the hand is followed "
                 "to the showdown without further alerts")
    s.setup().start()
    s.card("seat2", "Ah").card("seat3", "7c").card("seat4", "Qs").e("exposed", zone="seat4", card="Qs")
    s.expect("HOLE_CARD_EXPOSED", 4, "deal")
    s.gone("seat4", "Qs").card("seat4", "3s").expect("CORRECTION_NOT_FOLLOWED", 4, "deal").card("muck", "Qs")
    s.card("seat1", "2h").card("seat2", "Kd").card("seat3", "7d").card("seat4", "Js").card("seat1", "6c")
    s.preflop().street("4d", "Kh", "8d", "2c")
    s.checks().turn().checks().river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_exposed_kept_three_cards() -> Scenario:
    s = Scenario("f_exposed_kept_three_cards",
                 "000 §2.4 not followed: seat 4 gets its replacement Kc last but keeps the exposed Qs; the "
                 "flop comes without a burn while Qs still lies at the seat: seat 4 plays three cards, a "
                 "hand with the wrong number of cards is dead (000 §1.5; found after the preflop action, "
                 "so not a misdeal: 000 §2.4); seat 2 wins though seat 4's Kc Js would beat it "
                 "(before: the core judged seat 4's other two cards and paid it)")
    s.setup().start()
    s.card("seat2", "Ah").card("seat3", "7c").card("seat4", "Qs").e("exposed", zone="seat4", card="Qs")
    s.expect("HOLE_CARD_EXPOSED", 4, "deal")
    s.card("seat1", "2h").card("seat2", "Kd").card("seat3", "7d").card("seat4", "Js").card("seat1", "6c")
    s.card("seat4", "Kc").preflop()
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="Kh")
    s.expect("DEAL_TOO_MANY_CARDS", 4, "flop", severity="dead_hand")
    s.expect("CORRECTION_NOT_FOLLOWED", None, "flop")
    s.card("board", "8d").card("board", "2c")
    s.checks((2, 3)).turn().checks((2, 3)).river().checks((2, 3)).expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    s.gone("seat3", "7c").card("muck", "7c").gone("seat3", "7d").card("muck", "7d")
    return s.settle(**WON)


@scenario
def f_exposed_never_replaced() -> Scenario:
    s = Scenario("f_exposed_never_replaced",
                 "000 §2.4 not followed: seat 4's exposed Qs is neither taken away nor replaced and the "
                 "betting begins: one CORRECTION_NOT_FOLLOWED; seat 4 still holds two cards, so Qs plays as "
                 "one of them and the flop comes with the usual burn (before: DEAL_SEAT_SKIPPED, a misdeal, "
                 "as if seat 4 held one card)")
    s.setup().start()
    s.card("seat2", "Ah").card("seat3", "7c").card("seat4", "Qs").e("exposed", zone="seat4", card="Qs")
    s.expect("HOLE_CARD_EXPOSED", 4, "deal")
    s.card("seat1", "2h").card("seat2", "Kd").card("seat3", "7d").card("seat4", "Js").card("seat1", "6c")
    s.act(4, "call", 100).expect("CORRECTION_NOT_FOLLOWED", 4, "deal")
    s.act(1, "fold").gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c").card("muck", "6c")
    s.act(2, "call", 100).act(3, "check").flop().checks().turn().checks().river().checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    s.e("exposed", zone="seat4", card="Qs").e("exposed", zone="seat4", card="Js")
    s.gone("seat3", "7c").card("muck", "7c").gone("seat3", "7d").card("muck", "7d")
    return s.settle(**WON)


@scenario
def worked_000_2_6_premature_turn() -> Scenario:
    s = Scenario("worked_000_2_6_premature_turn",
                 "000 §2.6 worked example: Jh turned before the flop betting closed; Jh set aside; after the "
                 "action a burn and the would-be river 9c becomes the turn; the river comes without a burn")
    s.setup().start().deal().preflop().flop().act(2, "check")
    s.card("burn", "4s").card("board", "Jh").expect("TURN_PREMATURE", None, "flop")
    s.gone("board", "Jh").act(3, "check").act(4, "check")
    s.street("5s", "9c").checks()
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="Td").checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown")


@scenario
def worked_000_2_6_premature_turn_burned_river() -> Scenario:
    s = Scenario("worked_000_2_6_premature_turn_burned_river",
                 "000 §2.6 not followed: after a premature turn the dealer burns before the river")
    s.setup().start().deal().preflop().flop().act(2, "check")
    s.card("burn", "4s").card("board", "Jh").expect("TURN_PREMATURE", None, "flop")
    s.gone("board", "Jh").act(3, "check").act(4, "check")
    s.street("5s", "9c").checks()
    s.street("6h", "Td").expect("CORRECTION_NOT_FOLLOWED", None, "river")
    return s


@scenario
def worked_000_2_6_set_aside_card_as_turn() -> Scenario:
    s = Scenario("worked_000_2_6_set_aside_card_as_turn",
                 "000 §2.6 not followed: the set-aside premature card is dealt again as the turn")
    s.setup().start().deal().preflop().flop().act(2, "check")
    s.card("burn", "4s").card("board", "Jh").expect("TURN_PREMATURE", None, "flop")
    s.gone("board", "Jh").act(3, "check").act(4, "check")
    s.street("5s", "Jh").expect("CORRECTION_NOT_FOLLOWED", None, "turn")
    return s


# --- D: deck integrity -------------------------------------------------------------------------------
FULL = [r + u for r in "23456789TJQKA" for u in "cdhs"]
UIDS = {c: f"{i:02x}a0" for i, c in enumerate(FULL)}
DECK = {uid: c for c, uid in UIDS.items()}


@scenario
def d_deck_incomplete() -> Scenario:
    s = Scenario("d_deck_incomplete", "deck check reads 51 cards: the 7h is missing")
    s.setup().e("console", button="deck_check")
    for c in FULL:
        if c != "7h":
            s.e("card", dt=0.1, zone="deck", card=c)
    s.e("console", button="deck_check_done").expect("DECK_INCOMPLETE", None, "between")
    return s


@scenario
def d_deck_duplicate() -> Scenario:
    s = Scenario("d_deck_duplicate", "a second Ah turns up in seat 4 during the deal: fouled deck, hand "
                                     "over; "
                                     "the redeal keeps the button")
    s.setup().start().card("seat2", "Ah").card("seat3", "7c").card("seat4", "Ah")
    s.expect("DECK_DUPLICATE", None, "deal")
    s.e("hand_start", dt=5.0, button=1).e("chips", seat=2, amount=50).e("chips", seat=3, amount=100)
    return s.deal()


@scenario
def d_foreign_card() -> Scenario:
    s = Scenario("d_foreign_card", "a tag not enrolled in the active deck is dealt to seat 2; it is replaced")
    s.setup().e("deck", id="red-1", cards=DECK).start()
    s.e("card", zone="seat2", uid="ffee").expect("FOREIGN_CARD", 2, "deal")
    for rnd in range(2):
        for seat in (2, 3, 4, 1):
            s.e("card", zone=f"seat{seat}", uid=UIDS[HOLES[seat][rnd]])
    return s.preflop().flop().checks()


@scenario
def d_boxed_card() -> Scenario:
    s = Scenario("d_boxed_card", "the camera sees 6h face up in the stub during the preflop betting")
    s.setup().start().deal().act(4, "call", 100).e("exposed", zone="deck", card="6h")
    return s.expect("BOXED_CARD", None, "preflop")


@scenario
def d_card_missing() -> Scenario:
    s = Scenario("d_card_missing", "seat 3 folds on the flop; 7d leaves the seat and never reaches the muck")
    s.setup().start().deal().preflop().flop().act(2, "bet", 200).act(3, "fold")
    s.gone("seat3", "7c").card("muck", "7c").gone("seat3", "7d")
    s.act(4, "fold").gone("seat4", "Qs").card("muck", "Qs").gone("seat4", "Js").card("muck", "Js")
    s.expect("UNCALLED_BET", 2, "showdown")
    s.e("hand_start", dt=5.0).expect("CARD_MISSING", None, "between").expect("POT_AWARD", 2, "showdown")
    return s


@scenario
def d_card_missing_misdeal() -> Scenario:
    s = Scenario("d_card_missing_misdeal",
                 "004 §4(2i) with §4(1): after seat 4's call, seat 3's 7d leaves its reader and is not seen "
                 "again; seat 1 acts: the missing card is noticed before two actions, a misdeal (before: "
                 "the hand went on and CARD_MISSING came only at the next hand); the redeal keeps the "
                 "button and is played out")
    s.setup().start().deal().act(4, "call", 100).gone("seat3", "7d")
    s.act(1, "fold").expect("CARD_MISSING", 3, "preflop", severity="misdeal")
    s.e("hand_start", dt=5.0, button=1).e("chips", seat=2, amount=50).e("chips", seat=3, amount=100)
    s.deal().preflop().flop().checks().turn().checks().river().checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def d_card_missing_after_two_actions() -> Scenario:
    s = Scenario("d_card_missing_after_two_actions",
                 "as d_card_missing_misdeal, but seat 3's 7d goes missing after two actions: the hand "
                 "stands (004 §4(1), §6(3)); seat 3 plays on with the card it has, CARD_MISSING when the "
                 "next hand starts")
    s.setup().start().deal().act(4, "call", 100).act(1, "fold").gone("seat1", "2h").card("muck", "2h")
    s.gone("seat1", "6c").card("muck", "6c").gone("seat3", "7d")
    s.act(2, "call", 100).act(3, "check").flop().checks().turn().checks().river().checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    s.gone("seat3", "7c").card("muck", "7c").gone("seat4", "Qs").card("muck", "Qs")
    s.gone("seat4", "Js").card("muck", "Js")
    s.e("hand_start", dt=5.0).expect("CARD_MISSING", None, "between", severity="error")
    return s.expect("POT_AWARD", 2, "showdown")


@scenario
def d_card_off_table() -> Scenario:
    s = Scenario("d_card_off_table", "seat 3's first card leaves its reader during the deal and is not seen "
                                     "again: misdeal when the betting starts")
    s.setup().start().card("seat2", "Ah").card("seat3", "7c").gone("seat3", "7c")
    s.card("seat4", "Qs").card("seat1", "2h").card("seat2", "Kd").card("seat3", "7d").card("seat4", "Js")
    s.card("seat1", "6c").act(4, "call", 100)
    return s.expect("CARD_OFF_TABLE", 3, "preflop")


# --- H: dealing the hole cards ----------------------------------------------------------------------
@scenario
def h_deal_before_blinds() -> Scenario:
    s = Scenario("h_deal_before_blinds", "only the small blind is in when the first hole card is dealt")
    s.setup().start(blinds=False).e("chips", seat=2, amount=50).deal()
    return s.expect("DEAL_BEFORE_BLINDS", 3, "deal")


@scenario
def h_deal_wrong_first_seat() -> Scenario:
    s = Scenario("h_deal_wrong_first_seat", "the first card goes to seat 3; misdeal; the redeal keeps "
                                            "button 1")
    s.setup().start().card("seat3", "7c").expect("DEAL_WRONG_FIRST_SEAT", 3, "deal")
    s.e("hand_start", dt=5.0, button=1).deal().preflop()
    return s


@scenario
def h_deal_out_of_order() -> Scenario:
    s = Scenario("h_deal_out_of_order", "seat 4 gets its first card before seat 3")
    s.setup().start().card("seat2", "Ah").card("seat4", "Qs")
    return s.expect("DEAL_OUT_OF_ORDER", 4, "deal")


@scenario
def h_deal_out_of_order_back() -> Scenario:
    s = Scenario("h_deal_out_of_order_back", "second round: seat 3 gets its card again after seat 4 "
                                             "(against the clockwise order)")
    s.setup().start()
    for seat in (2, 3, 4, 1):
        s.card(f"seat{seat}", HOLES[seat][0])
    s.card("seat2", "Kd").card("seat3", "7d").card("seat4", "Js").card("seat3", "3s")
    return s.expect("DEAL_OUT_OF_ORDER", 3, "deal")


@scenario
def h_deal_empty_seat() -> Scenario:
    s = Scenario("h_deal_empty_seat", "a card goes to empty seat 6")
    s.setup().start().card("seat2", "Ah").card("seat3", "7c").card("seat4", "Qs").card("seat6", "2h")
    return s.expect("DEAL_EMPTY_SEAT", 6, "deal")


@scenario
def h_deal_seat_skipped() -> Scenario:
    s = Scenario("h_deal_seat_skipped", "the second round stops before seat 1; the betting starts: misdeal")
    s.setup().start()
    for seat in (2, 3, 4, 1):
        s.card(f"seat{seat}", HOLES[seat][0])
    for seat in (2, 3, 4):
        s.card(f"seat{seat}", HOLES[seat][1])
    s.act(4, "call", 100)
    return s.expect("DEAL_SEAT_SKIPPED", 1, "deal")


@scenario
def h_extra_card_first_seat() -> Scenario:
    s = Scenario("h_extra_card_first_seat", "seat 2 (first seat) gets an extra card after the deal; it is "
                                            "taken back and becomes the flop burn")
    s.setup().start().deal().card("seat2", "3s").expect("DEAL_EXTRA_CARD_FIRST_SEAT", 2, "preflop")
    s.gone("seat2", "3s").preflop().flop().checks()
    return s


@scenario
def h_too_many_cards() -> Scenario:
    s = Scenario("h_too_many_cards", "two extra cards after the deal: misdeal")
    s.setup().start().deal().card("seat2", "3s").expect("DEAL_EXTRA_CARD_FIRST_SEAT", 2, "preflop")
    s.card("seat3", "Kh").expect("DEAL_TOO_MANY_CARDS", 3, "preflop")
    return s


@scenario
def h_too_many_cards_dead() -> Scenario:
    s = Scenario("h_too_many_cards_dead", "seat 4 is found with a third card after two actions: dead hand")
    s.setup().start().deal().act(4, "call", 100).act(1, "fold").card("seat4", "3s")
    s.expect("DEAL_TOO_MANY_CARDS", 4, "preflop")
    s.act(2, "call", 100).act(3, "check")
    return s


@scenario
def h_exposed_first() -> Scenario:
    s = Scenario("h_exposed_first", "the first card of the deal is exposed: misdeal")
    s.setup().start().card("seat2", "Ah").e("exposed", zone="seat2", card="Ah")
    return s.expect("HOLE_CARD_EXPOSED_FIRST", 2, "deal")


@scenario
def h_exposed_multiple() -> Scenario:
    s = Scenario("h_exposed_multiple", "two hole cards exposed during the deal: misdeal")
    s.setup().start().card("seat2", "Ah").card("seat3", "7c").card("seat4", "Qs")
    s.e("exposed", zone="seat4", card="Qs").expect("HOLE_CARD_EXPOSED", 4, "deal")
    s.card("seat1", "2h").e("exposed", zone="seat1", card="2h")
    s.expect("HOLE_CARDS_EXPOSED_MULTIPLE", 1, "deal")
    return s


@scenario
def h_boxed_twice_in_deal() -> Scenario:
    s = Scenario("h_boxed_twice_in_deal", "two cards found face up in the stub during the deal: misdeal")
    s.setup().start().card("seat2", "Ah").e("exposed", zone="deck", card="9d")
    s.expect("BOXED_CARD", None, "deal")
    s.card("seat3", "7c").e("exposed", zone="deck", card="Ts")
    return s.expect("HOLE_CARDS_EXPOSED_MULTIPLE", None, "deal")


@scenario
def h_dead_hand_absent() -> Scenario:
    s = Scenario("h_dead_hand_absent", "seat 1 is away when the deal completes: its hand is dead")
    s.setup().start().e("present", seat=1, present=False).deal()
    s.expect("DEAD_HAND_ABSENT", 1, "deal")
    s.act(4, "call", 100).act(2, "call", 100).act(3, "check")
    return s


# --- B: knock, burn and board -----------------------------------------------------------------------
@scenario
def b_knock_missing() -> Scenario:
    s = Scenario("b_knock_missing", "the flop is burned and turned without a knock")
    s.setup().start().deal().preflop().card("burn", "3s").card("board", "Kh").card("board", "8d")
    s.card("board", "2c").expect("KNOCK_MISSING", None, "flop")
    return s.checks()


@scenario
def b_knock_pause_short() -> Scenario:
    s = Scenario("b_knock_pause_short", "the burn follows the knock after 0.3 s")
    s.setup().start().deal().preflop().e("knock", dt=1.0).e("card", dt=0.3, zone="burn", card="3s")
    s.expect("KNOCK_PAUSE_SHORT", None, "flop")
    return s.card("board", "Kh").card("board", "8d").card("board", "2c").checks()


def _flop_no_burn(s: Scenario) -> Scenario:
    s.setup().start().deal().preflop().e("knock", dt=1.0)
    return s.e("card", dt=1.0, zone="board", card="3s").card("board", "Kh").card("board", "8d")


@scenario
def b_burn_missing_flop() -> Scenario:
    s = Scenario("b_burn_missing_flop", "cuca: flop without a burn; recalled, reshuffled, burn and new flop")
    _flop_no_burn(s).expect("BURN_MISSING_FLOP", None, "flop")
    s.gone("board", "3s").gone("board", "Kh").gone("board", "8d")
    s.e("card", dt=1.0, zone="burn", card="2c").card("board", "Jh").card("board", "9c").card("board", "6h")
    return s.checks()


@scenario
def b_burn_missing_flop_uesg() -> Scenario:
    s = Scenario("b_burn_missing_flop_uesg", "uesg: flop without a burn, restored before any bet: the first "
                                             "flop card becomes the burn, the next card completes the flop",
                 profile="uesg")
    _flop_no_burn(s).expect("BURN_MISSING_FLOP", None, "flop")
    s.gone("board", "3s").card("burn", "3s").card("board", "2c")
    return s.checks()


@scenario
def b_burn_missing_flop_stands() -> Scenario:
    s = Scenario("b_burn_missing_flop_stands", "handbuch: flop without a burn noticed after two actions: "
                                               "the flop stands", profile="handbuch")
    _flop_no_burn(s).expect("BURN_MISSING_FLOP", None, "flop")
    return s.checks().turn().checks()


@scenario
def b_burn_missing_turn() -> Scenario:
    s = Scenario("b_burn_missing_turn", "turn without a burn: it becomes a face-up burn, a new turn follows")
    s.setup().start().deal().preflop().flop().checks().e("knock", dt=1.0)
    s.e("card", dt=1.0, zone="board", card="4s").expect("BURN_MISSING_TURN", None, "turn")
    s.gone("board", "4s").card("burn", "4s").card("board", "Jh").checks()
    return s.river().checks().expect("SHOWDOWN_ORDER", 2, "showdown")


@scenario
def b_burn_missing_river() -> Scenario:
    s = Scenario("b_burn_missing_river", "river without a burn: it becomes a face-up burn, a new river "
                                         "follows")
    s.setup().start().deal().preflop().flop().checks().turn().checks().e("knock", dt=1.0)
    s.e("card", dt=1.0, zone="board", card="5s").expect("BURN_MISSING_RIVER", None, "river")
    s.gone("board", "5s").card("burn", "5s").card("board", "9c").checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown")


@scenario
def f_burn_missing_river_all_in() -> Scenario:
    s = Scenario("f_burn_missing_river_all_in", "seats 2 and 3 all in preflop; the river comes without a "
                                                "burn (7h, which would give seat 3 trips): with no betting "
                                                "left the hand is at the showdown already, and the remedy "
                                                "(7h off the board as the burn, a new river 9c) still makes "
                                                "the board: seat 2's kings win, no rabbit hunt")
    s.setup()
    s.events[1]["stack"], s.events[2]["stack"] = 1000, 1000
    s.start().deal().act(4, "fold").gone("seat4", "Qs").card("muck", "Qs").gone("seat4", "Js")
    s.card("muck", "Js").act(1, "fold").gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c")
    s.card("muck", "6c").act(2, "allin", 1000).act(3, "call", 1000)
    s.flop().turn().e("knock", dt=1.0)
    s.e("card", dt=1.0, zone="board", card="7h").expect("BURN_MISSING_RIVER", None, "river")
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    s.gone("board", "7h").card("burn", "7h").card("board", "9c")
    for seat in (2, 3):
        for c in HOLES[seat]:
            s.e("exposed", zone=f"seat{seat}", card=c)
    s.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")  # one player out: no order to tell
    s.stacks = {1: 10000, 2: 2000, 4: 10000}
    return s


@scenario
def b_burn_missing_turn_not_corrected() -> Scenario:
    s = Scenario("b_burn_missing_turn_not_corrected", "turn without a burn; the dealer burns and deals a "
                                                      "second turn card instead of burning the first")
    s.setup().start().deal().preflop().flop().checks().e("knock", dt=1.0)
    s.e("card", dt=1.0, zone="board", card="4s").expect("BURN_MISSING_TURN", None, "turn")
    s.card("burn", "Jh").card("board", "9c").expect("CORRECTION_NOT_FOLLOWED", None, "turn")
    return s


@scenario
def b_burn_extra() -> Scenario:
    s = Scenario("b_burn_extra", "two burn cards before the flop; one goes back on the stub and is the "
                                 "turn's "
                                 "burn")
    s.setup().start().deal().preflop().e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="3s")
    s.card("burn", "Kh").expect("BURN_EXTRA", None, "flop").gone("burn", "Kh")
    s.card("board", "8d").card("board", "2c").card("board", "4s").checks()
    s.street("Kh", "Jh").checks()
    return s


@scenario
def f_burn_extra_restored_to_flop() -> Scenario:
    s = Scenario("f_burn_extra_restored_to_flop", "003 (5): two burns before the flop; the dealer puts the "
                                                  "second (Kh) back on the stub and deals it as the flop's "
                                                  "first card, so the board is what it would have been: no "
                                                  "burn is owed at the turn (before: a false "
                                                  "CORRECTION_NOT_FOLLOWED at the turn's burn)",
                 profile="classic")
    s.setup().start().deal().preflop().e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="3s")
    s.card("burn", "Kh").expect("BURN_EXTRA", None, "flop").gone("burn", "Kh")
    s.card("board", "Kh").card("board", "8d").card("board", "2c")
    return _to_river(s)


@scenario
def f_burn_extra_restored_runout() -> Scenario:
    s = Scenario("f_burn_extra_restored_runout", "all-in runout (003 (6): no betting, corrected before the "
                                                 "pot is pushed): two burns before the turn, the second (Jh) "
                                                 "goes back and is dealt as the turn; the river with its "
                                                 "usual burn raises nothing")
    _all_in_preflop(s).flop().e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="4s")
    s.card("burn", "Jh").expect("BURN_EXTRA", None, "turn").gone("burn", "Jh").card("board", "Jh").river()
    return _runout_showdown(s)


@scenario
def b_burn_exposed() -> Scenario:
    s = Scenario("b_burn_exposed", "the flop burn card is seen face up; no correction")
    s.setup().start().deal().preflop().flop().e("exposed", zone="burn", card="3s")
    return s.expect("BURN_EXPOSED", None, "flop").checks()


def _four_card_flop(s: Scenario) -> Scenario:
    s.setup().start().deal().preflop().flop().card("board", "4s")
    return s.expect("FLOP_TOO_MANY_CARDS", None, "flop")


@scenario
def b_flop_four_cards_cuca() -> Scenario:
    s = Scenario("b_flop_four_cards_cuca", "cuca: four-card flop; the flop goes back into the stub, "
                                           "reshuffled, "
                                           "a new flop without a new burn")
    _four_card_flop(s)
    for c in ("Kh", "8d", "2c", "4s"):
        s.gone("board", c)
    s.e("card", dt=1.0, zone="board", card="Jh").card("board", "9c").card("board", "6h")
    return s.checks()


@scenario
def b_flop_four_cards_uesg_log_cuca() -> Scenario:
    s = Scenario("b_flop_four_cards_uesg_log_cuca", "profile pair (log of b_flop_four_cards_uesg) under "
                                                    "cuca: "
                                                    "keeping three of the four cards is not cuca's "
                                                    "correction")
    _four_card_flop(s).gone("board", "4s").checks()
    s.expect("CORRECTION_NOT_FOLLOWED", None, "flop")
    return s.street("4s", "Jh").checks()


@scenario
def b_flop_four_cards_uesg() -> Scenario:
    s = Scenario("b_flop_four_cards_uesg", "uesg §7: the identifiable extra card (4s) goes back on the stub "
                                           "and is the turn's burn", profile="uesg")
    _four_card_flop(s).gone("board", "4s").checks()
    return s.street("4s", "Jh").checks()


@scenario
def b_flop_four_cards_tda() -> Scenario:
    s = Scenario("b_flop_four_cards_tda", "tda: the four cards are scrambled face down, the floor draws one "
                                          "(Kh) as the turn burn, the rest is the flop", profile="tda")
    _four_card_flop(s)
    for c in ("Kh", "8d", "2c", "4s"):
        s.gone("board", c)
    s.card("board", "2c").card("board", "4s").card("board", "8d").checks()
    return s.street("Kh", "Jh").checks()


@scenario
def b_flop_premature() -> Scenario:
    s = Scenario("b_flop_premature", "flop turned while seats 2 and 3 still have to act preflop; "
                                     "recalled and "
                                     "redealt without a new burn")
    s.setup().start().deal().act(4, "call", 100).act(1, "fold")
    s.card("burn", "3s").card("board", "Kh").card("board", "8d").card("board", "2c")
    s.expect("FLOP_PREMATURE", None, "preflop")
    s.gone("board", "Kh").gone("board", "8d").gone("board", "2c").act(2, "call", 100).act(3, "check")
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="Jh").card("board", "9c").card("board", "6h")
    return s.checks()


@scenario
def b_flop_premature_new_burn() -> Scenario:
    s = Scenario("b_flop_premature_new_burn", "flop premature; the dealer burns again before the new flop")
    s.setup().start().deal().act(4, "call", 100).act(1, "fold")
    s.card("burn", "3s").card("board", "Kh").card("board", "8d").card("board", "2c")
    s.expect("FLOP_PREMATURE", None, "preflop")
    s.gone("board", "Kh").gone("board", "8d").gone("board", "2c").act(2, "call", 100).act(3, "check")
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="4s")
    s.expect("CORRECTION_NOT_FOLLOWED", None, "flop")
    return s.card("board", "Jh").card("board", "9c").card("board", "6h")


@scenario
def b_rabbit_hunt() -> Scenario:
    s = Scenario("b_rabbit_hunt", "everyone folds to seat 2's flop bet; the dealer then shows the turn")
    s.setup().start().deal().preflop().flop().act(2, "bet", 200).act(3, "fold").act(4, "fold")
    s.expect("UNCALLED_BET", 2, "showdown")
    s.e("knock", dt=1.0).card("board", "Jh").expect("RABBIT_HUNT", None, "between")
    return s


# --- L: hand lifecycle ------------------------------------------------------------------------------
@scenario
def l_misdeal_called() -> Scenario:
    s = Scenario("l_misdeal_called", "the dealer presses misdeal during the deal; the redeal keeps button 1")
    s.setup().start().card("seat2", "Ah").card("seat3", "7c").e("console", button="misdeal")
    s.expect("MISDEAL_CALLED", None, "deal")
    return s.e("hand_start", dt=5.0).deal().preflop()


@scenario
def l_misdeal_called_on_turn() -> Scenario:
    s = Scenario("l_misdeal_called_on_turn", "the dealer presses misdeal on the turn: far past the two "
                                             "actions of 001 §14 and 004 §4(1), the hand is not void: one "
                                             "MISDEAL_CALLED (error), the hand is checked down and seat 2 "
                                             "wins (before: voided on the turn)")
    s.setup().start().deal().preflop().flop().checks().turn().act(2, "check").e("console", button="misdeal")
    s.expect("MISDEAL_CALLED", None, "turn", severity="error").checks((3, 4)).river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


@scenario
def l_hole_card_in_muck() -> Scenario:
    s = Scenario("l_hole_card_in_muck", "seat 4's hole card reaches the muck while seat 2 is to act")
    s.setup().start().deal().preflop().flop().gone("seat4", "Qs").card("muck", "Qs")
    s.expect("HOLE_CARD_IN_MUCK", 4, "flop")
    return s.act(2, "check").act(3, "check")


@scenario
def l_action_after_fold() -> Scenario:
    s = Scenario("l_action_after_fold", "seat 4 pushes its cards forward out of turn and seat 3 acts on it")
    s.setup().start().deal().preflop().flop().act(2, "check")
    s.gone("seat4", "Qs").gone("seat4", "Js").act(3, "bet", 200)
    return s.expect("ACTION_AFTER_FOLD", 4, "flop")


@scenario
def l_floor_called() -> Scenario:
    s = Scenario("l_floor_called", "the dealer calls the floor during the flop")
    s.setup().start().deal().preflop().flop().e("console", button="floor")
    return s.expect("FLOOR_CALLED", None, "flop")


@scenario
def l_misdeal_called_played_on() -> Scenario:
    s = Scenario("l_misdeal_called_played_on", "the dealer presses misdeal preflop after one action, but the "
                                               "table plays the hand on to the showdown: one "
                                               "CORRECTION_NOT_FOLLOWED naming the misdeal at the next "
                                               "action, then the hand is followed and settled as played "
                                               "(before: the hand stayed void, stacks as before it)")
    s.setup().start().deal().act(4, "call", 100).e("console", button="misdeal")
    s.expect("MISDEAL_CALLED", None, "preflop", severity="misdeal")
    s.act(1, "fold").expect("CORRECTION_NOT_FOLLOWED", None, "preflop")
    s.gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c").card("muck", "6c")
    s.act(2, "call", 100).act(3, "check").flop().checks().turn().checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


@scenario
def l_misdeal_between_rounds_chips_reread() -> Scenario:
    s = Scenario("l_misdeal_between_rounds_chips_reread", "heads-up, the big blind is all-in with its blind "
                                                          "and the small blind calls: the round closes "
                                                          "after one action and the dealer presses misdeal "
                                                          "before the flop; the reader then reports seat "
                                                          "2's call of 100 again. Chips already bet are not "
                                                          "the table playing on: the hand stays void "
                                                          "(before: a CORRECTION_NOT_FOLLOWED and the hand "
                                                          "followed on)")
    s.e("seat", seat=2, player="P2", stack=10000).e("seat", seat=3, player="P3", stack=100)
    s.e("level", sb=50, bb=100, ante=0).start(button=2).deal(order=(3, 2)).act(2, "call", 100)
    s.e("console", button="misdeal").expect("MISDEAL_CALLED", None, "flop", severity="misdeal")
    s.e("chips", seat=2, amount=100).e("session_end", dt=2.0)
    s.stacks = {2: 10000, 3: 100}
    return s


@scenario
def l_misdeal_played_on_fouled_deck() -> Scenario:
    s = Scenario("l_misdeal_played_on_fouled_deck", "the dealer presses misdeal preflop, the table plays "
                                                    "on (one CORRECTION_NOT_FOLLOWED), then the flop "
                                                    "shows seat 2's Ah a second time: a fouled deck voids "
                                                    "the hand even though a misdeal was overridden; the "
                                                    "rest played out is ignored, stacks as before it "
                                                    "(before: the hand was followed on and the pot pushed "
                                                    "on a board with a card twice)")
    s.setup().start().deal().act(4, "call", 100).e("console", button="misdeal")
    s.expect("MISDEAL_CALLED", None, "preflop", severity="misdeal")
    s.act(1, "fold").expect("CORRECTION_NOT_FOLLOWED", None, "preflop")
    s.gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c").card("muck", "6c")
    s.act(2, "call", 100).act(3, "check").street("3s", "Kh", "8d", "Ah")
    s.expect("DECK_DUPLICATE", None, "flop", severity="misdeal").checks().turn().checks().river().checks()
    s.showdown().e("session_end", dt=2.0)
    s.stacks = {1: 10000, 2: 10000, 3: 10000, 4: 10000}
    return s


@scenario
def l_misdeal_called_redealt() -> Scenario:
    s = Scenario("l_misdeal_called_redealt", "the dealer presses misdeal preflop and the table takes it: "
                                             "the cards are gathered (the blinds left in front), a new "
                                             "hand_start, the redeal is played; the void hand changes no "
                                             "stack and raises nothing more")
    s.setup().start().deal().act(4, "call", 100).e("console", button="misdeal")
    s.expect("MISDEAL_CALLED", None, "preflop", severity="misdeal")
    for seat in (2, 3, 4, 1):
        for c in HOLES[seat]:
            s.gone(f"seat{seat}", c).card("muck", c)
    s.e("chips", seat=4, amount=0)
    s.start().deal().preflop().flop().checks().turn().checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


@scenario
def l_misdeal_card_missing_played_on() -> Scenario:
    s = Scenario("l_misdeal_card_missing_played_on", "a hole card of seat 3 vanishes preflop and seat 4 "
                                                     "acts: CARD_MISSING, a misdeal (004 §4(2i)); the table "
                                                     "deals the flop anyway after the round: one "
                                                     "CORRECTION_NOT_FOLLOWED, the hand is followed to the "
                                                     "showdown with the stacks as the chips moved")
    s.setup().start().deal().gone("seat3", "7d").act(4, "call", 100)
    s.expect("CARD_MISSING", 3, "preflop", severity="misdeal")
    s.card("seat3", "7d").act(4, "call", 100).expect("CORRECTION_NOT_FOLLOWED", None, "preflop")
    s.act(1, "fold").gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c").card("muck", "6c")
    s.act(2, "call", 100).act(3, "check").flop().checks().turn().checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


@scenario
def f_chips_pushed_after_round() -> Scenario:
    s = Scenario("f_chips_pushed_after_round", "the preflop round closed and the pot is gathered (every "
                                               "zone back to 0: nothing to say); seat 4 then pushes 200 in "
                                               "before the flop: ACTION_OUT_OF_TURN (the chips go back), "
                                               "the dealer hands them back, the hand is checked down and "
                                               "seat 4 keeps the 200 (before: ignored without a word)")
    s.setup().start().deal().preflop()
    for seat in (2, 3, 4):
        s.e("chips", seat=seat, amount=0)
    s.e("chips", seat=4, amount=200).expect("ACTION_OUT_OF_TURN", 4, "flop").e("chips", seat=4, amount=0)
    s.flop().checks().turn().checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


@scenario
def f_pot_gathered_between_rounds() -> Scenario:
    s = Scenario("f_pot_gathered_between_rounds", "chip readers report the bets (100 each) and the dealer "
                                                  "gathering them after the round: zones falling between "
                                                  "rounds raise nothing, the hand is clean")
    s.setup().start().deal()
    s.e("chips", seat=4, amount=100).act(1, "fold").gone("seat1", "2h").card("muck", "2h")
    s.gone("seat1", "6c").card("muck", "6c").e("chips", seat=2, amount=100).e("chips", seat=3, amount=100)
    s.act(3, "check")
    for seat in (2, 3, 4):
        s.e("chips", seat=seat, amount=100).e("chips", seat=seat, amount=0)
    s.flop().checks().turn().checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


@scenario
def f_bet_said_after_round() -> Scenario:
    s = Scenario("f_bet_said_after_round", "after the preflop round closed seat 4 says bet 300 before the "
                                           "flop: ACTION_OUT_OF_TURN, not booked; the table deals the flop "
                                           "and checks it through, then the turn's single burn is no extra "
                                           "burn (before: held as a binding flop bet, then BURN_EXTRA)")
    s.setup().start().deal().preflop().act(4, "bet", 300).expect("ACTION_OUT_OF_TURN", 4, "flop")
    s.flop().checks().turn().checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


@scenario
def l_misdeal_card_missing_next_seat_plays_on() -> Scenario:
    s = Scenario("l_misdeal_card_missing_next_seat_plays_on", "as l_misdeal_card_missing_played_on, but "
                                                              "the next seat (1) acts after seat 4's call: "
                                                              "that call counts (it was made at the table), "
                                                              "no out-of-turn alert, same settlement")
    s.setup().start().deal().gone("seat3", "7d").act(4, "call", 100)
    s.expect("CARD_MISSING", 3, "preflop", severity="misdeal")
    s.card("seat3", "7d").act(1, "fold").expect("CORRECTION_NOT_FOLLOWED", None, "preflop")
    s.gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c").card("muck", "6c")
    s.act(2, "call", 100).act(3, "check").flop().checks().turn().checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


@scenario
def f_bet_said_after_burn() -> Scenario:
    s = Scenario("f_bet_said_after_burn", "after the knock and the flop's burn, before any flop card, seat "
                                          "4 says bet 300: ACTION_OUT_OF_TURN (read as the flop's "
                                          "out-of-turn bet); the flop comes and is checked through, the "
                                          "bet is not booked and the hand settles (a pin, unchanged)")
    s.setup().start().deal().preflop().e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="3s")
    s.act(4, "bet", 300).expect("ACTION_OUT_OF_TURN", 4, "flop")
    s.card("board", "Kh").card("board", "8d").card("board", "2c").checks().turn().checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


# --- A: blinds and button ---------------------------------------------------------------------------
@scenario
def a_blind_wrong() -> Scenario:
    s = Scenario("a_blind_wrong", "seat 2 posts 100 as the small blind at level 50/100")
    s.setup().start(blinds=False).e("chips", seat=2, amount=100).e("chips", seat=3, amount=100)
    return s.deal().expect("BLIND_WRONG", 2, "deal")


@scenario
def a_button_wrong() -> Scenario:
    s = Scenario("a_button_wrong", "after hand 1 (button 1) the dealer puts the button on seat 3 instead "
                                   "of 2; "
                                   "dealing from it sends the first card to the wrong seat")
    s.setup().start().deal().act(4, "fold").act(1, "fold").act(2, "fold")
    s.expect("UNCALLED_BET", 3, "showdown")
    s.e("hand_start", dt=5.0, button=3).expect("POT_AWARD", 3, "showdown").expect("BUTTON_WRONG", 3, "deal")
    s.card("seat4", "Ah").expect("DEAL_WRONG_FIRST_SEAT", 4, "deal")
    return s


# --- profile pair: cuca and handbuch on the same log (001 §8.2 vs 000 §3.1) -------------------------
def _short_all_in(s: Scenario) -> Scenario:
    for seat, stack in ((1, 10000), (2, 10000), (3, 600), (4, 10000)):
        s.e("seat", seat=seat, player=f"P{seat}", stack=stack)
    s.e("level", sb=50, bb=100, ante=0).start().deal().preflop().flop()
    return s.act(2, "bet", 300).act(3, "allin", 500).act(4, "call", 500).act(2, "raise", 1000)


@scenario
def pair_allin_reopen_cuca() -> Scenario:
    s = Scenario("pair_allin_reopen_cuca", "cuca 001 §8.2: an all-in raise of 200 over a 300 bet reaches "
                                           "half "
                                           "a raise, so it reopens the betting: seat 2 may re-raise")
    return _short_all_in(s)


@scenario
def pair_allin_reopen_handbuch() -> Scenario:
    s = Scenario("pair_allin_reopen_handbuch", "handbuch 000 §3.1, same log: an all-in short of a full raise "
                                               "does not reopen; seat 2's re-raise is not allowed",
                 profile="handbuch")
    return _short_all_in(s).expect("RAISE_NOT_REOPENED", 2, "flop")


# --- 001 §8.2 examples 1-3 (all-in bet/raise), amounts x100: A = seat 2, B = seat 3 (all-in), C = seat 4
def _example_8_2(s: Scenario) -> Scenario:
    for seat, stack in ((1, 10000), (2, 10000), (3, 500), (4, 10000)):
        s.e("seat", seat=seat, player=f"P{seat}", stack=stack)
    s.e("level", sb=50, bb=100, ante=0).start().deal().preflop().flop()
    s.act(2, "bet", 300).act(3, "allin", 400)
    return s.expect("ALL_IN_AS_CALL", 3, "flop")


@scenario
def a_001_8_2_example_1() -> Scenario:
    s = Scenario("a_001_8_2_example_1", "001 §8.2 example 1: A bets 3, B all-in 4; C may raise to 7 (by the "
                                        "unchanged 3)")
    _example_8_2(s).act(4, "raise", 700).act(2, "call", 700)
    return s


@scenario
def a_001_8_2_example_2() -> Scenario:
    s = Scenario("a_001_8_2_example_2", "001 §8.2 example 2: A bets 3, B all-in 4, C calls 4: A may not "
                                        "raise (B's all-in counts as a call)")
    _example_8_2(s).act(4, "call", 400).act(2, "raise", 800)
    return s.expect("RAISE_NOT_REOPENED", 2, "flop")


@scenario
def a_001_8_2_example_3() -> Scenario:
    s = Scenario("a_001_8_2_example_3", "001 §8.2 example 3: A bets 3, B all-in 4, C raises to 7: A may "
                                        "re-raise to 10")
    _example_8_2(s).act(4, "raise", 700).act(2, "raise", 1000).act(4, "call", 1000)
    return s

# --- following the hand through corrections (issue 11): each one goes on to settlement -----------------
# The standard hand's result: seat 2 (Ah Kd) wins 300; seats 3 and 4 lose their 100; seat 1 folded.
WON = {"s1": 10000, "s2": 10200, "s3": 9900, "s4": 9900}


def _seat1_folds(s: Scenario) -> Scenario:
    """Seat 1 (hole cards 2h 6c) folds preflop: both cards leave the seat and reach the muck."""
    return s.act(1, "fold").gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c").card("muck", "6c")


def _to_river(s: Scenario, turn_burn: str = "4s", flop_checks: bool = True) -> Scenario:
    """From an open flop round: checks, turn Jh, checks, river 9c, checks, showdown, settlement."""
    if flop_checks:
        s.checks()
    s.street(turn_burn, "Jh").checks().river().checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_boxed_card_dealt_as_flop() -> Scenario:
    s = Scenario("f_boxed_card_dealt_as_flop", "004 §5: Kh seen face up in the stub; the dealer does not "
                                               "take it out and it comes as the first flop card: one "
                                               "CORRECTION_NOT_FOLLOWED, then the flop is played as it lies")
    s.setup().start().deal().act(4, "call", 100).e("exposed", zone="deck", card="Kh")
    s.expect("BOXED_CARD", None, "preflop")
    _seat1_folds(s)
    s.act(2, "call", 100).act(3, "check").flop().expect("CORRECTION_NOT_FOLLOWED", None, "flop")
    return _to_river(s)


@scenario
def f_boxed_card_taken_out_uesg() -> Scenario:
    s = Scenario("f_boxed_card_taken_out_uesg", "004 §5: 6h boxed during the flop's deal is taken out to the "
                                                "muck; the flop completes and the hand settles",
                 profile="uesg")
    s.setup().start().deal().preflop().e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="3s")
    s.card("board", "Kh").e("exposed", zone="deck", card="6h").expect("BOXED_CARD", None, "flop")
    s.card("muck", "6h").card("board", "8d").card("board", "2c")
    return _to_river(s)


def _five_card_flop(s: Scenario) -> Scenario:
    s.setup().start().deal().preflop().flop().card("board", "4s").card("board", "6h")
    return s.expect("FLOP_TOO_MANY_CARDS", None, "flop")


def _five_redealt(s: Scenario, *flop: str, dt: float = 1.0) -> Scenario:
    """Five flop cards, all taken off the board; then `flop` comes (no new burn), and on to the river."""
    _five_card_flop(s)
    for c in ("Kh", "8d", "2c", "4s", "6h"):
        s.gone("board", c)
    s.e("card", dt=dt, zone="board", card=flop[0])
    for c in flop[1:]:
        s.card("board", c)
    return _to_river(s)


@scenario
def f_four_card_flop_then_premature_turn_classic() -> Scenario:
    s = Scenario("f_four_card_flop_then_premature_turn_classic",
                 "003 (4) then 003 (9): the flop has a fourth card (4s), burned face up as the turn's burn; "
                 "then Jh is turned while the flop betting is open. The correction burns (5s) and deals the "
                 "would-be river 9c as the turn, the river comes without a burn (before: the burn was a "
                 "CORRECTION_NOT_FOLLOWED and the river a false BURN_MISSING_RIVER)", profile="classic")
    s.setup().start().deal().preflop().flop().card("board", "4s").expect("FLOP_TOO_MANY_CARDS", None, "flop")
    s.gone("board", "4s").card("burn", "4s").act(2, "check").card("board", "Jh")
    s.expect("TURN_PREMATURE", None, "flop").gone("board", "Jh").act(3, "check").act(4, "check")
    s.street("5s", "9c").checks().e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="6h").checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_five_card_flop_cuca() -> Scenario:
    s = Scenario("f_five_card_flop_cuca", "001 §14 (2.): five flop cards; all go back, the stub is "
                                          "reshuffled and a new flop comes without a burn")
    return _five_redealt(s, "2c", "Kh", "8d")


@scenario
def f_five_card_flop_handbuch() -> Scenario:
    s = Scenario("f_five_card_flop_handbuch", "000 §2.5: five flop cards are recalled (not the burn), "
                                              "reshuffled; a new flop without a new burn", profile="handbuch")
    return _five_redealt(s, "8d", "2c", "Kh")


@scenario
def f_five_card_flop_classic() -> Scenario:
    s = Scenario("f_five_card_flop_classic", "003 (4): five flop cards: reshuffle and redeal (not the "
                                             "exposed burn, which is for four cards); the fifth card changes "
                                             "the remedy the fourth card's alert gave, so a second "
                                             "FLOP_TOO_MANY_CARDS says so (before: no new alert)",
                 profile="classic")
    return _five_redealt(s.expect("FLOP_TOO_MANY_CARDS", None, "flop"), "Kh", "8d", "2c")


@scenario
def f_five_card_flop_uesg() -> Scenario:
    s = Scenario("f_five_card_flop_uesg", "004 §7: the two identifiable extra cards go back on the stub; "
                                          "the top one is the turn's burn", profile="uesg")
    _five_card_flop(s).gone("board", "6h").gone("board", "4s")
    return _to_river(s)


@scenario
def f_five_card_flop_tda() -> Scenario:
    s = Scenario("f_five_card_flop_tda", "TDA 2024: the five cards are scrambled face down; three come back "
                                         "as the flop, the floor's pick is a burn", profile="tda")
    return _five_redealt(s, "8d", "Kh", "2c", dt=2.0)


@scenario
def f_five_card_flop_ignored_cuca() -> Scenario:
    s = Scenario("f_five_card_flop_ignored_cuca", "five flop cards under cuca; the dealer only takes the two "
                                                  "extra cards off and play goes on: one "
                                                  "CORRECTION_NOT_FOLLOWED at the second action, no cascade")
    _five_card_flop(s).gone("board", "4s").gone("board", "6h").act(2, "check").act(3, "check")
    s.expect("CORRECTION_NOT_FOLLOWED", None, "flop").act(4, "check")
    s.street("Td", "Jh").checks().river().checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_five_card_flop_redealt_uesg() -> Scenario:
    s = Scenario("f_five_card_flop_redealt_uesg", "uesg: five flop cards; the dealer redeals the whole flop "
                                                  "instead (cuca's way): followed, and the hand settles",
                 profile="uesg")
    return _five_redealt(s, "2c", "Kh", "8d")


@scenario
def f_burn_missing_turn_corrected_late() -> Scenario:
    s = Scenario("f_burn_missing_turn_corrected_late", "000 §2.6: the turn comes without a burn; after one "
                                                       "action the dealer burns it and deals the new turn; "
                                                       "the hand goes on to the river and settles")
    s.setup().start().deal().preflop().flop().checks().e("knock", dt=1.0).e("card", dt=1.0, zone="board",
                                                                           card="4s")
    s.expect("BURN_MISSING_TURN", None, "turn").act(2, "check")
    s.gone("board", "4s").card("burn", "4s").card("board", "Jh").act(3, "check").act(4, "check")
    s.river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_burn_missing_flop_completed_first() -> Scenario:
    s = Scenario("f_burn_missing_flop_completed_first",
                 "003 (5): the flop 3s Kh 8d came without a burn; the dealer first turns the card that "
                 "completes the flop (2c), then moves 3s to the burns: the flop is right (Kh 8d 2c), the "
                 "turn comes with its usual burn (before: CORRECTION_NOT_FOLLOWED, BURN_EXTRA and another "
                 "CORRECTION_NOT_FOLLOWED)", profile="classic")
    s.setup().start().deal().preflop().e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="3s")
    s.expect("BURN_MISSING_FLOP", None, "flop").card("board", "Kh").card("board", "8d").card("board", "2c")
    s.gone("board", "3s").card("burn", "3s")
    return _to_river(s)


@scenario
def f_burn_missing_flop_completed_first_left() -> Scenario:
    s = Scenario("f_burn_missing_flop_completed_first_left",
                 "as f_burn_missing_flop_completed_first, but 3s is never moved: four cards lie there when "
                 "two seats have acted, one CORRECTION_NOT_FOLLOWED", profile="classic")
    s.setup().start().deal().preflop().e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="3s")
    s.expect("BURN_MISSING_FLOP", None, "flop").card("board", "Kh").card("board", "8d").card("board", "2c")
    s.act(2, "check").act(3, "check").expect("CORRECTION_NOT_FOLLOWED", None, "flop")
    return s


@scenario
def f_burn_missing_flop_corrected_on_turn() -> Scenario:
    s = Scenario("f_burn_missing_flop_corrected_on_turn", "the flop comes without a burn and stands after "
                                                          "two actions; the dealer burns two cards before "
                                                          "the turn to make up for it: no further alert, the "
                                                          "board as dealt decides", profile="uesg")
    s.setup().start().deal().preflop().e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="Kh")
    s.expect("BURN_MISSING_FLOP", None, "flop").card("board", "8d").card("board", "2c").checks()
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="3s").card("burn", "4s")
    s.expect("BURN_EXTRA", None, "turn").card("board", "Jh").expect("CORRECTION_NOT_FOLLOWED", None, "turn")
    s.checks().river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_turn_premature_reshuffle_uesg() -> Scenario:
    s = Scenario("f_turn_premature_reshuffle_uesg", "004 §8(4): the premature turn is shuffled back; the "
                                                    "flop betting finishes; knock, burn, a new turn; the "
                                                    "river with its usual burn", profile="uesg")
    s.setup().start().deal().preflop().flop().act(2, "check").card("burn", "4s").card("board", "6h")
    s.expect("TURN_PREMATURE", None, "flop").gone("board", "6h").act(3, "check").act(4, "check")
    s.street("Td", "Jh").checks().river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_turn_premature_reshuffle_log_cuca() -> Scenario:
    s = Scenario("f_turn_premature_reshuffle_log_cuca", "profile pair (uesg's reshuffle) under cuca: the "
                                                        "river's burn is one CORRECTION_NOT_FOLLOWED "
                                                        "(cuca deals that river without a burn); then "
                                                        "followed")
    s.setup().start().deal().preflop().flop().act(2, "check").card("burn", "4s").card("board", "6h")
    s.expect("TURN_PREMATURE", None, "flop").gone("board", "6h").act(3, "check").act(4, "check")
    s.street("Td", "Jh").checks().street("5s", "9c").expect("CORRECTION_NOT_FOLLOWED", None, "river")
    s.checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_extra_card_first_seat_late() -> Scenario:
    s = Scenario("f_extra_card_first_seat_late", "001 §14 (4.): a third card reaches the first seat after "
                                                 "one action (not a misdeal): it goes back and is the flop's "
                                                 "burn; the hand settles")
    s.setup().start().deal().act(4, "call", 100).card("seat2", "3s")
    s.expect("DEAL_EXTRA_CARD_FIRST_SEAT", 2, "preflop").gone("seat2", "3s")
    _seat1_folds(s)
    s.act(2, "call", 100).act(3, "check").flop()
    return _to_river(s)


def _extra_card_after_two(s: Scenario) -> Scenario:
    """Seat 4 calls, seat 1 folds (two actions); then a third card (3s) reaches seat 2, the first seat."""
    s.setup().start().deal().act(4, "call", 100)
    return _seat1_folds(s).card("seat2", "3s")


@scenario
def f_extra_card_first_seat_after_two_uesg() -> Scenario:
    s = Scenario("f_extra_card_first_seat_after_two_uesg",
                 "004 §4(4): a third card to the first seat found after two actions: one card is drawn and "
                 "used as the burn, the hand plays (also 003 (3), which sets no limit); before: a dead hand, "
                 "and every later action of seat 2 a BAD_EVENT", profile="uesg")
    _extra_card_after_two(s).expect("DEAL_EXTRA_CARD_FIRST_SEAT", 2, "preflop", "error")
    s.gone("seat2", "3s").act(2, "call", 100).act(3, "check").flop()
    return _to_river(s)


@scenario
def f_extra_card_first_seat_after_two_handbuch() -> Scenario:
    s = Scenario("f_extra_card_first_seat_after_two_handbuch", "profile pair: 000 §2.4 makes a hand with the "
                                                              "wrong number of cards found after two actions "
                                                              "dead", profile="handbuch")
    return _extra_card_after_two(s).expect("DEAL_TOO_MANY_CARDS", 2, "preflop", "dead_hand")


def _refused_raise(s: Scenario) -> Scenario:
    """Seat 3 is short (900); on the flop seat 2 bets 800, seat 3 is all-in 900 (not a full raise), seat 4
    calls, and seat 2 raises to 2000: refused (001 §8.2 example 2)."""
    s.setup()
    s.events[2]["stack"] = 1000
    s.start().deal().preflop().flop().act(2, "bet", 800).act(3, "allin", 900)
    s.expect("ALL_IN_AS_CALL", 3, "flop").act(4, "call", 900).act(2, "raise", 2000)
    return s.expect("RAISE_NOT_REOPENED", 2, "flop")


def _heads_up_to_end(s: Scenario, **stacks: int) -> Scenario:
    """Seats 2 and 4 check turn and river; showdown; seat 3 (all-in) busted and left."""
    s.turn().act(2, "check").act(4, "check").river().act(2, "check").act(4, "check")
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(s1=10000, **stacks)


@scenario
def f_refused_raise_called() -> Scenario:
    s = Scenario("f_refused_raise_called", "001 §8.2: the refused raise stands as a call; seat 2 then says "
                                           "call (a repeat, not an error); two streets on to settlement")
    return _heads_up_to_end(_refused_raise(s).act(2, "call", 900), s2=12000, s4=9000)


@scenario
def f_refused_raise_stands() -> Scenario:
    s = Scenario("f_refused_raise_stands", "the table lets the refused raise stand and seat 4 calls 2000: "
                                           "one CORRECTION_NOT_FOLLOWED, the raise is taken as played, side "
                                           "pot 2200 and main pot 3000 to seat 2")
    _refused_raise(s).act(4, "call", 2000).expect("CORRECTION_NOT_FOLLOWED", 2, "flop")
    return _heads_up_to_end(s, s2=13100, s4=7900)



def _three_checked_down(s: Scenario, **stacks: int) -> Scenario:
    """Seats 2, 3 and 4 check the turn and river; seat 2 shows and wins; settled with these stacks."""
    _checks_to_showdown(s, (2, 3, 4), (3, 4))
    return s.settle(**stacks)


def _under_bet(s: Scenario) -> Scenario:
    """cuca: on the flop seat 2 bets 75, below the big blind but more than half of it: it stands as a bet
    that must be completed to 100 (001 §8)."""
    s.setup().start().deal().preflop().flop().act(2, "bet", 75)
    return s.expect("BET_BELOW_MINIMUM", 2, "flop")


@scenario
def f_under_bet_ignored() -> Scenario:
    s = Scenario("f_under_bet_ignored", "001 §8: seat 2's flop bet of 75 must be completed to 100; nobody "
                                        "completes it and seat 3 calls 75: one CORRECTION_NOT_FOLLOWED, the "
                                        "bet is taken as played (75); seat 4 calls 75, checked down, seat 2 "
                                        "wins 525")
    _under_bet(s).act(3, "call", 75).expect("CORRECTION_NOT_FOLLOWED", 2, "flop").act(4, "call", 75)
    return _three_checked_down(s, s1=10000, s2=10350, s3=9825, s4=9825)


@scenario
def f_under_bet_ruling_accept() -> Scenario:
    s = Scenario("f_under_bet_ruling_accept", "as f_under_bet_ignored, but the floor is called and accepts "
                                              "the 75 as it lies (004 §1(2)): the calls of 75 raise nothing "
                                              "more")
    _under_bet(s).e("console", button="floor").expect("FLOOR_CALLED", None, "flop")
    s.e("console", button="ruling", ruling="accept").expect("FLOOR_RULING", None, "flop")
    s.act(3, "call", 75).act(4, "call", 75)
    return _three_checked_down(s, s1=10000, s2=10350, s3=9825, s4=9825)


@scenario
def f_under_raise_call_ignored() -> Scenario:
    s = Scenario("f_under_raise_call_ignored", "cuca (001 §8): seat 2 bets 200, seat 3 raises to 250, at "
                                               "most half a raise: it counts as a call (50 back); the table "
                                               "lets it stand and seat 4 calls 250: CORRECTION_NOT_FOLLOWED, "
                                               "the raise is taken as played; seat 2 calls 250; checked "
                                               "down, seat 2 wins 1,050")
    s.setup().start().deal().preflop().flop().act(2, "bet", 200).act(3, "raise", 250)
    s.expect("BET_BELOW_MINIMUM", 3, "flop").act(4, "call", 250).expect("CORRECTION_NOT_FOLLOWED", 3, "flop")
    s.act(2, "call", 250)
    return _three_checked_down(s, s1=10000, s2=10700, s3=9650, s4=9650)


@scenario
def f_call_short_left() -> Scenario:
    s = Scenario("f_call_short_left", "000 §3.1: seat 4 calls 60 of 100 (CALL_SHORT) and never completes; "
                                      "seat 1, the next seat, folds: the table went on, one "
                                      "CORRECTION_NOT_FOLLOWED; seat 4 stays in for its 60 and can win "
                                      "only that: side pot 80 (seats 2 and 3's last 40) and main pot 180, "
                                      "both to seat 2")
    s.setup().start().deal().act(4, "call", 60).expect("CALL_SHORT", 4, "preflop")
    s.act(1, "fold").expect("CORRECTION_NOT_FOLLOWED", 4, "preflop").gone("seat1", "2h").card("muck", "2h")
    s.gone("seat1", "6c").card("muck", "6c").act(2, "call", 100).act(3, "check").flop().checks((2, 3, 4))
    return _three_checked_down(s, s1=10000, s2=10160, s3=9900, s4=9940)


@scenario
def f_call_short_left_at_knock() -> Scenario:
    s = Scenario("f_call_short_left_at_knock", "000 §3.1, §2.8: seat 4 raises to 300, seat 2 calls, seat 3 "
                                               "(big blind, the last to act) calls 200 of 300: CALL_SHORT; "
                                               "nobody completes it and the dealer knocks and deals the "
                                               "flop: the knock ends the round, one "
                                               "CORRECTION_NOT_FOLLOWED, the flop is not premature; seat 3 "
                                               "stays in for its 200: main pot 600, side pot 200, both to "
                                               "seat 2")
    s.setup().start().deal().act(4, "raise", 300)
    _seat1_folds(s)
    s.act(2, "call", 300).act(3, "call", 200).expect("CALL_SHORT", 3, "preflop")
    s.flop().expect("CORRECTION_NOT_FOLLOWED", 3, "preflop").checks((2, 3, 4))
    return _three_checked_down(s, s1=10000, s2=10500, s3=9800, s4=9700)


@scenario
def f_call_short_accepted_at_knock() -> Scenario:
    s = Scenario("f_call_short_accepted_at_knock",
                 "as f_call_short_left_at_knock, but the floor rules `accept` on the CALL_SHORT before the "
                 "knock: the call stands as placed with no further alert, the knock ends the round and the "
                 "flop is not premature (before: a premature flop, out-of-turn checks and a BAD_EVENT)")
    s.setup().start().deal().act(4, "raise", 300)
    _seat1_folds(s)
    s.act(2, "call", 300).act(3, "call", 200).expect("CALL_SHORT", 3, "preflop")
    s.e("console", button="ruling", ruling="accept", id="t1-h1-1", note="stands")
    s.expect("FLOOR_RULING", None, "preflop").flop().checks((2, 3, 4))
    return _three_checked_down(s, s1=10000, s2=10500, s3=9800, s4=9700)


@scenario
def f_call_short_left_at_showdown() -> Scenario:
    s = Scenario("f_call_short_left_at_showdown", "000 §3.1: on the river seat 2 bets 200, seat 3 calls and "
                                                  "seat 4, the last to act, calls 100 of 200: CALL_SHORT; "
                                                  "nobody completes it and seat 2 shows its hand: the table "
                                                  "went to the showdown, one CORRECTION_NOT_FOLLOWED, the "
                                                  "call stands as placed; seat 2's kings win the main pot "
                                                  "and the side pot of seats 2 and 3")
    s.setup().start().deal().preflop().flop().checks().turn().checks().river()
    s.act(2, "bet", 200).act(3, "call", 200).act(4, "call", 100).expect("CALL_SHORT", 4, "river")
    s.e("exposed", zone="seat2", card="Ah").expect("CORRECTION_NOT_FOLLOWED", 4, "river")
    s.expect("SHOWDOWN_ORDER", 2, "showdown").e("exposed", zone="seat2", card="Kd")
    return _mucks(s, 3, 4).settle(s1=10000, s2=10500, s3=9700, s4=9800)


@scenario
def f_dead_hand_keeps_betting() -> Scenario:
    s = Scenario("f_dead_hand_keeps_betting", "000 §1.5: seat 4 is found with a third card after two "
                                              "actions, its hand is dead, but its cards stay and it bets "
                                              "200 on the flop after seats 2 and 3 checked; seat 2 calls, "
                                              "seat 3 folds; the turn and river are checked. One "
                                              "CORRECTION_NOT_FOLLOWED; the bet is followed as played, its "
                                              "chips stay in the pot, the dead hand cannot win: seat 2 "
                                              "wins 700 (before: a BAD_EVENT per action, the flop round "
                                              "lost, rabbit hunts)")
    _seat4_dead_with_three_cards(s)
    s.act(2, "call", 100).act(3, "check").flop().act(2, "check").act(3, "check").act(4, "bet", 200)
    s.expect("CORRECTION_NOT_FOLLOWED", 4, "flop").act(2, "call", 200).act(3, "fold")
    _mucks(s, 3).turn().act(2, "check").act(4, "check").river().act(2, "check").act(4, "check")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    _seat4_mucks_three(s)
    return s.settle(s1=10000, s2=10400, s3=9900, s4=9700)


@scenario
def f_dead_hand_reopens_round_chips_late() -> Scenario:
    s = Scenario("f_dead_hand_reopens_round_chips_late", "000 §1.5: seat 4's hand is dead; the flop is "
                                                         "checked by seats 2 and 3 (the round closes, seat "
                                                         "2's empty bet zone is read), then seat 4 bets 200, "
                                                         "reopening the round; seats 2 and 3 call and "
                                                         "seat 2's 200 is read after the round closed again: "
                                                         "its own call, not chips pushed after the round "
                                                         "(before: a false ACTION_OUT_OF_TURN, the reading "
                                                         "measured against the zone seen before the "
                                                         "reopening)")
    _seat4_dead_with_three_cards(s)
    s.act(2, "call", 100).act(3, "check").flop().act(2, "check").act(3, "check").e("chips", seat=2, amount=0)
    s.act(4, "bet", 200).expect("CORRECTION_NOT_FOLLOWED", 4, "flop").act(2, "call", 200).act(3, "call", 200)
    s.e("chips", seat=2, amount=200)
    s.turn().checks().river().checks().expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    _mucks(s, 3)
    _seat4_mucks_three(s)
    return s.settle(s1=10000, s2=10600, s3=9700, s4=9700)


@scenario
def f_dead_hand_bets_above_stack() -> Scenario:
    s = Scenario("f_dead_hand_bets_above_stack", "000 §1.5: dead seat 4 says bet 99999 on the flop after "
                                                 "seats 2 and 3 checked, more than its chips: one "
                                                 "CORRECTION_NOT_FOLLOWED, the wager cannot be placed and "
                                                 "is only noted; the turn and river are checked, seat 2 "
                                                 "wins 300 (before: a BAD_EVENT, the closed round reopened "
                                                 "waiting for seat 4, then TURN_PREMATURE and "
                                                 "PLAYER_SKIPPED)")
    _seat4_dead_with_three_cards(s)
    s.act(2, "call", 100).act(3, "check").flop().act(2, "check").act(3, "check").act(4, "bet", 99999)
    s.expect("CORRECTION_NOT_FOLLOWED", 4, "turn").turn().checks((2, 3)).river().checks((2, 3))
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    _mucks(s, 3)
    _seat4_mucks_three(s)
    return s.settle(**WON)


@scenario
def f_dead_hand_calls_in_round() -> Scenario:
    s = Scenario("f_dead_hand_calls_in_round", "000 §1.5: seat 4's hand is dead (a third card after two "
                                               "actions) while the preflop betting goes on; seat 2 raises "
                                               "to 300, seat 3 calls and seat 4 calls too: one "
                                               "CORRECTION_NOT_FOLLOWED, the call is followed as played "
                                               "(its chips stay in, it cannot win); its later checks are "
                                               "only noted; seat 2 wins 900 (before: a BAD_EVENT per "
                                               "action)")
    _seat4_dead_with_three_cards(s)
    s.act(2, "raise", 300).act(3, "call", 300).act(4, "call", 300).expect("CORRECTION_NOT_FOLLOWED", 4)
    s.flop().checks().turn().checks().river().checks().expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    _mucks(s, 3)
    _seat4_mucks_three(s)
    return s.settle(s1=10000, s2=10600, s3=9700, s4=9700)


@scenario
def f_dead_hand_mucked_speaks() -> Scenario:
    s = Scenario("f_dead_hand_mucked_speaks", "000 §1.5: seat 4's hand is dead and its cards are in the "
                                              "muck (HOLE_CARD_IN_MUCK) when it says check on the flop: "
                                              "only noted, the hand goes on; seat 2 wins (before: "
                                              "BAD_EVENT)")
    s.setup().start().deal().preflop().flop().gone("seat4", "Qs").card("muck", "Qs")
    s.expect("HOLE_CARD_IN_MUCK", 4, "flop").gone("seat4", "Js").card("muck", "Js")
    s.act(2, "check").act(3, "check").act(4, "check").turn().checks((2, 3)).river().checks((2, 3))
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    return _mucks(s, 3).settle(**WON)


@scenario
def f_check_facing_bet() -> Scenario:
    s = Scenario("f_check_facing_bet", "on the flop seat 2 bets 200 and seat 3 says check: the books are "
                                       "silent, TDA 2024 (Rules 1, 3) read as no action, CHECK_FACING_BET "
                                       "once; seat 3 then calls 200, seat 4 calls; checked down, seat 2 "
                                       "wins 900 (before: BAD_EVENT)")
    s.setup().start().deal().preflop().flop().act(2, "bet", 200).act(3, "check")
    s.expect("CHECK_FACING_BET", 3, "flop").act(3, "call", 200).act(4, "call", 200)
    s.turn().checks().river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(s1=10000, s2=10600, s3=9700, s4=9700)


@scenario
def f_check_facing_bet_passed_over() -> Scenario:
    s = Scenario("f_check_facing_bet_passed_over", "on the flop seat 2 bets 200, seat 3 says check "
                                                   "(CHECK_FACING_BET: no action) and the table moves on: "
                                                   "seat 4 calls out of turn, the dealer knocks and burns; "
                                                   "seat 3 never spoke, it counts as folded (PLAYER_SKIPPED, "
                                                   "001 §8); seats 2 and 4 check down, seat 2 wins 700 "
                                                   "(before: BAD_EVENT)")
    s.setup().start().deal().preflop().flop().act(2, "bet", 200).act(3, "check")
    s.expect("CHECK_FACING_BET", 3, "flop").act(4, "call", 200).expect("ACTION_OUT_OF_TURN", 4, "flop")
    s.turn().expect("PLAYER_SKIPPED", 3, "flop").act(2, "check").act(4, "check")
    s.river().act(2, "check").act(4, "check").expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    _mucks(s, 4, 3)
    return s.settle(s1=10000, s2=10400, s3=9900, s4=9700)


@scenario
def f_ruling_accept_boxed_card() -> Scenario:
    s = Scenario("f_ruling_accept_boxed_card", "004 §1(2): after BOXED_CARD the floor rules `accept`: the "
                                               "boxed Kh stays in play; as the first flop card it raises "
                                               "nothing more")
    s.setup().start().deal().act(4, "call", 100).e("exposed", zone="deck", card="Kh")
    s.expect("BOXED_CARD", None, "preflop").e("console", button="ruling", ruling="accept", id="t1-h1-1",
                                              note="card played as dealt")
    s.expect("FLOOR_RULING", None, "preflop")
    _seat1_folds(s)
    s.act(2, "call", 100).act(3, "check").flop()
    return _to_river(s)


@scenario
def f_ruling_accept_premature_turn() -> Scenario:
    s = Scenario("f_ruling_accept_premature_turn", "cuca: premature turn; the dealer reshuffles it (004's "
                                                   "way) and the floor accepts that: the river's burn raises "
                                                   "no CORRECTION_NOT_FOLLOWED")
    s.setup().start().deal().preflop().flop().act(2, "check").card("burn", "4s").card("board", "6h")
    s.expect("TURN_PREMATURE", None, "flop").gone("board", "6h")
    s.e("console", button="ruling", ruling="accept").expect("FLOOR_RULING", None, "flop")
    s.act(3, "check").act(4, "check").street("Td", "Jh").checks().street("5s", "9c").checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_string_bet() -> Scenario:
    s = Scenario("f_string_bet", "000 §3.1: seat 4 calls 100 with chips, then reaches back and adds 300 in a "
                                 "second motion: a string bet, the call stands and the extra goes back")
    s.setup().start().deal().e("chips", seat=4, amount=100).e("chips", seat=4, amount=400)
    s.expect("STRING_BET", 4, "preflop").e("chips", seat=4, amount=100)
    _seat1_folds(s)
    s.act(2, "call", 100).act(3, "check").flop()
    return _to_river(s)


@scenario
def f_string_bet_stands() -> Scenario:
    s = Scenario("f_string_bet_stands", "000 §3.1: on the flop seat 2 bets 100, then adds 100 more in a "
                                        "second motion: STRING_BET, the bet stands at 100; the extra is "
                                        "not handed back and seat 3 calls 200: the table let it stand, one "
                                        "CORRECTION_NOT_FOLLOWED, the bet is 200 as played; seat 4 calls "
                                        "200; checked down, seat 2 wins 900")
    s.setup().start().deal().preflop().flop().act(2, "bet", 100).e("chips", seat=2, amount=200)
    s.expect("STRING_BET", 2, "flop").act(3, "call", 200).expect("CORRECTION_NOT_FOLLOWED", 2, "flop")
    s.act(4, "call", 200)
    return _three_checked_down(s, s1=10000, s2=10600, s3=9700, s4=9700)


@scenario
def f_boxed_card_dealt_as_flop_handbuch() -> Scenario:
    s = Scenario("f_boxed_card_dealt_as_flop_handbuch", "000 §2.5: the log of f_boxed_card_dealt_as_flop "
                                                        "under the handbuch: a flop card face up in the "
                                                        "stub is valid and dealt, so the flop is correct "
                                                        "(004 §5 would take it out)", profile="handbuch")
    s.setup().start().deal().act(4, "call", 100).e("exposed", zone="deck", card="Kh")
    s.expect("BOXED_CARD", None, "preflop")
    _seat1_folds(s)
    s.act(2, "call", 100).act(3, "check").flop()
    return _to_river(s)


@scenario
def showdown_others_muck_winner_unshown() -> Scenario:
    s = Scenario("showdown_others_muck_winner_unshown", "000 §4.1: checked down; seat 2 is to show first "
                                                        "but keeps its cards face down, seats 3 and 4 muck "
                                                        "theirs: seat 2 is the only claimant left and wins "
                                                        "without showing, nothing to report (before: a "
                                                        "MUCKED_WINNER error)")
    s.setup().start().deal().preflop().flop().checks().turn().checks().river().checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    for seat in (3, 4):
        for c in HOLES[seat]:
            s.gone(f"seat{seat}", c).card("muck", c)
    return s.settle(**WON)


@scenario
def f_player_skipped_at_knock_folded() -> Scenario:
    s = Scenario("f_player_skipped_at_knock_folded", "000 §2.8: seat 2 bets on the flop, seat 4 calls past "
                                                     "seat 3 and the dealer knocks, burns and turns; seat 3 "
                                                     "said nothing by the knock, so it has folded and the "
                                                     "turn is not premature (000 §2.6 calls a turn premature "
                                                     "only without the knock)", profile="handbuch")
    s.setup().start().deal().preflop().flop()
    s.act(2, "bet", 200).act(4, "call", 200).expect("ACTION_OUT_OF_TURN", 4, "flop")
    s.turn().expect("PLAYER_SKIPPED", 3, "flop").checks((2, 4)).river().checks((2, 4))
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(s1=10000, s2=10400, s3=9900, s4=9700)


@scenario
def f_player_skipped_at_knock_checked() -> Scenario:
    s = Scenario("f_player_skipped_at_knock_checked", "000 §2.8: on an unbet flop seat 4 checks past seat 3 "
                                                      "and the dealer knocks and deals the turn: seat 3 lost "
                                                      "its turn but owed nothing, so it counts as checked "
                                                      "and plays on (before, the turn was premature and the "
                                                      "hand lost)")
    s.setup().start().deal().preflop().flop()
    s.act(2, "check").act(4, "check").expect("ACTION_OUT_OF_TURN", 4, "flop")
    s.turn().expect("PLAYER_SKIPPED", 3, "flop").checks().river().checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_premature_turn_passed_over_bet() -> Scenario:
    s = Scenario("f_premature_turn_passed_over_bet",
                 "triple fault: seat 4 checks the flop past seat 3, the dealer turns Jh with no knock (000 "
                 "§2.6: premature, seat 3 still owes), then seat 2 bets the turn on it: a seat with nothing "
                 "left on the flop can only be acting on the turn, so the table kept Jh (one "
                 "CORRECTION_NOT_FOLLOWED) and seat 3 lost its flop turn (000 §2.8: checked, it owed "
                 "nothing); seat 3's check facing the bet is that flop check said late, then it calls; "
                 "seat 2 wins 900 (before: BAD_EVENTs, a premature river and dead hands)")
    s.setup().start().deal().preflop().flop()
    s.act(2, "check").act(4, "check").expect("ACTION_OUT_OF_TURN", 4, "flop")
    s.card("burn", "4s").card("board", "Jh").expect("TURN_PREMATURE", None, "flop")
    s.act(2, "bet", 200).expect("PLAYER_SKIPPED", 3, "flop").expect("CORRECTION_NOT_FOLLOWED", None, "flop")
    s.act(3, "check").act(3, "call", 200).act(4, "call", 200)
    s.river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(s1=10000, s2=10600, s3=9700, s4=9700)


@scenario
def f_premature_turn_passed_over_checked() -> Scenario:
    s = Scenario("f_premature_turn_passed_over_checked",
                 "as f_premature_turn_passed_over_bet, but the turn is checked through: seat 2's check on "
                 "the early Jh begins the turn, seat 3 counts as checked on the flop and its check is its "
                 "turn action (before: seat 2's check was taken for a repeat on the flop, seat 4's for an "
                 "out-of-turn turn action and the river for a premature card)", profile="handbuch")
    s.setup().start().deal().preflop().flop()
    s.act(2, "check").act(4, "check").expect("ACTION_OUT_OF_TURN", 4, "flop")
    s.card("burn", "4s").card("board", "Jh").expect("TURN_PREMATURE", None, "flop")
    s.act(2, "check").expect("PLAYER_SKIPPED", 3, "flop").expect("CORRECTION_NOT_FOLLOWED", None, "flop")
    s.checks((3, 4)).river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_premature_turn_call_confirmed() -> Scenario:
    s = Scenario("f_premature_turn_call_confirmed",
                 "guard of f_premature_turn_passed_over_*: seat 3's call of 200 on the flop is confirmed on "
                 "the console after Jh was turned early (seat 4 still to act): the same call said again, not "
                 "a turn action, so seat 4 keeps its turn and the worked example of 000 §2.6 follows")
    s.setup().start().deal().preflop().flop().act(2, "bet", 200).e("chips", seat=3, amount=200)
    s.card("burn", "4s").card("board", "Jh").expect("TURN_PREMATURE", None, "flop")
    s.act(3, "call", 200).act(4, "call", 200).gone("board", "Jh")
    s.street("5s", "9c").checks()
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="6h").checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(s1=10000, s2=10600, s3=9700, s4=9700)


@scenario
def f_oversized_chip_stands() -> Scenario:
    s = Scenario("f_oversized_chip_stands", "000 §3.1, 001 §8: facing 100, seat 4 drops "
                                            "one 500 chip without a word: OVERSIZED_CHIP, a call, 400 go "
                                            "back; the change stays and seat 1 calls 500: the table let it "
                                            "stand as a raise, one CORRECTION_NOT_FOLLOWED; seats 2 and 3 "
                                            "call 500; checked down, seat 2 wins 2,000")
    s.setup().start().deal().e("chips", seat=4, amount=500).expect("OVERSIZED_CHIP", 4, "preflop")
    s.act(1, "call", 500).expect("CORRECTION_NOT_FOLLOWED", 4, "preflop")
    s.act(2, "call", 500).act(3, "call", 500).flop().checks((2, 3, 4, 1))
    _checks_to_showdown(s, (2, 3, 4, 1), (3, 4, 1))
    return s.settle(s1=9500, s2=11500, s3=9500, s4=9500)


@scenario
def f_cumulative_short_all_ins_tda() -> Scenario:
    s = Scenario("f_cumulative_short_all_ins_tda", "TDA 2024 Rule 47: seat 2 bets 800; seats 3 (1200) and 4 "
                                                   "(1600) go all-in, each short of a full raise, together "
                                                   "a full one: seat 2 may re-raise (no alert) and does; "
                                                   "seat 4 … side pots to settlement", profile="tda")
    s.setup()
    s.events[2]["stack"], s.events[3]["stack"] = 1300, 1700
    s.start().deal().preflop().flop().act(2, "bet", 800).act(3, "allin", 1200).act(4, "allin", 1600)
    s.act(2, "raise", 2400)
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="4s").card("board", "Jh")
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="5s").card("board", "9c")
    s.expect("UNCALLED_BET", 2, "showdown").expect("SHOWDOWN_ORDER", 2, "showdown")
    for seat in (2, 3, 4):
        for c in HOLES[seat]:
            s.e("exposed", zone=f"seat{seat}", card=c)
    s.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown").expect("ELIMINATION_ORDER", 4, "showdown")
    # seat 2 put in 1700 (800 of its 2400 raise uncalled) and wins the main pot 3900 and the side pot
    # 800; seats 3 and 4 busted and left
    s.stacks = {1: 10000, 2: 10000 - 1700 + 3900 + 800}
    return s


@scenario
def f_min_raise_capped_stack() -> Scenario:
    s = Scenario("f_min_raise_capped_stack", "seat 3 raises all-in to 250 facing a bet of 200 (a full raise "
                                             "would be 400): a legal all-in, no alert; the others call",
                 profile="tda")
    s.setup()
    s.events[2]["stack"] = 350
    s.start().deal().preflop().flop().act(2, "bet", 200).act(3, "allin", 250).act(4, "call", 250)
    s.act(2, "call", 250).turn().act(2, "check").act(4, "check").river().act(2, "check").act(4, "check")
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    s.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")
    s.stacks = {1: 10000, 2: 10000 - 350 + 350 * 3 - 100 + 100, 4: 9650}
    return s


@scenario
def f_raise_after_exposed_card() -> Scenario:
    s = Scenario("f_raise_after_exposed_card", "000 §4.1: seat 4 shows Qs during the flop betting; its "
                                               "bet stands as a check; the hand is not dead")
    s.setup().start().deal().preflop().flop().act(2, "check").act(3, "check")
    s.e("exposed", zone="seat4", card="Qs").act(4, "bet", 200).expect("RAISE_AFTER_EXPOSED_CARD", 4, "flop")
    return _to_river(s, flop_checks=False)


@scenario
def f_killed_raise_returned() -> Scenario:
    s = Scenario("f_killed_raise_returned", "000 §1.5: the dealer mucks seat 4's hand after its uncalled "
                                            "raise to 300: dead, the raise (200) goes back, its call "
                                            "stays; seat 3 wins the rest")
    s.setup().start().deal().act(4, "raise", 300)
    s.gone("seat4", "Qs").card("muck", "Qs").expect("HOLE_CARD_IN_MUCK", 4, "preflop")
    s.gone("seat4", "Js").card("muck", "Js")
    _seat1_folds(s)
    s.act(2, "fold").expect("UNCALLED_BET", 4, "showdown").gone("seat2", "Ah").card("muck", "Ah")
    s.gone("seat2", "Kd").card("muck", "Kd")
    s.e("session_end", dt=2.0).expect("POT_AWARD", 3, "showdown")
    s.stacks = {1: 10000, 2: 9950, 3: 10150, 4: 9900}
    return s


@scenario
def f_hand_thrown_onto_another() -> Scenario:
    s = Scenario("f_hand_thrown_onto_another", "001 §13 (e): seat 1 throws its cards onto seat 2's: seat "
                                               "1's hand is dead, seat 2 (the readers still tell the cards "
                                               "apart) plays on and wins")
    s.setup().start().deal().gone("seat1", "2h").card("seat2", "2h").expect("HOLE_CARD_IN_MUCK", 1, "preflop")
    s.gone("seat1", "6c").card("seat2", "6c").gone("seat2", "2h").card("muck", "2h")
    s.gone("seat2", "6c").card("muck", "6c")
    s.act(4, "call", 100).act(2, "call", 100).act(3, "check").flop()
    return _to_river(s)


@scenario
def f_turn_card_read_twice() -> Scenario:
    s = Scenario("f_turn_card_read_twice", "the reader reports the turn card Jh twice where it lies (no "
                                           "card_gone between): the same card read again, not a second "
                                           "card; the hand plays out and seat 2 wins (before: the board "
                                           "held Jh twice and the showdown could not rank the hands, an "
                                           "internal error)")
    s.setup().start().deal().preflop().flop().checks().turn().card("board", "Jh").checks().river().checks()
    return s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown().settle(**WON)


@scenario
def f_absent_player_hand() -> Scenario:
    s = Scenario("f_absent_player_hand", "000 §1.5: seat 3 is away when the deal completes: its hand is dead "
                                         "and mucked, its big blind stays; seat 2 wins")
    s.setup().e("present", seat=3, present=False).start().deal().expect("DEAD_HAND_ABSENT", 3, "deal")
    s.gone("seat3", "7c").card("muck", "7c").gone("seat3", "7d").card("muck", "7d")
    s.act(4, "call", 100).act(1, "fold").gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c")
    s.card("muck", "6c").act(2, "call", 100).flop().act(2, "check").act(4, "check")
    s.turn().act(2, "check").act(4, "check").river().act(2, "check").act(4, "check")
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    s.gone("seat4", "Qs").card("muck", "Qs").gone("seat4", "Js").card("muck", "Js")
    return s.settle(s1=10000, s2=10200, s3=9900, s4=9900)


@scenario
def f_dead_big_blind_folded_to() -> Scenario:
    s = Scenario("f_dead_big_blind_folded_to",
                 "000 §1.5: seat 3 (big blind) is away when the deal completes: its hand is dead and can win "
                 "nothing, its blind stays in. Seats 4 and 1 fold: the small blind is the pot's only "
                 "claimant and wins 150 (the dead blind is not returned); its fold out of habit changes "
                 "nothing (before: BAD_EVENT); the next hand is tracked")
    s.setup().e("present", seat=3, present=False).start().deal().expect("DEAD_HAND_ABSENT", 3, "deal")
    s.gone("seat3", "7c").card("muck", "7c").gone("seat3", "7d").card("muck", "7d")
    s.act(4, "fold").gone("seat4", "Qs").card("muck", "Qs").gone("seat4", "Js").card("muck", "Js")
    s.act(1, "fold").gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c").card("muck", "6c")
    s.act(2, "fold").gone("seat2", "Ah").card("muck", "Ah").gone("seat2", "Kd").card("muck", "Kd")
    s.e("present", seat=3, present=True)
    s.e("hand_start", dt=5.0, button=2).expect("POT_AWARD", 2, "showdown")
    s.e("chips", seat=3, amount=50).e("chips", seat=4, amount=100)
    for rnd in range(2):
        for seat in (3, 4, 1, 2):
            s.card(f"seat{seat}", HOLES[seat][rnd])
    s.act(1, "fold").act(2, "fold").act(3, "fold").expect("UNCALLED_BET", 4, "showdown")
    s.e("session_end", dt=2.0).expect("POT_AWARD", 4, "showdown")
    s.stacks = {1: 10000, 2: 10100, 3: 9850, 4: 10050}
    return s


def _all_in_preflop(s: Scenario) -> Scenario:
    """Seat 3 (1000 chips) is all-in preflop and seat 2 calls; seats 4 and 1 fold: the board runs out."""
    s.setup()
    s.events[2]["stack"] = 1000
    s.start().deal().act(4, "fold").gone("seat4", "Qs").card("muck", "Qs").gone("seat4", "Js")
    s.card("muck", "Js").act(1, "fold").gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c")
    return s.card("muck", "6c").act(2, "raise", 1000).act(3, "allin", 1000)


def _runout_showdown(s: Scenario) -> Scenario:
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    for seat in (2, 3):
        for c in HOLES[seat]:
            s.e("exposed", zone=f"seat{seat}", card=c)
    return s.settle(s1=10000, s2=11000, s4=10000)  # seat 3 busted and left


@scenario
def f_burn_missing_turn_runout() -> Scenario:
    s = Scenario("f_burn_missing_turn_runout", "all-in runout: the turn comes without a burn and is then "
                                               "burned face up and replaced (000 §2.6); the river follows "
                                               "with its knock and burn: nothing more, seat 2 wins")
    _all_in_preflop(s).flop().e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="4s")
    s.expect("BURN_MISSING_TURN", None, "turn").gone("board", "4s").card("burn", "4s").card("board", "Jh")
    s.river()
    return _runout_showdown(s)


@scenario
def f_burn_missing_turn_stands_river_made_up() -> Scenario:
    s = Scenario("f_burn_missing_turn_stands_river_made_up",
                 "003 (6): the turn 4s came without a burn and stood (two actions); the later cards must "
                 "come as if there had been no error, so the dealer burns two (Jh 5s) and the river is 9c, "
                 "the card it would have been: no BURN_EXTRA (before: BURN_EXTRA, CORRECTION_NOT_FOLLOWED)",
                 profile="classic")
    s.setup().start().deal().preflop().flop().checks().e("knock", dt=1.0)
    s.e("card", dt=1.0, zone="board", card="4s").expect("BURN_MISSING_TURN", None, "turn").checks()
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="Jh").card("burn", "5s").card("board", "9c")
    s.checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_burn_missing_flop_stands_turn_made_up() -> Scenario:
    s = Scenario("f_burn_missing_flop_stands_turn_made_up",
                 "003 (6) after 003 (5): the flop came without a burn (3s Kh 8d) and stood after two "
                 "actions; the turn is dealt as it would have been: burns 2c and 4s, turn Jh; no BURN_EXTRA",
                 profile="classic")
    s.setup().start().deal().preflop().e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="3s")
    s.expect("BURN_MISSING_FLOP", None, "flop").card("board", "Kh").card("board", "8d").checks()
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="2c").card("burn", "4s").card("board", "Jh")
    s.checks().river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(**WON)


@scenario
def f_burn_missing_turn_runout_found_after_river() -> Scenario:
    s = Scenario("f_burn_missing_turn_runout_found_after_river",
                 "003 (6): with no betting because of an all-in, a missed burn is put right if found before "
                 "the pot is pushed. The turn 4s came without a burn, then burn Jh and river 7h (seat 3's "
                 "trips); after the river the dealer moves 4s to the burns, Jh to the turn, 7h to the burns "
                 "and deals 9c: the board is the one it would have been and seat 2's kings win (before: "
                 "two RABBIT_HUNT and the pot judged on the wrong board, seat 3 paid)", profile="classic")
    _all_in_preflop(s).flop().e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="4s")
    s.expect("BURN_MISSING_TURN", None, "turn").street("Jh", "7h")
    s.gone("board", "4s").card("burn", "4s").gone("burn", "Jh").card("board", "Jh")
    s.gone("board", "7h").card("burn", "7h").card("board", "9c")
    return _runout_showdown(s)


@scenario
def f_burn_missing_flop_runout_cuca() -> Scenario:
    s = Scenario("f_burn_missing_flop_runout_cuca", "all-in runout under cuca: the flop comes without a "
                                                    "burn; it is recalled and reshuffled, burn, a new flop; "
                                                    "turn and river as usual")
    _all_in_preflop(s).e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="Kh")
    s.expect("BURN_MISSING_FLOP", None, "flop").card("board", "8d").card("board", "2c")
    for c in ("Kh", "8d", "2c"):
        s.gone("board", c)
    s.e("card", dt=1.0, zone="burn", card="3s").card("board", "2c").card("board", "Kh").card("board", "8d")
    s.turn().river()
    return _runout_showdown(s)

@scenario
def f_four_card_flop_runout_stands_handbuch() -> Scenario:
    s = Scenario("f_four_card_flop_runout_stands_handbuch", "all-in runout under the handbuch (000: a "
                                                            "four-card flop is recalled and dealt again): "
                                                            "the dealer only takes the fourth card off and "
                                                            "goes on with knock, burn and turn: said once "
                                                            "at the turn; the flop stands, the river "
                                                            "follows, the hand reaches its showdown (the "
                                                            "loser's mucked cards were a dead hand before)",
                 profile="handbuch")
    _all_in_preflop(s).flop().card("board", "Jh").expect("FLOP_TOO_MANY_CARDS", None, "flop")
    s.gone("board", "Jh").card("muck", "Jh")
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="4s").card("board", "9d")
    s.expect("CORRECTION_NOT_FOLLOWED", None, "turn")
    s.river().expect("SHOWDOWN_ORDER", 2, "showdown")
    for seat in (2, 3):
        for c in HOLES[seat]:
            s.e("exposed", zone=f"seat{seat}", card=c)
    for c in HOLES[3]:
        s.gone("seat3", c).card("muck", c)
    return s.settle(s1=10000, s2=11000, s4=10000)  # seat 3 busted and left


@scenario
def f_four_card_flop_runout_ruling_accept() -> Scenario:
    s = Scenario("f_four_card_flop_runout_ruling_accept", "as f_four_card_flop_runout_stands_handbuch, but "
                                                          "the floor is called and accepts the table "
                                                          "before the fourth card goes to the muck: no "
                                                          "further alert; the next card is the turn, not a "
                                                          "flop card (before, the core stayed a street "
                                                          "behind and called the loser's mucked cards a "
                                                          "dead hand; found by the random sweep)",
                 profile="handbuch")
    _all_in_preflop(s).flop().card("board", "Jh").expect("FLOP_TOO_MANY_CARDS", None, "flop")
    s.e("console", button="floor").expect("FLOOR_CALLED", None, "flop")
    s.e("console", button="ruling", ruling="accept").expect("FLOOR_RULING", None, "flop")
    s.gone("board", "Jh").card("muck", "Jh")
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="4s").card("board", "9d")
    s.river().expect("SHOWDOWN_ORDER", 2, "showdown")
    for seat in (2, 3):
        for c in HOLES[seat]:
            s.e("exposed", zone=f"seat{seat}", card=c)
    for c in HOLES[3]:
        s.gone("seat3", c).card("muck", c)
    return s.settle(s1=10000, s2=11000, s4=10000)  # seat 3 busted and left


def _heads_up_all_in_blind(s: Scenario) -> Scenario:
    """Two seats; seat 1 (button, small blind) has 50 and is all-in on its blind: nobody can act, the
    board runs out as the deal completes. Seat 2 (Ah Kd) is dealt first."""
    s.setup(players=2)
    s.events[0]["stack"] = 50
    s.e("hand_start", button=1).e("chips", seat=1, amount=50).e("chips", seat=2, amount=100)
    return s.card("seat2", "Ah").card("seat1", "2h").card("seat2", "Kd").card("seat1", "6c")


@scenario
def f_extra_card_first_seat_all_in_blind() -> Scenario:
    s = Scenario("f_extra_card_first_seat_all_in_blind", "heads-up, the small blind all-in on its blind: "
                                                         "nobody acts and the core is at the flop as the "
                                                         "deal completes; a third card to the first seat "
                                                         "now is still the deal's extra card (it becomes "
                                                         "the flop's burn), not a dead hand")
    _heads_up_all_in_blind(s).card("seat2", "3s").expect("DEAL_EXTRA_CARD_FIRST_SEAT", 2, "preflop")
    s.gone("seat2", "3s").e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="3s")
    s.card("board", "Kh").card("board", "8d").card("board", "2c").turn().river()
    s.expect("UNCALLED_BET", 2, "showdown").expect("SHOWDOWN_ORDER", 2, "showdown")
    for seat in (2, 1):
        for c in (HOLES[seat]):
            s.e("exposed", zone=f"seat{seat}", card=c)
    s.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")
    s.stacks = {2: 10050}  # seat 1 busted and left
    return s


@scenario
def f_extra_card_second_seat_all_in_blind() -> Scenario:
    s = Scenario("f_extra_card_second_seat_all_in_blind", "as before, but the third card goes to seat 1 "
                                                          "(not the first seat dealt) before any action: "
                                                          "a misdeal, not a dead hand")
    _heads_up_all_in_blind(s).card("seat1", "3s").expect("DEAL_TOO_MANY_CARDS", 1, "preflop", "misdeal")
    return s


@scenario
def f_last_card_exposed_all_in_blind() -> Scenario:
    s = Scenario("f_last_card_exposed_all_in_blind", "heads-up, the small blind all-in on its blind, so the "
                                                     "core is at the flop as the deal completes; the deal's "
                                                     "last card (6c to seat 1) is exposed: HOLE_CARD_EXPOSED "
                                                     "(000 §2.4), it is burned face up and seat 1 gets a "
                                                     "replacement before the knock; no burn before the flop "
                                                     "(before: KNOCK_MISSING, and the replacement made seat "
                                                     "1's hand dead; found by the random sweep)")
    _heads_up_all_in_blind(s).e("exposed", zone="seat1", card="6c").expect("HOLE_CARD_EXPOSED", 1, "preflop")
    s.gone("seat1", "6c").card("burn", "6c").card("seat1", "3s")
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="board", card="Kh").card("board", "8d").card("board", "2c")
    s.turn().river().expect("UNCALLED_BET", 2, "showdown").expect("SHOWDOWN_ORDER", 2, "showdown")
    for seat, cards in ((2, HOLES[2]), (1, ("2h", "3s"))):
        for c in cards:
            s.e("exposed", zone=f"seat{seat}", card=c)
    s.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")
    s.stacks = {2: 10050}  # seat 1 busted and left
    return s


@scenario
def f_play_the_board_both_muck() -> Scenario:
    s = Scenario("f_play_the_board_both_muck",
                 "003 (11) heads-up: the board (9h-Kh straight flush) plays for both; seat 2 mucks unseen "
                 "first and loses its claim, then seat 1 mucks too: when it did, it was the only claim left, "
                 "so it wins the pot (000 §4.1); before, both claims were lost and the pot was split")
    s.setup(players=2)
    s.e("hand_start", button=1).e("chips", seat=1, amount=50).e("chips", seat=2, amount=100)
    s.card("seat2", "Ac").card("seat1", "3c").card("seat2", "2d").card("seat1", "4d")
    s.act(1, "call", 100).act(2, "check").street("2s", "9h", "Th", "Jh").act(2, "check").act(1, "check")
    s.street("3s", "Qh").act(2, "check").act(1, "check").street("4s", "Kh").act(2, "check").act(1, "check")
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    s.gone("seat2", "Ac").card("muck", "Ac").gone("seat2", "2d").card("muck", "2d")
    s.gone("seat1", "3c").card("muck", "3c").gone("seat1", "4d").card("muck", "4d")
    s.e("session_end", dt=2.0).expect("PLAY_THE_BOARD_UNDECLARED", 2, "showdown")
    s.expect("POT_AWARD", 1, "showdown")
    s.stacks = {1: 10100, 2: 9900}
    return s


# --- limit hold'em (issue 13): fixed, pot and spread limit, each followed to settlement ---------------
def _limit_setup(s: Scenario, limit: dict[str, Any], stacks: dict[int, int] | None = None) -> Scenario:
    for seat in range(1, 5):
        s.e("seat", seat=seat, player=f"P{seat}", stack=(stacks or {}).get(seat, 10000))
    return s.e("level", sb=50, bb=100, ante=0, **limit)


def _seat4_dead_with_three_cards(s: Scenario) -> Scenario:
    """Seat 4 calls, then a third card lands at its seat (dead hand, 000 §2.4); seat 1 folds and mucks."""
    s.setup().start().deal().act(4, "call", 100).act(1, "fold").card("seat4", "3c")
    s.expect("DEAL_TOO_MANY_CARDS", 4, "preflop", "dead_hand")
    return s.gone("seat1", "2h").card("muck", "2h").gone("seat1", "6c").card("muck", "6c")


def _seat4_mucks_three(s: Scenario) -> Scenario:
    """The dead seat 4's three cards go to the muck at last."""
    for c in ("Qs", "Js", "3c"):
        s.gone("seat4", c).card("muck", c)
    return s


def _mucks(s: Scenario, *seats: int) -> Scenario:
    for seat in seats:
        for c in HOLES[seat]:
            s.gone(f"seat{seat}", c).card("muck", c)
    return s


def _checks_to_showdown(s: Scenario, seats: tuple[int, ...], mucking: tuple[int, ...]) -> Scenario:
    """Turn and river checked through by `seats`; seat 2 shows Ah Kd and wins; `mucking` muck unseen."""
    s.turn().checks(seats).river().checks(seats).expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    return _mucks(s, *mucking)


@scenario
def l_fixed_limit_cap() -> Scenario:
    s = Scenario("l_fixed_limit_cap", "fixed limit 100/200: on the flop a bet and three raises reach the cap "
                                      "(TDA 2024 Rule 48); the 5th wager stands as a call; seat 2 wins 1,500")
    _limit_setup(s, {"limit": "fixed"}).start().deal().preflop().flop()
    s.act(2, "bet", 100).act(3, "raise", 200).act(4, "raise", 300).act(2, "raise", 400)
    s.act(3, "raise", 500).expect("BET_ABOVE_LIMIT", 3, "flop").act(4, "call", 400)
    return _three_checked_down(s, s1=10000, s2=11000, s3=9500, s4=9500)


@scenario
def l_fixed_limit_heads_up_uncapped() -> Scenario:
    s = Scenario("l_fixed_limit_heads_up_uncapped", "fixed limit heads-up with a profile that lifts the cap "
                                                    "heads-up: a bet and five raises on the flop stand")
    s.profile_overrides = {"limit_heads_up_uncapped": True}
    for seat in (1, 2):
        s.e("seat", seat=seat, player=f"P{seat}", stack=10000)
    s.e("level", sb=50, bb=100, ante=0, limit="fixed").start(blinds=False)
    s.e("chips", seat=1, amount=50).e("chips", seat=2, amount=100).deal(order=(2, 1))
    s.act(1, "call", 100).act(2, "check").flop()
    s.act(2, "bet", 100).act(1, "raise", 200).act(2, "raise", 300).act(1, "raise", 400).act(2, "raise", 500)
    s.act(1, "raise", 600).act(2, "call", 600)
    s.turn().checks((2, 1)).river().checks((2, 1)).expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    _mucks(s, 1)
    return s.settle(s1=9300, s2=10700)


@scenario
def l_pot_limit_max_raise() -> Scenario:
    s = Scenario("l_pot_limit_max_raise", "pot limit 50/100: seat 4 raises the pot exactly (350); seat 2's "
                                          "raise to 2,000 is cut to the pot (1,150); the flop pot bet of "
                                          "2,400 stands; seat 2 wins 7,200")
    _limit_setup(s, {"limit": "pot"}).start().deal()
    s.act(4, "raise", 350).act(1, "fold").gone("seat1", "2h").card("muck", "2h")
    s.gone("seat1", "6c").card("muck", "6c")
    s.act(2, "raise", 2000).expect("BET_ABOVE_LIMIT", 2, "preflop")
    s.act(3, "fold")
    _mucks(s, 3).act(4, "call", 1150).flop().act(2, "bet", 2400).act(4, "call", 2400)
    _checks_to_showdown(s, (2, 4), (4,))
    return s.settle(s1=10000, s2=13650, s3=9900, s4=6450)


@scenario
def l_spread_limit_bounds() -> Scenario:
    s = Scenario("l_spread_limit_bounds", "spread limit 100–500: a bet of 700 is cut to 500; a raise of 300 "
                                          "(less than the last 500, more than half) is completed to 1,000 "
                                          "(cuca); seat 2 wins 2,300")
    _limit_setup(s, {"limit": "spread", "small_bet": 100, "big_bet": 500}).start().deal().preflop().flop()
    s.act(2, "bet", 700).expect("BET_ABOVE_LIMIT", 2, "flop")
    s.act(3, "raise", 800).expect("BET_BELOW_MINIMUM", 3, "flop")
    s.act(4, "fold")
    _mucks(s, 4).act(2, "call", 1000)
    _checks_to_showdown(s, (2, 3), (3,))
    return s.settle(s1=10000, s2=11200, s3=8900, s4=9900)


@scenario
def l_fixed_limit_short_all_in_reopens() -> Scenario:
    s = Scenario("l_fixed_limit_short_all_in_reopens", "fixed limit, TDA 2024 Rule 47-B: an all-in of half "
                                                       "a bet (150 over a 100 bet) reopens the betting; the "
                                                       "bettor may raise to 250", profile="tda")
    _limit_setup(s, {"limit": "fixed"}, {3: 250}).start().deal().preflop().flop()
    s.act(2, "bet", 100).act(3, "allin", 150).act(4, "call", 150).act(2, "raise", 250).act(4, "call", 250)
    _checks_to_showdown(s, (2, 4), (3, 4))
    return s.settle(s1=10000, s2=10600, s4=9650)  # seat 3 busted: it leaves the table


@scenario
def l_fixed_limit_short_all_in_not_reopened() -> Scenario:
    s = Scenario("l_fixed_limit_short_all_in_not_reopened", "fixed limit, TDA 2024 Rule 47-B: an all-in of "
                                                            "less than half a bet (140 over 100) does not "
                                                            "reopen; the bettor's raise stands as a call",
                 profile="tda")
    _limit_setup(s, {"limit": "fixed"}, {3: 240}).start().deal().preflop().flop()
    s.act(2, "bet", 100).act(3, "allin", 140).expect("ALL_IN_AS_CALL", 3, "flop").act(4, "call", 140)
    s.act(2, "raise", 240).expect("RAISE_NOT_REOPENED", 2, "flop")
    _checks_to_showdown(s, (2, 4), (3, 4))
    return s.settle(s1=10000, s2=10480, s4=9760)  # seat 3 busted: it leaves the table


# --- betting audit (28 Nov 2026, branch wt-auditbet): cases the audit found wrong -------------------
@scenario
def f_declared_raise_call_then_raise() -> Scenario:
    s = Scenario("f_declared_raise_call_then_raise",
                 "000 §3.1 (c): on the flop seat 2 bets 200; seat 3 says raise, puts in the call (200), then "
                 "the raise in one motion (to 600): one declared raise to 600, no alert; seat 4 folds, "
                 "seat 2 calls and wins 1,500 (before: the call part was an under-raise, the raise chips "
                 "out of turn, seat 2's call a BAD_EVENT and the hand was lost)", profile="handbuch")
    s.setup().start().deal().preflop().flop()
    s.e("chips", seat=2, amount=200).e("chips", seat=3, amount=200, declared="raise")
    s.e("chips", seat=3, amount=600, declared="raise").act(4, "fold")
    _mucks(s, 4).act(2, "call", 600)
    _checks_to_showdown(s, (2, 3), (3,))
    return s.settle(s1=10000, s2=10800, s3=9300, s4=9900)


@scenario
def f_declared_raise_only_call_placed() -> Scenario:
    s = Scenario("f_declared_raise_only_call_placed",
                 "000 §3.1 (c): seat 4, last to act on the flop, says raise and puts in the call (200) but "
                 "no raise follows; the dealer knocks and turns: the chips are a call, the round closed at "
                 "the knock (no premature turn); seat 2 wins 700 (before: the call part was an under-raise "
                 "booked to 400)", profile="handbuch")
    s.setup().start().deal().preflop().flop()
    s.e("chips", seat=2, amount=200).act(3, "fold")
    _mucks(s, 3).e("chips", seat=4, amount=200, declared="raise")
    _checks_to_showdown(s, (2, 4), (4,))
    return s.settle(s1=10000, s2=10400, s3=9900, s4=9700)


@scenario
def f_call_bigger_than_stack() -> Scenario:
    s = Scenario("f_call_bigger_than_stack",
                 "001 §8, §8.1: seat 3 (700 chips, 600 after the big blind) says call to seat 2's flop bet "
                 "of 1,000; the console sends call 1000: an all-in call for 600, the uncalled 400 goes back; "
                 "seat 2 wins 1,500 (before: BAD_EVENT, seat 3 was folded at the knock and kept its chips)")
    for seat in range(1, 5):
        s.e("seat", seat=seat, player=f"P{seat}", stack=700 if seat == 3 else 10000)
    s.e("level", sb=50, bb=100, ante=0).start().deal().preflop().flop()
    s.act(2, "bet", 1000).act(3, "call", 1000).act(4, "fold")
    _mucks(s, 4).turn().river().expect("UNCALLED_BET", 2, "showdown").expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    _mucks(s, 3)
    return s.settle(s1=10000, s2=10800, s4=9900)  # seat 3 busted: it leaves the table


@scenario
def f_bet_taken_back() -> Scenario:
    s = Scenario("f_bet_taken_back",
                 "001 §8 (the action placed is binding): seat 4 raises to 300 with chips, then pulls 200 "
                 "back; BET_TAKEN_BACK, the raise stands; the chips go in again, seats 2 and 3 call, seat 2 "
                 "wins 900 (before: BAD_EVENT, 'check the sensor')")
    s.setup().start().deal().e("chips", seat=4, amount=300).e("chips", seat=4, amount=100)
    s.expect("BET_TAKEN_BACK", 4, "preflop").e("chips", seat=4, amount=300)
    _seat1_folds(s)
    s.act(2, "call", 300).act(3, "call", 300).flop()
    s.checks().turn().checks().river().checks().expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    return s.settle(s1=10000, s2=10600, s3=9700, s4=9700)


@scenario
def f_out_of_turn_reported_twice() -> Scenario:
    s = Scenario("f_out_of_turn_reported_twice",
                 "000 §3.1: seat 1 calls 100 out of turn (chips, then the console confirms); "
                 "seat 4 raises to 300 (chips, console confirms): seat 1's call is void, its chips "
                 "go back, it folds; seat 4 wins 650 (before: a second ACTION_OUT_OF_TURN for the "
                 "confirmation and a BAD_EVENT for seat 4's)")
    s.setup().start().deal().e("chips", seat=1, amount=100).act(1, "call", 100)
    s.expect("ACTION_OUT_OF_TURN", 1, "preflop", severity="warning")
    s.e("chips", seat=4, amount=300).act(4, "raise", 300)
    s.expect("ACTION_OUT_OF_TURN", 1, "preflop", severity="info")
    s.e("chips", seat=1, amount=0)
    _seat1_folds(s).act(2, "fold")
    _mucks(s, 2).e("chips", seat=3, amount=300).act(3, "call", 300).flop()
    s.act(3, "check").act(4, "check").turn().act(3, "check").act(4, "check").river()
    s.act(3, "check").act(4, "check").expect("SHOWDOWN_ORDER", 3, "showdown")
    s.e("exposed", zone="seat4", card="Qs").e("exposed", zone="seat4", card="Js")
    _mucks(s, 3).e("session_end", dt=2.0).expect("POT_AWARD", 4, "showdown")
    s.stacks = {1: 10000, 2: 9950, 3: 9700, 4: 10350}
    return s


@scenario
def f_fold_said_at_showdown() -> Scenario:
    s = Scenario("f_fold_said_at_showdown",
                 "000 §4.1, 001 §9: the river is checked through; at the showdown seat 4 gives up and the "
                 "dealer presses fold for it before its cards go to the muck: no alert, seat 2 wins 300 "
                 "(before: BAD_EVENT 'after the betting ended')")
    s.setup().start().deal().preflop().flop().checks().turn().checks().river().checks()
    s.expect("SHOWDOWN_ORDER", 2, "showdown").act(4, "fold")
    return s.showdown().settle(**WON)


@scenario
def f_string_bet_out_of_turn() -> Scenario:
    s = Scenario("f_string_bet_out_of_turn",
                 "000 §3.1: seat 1 puts 100 in out of turn, then reaches back for 300 more in a second "
                 "motion: a string bet out of turn; the held call stays at 100, the extra goes back; seat "
                 "4 calls, seat 1's call stands, seat 2 wins 400 (before: a second ACTION_OUT_OF_TURN and "
                 "the held action became a raise to 400)")
    s.setup().start().deal().e("chips", seat=1, amount=100).expect("ACTION_OUT_OF_TURN", 1, "preflop")
    s.e("chips", seat=1, amount=400).expect("STRING_BET", 1, "preflop")
    s.e("chips", seat=4, amount=100).e("chips", seat=1, amount=100).act(2, "call", 100).act(3, "check")
    s.flop().checks().act(1, "check").turn().checks().act(1, "check").river().checks().act(1, "check")
    s.expect("SHOWDOWN_ORDER", 2, "showdown").showdown()
    _mucks(s, 1).e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")
    s.stacks = {1: 9900, 2: 10300, 3: 9900, 4: 9900}
    return s


# --- audit of showdown and between hands (28 Nov 2026) ----------------------------------------------
@scenario
def f_all_in_hands_turned_up_preflop() -> Scenario:
    s = Scenario("f_all_in_hands_turned_up_preflop",
                 "all-in showdown (TDA 2024 Rule 16): seat 4 moves all in, seat 2 calls all in, the others "
                 "fold; both hands are turned face up before the flop, as they must be. They are the "
                 "showdown's hands, shown; seat 2's kings win (before: HOLE_CARD_EXPOSED and "
                 "HOLE_CARDS_EXPOSED_MULTIPLE, a misdeal: the turned hands were read as the deal's "
                 "exposed cards)")
    s.setup().start().deal().act(4, "allin", 10000)
    _seat1_folds(s).act(2, "call", 10000).act(3, "fold").gone("seat3", "7c").card("muck", "7c")
    s.gone("seat3", "7d").card("muck", "7d")
    for seat in (4, 2):
        for c in HOLES[seat]:
            s.e("exposed", zone=f"seat{seat}", card=c)
    s.flop().turn().river().expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")
    s.stacks = {1: 10000, 2: 20100, 3: 9900}  # seat 4 busted and left
    return s


@scenario
def f_all_in_blind_hands_turned_up() -> Scenario:
    s = Scenario("f_all_in_blind_hands_turned_up",
                 "heads-up, the small blind all in on its blind: nobody can act, so once the deal is out "
                 "both players turn their hands up for the all-in showdown (TDA 2024 Rule 16); seat 1's "
                 "2h was the deal's second card, long dealt: a hand turned up, not an exposed card of the "
                 "deal (before: HOLE_CARD_EXPOSED_FIRST, a misdeal). Only the deal's last card seen at "
                 "once is still the deal's error (f_last_card_exposed_all_in_blind)")
    _heads_up_all_in_blind(s)
    for seat, cards in ((1, ("2h", "6c")), (2, HOLES[2])):
        for c in cards:
            s.e("exposed", zone=f"seat{seat}", card=c)
    s.e("knock", dt=1.0).e("card", dt=1.0, zone="burn", card="3s").card("board", "Kh").card("board", "8d")
    s.card("board", "2c").turn().river().expect("UNCALLED_BET", 2, "showdown")
    s.expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")
    s.stacks = {2: 10050}  # seat 1 busted and left
    return s


@scenario
def f_dead_hand_folded_on_console() -> Scenario:
    s = Scenario("f_dead_hand_folded_on_console",
                 "001 §5, §6: seat 3 is away, its blind is posted and its hand dead (DEAD_HAND_ABSENT); "
                 "seat 4 raises, seats 1 and 2 fold, and the dealer presses fold for seat 3 and mucks its "
                 "cards: that is the remedy carried out, nothing to report (before: "
                 "CORRECTION_NOT_FOLLOWED, 'the dead hand still acts')")
    s.setup().e("present", seat=3, present=False).start().deal().expect("DEAD_HAND_ABSENT", 3, "deal")
    s.act(4, "raise", 300)
    _seat1_folds(s).act(2, "fold").gone("seat2", "Ah").card("muck", "Ah").gone("seat2", "Kd")
    s.card("muck", "Kd").expect("UNCALLED_BET", 4, "showdown")
    s.act(3, "fold").gone("seat3", "7c").card("muck", "7c").gone("seat3", "7d").card("muck", "7d")
    s.e("session_end", dt=2.0).expect("POT_AWARD", 4, "showdown")
    s.stacks = {1: 10000, 2: 9950, 3: 9900, 4: 10150}
    return s


@scenario
def f_short_all_in_shows_first() -> Scenario:
    s = Scenario("f_short_all_in_shows_first",
                 "000 §4.1, 001 §9: seat 2 bets 1000 on the river, seat 4 moves all in for 1200 (short of "
                 "half a raise: ALL_IN_AS_CALL for reopening) and seat 2 calls the extra 200; seat 4 is the "
                 "one called, so it shows first (before: seat 2, because under cuca the short all-in was "
                 "not counted as a raise for the showing order either; handbuch already said seat 4)")
    s.setup()
    s.events[3]["stack"] = 1300
    s.start().deal().preflop().flop().checks().turn().checks().river()
    s.act(2, "bet", 1000).act(3, "fold").gone("seat3", "7c").card("muck", "7c").gone("seat3", "7d")
    s.card("muck", "7d").act(4, "allin", 1200).expect("ALL_IN_AS_CALL", 4, "river").act(2, "call", 1200)
    s.expect("SHOWDOWN_ORDER", 4, "showdown")
    for seat in (4, 2):
        for c in HOLES[seat]:
            s.e("exposed", zone=f"seat{seat}", card=c)
    s.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")
    s.stacks = {1: 10000, 2: 11400, 3: 9900}  # seat 4 busted and left
    return s


@scenario
def f_all_in_hand_turned_up_early() -> Scenario:
    s = Scenario("f_all_in_hand_turned_up_early",
                 "000 §4.1: seat 4 moves all in, seat 2 calls all in and turns its hand up at once, while "
                 "the big blind (seat 3) still has to act: shown at the wrong time, the hand stays live; "
                 "seat 3 folds, seat 4 turns its hand up, the board runs out and seat 2's kings win. Its "
                 "cards lay face up all along: shown (before: MUCKED_WINNER, 'not shown', since the camera "
                 "saw them only once, during the betting)")
    s.setup().start().deal().act(4, "allin", 10000)
    _seat1_folds(s).act(2, "call", 10000)
    for c in HOLES[2]:
        s.e("exposed", zone="seat2", card=c)
    s.act(3, "fold").gone("seat3", "7c").card("muck", "7c").gone("seat3", "7d").card("muck", "7d")
    for c in HOLES[4]:
        s.e("exposed", zone="seat4", card=c)
    s.flop().turn().river().expect("SHOWDOWN_ORDER", 2, "showdown")
    s.e("session_end", dt=2.0).expect("POT_AWARD", 2, "showdown")
    s.stacks = {1: 10000, 2: 20100, 3: 9900}  # seat 4 busted and left
    return s


@scenario
def f_side_pot_uncontested_winner_mucks() -> Scenario:
    s = Scenario("f_side_pot_uncontested_winner_mucks",
                 "000 §4.1: seat 2 is all in for 500 preflop; seats 3 and 4 build a side pot, seat 3 bets "
                 "the river and seat 4 folds, so the side pot is seat 3's uncontested. Seat 3 is to show "
                 "first, seat 2 tables the kings and seat 3 mucks its sevens: seat 2 takes the main pot, "
                 "seat 3 the side pot, nothing to report (before: MUCKED_WINNER for seat 3, the side pot's "
                 "only claimant)")
    s.setup()
    s.events[1]["stack"] = 500
    s.start().deal().act(4, "call", 100)
    _seat1_folds(s).act(2, "allin", 500).act(3, "call", 500).act(4, "call", 500)
    s.flop().act(3, "bet", 300).act(4, "call", 300).turn().checks((3, 4)).river().act(3, "bet", 1000)
    s.act(4, "fold").gone("seat4", "Qs").card("muck", "Qs").gone("seat4", "Js").card("muck", "Js")
    s.expect("UNCALLED_BET", 3, "showdown").expect("SHOWDOWN_ORDER", 3, "showdown")
    s.e("exposed", zone="seat2", card="Ah").e("exposed", zone="seat2", card="Kd")
    s.gone("seat3", "7c").card("muck", "7c").gone("seat3", "7d").card("muck", "7d")
    s.e("session_end", dt=2.0).expect("POT_AWARD", 3, "showdown")
    s.stacks = {1: 10000, 2: 1500, 3: 9800, 4: 9200}
    return s


def main() -> None:
    for old in HERE.glob("*.jsonl"):
        if not old.name.startswith("stud_"):  # written by build_stud.py
            old.unlink()
    for fn in SCENARIOS.values():
        fn().write()
    print(f"wrote {len(SCENARIOS)} scenarios to {HERE}")


if __name__ == "__main__":
    main()
