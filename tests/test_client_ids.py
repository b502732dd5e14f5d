"""MQTT client ids: two processes started from one config never take each other's broker connection."""

from __future__ import annotations

import re
from pathlib import Path

from controller.config import MqttConfig
from controller.daemon.publisher import Publisher, client_id
from controller.floor.config import StoreConfig
from controller.floor.link import floor_client_id


def publisher(cfg: MqttConfig) -> Publisher:
    return Publisher(cfg, table="t1", outbox=None, on_command=lambda *_: None,  # type: ignore[arg-type]
                     on_auth_failure=lambda _m: None, on_connected=lambda: None)


def test_daemon_ids_are_the_name_plus_a_random_suffix_per_process() -> None:
    a, b = publisher(MqttConfig()), publisher(MqttConfig())
    assert re.fullmatch(r"cardtable-t1-[0-9a-f]{6}", a.client_id) and a.client_id != b.client_id
    assert publisher(MqttConfig(client_id="bar-7")).client_id.startswith("bar-7-")
    assert len({client_id("x") for _ in range(50)}) == 50


def test_floor_id_is_fixed_by_host_and_store(tmp_path: Path) -> None:
    here = StoreConfig(sqlite=tmp_path / "a.sqlite3")
    same = floor_client_id("cardtable-floor", here, host="pi1")
    assert same == floor_client_id("cardtable-floor", StoreConfig(sqlite=tmp_path / "a.sqlite3"), host="pi1")
    assert re.fullmatch(r"cardtable-floor-[0-9a-f]{8}", same)  # restarts keep the persistent session
    others = {floor_client_id("cardtable-floor", here, host="pi2"),
              floor_client_id("cardtable-floor", StoreConfig(sqlite=tmp_path / "b.sqlite3"), host="pi1"),
              floor_client_id("cardtable-floor", StoreConfig(dsn="postgresql://x/y"), host="pi1")}
    assert same not in others and len(others) == 3
