"""Golden scenarios for forced bets played from physical events to settlement, and the simulator's
big-blind-ante tournaments scored against injected dealer errors."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from controller.core.engine import Engine, HandSummary
from controller.core.eventlog import dumps_event, parse_line
from controller.core.events import Event, HandStart
from controller.core.history import phh_text
from controller.core.profiles import PROFILES
from controller.phh import parse_phh
from controller.phh.importer import hands_to_events
from controller.sim import VirtualTable
from controller.sim.score import score
from tests.conformance.oracle import kit_final_stacks

CUCA = PROFILES["cuca"]


def _settle(events: list[Event]) -> tuple[HandSummary, list[str]]:
    engine = Engine(profile=CUCA)
    out = []
    for ev in events:
        out += engine.feed(parse_line(dumps_event(ev)))  # through the JSON Lines contract, both ways
    out += engine.finish(events[-1].t + 1)
    summaries = [o for o in out if isinstance(o, HandSummary)]
    faults = [f"{o.code}: {o.message}" for o in out
              if not isinstance(o, HandSummary) and o.severity != "info"]
    assert len(summaries) == 1
    return summaries[0], faults


def _ends(summary: HandSummary) -> list[int]:
    return [int(s["end"]) for s in summary.payload["seats"]]


def _hand(text: str) -> list[Event]:
    return hands_to_events(parse_phh(text))


def test_short_big_blind_ante_blind_first_then_ante_dead_money_in_the_main_pot() -> None:
    # BB has 150 for a 100 blind and a 100 big-blind ante: TDA 2024 takes the blind first, 50 of ante.
    events = _hand("""variant = 'NT'
antes = [0, 100, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 150, 1000]
actions = ['d dh p1 7c2d', 'd dh p2 AsAh', 'd dh p3 KsKh', 'p3 cc', 'p1 cc', 'd db 8d9cJs', 'p1 cc',
  'p3 cbr 200', 'p1 cc', 'd db 3h', 'p1 cc', 'p3 cc', 'd db 4c', 'p1 cc', 'p3 cc', 'p3 sm KsKh',
  'p2 sm AsAh', 'p1 sm 7c2d']
""")
    level = next(e for e in events if e.TYPE == "level")
    assert (level.ante_mode, level.ante) == ("bb", 100)  # type: ignore[attr-defined]
    summary, faults = _settle(events)
    assert faults == []
    posts = [(a["action"], a["added"]) for a in summary.payload["actions"] if a["action"].startswith("post")]
    assert sorted(posts) == [("post_ante", 50), ("post_bb", 100), ("post_sb", 50)]
    # main pot 3 × 100 + 50 dead = 350 to the aces (BB); side pot 2 × 200 to the kings
    assert [p["amount"] for p in summary.payload["pots"]] == [350, 400]
    assert _ends(summary) == [700, 350, 1100]


def test_straddle_facing_an_all_in_short_of_the_straddle() -> None:
    text = """variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 3]
actions = ['d dh p1 AcKd', 'd dh p2 7h2c', 'd dh p3 8s3d', 'd dh p4 QsQh', 'p4 cc', 'p1 cc', 'p2 cc',
  'p3 cc', 'd db 2d5h9s', 'p1 cc', 'p2 cc', 'p3 cc', 'd db Ts', 'p1 cc', 'p2 cc', 'p3 cc', 'd db Ah',
  'p1 cc', 'p2 cc', 'p3 cc', 'p1 sm AcKd', 'p4 sm QsQh', 'p2 sm 7h2c', 'p3 sm 8s3d']
"""
    events = _hand(text)
    start = next(e for e in events if isinstance(e, HandStart))
    assert start.straddles == (4,)
    summary, faults = _settle(events)
    assert faults == []
    # p4 all-in for 3 below the straddle: main pot 4 × 3 = 12, side pot 3 × 1 = 3; aces win both
    assert [p["amount"] for p in summary.payload["pots"]] == [12, 3]
    assert _ends(summary) == [111, 96, 96, 0]
    assert _ends(summary) == kit_final_stacks(parse_phh(text)[0])  # PokerKit agrees


def test_dead_blind_posted_after_missing_blinds(tmp_path: Path) -> None:
    # p4 comes back: a live 100 (plays as its big blind) and 50 dead (the missed small blind).
    events = _hand("""variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, -100]
min_bet = 100
starting_stacks = [1000, 1000, 1000, 1000]
actions = ['d dh p1 9c8c', 'd dh p2 7h2c', 'd dh p3 8s3d', 'd dh p4 AsKs', 'p3 f', 'p4 cc', 'p1 cc',
  'p2 cc', 'd db 2d5hKh', 'p1 cbr 200', 'p2 f', 'p4 cc', 'd db Ts', 'p1 cc', 'p4 cc', 'd db 4h',
  'p1 cc', 'p4 cc', 'p1 sm 9c8c', 'p4 sm AsKs']
""")
    i = next(i for i, e in enumerate(events) if isinstance(e, HandStart))
    start = events[i]
    assert isinstance(start, HandStart) and start.posts is not None
    p4 = next(iter(start.posts))
    events[i] = dataclasses.replace(start, dead={p4: 50})
    summary, faults = _settle(events)
    assert faults == []
    dead = [a for a in summary.payload["actions"] if a["action"] == "post_dead"]
    assert [(a["seat"], a["added"]) for a in dead] == [(p4, 50)]
    assert summary.payload["pots"][0]["amount"] == 3 * 100 + 50 + 2 * 200
    assert _ends(summary) == [700, 900, 1000, 1400]
    # The export writes the dead chips as p4's ante (dead money, as PHH antes are) and the live post
    # as a negative blind; PokerKit replays the written hand to the same stacks.
    (written,) = parse_phh(phh_text(summary.payload), name="export")
    assert written.antes == [0, 0, 0, 50] and written.blinds == [50, 100, 0, -100]
    assert kit_final_stacks(written) == _ends(summary)


def test_dead_small_blind_p1_posts_the_big_blind() -> None:
    text = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [100, 0, 0]
min_bet = 100
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 9c8c', 'd dh p2 7h2c', 'd dh p3 AsKs', 'p2 f', 'p3 cbr 300', 'p1 f']
"""
    events = _hand(text)
    start = next(e for e in events if isinstance(e, HandStart))
    assert start.dead_sb is True
    summary, faults = _settle(events)
    assert faults == []
    assert summary.payload["sb_seat"] is None
    assert _ends(summary) == [900, 1000, 1100] == kit_final_stacks(parse_phh(text)[0])


VOID = ("misdeal", "fouled_deck")  # a void hand's summary names no big blind


def test_simulator_big_blind_ante_tournament_all_injected_errors_found_no_false_alert() -> None:
    table = VirtualTable(seats=9, seed=7, inject=0.3, ante="bb", level_hands=10)
    hands = list(table.hands(90))
    engine = Engine(profile=table.profile, table="sim")
    alerts, ends, antes = [], {}, []
    for ev in (e for h in hands for e in h.events):
        for o in engine.feed(ev):
            if isinstance(o, HandSummary):
                ends[o.hand] = {int(s["seat"]): int(s["end"]) for s in o.payload.get("seats", [])}
                antes += [a["seat"] == o.payload.get("bb_seat") for a in o.payload.get("actions", [])
                          if a["action"] == "post_ante" and o.payload.get("ended") not in VOID]
            else:
                alerts.append(o)
    s = score(hands, alerts)
    assert sum(s.injected.values()) >= 15
    assert not s.missed and not s.false_alerts and not s.clean_faults
    clean = [h for h in hands[:-1] if h.injected is None and not h.void]
    assert len(clean) > 40
    for h in clean:  # the simulator's chips and the core's agree hand after hand
        assert ends[h.number] and ends[h.number] == {s: h.stacks[s] for s in ends[h.number]}, h.number
    assert len(antes) > 60 and all(antes)  # one ante a hand, always from the big blind


def test_simulator_injects_ante_errors_all_found_and_followed_to_the_simulators_stacks() -> None:
    # Only the two ante injectors, 30 % of hands: every one detected, no other fault alert anywhere,
    # and every hand (with an error or not) ends with the simulator's stacks: the remedy was followed.
    table = VirtualTable(seats=9, seed=11, inject=0.3, ante="bb", level_hands=10,
                         faults=("ANTE_NOT_POSTED", "ANTE_WRONG_SEAT"))
    hands = list(table.hands(80))
    engine = Engine(profile=table.profile, table="sim")
    alerts, ends = [], {}
    for ev in (e for h in hands for e in h.events):
        for o in engine.feed(ev):
            if isinstance(o, HandSummary):
                ends[o.hand] = {int(s["seat"]): int(s["end"]) for s in o.payload.get("seats", [])}
            else:
                alerts.append(o)
    s = score(hands, alerts)
    assert s.injected["ANTE_NOT_POSTED"] >= 5 and s.injected["ANTE_WRONG_SEAT"] >= 5
    assert not s.missed and not s.false_alerts and not s.clean_faults
    for h in hands[:-1]:
        assert ends[h.number] == {s: h.stacks[s] for s in ends[h.number]}, h.number


def _straddle_events() -> list[Event]:
    return _hand("""variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = ['d dh p1 AcKd', 'd dh p2 7h2c', 'd dh p3 8s3d', 'd dh p4 QsQh', 'p4 f', 'p1 f', 'p2 f']
""")


def _codes(events: list[Event]) -> list[tuple[str, int | None]]:
    engine = Engine(profile=CUCA)
    out = [o for ev in events for o in engine.feed(ev)]
    return [(o.code, o.seat) for o in out if not isinstance(o, HandSummary) and o.severity != "info"]


def test_straddle_not_posted_and_straddle_from_the_wrong_seat_are_alerted() -> None:
    events = _straddle_events()
    assert _codes(events) == []
    i = next(i for i, e in enumerate(events) if e.TYPE == "chips" and e.amount == 4)  # type: ignore[attr-defined]
    straddler = events[i].seat  # type: ignore[attr-defined]
    missing = events[:i] + events[i + 1:]
    assert ("DEAL_BEFORE_BLINDS", straddler) in _codes(missing)
    other = next(e.seat for e in events if e.TYPE == "seat" and e.seat not in (straddler,)  # type: ignore[attr-defined]
                 and not any(c.TYPE == "chips" and c.seat == e.seat for c in events[:i + 1]))  # type: ignore[attr-defined]
    wrong = [*events[:i], dataclasses.replace(events[i], seat=other), *events[i + 1:]]  # type: ignore[type-var]
    codes = _codes(wrong)
    assert ("STRADDLE_OUT_OF_TURN", other) in codes and ("DEAL_BEFORE_BLINDS", straddler) in codes
