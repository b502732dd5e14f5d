"""The showdown of one hand and its settlement: who shows first, cards speak, pots pushed, stacks after."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.core.alerts import Finding
from controller.core.cards import is_card, seat_of_zone
from controller.core.evaluate import HandValue, evaluate, plays_the_board, rank_of
from controller.core.events import CardSeen, Event, Exposed
from controller.core.pots import (
    OddChipOrder,
    Pot,
    build_pots,
    button_order,
    odd_chip_rule,
    split,
    uncalled_bet,
)
from controller.core.profiles import Profile
from controller.core.record import HandRecord


@dataclass(frozen=True, kw_only=True)
class Settlement:
    """What the hand's end decided: findings to raise, every dealt-in seat's stack, the …/hands payload."""

    findings: list[Finding]
    finishing_stacks: dict[int, int]
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True, slots=True)
class PotResult:
    """One pot as pushed: winners with their shares and the hand that won it (None: won uncontested)."""

    pot: Pot
    shares: dict[int, int]
    value: HandValue | None

    def to_json(self) -> dict[str, Any]:
        return {
            "amount": self.pot.amount,
            "eligible": list(self.pot.eligible),
            "winners": {str(s): n for s, n in self.shares.items()},
            "hand": self.value.category if self.value else None,
            "best5": list(self.value.best5) if self.value else [],
        } | ({} if self.shares else {"result": "unknown"})


def antes_of(record: HandRecord) -> dict[int, int]:
    """Chips each seat posted as ante (dead money for the main pot, not a contribution to a level). In a
    game whose antes are live (`record.antes_live`, stud: every seat antes and a short ante is a short
    contribution like any other) there is no dead ante money."""
    out: dict[int, int] = {}
    if record.antes_live:
        return out
    for a in record.actions:
        if a.action in ("post_ante", "post_dead"):  # dead blind chips are dead money like antes
            out[a.seat] = out.get(a.seat, 0) + a.added
    return out


class Showdown:
    """The showdown phase of one hand and its settlement (also for hands won by everyone else folding)."""

    def __init__(self, record: HandRecord, profile: Profile, *, merge_equal_pots: bool = False,
                 odd_chip_order: OddChipOrder = button_order) -> None:
        """`merge_equal_pots`: once the losing hands are out, pots left to the same seats are split as one
        (PokerKit's way; it moves odd chips). Off by default: 001 §9.1 splits every side pot on its own.
        `odd_chip_order`: the game's order of tied winners for the odd chips (the hand passes its game's,
        `GamePlan.odd_chip_order`; default: from the button's left).
        """
        self.record = record
        self.profile = profile
        self.merge_equal_pots = merge_equal_pots
        self.odd_chip_order = odd_chip_order
        self._rank_cache: dict[int, int] | None = None
        self._value_cache: dict[int, HandValue] = {}
        self._shown_cache: dict[int, bool] = {}
        self.shown: dict[int, list[str]] = {s: list(c) for s, c in record.shown.items()}
        self.mucked: set[int] = set(record.mucked_unshown)
        self.muck_order: list[int] = list(record.muck_order)
        self._uncalled_done = False

    # --- contributions -------------------------------------------------------------------------------
    def _contributions(self) -> tuple[dict[int, int], int, tuple[int, int] | None]:
        """Per-seat chips without antes (uncalled part removed), the antes' total, and the uncalled bet."""
        antes = antes_of(self.record)
        contrib = {s: self.record.committed.get(s, 0) - antes.get(s, 0) for s in self.record.dealt_in}
        unc = uncalled_bet(contrib, self.record.live_seats()) or self._killed_raise(contrib)
        if unc is not None:
            contrib[unc[0]] -= unc[1]
        return contrib, sum(antes.values()), unc

    def _killed_raise(self, contrib: dict[int, int]) -> tuple[int, int] | None:
        """000 §1.5: a hand killed (dead, not folded) whose bet or raise nobody had called yet gets that
        uncalled part back; its blinds and calls stay in the pot."""
        unc = uncalled_bet(contrib)
        if unc is None or unc[0] not in self.record.dead:
            return None
        acts = self.record.actions
        last = next((a for a in reversed(acts) if a.seat == unc[0] and a.action != "fold"), None)
        return unc if last is not None and last.action in ("bet", "raise", "allin") else None

    def _uncalled_finding(self) -> list[Finding]:
        if self._uncalled_done:
            return []
        self._uncalled_done = True
        unc = self._contributions()[2]
        if unc is None:
            return []
        seat, amount = unc
        return [Finding(code="UNCALLED_BET", seat=seat, extra={"amount": amount},
                        message=f"Uncalled {amount} goes back to seat {seat}")]

    # --- phase API -----------------------------------------------------------------------------------
    def open(self, t: float) -> list[Finding]:
        """Betting is over: return the uncalled bet and, with two or more hands left, say who shows first."""
        findings = self._uncalled_finding()
        live = self.record.live_seats()
        if len(live) >= 2:
            first, why = self._first_to_show(live)
            i = live.index(first)
            order = live[i:] + live[:i]
            rec = self.record
            # A game that names its own first shower (stud: the highest hand showing) says so in the remedy;
            # hold'em keeps the catalogue's text.
            remedy = (f"The last bettor or raiser on the {rec.final_street} shows first; if all checked, the "
                      f"highest hand showing") if rec.show_first is not None else ""
            findings.append(Finding(code="SHOWDOWN_ORDER", seat=first, extra={"order": order},
                                    message=f"Seat {first} shows first ({why})", remedy=remedy))
        return findings

    def _first_to_show(self, live: list[int]) -> tuple[int, str]:
        rec = self.record
        final = rec.final_street
        aggressor = rec.last_aggressor.get(final)
        dealt = len(rec.board) >= 5 if rec.final_dealt is None else rec.final_dealt
        if dealt and aggressor in live:
            return aggressor, f"last bet or raise on the {final}"
        if rec.show_first in live:
            return rec.show_first, f"no bet on the {final}: the highest hand showing"
        return live[0], "no bet on the river: first seat left of the button"

    def on_card(self, ev: Event, card: str) -> list[Finding]:
        """A card after betting: face up at a seat counts as shown; a live hole card in the muck unseen."""
        if isinstance(ev, Exposed):
            seat = seat_of_zone(ev.zone)
            if seat is not None:
                self.shown_at(seat, card)
        elif isinstance(ev, CardSeen) and ev.zone == "muck":  # a card leaving a seat tells nothing
            self.mucked_card(card)
        return []

    def shown_at(self, seat: int, card: str) -> None:
        """`card` seen face up at `seat` (a `seatN` zone) after the betting: it counts as shown."""
        cards = self.shown.setdefault(seat, [])
        if card not in cards:
            cards.append(card)

    def mucked_card(self, card: str) -> None:
        """`card` reached the muck after the betting: its hand, unless shown, was mucked unseen."""
        for owner, cards in self.record.hole.items():  # `_owner`, inlined: every mucked card asks
            if card in cards:
                if card not in self.shown.get(owner, ()):
                    if owner not in self.mucked:
                        self.muck_order.append(owner)
                    self.mucked.add(owner)
                break

    # --- settlement ----------------------------------------------------------------------------------
    def settle(self, t: float) -> Settlement:
        """Award every pot and compute the stacks; call at the latest when the next hand starts."""
        rec = self.record
        if rec.ended in ("misdeal", "fouled_deck"):
            stacks = {s: rec.starting_stacks.get(s, 0) for s in rec.dealt_in}
            summary = self._summary(t, [], stacks, None)
            return Settlement(findings=[], finishing_stacks=stacks, summary=summary)
        self._shown_cache.clear()
        self._rank_cache = None
        findings = self._uncalled_finding()
        contrib, dead_money, unc = self._contributions()
        live = rec.live_seats()
        pots = build_pots(contrib, live, dead_money)
        if len(live) == 1:
            results = [PotResult(pot=p, shares={live[0]: p.amount}, value=None) for p in pots]
        else:
            results, lost = self._showdown_results(pots, live)
            findings += lost
            if self.merge_equal_pots:
                contenders = {w for r in results for w in r.shares}
                merged = build_pots(contrib, [s for s in live if s in contenders], dead_money)
                results = self._showdown_results(merged, live)[0]
        won: dict[int, int] = {}
        for r in results:
            for s, n in r.shares.items():
                won[s] = won.get(s, 0) + n
        stacks = {s: rec.starting_stacks.get(s, 0) - rec.committed.get(s, 0) + won.get(s, 0)
                  for s in rec.dealt_in}
        if unc is not None:
            stacks[unc[0]] += unc[1]
        if results:
            findings.append(self._award_finding(results))
        findings += self._elimination(stacks)
        return Settlement(findings=findings, finishing_stacks=stacks,
                          summary=self._summary(t, results, stacks, unc))

    def unfinished(self, t: float) -> dict[str, Any]:
        """The summary of a hand that stopped before its betting was over (its log or history ends, or the
        next hand starts): no pot is awarded and the result is unknown; the chips in the pot stay out of
        every stack, and no stack, card or winner is made up (docs/phh.md "Never invent a card")."""
        rec = self.record
        stacks = {s: rec.starting_stacks.get(s, 0) - rec.committed.get(s, 0) for s in rec.dealt_in}
        return self._summary(t, [], stacks, None) | {"ended": "unfinished", "result": "unknown"}

    def _cards_of(self, seat: int) -> list[str]:
        return self.record.hole.get(seat) or self.shown.get(seat) or []

    def _ranks(self, live: list[int]) -> dict[int, int]:
        """The hand rank of every live seat whose hole cards are known (RFID or shown)."""
        if self._rank_cache is None:
            out: dict[int, int] = {}
            for s in live:
                hole = self._cards_of(s)
                readable = all(map(is_card, hole))  # an unread card (`??n`) is never evaluated
                if readable and len(hole) >= 2 and 5 <= len(hole) + len(self.record.board) <= 7:
                    out[s] = rank_of([*hole, *self.record.board])
            self._rank_cache = out
        return self._rank_cache

    def _value(self, seat: int) -> HandValue:
        """Name and best five cards, worked out only for hands that win something or are reported."""
        if seat not in self._value_cache:
            self._value_cache[seat] = evaluate(self._cards_of(seat), self.record.board)
        return self._value_cache[seat]

    def _has_shown(self, seat: int) -> bool:
        """Every hole card of the seat was seen face up (cached: asked once per pot and seat)."""
        done = self._shown_cache.get(seat)
        if done is None:
            hole = self.record.hole.get(seat)
            shown = self.shown.get(seat, [])
            done = bool(shown) and (set(hole) <= set(shown) if hole else len(shown) >= 2)
            self._shown_cache[seat] = done
        return done

    def _showdown_results(self, pots: list[Pot], live: list[int]) -> tuple[list[PotResult], list[Finding]]:
        """Cards speak, pot by pot from the last side pot down to the main pot (000 §4.1)."""
        values = self._ranks(live)
        findings: list[Finding] = []
        flagged: set[tuple[str, int]] = set()
        results: list[PotResult] = []
        rule = odd_chip_rule(self.profile)
        for i, pot in reversed(list(enumerate(pots))):
            if len(pot.eligible) == 1:
                # Uncontested: the others folded before the showdown, so this pot is its only claimant's
                # whatever it does with its cards (000 §4.1: a bet nobody calls wins unseen). Mucking after
                # losing another pot is no mucked winner.
                only = pot.eligible[0]
                value = self._value(only) if only in values and self._has_shown(only) else None
                results.append(PotResult(pot=pot, shares={only: pot.amount}, value=value))
                continue
            known = [s for s in pot.eligible if s in values]
            standing = [s for s in pot.eligible if s not in self.mucked or s in values]
            if len(standing) == 1 and standing[0] not in values:
                # Every other claimant mucked cards nobody read: the one left takes the pot, unseen.
                results.append(PotResult(pot=pot, shares={standing[0]: pot.amount}, value=None))
                continue
            if self._unknown_result(pot, known):
                # A claimant kept unread cards face down and no readable hand was tabled: who won is not
                # known, and nothing is made up (docs/phh.md "Never invent a card").
                self.record.unknown.append(i)
                results.append(PotResult(pot=pot, shares={}, value=None))
                continue
            if not known:  # nobody's cards can be read: the pot is shared by its claimants
                winners = self.odd_chip_order(pot.eligible, self.record)
                results.append(PotResult(pot=pot, shares=split(pot.amount, winners, self.record.chip, rule),
                                         value=None))
                continue
            best = min(values[s] for s in known)
            claim = [s for s in known if self._has_shown(s)]
            for s in known:
                if self._has_shown(s) or values[s] != best:
                    continue
                if self._sole_claimant(pot, s):
                    claim.append(s)  # the others gave up: it wins unseen, nothing to report
                    continue
                if plays_the_board(self.record.hole.get(s, []), self.record.board):
                    if self._last_to_muck(pot, s):
                        claim.append(s)  # it was the only claim left when it mucked: it wins (000 §4.1)
                        continue
                    if ("board", s) not in flagged:
                        flagged.add(("board", s))
                        findings.append(self._board_finding(s))
                    continue
                claim.append(s)
                if ("mucked", s) not in flagged:
                    flagged.add(("mucked", s))
                    findings.append(self._mucked_finding(s, self._value(s)))
            claim = claim or known
            top = min(values[s] for s in claim)
            winners = self.odd_chip_order([s for s in claim if values[s] == top], self.record)
            results.append(PotResult(pot=pot, shares=split(pot.amount, winners, self.record.chip, rule),
                                     value=self._value(winners[0])))
        results.reverse()
        return results, findings

    def _sole_claimant(self, pot: Pot, seat: int) -> bool:
        """000 §4.1: once every other claimant of the pot has mucked without showing, the seat left wins
        it without a showdown; only a hand among rival claims has to be shown (001 §9 lets losers muck)."""
        return seat not in self.mucked and all(s in self.mucked for s in pot.eligible if s != seat)

    def _last_to_muck(self, pot: Pot, seat: int) -> bool:
        """Every claimant of the pot mucked unseen and this seat did so last: when it mucked it was the only
        claim left (the others had given theirs up, 003 (11) for a board player), so the pot is its own
        (000 §4.1), not shared among hands that all lost their claim."""
        order = [s for s in self.muck_order if s in pot.eligible]
        return (bool(order) and order[-1] == seat
                and all(s in self.mucked for s in pot.eligible))

    def _unknown_result(self, pot: Pot, known: list[int]) -> bool:
        unread = [s for s in pot.eligible if s not in self.mucked
                  and not all(map(is_card, self.record.hole.get(s) or ["??"]))]
        return bool(unread) and not any(self._has_shown(s) for s in known)

    def _board_finding(self, seat: int) -> Finding:
        return Finding(code="PLAY_THE_BOARD_UNDECLARED", seat=seat, cards=tuple(self.record.board),
                       message=f"Seat {seat} plays the board but did not show its hole cards: no claim")

    def _mucked_finding(self, seat: int, value: HandValue) -> Finding:
        how = "mucked" if seat in self.mucked else "not shown"
        return Finding(code="MUCKED_WINNER", seat=seat, cards=value.best5,
                       message=f"Seat {seat}'s winning hand ({value.category}) was {how}; it is identifiable "
                               f"and still wins")

    def _award_finding(self, results: list[PotResult]) -> Finding:
        parts = []
        for i in reversed(range(len(results))):
            r = results[i]
            name = "main pot" if i == 0 else f"side pot {i}"
            who = ", ".join(f"seat {s} {n}" for s, n in r.shares.items())
            who = who or "result unknown (hands not shown)"
            hand = f" ({r.value.category})" if r.value else ""
            parts.append(f"{name} {r.pot.amount}: {who}{hand}")
        first = next((s for r in reversed(results) for s in r.shares), None)
        return Finding(code="POT_AWARD", seat=first, message="; ".join(parts),
                       extra={"pots": [r.to_json() for r in results]})

    def _elimination(self, stacks: dict[int, int]) -> list[Finding]:
        """001 §10: more chips at the start places higher; equal stacks: the later all-in places higher."""
        rec = self.record
        busted = [s for s in rec.dealt_in if stacks[s] == 0 and rec.starting_stacks.get(s, 0) > 0]
        if len(busted) < 2:
            return []
        allin_pos = {s: i for i, s in enumerate(rec.all_in_order)}
        order = sorted(busted, key=lambda s: (-rec.starting_stacks.get(s, 0), -allin_pos.get(s, -1)))
        text = " > ".join(f"seat {s}" for s in order)
        return [Finding(code="ELIMINATION_ORDER", seat=order[0], extra={"order": order},
                        message=f"{len(order)} players out in this hand, placed best first: {text}")]

    # --- the …/hands payload ---------------------------------------------------------------------------
    def _summary(self, t: float, results: list[PotResult], stacks: dict[int, int],
                 unc: tuple[int, int] | None) -> dict[str, Any]:
        rec = self.record
        return {
            "table": rec.table,
            "hand": rec.hand,
            "t_start": rec.t_start,
            "t_end": rec.t_end if rec.t_end is not None else t,
            "ended": rec.ended,
            "button": rec.button,
            "sb_seat": rec.sb_seat,
            "bb_seat": rec.bb_seat,
            "blinds": _blinds(rec),
            "seats": [{"seat": s, "player": rec.players.get(s), "start": rec.starting_stacks.get(s, 0),
                       "end": stacks.get(s, 0)} for s in rec.dealt_in],
            "actions": [{"t": a.t, "street": a.street, "seat": a.seat, "action": a.action,
                         "total": a.total, "added": a.added} for a in rec.actions],
            "board": list(rec.board),
            "burns": list(rec.burns),
            "shown": {str(s): list(c) for s, c in sorted(self.shown.items()) if s in rec.dealt_in},
            "uncalled": {"seat": unc[0], "amount": unc[1]} if unc else None,
            "pots": [r.to_json() for r in results],
            "notes": list(rec.notes),
        } | ({"result": "unknown"} if rec.unknown else {}) | _game(rec)


def _game(rec: HandRecord) -> dict[str, Any]:
    """The game of a hand other than hold'em (contract v1.1 §1a; absent means hold'em, as in `level`)."""
    return {"game": rec.game} if rec.game != "holdem" else {}


def _blinds(rec: HandRecord) -> dict[str, Any]:
    """The level of the hand; the extensions only when they differ from the contract's defaults."""
    out: dict[str, Any] = {"sb": rec.sb, "bb": rec.bb, "ante": rec.ante, "chip": rec.chip}
    if rec.ante_mode != "each":
        out["ante_mode"] = rec.ante_mode
    if rec.scale != 1:
        out["scale"] = rec.scale
    return out
