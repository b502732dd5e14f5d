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
