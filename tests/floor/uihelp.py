"""Plumbing for the floor UI tests: a floor service with extra users, one `sim` connection that publishes
for any table, and a page that records its JavaScript errors and the requests it makes."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import aiomqtt

from controller.floor.app import FloorService
from controller.floor.auth import hash_password
from controller.floor.config import parse_config
from tests.floor.broker import USERS, Broker
from tests.floor.conftest import PASSWORDS, make_config
from tests.floor.harness import LoopThread
from tests.floor.publisher import PREFIX
from tests.floor.test_e2e import _start_service, _stop_service

UI_PASSWORDS = {**PASSWORDS, "sven": "sven-super-pw", "greta": "greta-floor-pw"}
_EXTRA = {
    "sven": {"hash": hash_password(UI_PASSWORDS["sven"], n=2**12), "role": "supervisor"},
    "greta": {"hash": hash_password(UI_PASSWORDS["greta"], n=2**12), "role": "floor", "lang": "de"},
}


def ui_config(store: dict[str, Any], broker_port: int, **web: Any) -> Any:
    """The tests' floor config plus a supervisor (sven), a German-speaking floorman (greta), and a wall
    display that opens without a password from loopback."""
    raw = make_config(store, broker_port, **web).model_dump(by_alias=True, mode="json")
    raw["users"].update(_EXTRA)
    if "wall_from" not in web:
        raw["web"]["wall_from"] = ["127.0.0.1/32"]
    return parse_config(raw)


class SimPublisher:
    """One connection as the broker's `sim` user, allowed to publish for every table."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.client: aiomqtt.Client | None = None

    async def __aenter__(self) -> SimPublisher:
        self.client = aiomqtt.Client(
            "127.0.0.1",
            self.port,
            username="sim",
            password=USERS["sim"],
            identifier=f"ui-sim-{time.monotonic_ns()}",
        )
        await self.client.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.client is not None:
            await self.client.__aexit__(None, None, None)

    async def send(self, table: str, kind: str, payload: Any, *, retain: bool = False) -> float:
        assert self.client is not None
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        t0 = time.time()
        await self.client.publish(f"{PREFIX}/{table}/{kind}", data, qos=1, retain=retain)
        return t0


@contextmanager
def floor_service(
    loop: LoopThread, broker: Broker, store: dict[str, Any], **web: Any
) -> Iterator[FloorService]:
    svc = _start_service(loop, ui_config(store, broker.port, **web))
    try:
        yield svc
    finally:
        loop.run(_stop_service(svc))


@contextmanager
def sim(loop: LoopThread, broker: Broker) -> Iterator[SimPublisher]:
    pub = SimPublisher(broker.port)
    loop.run(pub.__aenter__())
    try:
        yield pub
    finally:
        loop.run(pub.__aexit__(None, None, None))


def watch(page: Any) -> dict[str, list[str]]:
    """Record JavaScript errors and every request the page makes (one stream, no request per alert)."""
    seen: dict[str, list[str]] = {"errors": [], "requests": []}
    page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
    page.on(
        "console",
        lambda msg: seen["errors"].append(f"{msg.text} {msg.location}") if msg.type == "error" else None,
    )
    page.on("request", lambda req: seen["requests"].append(req.url))
    return seen


@contextmanager
def browser_page(browser: Any, **context: Any) -> Iterator[tuple[Any, dict[str, list[str]]]]:
    """A page in a fresh browser context (its own cookies), 1600x900 unless told; it must end without a
    JavaScript error."""
    ctx = browser.new_context(**{"viewport": {"width": 1600, "height": 900}, **context})
    page = ctx.new_page()
    page.set_default_timeout(5000)
    seen = watch(page)
    try:
        yield page, seen
        assert seen["errors"] == [], seen["errors"]
    finally:
        ctx.close()


def login(page: Any, base: str, user: str, query: str = "") -> None:
    page.goto(base + "/")
    page.fill("#user", user)
    page.fill("#password", UI_PASSWORDS[user])
    page.click("#login-btn")
    if query:
        page.goto(base + "/" + query)
    page.wait_for_selector("#conn.on", timeout=5000)
    page.wait_for_function("() => window.cardtable.snapshots >= 1", timeout=5000)


async def until(pred: Any, timeout: float = 5.0) -> None:
    """Wait for a condition on the service side (e.g. the store has N alerts)."""
    deadline = time.monotonic() + timeout
    while not await pred():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)
