"""Logging: formats, journald priorities, held-back repeats, --log-level, the daemon's start-up line."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.logsetup import Formatter, RepeatFilter, redact_url, syslog_priority, under_journal
from tests.daemon.broker import free_port

ROOT = Path(__file__).resolve().parents[1]


def record(level: int = logging.WARNING, msg: str = "broker %s away", args: tuple[object, ...] = ("b1",),
           fields: dict[str, object] | None = None) -> logging.LogRecord:
    rec = logging.LogRecord("cardtable.mqtt", level, __file__, 1, msg, args, None)
    if fields is not None:
        rec.fields = fields
    return rec


def test_text_logfmt_and_json_records() -> None:
    rec = record(fields={"table": "t1", "broker": "mqtt://u@h:1883", "note": "two words"})
    text = Formatter("text").format(rec)
    assert text.endswith('WARNING cardtable.mqtt: broker b1 away table=t1 broker=mqtt://u@h:1883 '
                         'note="two words"')
    logfmt = Formatter("logfmt").format(rec)
    assert logfmt.startswith("ts=") and logfmt.endswith(
        'level=warning logger=cardtable.mqtt msg="broker b1 away" table=t1 broker=mqtt://u@h:1883 '
        'note="two words"')
    body = json.loads(Formatter("json").format(rec))
    assert body["level"] == "warning" and body["msg"] == "broker b1 away" and body["table"] == "t1"


def test_journal_lines_carry_the_syslog_priority_and_no_timestamp() -> None:
    assert [syslog_priority(x) for x in (10, 20, 30, 40, 50)] == [7, 6, 4, 3, 2]
    fmt = Formatter("text", journal=True)
    assert fmt.format(record(logging.ERROR)) == "<3>ERROR cardtable.mqtt: broker b1 away"
    try:
        raise ValueError("bad")
    except ValueError:
        rec = record(logging.ERROR)
        rec.exc_info = sys.exc_info()
    lines = fmt.format(rec).splitlines()
    assert len(lines) > 2 and all(line.startswith("<3>") for line in lines)  # the traceback keeps it
    assert Formatter("json", journal=True).format(record(logging.INFO)).startswith('<6>{"level": "info"')


def test_journal_is_detected_by_device_and_inode(tmp_path: Path) -> None:
    with (tmp_path / "stream").open("w") as fh:
        st = os.fstat(fh.fileno())
        assert under_journal(fh, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        assert not under_journal(fh, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino + 1}"})
        assert not under_journal(fh, {})
        assert not under_journal(fh, {"JOURNAL_STREAM": "garbage"})


def test_repeats_are_held_back_and_counted() -> None:
    now = [0.0]
    flt = RepeatFilter(burst=3, window=60, clock=lambda: now[0])
    passed = [flt.filter(record()) for _ in range(10)]
    assert passed == [True] * 3 + [False] * 7
    assert flt.filter(record(msg="another message"))  # a different template is not held back
    now[0] = 61.0
    rec = record()
    assert flt.filter(rec)
    assert rec.getMessage() == "broker b1 away (and 7 more like it held back in the last 60 s)"


def test_broker_url_never_shows_a_password() -> None:
    assert redact_url("mqtts", "broker", 8883, "t1") == "mqtts://t1@broker:8883"
    assert redact_url("mqtt", "localhost", 1883, None) == "mqtt://localhost:1883"


def daemon_config(tmp: Path, broker_port: int) -> Path:
    (tmp / "creds").write_text("t7:secret-pw\n")
    cfg = tmp / "table.toml"
    cfg.write_text(f'state_dir = "{tmp}/state"\n[table]\nid = "t7"\nprofile = "tda"\n[tap]\npin = 17\n'
                   f'[gpio]\npin_factory = "mock"\n[mqtt]\nport = {broker_port}\n'
                   f'credentials_file = "{tmp}/creds"\nbackoff_min_s = 0.1\nbackoff_max_s = 0.2\n')
    return cfg


def run_daemon(cfg: Path, *extra: str, seconds: float = 2.0, journal: bool = False) -> list[str]:
    """`cardtable run` until it has run `seconds` past its READY point (the journal session file exists),
    then SIGTERM; its stderr lines. With `journal`, stderr is a stream socket announced in $JOURNAL_STREAM,
    exactly as systemd connects a service to journald."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("JOURNAL_STREAM", None)
    ours, theirs = socket.socketpair()
    if journal:
        st = os.fstat(theirs.fileno())
        env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
    proc = subprocess.Popen([sys.executable, "-m", "controller", "run", "--config", str(cfg), *extra],
                            cwd=ROOT, env=env, stderr=theirs, stdout=subprocess.DEVNULL)
    theirs.close()
    try:
        deadline = time.monotonic() + 60
        while not list(cfg.parent.glob("state/sessions/*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(seconds)
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    finally:
        proc.kill()
    ours.settimeout(5)
    data = b""
    while chunk := ours.recv(65536):
        data += chunk
    ours.close()
    return data.decode().splitlines()


def test_daemon_start_up_line_and_journal_priorities(tmp_path: Path) -> None:
    port = free_port()  # nobody listens: the reconnect warnings show the priority of a warning
    lines = run_daemon(daemon_config(tmp_path, port), journal=True)
    start = [x for x in lines if "starting" in x]
    assert len(start) == 1, lines
    line = start[0]
    assert line.startswith("<6>INFO cardtable.run: cardtable 0.1.0 starting: table t7, profile tda, broker "
                           f"mqtt://t7@localhost:{port}")
    for field in (f"config={tmp_path}/table.toml", "table=t7", "profile=tda", "adapters=tap",
                  f"broker=mqtt://t7@localhost:{port}", "version=0.1.0"):
        assert field in line.split(), (field, line)
    assert "secret-pw" not in "\n".join(lines)
    warnings = [x for x in lines if "reconnecting" in x]
    assert warnings and all(x.startswith(f"<4>WARNING cardtable.mqtt: MQTT broker localhost:{port}: ")
                            for x in warnings)
    assert len(warnings) <= 3  # a broker that stays away: repeats are held back
    assert all(x.startswith("<") for x in lines), lines  # every line has a priority


def test_log_level_and_json_format(tmp_path: Path) -> None:
    port = free_port()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    quiet = run_daemon(daemon_config(tmp_path / "a", port), "--log-level", "error")
    assert not any("starting" in x or "reconnecting" in x for x in quiet), quiet
    records = [json.loads(x) for x in run_daemon(daemon_config(tmp_path / "b", port), "--log-format", "json")]
    start = next(r for r in records if r["msg"].startswith("cardtable 0.1.0 starting"))
    assert start["level"] == "info" and start["table"] == "t7" and start["adapters"] == "tap"
    assert "ts" in start


@pytest.mark.skipif(shutil.which("systemd-run") is None or shutil.which("journalctl") is None,
                    reason="systemd is absent here (no systemd-run/journalctl); the socket harness above "
                           "checks the same priorities")
def test_daemon_under_systemd_run_user(tmp_path: Path) -> None:
    probe = subprocess.run(["systemctl", "--user", "is-system-running"], capture_output=True, text=True)
    if probe.returncode != 0 and probe.stdout.strip() not in ("running", "degraded"):
        pytest.skip(f"no systemd user manager here ({probe.stdout.strip() or probe.stderr.strip()})")
    unit = f"cardtable-logtest-{os.getpid()}"
    cfg = daemon_config(tmp_path, free_port())
    subprocess.run(["systemd-run", "--user", f"--unit={unit}", f"--setenv=PYTHONPATH={ROOT}",
                    f"--working-directory={ROOT}", sys.executable, "-m", "controller", "run", "--config",
                    str(cfg)], check=True, capture_output=True)
    try:
        time.sleep(4)
    finally:
        subprocess.run(["systemctl", "--user", "stop", unit], capture_output=True)
    out = subprocess.run(["journalctl", "--user", "-u", unit, "-o", "json", "--no-pager"],
                         capture_output=True, text=True).stdout
    entries = [json.loads(x) for x in out.splitlines() if x.strip()]
    start = [e for e in entries if "starting" in str(e.get("MESSAGE"))]
    assert start and start[0]["PRIORITY"] == "6" and not str(start[0]["MESSAGE"]).startswith("<")
    assert any(e["PRIORITY"] == "4" and "reconnecting" in str(e.get("MESSAGE")) for e in entries)
