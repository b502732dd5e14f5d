"""`cardtable simulate` as a user runs it: default run, JSON output, bad options, score."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FULL = os.environ.get("CARDTABLE_FULL") == "1"


def simulate(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "controller", "simulate", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_default_run_is_quick_and_prints_the_summary() -> None:
    start = time.monotonic()
    res = simulate()
    took = time.monotonic() - start
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    assert "hands 20 (clean" in res.stdout
    assert "fault alerts (misdeal/error/warning/dead_hand) on clean hands:" in res.stdout
    # The default path is the emulated hardware, and it delivered every event.
    assert "rfid " in res.stdout and "gpio " in res.stdout and "lost in transport 0;" in res.stdout
    assert took < 30, took


def test_json_mode_alert_lines_then_summary(tmp_path: Path) -> None:
    log = tmp_path / "j.jsonl"
    res = simulate("--hands", "5", "--json", "--log", str(log), "--seed", "3")
    assert res.returncode == 0, res.stderr
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert lines[-1]["type"] == "summary" and lines[-1]["hands"] == 5
    alerts = [x for x in lines if x["type"] == "alert"]
    assert sum(lines[-1]["alerts"].values()) == len(alerts)
    # The journal is a valid event log: replay gives the same alerts, byte for byte.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rep = subprocess.run([sys.executable, "-m", "controller", "replay", str(log), "--json", "--table", "sim",
                          "--keep-going"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert rep.returncode == 0, rep.stderr
    assert rep.stdout.splitlines() == [x for x in res.stdout.splitlines() if '"type":"alert"' in x]


def test_same_seed_same_result() -> None:
    a = simulate("--hands", "4", "--json", "--seed", "11")
    b = simulate("--hands", "4", "--json", "--seed", "11")
    # Alert ids carry each run's session (unique across runs); everything else is the same.
    session = re.compile(r'"id":"sim-[0-9]{8}-[0-9]{6}-[0-9a-f]{4}x*-h')
    assert [session.sub('"id":"sim-h', x) for x in a.stdout.splitlines()[:-1]] == \
        [session.sub('"id":"sim-h', x) for x in b.stdout.splitlines()[:-1]]
    assert a.stdout.splitlines()[0] != b.stdout.splitlines()[0]


@pytest.mark.parametrize(("args", "message"), [
    (["--seats", "20"], "--seats must be 2…10"),
    (["--broker", "http://x"], "--broker http://x: expected mqtt://"),
    (["--inject", "2"], "expected a share between 0 and 1"),
    (["--speed", "warp"], "expected fast, real or a factor"),
    (["--game", "mixed", "--limit", "pot"], "--game mixed is dealt at fixed limit"),
])
def test_bad_options_one_line_exit_2(args: list[str], message: str) -> None:
    res = simulate(*args)
    assert res.returncode == 2
    assert message in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("limit", ["pot", "no"])
def test_stud_at_pot_and_no_limit(limit: str, tmp_path: Path) -> None:
    """`--game stud --limit pot|no`: the level names the structure, the highest up-card brings in, and
    the core finds every injected error with no false alert."""
    log = tmp_path / "s.jsonl"
    res = simulate("--game", "stud", "--limit", limit, "--hands", "12", "--inject", "0.5", "--seed", "4",
                   "--direct", "--json", "--log", str(log))
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout.splitlines()[-1])
    assert sum(s["injected"].values()) >= 3 and s["missed"] == {} and s["clean_fault_alerts"] == {}
    levels = [json.loads(x) for x in log.read_text().splitlines() if '"type":"level"' in x]
    # the writer leaves out "limit" when it is "no" (the default)
    assert levels and all(lv["game"] == "stud7" and lv.get("limit", "no") == limit for lv in levels)


def test_unreachable_broker_is_an_error_before_any_hand(tmp_path: Path) -> None:
    """A broker the user asked for must answer (issue 14): exit 1 with one line, nothing played.
    The daemon itself keeps recording without a broker (tests/daemon/test_run.py)."""
    from tests.daemon.broker import free_port
    res = simulate("--hands", "3", "--broker", f"mqtt://127.0.0.1:{free_port()}", "--drain", "0.5",
                   "--json")
    assert res.returncode == 1 and res.stdout == ""
    assert "cannot reach the MQTT broker 127.0.0.1:" in res.stderr and "Traceback" not in res.stderr


def score(hands: str, *path: str) -> dict[str, object]:
    res = simulate("--hands", hands, "--inject", "0.3", "--seed", "0", "--json", *path, timeout=3000)
    assert res.returncode == 0, res.stderr
    s: dict[str, object] = json.loads(res.stdout.splitlines()[-1])
    print(f"\nscore over {hands} hands ({'direct' if path else 'emulated hardware'}): "
          f"injected {sum(s['injected'].values())}, detected {sum(s['detected'].values())}, "  # type: ignore[attr-defined]
          f"missed {s['missed']}, false {s['false_alerts']}, fault alerts on clean hands "
          f"{s['clean_fault_alerts']}, lost in transport {s['transport_timeouts']}, {s['seconds']} s")
    return s


@pytest.mark.timeout(3600)
def test_score_every_injected_error_detected_no_false_alerts_on_clean_hands() -> None:
    """The rules core against the simulator: 100 hands by default, 1,000 with CARDTABLE_FULL=1."""
    hands = "1000" if FULL else "100"
    s = score(hands, "--direct")
    assert sum(s["injected"].values()) > int(hands) // 5  # type: ignore[attr-defined]
    assert s["missed"] == {}
    assert s["clean_fault_alerts"] == {}


@pytest.mark.skipif(not FULL, reason="CARDTABLE_FULL=1: 1,000 hands through the emulated hardware")
@pytest.mark.timeout(3600)
def test_score_through_the_emulated_hardware() -> None:
    s = score("1000")
    assert s["missed"] == {} and s["transport_timeouts"] == 0
    # The readers see the dealer gather the board before the next hand_start (the direct path does not);
    # the board must still count for the showdown (fixed in hand.py; first seen at hand 469 of seed 0).
    assert s["clean_fault_alerts"] == {}


def test_broker_url_with_credentials(tmp_path: Path) -> None:
    from tests.daemon.broker import MOSQUITTO, Broker, Subscriber
    if not Path(MOSQUITTO).exists():
        pytest.skip("mosquitto not installed")
    broker = Broker(tmp_path, passwords={"sim": "s3cret", "floor": "f"})
    broker.start()
    try:
        sub = Subscriber(broker.port, ["cardtable/sim/alerts", "cardtable/sim/hands"], username="floor",
                         password="f")
        res = simulate("--hands", "3", "--direct", "--json", "--broker",
                       f"mqtt://sim:s3cret@127.0.0.1:{broker.port}")
        assert res.returncode == 0, res.stderr
        summary = json.loads(res.stdout.splitlines()[-1])
        assert summary["unpublished"] == 0 and summary["published"] > 0
        time.sleep(0.3)
        assert len(sub.on("/alerts")) == sum(summary["alerts"].values())
        # Every hand's summary, the last one included (it used to wait for a hand_start that never came).
        assert [json.loads(p)["hand"] for p in sub.on("/hands")] == [1, 2, 3]
        sub.close()
    finally:
        broker.stop()
