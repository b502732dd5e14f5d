"""Fixed-limit seven-card stud (PHH variant F7S) played through at PHH level: what each action means.

PHH writes stud with the same actions as hold'em plus `pN pb` (the bring-in): `d dh pN` deals a player his
cards street by street (three on 3rd street, then one per street), `cbr` completes, bets or raises to an
amount, `cc` checks or calls, `sm` shows (or, without cards, mucks). Whether a card lies face up or face
down is not written: the variant's deal plan says it (002 §2–7): on 3rd street the first two cards are
down and the third up, 4th–6th street up, 7th street down. Players p1…pN are clockwise from the dealer's
left (the PHH standard's order for games without a button).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from controller.core.cards import is_card
from controller.phh.hands import PhhError, PhhHand, Step, player_index

_AMOUNT = re.compile(r"[0-9]{1,20}")
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
THIRD_UP = (False, False, True)  # 3rd street: two down, one up


def up_plan(already: int, count: int) -> tuple[bool, ...]:
    """Face up (True) or down for `count` cards dealt to a seat that holds `already` cards (002 §2–7)."""
    plan = (*THIRD_UP, True, True, True, False)
    if already + count > len(plan):
        raise PhhError(f"more than seven cards to one player ({already} + {count})")
    return plan[already:already + count]


@dataclass(frozen=True, kw_only=True, slots=True)
class StudStep:
    """One thing at the table: a `Step` with, for dealt cards, which of them lie face up."""

    step: Step
    up: tuple[bool, ...] = ()
    street: int = 0  # 0 = 3rd street … 4 = 7th street


@dataclass
class StudPlay:
    """A fixed-limit stud hand from PHH actions: antes, cards with their faces, betting totals per street."""

    hand: PhhHand
    steps: list[StudStep] = field(default_factory=list)
    stacks: list[int] = field(default_factory=list)
    street_bets: list[int] = field(default_factory=list)
    committed: list[int] = field(default_factory=list)
    antes: list[int] = field(default_factory=list)
    folded: set[int] = field(default_factory=set)
    cards: dict[int, list[str]] = field(default_factory=dict)
    up: dict[int, list[str]] = field(default_factory=dict)
    shown: dict[int, list[str]] = field(default_factory=dict)
    mucked: set[int] = field(default_factory=set)
    street: int = 0

    @classmethod
    def run(cls, hand: PhhHand, name: str = "input") -> StudPlay:
        if hand.variant != "F7S":
            raise PhhError(f"{name} hand {hand.key}: variant {hand.variant!r} is not seven-card stud")
        p = cls(hand=hand, stacks=list(hand.starting_stacks), street_bets=[0] * hand.n,
                committed=[0] * hand.n, antes=[0] * hand.n)
        for i in range(hand.n):  # antes first (002 §1); a short stack antes what it has
            p.antes[i] = p._put(i, hand.ante_of(i))
        for k, a in enumerate(hand.actions):
            try:
                p._apply(a.split("#")[0].split())
            except PhhError as exc:
                raise PhhError(f"{name} hand {hand.key} action {k + 1} {a!r}: {exc}") from None
        if not p._third_dealt():
            raise PhhError(f"{name} hand {hand.key}: 3rd street deals three cards to each player")
        return p

    def _third_dealt(self) -> bool:
        """Every player holds his three 3rd-street cards (dealt in one action or one at a time)."""
        return all(len(self.cards.get(i, ())) >= 3 for i in range(self.hand.n))

    @property
    def hole(self) -> dict[int, list[str]]:
        """Every player's cards as dealt (the importer mucks them on a fold)."""
        return self.cards

    def _put(self, i: int, amount: int) -> int:
        amount = min(amount, self.stacks[i])
        self.stacks[i] -= amount
        self.committed[i] += amount
        return amount

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
        if self.street == 0 and not self._third_dealt():
            raise PhhError("3rd street deals three cards to each player before the bring-in")
        if i in self.folded and verb != "sm":
            raise PhhError(f"p{i + 1} acts after folding")
        if verb == "f":
            self.folded.add(i)
            self._act(i, "fold", self.street_bets[i], 0)
        elif verb == "pb":
            if self.street != 0 or any(st.step.kind == "act" for st in self.steps):
                raise PhhError("a bring-in is only the first bet of 3rd street")
            self._to(i, self.hand.bring_in, "bet", forced=True)
        elif verb == "cc":
            target = min(max(self.street_bets), self.street_bets[i] + self.stacks[i])
            added = target - self.street_bets[i]
            self._to(i, target, "call" if added else "check")
        elif verb == "cbr" and len(w) == 3:
            if not _AMOUNT.fullmatch(w[2]):
                raise PhhError(f"bad amount {w[2]!r}")
            target = int(w[2])
            if target <= max(self.street_bets) or target > self.street_bets[i] + self.stacks[i]:
                raise PhhError(f"cannot bet to {w[2]} (current bet {max(self.street_bets)}, "
                               f"{self.stacks[i]} behind)")
            self._to(i, target, "raise" if max(self.street_bets) > 0 else "bet")
        elif verb == "sm":
            self._show(i, w[2] if len(w) > 2 else "")
        else:
            raise PhhError("not a seven-card stud action")

    def _to(self, i: int, target: int, action: str, *, forced: bool = False) -> None:
        """Put the player's street total up to `target` (a short stack: all it has). An all-in is logged
        as `allin` like in hold'em, except the bring-in, which §1a logs as a `bet` whatever its size."""
        added = self._put(i, target - self.street_bets[i])
        self.street_bets[i] += added
        if added and self.stacks[i] == 0 and not forced:
            action = "allin"
        self._act(i, action, self.street_bets[i], added)

    def _act(self, i: int, action: str, total: int, added: int) -> None:
        others = [j for j in range(self.hand.n) if j != i and j not in self.folded]
        idle = action == "check" and all(self.stacks[j] == 0 for j in others)
        self.steps.append(StudStep(step=Step(kind="act", player=i, action=action, total=total,  # type: ignore[arg-type]
                                             added=added, idle=idle), street=self.street))

    def _deal(self, w: list[str]) -> None:
        if len(w) != 4 or w[1] != "dh":
            raise PhhError("stud deals cards to players only ('d dh pN cards')")
        i = self._player(w[2])
        text = w[3]
        cards = [text[k:k + 2] for k in range(0, len(text), 2)]
        if len(text) % 2 or not cards or not all(is_card(c) or c == "??" for c in cards):
            raise PhhError(f"{text!r} is not a list of cards (rank + suit, or '??')")
        held = self.cards.setdefault(i, [])
        if i in self.folded:
            raise PhhError(f"p{i + 1} is dealt a card after folding")
        street = max(0, len(held) + len(cards) - 3)
        # 3rd street's three cards come in one action or one at a time (older files deal them round by
        # round, as the dealer pitches them); from 4th street on one card per action.
        late = len(held) >= 3 and len(cards) != 1
        if street < self.street or len(held) < 3 < len(held) + len(cards) or late:
            raise PhhError("3rd street deals three cards to each player, later streets one")
        if street > self.street:  # the first card of a new street: the betting round before it is over
            self.street = street
            self.street_bets = [0] * self.hand.n
        up = up_plan(len(held), len(cards))
        for c, face_up in zip(cards, up, strict=True):
            if face_up and not is_card(c):
                raise PhhError(f"an up-card of p{i + 1} is not recorded ('??'); the table sees every up-card")
            if face_up:
                self.up.setdefault(i, []).append(c)
        held += cards
        self.steps.append(StudStep(step=Step(kind="hole", player=i, cards=tuple(cards)), up=up,
                                   street=street))

    def _show(self, i: int, text: str) -> None:
        if text in ("", "-"):
            if text == "-":
                self.shown[i] = list(self.cards.get(i, []))
                self.steps.append(StudStep(step=Step(kind="show", player=i, cards=tuple(self.shown[i]))))
            else:
                self.mucked.add(i)
                self.steps.append(StudStep(step=Step(kind="muck", player=i,
                                                     cards=tuple(self.cards.get(i, [])))))
            return
        cards = [text[k:k + 2] for k in range(0, len(text), 2)]
        if len(text) % 2 or not all(is_card(c) or c == "??" for c in cards):
            raise PhhError(f"{text!r} is not a list of cards")
        held = self.cards.get(i, [])
        if len(cards) != len(held):
            raise PhhError(f"p{i + 1} shows {len(cards)} cards but holds {len(held)}")
        # the shown cards name the face-down ones the deal left unread
        self.cards[i] = [h if is_card(h) else c for h, c in zip(held, cards, strict=True)]
        self.shown[i] = list(cards)
        self.steps.append(StudStep(step=Step(kind="show", player=i, cards=tuple(cards))))


__all__ = ["STUD_STREETS", "StudPlay", "StudStep", "up_plan"]
