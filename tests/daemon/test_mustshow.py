"""The daemon's promises against a real mosquitto: every alert exactly once (after de-duplication), in
order, equal to the journal's replay — across a broker outage and across SIGKILLs of the daemon.

Default sizes keep the suite quick; CARDTABLE_FULL=1 runs the full versions (30 s outage, 20 kills).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.daemon.broker import Broker, Subscriber

ROOT = Path(__file__).resolve().parents[2]
FULL = os.environ.get("CARDTABLE_FULL") == "1"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def sim_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "controller", "simulate", "--json", "--drain", "60", *args]


def replay(journal: Path) -> list[str]:
    """Alert ids + bodies of the journal's replay (`cardtable replay --json`), in order."""
    res = subprocess.run([sys.executable, "-m", "controller", "replay", str(journal), "--json",
                          "--keep-going", "--table", "sim"],
                         cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout.splitlines()


def received(sub: Subscriber) -> tuple[list[str], int]:
    """Alert payloads after de-duplication by id (first copy kept), and how many duplicates there were."""
    seen: dict[str, str] = {}
    dups = 0
    for raw in sub.on("/alerts"):
        text = raw.decode()
        body = json.loads(text)
        # The published alert is the replay's line plus `ts` (its absolute time, docs/interfaces.md), last.
        stamp = f',"ts":"{body.get("ts")}"}}'
        assert text.endswith(stamp), text
        text = text[: -len(stamp)] + "}"
        if body["code"] == "HEALTH":  # controller health, not a table event: not in the replay
            continue
        if body["id"] in seen:
            dups += 1
            assert seen[body["id"]] == text, "same id, different alert"
            continue
        seen[body["id"]] = text
    return list(seen.values()), dups


def wait_for(pred: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.mark.timeout(1800)
def test_200_hands_every_alert_once_in_order_equal_to_replay(tmp_path: Path, broker: Broker) -> None:
    sub = Subscriber(broker.port, ["cardtable/sim/alerts", "cardtable/sim/status"])
    journal = tmp_path / "journal.jsonl"
    # Default suite: events handed over directly (fast); CARDTABLE_FULL=1: through the emulated hardware.
    path = [] if FULL else ["--direct"]
    res = subprocess.run(sim_cmd("--hands", "200", "--inject", "0.3", "--seed", "5", "--log", str(journal),
                                 "--broker", f"mqtt://127.0.0.1:{broker.port}", *path),
                         cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout.splitlines()[-1])
    assert summary["unpublished"] == 0 and sum(summary["injected"].values()) > 30
    expected = replay(journal)
    assert wait_for(lambda: len(received(sub)[0]) >= len(expected), 30)
    got, dups = received(sub)
    print(f"\n200 hands ({'emulated hardware' if FULL else 'direct'}): {len(expected)} alerts in the "
          f"replay, {len(got)} received, {dups} duplicates, "
          f"{summary['events']} events, {summary['published']} messages published, {summary['seconds']} s")
    assert got == expected
    assert sub.on("/status")[-1] == b"offline"
    sub.close()


@pytest.mark.timeout(1800)
def test_broker_outage_loses_no_alert_and_keeps_order(tmp_path: Path, broker: Broker) -> None:
    outage = 30.0 if FULL else 3.0
    hands, speed = ("120", "150") if FULL else ("40", "300")
    sub = Subscriber(broker.port, ["cardtable/sim/alerts"])
    journal = tmp_path / "journal.jsonl"
    proc = subprocess.Popen(sim_cmd("--hands", hands, "--speed", speed, "--inject", "0.3", "--seed", "8",
                                    "--direct", "--log", str(journal), "--broker", f"mqtt://127.0.0.1:{broker.port}"),
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: len(sub.on("/alerts")) >= 15, 60), "no alerts before the outage"
        before = len(sub.on("/alerts"))
        broker.stop()
        time.sleep(outage)
        broker.start()
        out, err = proc.communicate(timeout=300)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    summary = json.loads(out.splitlines()[-1])
    expected = replay(journal)
    assert wait_for(lambda: len(received(sub)[0]) >= len(expected), 30)
    got, dups = received(sub)
    print(f"\noutage {outage:.0f} s after {before} alerts: {len(expected)} alerts in the replay, "
          f"{len(got)} received after de-duplication, {dups} duplicates, "
          f"unpublished {summary['unpublished']}")
    assert before < len(expected), "the outage must fall inside the run"
    assert got == expected
    sub.close()


@pytest.mark.timeout(1800)
def test_sigkill_at_random_points_resumes_and_loses_nothing(tmp_path: Path, broker: Broker) -> None:
    kills = 20 if FULL else 5
    hands = "1000" if FULL else "120"
    rng = random.Random(1234)
    sub = Subscriber(broker.port, ["cardtable/sim/alerts"])
    state = tmp_path / "state"
    args = sim_cmd("--hands", hands, "--inject", "0.3", "--seed", "21", "--state-dir", str(state),
                   "--broker", f"mqtt://127.0.0.1:{broker.port}")
    journal_sizes = [0]

    def size() -> int:
        files = list(state.glob("sessions/*.jsonl"))
        return sum(1 for _ in files[0].open()) if files else 0

    for _ in range(kills):
        proc = subprocess.Popen(args, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # Kill in the middle of the work: once this run has journaled something, at a random moment.
        wait_for(lambda p=proc: size() > journal_sizes[-1] or p.poll() is not None, 30)  # type: ignore[misc]
        time.sleep(rng.uniform(0.0, 0.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        journal_sizes.append(size())
    res = subprocess.run(args, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout.splitlines()[-1])
    journal = next(state.glob("sessions/*.jsonl"))
    expected = replay(journal)
    assert wait_for(lambda: len(received(sub)[0]) >= len(expected), 30)
    got, dups = received(sub)
    print(f"\n{kills} SIGKILLs (journal events at each kill: {journal_sizes}); final run: "
          f"{summary['hands']} hands scored, {len(expected)} alerts in the replay, {len(got)} received, "
          f"{dups} duplicates")
    # Every restart resumed where the last one died and made progress before it was killed (unless the
    # run had already completed).
    final = sum(1 for _ in journal.open())
    assert all(b > a or a == final for a, b in itertools.pairwise(journal_sizes)), journal_sizes
    assert journal_sizes[1] > 0, journal_sizes
    assert summary["hands"] == int(hands)
    assert got == expected
    sub.close()
