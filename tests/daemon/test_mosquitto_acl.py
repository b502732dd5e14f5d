"""The example Mosquitto ACL (config/mosquitto/cardtable.acl) on a real broker: tables publish only under
their own prefix, the floor reads alerts/state/hands/status and writes only `…/cmd/ack`."""

from __future__ import annotations

import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from tests.daemon.broker import MOSQUITTO, Broker, Subscriber

ROOT = Path(__file__).resolve().parents[2]


def publish(port: int, user: str, topic: str, payload: str = "x") -> None:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"pub-{user}-{time.monotonic_ns()}")
    c.username_pw_set(user, f"pw-{user}")
    c.connect("127.0.0.1", port)
    c.loop_start()
    c.publish(topic, payload, qos=1).wait_for_publish(5)
    c.disconnect()
    c.loop_stop()


@pytest.fixture
def acl_broker(tmp_path: Path) -> Broker:
    if not Path(MOSQUITTO).exists():
        pytest.skip("mosquitto not installed")
    b = Broker(tmp_path, passwords={u: f"pw-{u}" for u in ("t1", "t2", "floor")},
               acl=(ROOT / "config/mosquitto/cardtable.acl").read_text())
    b.start()
    yield b  # type: ignore[misc]
    b.stop()


def test_acl(acl_broker: Broker) -> None:
    port = acl_broker.port
    floor = Subscriber(port, ["cardtable/#"], client_id="floor-screen", username="floor", password="pw-floor")
    table = Subscriber(port, ["cardtable/t1/cmd/#", "cardtable/t2/#"], client_id="t1-daemon", username="t1",
                       password="pw-t1")
    publish(port, "t1", "cardtable/t1/alerts", "own")        # allowed
    publish(port, "t1", "cardtable/t2/alerts", "forged")     # another table's prefix: dropped
    publish(port, "t1", "cardtable/t1/state", "state")       # allowed
    publish(port, "floor", "cardtable/t1/cmd/ack", "ack")    # allowed
    publish(port, "floor", "cardtable/t1/cmd/reset", "no")   # floor may only ack
    publish(port, "floor", "cardtable/t1/alerts", "fake")    # floor may not raise alerts
    publish(port, "t2", "cardtable/t2/cmd/ack", "self-ack")  # a table cannot ack (read only on cmd)
    time.sleep(0.5)
    seen_by_floor = sorted((t, p.decode()) for t, p, _r, _ts in floor.messages)
    assert seen_by_floor == [("cardtable/t1/alerts", "own"), ("cardtable/t1/state", "state")]
    seen_by_t1 = sorted((t, p.decode()) for t, p, _r, _ts in table.messages)
    # t1 reads its own commands only; it cannot read t2's topics.
    assert seen_by_t1 == [("cardtable/t1/cmd/ack", "ack")]
    floor.close()
    table.close()
