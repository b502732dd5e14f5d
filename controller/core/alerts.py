"""Alerts (interfaces.md §2): what the core reports, and Findings, the raw verdicts it turns into alerts."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

Severity: TypeAlias = Literal["misdeal", "error", "dead_hand", "warning", "info"]
Street: TypeAlias = Literal["deal", "preflop", "flop", "turn", "river", "third", "fourth", "fifth", "sixth",
                           "seventh", "showdown", "between"]
SEVERITIES: tuple[str, ...] = ("misdeal", "error", "dead_hand", "warning", "info")
# Stud's streets (third … seventh) are our compatible extension of interfaces.md §2 (docs/interfaces.md).
STREETS: tuple[str, ...] = ("deal", "preflop", "flop", "turn", "river", "third", "fourth", "fifth", "sixth",
                            "seventh", "showdown", "between")
# Severities that mean "the dealer or a player did something wrong"; info alerts are announcements.
FAULT_SEVERITIES: frozenset[str] = frozenset({"misdeal", "error", "dead_hand", "warning"})


@dataclass(frozen=True, kw_only=True, slots=True)
class Finding:
    """A verdict from a rules component before it is numbered and placed in a hand.

    `remedy` and `rule` default to the catalogue's text for `code` when left empty.
    """

    code: str
    message: str
    seat: int | None = None
    cards: tuple[str, ...] = ()
    remedy: str = ""
    rule: str = ""
    severity: Severity | None = None  # override the catalogue's severity (e.g. misdeal vs dead hand)
    extra: Mapping[str, Any] = field(default_factory=dict)  # extra payload keys, e.g. `pots`


@dataclass(frozen=True, kw_only=True, slots=True)
class Alert:
    """One alert as published on `…/alerts` and printed by `cardtable replay --json`."""

    id: str
    t: float
    table: str
    hand: int
    code: str
    severity: Severity
    street: Street
    seat: int | None
    cards: tuple[str, ...]
    message: str
    remedy: str
    rule: str
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "alert",
            "id": self.id,
            "t": self.t,
            "table": self.table,
            "hand": self.hand,
            "code": self.code,
            "severity": self.severity,
            "street": self.street,
            "seat": self.seat,
            "cards": list(self.cards),
            "message": self.message,
            "remedy": self.remedy,
            "rule": self.rule,
        }
        out.update(self.extra)
        return out

    def dumps(self) -> str:
        """Canonical one-line JSON: stable key order, so replay output is byte-identical."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)

    def line(self) -> str:
        """The human-readable form used by `cardtable replay` without --json."""
        where = f"seat {self.seat}" if self.seat is not None else "-"
        head = f"{self.t:10.3f}  hand {self.hand:<4} {self.street:<8} {self.code:<28}"
        return f"{head} {where:<8} {self.message}"


def alert_from_json(obj: Mapping[str, Any]) -> Alert:
    """Inverse of Alert.to_json (used by the floor screen and tests)."""
    known = {"type", "id", "t", "table", "hand", "code", "severity", "street", "seat", "cards",
             "message", "remedy", "rule"}
    cards: Sequence[str] = obj.get("cards") or ()
    return Alert(
        id=str(obj["id"]), t=float(obj["t"]), table=str(obj["table"]), hand=int(obj["hand"]),
        code=str(obj["code"]), severity=obj["severity"], street=obj["street"], seat=obj.get("seat"),
        cards=tuple(cards), message=str(obj["message"]), remedy=str(obj["remedy"]),
        rule=str(obj["rule"]), extra={k: v for k, v in obj.items() if k not in known},
    )
