"""The daemon takes the table's game from its config (issue 13): a stud journal whose levels name no game is
followed as stud live, after a restart (the journal's replay) and by `cardtable replay --config`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from controller.config import load_config
from controller.core.eventlog import parse_line
from controller.core.events import Event
from controller.core.games.studhand import StudHand
from controller.daemon.app import Daemon
from controller.daemon.outbox import Outbox

ROOT = Path(__file__).resolve().parents[2]


def stud_events_without_game() -> list[Event]:
    """stud_clean_fixed as the console would send it at a stud table: its level names no game."""
    out = []
    for i, line in enumerate((ROOT / "tests/scenarios/stud_clean_fixed.jsonl").read_text().splitlines(), 1):
        obj = json.loads(line)
        if obj["type"] == "level":
            for key in ("game", "sb", "bb", "limit"):
                obj.pop(key)
        out.append(parse_line(json.dumps(obj), line=i))
    return out


def write_config(tmp: Path, game: str) -> Path:
    path = tmp / f"{game}.toml"
    path.write_text(f'state_dir = "{tmp}/state-{game}"\n[table]\ngame = "{game}"\n'
                    + ('limit = "fixed"\n' if game == "stud7" else "") + "[mqtt]\nenabled = false\n")
    return path


def rows(outbox: Outbox, topic: str) -> list[dict[str, object]]:
    return [json.loads(r.payload) for r in outbox.pending(10_000) if r.topic == topic]


def test_the_daemon_follows_a_stud_table_from_its_config_across_a_restart(tmp_path: Path) -> None:
    events = stud_events_without_game()
    cfg_path = write_config(tmp_path, "stud7")
    cfg = load_config(cfg_path)
    first = Daemon(cfg, publish=False)
    half = len(events) // 2
    for ev in events[:half]:
        first.process(ev)
    assert isinstance(first.engine.current, StudHand)
    street = first.engine.current.street
    first.journal.close()
    first.outbox.close()

    resumed = Daemon(cfg, publish=False)  # the journal is replayed with the config's game
    assert resumed.recovered == half
    assert isinstance(resumed.engine.current, StudHand) and resumed.engine.current.street == street
    for ev in events[half:]:
        resumed.process(ev)
    resumed.end_session()
    alerts = rows(resumed.outbox, "alerts")
    assert [a["code"] for a in alerts] == ["SHOWDOWN_ORDER", "POT_AWARD"]
    assert alerts[0]["street"] == "showdown" and alerts[1]["pots"][0]["winners"] == {"3": 80}  # type: ignore[index]
    (hand,) = rows(resumed.outbox, "hands")
    assert hand["game"] == "stud7"
    journal = resumed.session.path
    resumed.journal.close()
    resumed.outbox.close()

    # `cardtable replay --config` of the journal gives the alerts the daemon raised, byte for byte
    res = subprocess.run([sys.executable, "-m", "controller", "replay", "--keep-going", "--json", "--config",
                          str(cfg_path), str(journal)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    replayed = [json.loads(x) for x in res.stdout.splitlines()]
    assert [(a["id"], a["code"], a["message"]) for a in replayed] == [
        (a["id"], a["code"], a["message"]) for a in alerts]


def test_the_same_events_at_a_holdem_table_raise_bad_event_for_the_level(tmp_path: Path) -> None:
    events = stud_events_without_game()
    daemon = Daemon(load_config(write_config(tmp_path, "holdem")), publish=False)
    for ev in events[:8]:
        daemon.process(ev)
    alerts = rows(daemon.outbox, "alerts")
    assert alerts and alerts[0]["code"] == "BAD_EVENT"
    assert "names no game" in str(alerts[0]["message"]) and "field 'bb'" in str(alerts[0]["message"])
    assert not isinstance(daemon.engine.current, StudHand)
    daemon.journal.close()
    daemon.outbox.close()
