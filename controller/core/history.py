"""Hand histories: a finished hand's …/hands summary written in the PHH standard format (and PHHS files)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from controller.core.alerts import Alert
from controller.core.forced import UNKNOWN_STACK

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


def phh_text(summary: Mapping[str, Any], alerts: Sequence[Alert] = ()) -> str:
    """One hand as PHH (TOML). Players p1…pN are the dealt-in seats from the left of the button.

    Burns and irregularities have no PHH action; they go into the user-defined fields `_burns` and
    `_irregularities` (and a comment), so PHH readers that do not know them still read the hand.
    """
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
    code = variant(summary) or "NT"
    if code == "FT":  # fixed-limit hold'em: PHH names the two bet sizes instead of min_bet
        sizes = [f"small_bet = {file_amount(int(blinds['small_bet']), scale)}",
                 f"big_bet = {file_amount(int(blinds['big_bet']), scale)}"]
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
        *_result_lines(summary, scale),
        f"seats = {_list(seats)}",
        f"hand = {int(summary['hand'])}",
        f"table = {_q(str(summary['table']))}",
    ]
    names = [s.get("player") for s in summary["seats"]]
    if any(n is not None for n in names):
        labels = [str(n) if n is not None else f"seat {s}" for n, s in zip(names, seats, strict=True)]
        lines.append(f"players = {_list(labels)}")
    lines.append(f"_burns = {_list(burns)}")
    lines.append(f"_irregularities = {_list(f'{a.code} seat {a.seat}: {a.message}' for a in irregular)}")
    return "\n".join(lines) + "\n"


def variant(summary: Mapping[str, Any]) -> str | None:
    """The PHH variant of a hand: NT (no-limit hold'em), FT (fixed-limit hold'em), F7S (fixed-limit stud);
    None for a game and structure PHH has no code for (pot-, spread- or split-limit), left out."""
    blinds = summary.get("blinds", {})
    game = summary.get("game") or blinds.get("game") or "holdem"
    limit = blinds.get("limit") or "no"
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
    if summary.get("result") == "unknown":
        return ['_result = "unknown"']
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

    def alert(self, alert: Alert) -> None:
        self.alerts.setdefault(alert.hand, []).append(alert)

    def summary(self, hand: int, payload: Mapping[str, Any]) -> None:
        """A finished hand; misdealt (void) hands have no result and are left out."""
        alerts = self.alerts.pop(hand, [])
        if "seats" in payload and payload.get("ended") in ("fold", "showdown"):
            if variant(payload) is None:
                self.skipped += 1  # no PHH variant for this game and structure
                return
            self.hands.append(phh_text(payload, alerts))

    def text(self) -> str:
        return phhs_text(self.hands)
