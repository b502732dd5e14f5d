"""PHH F7S (fixed-limit seven-card stud) and FT (fixed-limit hold'em) hands as table event logs (§1a).

The dev sample's real WSOP 2023 hands (tests/data/phh/real, MIT, see SOURCE.txt): antes as chips, 3rd
street one card at a time (two rounds down, the third up with its `exposed`), the bring-in a `bet`, its
completion a `raise`, 4th–6th up, 7th down, the showdown exposing only the down-cards.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.core.events import ActionEvent, CardSeen, ChipsEvent, Exposed, HandStart, LevelEvent
from controller.phh import PhhError, parse_phh
from controller.phh.importer import hands_to_events
from controller.phh.stud import StudPlay, up_plan

REAL = Path(__file__).resolve().parents[1] / "data" / "phh" / "real" / "wsop2023_e43_dev.phhs"


def _hand(variant: str, k: int) -> list[object]:
    hands = [h for h in parse_phh(REAL.read_text(encoding="utf-8")) if h.variant == variant]
    return list(hands_to_events([hands[k]]))


def test_up_and_down_follow_the_deal_plan() -> None:
    assert up_plan(0, 3) == (False, False, True)
    assert [up_plan(n, 1)[0] for n in (3, 4, 5, 6)] == [True, True, True, False]
    with pytest.raises(PhhError, match="seven"):
        up_plan(7, 1)


def test_dev_stud_hand_as_the_table_would_see_it() -> None:
    ev = _hand("F7S", 0)  # [4]: p3 brings in, p1 completes, p2 raises, heads-up to 7th, p2 shows
    level = next(e for e in ev if isinstance(e, LevelEvent))
    assert (level.game, level.limit, level.ante, level.bring_in, level.small_bet, level.big_bet) == \
        ("stud7", "fixed", 50000, 50000, 200000, 400000)
    start = next(e for e in ev if isinstance(e, HandStart))
    assert start.button is None
    antes = [e for e in ev if isinstance(e, ChipsEvent)]
    assert [(e.seat, e.amount) for e in antes] == [(s, 50000) for s in range(1, 6)]
    cards = [e for e in ev if isinstance(e, CardSeen) and e.zone.startswith("seat")]
    assert [e.zone for e in cards[:15]] == [f"seat{s}" for s in range(1, 6)] * 3
    i_first_act = next(i for i, e in enumerate(ev) if isinstance(e, ActionEvent))
    up_at_deal = [e.card for e in ev[:i_first_act] if isinstance(e, Exposed)]
    assert up_at_deal == ["Ac", "8c", "6d", "Jh", "Qs"]  # the third card of each seat
    acts = [(e.seat, e.action, e.amount) for e in ev if isinstance(e, ActionEvent)]
    assert acts[:3] == [(3, "bet", 50000), (4, "fold", None), (5, "fold", None)]
    assert acts[3:5] == [(1, "raise", 200000), (2, "raise", 400000)]  # completion, then a raise
    exposed = [e.card for e in ev if isinstance(e, Exposed)]
    for up in ("Kc", "4c", "5s", "7h", "2d", "6c"):  # 4th–6th street face up
        assert up in exposed
    seventh = ["Ad", "Qc"]
    i7 = [next(i for i, e in enumerate(ev) if isinstance(e, CardSeen) and e.card == c) for c in seventh]
    assert all(not isinstance(ev[i + 1], Exposed) for i in i7)  # 7th street face down
    shown = [e.card for e in ev[max(i7):] if isinstance(e, Exposed)]
    assert shown == ["Ts", "9s", "Qc"]  # p2's down-cards; p1 mucked unseen


def test_every_dev_stud_and_limit_holdem_hand_imports() -> None:
    hands = parse_phh(REAL.read_text(encoding="utf-8"))
    assert sorted(h.variant for h in hands) == ["F7S"] * 3 + ["FT"] * 2 + ["NT"] * 3
    events = hands_to_events(hands)
    levels = [e for e in events if isinstance(e, LevelEvent)]
    assert [(lv.game, lv.limit) for lv in levels] == [("holdem", "no")] * 3 + [("stud7", "fixed")] * 3 + \
        [("holdem", "fixed")] * 2
    assert all(lv.small_bet == 200000 and lv.big_bet == 400000 for lv in levels[6:])
    for h in hands:
        if h.variant == "F7S":
            play = StudPlay.run(h)
            assert sum(play.committed) == sum(h.starting_stacks) - sum(play.stacks)


BASE = """variant = 'F7S'
antes = [10, 10]
bring_in = 5
small_bet = 20
big_bet = 40
starting_stacks = [1000, 1000]
"""


@pytest.mark.parametrize(("extra", "message"), [
    ("actions = ['d dh p1 ????Ac', 'd dh p2 ????2c', 'p2 pb', 'p1 f']\n", None),
    ("actions = ['d dh p1 ??????', 'd dh p2 ????2c']\n", "up-card"),
    ("actions = ['d dh p1 AcAd', 'd dh p2 2d2c2h']\n", "three cards"),
    ("actions = ['d dh p1 AcAd', 'd dh p2 2d2c2h', 'p1 pb']\n", "three cards"),
    ("actions = ['d dh p1 AcAd', 'd dh p2 2d2c2h', 'd dh p1 Ah5s']\n", "three cards"),
    ("actions = ['d dh p1 Ac', 'd dh p2 2d', 'd dh p1 Ad', 'd dh p2 2c', 'd dh p1 Ah', 'd dh p2 2h', 'p2 pb',"
     " 'p1 f']\n", None),
    ("actions = ['d dh p1 AcAdAh', 'd dh p2 2d2c2h', 'p2 cc', 'p1 pb']\n", "bring-in"),
])
def test_stud_actions_checked(extra: str, message: str | None) -> None:
    hands = parse_phh(BASE + extra)
    if message is None:
        play = StudPlay.run(hands[0])
        assert play.up in ({0: ["Ac"], 1: ["2c"]}, {0: ["Ah"], 1: ["2h"]})  # the third card lies face up
        return
    with pytest.raises(PhhError, match=message):
        StudPlay.run(hands[0])


@pytest.mark.parametrize(("fields", "message"), [
    ("variant = 'F7S'\nantes = [1, 1]\nsmall_bet = 2\nbig_bet = 4\n", "bring_in"),
    ("variant = 'F7S'\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n"
     "blinds_or_straddles = [1, 2]\n", "not blinds"),
    ("variant = 'FT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nsmall_bet = 4\nbig_bet = 2\n", "above"),
    ("variant = 'FT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nbring_in = 1\nsmall_bet = 2\n"
     "big_bet = 4\n", "bring-in"),
])
def test_limit_fields_refused_by_name(fields: str, message: str) -> None:
    text = fields + "starting_stacks = [100, 100]\nactions = []\n"
    with pytest.raises(PhhError, match=message):
        parse_phh(text)


def _export(log: Path) -> str:
    """`replay --phh` in-process: the hands of a log as PHHS text."""
    from controller.core.engine import Engine, HandSummary
    from controller.core.eventlog import read_events
    from controller.core.history import PhhCollector

    engine, phh = Engine(table="t1"), PhhCollector()
    for _, ev in read_events(log.read_text(encoding="utf-8").splitlines()):
        outs = engine.feed(ev)
        phh.event(ev, engine.hand, engine.current.level if engine.hand else None)
        for out in outs:
            if isinstance(out, HandSummary):
                phh.summary(out.hand, out.payload)
    for out in engine.finish(engine.last_t):
        if isinstance(out, HandSummary):
            phh.summary(out.hand, out.payload)
    return phh.text()


def test_a_stud_hand_written_as_f7s_reads_back_and_pokerkit_agrees(tmp_path: Path) -> None:
    import io
    import tomllib
    from decimal import Decimal

    from pokerkit import HandHistory

    scenario = Path(__file__).resolve().parents[1] / "scenarios" / "stud_clean_fixed.jsonl"
    text = _export(scenario)
    written = tomllib.loads(text, parse_float=Decimal)["1"]
    assert written["variant"] == "F7S" and written["bring_in"] == 10 and written["small_bet"] == 20
    assert written["actions"][:4] == ["d dh p1 ????7c", "d dh p2 ????4d", "d dh p3 QcQd2c", "d dh p4 ????Jh"]
    assert "p3 pb" in written["actions"] and "p4 cbr 20" in written["actions"]
    assert written["finishing_stacks"] == [975, 995, 1055, 975]
    kit = list(next(iter(HandHistory.load_all(io.BytesIO(text.encode())))))[-1]
    assert list(kit.stacks) == [975, 995, 1055, 975]
    again = hands_to_events(parse_phh(text))  # and back into a table log
    assert sum(isinstance(e, Exposed) for e in again) >= 4 * 3 + 3  # every up-card and the shown hand
