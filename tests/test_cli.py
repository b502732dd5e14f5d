"""The command line as a user runs it: `python -m controller` in a subprocess."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_replay_example_exits_zero() -> None:
    res = run("replay", "config/examples/basic.jsonl")
    assert res.returncode == 0, res.stderr


def test_replay_malformed_log_exits_2_naming_line(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"t":1,"type":"knock"}\n{"t":2,"type":"card","zone":"seat1","card":"1x"}\n')
    res = run("replay", str(log), "--json")
    assert res.returncode == 2
    assert "line 2, field 'card'" in res.stderr
    assert "Traceback" not in res.stderr


def test_replay_missing_file_exits_2() -> None:
    res = run("replay", "/nonexistent/log.jsonl")
    assert res.returncode == 2
    assert "cannot read" in res.stderr


def test_replay_takes_the_game_from_the_level(tmp_path: Path) -> None:
    """A stud log replays as stud (issue 13): stud streets in the alerts; the PHH writer skips the hand."""
    res = run("replay", "tests/scenarios/stud_bring_in_wrong_stands.jsonl", "--json", "--phh",
              str(tmp_path / "out.phhs"))
    assert res.returncode == 0, res.stderr
    alerts = [json.loads(line) for line in res.stdout.splitlines()]
    assert alerts[0]["code"] == "STUD_BRING_IN_WRONG" and alerts[0]["street"] == "third"
    assert alerts[-1]["code"] == "POT_AWARD" and alerts[-1]["pots"][0]["winners"] == {"3": 60}


def _stud_log_without_game(tmp_path: Path) -> Path:
    """stud_clean_fixed with a level that names no game (nor blinds): the table's game must say stud."""
    lines = []
    for line in (ROOT / "tests/scenarios/stud_clean_fixed.jsonl").read_text().splitlines():
        obj = json.loads(line)
        if obj["type"] == "level":
            for key in ("game", "sb", "bb"):
                obj.pop(key)
        lines.append(json.dumps(obj))
    log = tmp_path / "stud.jsonl"
    log.write_text("\n".join(lines) + "\n")
    return log


def test_replay_takes_the_game_from_config_or_option(tmp_path: Path) -> None:
    """Issue 13: a level that names no game plays the table's game: `--config` ([table] game) or `--game`."""
    log = _stud_log_without_game(tmp_path)
    want = run("replay", "tests/scenarios/stud_clean_fixed.jsonl", "--json")
    assert want.returncode == 0 and len(want.stdout.splitlines()) == 2, want.stderr
    config = tmp_path / "table.toml"
    config.write_text('[table]\nid = "t1"\ngame = "stud7"\n')
    by_config = run("replay", str(log), "--json", "--config", str(config))
    by_option = run("replay", str(log), "--json", "--game", "stud7")
    assert (by_config.returncode, by_option.returncode) == (0, 0), by_config.stderr + by_option.stderr
    assert by_config.stdout == want.stdout and by_option.stdout == want.stdout
    # hold'em (the default, or the option over the config): the level is refused with its line
    for args in ((), ("--config", str(config), "--game", "holdem")):
        res = run("replay", str(log), *args)
        assert res.returncode == 2 and "Traceback" not in res.stderr
        assert "line 5: level names no game, so it is the table's 'holdem'" in res.stderr, res.stderr


def test_replay_config_sets_table_id_and_refuses_a_bad_config(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[table]\nid = "t9"\nprofile = "handbuch"\n')
    res = run("replay", "config/examples/premature_turn.jsonl", "--json", "--config", str(config))
    assert res.returncode == 0 and json.loads(res.stdout.splitlines()[0])["id"].startswith("t9-h1-")
    config.write_text('[table]\ngame = "holdem"\nbring_in = 5\n')
    res = run("replay", "config/examples/premature_turn.jsonl", "--config", str(config))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip() == (f"cardtable replay: {config}: table.bring_in: a bring-in belongs to stud "
                                  f"(game 'stud7'), not hold'em")


def test_replay_options_beat_the_config(tmp_path: Path) -> None:
    """--profile/--table/--game over the config; another --game drops the config's structure (it was
    written for the config's game: a stud bring-in must not reach a hold'em table)."""
    import argparse

    from controller.commands.replay import _engine, register

    config = tmp_path / "table.toml"
    config.write_text('[table]\nid = "t4"\nprofile = "uesg"\nknock_pause_s = 2.5\ngame = "stud7"\n'
                      'limit = "fixed"\nbring_in = 10\nsmall_bet = 20\n')
    parser = argparse.ArgumentParser()
    register(parser)
    eng = _engine(parser.parse_args(["x.jsonl", "--config", str(config)]))
    assert (eng.table, eng.profile.name, eng.profile.knock_pause_s) == ("t4", "uesg", 2.5)
    assert (eng.table_game.game, eng.table_game.limit, eng.table_game.bring_in) == ("stud7", "fixed", 10)
    eng = _engine(parser.parse_args(["x.jsonl", "--config", str(config), "--game", "holdem", "--table", "t5",
                                     "--profile", "tda"]))
    assert (eng.table, eng.profile.name, eng.profile.knock_pause_s) == ("t5", "tda", 2.5)
    assert (eng.table_game.game, eng.table_game.limit, eng.table_game.bring_in) == ("holdem", None, 0)
    eng = _engine(parser.parse_args(["x.jsonl", "--game", "stud7"]))
    assert (eng.table, eng.profile.name, eng.table_game.game) == ("t1", "cuca", "stud7")
