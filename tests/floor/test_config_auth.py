"""Config validation, password hashes, sessions, topics, state redaction; the CLI's one-line errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from controller.core.catalogue import CATALOGUE
from controller.errors import UsageError
from controller.floor.auth import Sessions, check_login, hash_password, parse_hash, verify_password
from controller.floor.config import load_config, parse_config
from controller.floor.errors import FloorConfigError
from controller.floor.ingest import parse_topic, public_state
from controller.floor.rules import SUMMARIES, rule_info
from tests.floor.broker import Broker, free_port
from tests.floor.conftest import users_config
from tests.floor.publisher import state

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def test_example_config_is_valid() -> None:
    cfg = load_config(ROOT / "config" / "floor.example.toml")
    assert cfg.broker.prefix == "cardtable" and cfg.store.dsn is None
    assert {u.role for u in cfg.users.values()} == {"floor", "wall"}
    assert cfg.dealers["t1"] == "D-017"


def test_config_errors_are_all_reported_with_their_path() -> None:
    with pytest.raises(FloorConfigError) as exc:
        parse_config({"broker": {"port": 70000, "colour": "red", "prefix": "a/#"},
                      "web": {"session_hours": 0}, "users": {}})
    msg = str(exc.value)
    for part in ("broker.port", "broker.colour: Extra inputs are not permitted", "broker.prefix",
                 "web.session_hours", "users: at least one user"):
        assert part in msg, msg


def test_config_rejects_a_bad_hash_and_both_passwords() -> None:
    with pytest.raises(FloorConfigError, match=r"users\.anna\.hash: password hash must look like"):
        parse_config({"users": {"anna": {"hash": "plaintext"}}})
    with pytest.raises(FloorConfigError, match="either password or password_file"):
        parse_config({"broker": {"password": "a", "password_file": "/x"}, "users": users_config()})


def test_unreadable_or_malformed_config_file(tmp_path: Path) -> None:
    with pytest.raises(FloorConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[broker\nport = 1")
    with pytest.raises(FloorConfigError, match="not valid TOML"):
        load_config(bad)


def test_password_hash_round_trip() -> None:
    h = hash_password("correct horse battery", n=2**12)
    assert h.startswith("scrypt$4096$8$1$")
    assert verify_password("correct horse battery", h)
    assert not verify_password("correct horse batterY", h)
    assert hash_password("same", n=2**12) != hash_password("same", n=2**12)  # salted
    for bad in ("scrypt$4096$8$1$salt", "md5$1$2$3$4$5", "scrypt$4095$8$1$AAAA$AAAAAAAAAAAAAAAAAAAAAA",
                "scrypt$x$8$1$AAAA$AAAA"):
        with pytest.raises(UsageError):
            parse_hash(bad)


def test_check_login_roles() -> None:
    users = {name: (u["hash"], u["role"]) for name, u in users_config().items()}
    assert check_login(users, "anna", "anna-floor-pw") == "floor"
    assert check_login(users, "wall", "wall-display-pw") == "wall"
    assert check_login(users, "anna", "wall-display-pw") is None
    assert check_login(users, "nobody", "anna-floor-pw") is None


def test_sessions_expire_and_rotate_on_login() -> None:
    now = [1000.0]
    s = Sessions(ttl=60, clock=lambda: now[0])
    pre = s.anonymous()
    assert pre.user is None and not pre.can_ack
    user = s.login("anna", "floor", pre.token)
    assert user.token != pre.token and s.get(pre.token) is None  # no session fixation
    assert s.get(user.token) == user and user.can_ack
    now[0] += 61
    assert s.get(user.token) is None


def test_topics_and_state_redaction() -> None:
    assert parse_topic("cardtable", "cardtable/t7/alerts") == ("t7", "alerts")
    assert parse_topic("cardtable", "cardtable/t7/cmd/ack") is None
    assert parse_topic("cardtable", "other/t7/state") is None
    clean = public_state({**state("t1", 3, hole=True), "hole_cards": {"1": ["As", "Kd"]}})
    assert "hole_cards" not in clean
    assert all(isinstance(s.get("cards", 0), int) and "hole_cards" not in s for s in clean["seats"])
    assert "Kd" not in str(clean) and "Qc" not in str(clean)
    assert clean["board"] == ["Ah", "7c", "2d"] and clean["seats"][0]["stack"] == 9800
    as_dict = public_state({"seats": {"1": {"stack": 5, "hole": ["As", "Kd"]}}})
    assert as_dict == {"seats": {"1": {"stack": 5}}}
    counted = public_state({"seats": [{"seat": 2, "cards": 2, "shown": []}]})  # the engine's own format
    assert counted["seats"] == [{"seat": 2, "cards": 2, "shown": []}]


def test_every_catalogue_code_has_a_summary_citing_its_sections() -> None:
    assert set(SUMMARIES) == set(CATALOGUE)
    for code, entry in CATALOGUE.items():
        text = SUMMARIES[code]
        assert 40 < len(text) < 400, code
        if entry.rule[:1].isdigit():  # codes backed by a rulebook cite at least one of its sections
            assert any(book in text for book in ("000", "001", "002", "003", "004")), code
    info = rule_info("TURN_PREMATURE")
    assert info["rule"] == CATALOGUE["TURN_PREMATURE"].rule and "set aside" in info["summary"]
    assert rule_info("NOT_A_CODE")["title"] == "NOT_A_CODE"


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", "floor", *args], input=stdin, text=True,
                          capture_output=True, env=ENV, cwd=ROOT, timeout=30)


def test_cli_hash_password_and_bad_config(tmp_path: Path) -> None:
    r = _cli("hash-password", "--stdin", stdin="a long enough password\n")
    assert r.returncode == 0 and verify_password("a long enough password", r.stdout.strip())
    r = _cli("hash-password", "--stdin", stdin="short\n")
    assert r.returncode == 2 and "too short" in r.stderr
    bad = tmp_path / "floor.toml"
    bad.write_text('[broker]\nport = "x"\nfoo = 1\n')
    r = _cli("--config", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "broker.port" in r.stderr and "broker.foo" in r.stderr
    r = _cli()
    assert r.returncode == 2 and "--config FILE is required" in r.stderr


@pytest.mark.broker
def test_cli_serves_and_stops_on_sigterm(broker: Broker, tmp_path: Path) -> None:
    port = free_port()
    cfg = tmp_path / "floor.toml"
    users = users_config()
    cfg.write_text(
        f'[broker]\nport = {broker.port}\nusername = "floor"\npassword = "floor-secret"\n'
        f'[store]\nsqlite = "{tmp_path / "floor.sqlite3"}"\n[web]\nport = {port}\n'
        f'[users.anna]\nhash = "{users["anna"]["hash"]}"\n')
    proc = subprocess.Popen([sys.executable, "-m", "controller", "floor", "--config", str(cfg)], env=ENV,
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Our own process says it serves before we knock: a free port can be taken by another worker's
        # server meanwhile, and a SIGTERM sent before the handlers are in would kill the process.
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert f"serving http://127.0.0.1:{port}" in first, (first, proc.stderr)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=5) as r:
            assert r.status == 200 and b"csrf" in r.read()
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_broker_section_takes_the_table_configs_names_too(tmp_path: Path) -> None:
    """One vocabulary for both files (issue #14): the table's [mqtt] key names work in [broker]."""
    table_names = tmp_path / "a.toml"
    table_names.write_text("[broker]\nkeepalive_s = 40\nbackoff_min_s = 0.2\nbackoff_max_s = 3.0\n")
    floor_names = tmp_path / "b.toml"
    floor_names.write_text("[broker]\nkeepalive = 40\nbackoff_initial = 0.2\nbackoff_max = 3.0\n")
    a, b = load_config(table_names).broker, load_config(floor_names).broker
    assert a == b and (a.keepalive, a.backoff_initial, a.backoff_max) == (40, 0.2, 3.0)
    bad = tmp_path / "c.toml"
    bad.write_text("[broker]\nkeepalive_ms = 40\n")
    with pytest.raises(FloorConfigError, match="keepalive_ms"):
        load_config(bad)
