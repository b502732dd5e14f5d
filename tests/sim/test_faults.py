"""Injected dealer errors: each fires, is recorded, and the hand goes on with the prescribed correction."""

from __future__ import annotations

import itertools

import pytest

from controller.core.eventlog import dumps_event, read_events
from controller.core.events import (
    ActionEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    ConsoleEvent,
    Event,
    Exposed,
    HandStart,
    Knock,
    PresentEvent,
)
from controller.sim import FAULTS, SimHand, VirtualTable
from controller.sim.faults import ANTE_FAULTS
from tests.sim.replay_model import Zones


def _injected(kind: str, *, seats: int = 6, seed: int = 0, profile: str = "cuca",
              use_uids: bool = True, n: int = 12) -> tuple[list[SimHand], SimHand]:
    vt = VirtualTable(seats=seats, seed=seed, inject=1.0, faults=(kind,), profile=profile,
                      use_uids=use_uids)
    hands = list(vt.hands(n))
    hit = next(h for h in hands if h.injected == kind)
    return hands, hit


def _cards(hand: SimHand) -> list[tuple[str, str, str]]:
    """(kind, zone, card) of the hand's card events, uids resolved."""
    zones = Zones()
    out = []
    for ev in hand.events:
        zones.feed(ev)
        if isinstance(ev, CardSeen | CardGone | Exposed):
            card = ev.card if ev.card is not None else zones.uid_to_card.get(str(ev.uid), "??")
            out.append((ev.TYPE, ev.zone, card))
    return out


def _after(events: list[Event], cls: type, **match: object) -> list[Event]:
    return [e for e in events if isinstance(e, cls) and all(getattr(e, k) == v for k, v in match.items())]


def _ante(kind: str) -> str:
    """The ante injectors play on big-blind-ante tables only."""
    return "bb" if kind in ANTE_FAULTS else "none"


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_every_fault_fires_and_the_log_stays_valid(kind: str) -> None:
    vt = VirtualTable(seats=9, seed=3, inject=1.0, faults=(kind,), use_uids=True, ante=_ante(kind))
    hands = list(vt.hands(25))
    fired = [h for h in hands if h.kind == kind and h.injected == FAULTS[kind].code]
    assert len(fired) >= 3, f"{kind} fired {len(fired)} times in 25 hands"
    lines = [dumps_event(e) for h in hands for e in h.events]
    parsed = [e for _, e in read_events(lines)]  # valid and time never goes backwards
    times = [e.t for e in parsed]
    assert all(b > a for a, b in itertools.pairwise(times))
    for h in fired:
        assert h.injected in FAULTS and set(h.also) <= set(FAULTS) | {"ACTION_OUT_OF_TURN"}


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_faults_keep_chips_conserved(kind: str) -> None:
    vt = VirtualTable(seats=6, seed=8, inject=0.5, faults=(kind,), ante=_ante(kind))
    total = None
    for h in vt.hands(40):
        if any(getattr(e, "player", None) for e in h.events):
            total = sum(h.stacks.values())
        assert sum(h.stacks.values()) == total


def test_misdeals_are_redealt_with_the_same_button_and_stacks() -> None:
    for kind in ("DEAL_OUT_OF_ORDER", "HOLE_CARD_EXPOSED_FIRST", "MISDEAL_CALLED", "DECK_DUPLICATE",
                 "DEAL_SEAT_SKIPPED", "DEAL_TOO_MANY_CARDS", "HOLE_CARDS_EXPOSED_MULTIPLE",
                 "DEAL_WRONG_FIRST_SEAT"):
        vt = VirtualTable(seats=6, seed=2, inject=1.0, faults=(kind,))
        before = None
        hands = list(vt.hands(6))
        for prev, nxt in itertools.pairwise(hands):
            if prev.void:
                assert prev.injected == kind
                b_prev = next(e.button for e in prev.events if isinstance(e, HandStart))
                b_next = next(e.button for e in nxt.events if isinstance(e, HandStart))
                assert b_prev == b_next, kind
                assert prev.stacks == (before or prev.stacks)
            before = prev.stacks
        assert any(h.void for h in hands), kind


def test_hole_card_exposed_becomes_the_face_up_first_burn_and_flop_has_no_other_burn() -> None:
    _, h = _injected("HOLE_CARD_EXPOSED")
    cards = _cards(h)
    exposed = next(c for c in cards if c[0] == "exposed")
    zone, card = exposed[1], exposed[2]
    i = cards.index(("card_gone", zone, card))
    assert cards[i + 1] == ("card", "burn", card)
    assert cards[i + 2][1] == zone and cards[i + 2][0] == "card"  # the replacement comes last
    assert next(c for c in cards if c[1] == "burn" and c[0] == "card")[2] == card
    burns = [c for c in cards if c[1] == "burn" and c[0] == "card"]
    boards = [c for c in cards if c[1] == "board" and c[0] == "card"]
    assert len(burns) == {0: 1, 3: 1, 4: 2, 5: 3}[len(boards)]


def test_premature_turn_is_set_aside_the_river_becomes_the_turn_and_river_has_no_burn() -> None:
    _, h = _injected("TURN_PREMATURE")
    cards = _cards(h)
    board_in = [c[2] for c in cards if c[:2] == ("card", "board")]
    board_out = [c[2] for c in cards if c[:2] == ("card_gone", "board")]
    assert len(board_out) == 1 and board_in[3] == board_out[0]  # the premature turn, taken back
    final = [c for c in board_in if c not in board_out]
    assert len(final) == 5
    # the last street: knock then straight to the board, no burn
    events = h.events
    last_knock = max(i for i, e in enumerate(events) if isinstance(e, Knock))
    nxt = events[last_knock + 1]
    assert isinstance(nxt, CardSeen) and nxt.zone == "board"
    assert sum(1 for c in cards if c[:2] == ("card", "burn")) == 3  # flop, premature turn, turn


def test_correction_not_followed_burns_before_the_river() -> None:
    _, h = _injected("CORRECTION_NOT_FOLLOWED")
    assert h.also == ("TURN_PREMATURE",)
    cards = _cards(h)
    assert sum(1 for c in cards if c[:2] == ("card", "burn")) == 4


def test_premature_cards_come_while_betting_is_open_and_without_a_knock() -> None:
    for kind, street_cards in (("FLOP_PREMATURE", 3), ("RIVER_PREMATURE", 1)):
        _, h = _injected(kind)
        ev = h.events
        gone = next(i for i, e in enumerate(ev) if isinstance(e, CardGone) and e.zone == "board")
        premature_burn = gone - street_cards - 1
        assert isinstance(ev[premature_burn], CardSeen) and ev[premature_burn].zone == "burn"
        assert not isinstance(ev[premature_burn - 1], Knock)
        assert any(isinstance(e, ActionEvent) for e in ev[gone:]), "betting goes on afterwards"


@pytest.mark.parametrize(("profile", "recalled"), [("cuca", 3), ("handbuch", 3), ("uesg", 1), ("tda", 1)])
def test_missing_flop_burn_is_corrected_per_profile(profile: str, recalled: int) -> None:
    _, h = _injected("BURN_MISSING_FLOP", profile=profile)
    cards = _cards(h)
    assert sum(1 for c in cards if c[:2] == ("card_gone", "board")) == recalled


@pytest.mark.parametrize(("profile", "gone"), [("cuca", 4), ("uesg", 1), ("classic", 1), ("tda", 4)])
def test_four_card_flop_is_corrected_per_profile(profile: str, gone: int) -> None:
    _, h = _injected("FLOP_TOO_MANY_CARDS", profile=profile)
    cards = _cards(h)
    assert sum(1 for c in cards if c[:2] == ("card_gone", "board")) == gone
    zones = Zones()
    zones.feed_all(h.events)
    assert len(zones.in_zone("board")) == 5


def test_missing_turn_burn_becomes_the_burn() -> None:
    _, h = _injected("BURN_MISSING_TURN")
    cards = _cards(h)
    i = next(i for i, c in enumerate(cards) if c[:2] == ("card_gone", "board"))
    assert cards[i + 1] == ("card", "burn", cards[i][2])


def test_extra_burn_goes_back_as_the_next_burn() -> None:
    _, h = _injected("BURN_EXTRA")
    cards = _cards(h)
    back = next(c[2] for c in cards if c[:2] == ("card_gone", "burn"))
    burns = [c[2] for c in cards if c[:2] == ("card", "burn")]
    assert burns.count(back) == 2


def test_knock_faults() -> None:
    _, h = _injected("KNOCK_PAUSE_SHORT")
    ev = h.events
    shorts = [b.t - a.t for a, b in itertools.pairwise(ev) if isinstance(a, Knock)]
    assert min(shorts) < 0.8
    _, h = _injected("KNOCK_MISSING")
    knocks = sum(isinstance(e, Knock) for e in h.events)
    burns = sum(isinstance(e, CardSeen) and e.zone == "burn" for e in h.events)
    assert knocks == burns - 1


def test_foreign_card_is_replaced() -> None:
    _, h = _injected("FOREIGN_CARD")
    zones = Zones()
    zones.feed_all(h.events)
    assert len(zones.foreign) == 2  # arrives and leaves
    assert not zones.doubled
    with pytest.raises(StopIteration):
        _injected("FOREIGN_CARD", use_uids=False, n=5)  # needs tags


def test_duplicate_card_voids_the_hand_and_a_new_deck_comes() -> None:
    _hands, h = _injected("DECK_DUPLICATE")
    zones = Zones()
    zones.feed_all(h.events)
    assert len(zones.doubled) == 1 and h.void
    assert any(e.TYPE == "deck" for e in h.events[-3:])


def test_deck_incomplete_reads_51_then_52() -> None:
    _, h = _injected("DECK_INCOMPLETE")
    checks: list[int] = []
    for e in h.events:
        if isinstance(e, ConsoleEvent) and e.button == "deck_check":
            checks.append(0)
        elif isinstance(e, CardSeen) and e.zone == "deck":
            checks[-1] += 1
    assert checks == [51, 52]


def test_blind_wrong_then_corrected() -> None:
    _, h = _injected("BLIND_WRONG")
    chips = [e for e in h.events if isinstance(e, ChipsEvent)]
    assert chips[-2].seat == chips[-1].seat == h.injected_seat
    assert chips[-2].amount * 2 == chips[-1].amount


def test_button_wrong_is_announced_but_the_hand_is_played_from_the_right_button() -> None:
    _, h = _injected("BUTTON_WRONG")
    assert not h.void
    start = next(e for e in h.events if isinstance(e, HandStart))
    first = next(e for e in h.events if isinstance(e, CardSeen) and e.zone.startswith("seat"))
    assert start.button == h.injected_seat == int(first.zone[4:])  # one seat too far: the first dealt


def test_call_short_then_completed() -> None:
    _, h = _injected("CALL_SHORT")
    acts = [e for e in h.events if isinstance(e, ActionEvent) and e.seat == h.injected_seat]
    pair = next((a, b) for a, b in itertools.pairwise(acts) if a.action == "call" and b.action == "call")
    assert pair[0].amount is not None and pair[1].amount is not None and pair[0].amount < pair[1].amount


def test_dead_hand_absent_and_clock() -> None:
    _, h = _injected("DEAD_HAND_ABSENT")
    pres = [e for e in h.events if isinstance(e, PresentEvent)]
    assert [p.present for p in pres] == [False, True] and pres[0].seat == h.injected_seat
    _, h = _injected("DEAD_HAND_CLOCK")
    clock = next(e for e in h.events if isinstance(e, ConsoleEvent) and e.button == "clock")
    gone = next(e for e in h.events if isinstance(e, CardGone) and e.t > clock.t)
    assert gone.zone == f"seat{h.injected_seat}" and gone.t - clock.t > 60


def test_injection_rate_and_determinism() -> None:
    a = list(VirtualTable(seats=9, seed=4, inject=0.3).hands(300))
    b = list(VirtualTable(seats=9, seed=4, inject=0.3).hands(300))
    assert [dumps_event(e) for h in a for e in h.events] == [dumps_event(e) for h in b for e in h.events]
    share = sum(h.injected is not None for h in a) / len(a)
    assert 0.2 < share < 0.4
    kinds = {h.injected for h in a if h.injected}
    assert len(kinds) >= 25
