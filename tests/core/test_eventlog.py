"""Event log reader/writer: round trip of every event type, and errors that name the line and field."""

import json

import pytest

from controller.core.eventlog import LogError, dumps_event, parse_line, read_events
from controller.core.events import EVENT_TYPES

GOOD = [
    {"t": 1.0, "type": "seat", "seat": 3, "player": "Ann", "stack": 5000},
    {"t": 1.0, "type": "seat", "seat": 3, "player": None, "stack": 0},
    {"t": 1.5, "type": "deck", "id": "red-1", "cards": {"04a1b2": "As", "04a1b3": "Kd"}},
    {"t": 2.0, "type": "level", "sb": 50, "bb": 100, "ante": 0},
    {"t": 2.0, "type": "level", "sb": 7000, "bb": 14000, "ante": 0, "chip": 1000},
    {"t": 3.0, "type": "hand_start"},
    {"t": 3.0, "type": "hand_start", "button": 4},
    {"t": 4.0, "type": "card", "zone": "seat1", "card": "Ts"},
    {"t": 4.0, "type": "card", "zone": "board", "uid": "04a1b2"},
    {"t": 4.0, "type": "card_gone", "zone": "muck", "card": "2c"},
    {"t": 4.0, "type": "exposed", "zone": "seat2", "card": "Qh"},
    {"t": 4.0, "type": "exposed", "zone": "seat2", "source": "camera"},
    {"t": 5.0, "type": "knock"},
    {"t": 6.0, "type": "action", "seat": 2, "action": "fold"},
    {"t": 6.0, "type": "action", "seat": 2, "action": "raise", "amount": 300},
    {"t": 6.0, "type": "chips", "seat": 2, "amount": 500},
    {"t": 6.0, "type": "chips", "seat": 2, "amount": 500, "declared": "raise", "declared_amount": 400},
    {"t": 7.0, "type": "present", "seat": 5, "present": False},
    {"t": 8.0, "type": "console", "button": "deck_check_done"},
    {"t": 8.0, "type": "knock", "source": "tap"},
    {"t": 9.0, "type": "board_count", "zone": "board", "count": 3, "source": "camera"},
    {"t": 10.0, "type": "session_end", "source": "daemon"},
    {"t": 10.0, "type": "session", "id": "20261125-105200", "source": "daemon"},
    {"t": 11.0, "type": "dealer", "dealer": "D-017", "source": "console"},
]


@pytest.mark.parametrize("obj", GOOD, ids=lambda o: o["type"])
def test_round_trip_is_canonical(obj: dict) -> None:
    event = parse_line(json.dumps(obj))
    assert json.loads(dumps_event(event)) == obj
    assert parse_line(dumps_event(event)) == event


def test_every_event_type_is_covered() -> None:
    assert {o["type"] for o in GOOD} == set(EVENT_TYPES)


def test_declared_as_object_is_accepted() -> None:
    ev = parse_line('{"t":1,"type":"chips","seat":1,"amount":500,"declared":{"action":"raise","amount":300}}')
    assert (ev.declared, ev.declared_amount) == ("raise", 300)


BAD = [
    ('{"t":1,"type":"dance"}', "type"),
    ('{"t":1,"type":"card","zone":"seat1","card":"1x"}', "card"),
    ('{"t":1,"type":"card","zone":"table","card":"As"}', "zone"),
    ('{"t":1,"type":"card","zone":"seat1"}', "card"),
    ('{"t":1,"type":"card_gone","zone":"seat1"}', "card"),
    ('{"t":1,"type":"action","seat":0,"action":"fold"}', "seat"),
    ('{"t":1,"type":"action","seat":1,"action":"raise"}', "amount"),
    ('{"t":1,"type":"action","seat":1,"action":"shove","amount":3}', "action"),
    ('{"t":1,"type":"chips","seat":1,"amount":-5}', "amount"),
    ('{"t":1,"type":"seat","seat":1,"player":"x","stack":true}', "stack"),
    ('{"t":-1,"type":"knock"}', "t"),
    ('{"type":"knock"}', "t"),
    ('{"t":1,"type":"console","button":"coffee"}', "button"),
    ('{"t":1,"type":"deck","id":"d","cards":{"zz":"As"}}', "cards"),
    ('{"t":1,"type":"present","seat":1,"present":"yes"}', "present"),
]


@pytest.mark.parametrize(("text", "field"), BAD)
def test_bad_lines_name_line_and_field(text: str, field: str) -> None:
    with pytest.raises(LogError) as info:
        list(read_events(['{"t":0,"type":"knock"}', text]))
    assert info.value.line == 2
    assert info.value.field == field
    assert f"line 2, field '{field}'" in str(info.value)


def test_seat_outside_table_is_rejected() -> None:
    with pytest.raises(LogError, match="outside the table"):
        list(read_events(['{"t":1,"type":"action","seat":11,"action":"fold"}'], max_seat=10))


def test_time_going_backwards_is_rejected() -> None:
    with pytest.raises(LogError, match="backwards") as info:
        list(read_events(['{"t":5,"type":"knock"}', "", '{"t":4,"type":"knock"}']))
    assert info.value.line == 3


def test_invalid_json_names_line() -> None:
    with pytest.raises(LogError, match="line 1: not valid JSON"):
        list(read_events(["{nope"]))
