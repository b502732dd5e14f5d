"""Broker restart: the floor resubscribes and misses nothing; rulings made meanwhile go out afterwards."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from controller.floor import ingest as ingest_mod
from controller.floor.app import FloorService
from controller.floor.config import parse_config
from controller.floor.errors import StoreError
from tests.floor.broker import Broker
from tests.floor.conftest import make_config
from tests.floor.harness import Observer
from tests.floor.publisher import alert, publish_one, state

pytestmark = pytest.mark.broker


async def _until(cond: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def test_broker_restart_loses_nothing(broker: Broker, tmp_path: Path) -> None:
    cfg = make_config({"sqlite": str(tmp_path / "floor.sqlite3")}, broker.port)

    async def main() -> None:
        svc = FloorService(cfg)
        await svc.start()
        link = asyncio.create_task(svc.link.run())
        acks = Observer(broker.port, "cardtable/+/cmd/ack", identifier="ack-observer")
        try:
            await _until(lambda: _true(svc.link.connected), 5, "first connect")
            await acks.start()
            await publish_one(broker.port, "t1", "cardtable/t1/status", "online", retain=True)
            await publish_one(broker.port, "t1", "cardtable/t1/state", state("t1", 1), retain=True)
            await publish_one(broker.port, "t1", "cardtable/t1/alerts", alert("t1", 1, 1, "KNOCK_MISSING"))
            await _until(lambda: _count(svc, 1), 5, "alert 1")

            await asyncio.to_thread(broker.stop)
            await _until(lambda: _true(not svc.link.connected), 5, "the floor to notice the broker is gone")
            # A ruling while the broker is down: stored now, published after the reconnect.
            ack = await svc.store.add_ack(table="t1", alert_id="t1-h1-1", by="anna", ruling="warned", at=1.0)
            assert ack is not None
            svc.link.acks_pending()

            await asyncio.sleep(0.3)  # it keeps retrying against the dead broker meanwhile
            assert not svc.link.connected and not link.done()
            # Hold the link back while the broker restarts, so that what follows is certainly published
            # while the floor is away and must wait in its persistent session.
            link.cancel()
            await asyncio.gather(link, return_exceptions=True)
            await asyncio.to_thread(broker.start)
            for n in range(2, 7):
                a = alert("t1", 2, n, "BURN_MISSING_TURN")
                await publish_one(broker.port, "t1", "cardtable/t1/alerts", a)
            await publish_one(broker.port, "t1", "cardtable/t1/state", state("t1", 2, "river"), retain=True)
            # The daemon's outbox may resend after its own reconnect: the floor drops the duplicate.
            again = alert("t1", 2, 2, "BURN_MISSING_TURN")
            await publish_one(broker.port, "t1", "cardtable/t1/alerts", again)
            link = asyncio.create_task(svc.link.run())

            await _until(lambda: _count(svc, 6), 10, "the alerts sent while the floor was away")
            await _until(lambda: _state_hand(svc, 2), 5, "the new retained state")
            msgs = await acks.wait_for(1, timeout=10)
            assert msgs[0][0] == "cardtable/t1/cmd/ack" and msgs[0][1]["id"] == "t1-h1-1"
            assert await svc.store.unpublished_acks() == []

            ids = [a["id"] for a in await svc.store.alerts_after(0)]
            assert ids == ["t1-h1-1"] + [f"t1-h2-{n}" for n in range(2, 7)]  # all, once, in order
            assert svc.link.connects == 2 and svc.ingest.counts["duplicates"] >= 1
        finally:
            link.cancel()
            await asyncio.gather(link, return_exceptions=True)
            await acks.stop()
            await svc.stop()

    asyncio.run(main())


def test_broker_refusing_credentials_keeps_retrying(broker: Broker, tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    raw = make_config({"sqlite": str(tmp_path / "f.sqlite3")}, broker.port).model_dump(by_alias=True)
    raw["broker"]["password"] = "wrong"
    cfg = parse_config(raw)

    async def main() -> None:
        svc = FloorService(cfg)
        await svc.start()
        link = asyncio.create_task(svc.link.run())
        await asyncio.sleep(0.6)
        assert not svc.link.connected and not link.done()  # still trying, web page still served
        assert svc.link.statistics()["last_error"]
        link.cancel()
        await asyncio.gather(link, return_exceptions=True)
        await svc.stop()

    asyncio.run(main())
    assert "broker 127.0.0.1" in caplog.text


@pytest.mark.parametrize("hold", [True, False])
def test_store_failure_gets_the_message_again(broker: Broker, tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture,
                                              monkeypatch: pytest.MonkeyPatch, hold: bool) -> None:
    """The store fails while an alert comes in. Held (issue #12): the floor keeps it in memory and stores
    it on the next retry, without a reconnect. Memory full (HOLD_MAX reached, here 0): it was not
    acknowledged, so the broker delivers it again after a reconnect."""
    if not hold:
        monkeypatch.setattr(ingest_mod, "HOLD_MAX", 0)
    cfg = make_config({"sqlite": str(tmp_path / "floor.sqlite3")}, broker.port)

    async def main() -> None:
        svc = FloorService(cfg)
        await svc.start()
        real = svc.store.add_alert
        failures = [StoreError("database went away")]

        async def flaky(*args: Any, **kw: Any) -> int | None:
            if failures:
                raise failures.pop()
            return await real(*args, **kw)

        svc.store.add_alert = flaky  # type: ignore[method-assign]
        link = asyncio.create_task(svc.link.run())
        writer = asyncio.create_task(svc.ingest.run_state_writer())
        try:
            await _until(lambda: _true(svc.link.connected), 5, "connect")
            await publish_one(broker.port, "t1", "cardtable/t1/alerts", alert("t1", 4, 1, "BURN_EXTRA"))
            await _until(lambda: _count(svc, 1), 5, "the redelivered alert")
            assert not failures and svc.link.connects == (1 if hold else 2)
        finally:
            link.cancel()
            writer.cancel()
            await asyncio.gather(link, writer, return_exceptions=True)
            await svc.stop()

    asyncio.run(main())
    assert "database went away" in caplog.text


async def _true(v: bool) -> bool:
    return v


async def _count(svc: FloorService, n: int) -> bool:
    return (await svc.store.counts())["alerts"] >= n


async def _state_hand(svc: FloorService, hand: int) -> bool:
    rows = await svc.ingest.tables()  # the floor's view: stored state or a newer one in memory
    return bool(rows) and (rows[0]["state"] or {}).get("hand") == hand


def test_table_killed_shows_offline_via_its_will(broker: Broker, tmp_path: Path) -> None:
    """A daemon killed with SIGKILL: the broker publishes its will, and the floor marks the table offline."""
    cfg = make_config({"sqlite": str(tmp_path / "floor.sqlite3")}, broker.port)
    script = (
        "import asyncio, aiomqtt, sys\n"
        "async def main():\n"
        "    will = aiomqtt.Will('cardtable/t3/status', b'offline', qos=1, retain=True)\n"
        f"    async with aiomqtt.Client('127.0.0.1', {broker.port}, username='t3', password='t3-secret',"
        " will=will) as c:\n"
        "        await c.publish('cardtable/t3/status', b'online', qos=1, retain=True)\n"
        "        print('up', flush=True)\n"
        "        await asyncio.sleep(60)\n"
        "asyncio.run(main())\n")

    async def main() -> None:
        svc = FloorService(cfg)
        await svc.start()
        link = asyncio.create_task(svc.link.run())
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", script,
                                                    stdout=asyncio.subprocess.PIPE)
        try:
            assert proc.stdout is not None
            assert await asyncio.wait_for(proc.stdout.readline(), 10) == b"up\n"
            await _until(lambda: _status(svc, "t3", "online"), 5, "online")
            proc.kill()
            await _until(lambda: _status(svc, "t3", "offline"), 5, "the will")
        finally:
            if proc.returncode is None:
                proc.kill()
            await proc.wait()
            link.cancel()
            await asyncio.gather(link, return_exceptions=True)
            await svc.stop()

    asyncio.run(main())


async def _status(svc: FloorService, table: str, status: str) -> bool:
    return any(t["table"] == table and t["status"] == status for t in await svc.store.tables())
