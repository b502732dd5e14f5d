"""Showdown and settlement: the golden scenarios of issue #3 and each S-section code, at HandRecord level."""

from __future__ import annotations

from typing import Any

from controller.core.alerts import Finding
from controller.core.events import CardSeen, Exposed
from controller.core.profiles import PROFILES
from controller.core.showdown import Settlement, Showdown
from tests.core.handbuilder import make_record

CUCA = PROFILES["cuca"]
HANDBUCH = PROFILES["handbuch"]


def codes(findings: list[Finding]) -> list[str]:
    return [f.code for f in findings]


def award(settlement: Settlement) -> list[dict[str, Any]]:
    (f,) = [f for f in settlement.findings if f.code == "POT_AWARD"]
    pots: list[dict[str, Any]] = f.extra["pots"]
    return pots


def test_three_way_all_in_with_two_side_pots() -> None:
    rec = make_record(
        stacks={1: 100, 2: 300, 3: 600, 4: 1_000}, button=4,
        committed={1: 100, 2: 300, 3: 600, 4: 1_000}, all_in_order=[1, 2, 3],
        hole={1: ["As", "Ad"], 2: ["Qs", "Qd"], 3: ["5s", "5d"], 4: ["4s", "3s"]},
        board=["2c", "7d", "9h", "Jc", "Ks"],
    )
    sd = Showdown(rec, CUCA)
    opened = sd.open(10.0)
    assert codes(opened) == ["UNCALLED_BET", "SHOWDOWN_ORDER"]
    assert opened[0].seat == 4 and opened[0].extra == {"amount": 400}
    assert opened[1].seat == 1 and opened[1].extra == {"order": [1, 2, 3, 4]}  # nobody bet the river
    st = sd.settle(11.0)
    assert codes(st.findings) == ["POT_AWARD"]  # the uncalled bet is not announced twice
    assert award(st) == [
        {"amount": 400, "eligible": [1, 2, 3, 4], "winners": {"1": 400}, "hand": "one pair",
         "best5": ["As", "Ad", "Ks", "Jc", "9h"]},
        {"amount": 600, "eligible": [2, 3, 4], "winners": {"2": 600}, "hand": "one pair",
         "best5": ["Qs", "Qd", "Ks", "Jc", "9h"]},
        {"amount": 600, "eligible": [3, 4], "winners": {"3": 600}, "hand": "one pair",
         "best5": ["5s", "5d", "Ks", "Jc", "9h"]},
    ]
    assert st.finishing_stacks == {1: 400, 2: 600, 3: 600, 4: 400}
    # The message pushes the last side pot first (000 §4.1).
    (f,) = [f for f in st.findings if f.code == "POT_AWARD"]
    assert f.message.startswith("side pot 2 600: seat 3 600")
    assert f.message.endswith("main pot 400: seat 1 400 (one pair)")


def _three_way_tie(profile_name: str) -> Settlement:
    rec = make_record(
        stacks={1: 1_000, 2: 1_000, 3: 1_000, 4: 1_000}, button=4, sb=10, bb=20, chip=5,
        committed={1: 10, 2: 100, 3: 100, 4: 100}, folded=[1],
        hole={1: ["2h", "3h"], 2: ["Ac", "Kd"], 3: ["Ah", "Kh"], 4: ["Qs", "Jd"]},
        board=["5c", "6d", "7h", "8s", "9c"],
    )
    sd = Showdown(rec, PROFILES[profile_name])
    sd.open(1.0)
    return sd.settle(2.0)


def test_odd_chips_among_three_winners_handbuch_one_each_from_the_button() -> None:
    st = _three_way_tie("handbuch")
    assert award(st)[0]["winners"] == {"2": 105, "3": 105, "4": 100}
    assert award(st)[0]["hand"] == "straight"
    assert st.finishing_stacks == {1: 990, 2: 1_005, 3: 1_005, 4: 1_000}


def test_odd_chips_among_three_winners_cuca_all_to_the_first() -> None:
    st = _three_way_tie("cuca")
    assert award(st)[0]["winners"] == {"2": 110, "3": 100, "4": 100}
    assert sum(st.finishing_stacks.values()) == 4_000


def test_tournament_example_000_4_1() -> None:
    rec = make_record(
        stacks={1: 100_000, 2: 100_000, 3: 100_000}, button=3, sb=7_000, bb=14_000, chip=1_000,
        committed={1: 7_000, 2: 14_000, 3: 14_000}, folded=[1],
        hole={1: ["2h", "4h"], 2: ["9c", "8c"], 3: ["9d", "8d"]},
        board=["2s", "3s", "5c", "Jd", "Kh"],
    )
    st = Showdown(rec, HANDBUCH).settle(5.0)
    assert award(st) == [{"amount": 35_000, "eligible": [2, 3], "winners": {"2": 18_000, "3": 17_000},
                          "hand": "high card", "best5": ["Kh", "Jd", "9c", "8c", "5c"]}]
    assert st.finishing_stacks == {1: 93_000, 2: 104_000, 3: 103_000}


def test_uncalled_river_bet_wins_without_showing() -> None:
    rec = make_record(stacks={1: 1_000, 2: 1_000}, button=2, committed={1: 300, 2: 800}, folded=[1],
                      hole={1: ["Ac", "Ad"], 2: ["7c", "2d"]}, board=["Kc", "Qd", "3h", "4s", "9c"],
                      river_aggressor=2)
    sd = Showdown(rec, CUCA)
    opened = sd.open(1.0)
    assert codes(opened) == ["UNCALLED_BET"]  # one hand left: no showdown order
    assert opened[0].seat == 2 and opened[0].extra == {"amount": 500}
    st = sd.settle(2.0)
    assert codes(st.findings) == ["POT_AWARD"]
    assert award(st) == [{"amount": 600, "eligible": [2], "winners": {"2": 600}, "hand": None, "best5": []}]
    assert st.finishing_stacks == {1: 700, 2: 1_300}
    assert st.summary["uncalled"] == {"seat": 2, "amount": 500}


def test_uncalled_part_of_a_river_bet_against_a_short_all_in() -> None:
    rec = make_record(stacks={1: 500, 2: 1_000}, button=2, committed={1: 500, 2: 800},
                      hole={1: ["Ac", "Ad"], 2: ["7c", "2d"]}, board=["Kc", "Qd", "3h", "4s", "9c"],
                      river_aggressor=2, all_in_order=[1])
    st = Showdown(rec, CUCA).settle(2.0)  # settle without open still reports the uncalled bet
    assert codes(st.findings) == ["UNCALLED_BET", "POT_AWARD"]
    assert st.findings[0].extra == {"amount": 300}
    assert st.finishing_stacks == {1: 1_000, 2: 500}


def test_playing_the_board_without_showing_loses_the_claim() -> None:
    rec = make_record(stacks={1: 1_000, 2: 1_000, 3: 1_000}, button=3, committed={1: 200, 2: 200, 3: 200},
                      hole={1: ["2c", "3d"], 2: ["4c", "5d"], 3: ["6c", "7d"]},
                      board=["Ah", "Kh", "Qh", "Jh", "Th"], shown=[1])
    sd = Showdown(rec, CUCA)
    sd.open(1.0)
    sd.on_card(CardSeen(t=2.0, zone="muck", card="4c"), "4c")
    st = sd.settle(3.0)
    assert codes(st.findings) == ["PLAY_THE_BOARD_UNDECLARED", "PLAY_THE_BOARD_UNDECLARED", "POT_AWARD"]
    assert [f.seat for f in st.findings[:2]] == [2, 3]
    assert award(st)[0]["winners"] == {"1": 600}
    assert award(st)[0]["hand"] == "straight flush"
    assert st.finishing_stacks == {1: 1_400, 2: 800, 3: 800}


def test_showing_the_hole_cards_keeps_the_board_player_in_the_split() -> None:
    rec = make_record(stacks={1: 1_000, 2: 1_000}, button=2, committed={1: 200, 2: 200},
                      hole={1: ["2c", "3d"], 2: ["4c", "5d"]}, board=["Ah", "Kh", "Qh", "Jh", "Th"], shown=[])
    sd = Showdown(rec, CUCA)
    for ev_seat, card in ((1, "2c"), (1, "3d"), (2, "4c"), (2, "5d")):
        sd.on_card(Exposed(t=2.0, zone=f"seat{ev_seat}", card=card), card)
    st = sd.settle(3.0)
    assert codes(st.findings) == ["POT_AWARD"]
    assert award(st)[0]["winners"] == {"1": 200, "2": 200}


def test_mucked_winner_is_identifiable_and_still_wins() -> None:
    rec = make_record(stacks={1: 1_000, 2: 1_000}, button=2, committed={1: 400, 2: 400},
                      hole={1: ["Ac", "Ad"], 2: ["Kc", "Kd"]}, board=["Kh", "7d", "3h", "4s", "9c"],
                      shown=[1])
    sd = Showdown(rec, CUCA)
    for card in ("Kc", "Kd"):
        sd.on_card(CardSeen(t=2.0, zone="muck", card=card), card)
    st = sd.settle(3.0)
    assert codes(st.findings) == ["MUCKED_WINNER", "POT_AWARD"]
    assert st.findings[0].seat == 2 and "mucked" in st.findings[0].message
    assert st.findings[0].cards == ("Kh", "Kd", "Kc", "9c", "7d")
    assert award(st)[0]["winners"] == {"2": 800}


def test_losing_hand_need_not_be_shown() -> None:
    rec = make_record(stacks={1: 1_000, 2: 1_000}, button=2, committed={1: 400, 2: 400},
                      hole={1: ["Ac", "Ad"], 2: ["Qc", "Jd"]}, board=["Kh", "7d", "3h", "4s", "9c"],
                      shown=[1])
    st = Showdown(rec, CUCA).settle(3.0)
    assert codes(st.findings) == ["POT_AWARD"]
    assert st.finishing_stacks == {1: 1_400, 2: 600}


def test_showdown_order_last_river_aggressor_first() -> None:
    rec = make_record(stacks={1: 1_000, 2: 1_000, 3: 1_000}, button=1, committed={1: 400, 2: 400, 3: 400},
                      hole={1: ["Ac", "Ad"], 2: ["Qc", "Jd"], 3: ["2c", "2d"]},
                      board=["Kh", "7d", "3h", "4s", "9c"], river_aggressor=3)
    (order,) = Showdown(rec, CUCA).open(1.0)
    assert order.code == "SHOWDOWN_ORDER" and order.seat == 3
    assert order.extra == {"order": [3, 1, 2]}
    assert "river" in order.message


def test_elimination_order_more_chips_first_then_later_all_in() -> None:
    rec = make_record(
        stacks={1: 300, 2: 100, 3: 100, 4: 5_000}, button=4, committed={1: 300, 2: 100, 3: 100, 4: 300},
        hole={1: ["2c", "3d"], 2: ["4c", "5d"], 3: ["6c", "8d"], 4: ["Ac", "Ad"]},
        board=["Kh", "Jd", "Th", "9s", "2h"], all_in_order=[3, 2, 1],
    )
    st = Showdown(rec, CUCA).settle(1.0)
    (elim,) = [f for f in st.findings if f.code == "ELIMINATION_ORDER"]
    # Seat 1 started with more chips; seats 2 and 3 had equal stacks and seat 2 went all-in later.
    assert elim.extra == {"order": [1, 2, 3]}
    assert st.finishing_stacks == {1: 0, 2: 0, 3: 0, 4: 5_500}


def test_antes_are_dead_money_and_a_dead_hand_has_no_claim() -> None:
    rec = make_record(
        stacks={1: 1_000, 2: 1_000, 3: 1_000}, button=3, committed={1: 110, 2: 310, 3: 310},
        antes={1: 10, 2: 10, 3: 10}, dead=[3],
        hole={1: ["Ac", "Ad"], 2: ["Kc", "Kd"], 3: ["Qc", "Qd"]}, board=["2h", "7d", "3h", "4s", "9c"],
        all_in_order=[],
    )
    st = Showdown(rec, CUCA).settle(1.0)
    # Contributions 100/300/300; seat 3 dead: main 300 + 30 antes to seat 1, side 400 to seat 2.
    assert [(p["amount"], p["winners"]) for p in award(st)] == [(330, {"1": 330}), (400, {"2": 400})]
    assert st.finishing_stacks == {1: 1_220, 2: 1_090, 3: 690}


def test_misdeal_returns_everything() -> None:
    rec = make_record(stacks={1: 1_000, 2: 1_000}, button=2, committed={1: 1, 2: 2})
    rec.ended = "misdeal"
    st = Showdown(rec, CUCA).settle(1.0)
    assert st.findings == [] and st.finishing_stacks == {1: 1_000, 2: 1_000}


def test_summary_payload() -> None:
    rec = make_record(stacks={1: 1_000, 2: 1_000}, button=2, committed={1: 400, 2: 400},
                      hole={1: ["Ac", "Ad"], 2: ["Qc", "Jd"]}, board=["Kh", "7d", "3h", "4s", "9c"])
    st = Showdown(rec, CUCA).settle(3.0)
    s = st.summary
    assert s["hand"] == 1 and s["button"] == 2 and s["board"] == ["Kh", "7d", "3h", "4s", "9c"]
    assert s["seats"] == [{"seat": 1, "player": None, "start": 1_000, "end": 1_400},
                          {"seat": 2, "player": None, "start": 1_000, "end": 600}]
    assert s["shown"] == {"1": ["Ac", "Ad"], "2": ["Qc", "Jd"]}
    assert s["pots"] == award(st)


def test_dead_big_blind_stays_in_the_pot() -> None:
    """A dead hand's blinds stay in (engine alert DEAD_HAND_ABSENT): nothing comes back to that seat."""
    rec = make_record(stacks={1: 1_000, 2: 1_000, 3: 1_000}, button=3, committed={1: 50, 2: 100, 3: 0},
                      folded=[3], dead=[2], hole={1: ["Ac", "Ad"], 2: ["Kc", "Kd"], 3: ["2c", "3d"]})
    st = Showdown(rec, CUCA).settle(1.0)
    assert codes(st.findings) == ["POT_AWARD"]
    assert award(st) == [{"amount": 150, "eligible": [1], "winners": {"1": 150}, "hand": None, "best5": []}]
    assert st.finishing_stacks == {1: 1_100, 2: 900, 3: 1_000}
