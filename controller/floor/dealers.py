"""Dealer performance: hands, hands per hour, faults per 100 hands by code, time per hand, per shift and day.

Pure functions over rows the store hands over (no I/O): the web handler asks the store for the hands and
fault alerts since a date and builds the report here, so a hand-computed fixture can check every figure.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Any

_HHMM = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$")
TREND_DAYS = 30
WORST = 3  # how many codes the "worst codes" column names


@dataclass(frozen=True, slots=True)
class Shift:
    name: str
    start: int  # minutes after local midnight
    end: int  # end < start: the shift runs past midnight and belongs to the day it started


@dataclass(frozen=True, slots=True)
class HandRow:
    table: str
    hand: int | None
    dealer: str
    at: float  # when the floor received the summary (epoch seconds)
    seconds: float | None  # t_end - t_start of the summary: how long the hand took


@dataclass(frozen=True, slots=True)
class FaultRow:
    table: str
    hand: int | None
    dealer: str
    code: str
    at: float


def parse_shifts(raw: Mapping[str, str]) -> list[Shift]:
    """`{"early": "06:00-14:00", ...}` → shifts; a bad entry raises ValueError naming it."""
    out = []
    for name, span in raw.items():
        m = _HHMM.match(span)
        if not m:
            raise ValueError(f"{name}: {span!r} is not HH:MM-HH:MM")
        start, end = int(m[1]) * 60 + int(m[2]), int(m[3]) * 60 + int(m[4])
        if start == end:
            raise ValueError(f"{name}: a shift must not start and end at the same time")
        out.append(Shift(name, start, end))
    return out


def shift_of(at: float, shifts: Sequence[Shift], tz: tzinfo | None = None) -> tuple[str, str]:
    """(shift name, local date the shift started) for a moment; ("-", date) outside every shift."""
    local = datetime.fromtimestamp(at, tz)
    minute = local.hour * 60 + local.minute
    for s in shifts:
        if s.start < s.end and s.start <= minute < s.end:
            return s.name, local.date().isoformat()
        if s.start > s.end and minute >= s.start:
            return s.name, local.date().isoformat()
        if s.start > s.end and minute < s.end:  # after midnight: the shift began yesterday
            return s.name, (local.date() - timedelta(days=1)).isoformat()
    return "-", local.date().isoformat()


@dataclass
class _Tally:
    hands: int = 0
    seconds: float = 0.0
    timed: int = 0  # hands with a known duration
    codes: dict[str, int] = field(default_factory=dict)

    def add_hand(self, h: HandRow) -> None:
        self.hands += 1
        if h.seconds is not None and h.seconds > 0:
            self.seconds += h.seconds
            self.timed += 1

    def add_fault(self, code: str) -> None:
        self.codes[code] = self.codes.get(code, 0) + 1

    def figures(self) -> dict[str, Any]:
        faults = sum(self.codes.values())
        per100 = _rate(faults, self.hands)
        codes = {c: {"count": n, "per100": _rate(n, self.hands)} for c, n in sorted(self.codes.items())}
        worst = sorted(self.codes.items(), key=lambda kv: (-kv[1], kv[0]))[:WORST]
        return {"hands": self.hands, "faults": faults, "per100": per100, "codes": codes,
                "worst": [c for c, _ in worst],
                "sec_per_hand": round(self.seconds / self.timed, 1) if self.timed else None,
                "hands_per_hour": round(3600.0 * self.timed / self.seconds, 1) if self.seconds else None}


def _rate(n: int, hands: int) -> float | None:
    return round(100.0 * n / hands, 2) if hands else None


def report(hands: Iterable[HandRow], faults: Iterable[FaultRow], shifts: Sequence[Shift], *, now: float,
           tz: tzinfo | None = None) -> dict[str, Any]:
    """Per dealer: totals, one row per (shift, date), and a per-day trend over the last TREND_DAYS days."""
    total: dict[str, _Tally] = {}
    by_shift: dict[tuple[str, str, str], _Tally] = {}
    by_day: dict[tuple[str, str], _Tally] = {}

    def tallies(dealer: str, at: float) -> tuple[_Tally, ...]:
        name, day = shift_of(at, shifts, tz)
        local_day = datetime.fromtimestamp(at, tz).date().isoformat()
        return (total.setdefault(dealer, _Tally()), by_shift.setdefault((dealer, day, name), _Tally()),
                by_day.setdefault((dealer, local_day), _Tally()))

    for h in hands:
        for t in tallies(h.dealer, h.at):
            t.add_hand(h)
    for f in faults:
        for t in tallies(f.dealer, f.at):
            t.add_fault(f.code)
    today = datetime.fromtimestamp(now, tz).date()
    days = [(today - timedelta(days=n)).isoformat() for n in range(TREND_DAYS - 1, -1, -1)]
    dealers = []
    for dealer in sorted(total):
        row = {"dealer": dealer, **total[dealer].figures()}
        row["shifts"] = [{"date": day, "shift": name, **t.figures()}
                         for (d, day, name), t in sorted(by_shift.items()) if d == dealer]
        row["trend"] = [{"date": day, **_trend_point(by_day.get((dealer, day)))} for day in days]
        dealers.append(row)
    return {"dealers": dealers, "days": TREND_DAYS, "shifts": [s.name for s in shifts]}


def _trend_point(t: _Tally | None) -> dict[str, Any]:
    if t is None:
        return {"hands": 0, "faults": 0, "per100": None}
    f = t.figures()
    return {"hands": f["hands"], "faults": f["faults"], "per100": f["per100"]}


CSV_COLUMNS = ("dealer", "date", "shift", "hands", "hands_per_hour", "sec_per_hand", "faults", "per100",
               "worst")


def to_csv(rep: Mapping[str, Any]) -> str:
    """One line per dealer, shift and date, plus each fault code's rate per 100 hands as its own column."""
    codes = sorted({c for d in rep["dealers"] for c in d["codes"]})
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*CSV_COLUMNS, *(f"{c}_per100" for c in codes)])
    for d in rep["dealers"]:
        for s in d["shifts"]:
            w.writerow([_text(d["dealer"]), s["date"], _text(s["shift"]), s["hands"],
                        _blank(s["hands_per_hour"]), _blank(s["sec_per_hand"]), s["faults"],
                        _blank(s["per100"]), " ".join(s["worst"]),
                        *(_blank(s["codes"].get(c, {}).get("per100")) for c in codes)])
    return buf.getvalue()


def _blank(v: Any) -> Any:
    return "" if v is None else v


def _text(v: str) -> str:
    """A name as a CSV cell a spreadsheet will not run as a formula (a dealer id comes from a console)."""
    return "'" + v if v[:1] in ("=", "+", "-", "@", "\t", "\r") else v


def hand_seconds(summary: Mapping[str, Any]) -> float | None:
    """The duration of a finished hand from its summary (`t_start`, `t_end`), None when either is missing."""
    try:
        return float(summary["t_end"]) - float(summary["t_start"])
    except (KeyError, TypeError, ValueError):
        return None
