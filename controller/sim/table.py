"""The virtual table: seats, stacks, levels, an enrolled deck, the dead button, and the game rotation."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from controller.core.cards import FULL_DECK
from controller.core.events import DeckEvent, Event, LevelEvent, SeatEvent
from controller.core.profiles import Profile, get_profile
from controller.sim.faults import ANTE_FAULTS, FAULTS, Fault
from controller.sim.hand import Clock, HandPlay, Seating
from controller.sim.players import Policy, Style
from controller.sim.stud import MAX_SEATS as STUD_MAX_SEATS
from controller.sim.stud import StudPlay, StudStakes, stud_seating
from controller.sim.studfaults import FIXED_ONLY, LIMIT_HOLDEM_FAULTS, NOT_FIXED, STUD_FAULTS

# (sb, bb) per level; a level lasts LEVEL_HANDS hands, then the blinds go up
LEVELS: tuple[tuple[int, int], ...] = (
    (25, 50), (50, 100), (75, 150), (100, 200), (150, 300), (200, 400), (300, 600), (400, 800),
    (500, 1000), (700, 1400), (1000, 2000), (1500, 3000), (2000, 4000), (3000, 6000),
)
LEVEL_HANDS = 24
# Fixed-limit levels (stud and limit hold'em): ante, bring-in, small bet, big bet. Limit hold'em plays
# blinds of half a small bet and one small bet (the common structure).
LIMIT_LEVELS: tuple[StudStakes, ...] = tuple(
    StudStakes(ante=a, bring_in=b, small_bet=s, big_bet=2 * s) for a, b, s in (
        (10, 25, 100), (20, 50, 200), (25, 75, 300), (50, 100, 400), (75, 150, 600), (100, 200, 800),
        (150, 300, 1200), (200, 400, 1600), (300, 600, 2400), (400, 800, 3200)))
GAMES: tuple[str, ...] = ("holdem", "stud", "mixed")
ROTATE_HANDS = 8  # mixed: hands of limit hold'em, then as many of stud, and so on (HORSE's H and S)
# The dealer's reactions to an injected error (controller/sim/faults.py, Fault.reaction).
REACTIONS: tuple[str, ...] = ("remedy", "ignore", "ruling", "second")
NAMES = ("Anna", "Ben", "Cleo", "Dmitri", "Eva", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kemal")


@dataclass(frozen=True, kw_only=True)
class SimHand:
    number: int  # the hand number the engine gives it (count of hand_start events so far)
    events: list[Event]  # the physical event log of this hand (set-up events of the session included)
    injected: str | None  # catalogue code of the injected dealer error, or None for a clean hand
    injected_seat: int | None
    also: tuple[str, ...] = ()  # other codes the injected error legitimately raises (e.g. a misdeal's)
    void: bool = False  # the hand was a misdeal; the next hand is its redeal (same button)
    stacks: dict[int, int] = field(default_factory=dict)  # every seat's stack after the hand
    kind: str | None = None  # the injector's name (FAULTS key; a variant's differs from its code)


@dataclass(kw_only=True)
class _State:
    """Everything that carries over between hands (copied for a retry when a fault cannot fire)."""

    players: dict[int, str | None]
    stacks: dict[int, int]
    button: int | None = None  # positions of the last hand, for the dead-button rule
    sb_pos: int | None = None
    bb_pos: int | None = None
    hand: int = 0
    level: int = 0
    level_announced: int = -1
    deck_id: int = 0
    uids: dict[str, str] | None = None
    t: float = 0.0
    entrants: int = 0
    heads_up: bool = False  # the last hand was heads-up
    redeal: bool = False  # the last hand was a misdeal: same button, same level
    redeal_seating: Seating | None = None
    game: str = "holdem"  # the game of the next hand: holdem (no limit), limit (fixed-limit hold'em), stud
    game_announced: str = ""


class VirtualTable:
    """Plays hands of hold'em (no limit, or `limit` pot or fixed) and returns their physical event logs
    (deterministic for a seed)."""

    def __init__(self, *, seats: int = 9, seed: int = 0, inject: float = 0.0, profile: str = "cuca",
                 use_uids: bool = True, start_t: float = 0.0, style: Style = "mixed",
                 faults: tuple[str, ...] | None = None, min_stack_bb: int = 8,
                 max_stack_bb: int = 150, level_hands: int = LEVEL_HANDS,
                 reactions: tuple[str, ...] = ("remedy",), ante: str = "none", game: str = "holdem",
                 rotate: int = ROTATE_HANDS, limit: str | None = None) -> None:
        if not 2 <= seats <= 10:
            raise ValueError(f"seats must be 2…10, got {seats}")
        if game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
        if game != "holdem" and seats > STUD_MAX_SEATS:
            raise ValueError(f"stud needs at most {STUD_MAX_SEATS} seats (7 cards each from one deck), "
                             f"got {seats}")
        if rotate < 1:
            raise ValueError(f"rotate must be at least 1 hand, got {rotate}")
        self.game = game
        self.rotate = rotate
        if not 0.0 <= inject <= 1.0:
            raise ValueError(f"inject must be a share between 0 and 1, got {inject}")
        self.seats = seats
        self.profile: Profile = get_profile(profile)
        self.inject = inject
        self.use_uids = use_uids
        self.style = style
        self.rng = random.Random(seed)
        self.min_stack_bb, self.max_stack_bb = min_stack_bb, max_stack_bb
        self.level_hands = level_hands  # hands per blind level; 0: the first level for ever
        bad = [r for r in reactions if r not in REACTIONS]
        if bad or not reactions:
            raise ValueError(f"reactions must be some of {', '.join(REACTIONS)}, got {reactions!r}")
        self.reactions = reactions  # what the dealer does after an injected error (faults.py)
        if ante not in ("none", "bb"):
            raise ValueError(f"ante must be none or bb, got {ante!r}")
        self.bb_ante = ante == "bb"  # a big-blind ante of one big blind (TDA 2024), level event ante_mode bb
        if limit is None:  # the game's usual structure: no-limit hold'em, fixed-limit stud and mixed
            limit = "no" if game == "holdem" else "fixed"
        if limit not in ("no", "pot", "fixed"):
            raise ValueError(f"limit must be no, pot or fixed, got {limit!r}")
        if limit != "fixed" and game == "mixed":
            raise ValueError("the mixed rotation (limit hold'em and stud) is dealt at fixed limit")
        self.limit = limit  # the betting structure of hold'em (fixed: big blind / twice it) or stud
        known: dict[str, type[Fault]] = {**FAULTS, **STUD_FAULTS}
        self.known = known
        # Ante injectors only where there is an ante (so the other tables' seeds draw as before).
        wanted = (set(faults) if faults is not None
                  else {k for k in known if self.bb_ante or k not in ANTE_FAULTS})
        unknown = sorted(k for k in wanted if k not in known)
        if unknown:
            raise ValueError(f"no injector for {', '.join(unknown)} (have {', '.join(sorted(known))})")
        # the injectors each game draws from (limit hold'em: the hold'em ones that fit a fixed limit)
        self.pools = {"holdem": tuple(sorted(k for k in FAULTS if k in wanted)),
                      "limit": tuple(sorted(k for k in LIMIT_HOLDEM_FAULTS if k in wanted)),
                      "stud": tuple(sorted(k for k in STUD_FAULTS if k in wanted
                                           and (limit == "fixed" or k not in FIXED_ONLY)
                                           and (limit != "fixed" or k not in NOT_FIXED)))}
        self.fault_kinds = self.pools["holdem"] if game == "holdem" else tuple(sorted(
            {*self.pools["stud"], *(self.pools["limit"] if game == "mixed" else ())}))
        self.state = _State(players={}, stacks={}, t=start_t)
        self.pending: list[Event] = []  # set-up events waiting to go out with the next hand

    # ------------------------------------------------------------------ public
    def hands(self, n: int) -> Iterator[SimHand]:
        for _ in range(n):
            yield self.next_hand()

    def level_blinds(self) -> tuple[int, int]:
        """(sb, bb) of the level in force (limit hold'em: half a small bet and a small bet)."""
        if self.state.game == "holdem":
            return LEVELS[self.state.level]
        stakes = self.stakes()
        return stakes.small_bet // 2, stakes.small_bet

    def stakes(self) -> StudStakes:
        """The fixed-limit level in force (stud and limit hold'em)."""
        return LIMIT_LEVELS[min(self.state.level, len(LIMIT_LEVELS) - 1)]

    def total_chips(self) -> int:
        return sum(self.state.stacks.values())

    @property
    def hands_played(self) -> int:
        return self.state.hand

    @property
    def t(self) -> float:
        return self.state.t

    def next_hand(self) -> SimHand:
        self._between_hands()
        inject = self.inject > 0 and self.rng.random() < self.inject
        pool = self.pools[self.state.game]
        if inject and pool:
            for _ in range(6):
                kind = self.rng.choice(pool)
                hand = self._attempt(kind)
                if hand is not None:
                    return hand
        hand = self._attempt(None)
        assert hand is not None
        return hand

    # ------------------------------------------------------------------ between hands
    def _between_hands(self) -> None:
        st = self.state
        clock = Clock(st.t, self.rng)
        active = [s for s, p in st.players.items() if p is not None and st.stacks.get(s, 0) > 0]
        for seat, player in sorted(st.players.items()):
            if player is not None and st.stacks.get(seat, 0) == 0:  # busted players leave
                st.players[seat] = None
                self.pending.append(SeatEvent(t=clock.after(1.0, 3.0), seat=seat, player=None, stack=0))
        # the table breaks when half of it has busted (or at heads-up's end): a fresh table sits down
        if len(active) < max(2, (self.seats + 1) // 2):
            self._seat_everyone(clock)
        level = self._level_index()
        if not st.redeal:
            st.game = self._game_now()
        if (level != st.level_announced or st.game != st.game_announced) and not st.redeal:
            st.level = level
            st.level_announced = level
            st.game_announced = st.game
            self.pending.append(self._level_event(clock.after(0.5, 2.0)))
        st.t = clock.t

    def _game_now(self) -> str:
        """The next hand's game: mixed plays `rotate` hands of limit hold'em, then `rotate` of stud."""
        if self.game == "holdem":
            return "holdem"
        if self.game == "stud":
            return "stud"
        return "limit" if (self.state.hand // self.rotate) % 2 == 0 else "stud"

    def _level_event(self, t: float) -> LevelEvent:
        st = self.state
        if st.game == "holdem":
            sb, bb = LEVELS[st.level]
            ante, mode = (bb, "bb") if self.bb_ante else (0, "each")
            return LevelEvent(t=t, sb=sb, bb=bb, ante=ante, ante_mode=mode, limit=self.limit,
                              ante_chips=self.bb_ante)  # the readers see the ante
        k = self.stakes()
        if st.game == "limit":  # interfaces.md §1a: the level names the game and the structure
            return LevelEvent(t=t, sb=k.small_bet // 2, bb=k.small_bet, game="holdem", limit="fixed",
                              small_bet=k.small_bet, big_bet=k.big_bet)
        big = k.big_bet if self.limit == "fixed" else 0  # pot and no limit have no big bet
        return LevelEvent(t=t, sb=0, bb=0, ante=k.ante, game="stud7", limit=self.limit,  # no blinds (§1a)
                          bring_in=k.bring_in, small_bet=k.small_bet, big_bet=big)

    def _seat_everyone(self, clock: Clock) -> None:
        """A fresh table: every seat gets a player and a fresh stack (a new deck with tags)."""
        st = self.state
        if self.game == "holdem":
            bb, most = LEVELS[self._level_index()][1], self.max_stack_bb
        else:  # fixed limit: stacks in small bets, fewer of them, so all-ins and side pots still happen
            bb = LIMIT_LEVELS[min(self._level_index(), len(LIMIT_LEVELS) - 1)].small_bet
            most = max(self.min_stack_bb, self.max_stack_bb // 3)
        for seat in range(1, self.seats + 1):
            st.entrants += 1
            name = f"{NAMES[(st.entrants - 1) % len(NAMES)]}{(st.entrants - 1) // len(NAMES) or ''}"
            stack = bb * self.rng.randint(self.min_stack_bb, most)
            st.players[seat] = name
            st.stacks[seat] = stack
            self.pending.append(SeatEvent(t=clock.after(0.3, 1.0), seat=seat, player=name, stack=stack))
        if self.use_uids:
            self.pending.append(self.new_deck(clock))

    def _level_index(self) -> int:
        if self.level_hands <= 0:
            return 0
        return min(self.state.hand // self.level_hands, len(LEVELS) - 1)

    def new_deck(self, clock: Clock) -> DeckEvent:
        """Enrol a fresh deck with random 7-byte tag uids (NTAG-like)."""
        st = self.state
        st.deck_id += 1
        uids: dict[str, str] = {}
        used: set[str] = set()
        for card in FULL_DECK:
            uid = f"04{self.rng.getrandbits(48):012x}"
            while uid in used:
                uid = f"04{self.rng.getrandbits(48):012x}"
            used.add(uid)
            uids[card] = uid
        st.uids = uids
        return DeckEvent(t=clock.after(1.0, 3.0), id=f"deck-{st.deck_id}",
                         cards={u: c for c, u in uids.items()})

    # ------------------------------------------------------------------ seating (001 §7)
    def seating(self) -> Seating:
        st = self.state
        active = sorted(s for s, p in st.players.items() if p is not None and st.stacks[s] > 0)
        empty = tuple(s for s in range(1, self.seats + 1) if s not in active)
        if st.bb_pos is None:
            button = self.rng.choice(active)
            if len(active) == 2:
                sb_pos, bb_pos = button, _next(active, button)
            else:
                sb_pos = _next(active, button)
                bb_pos = _next(active, sb_pos)
        elif len(active) == 2:
            bb_pos = _next(active, st.bb_pos)
            button = sb_pos = next(s for s in active if s != bb_pos)
        elif st.heads_up:  # leaving heads-up (a fresh table): plain rotation from the last button
            assert st.button is not None
            button = _next(active, st.button)
            sb_pos = _next(active, button)
            bb_pos = _next(active, sb_pos)
        else:
            bb_pos = _next(active, st.bb_pos)
            sb_pos = st.bb_pos
            button = st.sb_pos if st.sb_pos is not None else st.bb_pos
        if sb_pos is None:
            sb_pos = st.bb_pos
        sb_seat = sb_pos if sb_pos in active else None
        start = _next(list(range(1, self.seats + 1)), button)
        ring = list(range(start, self.seats + 1)) + list(range(1, start))
        dealt_in = tuple(s for s in ring if s in active)
        stacks = {s: st.stacks[s] for s in dealt_in}
        return Seating(button=button, sb_pos=sb_pos, sb_seat=sb_seat, bb_seat=bb_pos, dealt_in=dealt_in,
                       stacks=stacks, empty=empty)

    # ------------------------------------------------------------------ one hand (with retries)
    def _attempt(self, kind: str | None) -> SimHand | None:
        st = self.state
        rng_state = self.rng.getstate()
        saved = (dict(st.stacks), dict(st.players), st.uids, st.deck_id, list(self.pending), st.t)
        fault = self.known[kind](self.rng) if kind is not None else None
        if fault is not None and fault.reacts:
            # Drawn only when there is a choice, so the default keeps every seed's hands unchanged.
            many = len(self.reactions) > 1
            fault.reaction = self.rng.choice(self.reactions) if many else self.reactions[0]
        if st.redeal_seating is not None:  # a misdeal is redealt from the same button
            seating = st.redeal_seating
        elif st.game == "stud":
            seating = stud_seating(st.players, st.stacks, self.seats)
        else:
            seating = self.seating()
        if fault is not None and not fault.applicable(seating, self):
            self.rng.setstate(rng_state)
            return None
        clock = Clock(st.t, self.rng)
        style = fault.style if fault and fault.style else self.style
        play = self._play(seating, clock, style, fault)
        if fault is not None:
            fault.before_start(play, self)
        outcome = play.play()
        if fault is not None and not fault.fired:
            self.rng.setstate(rng_state)
            (st.stacks, st.players, st.uids, st.deck_id, self.pending, st.t) = (
                saved[0], saved[1], saved[2], saved[3], saved[4], saved[5])
            return None
        events: list[Event] = [*self.pending, *play.events]
        self.pending = []
        st.t = clock.t
        st.hand += 1
        if fault is not None:
            events.extend(fault.after_play(play, self, clock))
            st.t = clock.t
        if outcome.new_deck and self.use_uids:
            events.append(self.new_deck(clock))
            st.t = clock.t
        st.redeal = outcome.void
        st.redeal_seating = seating if outcome.void and kind != "BUTTON_WRONG" else None
        if not outcome.void:
            st.stacks.update(outcome.stacks)
            if st.game != "stud":  # stud has no button: the hold'em positions wait for the next round
                st.button, st.sb_pos, st.bb_pos = seating.button, seating.sb_pos, seating.bb_seat
                st.heads_up = len(seating.dealt_in) == 2
        return SimHand(number=st.hand, events=events, injected=fault.code if fault else None,
                       injected_seat=fault.seat if fault else None,
                       also=fault.also_codes() if fault else (), void=outcome.void,
                       stacks=dict(st.stacks), kind=kind if fault else None)

    def _play(self, seating: Seating, clock: Clock, style: Style, fault: object) -> HandPlay:
        """The hand's dealer: no-limit or limit hold'em, or stud."""
        st = self.state
        uids = st.uids if self.use_uids else None
        hooks = fault  # a Fault (or None): the Hooks protocol of controller/sim/hand.py
        if st.game == "stud":
            k = self.stakes()
            policy = Policy(self.rng, style=style, unit=k.small_bet)
            return StudPlay(seating=seating, stakes=k, profile=self.profile, deck=FULL_DECK, uids=uids,
                            clock=clock, rng=self.rng, policy=policy, fault=hooks,  # type: ignore[arg-type]
                            game="stud7" if self.game == "mixed" else None, limit=self.limit)
        sb, bb = self.level_blinds()
        policy = Policy(self.rng, style=style, unit=sb)
        limit = "fixed" if st.game == "limit" else self.limit  # mixed: limit hold'em (small bet = bb)
        return HandPlay(seating=seating, sb=sb, bb=bb, chip=1, profile=self.profile,
                        bb_ante=self.bb_ante and st.game == "holdem", deck=FULL_DECK, uids=uids, clock=clock,
                        rng=self.rng, policy=policy, fault=hooks,  # type: ignore[arg-type]
                        game="holdem" if self.game == "mixed" else None, limit=limit)


def _next(ring: list[int], seat: int) -> int:
    """The first seat of `ring` (sorted) clockwise after `seat`."""
    for s in ring:
        if s > seat:
            return s
    return ring[0]


__all__ = ["LEVELS", "LEVEL_HANDS", "REACTIONS", "SimHand", "VirtualTable"]
