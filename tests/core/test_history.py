"""PHH writer: written hands are valid TOML, carry burns/irregularities, and replay in PokerKit exactly."""

from __future__ import annotations

import tomllib
import warnings

from pokerkit import HandHistory

from controller.core.alerts import Alert
from controller.core.history import phh_text, phhs_text
from controller.core.profiles import PROFILES
from controller.core.showdown import Showdown
from controller.phh import Play, concretize, parse_phh
from tests.conformance.oracle import parse_one, random_hand


def _summary(seed: int) -> tuple[dict[str, object], list[int]]:
    rh = random_hand(seed)
    concrete, burns = concretize(parse_one(rh.phh_text))
    rec = Play.run(concrete).to_record(burns=burns)
    st = Showdown(rec, PROFILES["cuca"], merge_equal_pots=True).settle(0.0)
    return st.summary, rh.final_stacks


def test_written_hands_replay_in_pokerkit_to_the_same_stacks() -> None:
    warnings.filterwarnings("ignore", category=UserWarning, module="pokerkit")
    for seed in range(150):
        summary, kit = _summary(seed)
        text = phh_text(summary)
        data = tomllib.loads(text)
        assert data["finishing_stacks"] == kit
        assert len(data["_burns"]) == 3
        states = list(HandHistory.loads(text))
        assert list(states[-1].stacks) == kit, seed


def test_irregularities_and_burns_are_comments_and_underscore_fields() -> None:
    summary, _ = _summary(1)
    alert = Alert(id="t1-h1-1", t=1.0, table="t1", hand=1, code="BURN_MISSING_TURN", severity="error",
                  street="turn", seat=None, cards=("Jh",), message="Turn dealt without a burn",
                  remedy="", rule="000 §2.6")
    info = Alert(id="t1-h1-2", t=2.0, table="t1", hand=1, code="POT_AWARD", severity="info",
                 street="showdown", seat=1, cards=(), message="main pot", remedy="", rule="")
    text = phh_text(summary, [alert, info])
    assert "# BURN_MISSING_TURN (error) seat None: Turn dealt without a burn" in text
    data = tomllib.loads(text)
    assert data["_irregularities"] == ["BURN_MISSING_TURN seat None: Turn dealt without a burn"]
    assert "POT_AWARD" not in text
    assert data["_burns"] == summary["burns"]


def test_phhs_file_has_numbered_tables_our_reader_reads() -> None:
    texts = [phh_text(_summary(seed)[0]) for seed in range(3)]
    hands = parse_phh(phhs_text(texts), name="out.phhs")
    assert [h.key for h in hands] == ["1", "2", "3"]
    for h in hands:
        assert h.finishing_stacks is not None
        assert sum(h.finishing_stacks) == sum(h.starting_stacks)


def test_hands_payload_is_canonical_json_with_pots_and_shown_cards() -> None:
    import json

    from controller.core.history import summary_json

    summary, kit = _summary(4)
    line = summary_json(summary)
    assert "\n" not in line and line == summary_json(json.loads(line))
    data = json.loads(line)
    assert [s["end"] for s in data["seats"]] == kit
    assert {"actions", "board", "shown", "pots", "uncalled", "burns", "blinds"} <= set(data)
    assert sum(p["amount"] for p in data["pots"]) == sum(sum(p["winners"].values()) for p in data["pots"])
