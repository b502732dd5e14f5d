"""MQTT publisher (aiomqtt): drains the outbox in order with QoS 1, keeps `status` retained, takes `cmd/#`.

One connection at a time; on any MQTT error it reconnects with capped, jittered exponential backoff. A row
leaves the outbox only when `publish` returned, i.e. the broker's PUBACK arrived. Exactly one message is
in flight, which keeps the order across reconnects trivially (a resend after a lost PUBACK can duplicate a
message; receivers drop duplicates by alert id).

The retained `state` is rate-limited per table: at most one every `mqtt.state_interval_s`. A state row
that comes too soon stays pending (the outbox's coalescing replaces it with any newer one, so the latest
wins) while the alerts and hand summaries behind it go out at once; it is sent when its time has come.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import ssl
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiomqtt
from aiomqtt.exceptions import MqttConnectError

from controller.aio import cancel_firmly, wait_event
from controller.backoff import backoff_delays
from controller.config import MqttConfig
from controller.daemon.outbox import Message, Outbox
from controller.errors import AUTH_CODES, UsageError

log = logging.getLogger("cardtable.mqtt")


class CredentialsError(UsageError):
    """The credentials file is unreadable or malformed."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Credentials:
    username: str
    password: str


def read_credentials(path: Path) -> Credentials:
    """One line `username:password` (the password may contain ':')."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise CredentialsError(f"credentials file {path}: cannot read: {exc.strerror or exc}") from None
    user, sep, password = text.partition(":")
    if not sep or not user or "\n" in text:
        raise CredentialsError(f"credentials file {path}: expected one line 'username:password'")
    return Credentials(username=user, password=password)


def check_tls_files(cfg: MqttConfig) -> None:
    """TLS files must be readable at start-up: one clear line now instead of a reconnect loop later."""
    if not cfg.tls:
        return
    for name in ("ca_file", "cert_file", "key_file"):
        path = getattr(cfg, name)
        if path is None:
            continue
        try:
            with open(path, "rb"):
                pass
        except OSError as exc:
            raise CredentialsError(f"mqtt.{name} {path}: cannot read: {exc.strerror or exc}") from None


def tls_parameters(cfg: MqttConfig) -> aiomqtt.TLSParameters | None:
    if not cfg.tls:
        return None
    return aiomqtt.TLSParameters(
        ca_certs=str(cfg.ca_file) if cfg.ca_file else None,
        certfile=str(cfg.cert_file) if cfg.cert_file else None,
        keyfile=str(cfg.key_file) if cfg.key_file else None,
        cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)


def client_id(name: str) -> str:
    """A client id unique per process: the broker drops the older of two connections with one id, so two
    daemons (or a daemon and `cardtable doctor`) started with one config must not share it."""
    return f"{name}-{secrets.token_hex(3)}"


def rc_value(exc: aiomqtt.MqttError) -> int | None:
    """The CONNACK code of a refused connection (not paho's local error numbers, which overlap)."""
    if not isinstance(exc, MqttConnectError):
        return None
    rc = exc.rc
    if rc is None:
        return None
    value = getattr(rc, "value", rc)
    return value if isinstance(value, int) else None


class Publisher:
    """The `mqtt` task: connection lifecycle, outbox drain, status and command subscription."""

    def __init__(self, cfg: MqttConfig, *, table: str, outbox: Outbox,
                 on_command: Callable[[str, bytes], None],
                 on_auth_failure: Callable[[str], None], on_connected: Callable[[], None],
                 credentials: Credentials | None = None, seed: int | None = None) -> None:
        self.cfg = cfg
        self.root = f"{cfg.prefix}/{table}/"
        self.client_id = client_id(cfg.client_id or f"cardtable-{table}")
        self.outbox = outbox
        self.on_command = on_command
        self.on_auth_failure = on_auth_failure
        self.on_connected = on_connected
        self.credentials = credentials
        self._rng = random.Random(seed)
        self._delays = self._fresh_delays()
        self.connected = False
        self.connects = 0
        self.failures = 0
        self.published = 0
        self.commands = 0
        self.last_error = ""
        self.connected_since: float | None = None
        self._health: bytes | None = None  # latest health snapshot, sent QoS 0 retained on `health`
        # Messages the outbox could not store (full disk): sent once from memory, again once stored.
        self._volatile: deque[Message] = deque(maxlen=10_000)
        self._state_sent = float("-inf")  # monotonic time of the last state published
        self.states_deferred = 0
        self._deferred_seq = 0

    def offer_health(self, snapshot: bytes) -> None:
        """Extension topic `…/health`: the latest statistics snapshot, best effort (not via the outbox)."""
        self._health = snapshot
        self.outbox.wakeup.set()

    def offer_volatile(self, msgs: list[Message]) -> None:
        """Send these after the outbox's rows, best effort (the daemon keeps them until they are stored)."""
        self._volatile.extend(msgs)
        self.outbox.wakeup.set()

    def _client(self) -> aiomqtt.Client:
        tls = tls_parameters(self.cfg)
        will = aiomqtt.Will(topic=self.root + "status", payload=b"offline", qos=1, retain=True)
        creds = self.credentials
        return aiomqtt.Client(
            self.cfg.host, self.cfg.port, identifier=self.client_id, will=will, tls_params=tls,
            username=creds.username if creds else None, password=creds.password if creds else None,
            keepalive=self.cfg.keepalive_s, timeout=self.cfg.publish_timeout_s, clean_session=True,
            logger=log)

    def _fresh_delays(self) -> Any:
        return backoff_delays(self.cfg.backoff_min_s, self.cfg.backoff_max_s, self._rng)

    async def run(self) -> None:
        while True:
            # Each connection runs in its own task: aiomqtt's __aexit__ can turn our cancellation into
            # MqttError (disconnect timeout; the likely cause of a CI hang of the TLS test), and this loop
            # must still stop.
            error = await cancel_firmly(self._connection())
            if error is not None:
                self._failed(error)
            await asyncio.sleep(next(self._delays))

    async def _connection(self) -> aiomqtt.MqttError | None:
        """One connection from connect to loss; the error that ended it."""
        error: aiomqtt.MqttError | None = None
        try:
            async with self._client() as client:
                self._delays = self._fresh_delays()  # a working connection: the backoff starts afresh
                await self._session(client)
        except* aiomqtt.MqttError as group:
            error = group.exceptions[0]  # type: ignore[assignment]
        except* OSError as group:  # TLS handshake and socket errors that aiomqtt did not wrap
            error = aiomqtt.MqttError(str(group.exceptions[0]))
        finally:
            self.connected = False
            self.connected_since = None
        return error

    def _failed(self, error: aiomqtt.MqttError) -> None:
        self.failures += 1
        self.last_error = str(error)
        rc = rc_value(error)
        if rc in AUTH_CODES:
            self.on_auth_failure(f"broker {self.cfg.host}:{self.cfg.port} refused the credentials ({error})")
        log.warning("MQTT broker %s:%s: %s; reconnecting", self.cfg.host, self.cfg.port, error)

    async def _session(self, client: aiomqtt.Client) -> None:
        self.connected = True
        self.connects += 1
        self.connected_since = time.monotonic()
        await client.publish(self.root + "status", b"online", qos=1, retain=True)
        await client.subscribe(self.root + "cmd/#", qos=1)
        self.on_connected()
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self._drain(client), name="mqtt-drain")
                tg.create_task(self._listen(client), name="mqtt-commands")
        except asyncio.CancelledError:
            # Shutting down: the state held back by the rate limit goes out (the retained state is the
            # table's last word), then the retained status says so (a clean disconnect fires no will).
            with contextlib.suppress(aiomqtt.MqttError, TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._last_states(client), 1.0)
            offline = client.publish(self.root + "status", b"offline", qos=1, retain=True)
            with contextlib.suppress(aiomqtt.MqttError, TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(offline, 1.0)
            raise

    async def _last_states(self, client: aiomqtt.Client) -> None:
        for row in self.outbox.pending(100):
            if row.key == "state":
                await client.publish(self.root + row.topic, row.payload, qos=row.qos, retain=row.retain)
                self.outbox.ack(row.seq)
                self.published += 1

    def _state_wait(self) -> float:
        """Seconds until the next state may go out (0: now)."""
        return max(0.0, self._state_sent + self.cfg.state_interval_s - time.monotonic())

    def _due(self, rows: list[Any]) -> list[Any]:
        """The rows to publish now: all but a state that comes before its interval is up."""
        if self._state_wait() <= 0:
            return rows
        due = [r for r in rows if r.key != "state"]
        for r in rows:
            if r.key == "state" and r.seq != self._deferred_seq:  # counted once per state held back
                self._deferred_seq = r.seq
                self.states_deferred += 1
        return due

    async def _drain(self, client: aiomqtt.Client) -> None:
        outbox = self.outbox
        while True:
            if self._health is not None:
                snapshot, self._health = self._health, None
                await client.publish(self.root + "health", snapshot, qos=0, retain=True)
            pending = outbox.pending(100)
            rows = self._due(pending)
            if not rows and not self._volatile:
                outbox.wakeup.clear()
                if pending:  # only a state that must wait: until its time, or until something new comes
                    await wait_event(outbox.wakeup, self._state_wait())
                else:
                    await outbox.wakeup.wait()
                continue
            for row in rows:
                await client.publish(self.root + row.topic, row.payload, qos=row.qos, retain=row.retain)
                outbox.ack(row.seq)
                self.published += 1
                if row.key == "state":
                    self._state_sent = time.monotonic()
            while self._volatile and not rows:  # the outbox's backlog first: it is older
                m = self._volatile[0]
                await client.publish(self.root + m.topic, m.payload, qos=m.qos, retain=m.retain)
                self._volatile.popleft()
                self.published += 1

    async def _listen(self, client: aiomqtt.Client) -> None:
        prefix = self.root + "cmd/"
        async for msg in client.messages:
            topic = str(msg.topic)
            if topic.startswith(prefix):
                self.commands += 1
                payload = msg.payload if isinstance(msg.payload, bytes) else str(msg.payload).encode()
                self.on_command(topic[len(prefix):], payload)

    def statistics(self) -> dict[str, Any]:
        up = time.monotonic() - self.connected_since if self.connected_since else 0.0
        return {"connected": self.connected, "connects": self.connects, "failures": self.failures,
                "published": self.published, "commands": self.commands,
                "states_deferred": self.states_deferred, "last_error": self.last_error,
                "connected_s": round(up, 1)}
