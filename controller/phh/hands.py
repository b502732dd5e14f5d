"""Poker Hand History (PHH/PHHS) reading: TOML in, integer-chip hands and a step-by-step replay out.

A .phh file is TOML; a .phhs file is TOML whose tables [1], [2], … are hands. Amounts may be decimals
(cash games in dollars): the file's input amounts are scaled by one power of ten so all become integers
(see amounts.py; the results are never used for the unit).
No-limit and fixed-limit Texas hold'em ("NT", "FT") are played through here, fixed-limit seven-card stud
("F7S") in controller/phh/stud.py; other variants are rejected by name.
"""

from __future__ import annotations

import random
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Literal

from controller.core.cards import FULL_DECK, is_card
from controller.core.forced import UNKNOWN_STACK, AnteMode, ForcedBets, Post, posts_due
from controller.core.record import ActionRecord, BetStreet, HandRecord, RecordedAction
from controller.phh import fasttoml
from controller.phh.amounts import AmountError, result_list, to_units, unit_scale, units_list
from controller.phh.fields import FieldError, check_fields, check_shape

VARIANT_NAMES = {
    "NT": "no-limit Texas hold'em", "FT": "fixed-limit Texas hold'em", "PO": "pot-limit Omaha",
    "FO/8": "fixed-limit Omaha hi-lo", "F7S": "fixed-limit seven-card stud", "F7S/8": "seven-card stud hi-lo",
    "FR": "fixed-limit razz", "NS": "no-limit short-deck hold'em", "N2L1D": "no-limit 2-7 single draw",
    "F2L3D": "fixed-limit 2-7 triple draw", "FB": "fixed-limit badugi",
}
STREETS: tuple[BetStreet, ...] = ("preflop", "flop", "turn", "river")
HOLDEM_VARIANTS = ("NT", "FT")
PLAYABLE = ("NT", "FT", "F7S")  # the variants the table plays: hold'em (no and fixed limit) and stud
_PLAYER = re.compile(r"p[0-9]{1,3}")
_AMOUNT = re.compile(r"[0-9]{1,20}")
MAX_ACTIONS = 1_000  # far above any real hand; bounds the work a hostile file can ask for


@lru_cache(maxsize=1024)  # a file names the same few players thousands of times
def player_index(word: str, players: int) -> int:
    """`p3` → 2: a PHH action's player, checked against the hand's player count."""
    if not _PLAYER.fullmatch(word) or not 1 <= int(word[1:]) <= players:
        raise PhhError(f"unknown player {word!r}")
    return int(word[1:]) - 1


class PhhError(ValueError):
    """A PHH file that cannot be read or played (one line, names the hand and the problem)."""


@dataclass(frozen=True, kw_only=True)
class PhhHand:
    """One hand with input amounts in integer units (`scale` units per unit of the file).

    The recorded results (`finishing_stacks`, `winnings`) stay in the file's units: they are compared
    with, never used to play. A starting stack of `inf` (not recorded) is UNKNOWN_STACK units.
    """

    key: str  # the [n] table name of a .phhs file, "1" for a .phh file
    variant: str
    antes: list[int]
    blinds: list[int]  # signed as in the file (a negative entry: a post that does not open like a blind)
    min_bet: int
    starting_stacks: list[int]
    actions: list[str]
    scale: int
    players: list[str] | None = None
    seats: list[int] | None = None
    finishing_stacks: list[Decimal] | None = None
    winnings: list[Decimal] | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    bring_in: int = 0  # F7S: the bring-in; FT and F7S: the small and big bet (PHH required fields)
    small_bet: int = 0
    big_bet: int = 0

    @property
    def n(self) -> int:
        return len(self.starting_stacks)

    def seat_numbers(self) -> list[int]:
        """Table seat of p1…pN: the file's `seats`, else 1…N."""
        return list(self.seats) if self.seats else list(range(1, self.n + 1))

    def ante_of(self, i: int) -> int:
        """Ante owed by player index i (heads-up lists are in blind order, as PokerKit reads them)."""
        j = (1 - i) if self.n == 2 else i
        return self.antes[j] if j < len(self.antes) else 0

    def blind_of(self, i: int) -> int:
        j = (1 - i) if self.n == 2 else i
        return abs(self.blinds[j]) if j < len(self.blinds) else 0

    def unknown_stacks(self) -> list[bool]:
        return [s >= UNKNOWN_STACK for s in self.starting_stacks]

    def blind_indices(self) -> tuple[int | None, int]:
        """(small blind, big blind) player indices: heads-up p2 is the button and small blind. A dead
        small blind (PHH `[bb, 0, …]`: only p1 posts, as the big blind) gives (None, 0)."""
        if self.n == 2:
            return 1, 0
        if self.blinds[0] > 0 and self.blinds[1] == 0 and self.n > 2:
            return None, 0
        return 0, 1

    def forced(self) -> ForcedBets:
        """The hand's forced bets as data (player indices for seats); what cannot be played is refused."""
        cached: ForcedBets | None = self.__dict__.get("_forced")
        if cached is not None:  # asked several times per import; the hand is immutable
            return cached
        fb = self._forced()
        self.__dict__["_forced"] = fb
        return fb

    def _forced(self) -> ForcedBets:
        sb_i, bb_i = self.blind_indices()
        antes = [self.ante_of(i) for i in range(self.n)]
        paying = [i for i, a in enumerate(antes) if a]
        mode: AnteMode = "each"
        if len(paying) == 1 and paying[0] in (bb_i, self.n - 1):
            mode = "bb" if paying[0] == bb_i else "button"
        elif paying and (len(paying) != self.n or len(set(antes)) != 1):
            raise PhhError(f"antes {antes}: neither the same ante from every player nor one from the big "
                           f"blind or the button only")
        straddles: list[int] = []
        posts: dict[int, int] = {}
        for i in range(bb_i + 1, self.n):
            amount = self.blinds[i] if self.n > 2 else 0
            if amount > 0 and not posts and len(straddles) == i - bb_i - 1:
                straddles.append(amount)  # PHH: positive entries right after the big blind straddle
            elif amount > 0:
                raise PhhError(f"blinds_or_straddles: p{i + 1} straddles out of order (straddles follow the "
                               f"big blind seat by seat)")
            elif amount < 0:
                posts[i] = -amount  # a post that does not straddle (a player coming back)
        sb = self.blind_of(sb_i) if sb_i is not None else 0
        bb = self.blind_of(bb_i) if self.n == 2 else self.blinds[bb_i]
        if bb <= 0 or sb > bb or sb < 0:
            raise PhhError(f"blinds_or_straddles {self.blinds}: no big blind the table can take")
        return ForcedBets(sb=sb, bb=bb, ante=max(antes, default=0), ante_mode=mode,
                          straddles=tuple(straddles), posts=posts)

    def posts(self) -> list[Post]:
        """The forced bets as posted, with player indices for seats (short stacks as the table takes them)."""
        cached: list[Post] | None = self.__dict__.get("_posts")
        if cached is not None:  # asked several times per import; the hand is immutable
            return cached
        sb_i, bb_i = self.blind_indices()
        posts = posts_due(self.forced(), button=self.n - 1, sb_seat=sb_i, bb_seat=bb_i,
                          order=list(range(self.n)), stacks=dict(enumerate(self.starting_stacks)))
        self.__dict__["_posts"] = posts
        return posts


def parse_phh(text: str, *, name: str = "input") -> list[PhhHand]:
    """Every hand of a .phh or .phhs text, in file order (any hand that cannot be read: PhhError)."""
    hands, errors = parse_phh_lenient(text, name=name)
    if errors:
        raise errors[0]
    return hands


def parse_phh_lenient(text: str, *, name: str = "input") -> tuple[list[PhhHand], list[PhhError]]:
    """The hands that can be read and one error per hand that cannot (a broken file: one error)."""
    try:
        data = fasttoml.loads(text)  # the plain PHH subset, fast; anything else (and every error): tomllib
        if data is None:
            data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"{name}: not PHH/TOML ({exc})") from None
    except RecursionError:
        raise PhhError(f"{name}: not PHH/TOML (nested too deeply)") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise PhhError(f"{name}: not PHH/TOML ({str(exc).splitlines()[0][:120]})") from None
    if "actions" in data or "variant" in data:
        raws = [("1", data)]
    else:
        raws = [(k, v) for k, v in data.items() if isinstance(v, dict)]
        if not raws:
            raise PhhError(f"{name}: no hands found (expected PHH fields or [1], [2] … tables)")
        stray = [k for k, v in data.items() if not isinstance(v, dict)]
        if stray:
            raise PhhError(f"{name}: field {stray[0]!r} outside any hand table")
    try:
        scale = unit_scale(r for _, r in raws)
    except (AmountError, ArithmeticError) as exc:
        raise PhhError(f"{name}: {exc}") from None
    hands: list[PhhHand] = []
    errors: list[PhhError] = []
    for key, raw in raws:
        try:
            hands.append(_hand(key, raw, scale, name))
        except PhhError as exc:
            errors.append(exc)
    return hands, errors


def _hand(key: str, raw: dict[str, Any], scale: int, name: str) -> PhhHand:
    where = f"{name} hand {key}"
    try:
        variant = raw["variant"]
        if not isinstance(variant, str):
            raise PhhError("field 'variant' must be a string")
        stacks = units_list(raw["starting_stacks"], scale, "starting_stacks", unknown_ok=True)
        actions_raw = raw["actions"]
        if not isinstance(actions_raw, list) or not all(isinstance(a, str) for a in actions_raw):
            raise PhhError("field 'actions' must be a list of strings")
        if len(actions_raw) > MAX_ACTIONS:
            raise PhhError(f"field 'actions' holds {len(actions_raw)} actions (at most {MAX_ACTIONS})")
        if variant in PLAYABLE:
            check_fields(raw, variant)
            check_shape(raw, len(stacks))
            if not 2 <= len(stacks) <= 99:
                raise PhhError(f"field 'starting_stacks': {len(stacks)} players (2 to 99)")
            _check_limits(raw, variant, scale)
        actions = [_scaled_action(a, scale) for a in actions_raw]
        return PhhHand(
            key=key, variant=variant, scale=scale, starting_stacks=stacks, actions=actions,
            antes=units_list(raw.get("antes", [0] * len(stacks)), scale, "antes"),
            blinds=units_list(raw.get("blinds_or_straddles", [0] * len(stacks)), scale, "blinds_or_straddles",
                              signed=True),
            min_bet=to_units(raw.get("min_bet", 0), scale, "min_bet"),
            players=[str(p) for p in raw["players"]] if isinstance(raw.get("players"), list) else None,
            seats=list(raw["seats"]) if isinstance(raw.get("seats"), list) else None,
            finishing_stacks=(result_list(raw["finishing_stacks"], "finishing_stacks", unknown_ok=True)
                              if "finishing_stacks" in raw else None),
            winnings=result_list(raw["winnings"], "winnings") if "winnings" in raw else None,
            fields=raw,
            bring_in=to_units(raw.get("bring_in", 0), scale, "bring_in"),
            small_bet=to_units(raw.get("small_bet", 0), scale, "small_bet"),
            big_bet=to_units(raw.get("big_bet", 0), scale, "big_bet"),
        )
    except KeyError as exc:
        raise PhhError(f"{where}: missing field {exc.args[0]!r}") from None
    except (PhhError, AmountError, FieldError) as exc:
        raise PhhError(f"{where}: {exc}") from None
    except ArithmeticError:  # decimal overflow on an absurd exponent
        raise PhhError(f"{where}: an amount is out of range") from None


def _check_limits(raw: dict[str, Any], variant: str, scale: int) -> None:
    """The fixed-limit fields PHH requires of FT and F7S, positive and in order; stud has no blinds."""
    if variant == "NT":
        return
    need = ("bring_in", "small_bet", "big_bet") if variant == "F7S" else ("small_bet", "big_bet")
    amounts: dict[str, int] = {}
    for name in need:
        if name not in raw:
            raise PhhError(f"missing field {name!r} (required for {variant})")
        amounts[name] = to_units(raw[name], scale, name)
        if amounts[name] <= 0:
            raise PhhError(f"field {name!r} must be positive")
    if amounts["small_bet"] > amounts["big_bet"]:
        raise PhhError("field 'small_bet' is above 'big_bet'")
    if variant == "F7S":
        if amounts["bring_in"] > amounts["small_bet"]:
            raise PhhError("field 'bring_in' is above 'small_bet'")
        if any(b != 0 for b in raw.get("blinds_or_straddles", [])):
            raise PhhError("field 'blinds_or_straddles': stud has a bring-in, not blinds")


def _scaled_action(action: str, scale: int) -> str:
    """The action with a `cbr` amount in integer units."""
    if "cbr" not in action:
        return action  # no bet or raise: nothing to scale (most actions; parse speed)
    body, sep, comment = action.partition("#")
    words = body.split()
    if len(words) == 3 and words[1] == "cbr":
        try:
            amount = Decimal(words[2])
        except InvalidOperation:
            raise PhhError(f"action {action!r}: bad amount") from None
        try:
            words[2] = str(to_units(amount, scale, "cbr"))
        except AmountError as exc:
            raise PhhError(f"action {action!r}: {exc}") from None
        return " ".join(words) + (f" #{comment}" if sep else "")
    return action


def require_holdem(hand: PhhHand, name: str = "input") -> None:
    """No-limit or fixed-limit hold'em (NT, FT), which `Play` follows."""
    if hand.variant not in HOLDEM_VARIANTS:
        require_playable(hand, name)
        raise PhhError(f"{name} hand {hand.key}: variant {hand.variant!r} is not Texas hold'em")


def require_playable(hand: PhhHand, name: str = "input") -> None:
    """A variant the table plays: NT, FT (hold'em) or F7S (seven-card stud)."""
    if hand.variant not in PLAYABLE:
        title = VARIANT_NAMES.get(hand.variant, "an unknown variant")
        raise PhhError(f"{name} hand {hand.key}: variant {hand.variant!r} ({title}) is not played at the "
                       f"table; only NT, FT (hold'em) and F7S (seven-card stud) hands can be played")


# --- concrete cards -------------------------------------------------------------------------------------
def _cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _checked(text: str, n: int) -> list[str]:
    """Exactly `n` card codes (or `??`, a card not recorded) from a PHH card string."""
    cards = _cards(text)
    if len(text) != 2 * n or not all(is_card(c) or c == "??" for c in cards):
        raise PhhError(f"{text!r} is not {n} card(s) (rank + suit, e.g. 'Ts', or '??')")
    return cards


def concretize(hand: PhhHand, seed: str = "", *, invent: bool = True) -> tuple[PhhHand, list[str]]:
    """The hand with every `??` replaced by a card not otherwise in it, and three spare burn cards.

    Choices are deterministic for the hand (seeded by its key). Only test oracles invent cards; the
    importer passes `invent=False`: a hole card dealt `??` but shown later takes the shown card, every
    other `??` stays unknown, and a `sm ????` stays a hand kept face down.
    """
    known: set[str] = set()
    shown_later: dict[str, list[str]] = {}  # a hand dealt as ???? but shown at the end: the shown cards
    if not invent and not any("?" in a for a in hand.actions):
        return hand, []  # nothing unknown and nothing to invent: the hand as it is
    for a in hand.actions:
        words = a.split("#")[0].split()
        for w in words[2:]:
            known.update(c for c in _cards(w) if is_card(c))
        if len(words) == 3 and words[1] == "sm":
            shown_later[words[0]] = [c for c in _cards(words[2]) if is_card(c)]
    pool = [c for c in FULL_DECK if c not in known] if invent else []
    if invent:
        random.Random(f"{seed}/{hand.key}").shuffle(pool)
    hole_of: dict[str, list[str]] = {}
    dealt_known: dict[str, set[str]] = {}  # a player's hole cards the deals name (one or several actions)
    for a in hand.actions:
        words = a.split("#")[0].split()
        if len(words) == 4 and words[:2] == ["d", "dh"]:
            dealt_known.setdefault(words[2], set()).update(c for c in _cards(words[3]) if is_card(c))
    later_of = {p: [c for c in shown if c not in dealt_known.get(p, set())]
                for p, shown in shown_later.items()}
    out: list[str] = []
    for a in hand.actions:
        body, sep, comment = a.partition("#")
        words = body.split()
        if len(words) == 4 and words[:2] == ["d", "dh"]:
            later = later_of.get(words[2], [])
            cards = [c if c != "??" else later.pop(0) if later else pool.pop() if invent else c
                     for c in _cards(words[3])]
            hole_of.setdefault(words[2], []).extend(cards)
            words[3] = "".join(cards)
        elif len(words) == 3 and words[1] == "sm" and "?" in words[2] and invent:
            words[2] = "".join(hole_of.get(words[0], [])) or words[2]
        elif len(words) == 3 and words[:2] == ["d", "db"] and "?" in words[2] and invent:
            words[2] = "".join(c if c != "??" else pool.pop() for c in _cards(words[2]))
        out.append(" ".join(words) + (f" #{comment}" if sep else ""))
    burns = [pool.pop() for _ in range(3)] if invent else []
    fields = dict(hand.fields)
    fields["actions"] = out
    return PhhHand(**{**_plain(hand), "actions": out, "fields": fields}), burns


def _plain(hand: PhhHand) -> dict[str, Any]:
    return {k: getattr(hand, k) for k in ("key", "variant", "antes", "blinds", "min_bet", "starting_stacks",
                                           "actions", "scale", "players", "seats", "finishing_stacks",
                                           "winnings", "fields")}


# --- playing a hand through ----------------------------------------------------------------------------
StepKind = Literal["post", "hole", "board", "act", "show", "muck"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Step:
    """One thing that happens at the table, in order. `player` is the 0-based PHH index."""

    kind: StepKind
    player: int | None = None
    cards: tuple[str, ...] = ()
    action: RecordedAction | None = None
    total: int = 0  # the player's commitment this street after the step
    added: int = 0
    idle: bool = False  # a check nobody else could answer: every other live player is all-in


@dataclass
class Play:
    """A no-limit hold'em hand from PHH actions: what each step means in chips."""

    hand: PhhHand
    steps: list[Step] = field(default_factory=list)
    stacks: list[int] = field(default_factory=list)
    street_bets: list[int] = field(default_factory=list)
    committed: list[int] = field(default_factory=list)
    folded: set[int] = field(default_factory=set)
    all_in_order: list[int] = field(default_factory=list)
    hole: dict[int, list[str]] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    shown: dict[int, list[str]] = field(default_factory=dict)
    mucked: set[int] = field(default_factory=set)
    street: int = 0
    aggressor: dict[str, int | None] = field(default_factory=dict)
    # What `records` are made of, kept as plain tuples (street index, seat, action, total, added): only the
    # test oracles ask for the records, the importer never (import speed, bench/phh_bench.py).
    raw_records: list[tuple[int, int, RecordedAction, int, int]] = field(default_factory=list)

    @property
    def records(self) -> list[ActionRecord]:
        """Every post and action as the engine would record it (t = 0)."""
        return [ActionRecord(t=0.0, street=STREETS[street], seat=seat, action=action, total=total,
                             added=added) for street, seat, action, total, added in self.raw_records]

    @classmethod
    def run(cls, hand: PhhHand, name: str = "input") -> Play:
        require_holdem(hand, name)
        p = cls(hand=hand, stacks=list(hand.starting_stacks), street_bets=[0] * hand.n,
                committed=[0] * hand.n)
        try:
            p._post()
        except PhhError as exc:
            raise PhhError(f"{name} hand {hand.key}: {exc}") from None
        for i, a in enumerate(hand.actions):
            try:
                p._apply(a.split("#")[0].split())
            except PhhError as exc:
                raise PhhError(f"{name} hand {hand.key} action {i + 1} {a!r}: {exc}") from None
        return p

    def _put(self, i: int, amount: int) -> int:
        amount = min(amount, self.stacks[i])
        self.stacks[i] -= amount
        self.committed[i] += amount
        if self.stacks[i] == 0 and i not in self.all_in_order:
            self.all_in_order.append(i)
        return amount

    def _post(self) -> None:
        h = self.hand
        posts = h.posts()
        for p in sorted(posts, key=lambda p: p.live):  # antes first in the record, as the table's
            added = self._put(p.seat, p.amount)
            if not p.live:
                self.steps.append(Step(kind="post", player=p.seat, action="post_ante", total=0, added=added))
                self._record(p.seat, "post_ante", 0, added)
                continue
            self.street_bets[p.seat] += added
            kind: RecordedAction = "post_sb" if p.kind == "sb" else \
                "post_straddle" if p.kind == "straddle" else "post_bb"
            self.steps.append(Step(kind="post", player=p.seat, action=kind, total=self.street_bets[p.seat],
                                   added=added))
            self._record(p.seat, kind, self.street_bets[p.seat], added)

    def _record(self, i: int, action: RecordedAction, total: int, added: int) -> None:
        seat = self.hand.seats[i] if self.hand.seats else i + 1  # seat_numbers(), without the copy
        self.raw_records.append((self.street, seat, action, total, added))

    def _player(self, word: str) -> int:
        return player_index(word, self.hand.n)

    def _apply(self, w: list[str]) -> None:
        if not w:
            return
        if w[0] == "d":
            self._deal(w)
            return
        i = self._player(w[0])
        verb = w[1] if len(w) > 1 else ""
        if not self.street and any(len(c) < 2 for c in self.hole.values()):
            raise PhhError("a player dealt hole cards holds two before the betting")
        if verb == "f":
            self.folded.add(i)
            self._act(i, "fold", self.street_bets[i], 0)
        elif verb == "cc":
            target = min(max(self.street_bets), self.street_bets[i] + self.stacks[i])
            added = self._put(i, target - self.street_bets[i])
            self.street_bets[i] = target
            action: RecordedAction = "check" if added == 0 else "call"
            self._act(i, "allin" if added and self.stacks[i] == 0 else action, target, added)
        elif verb == "cbr" and len(w) == 3:
            self._raise(i, w[2])
        elif verb == "sm":
            self._show(i, w[2] if len(w) > 2 else "")
        elif verb == "sd":
            raise PhhError("drawing is not part of hold'em")
        else:
            raise PhhError("not a hold'em action")

    def _raise(self, i: int, amount_text: str) -> None:
        if not _AMOUNT.fullmatch(amount_text):
            raise PhhError(f"bad amount {amount_text!r}")
        target = int(amount_text)
        if target > self.street_bets[i] + self.stacks[i] or target <= self.street_bets[i]:
            raise PhhError(f"cannot bet to {amount_text} with {self.stacks[i]} units behind")
        facing = max(self.street_bets) > 0
        self._check_over_straddle(i, target)
        added = self._put(i, target - self.street_bets[i])
        self.street_bets[i] = target
        self.aggressor[STREETS[self.street]] = self.hand.seat_numbers()[i]
        action: RecordedAction = "allin" if self.stacks[i] == 0 else ("raise" if facing else "bet")
        self._act(i, action, target, added)

    def _check_over_straddle(self, i: int, target: int) -> None:
        """The first raise over a straddle must be at least the straddle again (to 8 over a 4 straddle),
        as rooms play it and the table rules (docs/phh.md); PokerKit allows less. A hand with a smaller
        raise that is not all in is refused: the table would not have let it stand as recorded."""
        straddles = self.hand.forced().straddles
        if self.street or not straddles or STREETS[0] in self.aggressor:
            return
        top = max(straddles)
        if target < 2 * top and target < self.street_bets[i] + self.stacks[i]:
            raise PhhError(f"raise to {target} over a straddle of {top}: the table's minimum raise is to "
                           f"{2 * top} (the straddle again)")

    def _act(self, i: int, action: RecordedAction, total: int, added: int) -> None:
        # Only a check can be idle: the other live players are asked about then only.
        idle = action == "check" and all(self.stacks[j] == 0 for j in range(self.hand.n)
                                         if j != i and j not in self.folded)
        self.steps.append(Step(kind="act", player=i, action=action, total=total, added=added, idle=idle))
        self._record(i, action, total, added)

    def _deal(self, w: list[str]) -> None:
        if len(w) == 4 and w[1] == "dh":
            # PHH deals hole cards in one action or one card per action (older files: 'd dh p1 7s' twice,
            # round by round, as a dealer pitches them); either way a player holds two.
            i = self._player(w[2])
            held = self.hole.setdefault(i, [])
            n = max(1, len(w[3]) // 2)
            if len(held) + n > 2 or self.street or any(s.kind == "act" for s in self.steps):
                raise PhhError(f"p{i + 1} is dealt more than two hole cards, or after the betting began")
            cards = _checked(w[3], n)
            held += cards
            self.steps.append(Step(kind="hole", player=i, cards=tuple(cards)))
        elif len(w) == 3 and w[1] == "db":
            if self.street >= 3:
                raise PhhError("more than three board deals")
            self.street += 1
            self.street_bets = [0] * self.hand.n
            cards = _checked(w[2], 3 if self.street == 1 else 1)
            self.board += cards
            self.steps.append(Step(kind="board", cards=tuple(cards)))
        else:
            raise PhhError("not a hold'em deal")

    def _show(self, i: int, cards: str) -> None:
        if cards in ("", "-"):
            if cards == "-":  # shown, cards not written: they are the hole cards
                self.shown[i] = list(self.hole.get(i, []))
                self.steps.append(Step(kind="show", player=i, cards=tuple(self.shown[i])))
            else:
                self.mucked.add(i)
                self.steps.append(Step(kind="muck", player=i, cards=tuple(self.hole.get(i, []))))
            return
        self.shown[i] = _checked(cards, 2)
        self.steps.append(Step(kind="show", player=i, cards=tuple(self.shown[i])))

    # --- the record the engine would have built ---------------------------------------------------------
    def to_record(self, *, table: str = "t1", number: int = 1, burns: list[str] | None = None) -> HandRecord:
        h = self.hand
        seats = h.seat_numbers()
        sb_i, bb_i = h.blind_indices()
        fb = h.forced()
        live = [i for i in range(h.n) if i not in self.folded]
        rec = HandRecord(
            table=table, hand=number, t_start=0.0, button=seats[-1],
            sb_seat=seats[sb_i] if sb_i is not None else None,
            bb_seat=seats[bb_i] if bb_i is not None else None,
            sb=fb.sb, bb=fb.bb,
            ante=max(h.antes, default=0), chip=1, dealt_in=tuple(seats),
            players={seats[i]: (h.players[i] if h.players else None) for i in range(h.n)},
            starting_stacks={seats[i]: h.starting_stacks[i] for i in range(h.n)},
            hole={seats[i]: list(c) for i, c in self.hole.items()}, board=list(self.board),
            burns=list(burns or []), actions=list(self.records),
            committed={seats[i]: self.committed[i] for i in range(h.n)},
            folded={seats[i] for i in self.folded}, all_in_order=[seats[i] for i in self.all_in_order],
            shown={seats[i]: list(c) for i, c in self.shown.items()},
            mucked_unshown={seats[i] for i in self.mucked if i not in self.shown},
            last_aggressor=dict(self.aggressor), ended="showdown" if len(live) > 1 else "fold",
        )
        return rec
