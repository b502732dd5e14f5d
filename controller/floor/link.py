"""The floor's broker connection: persistent QoS 1 subscription to every table, reconnect, and the ack outbox.

A fixed client id with clean_session=False makes the broker keep our subscriptions and queue QoS 1
messages while we are away (also across a broker restart when the broker persists sessions); retained
`state` and `status` arrive again on every subscribe. Acks are written to the store first and published
from there, so a ruling made while the broker is down goes out after the reconnect.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import socket
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.aio import cancel_firmly
from controller.backoff import backoff_delays
from controller.core import strictjson
from controller.floor.batch import consume
from controller.floor.config import BrokerConfig, StoreConfig
from controller.floor.errors import StoreError
from controller.floor.ingest import Ingest, topic_filters
from controller.floor.store import Ack, Store

log = logging.getLogger("cardtable.floor")


def ack_topic(prefix: str, table: str) -> str:
    return f"{prefix}/{table}/cmd/ack"


def ack_payload(ack: Ack) -> bytes:
    return strictjson.dumps({"id": ack.alert_id, "by": ack.by, "ruling": ack.ruling, "t": ack.at},
                      ensure_ascii=False).encode("utf-8")


def floor_client_id(name: str, store: StoreConfig, host: str | None = None) -> str:
    """`name` plus a suffix fixed by this machine and this store: two floors (other hosts or other stores)
    started from one config do not take each other's connection, while one floor keeps its persistent
    session (the QoS 1 messages the broker queued for it) across restarts."""
    where = f"{store.dsn}/{store.schema_name}" if store.dsn else str(store.sqlite.resolve())
    digest = hashlib.sha256(f"{host or socket.gethostname()}|{where}".encode()).hexdigest()[:8]
    return f"{name}-{digest}"


class BrokerLink:
    def __init__(self, cfg: BrokerConfig, *, ingest: Ingest, store: Store,
                 client_id: str | None = None) -> None:
        self._cfg = cfg
        self.client_id = client_id or cfg.client_id
        self._ingest = ingest
        self._store = store
        self._acks_waiting = asyncio.Event()
        self.connected = False
        self.connects = 0
        self.last_error = ""
        self.acks_published = 0
        self.batches = 0
        self.largest_batch = 0
        self.on_change: list[Any] = []  # callables(connected: bool), e.g. to tell the browsers
        self._manual_ack = False
        self.on_ack_published: list[Any] = []  # callables(ack: Ack) once the broker has a ruling
        # (topic filter, QoS); the live state is QoS 0: latest wins, never queued in front of alerts
        self.subscriptions = topic_filters(cfg.prefix, rooms=cfg.rooms, share_group=cfg.share_group)
        self.with_client: list[Any] = []  # callables(publish) run while connected (the resend requests)
        # What one ingest batch runs in: the store's transaction (the service adds holding the browsers'
        # events until the commit, Ingest.batch)
        self.transaction: Callable[[], AbstractAsyncContextManager[None]] = store.transaction

    def acks_pending(self) -> None:
        """Wake the ack pump (called after a ruling is stored)."""
        self._acks_waiting.set()

    def _client(self) -> aiomqtt.Client:
        c = self._cfg
        tls = aiomqtt.TLSParameters(ca_certs=str(c.ca_file) if c.ca_file else None) if c.tls else None
        session: dict[str, Any] = {"clean_session": False}
        if c.share_group:
            # Shared subscriptions are MQTT 5: a persistent session there is clean_start=False plus an
            # expiry interval (a week: the broker keeps our queue across a long floor outage).
            props = Properties(PacketTypes.CONNECT)
            props.SessionExpiryInterval = 7 * 24 * 3600
            session = {"protocol": aiomqtt.ProtocolVersion.V5, "clean_start": False, "properties": props}
        client = aiomqtt.Client(c.host, c.port, username=c.username, password=c.secret(),
                                identifier=self.client_id, keepalive=c.keepalive, tls_params=tls, timeout=10,
                                **session)
        # Acknowledge each QoS 1 message only after it is stored: if the floor dies (or the store fails)
        # in between, the broker delivers it again on the next connect. aiomqtt does not expose paho's
        # manual acks, so this reaches into its paho client (present in aiomqtt 2.x).
        paho: Any = getattr(client, "_client", None)
        self._manual_ack = hasattr(paho, "manual_ack_set") and hasattr(paho, "ack")
        if self._manual_ack:
            paho.manual_ack_set(True)
        return client

    async def run(self) -> None:
        """Connect, subscribe, consume; on a broker error wait (capped, jittered backoff) and repeat."""
        delays = backoff_delays(self._cfg.backoff_initial, self._cfg.backoff_max)
        while True:
            started = time.monotonic()
            # Each connection in its own task: a cancellation that aiomqtt reports as MqttError (disconnect
            # timeout) still stops this loop instead of starting a reconnect.
            await cancel_firmly(self._connection())
            if time.monotonic() - started > 30:  # it was a working connection: start the backoff afresh
                delays = backoff_delays(self._cfg.backoff_initial, self._cfg.backoff_max)
            await asyncio.sleep(next(delays))

    async def _connection(self) -> None:
        """One connection from connect to loss (the loss is logged, not raised)."""
        try:
            async with self._client() as client:
                self._set_connected(True)
                for topic, qos in self.subscriptions:
                    await client.subscribe(topic, qos=qos)
                async with asyncio.TaskGroup() as tg:
                    tg.create_task(self._consume(client), name="floor-consume")
                    tg.create_task(self._pump_acks(client), name="floor-acks")
                    for task in self.with_client:
                        tg.create_task(task(lambda t, p: client.publish(t, p, qos=1)))
        except* aiomqtt.MqttError as group:
            self.last_error = "; ".join(str(e) for e in group.exceptions)
            log.warning("floor: broker %s:%s: %s", self._cfg.host, self._cfg.port, self.last_error)
        except* StoreError as group:
            # The message that failed was not acknowledged: disconnecting makes the broker keep it
            # for us, and it comes again once the store is back.
            self.last_error = "; ".join(str(e) for e in group.exceptions)
            log.error("floor: store failed, reconnecting to get the message again: %s", self.last_error)
        finally:
            self._set_connected(False)

    def _set_connected(self, up: bool) -> None:
        if up == self.connected:
            return
        self.connected = up
        if up:
            self.connects += 1
            log.info("floor: connected to broker %s:%s", self._cfg.host, self._cfg.port)
        for cb in self.on_change:
            cb(up)

    async def _consume(self, client: aiomqtt.Client) -> None:
        paho = getattr(client, "_client", None)

        def ack(msg: aiomqtt.Message) -> None:
            if self._manual_ack and paho is not None and msg.qos > 0:
                paho.ack(msg.mid, msg.qos)

        # What is already queued is stored in one transaction and acknowledged after its commit.
        await consume(client.messages, self._ingest.handle, self.transaction, ack,
                      on_batch=self._batched)

    def _batched(self, n: int) -> None:
        self.batches += 1
        self.largest_batch = max(self.largest_batch, n)

    async def _pump_acks(self, client: aiomqtt.Client) -> None:
        self._acks_waiting.set()  # whatever was stored while disconnected goes out first
        while True:
            await self._acks_waiting.wait()
            self._acks_waiting.clear()
            for ack in await self._store.unpublished_acks():
                await client.publish(ack_topic(self._cfg.prefix, ack.table), ack_payload(ack), qos=1)
                await self._store.mark_published(ack.seq)
                self.acks_published += 1
                for cb in self.on_ack_published:
                    cb(ack)

    def statistics(self) -> dict[str, Any]:
        return {"connected": self.connected, "connects": self.connects, "last_error": self.last_error,
                "acks_published": self.acks_published, "batches": self.batches,
                "largest_batch": self.largest_batch}
