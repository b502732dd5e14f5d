"""Hand histories: a finished hand's …/hands summary written in the PHH standard format (and PHHS files)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.core.alerts import Alert
from controller.core.events import CardSeen, DeckEvent, Event, HandStart
from controller.core.forced import UNKNOWN_STACK
from controller.core.table import Level

_STREET_BOARD = {"flop": (0, 3), "turn": (3, 4), "river": (4, 5)}
_STREET_ORDER = ("preflop", "flop", "turn", "river")


def _q(text: str) -> str:
    """A TOML basic string (JSON escapes are valid TOML escapes)."""
    return json.dumps(text, ensure_ascii=False)


def _list(values: Iterable[Any]) -> str:
    return "[" + ", ".join(_q(v) if isinstance(v, str) else str(v) for v in values) + "]"


def summary_json(summary: Mapping[str, Any]) -> str:
    """The `…/hands` payload as one canonical JSON line (sorted keys, compact): stable across replays."""
    return json.dumps(summary, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


@dataclass(kw_only=True)
class TableSeen:
    """What the table saw of one hand beyond its summary: the level in force (game and betting structure,
    interfaces.md §1a) and every seat's cards in the order they were dealt (stud writes them per street)."""

    level: Level | None = None
    cards: dict[int, list[str]] = field(default_factory=dict)


def phh_text(summary: Mapping[str, Any], alerts: Sequence[Alert] = (), seen: TableSeen | None = None) -> str:
    """One hand as PHH (TOML). Players p1…pN are the dealt-in seats from the left of the button.

    Burns and irregularities have no PHH action; they go into the user-defined fields `_burns` and
    `_irregularities` (and a comment), so PHH readers that do not know them still read the hand.
    Fixed-limit hold'em is `FT` and fixed-limit stud `F7S` when `seen` names the level (stud:
    controller.core.history.stud_lines).
    """
    if variant(summary, seen) == "F7S":
        assert seen is not None and seen.level is not None
        return stud_text(summary, alerts, seen)
    seats = [int(s["seat"]) for s in summary["seats"]]
    index = {seat: i for i, seat in enumerate(seats)}
    blinds = summary["blinds"]
    scale = int(blinds.get("scale", 1))
    head = f"# cardtable hand {summary['hand']} at table {summary['table']}, button seat {summary['button']}"
    lines = [head]
    burns = list(summary.get("burns", []))
    if burns:
        lines.append(f"# burn cards: {' '.join(burns)}")
    irregular = [a for a in alerts if a.severity != "info"]
    for a in irregular:
        lines.append(f"# {a.code} ({a.severity}) seat {a.seat}: {a.message}")
    code = variant(summary, seen) or "NT"
    if code == "FT":  # fixed-limit hold'em: PHH names the two bet sizes instead of min_bet
        lv = seen.level if seen is not None and seen.level is not None else None
        small = lv.small_bet or lv.bb if lv is not None else int(blinds["small_bet"])
        big = lv.big_bet or 2 * small if lv is not None else int(blinds["big_bet"])
        sizes = [f"small_bet = {file_amount(small, scale)}", f"big_bet = {file_amount(big, scale)}"]
    else:
        sizes = [f"min_bet = {file_amount(blinds['bb'], scale)}"]
    lines += [
        f"variant = {_q(code)}",
        "ante_trimming_status = false",
        f"antes = {_amounts(_antes(summary, index), scale)}",
        f"blinds_or_straddles = {_amounts(_blinds(summary, index), scale)}",
        *sizes,
        f"starting_stacks = {_amounts((s['start'] for s in summary['seats']), scale)}",
        "actions = [",
        *(f"  {_q(a)}," for a in phh_actions(summary, index)),
        "]",
        *_closing_lines(summary, seats, scale),
    ]
    lines.append(f"_burns = {_list(burns)}")
    lines.append(f"_irregularities = {_list(f'{a.code} seat {a.seat}: {a.message}' for a in irregular)}")
    return "\n".join(lines) + "\n"


def _closing_lines(summary: Mapping[str, Any], seats: Sequence[int], scale: int) -> list[str]:
    """What every exported hand ends with, whatever the game: results, seats, hand, table, player names."""
    out = [*_result_lines(summary, scale), f"seats = {_list(seats)}", f"hand = {int(summary['hand'])}",
           f"table = {_q(str(summary['table']))}"]
    names = [s.get("player") for s in summary["seats"]]
    if any(n is not None for n in names):
        labels = [str(n) if n is not None else f"seat {s}" for n, s in zip(names, seats, strict=True)]
        out.append(f"players = {_list(labels)}")
    return out


def variant(summary: Mapping[str, Any], seen: TableSeen | None = None) -> str | None:
    """The PHH variant of a hand: NT (no-limit hold'em), FT (fixed-limit hold'em), F7S (fixed-limit stud);
    None for a game and structure PHH has no code for (pot-, spread- or split-limit stud or hold'em)."""
    blinds = summary.get("blinds", {})
    level = seen.level if seen is not None else None
    game = summary.get("game") or blinds.get("game") or (level.game if level else "holdem")
    limit = blinds.get("limit") or (level.limit if level else "no")
    return {("holdem", "no"): "NT", ("holdem", "fixed"): "FT", ("stud7", "fixed"): "F7S"}.get((game, limit))


def file_amount(units: int, scale: int = 1) -> str:
    """An amount in log units written in the hand's own units; a stack nobody recorded as `inf`."""
    if units >= UNKNOWN_STACK // 2:
        return "inf"
    if scale == 1:
        return str(units)
    whole, frac = divmod(units, scale)
    digits = len(str(scale)) - 1
    return f"{whole}.{frac:0{digits}d}".rstrip("0").rstrip(".") if frac else str(whole)


def _amounts(values: Iterable[int], scale: int) -> str:
    return "[" + ", ".join(_signed(int(v), scale) for v in values) + "]"


def _signed(v: int, scale: int) -> str:
    return ("-" if v < 0 else "") + file_amount(abs(v), scale)


def _result_lines(summary: Mapping[str, Any], scale: int) -> list[str]:
    """finishing_stacks (with `_net_results` when stacks were not known), or `_result = "unknown"` when a
    pot's winner cannot be told: no stacks are made up."""
    if summary.get("result") == "unknown":  # a pot nobody can tell, or a hand stopped before its end
        unfinished = summary.get("ended") == "unfinished"
        return ['_result = "unknown"'] + (["_unfinished = true"] if unfinished else [])
    seats = summary["seats"]
    out = [f"finishing_stacks = {_amounts((s['end'] for s in seats), scale)}"]
    if any(int(s["start"]) >= UNKNOWN_STACK // 2 for s in seats):
        out.append(f"_net_results = {_amounts((int(s['end']) - int(s['start']) for s in seats), scale)}")
    return out


def phhs_text(hands: Iterable[str]) -> str:
    """Several PHH hands as one PHHS file: tables [1], [2], …"""
    return "\n".join(f"[{i}]\n{text}" for i, text in enumerate(hands, start=1))


def _posted(summary: Mapping[str, Any], index: Mapping[int, int], kind: str, nominal: int) -> list[int]:
    out = [0] * len(index)
    for a in summary["actions"]:
        if a["action"] == kind and a["seat"] in index:
            out[index[a["seat"]]] = nominal
    return out


def _antes(summary: Mapping[str, Any], index: Mapping[int, int]) -> list[int]:
    """Nominal antes by player, plus dead blind chips: both are dead money for the main pot in PHH too.
    Heads-up lists are in blind order (PokerKit reads antes like blinds)."""
    out = _posted(summary, index, "post_ante", summary["blinds"]["ante"])
    for a in summary["actions"]:
        if a["action"] == "post_dead" and a["seat"] in index:
            out[index[a["seat"]]] += int(a["added"])
    return out[::-1] if len(out) == 2 else out  # heads-up: blind order, as for the blinds


def _blinds(summary: Mapping[str, Any], index: Mapping[int, int]) -> list[int]:
    """Nominal blinds and straddles by player; heads-up lists are in blind order (PokerKit reads them
    reversed). A live post out of position is negative, as PHH writes a post that does not straddle."""
    sb = _posted(summary, index, "post_sb", summary["blinds"]["sb"])
    bb = _posted(summary, index, "post_bb", summary["blinds"]["bb"])
    out = [max(a, b) for a, b in zip(sb, bb, strict=True)]
    bb_seat = summary.get("bb_seat")
    for a in summary["actions"]:
        if a["seat"] not in index:
            continue
        if a["action"] == "post_straddle":
            out[index[a["seat"]]] = int(a["total"])
        elif a["action"] == "post_bb" and a["seat"] != bb_seat:
            out[index[a["seat"]]] = -int(a["total"])
    return out[::-1] if len(out) == 2 else out


def phh_actions(summary: Mapping[str, Any], index: Mapping[int, int]) -> list[str]:
    """Deals, betting actions, shows and mucks as PHH action strings."""
    out: list[str] = []
    shown: Mapping[str, list[str]] = summary.get("shown", {})
    for seat, i in index.items():
        cards = shown.get(str(seat))
        out.append(f"d dh p{i + 1} {''.join(cards) if cards and len(cards) == 2 else '????'}")
    board: list[str] = list(summary["board"])
    street = "preflop"
    street_max = 0
    bets = [a for a in summary["actions"] if not str(a["action"]).startswith("post_")]
    for a in summary["actions"]:
        if str(a["action"]).startswith("post_") and a["action"] not in ("post_ante", "post_dead"):
            street_max = max(street_max, int(a["total"]))
    for a in bets:
        while _STREET_ORDER.index(a["street"]) > _STREET_ORDER.index(street):
            street = _STREET_ORDER[_STREET_ORDER.index(street) + 1]
            out += _deal_board(board, street)
            street_max = 0
        out.append(_action(a, index, street_max, int(summary["blinds"].get("scale", 1))))
        street_max = max(street_max, int(a["total"]))
    folded = {a["seat"] for a in bets if a["action"] == "fold"}
    live_shown = [int(s) for s in shown if int(s) in index and int(s) not in folded]
    for seat in live_shown:
        out.append(f"p{index[seat] + 1} sm {''.join(shown[str(seat)])}")
    while street != "river" and len(board) > _STREET_BOARD.get(street, (0, 0))[1]:
        street = _STREET_ORDER[_STREET_ORDER.index(street) + 1]
        out += _deal_board(board, street)
    return out


def _deal_board(board: Sequence[str], street: str) -> list[str]:
    lo, hi = _STREET_BOARD[street]
    cards = board[lo:hi]
    return [f"d db {''.join(cards)}"] if len(cards) == hi - lo else []


def _action(a: Mapping[str, Any], index: Mapping[int, int], street_max: int, scale: int = 1) -> str:
    p = f"p{index[a['seat']] + 1}"
    kind = a["action"]
    if kind == "fold":
        return f"{p} f"
    if kind in ("check", "call") or (kind == "allin" and int(a["total"]) <= street_max):
        return f"{p} cc"
    return f"{p} cbr {file_amount(int(a['total']), scale)}"


class PhhCollector:
    """Collects a session's finished hands as PHH, each with the irregularities raised in it."""

    def __init__(self) -> None:
        self.alerts: dict[int, list[Alert]] = {}
        self.hands: list[str] = []
        self.skipped = 0  # finished hands of a game/structure PHH has no variant for
        self.seen: dict[int, TableSeen] = {}
        self._uids: dict[str, str] = {}
        self._hand = 0

    def event(self, ev: Event, hand: int, level: Level | None) -> None:
        """An event the engine has just taken; `hand` is the engine's hand number now, `level` the level
        in force. Keeps each hand's level and cards (what a summary does not carry)."""
        if isinstance(ev, DeckEvent):
            self._uids = dict(ev.cards)
        elif isinstance(ev, HandStart):
            self._hand = hand
            self.seen[hand] = TableSeen(level=level)
        elif isinstance(ev, CardSeen) and ev.zone.startswith("seat") and self._hand in self.seen:
            card = ev.card or (self._uids.get(ev.uid, "??") if ev.uid else "??")
            self.seen[self._hand].cards.setdefault(int(ev.zone[4:]), []).append(card)

    def alert(self, alert: Alert) -> None:
        self.alerts.setdefault(alert.hand, []).append(alert)

    def summary(self, hand: int, payload: Mapping[str, Any]) -> None:
        """A finished hand, or one stopped before its end (written with its result unknown); misdealt (void)
        hands have no result and are left out, and so are hands of a game and structure PHH has no variant
        for, counted in `skipped`."""
        alerts = self.alerts.pop(hand, [])
        seen = self.seen.pop(hand, None)
        if "seats" in payload and payload.get("ended") in ("fold", "showdown", "unfinished"):
            if variant(payload, seen) is None:
                self.skipped += 1  # no PHH variant for this game and structure
                return
            self.hands.append(phh_text(payload, alerts, seen))

    def text(self) -> str:
        return phhs_text(self.hands)


# --- fixed-limit seven-card stud (PHH F7S) ----------------------------------------------------------------
_STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
_STUD_UP = (False, False, True, True, True, True, False)  # 002 §2–7: the face of the 1st … 7th card


def stud_text(summary: Mapping[str, Any], alerts: Sequence[Alert], seen: TableSeen) -> str:
    """One stud hand as PHH F7S: antes, bring-in, small and big bet; each player's cards per street as
    `d dh` (down-cards only when the hand was shown, as `??` otherwise; up-cards always: the table saw
    them), the bring-in as `pb`, completions, bets and raises as `cbr`, shown hands as `sm`."""
    assert seen.level is not None
    lv = seen.level
    seats = [int(s["seat"]) for s in summary["seats"]]  # from the dealer's left
    index = {seat: i for i, seat in enumerate(seats)}
    scale = int(summary["blinds"].get("scale", 1))
    antes = _posted(summary, index, "post_ante", int(summary["blinds"]["ante"]))
    irregular = [a for a in alerts if a.severity != "info"]
    lines = [f"# cardtable hand {summary['hand']} at table {summary['table']} (seven-card stud)"]
    lines += [f"# {a.code} ({a.severity}) seat {a.seat}: {a.message}" for a in irregular]
    lines += [
        'variant = "F7S"',
        "ante_trimming_status = true",
        f"antes = {_amounts(antes, scale)}",
        f"bring_in = {file_amount(lv.bring_in, scale)}",
        f"small_bet = {file_amount(lv.small_bet, scale)}",
        f"big_bet = {file_amount(lv.big_bet or 2 * lv.small_bet, scale)}",
        f"starting_stacks = {_amounts((s['start'] for s in summary['seats']), scale)}",
        "actions = [",
        *(f"  {_q(a)}," for a in stud_actions(summary, index, seen, lv.bring_in, scale)),
        "]",
        *_closing_lines(summary, seats, scale),
    ]
    lines.append(f"_irregularities = {_list(f'{a.code} seat {a.seat}: {a.message}' for a in irregular)}")
    return "\n".join(lines) + "\n"


def stud_actions(summary: Mapping[str, Any], index: Mapping[int, int], seen: TableSeen, bring_in: int,
                 scale: int = 1) -> list[str]:
    """The deal street by street, the betting, and the shown hands as PHH action strings."""
    shown: Mapping[str, list[str]] = summary.get("shown", {})
    cards = {seat: list(seen.cards.get(seat, [])) for seat in index}

    def face(seat: int, k: int) -> str:
        card = cards[seat][k] if k < len(cards[seat]) else "??"
        known = _STUD_UP[k] or card in shown.get(str(seat), [])
        return card if known else "??"

    def deal(street: int) -> list[str]:
        ks = range(3) if street == 0 else (street + 2,)
        return [f"d dh p{i + 1} {''.join(face(seat, k) for k in ks)}" for seat, i in index.items()
                if len(cards[seat]) > max(ks)]

    out = deal(0)
    street, street_max = 0, 0
    bets = [a for a in summary["actions"] if not str(a["action"]).startswith("post_")]
    for a in bets:
        k = _STUD_STREETS.index(a["street"]) if a["street"] in _STUD_STREETS else street
        while k > street:
            street += 1
            out += deal(street)
            street_max = 0
        if street == 0 and street_max == 0 and a["action"] == "bet" and int(a["total"]) <= bring_in:
            out.append(f"p{index[a['seat']] + 1} pb")
        else:
            out.append(_action(a, index, street_max, scale))
        street_max = max(street_max, int(a["total"]))
    while street < 4 and any(len(c) > street + 3 for c in cards.values()):
        street += 1  # streets dealt without betting (everyone all-in)
        out += deal(street)
    folded = {a["seat"] for a in bets if a["action"] == "fold"}
    live = [seat for seat in index if seat not in folded]
    if len(live) > 1:
        for seat in _stud_show_order(bets, live):
            full = all(c in shown.get(str(seat), []) for c in cards[seat]) and len(cards[seat]) == 7
            out.append(f"p{index[seat] + 1} sm {''.join(cards[seat])}" if full else f"p{index[seat] + 1} sm")
    return out


def _stud_show_order(bets: Sequence[Mapping[str, Any]], live: list[int]) -> list[int]:
    """The last bettor or raiser of the last betting round first, else its first actor; then clockwise
    from the dealer's left (the order PokerKit shows stud hands in)."""
    last = [a for a in bets if a["street"] == bets[-1]["street"]] if bets else []
    aggressive = [a["seat"] for a in last if a["action"] in ("bet", "raise", "allin") and a["seat"] in live]
    first = aggressive[-1] if aggressive else next((a["seat"] for a in last if a["seat"] in live), live[0])
    i = live.index(first)
    return live[i:] + live[:i]
