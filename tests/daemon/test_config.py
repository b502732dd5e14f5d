"""Config: every error with its path at once, unknown keys fatal, frozen, exit 2 with one line each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from controller.config import ConfigError, load_config, load_deck, parse_config

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_example_config_is_valid_and_documents_every_option() -> None:
    cfg = load_config(ROOT / "config/table.example.toml")
    assert cfg.table.id == "t1"
    text = (ROOT / "config/table.example.toml").read_text()
    # Every field of every section appears in the example (commented or not).
    from controller.config import Config
    for section, info in Config.model_fields.items():
        assert section in text, section
        sub = info.annotation
        for model in getattr(sub, "__args__", (sub,)):
            for name in getattr(model, "model_fields", {}):
                assert name in text, f"{section}.{name} undocumented"


def test_all_errors_reported_at_once_with_paths() -> None:
    with pytest.raises(ConfigError) as err:
        parse_config({"table": {"id": "a b", "seats": 30, "profile": "x"}, "mqtt": {"port": 0},
                      "hubs": [{"device": "/dev/x", "readers": {"0": "floor"}}], "colour": "red"})
    lines = err.value.errors
    assert any(line.startswith("table.id:") for line in lines)
    assert any(line.startswith("table.seats:") for line in lines)
    assert any(line.startswith("table.profile:") and "unknown profile" in line for line in lines)
    assert any(line.startswith("mqtt.port:") for line in lines)
    assert any(line.startswith("hubs[0].readers:") and "floor" in line for line in lines)
    assert "colour: unknown key" in lines


def test_unknown_nested_key_is_fatal() -> None:
    with pytest.raises(ConfigError) as err:
        parse_config({"mqtt": {"hostname": "x"}})
    assert err.value.errors == ["mqtt.hostname: unknown key"]


def test_config_is_frozen() -> None:
    cfg = parse_config({})
    with pytest.raises(ValidationError):
        cfg.table.id = "t2"  # type: ignore[misc]


def test_defaults_only_in_schema() -> None:
    cfg = parse_config({})
    assert cfg.mqtt.port == 1883 and cfg.journal.fsync_interval_s == 0.2 and cfg.tap is None


def test_cli_malformed_config_one_line_per_error_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[table]\nseats = "many"\nflavour = 1\n[mqtt]\nport = 99999\n')
    res = cli("run", "--config", str(bad))
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 3, lines
    assert all(line.startswith(f"cardtable run: {bad}: ") for line in lines)


def test_cli_toml_syntax_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[table\n")
    res = cli("run", "--config", str(bad))
    assert res.returncode == 2 and "not valid TOML" in res.stderr and "Traceback" not in res.stderr


def test_cli_missing_config(tmp_path: Path) -> None:
    res = cli("run", "--config", str(tmp_path / "nope.toml"))
    assert res.returncode == 2 and "cannot read" in res.stderr and len(res.stderr.splitlines()) == 1


def test_cli_unreadable_deck_file(tmp_path: Path) -> None:
    cfgf = tmp_path / "c.toml"
    cfgf.write_text(f'state_dir = "{tmp_path}/state"\ndecks = ["{tmp_path}/missing.json"]\n'
                    "[mqtt]\nenabled = false\n")
    res = cli("run", "--config", str(cfgf))
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip() == f"cardtable run: deck file {tmp_path}/missing.json: cannot read: " \
                                 "No such file or directory"


def test_deck_file_needs_52_distinct_cards(tmp_path: Path) -> None:
    f = tmp_path / "d.json"
    f.write_text('{"id": "red", "cards": {"0a": "As", "0b": "As"}}')
    with pytest.raises(ValueError, match="52 tags"):
        load_deck(f)
    f.write_text("{oops")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_deck(f)


def test_check_flag_validates_only(tmp_path: Path) -> None:
    res = cli("run", "--config", str(ROOT / "config/table.example.toml"), "--check")
    assert res.returncode == 0, res.stderr


def test_zone_beyond_table_seats() -> None:
    with pytest.raises(ConfigError) as err:
        parse_config({"table": {"seats": 6}, "hubs": [{"device": "/dev/x", "readers": {"0": "seat9"}}]})
    assert err.value.errors == ["(top level): hub 'hub0': zone seat9 beyond table.seats = 6"]


# --- the table's game (issue 13: the daemon and replay take the game from the config) ---------------------
def test_table_game_defaults_to_holdem_with_nothing_filled_in() -> None:
    game = parse_config({}).table.table_game()
    assert (game.game, game.limit, game.bring_in, game.small_bet, game.big_bet) == ("holdem", None, 0, 0, 0)


@pytest.mark.parametrize("table", [
    {"game": "stud7"},  # the amounts may all come from the level events
    {"game": "stud7", "limit": "fixed", "bring_in": 10, "small_bet": 20, "big_bet": 40},
    {"game": "stud7", "limit": "pot", "bring_in": 10},
    {"game": "holdem", "limit": "fixed", "small_bet": 100, "big_bet": 200},
    {"game": "holdem", "limit": "spread", "small_bet": 100, "big_bet": 500},
])
def test_good_table_games(table: dict[str, object]) -> None:
    game = parse_config({"table": table}).table.table_game()
    assert game.game == table["game"] and game.limit == table.get("limit")
    assert (game.bring_in, game.small_bet) == (table.get("bring_in", 0), table.get("small_bet", 0))


NO_BRING_IN = "table.bring_in: a bring-in belongs to stud (game 'stud7'), not hold'em"


@pytest.mark.parametrize(("table", "line"), [
    ({"game": "holdem", "bring_in": 5}, NO_BRING_IN),
    ({"bring_in": 5}, NO_BRING_IN),
    ({"game": "holdem", "small_bet": 100}, "table.small_bet: only with a fixed, split, spread or step_spread "
                                           "limit (limit is 'no')"),
    ({"game": "stud7", "limit": "fixed", "small_bet": 40, "big_bet": 20},
     "table.big_bet: must be at least small_bet (40), got 20"),
    ({"game": "stud7", "limit": "fixed", "bring_in": 30, "small_bet": 20},
     "table.bring_in: must be at most small_bet (20), got 30"),
    ({"game": "omaha"}, "table.game: Input should be 'holdem' or 'stud7'"),
    ({"game": "stud7", "limit": "nolimit"}, "table.limit: Input should be 'no', 'pot', 'fixed', 'spread', "
                                            "'split' or 'step_spread'"),
    ({"game": "stud7", "bring_in": 0}, "table.bring_in: Input should be greater than or equal to 1"),
    ({"game": "stud7", "bringin": 10}, "table.bringin: unknown key"),
])
def test_impossible_table_games_are_one_line_each_with_the_path(table: dict[str, object], line: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_config({"table": table})
    assert err.value.errors == [line]


def test_cli_check_names_an_impossible_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(f'state_dir = "{tmp_path}/state"\n[table]\ngame = "holdem"\nbring_in = 5\n'
                   '[mqtt]\nenabled = false\n')
    res = cli("run", "--config", str(bad), "--check")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip() == (f"cardtable run: {bad}: table.bring_in: a bring-in belongs to stud "
                                  f"(game 'stud7'), not hold'em")
