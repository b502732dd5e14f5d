"""JSON Lines reader/writer for the table event log; every error names the line and the field."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields
from typing import Any

from controller.core import strictjson
from controller.core.cards import FIXED_ZONES, CardError, check_zone, is_card, normalise_uid, parse_card
from controller.core.events import (
    ACTIONS,
    CONSOLE_BUTTONS,
    DECLARATIONS,
    EVENT_TYPES,
    GAMES,
    LIMITS,
    RULINGS,
    ActionEvent,
    BaseEvent,
    CardGone,
    CardSeen,
    ChipsEvent,
    ConsoleEvent,
    DeckEvent,
    Event,
    Exposed,
    HandStart,
    Knock,
    LevelEvent,
    PresentEvent,
    SeatEvent,
)
from controller.core.forced import ANTE_MODES
from controller.core.levels import AMOUNTS, any_game_problem, structure_problem

_SESSION_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


class LogError(ValueError):
    """A malformed event; `line` is 1-based (0 when not read from a file), `field` names the key."""

    def __init__(self, message: str, *, line: int = 0, field: str | None = None) -> None:
        self.line = line
        self.field = field
        self.reason = message
        where = f"line {line}" if line else "event"
        if field:
            where += f", field '{field}'"
        super().__init__(f"{where}: {message}")


def _int(obj: Mapping[str, Any], key: str, *, minimum: int = 0, optional: bool = False) -> int | None:
    if key not in obj or obj[key] is None:
        if optional:
            return None
        raise LogError("missing", field=key)
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise LogError(f"must be an integer, got {value!r}", field=key)
    if value < minimum:
        raise LogError(f"must be ≥ {minimum}, got {value}", field=key)
    if value > strictjson.MAX_INT:
        raise LogError(f"must be at most {strictjson.MAX_INT}, got {str(value)[:24]}…", field=key)
    return value


def _req_int(obj: Mapping[str, Any], key: str, *, minimum: int = 0) -> int:
    value = _int(obj, key, minimum=minimum)
    assert value is not None
    return value


def _choice(obj: Mapping[str, Any], key: str, choices: Iterable[str]) -> str:
    value = obj.get(key)
    options = tuple(choices)
    if value not in options:
        raise LogError(f"must be one of {', '.join(options)}, got {value!r}", field=key)
    return str(value)


def _card_ref(obj: Mapping[str, Any], max_seat: int, *, unread_ok: bool = False) -> dict[str, Any]:
    try:
        zone = check_zone(obj.get("zone"), max_seat)  # type: ignore[arg-type]
    except CardError as exc:
        raise LogError(str(exc), field="zone") from None
    card, uid = obj.get("card"), obj.get("uid")
    if card is None and uid is None and unread_ok:
        return {"zone": zone}  # `exposed` by a camera that could not read the face
    if card is None and uid is None and obj.get("unread") is True and zone not in ("deck", "board"):
        # a card whose face nobody read (extension, docs/interfaces.md: an imported hand's `??` cards)
        return {"zone": zone, "unread": True}
    if (card is None) == (uid is None):
        raise LogError("exactly one of 'card' and 'uid' is required", field="card")
    try:
        if card is not None:
            return {"zone": zone, "card": parse_card(card)}
        return {"zone": zone, "uid": normalise_uid(str(uid))}
    except CardError as exc:
        raise LogError(str(exc), field="card" if card is not None else "uid") from None


def _declared(obj: Mapping[str, Any]) -> dict[str, Any]:
    raw = obj.get("declared")
    if raw is None:
        return {}
    if isinstance(raw, Mapping):  # {"action": "raise", "amount": 600}
        out: dict[str, Any] = {"declared": _choice(raw, "action", DECLARATIONS)}
        amount = _int(raw, "amount", optional=True)
    else:
        out = {"declared": _choice(obj, "declared", DECLARATIONS)}
        amount = _int(obj, "declared_amount", optional=True)
    if amount is not None:
        out["declared_amount"] = amount
    return out


def _level_extensions(obj: Mapping[str, Any]) -> dict[str, Any]:
    """`ante_mode`, `scale`, `ante_chips` (docs/interfaces.md "Forced bets and units"), only when present."""
    out: dict[str, Any] = {}
    if "ante_mode" in obj:
        out["ante_mode"] = _choice(obj, "ante_mode", ANTE_MODES)
    if "scale" in obj:
        scale = _req_int(obj, "scale", minimum=1)
        if scale > 10**6 or 10 ** (len(str(scale)) - 1) != scale:
            raise LogError(f"must be a power of ten from 1 to 1000000, got {scale}", field="scale")
        out["scale"] = scale
    if "ante_chips" in obj:
        if not isinstance(obj["ante_chips"], bool):
            raise LogError("must be true or false", field="ante_chips")
        out["ante_chips"] = obj["ante_chips"]
    return out


def _level_structure(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Contract v1.1 (§1a): `game`, `limit`, `bring_in`, `small_bet`, `big_bet`, only when present,
    checked for consistency: every error names the field it is about. A level that names its game is
    checked for that game; one that names none must fit some game (the table's game is applied by the
    engine, controller/core/levels.py, which checks the level again for it)."""
    out: dict[str, Any] = {}
    if "game" in obj:
        out["game"] = _choice(obj, "game", GAMES)
    limit = _choice(obj, "limit", LIMITS) if "limit" in obj else "no"
    if "limit" in obj:
        out["limit"] = limit
    amounts = {k: _req_int(obj, k, minimum=1) for k in AMOUNTS if k in obj}
    out.update(amounts)
    full = {k: amounts.get(k, 0) for k in AMOUNTS}
    bring_in, small_bet, big_bet = full["bring_in"], full["small_bet"], full["big_bet"]
    if "game" in out:
        problem = structure_problem(out["game"], limit, bring_in=bring_in, small_bet=small_bet,
                                    big_bet=big_bet)
    else:
        problem = any_game_problem(limit, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet)
    if problem is not None:
        raise LogError(problem[1], field=problem[0])
    return out


def _seat_amounts(obj: Mapping[str, Any], key: str, max_seat: int) -> dict[int, int]:
    raw = obj[key]
    if not isinstance(raw, Mapping) or len(raw) > max_seat:
        raise LogError("must be an object seat → chips", field=key)
    out: dict[int, int] = {}
    for k, v in raw.items():
        if not (isinstance(k, str) and k.isdigit() and 1 <= int(k) <= max_seat):
            raise LogError(f"seat {k!r} is outside the table (1…{max_seat})", field=key)
        out[int(k)] = _req_int({key: v}, key, minimum=1)
    return out


def _hand_start_extensions(obj: Mapping[str, Any], max_seat: int) -> dict[str, Any]:
    """`straddles`, `posts`, `dead`, `dead_sb` (docs/interfaces.md "Forced bets and units"), when present."""
    out: dict[str, Any] = {}
    if "straddles" in obj:
        raw = obj["straddles"]
        if not isinstance(raw, list) or len(raw) > max_seat - 2:
            raise LogError(f"must be a list of at most {max_seat - 2} amounts", field="straddles")
        out["straddles"] = tuple(_req_int({"straddles": v}, "straddles", minimum=1) for v in raw)
    for key in ("posts", "dead"):
        if key in obj:
            out[key] = _seat_amounts(obj, key, max_seat)
    if "dead_sb" in obj:
        if not isinstance(obj["dead_sb"], bool):
            raise LogError("must be true or false", field="dead_sb")
        out["dead_sb"] = obj["dead_sb"]
    return out


def _ruling(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The floor's ruling on an open irregularity (extension, docs/interfaces.md)."""
    out: dict[str, Any] = {"button": "ruling", "ruling": _choice(obj, "ruling", RULINGS)}
    for key in ("note", "id"):
        value = obj.get(key)
        if value is not None and not isinstance(value, str):
            raise LogError(f"must be a string, got {value!r}", field=key)
        if value is not None:
            out[key] = value
    return out


def _fields_for(kind: str, obj: Mapping[str, Any], max_seat: int) -> dict[str, Any]:
    """The typed constructor arguments of one event, validated."""
    if kind == "seat":
        player = obj.get("player")
        if player is not None and not isinstance(player, str):
            raise LogError("must be a string or null", field="player")
        seat = _req_int(obj, "seat", minimum=1)
        if seat > max_seat:
            raise LogError(f"seat {seat} is outside the table (1…{max_seat})", field="seat")
        return {"seat": seat, "player": player, "stack": _req_int(obj, "stack")}
    if kind == "deck":
        cards = obj.get("cards")
        if not isinstance(obj.get("id"), str):
            raise LogError("must be a string", field="id")
        if not isinstance(cards, Mapping):
            raise LogError("must be an object uid → card", field="cards")
        try:
            parsed = {normalise_uid(u): parse_card(c) for u, c in cards.items()}
        except CardError as exc:
            raise LogError(str(exc), field="cards") from None
        return {"id": obj["id"], "cards": parsed}
    if kind == "level":
        structure = _level_structure(obj)
        # Stud has no blinds (§1a): sb and bb may be left out of a stud level, and of a level that names
        # no game but carries a bring-in (the table's game decides, controller/core/levels.py).
        if structure.get("game", "stud7" if "bring_in" in structure else "holdem") == "stud7":
            sb, bb = (_int(obj, k, optional=True) or 0 for k in ("sb", "bb"))
        else:
            sb, bb = _req_int(obj, "sb"), _req_int(obj, "bb", minimum=1)
        chip = _int(obj, "chip", minimum=1, optional=True) or 1
        out = {"sb": sb, "bb": bb, "ante": _int(obj, "ante", optional=True) or 0, "chip": chip}
        return out | _level_extensions(obj) | structure
    if kind == "hand_start":
        button = _int(obj, "button", minimum=1, optional=True)
        if button is not None and button > max_seat:
            raise LogError(f"seat {button} is outside the table (1…{max_seat})", field="button")
        game = {"game": _choice(obj, "game", GAMES)} if obj.get("game") is not None else {}
        return {"button": button} | game | _hand_start_extensions(obj, max_seat)
    if kind in ("card", "card_gone", "exposed"):
        return _card_ref(obj, max_seat, unread_ok=kind == "exposed")
    if kind in ("knock", "session_end"):
        return {}
    if kind == "session":
        sid = obj.get("id")
        if not isinstance(sid, str) or not _SESSION_ID.fullmatch(sid):
            raise LogError("must be 1 to 64 letters, digits, '.', '_' or '-'", field="id")
        return {"id": sid}
    if kind == "dealer":
        dealer = obj.get("dealer")
        if not isinstance(dealer, str) or not 1 <= len(dealer.strip()) <= 64:
            raise LogError("must be a dealer id (a string of 1 to 64 characters)", field="dealer")
        return {"dealer": dealer.strip()}
    if kind in ("action", "chips", "present"):
        seat = _req_int(obj, "seat", minimum=1)
        if seat > max_seat:
            raise LogError(f"seat {seat} is outside the table (1…{max_seat})", field="seat")
        if kind == "present":
            if not isinstance(obj.get("present"), bool):
                raise LogError("must be true or false", field="present")
            return {"seat": seat, "present": obj["present"]}
        if kind == "chips":
            return {"seat": seat, "amount": _req_int(obj, "amount"), **_declared(obj)}
        action = _choice(obj, "action", ACTIONS)
        needs_amount = action not in ("fold", "check")
        amount = _int(obj, "amount", optional=not needs_amount)
        return {"seat": seat, "action": action, "amount": amount if needs_amount else None}
    if kind == "board_count":
        try:
            zone = check_zone(obj.get("zone"), max_seat)  # type: ignore[arg-type]
        except CardError as exc:
            raise LogError(str(exc), field="zone") from None
        return {"zone": zone, "count": _req_int(obj, "count")}
    if kind == "console":
        if obj.get("button") == "ruling":
            return _ruling(obj)
        return {"button": _choice(obj, "button", CONSOLE_BUTTONS)}
    raise LogError(f"unknown event type {kind!r}", field="type")


# --- the fast path for the common events (replay and import speed, bench/phh_bench.py) -------------------
# A card, action, chips, knock or seat line in its plain form is built here with the same checks as below, in
# fewer steps; any other line, and any value the checks below would refuse or convert, returns None and goes
# the reference way, which also gives every error (tests/core/test_eventlog_fast.py checks they agree).
_CARD_EVENTS: dict[str, type[CardSeen | CardGone | Exposed]] = {
    "card": CardSeen, "card_gone": CardGone, "exposed": Exposed}
_MAX_INT = strictjson.MAX_INT
_PLAIN_UID = re.compile(r"[0-9a-f]{2,40}")  # a uid `normalise_uid` returns unchanged (even length too)
_ZONES: dict[int, frozenset[str]] = {}  # max_seat → every zone name `check_zone` accepts


def _zones(max_seat: int) -> frozenset[str]:
    zones = _ZONES.get(max_seat)
    if zones is None:  # seat1 … seat99 at most (check_zone's pattern), then the table's size
        seats = (f"seat{n}" for n in range(1, min(max_seat, 99) + 1))
        zones = _ZONES[max_seat] = frozenset((*FIXED_ZONES, *seats))
    return zones


def _fast_event(obj: dict[str, Any], max_seat: int) -> Event | None:
    """The event of a plain common line, as `event_from_json` builds it; None: the reference decides."""
    t, source, kind = obj.get("t"), obj.get("source"), obj.get("type")
    if not ((type(t) is float and 0.0 <= t < math.inf) or (type(t) is int and t >= 0)):
        return None
    if (source is not None and type(source) is not str) or type(kind) is not str:
        return None
    cls = _CARD_EVENTS.get(kind)
    if cls is not None:
        zone, card, uid = obj.get("zone"), obj.get("card"), obj.get("uid")
        if type(zone) is not str or zone not in (_ZONES.get(max_seat) or _zones(max_seat)):
            return None
        if uid is None and type(card) is str and is_card(card):
            return cls(t=float(t), source=source, zone=zone, card=card)
        if card is None and type(uid) is str and _PLAIN_UID.fullmatch(uid) and not len(uid) % 2:
            return cls(t=float(t), source=source, zone=zone, uid=uid)
        return None
    if kind == "knock":
        return Knock(t=float(t), source=source)
    if kind not in ("action", "chips", "seat"):
        return None
    seat, amount = obj.get("seat"), obj.get("amount")
    if type(seat) is not int or not 1 <= seat <= max_seat:
        return None
    if kind == "seat":
        player, stack = obj.get("player"), obj.get("stack")
        if player is not None and type(player) is not str:
            return None
        if type(stack) is not int or not 0 <= stack <= _MAX_INT:
            return None
        return SeatEvent(t=float(t), source=source, seat=seat, player=player, stack=stack)
    if kind == "chips":
        if obj.get("declared") is not None or type(amount) is not int or not 0 <= amount <= _MAX_INT:
            return None
        return ChipsEvent(t=float(t), source=source, seat=seat, amount=amount)
    action = obj.get("action")
    if action == "fold" or action == "check":
        return ActionEvent(t=float(t), source=source, seat=seat, action=action) if amount is None else None
    if action not in ACTIONS or type(amount) is not int or not 0 <= amount <= _MAX_INT:
        return None
    return ActionEvent(t=float(t), source=source, seat=seat, action=action, amount=amount)


def event_from_json(obj: Any, *, max_seat: int = 99) -> Event:
    """Build one event from its decoded JSON object (raises LogError without a line number)."""
    if type(obj) is dict:
        fast = _fast_event(obj, max_seat)
        if fast is not None:
            return fast
    return _reference_event(obj, max_seat)


def _reference_event(obj: Any, max_seat: int) -> Event:
    """`event_from_json` step by step: every check, every conversion, every error message."""
    if not isinstance(obj, Mapping):
        raise LogError("each line must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise LogError(f"unknown event type {kind!r} (one of {', '.join(EVENT_TYPES)})", field="type")
    t = obj.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0:
        raise LogError(f"must be a non-negative number of seconds, got {t!r}", field="t")
    source = obj.get("source")
    if source is not None and not isinstance(source, str):
        raise LogError("must be a string", field="source")
    cls = EVENT_TYPES[kind]
    event = cls(t=float(t), source=source, **_fields_for(kind, obj, max_seat))
    return event  # type: ignore[return-value]


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # per event class, its fields but `t` and `source`


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls) if f.name not in ("t", "source"))
    return names


def event_to_json(event: BaseEvent) -> dict[str, Any]:
    """The canonical JSON object of an event: `t`, `type`, then the fields; None values omitted."""
    out: dict[str, Any] = {"t": event.t, "type": event.TYPE}
    for name in _field_names(type(event)):
        value = getattr(event, name)
        if value is None and not (name == "player" and isinstance(event, SeatEvent)):
            continue
        if isinstance(value, Mapping):
            value = {str(k): v for k, v in value.items()}  # JSON object keys (hand_start posts/dead)
        out[name] = list(value) if isinstance(value, tuple) else value
    if isinstance(event, LevelEvent):
        # `game` and `limit` are None when not given and then left out; an explicit "holdem" is kept,
        # since a level without a game takes the table's (controller/core/levels.py).
        for name, default in (("chip", 1), ("ante_mode", "each"), ("scale", 1), ("bring_in", 0),
                              ("small_bet", 0), ("big_bet", 0), ("ante_chips", False)):
            if out.get(name) == default:
                out.pop(name)
    if event.source is not None:
        out["source"] = event.source
    return out


def dumps_event(event: BaseEvent) -> str:
    """One JSON Lines record (no trailing newline), compact and key-order stable."""
    kind = type(event)
    if kind is CardSeen or kind is CardGone or kind is Exposed:
        text = _dumps_card(event)  # type: ignore[arg-type]
        if text is not None:
            return text
    if kind in _FLAT_DUMP:
        text = _dumps_flat(event)
        if text is not None:
            return text
    return strictjson.dumps_compact(event_to_json(event))


# The events whose JSON is `t`, `type`, then scalar fields without defaults to drop: written straight to
# text, byte for byte what the compact encoder writes for `event_to_json` (import-phh writes tens of
# thousands; tests/core/test_eventlog_fast.py checks the two agree).
_FLAT_DUMP = frozenset({CardSeen, CardGone, Exposed, ActionEvent, ChipsEvent, Knock, SeatEvent})
_encode_str = json.encoder.encode_basestring  # the compact encoder's strings (ensure_ascii=False)


def _scalar(value: Any) -> str | None:
    """The JSON text of a str, int, finite float or bool as the compact encoder writes it; None otherwise."""
    kind = type(value)
    if kind is str:
        return _encode_str(value)
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        return float.__repr__(value) if math.isfinite(value) else None  # NaN: the encoder's error
    if kind is bool:
        return "true" if value else "false"
    return None


def _dumps_card(ev: CardSeen | CardGone | Exposed) -> str | None:
    """`_dumps_flat` of the commonest line, a card by its code or tag in a plain zone (no escaping needed:
    a card code, a tag and a valid zone are letters and digits); None: `_dumps_flat` decides."""
    t, zone, card, uid = ev.t, ev.zone, ev.card, ev.uid
    if (type(t) is not float or not math.isfinite(t) or ev.source is not None or type(zone) is not str
            or not zone.isalnum() or getattr(ev, "unread", None) is not None):
        return None
    if uid is None and type(card) is str and is_card(card):
        return f'{{"t":{float.__repr__(t)},"type":"{ev.TYPE}","zone":"{zone}","card":"{card}"}}'
    if card is None and type(uid) is str and uid.isalnum():
        return f'{{"t":{float.__repr__(t)},"type":"{ev.TYPE}","zone":"{zone}","uid":"{uid}"}}'
    return None


def _dumps_flat(event: BaseEvent) -> str | None:
    t = _scalar(event.t)
    if t is None:
        return None
    out = ['{"t":', t, ',"type":', _encode_str(event.TYPE)]
    for name in _field_names(type(event)):
        value = getattr(event, name)
        if value is None:
            if name == "player" and isinstance(event, SeatEvent):
                out.append(',"player":null')
            continue
        text = _scalar(value)
        if text is None:
            return None
        out.append(f',"{name}":{text}')  # field names are plain identifiers: nothing to escape
    if event.source is not None:
        source = _scalar(event.source)
        if source is None:
            return None
        out.append(f',"source":{source}')
    out.append("}")
    return "".join(out)


def parse_line(text: str, *, line: int = 0, max_seat: int = 99) -> Event:
    try:
        obj = strictjson.loads(text)
    except strictjson.JsonError as exc:  # also NaN, Infinity, 1e400, 20-digit integers, deep nesting
        raise LogError(str(exc), line=line) from None
    try:
        return event_from_json(obj, max_seat=max_seat)
    except LogError as exc:
        raise LogError(exc.reason, line=line, field=exc.field) from None


def read_events(lines: Iterable[str], *, max_seat: int = 99) -> Iterator[tuple[int, Event]]:
    """Yield (line number, event) for each non-blank line; time must not go backwards."""
    last_t = -math.inf
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        obj = strictjson.loads_plain(text)  # the fast path in one step; any doubt: parse_line says
        event = _fast_event(obj, max_seat) if type(obj) is dict else None
        if event is None:
            event = parse_line(text, line=number, max_seat=max_seat)
        if event.t < last_t:
            raise LogError(f"time goes backwards ({event.t} after {last_t})", line=number, field="t")
        last_t = event.t
        yield number, event


__all__ = [
    "ActionEvent",
    "CardGone",
    "CardSeen",
    "ChipsEvent",
    "ConsoleEvent",
    "DeckEvent",
    "Exposed",
    "HandStart",
    "Knock",
    "LevelEvent",
    "LogError",
    "PresentEvent",
    "dumps_event",
    "event_from_json",
    "event_to_json",
    "parse_line",
    "read_events",
]
