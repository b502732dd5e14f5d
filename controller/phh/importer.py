"""PHH hands → a physical table event log: seats, level, blinds as chips, deal, knocks, burns, actions.

The log is what the table's sensors would have reported had the hand been dealt on it: hole cards one at
a time clockwise from the left of the button, a knock and a burn before every street, board cards one
by one, betting actions with the round total, shown cards as `exposed` in the seat zones and mucked
cards moving to the muck. Cards no PHH file names (`??`, burns) are
never made up: they are dealt as cards whose face nobody read (`unread: true`; docs/phh.md).

Seats are planned so the rules engine's own dead-button rule (001 §7) puts the button and the blinds
where the PHH hand had them, hand after hand; the PHH `seats` numbers are not used for that reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from controller.core.cards import is_card
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
from controller.phh.hands import PhhError, PhhHand, Play, concretize, require_holdem
from controller.phh.stud import StudPlay


@dataclass(kw_only=True)
class _Positions:
    button: int
    sb_pos: int
    bb_seat: int
    heads_up: bool


class SeatPlanner:
    """Chooses table seats for p1…pN so that the dead-button rule yields the PHH hand's positions."""

    def __init__(self, max_seats: int = 10) -> None:
        self.max_seats = max_seats
        self.last: _Positions | None = None

    def _nxt(self, seat: int, k: int) -> int:
        return (seat - 1 + k) % self.max_seats + 1

    def plan(self, n: int, dead_sb: bool = False) -> tuple[list[int], int]:
        """Seats of p1…pN (p1 first left of the button; heads-up p1 is the big blind) and the button.

        With `dead_sb` p1 posts the big blind (hand_start `dead_sb`); the engine then keeps the button
        where it is for the next hand, and so does the plan.
        """
        if not 2 <= n <= self.max_seats:
            raise PhhError(f"{n} players do not fit a {self.max_seats}-seat table")
        last = self.last
        if last is None:
            # p1 sits first left of the button. With a dead small blind the button stays put for the
            # next hand, so it sits on the last seat: the seats after the next big blind are then free.
            seats = [*range(1, n), self.max_seats if dead_sb else n]
            button = seats[-1]
        elif n == 2:
            button = last.bb_seat
            seats = [self._nxt(button, 1), button]
        elif last.heads_up:
            button = self._nxt(last.button, 1)
            seats = [self._nxt(button, i) for i in range(1, n)] + [button]
        else:
            # The small blind goes to last hand's big blind, the button to last hand's small blind.
            button = last.sb_pos
            seats = [self._nxt(last.bb_seat, i) for i in range(n - 1)] + [button]
        # Every plan keeps the small blind's position just before the big blind, so n <= max_seats fit.
        assert len(set(seats)) == n, (seats, last)
        if n == 2:
            self.last = _Positions(button=button, sb_pos=button, bb_seat=seats[0], heads_up=True)
        elif dead_sb:
            self.last = _Positions(button=button, sb_pos=button, bb_seat=seats[0], heads_up=False)
        else:
            self.last = _Positions(button=button, sb_pos=seats[0], bb_seat=seats[1], heads_up=False)
        return seats, button


@dataclass
class _Clock:
    t: float

    def tick(self, dt: float = 1.0) -> float:
        self.t += dt
        return self.t


def hands_to_events(hands: list[PhhHand], *, name: str = "input", max_seats: int = 10,
                    start_t: float = 0.0, on_error: Callable[[PhhError], None] | None = None) -> list[Event]:
    """The event log of all hands, one after the other at one table.

    A hand that cannot be played raises PhhError, or with `on_error` is reported to it and left out.
    """
    planner = SeatPlanner(max_seats)
    clock = _Clock(start_t)
    occupied: set[int] = set()
    events: list[Event] = []
    for hand in hands:
        stud = hand.variant == "F7S"
        try:
            played: StudPlay | Play = StudPlay.run(hand, name) if stud else _playable(hand, name)
            _fits(hand, name, max_seats, max_seats)
        except PhhError as exc:
            if on_error is None:
                raise
            on_error(exc)
            continue
        if isinstance(played, StudPlay):
            seats = list(range(1, hand.n + 1))  # p1 sits at the dealer's left (interfaces.md §1a)
            events += _stud_setup(hand, seats, occupied, clock)
            occupied = set(seats)
            events += _stud_events(played, seats, clock)
            clock.tick(10.0)
            continue
        play = played
        seats, button = planner.plan(hand.n, dead_sb=hand.blind_indices()[0] is None)
        events += _setup(hand, seats, button, occupied, clock, name)
        occupied = set(seats)
        events += _hand_events(play, seats, clock)
        clock.tick(10.0)
    return events


def _fits(hand: PhhHand, name: str, most: int, max_seats: int) -> None:
    if not 2 <= hand.n <= most:
        raise PhhError(f"{name} hand {hand.key}: {hand.n} players do not fit a {max_seats}-seat table")


def _playable(hand: PhhHand, name: str) -> Play:
    """The hand played through at PHH level, every check that can refuse it done before it is seated."""
    require_holdem(hand, name)
    concrete, _ = concretize(hand, invent=False)
    play = Play.run(concrete, name)
    if any(s.kind == "board" and not all(map(is_card, s.cards)) for s in play.steps):
        raise PhhError(f"{name} hand {hand.key}: a board card is not recorded (??); the table cannot deal it")
    try:
        hand.forced()
    except PhhError as exc:
        raise PhhError(f"{name} hand {hand.key}: {exc}") from None
    return play


def _setup(hand: PhhHand, seats: list[int], button: int, occupied: set[int], clock: _Clock,
           name: str) -> list[Event]:
    out: list[Event] = []
    for s in sorted(occupied - set(seats)):
        out.append(SeatEvent(t=clock.tick(0.5), seat=s, player=None, stack=0))
    for i, s in enumerate(seats):
        player = hand.players[i] if hand.players and i < len(hand.players) else f"p{i + 1}"
        out.append(SeatEvent(t=clock.tick(0.5), seat=s, player=player, stack=hand.starting_stacks[i]))
    fb = hand.forced()  # checked by _playable
    # The level names game and limit (NT: no limit), so no table config's game or limit applies to it.
    limit = {"limit": "fixed", "small_bet": hand.small_bet, "big_bet": hand.big_bet} if hand.variant == "FT" \
        else {"limit": "no"}
    out.append(LevelEvent(t=clock.tick(0.5), sb=fb.sb, bb=fb.bb, ante=fb.ante, chip=1, ante_mode=fb.ante_mode,
                          scale=hand.scale, game="holdem", **limit))
    sb_i = hand.blind_indices()[0]
    straddles = fb.straddles or None
    posts = {seats[i]: a for i, a in (fb.posts or {}).items()} or None
    out.append(HandStart(t=clock.tick(), button=button, straddles=straddles, posts=posts,
                         dead_sb=True if sb_i is None else None))
    for i, amount in _blinds_posted(hand).items():
        out.append(ChipsEvent(t=clock.tick(0.5), seat=seats[i], amount=amount))
    return out


def _blinds_posted(hand: PhhHand) -> dict[int, int]:
    """Live forced bets (blinds, straddles, posts) as the table takes them, by player index."""
    out: dict[int, int] = {}
    for p in hand.posts():
        if p.live:
            out[p.seat] = out.get(p.seat, 0) + p.amount
    return out


def _hand_events(play: Play, seats: list[int], clock: _Clock) -> list[Event]:
    out: list[Event] = []
    hand = play.hand
    holes = [s for s in play.steps if s.kind == "hole"]
    for round_i in range(2):  # one card at a time, clockwise from the left of the button
        for step in holes:
            assert step.player is not None
            if round_i < len(step.cards):
                out.append(_seen(CardSeen, clock.tick(0.5), f"seat{seats[step.player]}", step.cards[round_i]))
    round_total = {i: 0 for i in range(hand.n)}
    round_total.update(_blinds_posted(hand))  # the blinds the chips events put in
    shown_later: list[Event] = []
    dealt = _dealt_shown(play)
    for step in play.steps:
        if step.kind == "board":
            out.append(Knock(t=clock.tick()))
            out.append(CardSeen(t=clock.tick(), zone="burn", unread=True))  # PHH records no burn card
            for c in step.cards:
                out.append(CardSeen(t=clock.tick(0.5), zone="board", card=c))
            round_total = {i: 0 for i in range(hand.n)}
        elif step.kind == "act" and step.idle:
            continue  # PHH records a check nobody could answer; at the table betting is simply over
        elif step.kind == "act":
            assert step.player is not None and step.action is not None
            out += _action_events(step.player, step.action, step.total, round_total, seats, play, clock)
        elif step.kind == "show":
            assert step.player is not None
            zone = f"seat{seats[step.player]}"
            # A show of `????` is a hand kept face down: nothing is exposed, nothing made up (unless the
            # deal recorded it and every hand shown is known that way, see _dealt_shown).
            cards = dealt.get(step.player, step.cards)
            shown_later += [Exposed(t=0.0, zone=zone, card=c) for c in cards if is_card(c)]
        elif step.kind == "muck":
            assert step.player is not None
            out += _to_muck(seats[step.player], list(step.cards), clock)
    # Hands are tabled once betting is over; they are reported after the last board card.
    for ev in shown_later:
        assert isinstance(ev, Exposed)
        out.append(Exposed(t=clock.tick(0.5), zone=ev.zone, card=ev.card))
    for i in _conceded(play):  # the recorded result says they lost: their face-down cards go to the muck
        out += _to_muck(seats[i], play.hole.get(i, []), clock)
    return out


def _dealt_shown(play: Play) -> dict[int, tuple[str, ...]]:
    """Hands shown as `????` whose cards the deal recorded (online histories name the hero's cards at the
    deal, and some write every show as `????`), when every hand shown at the end is known that way: the
    file says they were shown and which cards they were, so they are tabled, and no card is made up.
    When any shown hand is unknown none is tabled from the deal: a known hand facing an unknown one
    keeps the result unknown (docs/phh.md "Never invent a card")."""
    shows = {s.player: s.cards for s in play.steps if s.kind == "show" and s.player is not None}
    unread = {i for i, cards in shows.items() if not all(map(is_card, cards))}
    if not unread or not all(all(map(is_card, play.hole.get(i) or ["??"])) for i in shows):
        return {}
    return {i: tuple(play.hole[i]) for i in unread}


def _conceded(play: Play) -> list[int]:
    """Showdown hands nobody saw that `winnings` records as losing, when it names a winner among them.

    PHH `winnings` is what each player took from the pot; a file whose winnings are all 0 says nothing
    (some transcriptions write that). A loser's unread hand is mucked, which is what the table would
    have seen; the winner then takes the pot without a card being made up.
    """
    won = play.hand.winnings
    live = [i for i in range(play.hand.n) if i not in play.folded and i not in play.mucked]
    unread = [i for i in live if not all(map(is_card, play.shown.get(i) or play.hole.get(i) or ["??"]))]
    if not won or not unread or len(live) < 2 or not any(won[i] > 0 for i in live):
        return []
    if any(won[i] > 0 for i in range(play.hand.n) if i not in live):
        return []  # the record does not fit the hand: decide nothing from it
    return [i for i in live if won[i] == 0 and i in unread]


def _action_events(i: int, action: str, total: int, round_total: dict[int, int], seats: list[int],
                   play: Play, clock: _Clock) -> list[Event]:
    seat = seats[i]
    out: list[Event] = []
    if action == "fold":
        out.append(ActionEvent(t=clock.tick(0.5), seat=seat, action="fold"))
        out += _to_muck(seat, play.hole.get(i, []), clock)
        return out
    if action == "check" and total > round_total[i]:
        action = "call"  # a post the table has no event for (a live straddle-like post) is called now
    round_total[i] = total
    if action == "check":
        out.append(ActionEvent(t=clock.tick(0.5), seat=seat, action="check"))
    else:
        out.append(ActionEvent(t=clock.tick(0.5), seat=seat, action=action, amount=total))  # type: ignore[arg-type]
    return out


def _to_muck(seat: int, cards: list[str], clock: _Clock) -> list[Event]:
    out: list[Event] = []
    zone = f"seat{seat}"
    for c in cards:
        out.append(_seen(CardGone, clock.tick(0.5), zone, c))
        out.append(_seen(CardSeen, clock.tick(0.5), "muck", c))
    return out


def _seen(kind: type[CardSeen | CardGone], t: float, zone: str, card: str) -> CardSeen | CardGone:
    """The card as the readers report it: unread for a card the history does not name (`??`)."""
    return kind(t=t, zone=zone, card=card) if is_card(card) else kind(t=t, zone=zone, unread=True)


# --- seven-card stud (F7S) --------------------------------------------------------------------------------
def _stud_setup(hand: PhhHand, seats: list[int], occupied: set[int], clock: _Clock) -> list[Event]:
    """Seats, the stud level (§1a: game, fixed limit, ante, bring-in, bets), hand_start, the antes."""
    out: list[Event] = []
    for s in sorted(occupied - set(seats)):
        out.append(SeatEvent(t=clock.tick(0.5), seat=s, player=None, stack=0))
    for i, s in enumerate(seats):
        player = hand.players[i] if hand.players and i < len(hand.players) else f"p{i + 1}"
        out.append(SeatEvent(t=clock.tick(0.5), seat=s, player=player, stack=hand.starting_stacks[i]))
    ante = max((hand.ante_of(i) for i in range(hand.n)), default=0)
    out.append(LevelEvent(t=clock.tick(0.5), sb=0, bb=0, ante=ante, chip=1,  # stud has no blinds (§1a)
                          scale=hand.scale, game="stud7", limit="fixed", bring_in=hand.bring_in,
                          small_bet=hand.small_bet, big_bet=hand.big_bet))
    out.append(HandStart(t=clock.tick(), button=None, game="stud7"))
    for i, s in enumerate(seats):
        amount = min(hand.ante_of(i), hand.starting_stacks[i])
        if amount > 0:
            out.append(ChipsEvent(t=clock.tick(0.5), seat=s, amount=amount))
    return out


def _stud_card(zone: str, card: str, up: bool, clock: _Clock) -> list[Event]:
    """A card dealt to a seat; an up-card is followed by its `exposed` event (interfaces.md §1a)."""
    out: list[Event] = [_seen(CardSeen, clock.tick(0.5), zone, card)]
    if up:
        out.append(Exposed(t=clock.tick(0.5), zone=zone, card=card))
    return out


def _stud_events(play: StudPlay, seats: list[int], clock: _Clock) -> list[Event]:
    """3rd street one card at a time (two rounds down, one up), then every action and street in order."""
    out: list[Event] = []
    third: dict[int, list[tuple[str, bool]]] = {}  # by player, in the order the file first deals to them
    for st in play.steps:
        if st.step.kind == "hole" and st.street == 0:
            assert st.step.player is not None
            third.setdefault(st.step.player, []).extend(zip(st.step.cards, st.up, strict=True))
    for k in range(3):
        for player, cards in third.items():
            if k < len(cards):
                out += _stud_card(f"seat{seats[player]}", cards[k][0], cards[k][1], clock)
    shown_later: list[tuple[int, str]] = []
    for st in play.steps:
        step = st.step
        if step.kind == "hole" and st.street == 0:
            continue
        assert step.player is not None
        seat = seats[step.player]
        if step.kind == "hole":
            for c, up in zip(step.cards, st.up, strict=True):
                out += _stud_card(f"seat{seat}", c, up, clock)
        elif step.kind == "act" and step.idle:
            continue
        elif step.kind == "act" and step.action == "fold":
            out.append(ActionEvent(t=clock.tick(0.5), seat=seat, action="fold"))
            out += _to_muck(seat, play.cards.get(step.player, []), clock)
        elif step.kind == "act" and step.action == "check":
            out.append(ActionEvent(t=clock.tick(0.5), seat=seat, action="check"))
        elif step.kind == "act":
            out.append(ActionEvent(t=clock.tick(0.5), seat=seat, action=step.action,  # type: ignore[arg-type]
                                   amount=step.total))
        elif step.kind == "show":
            showing = set(play.up.get(step.player, []))
            shown_later += [(seat, c) for c in step.cards if is_card(c) and c not in showing]
        elif step.kind == "muck":
            out += _to_muck(seat, play.cards.get(step.player, []), clock)
    for seat, c in shown_later:  # hands are tabled once the betting is over
        out.append(Exposed(t=clock.tick(0.5), zone=f"seat{seat}", card=c))
    return out
