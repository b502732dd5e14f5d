"""What a real hand's replay must give: the recorded stacks, PokerKit's, or "unknown" (docs/phh.md).

Used by the CLI tests of the real hands (tests/data/phh/real, tests/data/phh/real_more). PokerKit is the
oracle where the file records no result, with two readings of our own, both documented in docs/phh.md:
- a hand shown as `????` whose cards the deal recorded is those cards when every hand shown is known that
  way (PokerKit splits two `????` hands even when the deal named both);
- a recorded half chip (a split pot of an odd number of units) is the table's whole-unit split: the odd
  unit to the first winner left of the button (PHH order p1…pN), all of them to the first (profile cuca).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from typing import Any

from pokerkit import HandHistory

from controller.phh.amounts import unit_scale


@dataclass(frozen=True)
class Want:
    """What the export of one hand must say: `unknown` (and whether unfinished), or stacks / net results."""

    unknown: bool = False
    unfinished: bool = False
    stacks: list[Decimal] | None = None  # finishing stacks in the file's units
    net: list[Decimal] | None = None  # net results, for stacks nobody recorded (inf)


def _shows(actions: list[str]) -> dict[str, str]:
    return {w[0]: w[2] for w in (a.split() for a in actions) if len(w) == 3 and w[1] == "sm"}


def _dealt(actions: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for w in (a.split() for a in actions):
        if len(w) == 4 and w[:2] == ["d", "dh"]:
            out[w[2]] = out.get(w[2], "") + w[3]
    return out


def with_dealt_shows(raw: dict[str, Any]) -> list[str] | None:
    """The actions with every `sm ????` replaced by the dealt cards, when every shown hand is then known;
    None when some shown hand stays unknown."""
    actions: list[str] = list(raw["actions"])
    shows, dealt = _shows(actions), _dealt(actions)
    known = {p: c if "?" not in c else dealt.get(p, "?") for p, c in shows.items()}
    if not any("?" in c for c in shows.values()) or any("?" in c for c in known.values()):
        return None
    return [f"{a.split()[0]} sm {known[a.split()[0]]}" if a.split()[1:2] == ["sm"] and len(a.split()) == 3
            else a for a in actions]


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(repr(v) for v in values) + "]"


def _kit(text: str) -> tuple[bool, list[Decimal], list[Decimal]]:
    """PokerKit's (still running, stacks, payoffs) for one hand's text."""
    state = list(HandHistory.load(io.BytesIO(text.encode())))[-1]
    return bool(state.status), [Decimal(s) for s in state.stacks], [Decimal(p) for p in state.payoffs]


def want(raw: dict[str, Any], text: str) -> Want:
    """The result the export of this hand (parsed `raw`, its TOML `text`) must carry."""
    running, stacks, payoffs = _kit(text)
    if running:  # the history stops before the hand is over: nobody can tell its result
        return Want(unknown=True, unfinished=True)
    actions: list[str] = list(raw["actions"])
    shows = _shows(actions)
    substituted = with_dealt_shows(raw)
    if substituted is not None:
        start = text.index("actions = ")
        end = text.index("\n", start)
        running, stacks, payoffs = _kit(text[:start] + f"actions = {_toml_list(substituted)}" + text[end:])
    elif shows and all("?" in c for c in shows.values()):
        return Want(unknown=True)  # no hand at the showdown can be read: PokerKit's split is no result
    if any(not Decimal(s).is_finite() for s in raw["starting_stacks"]):
        return Want(net=payoffs)
    return Want(stacks=[Decimal(s) for s in raw.get("finishing_stacks") or stacks])


def table_split(recorded: list[Decimal], unit: Decimal) -> list[Decimal]:
    """A recorded result with parts finer than the file's unit (a split pot recorded in half chips) as the
    table settles it in whole units: those seats get their whole units, the odd units all go to the first
    of them in PHH order (first left of the button; profile cuca gives every odd unit to the first)."""
    fine = [i for i, r in enumerate(recorded) if (r / unit) != (r / unit).to_integral_value()]
    out = list(recorded)
    for i in fine:
        out[i] = (recorded[i] / unit).to_integral_value(rounding=ROUND_FLOOR) * unit
    if fine:
        out[fine[0]] += sum(recorded) - sum(out)
    return out


def check(raw: dict[str, Any], text: str, got: dict[str, Any]) -> str | None:
    """None when the exported hand `got` says what it must, else what is wrong."""
    w = want(raw, text)
    if w.unknown:
        if got.get("_result") != "unknown" or "finishing_stacks" in got:
            return f"want result unknown, got {got.get('finishing_stacks')}"
        if w.unfinished and got.get("_unfinished") is not True:
            return "want _unfinished = true"
        return None
    if got.get("_result") == "unknown":
        return f"want {w.stacks or w.net}, got result unknown"
    if w.net is not None:
        net = [Decimal(x) for x in got["_net_results"]]
        return None if net == w.net else f"net {net} != {w.net}"
    assert w.stacks is not None
    unit = Decimal(1) / unit_scale([raw])
    fin = [Decimal(x) for x in got["finishing_stacks"]]
    return None if fin == table_split(w.stacks, unit) else f"stacks {fin} != {w.stacks}"
