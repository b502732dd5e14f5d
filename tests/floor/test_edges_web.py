"""The floor's HTTP edge under hostile use (issue #12): login limits that parallel requests cannot bypass
and that slow a real user down without locking her out, bounded login-form sessions, strict JSON in and
out, and the quarantine on the health endpoint."""

from __future__ import annotations

import asyncio
from pathlib import Path

from controller.floor.app import FloorService
from controller.floor.auth import LoginLimiter, Sessions
from tests.floor.test_web import login, page_csrf, run_service, session


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_parallel_wrong_logins_cannot_bypass_the_limit(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        async with session() as http:
            answers = await asyncio.gather(*(login(http, base, "anna", f"guess-{i}") for i in range(30)))
        statuses = [r.status for r in answers]
        free = LoginLimiter.ACCOUNT_AT_ADDRESS.free
        assert statuses.count(401) == free and statuses.count(429) == 30 - free

    run_service(tmp_path, body)


def test_backoff_grows_is_capped_and_never_locks_out() -> None:
    clock = FakeClock()
    lim = LoginLimiter(clock=clock)
    for _ in range(LoginLimiter.ACCOUNT_AT_ADDRESS.free):
        assert lim.begin("anna", "10.0.0.9") == 0.0
    waits = []
    for _ in range(18):  # the guesser waits each time, twice as long, up to the cap
        wait = lim.begin("anna", "10.0.0.9")
        assert wait > 0 and lim.begin("anna", "10.0.0.9") == wait  # refused attempts do not count
        waits.append(wait)
        clock.now += wait
        assert lim.begin("anna", "10.0.0.9") == 0.0
    assert waits[:3] == [1.0, 2.0, 4.0] and max(waits) == LoginLimiter.ADDRESS.cap

    # The real user at her own terminal: slowed down by the account-wide limit at most ACCOUNT.cap seconds.
    wait = lim.begin("anna", "10.0.0.20")
    assert 0.0 <= wait <= LoginLimiter.ACCOUNT.cap
    clock.now += wait
    assert lim.begin("anna", "10.0.0.20") == 0.0
    lim.succeeded("anna", "10.0.0.20")
    assert lim.begin("anna", "10.0.0.20") == 0.0


def test_limiter_memory_is_bounded() -> None:
    clock = FakeClock()
    lim = LoginLimiter(clock=clock, max_keys=300)
    for i in range(2000):
        lim.begin(f"user{i}", f"10.1.{i // 250}.{i % 250}")
        clock.now += 0.001
    assert len(lim) <= 300


def test_login_form_sessions_are_bounded_and_expire() -> None:
    clock = FakeClock()
    sessions = Sessions(ttl=12 * 3600, clock=clock)
    logged_in = sessions.login("anna", "floor", None)
    for _ in range(Sessions.MAX_ANONYMOUS * 3):
        sessions.anonymous()
    assert len(sessions) <= Sessions.MAX_ANONYMOUS + 1
    assert sessions.get(logged_in.token) is not None  # a flood of GET /login does not log anyone out
    clock.now += Sessions.ANONYMOUS_TTL + 1
    sessions.anonymous()
    assert len(sessions) == 2


def test_http_json_is_strict_and_health_shows_the_quarantine(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        await svc.ingest.handle("cardtable/t1/alerts", b'{"id": "x", "hand": 1e400}')
        async with session() as http:
            assert (await login(http, base)).status == 303
            csrf = await page_csrf(http, base)
            for since in ("nan", "inf", "-Infinity", "1e999"):
                async with http.get(base + "/api/alerts", params={"since": since}) as r:
                    assert r.status == 400, since
            for raw in (b'{"table": "t1", "id": "x", "ruling": NaN}', b'{"table": 1e999}',
                        b"\xff\xfe", b"[" * 50000):
                async with http.post(base + "/api/ack", data=raw,
                                     headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"}) as r:
                    assert r.status == 400 and "strict JSON" in (await r.json())["error"]
            async with http.get(base + "/api/health") as r:
                health = await r.json()
        assert health["quarantine"]["count"] == 1
        assert set(health["gc"]) == {"collections", "max_ms", "slow"}  # the collector's pauses
        assert health["quarantine"]["recent"][0]["topic"] == "cardtable/t1/alerts"
        assert "1e400" in health["quarantine"]["recent"][0]["excerpt"]

    run_service(tmp_path, body)
