"""Every published alert carries `ts`: the absolute UTC time of its `t` (session epoch + t), ISO 8601."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from controller.config import parse_config
from controller.core.alerts import Alert
from controller.daemon.app import Daemon, alert_message


def _alert(t: float) -> Alert:
    return Alert(id="t1-h0-1", t=t, table="t1", hand=0, code="HEALTH", severity="warning", street="between",
                 seat=None, cards=(), message="reader hub A down", remedy="See the message", rule="-")


def test_alert_message_adds_ts_beside_the_contract_fields() -> None:
    epoch = datetime(2026, 11, 25, 21, 14, 0, tzinfo=UTC).timestamp()
    body = json.loads(alert_message(_alert(3.517), epoch).payload)
    assert body["ts"] == "2026-11-25T21:14:03.517Z"
    assert {k: v for k, v in body.items() if k != "ts"} == _alert(3.517).to_json()


def test_the_daemon_stamps_alerts_with_its_session_epoch(tmp_path: Path) -> None:
    daemon = Daemon(parse_config({"state_dir": str(tmp_path / "state"), "mqtt": {"enabled": False}}),
                    new_session=True, publish=False)
    daemon.raise_health(_alert(12.25))
    rows = [json.loads(r.payload) for r in daemon.outbox.pending() if r.topic == "alerts"]
    stamp = datetime.fromisoformat(rows[-1]["ts"].replace("Z", "+00:00")).timestamp()
    assert abs(stamp - (daemon.session.epoch + 12.25)) < 0.001
