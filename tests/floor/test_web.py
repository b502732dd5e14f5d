"""The web side without a browser: login, CSRF, roles, acknowledgements, catch-up, no hole cards served."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from yarl import URL

from controller.floor import ingest as ingest_mod
from controller.floor.app import FloorService
from tests.floor.conftest import PASSWORDS, make_config
from tests.floor.publisher import alert, state

Body = Callable[[FloorService, str], Awaitable[None]]


def run_service(tmp_path: Path, body: Body, store: dict[str, Any] | None = None, cfg: Any = None) -> None:
    """The service without a broker link: messages are fed straight into its ingest."""
    cfg = cfg or make_config(store or {"sqlite": str(tmp_path / "floor.sqlite3")})

    async def main() -> None:
        svc = FloorService(cfg)
        await svc.start()
        try:
            await body(svc, svc.url)
        finally:
            await svc.stop()

    asyncio.run(main())


def session() -> aiohttp.ClientSession:
    # unsafe=True: keep cookies for 127.0.0.1 (aiohttp ignores cookies of IP hosts by default).
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def csrf_from(http: aiohttp.ClientSession, url: str) -> str:
    async with http.get(url) as r:
        text = await r.text()
    m = re.search(r'name="csrf" (?:value|content)="([^"]+)"', text)
    assert m, "page carries no CSRF token"
    return m.group(1)


async def login(http: aiohttp.ClientSession, base: str, user: str = "anna", password: str | None = None,
                csrf: str | None = "auto") -> aiohttp.ClientResponse:
    token = await csrf_from(http, base + "/login") if csrf == "auto" else csrf
    form = {"user": user, "password": PASSWORDS.get(user, "x") if password is None else password}
    if token is not None:
        form["csrf"] = token
    async with http.post(base + "/login", data=form, allow_redirects=False) as r:
        await r.read()
        return r


async def page_csrf(http: aiohttp.ClientSession, base: str) -> str:
    return await csrf_from(http, base + "/")


async def feed(svc: FloorService, topic: str, payload: Any) -> None:
    data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
    await svc.ingest.handle(topic, data)


async def sse_events(resp: aiohttp.ClientResponse, n: int, timeout: float = 5) -> list[tuple[str, str, Any]]:
    """Read n events (kind, id, data) from an SSE response."""
    out: list[tuple[str, str, Any]] = []
    kind, eid, data = "", "", ""

    async def read() -> None:
        nonlocal kind, eid, data
        while len(out) < n:
            line = (await resp.content.readline()).decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("id: "):
                eid = line[4:]
            elif line.startswith("data: "):
                data = line[6:]
            elif line == "" and kind:
                out.append((kind, eid, json.loads(data)))
                kind, eid, data = "", "", ""

    await asyncio.wait_for(read(), timeout)
    return out


def test_login_is_required(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        async with session() as http:
            async with http.get(base + "/", allow_redirects=False) as r:
                assert r.status == 303 and r.headers["Location"] == "/login"
            for path in ("/api/tables", "/api/alerts", "/api/events", "/api/stats", "/api/alerts/t1/x"):
                async with http.get(base + path) as r:
                    assert r.status == 401, path
            async with http.get(base + "/login") as r:
                assert r.status == 200
                assert "default-src 'self'" in r.headers["Content-Security-Policy"]
                assert r.headers["X-Frame-Options"] == "DENY"

    run_service(tmp_path, body)


def test_wrong_password_and_unknown_user_are_refused(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        async with session() as http:
            r = await login(http, base, "anna", "not-the-password")
            assert r.status == 401
            r = await login(http, base, "mallory", "whatever")
            assert r.status == 401
            async with http.get(base + "/api/tables") as r2:
                assert r2.status == 401
            r = await login(http, base)
            assert r.status == 303 and r.headers["Location"] == "/"
            async with http.get(base + "/api/me") as r2:
                assert (await r2.json())["user"] == "anna"

    run_service(tmp_path, body)


def test_login_without_csrf_token_is_refused(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        async with session() as http:
            await csrf_from(http, base + "/login")  # has a login-page session, but does not send its token
            r = await login(http, base, csrf=None)
            assert r.status == 403
            r = await login(http, base, csrf="forged-token")
            assert r.status == 403
            async with http.get(base + "/api/me") as r2:
                assert r2.status == 401

    run_service(tmp_path, body)


def test_repeated_failures_are_throttled(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        async with session() as http:
            for _ in range(5):
                assert (await login(http, base, "anna", "bad-guess")).status == 401
            assert (await login(http, base)).status == 429  # even the right password waits (backoff)

    run_service(tmp_path, body)


def test_ack_requires_login_csrf_and_floor_role(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        await feed(svc, "cardtable/t1/alerts", alert("t1", 5, 1, "MISDEAL_CALLED", street="deal"))
        ack = {"table": "t1", "id": "t1-h5-1", "ruling": "ok"}
        h = {"X-CSRF-Token": "x"}
        async with session() as anon, anon.post(base + "/api/ack", json=ack, headers=h) as r:
            assert r.status == 401
        async with session() as http:
            await login(http, base)
            async with http.post(base + "/api/ack", json=ack) as r:
                assert r.status == 403 and "CSRF" in (await r.json())["error"]
            async with http.post(base + "/api/ack", json=ack, headers={"X-CSRF-Token": "wrong"}) as r:
                assert r.status == 403
        async with session() as wall:
            await login(wall, base, "wall")
            token = await page_csrf(wall, base)
            async with wall.post(base + "/api/ack", json=ack, headers={"X-CSRF-Token": token}) as r:
                assert r.status == 403 and "read-only" in (await r.json())["error"]
            async with wall.get(base + "/api/tables") as r:
                assert r.status == 200  # the wall display may read everything
        got = await svc.store.alert("t1", "t1-h5-1")
        assert got is not None and got["floor"]["ack"] is None  # nothing above was recorded
        assert await svc.store.unpublished_acks() == []

    run_service(tmp_path, body)


def test_ack_records_who_and_when_once(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        await feed(svc, "cardtable/t1/alerts", alert("t1", 5, 1, "TURN_PREMATURE"))
        async with session() as http:
            await login(http, base)
            h = {"X-CSRF-Token": await page_csrf(http, base)}
            async with http.post(base + "/api/ack", json={"table": "t1", "id": "t1-h5-1", "ruling": " "},
                                 headers=h) as r:
                assert r.status == 400
            async with http.post(base + "/api/ack", json={"table": "t1", "id": "nope", "ruling": "x"},
                                 headers=h) as r:
                assert r.status == 404
            ok = {"table": "t1", "id": "t1-h5-1", "ruling": "Turn set aside, river became the turn"}
            async with http.post(base + "/api/ack", json=ok, headers=h) as r:
                assert r.status == 200
                body_ = await r.json()
                assert body_["by"] == "anna" and body_["ruling"] == ok["ruling"]
            async with http.post(base + "/api/ack", json={**ok, "ruling": "again"}, headers=h) as r:
                assert r.status == 409
            async with http.get(base + "/api/alerts?status=acked") as r:
                rows = await r.json()
                assert [a["floor"]["ack"]["by"] for a in rows] == ["anna"]
        got = await svc.store.alert("t1", "t1-h5-1")
        assert got is not None and got["floor"]["ack"]["published"] is False  # the page says "waiting"
        pending = await svc.store.unpublished_acks()  # no broker here: it waits in the outbox
        assert [(p.table, p.alert_id, p.by) for p in pending] == [("t1", "t1-h5-1", "anna")]

    run_service(tmp_path, body)


def test_logout_needs_csrf_and_ends_the_session(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        async with session() as http:
            await login(http, base)
            async with http.post(base + "/logout", data={}, allow_redirects=False) as r:
                assert r.status == 403
            token = await page_csrf(http, base)
            async with http.post(base + "/logout", data={"csrf": token}, allow_redirects=False) as r:
                assert r.status == 303
            async with http.get(base + "/api/me") as r:
                assert r.status == 401

    run_service(tmp_path, body)


def test_hole_cards_never_reach_the_browser(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        await feed(svc, "cardtable/t1/state", state("t1", 9, "turn", hole=True))
        async with session() as http:
            await login(http, base)
            texts = []
            for path in ("/api/tables", "/api/tables/t1"):
                async with http.get(base + path) as r:
                    texts.append(await r.text())
            async with http.get(base + "/api/events") as r:
                texts.append(json.dumps(await sse_events(r, 1)))
        for text in texts:
            assert '"Ks"' in text or "Ks" in text  # the board is there...
            for hole in ("Kd", "Qc", "Qh"):  # ...the hole cards are not
                assert hole not in text, text

    run_service(tmp_path, body)


def test_stream_catch_up_after_reconnect(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser that was away gets exactly what it missed, by the event id it last saw."""
    monkeypatch.setattr("controller.floor.web.CATCH_UP_BATCH", 2)  # the catch-up pages through the store

    async def body(svc: FloorService, base: str) -> None:
        await feed(svc, "cardtable/t1/alerts", alert("t1", 1, 1, "KNOCK_MISSING"))
        async with session() as http:
            await login(http, base)
            async with http.get(base + "/api/events") as r:
                [(kind, cursor, snap)] = await sse_events(r, 1)
            assert kind == "snapshot" and [a["id"] for a in snap["alerts"]] == ["t1-h1-1"]
            # Away: three alerts and a ruling happen.
            for n in (2, 3, 4):
                await feed(svc, "cardtable/t2/alerts", alert("t2", 7, n, "BURN_MISSING_FLOP"))
            await svc.store.add_ack(table="t1", alert_id="t1-h1-1", by="bob", ruling="warned", at=1.0)
            async with http.get(base + "/api/events", headers={"Last-Event-ID": cursor}) as r:
                evs = await sse_events(r, 5)
            assert [(k, d.get("id")) for k, _, d in evs[:4]] == [
                ("alert", "t2-h7-2"), ("alert", "t2-h7-3"), ("alert", "t2-h7-4"), ("ack", "t1-h1-1")]
            assert evs[4][0] == "tables"
            # Live events follow on the same stream, and ids keep counting.
            async with http.get(base + "/api/events", headers={"Last-Event-ID": evs[-1][1]}) as r:
                first = await sse_events(r, 1)
                await feed(svc, "cardtable/t2/alerts", alert("t2", 8, 5, "MISDEAL_CALLED"))
                live = await sse_events(r, 2)
            assert first[0][0] == "tables"
            assert ("alert", "t2-h8-5") in [(k, d.get("id")) for k, _, d in live]

    run_service(tmp_path, body)


@pytest.mark.parametrize("payload,why", [
    (b"{not json", "not valid JSON"), (b"[1, 2]", "not a JSON object"),
    (json.dumps({"id": "x", "code": "KNOCK_MISSING", "message": "m"}).encode(),
     "'severity' must be a non-empty string"),
    (json.dumps({"id": "x", "code": "K", "message": "m", "severity": "fatal"}).encode(), "unknown severity"),
    (json.dumps({"id": "x", "code": "K", "message": "m", "severity": "info", "hand": "seven"}).encode(),
     "'hand' must be an integer"),
])
def test_bad_alert_payloads_are_rejected(tmp_path: Path, payload: bytes, why: str,
                                         caplog: pytest.LogCaptureFixture) -> None:
    async def body(svc: FloorService, base: str) -> None:
        await svc.ingest.handle("cardtable/t1/alerts", payload)
        assert svc.ingest.counts["rejected"] == 1 and svc.ingest.counts["alerts"] == 0
        assert (await svc.store.counts())["alerts"] == 0
        assert (await svc.store.counts())["quarantine"] == 1

    run_service(tmp_path, body)
    assert why in caplog.text



def test_logins_survive_a_restart_unless_the_password_changed(tmp_path: Path) -> None:
    store = {"sqlite": str(tmp_path / "floor.sqlite3")}

    async def main() -> None:
        async with session() as http, session() as wall:
            svc = FloorService(make_config(store))
            await svc.start()
            await login(http, svc.url)
            await login(wall, svc.url, "wall")
            token = await page_csrf(http, svc.url)
            port = svc.port
            await svc.stop()

            raw = make_config(store).model_dump(by_alias=True)
            raw["web"]["port"] = port
            from controller.floor.auth import hash_password
            from controller.floor.config import parse_config

            # Meanwhile the wall display got a new password: its old login must not survive.
            raw["users"]["wall"]["hash"] = hash_password("a-new-wall-password", n=2**12)

            svc = FloorService(parse_config(raw))
            await svc.start()
            try:
                async with http.get(svc.url + "/api/me") as r:
                    assert r.status == 200 and (await r.json())["user"] == "anna"
                assert await page_csrf(http, svc.url) == token  # same session, same CSRF token
                async with wall.get(svc.url + "/api/me") as r:
                    assert r.status == 401
                async with http.post(svc.url + "/logout", data={"csrf": token}, allow_redirects=False) as r:
                    assert r.status == 303
                assert await svc.store.load_sessions(0.0) == []  # logout removes it from the store too
            finally:
                await svc.stop()

    asyncio.run(main())


def test_state_bursts_are_written_coalesced(tmp_path: Path) -> None:
    """Every state goes to the browsers; the store gets only the newest, from the state writer."""
    writes: list[int] = []

    async def body(svc: FloorService, base: str) -> None:
        real = svc.store.set_states

        async def counted(states: Any) -> None:
            writes.append(len(states))
            await real(states)

        svc.store.set_states = counted  # type: ignore[method-assign]
        for table in ("t1", "t2"):
            for hand in (1, 2, 3):
                await feed(svc, f"cardtable/{table}/state", state(table, hand))
        assert writes == []  # the ingest path writes no state at all
        assert (await svc.ingest.tables())[0]["state"]["hand"] == 3  # ...but readers see the newest
        writer = asyncio.create_task(svc.ingest.run_state_writer())
        await asyncio.sleep(ingest_mod.STATE_WRITE_S * 1.5)
        writer.cancel()
        stored = {t["table"]: t for t in await svc.store.tables()}
        assert stored["t1"]["state"]["hand"] == 3 and stored["t2"]["state"]["hand"] == 3
        assert writes == [2]  # six states of two tables: one write of two rows
        assert svc.ingest.counts["state"] == 6

    run_service(tmp_path, body)


def test_logout_ends_the_live_stream(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        async with session() as http:
            await login(http, base)
            token = await page_csrf(http, base)
            async with http.get(base + "/api/events") as stream:
                assert (await sse_events(stream, 1))[0][0] == "snapshot"
                async with http.post(base + "/logout", data={"csrf": token}, allow_redirects=False) as r:
                    assert r.status == 303
                rest = await asyncio.wait_for(stream.content.read(), 5)  # EOF: the server closed it
                assert b"event: alert" not in rest
            assert svc.hub.statistics()["streams"] == 0

    run_service(tmp_path, body)


def test_an_expired_login_ends_the_live_stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("controller.floor.web.PING_SECONDS", 0.1)

    async def body(svc: FloorService, base: str) -> None:
        async with session() as http:
            await login(http, base)
            token = http.cookie_jar.filter_cookies(URL(base))["cardtable_floor"].value
            async with http.get(base + "/api/events") as stream:
                assert (await sse_events(stream, 1))[0][0] == "snapshot"
                svc.floor.sessions.logout(token)  # as if it had expired: no hub notification
                await asyncio.wait_for(stream.content.read(), 5)  # ends at the next keep-alive check
            async with http.get(base + "/api/events") as r:
                assert r.status == 401

    run_service(tmp_path, body)
