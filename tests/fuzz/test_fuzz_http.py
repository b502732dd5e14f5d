"""Fuzz the floor's HTTP endpoints with a logged-in browser session: random paths, query strings, bodies,
CSRF tokens and event ids. No answer is a 500 (a traceback), each comes within a second."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import aiohttp
from hypothesis import given
from hypothesis import strategies as st

from controller.floor.app import FloorService
from tests.floor.conftest import make_config
from tests.floor.harness import LoopThread
from tests.floor.publisher import alert, state
from tests.floor.test_web import login, page_csrf, session
from tests.fuzz.common import LIMIT_S, answered_in_time, fuzz_settings

ODD = ["nan", "inf", "-1e999", "1e400", "9" * 40, "0", "-1", "2026-11-25T10:00:00",
       "9999-12-31T23:59:59+14:00", "open", "acked", "t1", "t1-h1-1", "'; DROP TABLE alerts;--", "%00",
       "../../etc/passwd", "<script>"]
TEXT = st.one_of(st.text(max_size=40), st.sampled_from(ODD))
# What a client can put in a header at all (aiohttp refuses control characters before sending).
HEADER = st.one_of(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40),
                   st.sampled_from(["1.1", "0.0", "99999999999999999999.1", "-1.-1", "nan.nan"]))
PATHS = ["/", "/login", "/logout", "/api/me", "/api/tables", "/api/tables/{x}", "/api/alerts",
         "/api/alerts/{x}/{y}", "/api/ack", "/api/stats", "/api/catalogue", "/api/health", "/api/events",
         "/static/{x}", "/{x}"]
QUERY_KEYS = ["table", "code", "severity", "since", "until", "status", "limit", "x"]
BODIES = st.one_of(st.binary(max_size=200), st.sampled_from([b"", b"{}", b"[]", b"null", b'{"table": "t1"}',
                                                            b'{"table":"t1","id":"t1-h1-1","ruling":NaN}',
                                                            b'{"table":"t1","id":"t1-h1-1","ruling":"ok"}',
                                                            b"[" * 60000,
                                                            b'{"ruling": "' + b"x" * 70000 + b'"}']))


class Site:
    """A floor service with some alerts, and a logged-in client, on a private loop for the whole run."""

    def __init__(self, tmp: str) -> None:
        self.loop = LoopThread()
        self.svc = FloorService(make_config({"sqlite": f"{tmp}/floor-fuzz.sqlite3"}))
        self.loop.run(self._start())

    async def _start(self) -> None:
        await self.svc.start()
        for n in range(1, 4):
            body = json.dumps(alert("t1", 1, n, "BURN_EXTRA")).encode()
            await self.svc.ingest.handle("cardtable/t1/alerts", body)
        await self.svc.ingest.handle("cardtable/t1/state", json.dumps(state("t1", 1)).encode())
        self.http = session()
        await login(self.http, self.svc.url)
        self.csrf = await page_csrf(self.http, self.svc.url)

    async def request(self, method: str, path: str, params: dict[str, str], body: bytes, csrf: str | None,
                      last_id: str | None) -> int:
        headers = {"Content-Type": "application/json"}
        if csrf is not None:
            headers["X-CSRF-Token"] = csrf
        if last_id is not None:
            headers["Last-Event-ID"] = last_id
        timeout = aiohttp.ClientTimeout(total=LIMIT_S)
        async with self.http.request(method, self.svc.url + path, params=params, headers=headers,
                                     data=body if method == "POST" else None, allow_redirects=False,
                                     timeout=timeout) as r:
            if r.headers.get("Content-Type", "").startswith("text/event-stream"):
                await r.content.readany()  # the stream's first bytes; it would go on forever
            else:
                await r.read()
            return r.status


_SITES: dict[str, Site] = {}


def site(tmp: str) -> Site:
    if tmp not in _SITES:
        _SITES[tmp] = Site(tmp)
    return _SITES[tmp]


def teardown_module() -> None:
    for s in _SITES.values():
        s.loop.run(s.http.close())
        s.loop.run(s.svc.stop())
        s.loop.close()
    _SITES.clear()


@fuzz_settings(250)
@given(method=st.sampled_from(["GET", "POST"]), template=st.sampled_from(PATHS), x=TEXT, y=TEXT,
       params=st.dictionaries(st.sampled_from(QUERY_KEYS), TEXT, max_size=4), body=BODIES,
       csrf=st.one_of(st.none(), st.just("valid"), HEADER), last_id=st.one_of(st.none(), HEADER))
def test_http_endpoints_never_fail(tmp_path_factory: Any, method: str, template: str, x: str, y: str,
                                   params: dict[str, str], body: bytes, csrf: str | None,
                                   last_id: str | None) -> None:
    s = site(str(tmp_path_factory.getbasetemp()))
    path = template.format(x=quote(x, safe=""), y=quote(y, safe=""))
    if path == "/logout":
        csrf = None  # keep the session for the next inputs
    token = s.csrf if csrf == "valid" else csrf
    with answered_in_time("http", (method, path, params)):
        status = s.loop.run(s.request(method, path, params, body, token, last_id), timeout=LIMIT_S + 1)
    assert status < 500, (method, path, params, body[:100])
