"""The floor's web side (aiohttp): login, the page, JSON API, live event stream (SSE), acknowledgements."""

from __future__ import annotations

import asyncio
import hashlib
import html
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from aiohttp import web

from controller.core import strictjson
from controller.floor import dealers, i18n, replay
from controller.floor.auth import LoginLimiter, Session, Sessions, check_login, csrf_ok
from controller.floor.config import FloorConfig
from controller.floor.errors import StoreError
from controller.floor.hub import Hub
from controller.floor.ingest import Ingest
from controller.floor.rules import catalogue_json, rule_info
from controller.floor.store import Filters, Store

log = logging.getLogger("cardtable.floor")

STATIC = Path(__file__).parent / "static"
TEMPLATES = Path(__file__).parent / "templates"
COOKIE = "cardtable_floor"
PING_SECONDS = 15.0
MAX_RULING = 500
CATCH_UP_BATCH = 500
_CURSOR = re.compile(r"^(\d{1,18})\.(\d{1,18})$")
_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "frame-ancestors 'none'; form-action 'self'; base-uri 'none'")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Floor:
    """Everything a request handler needs; built by the composition root (controller.floor.app)."""

    def __init__(self, *, cfg: FloorConfig, store: Store, hub: Hub, ingest: Ingest,
                 acks_pending: Callable[[], None], link_stats: Callable[[], dict[str, Any]],
                 gc_stats: Callable[[], dict[str, Any]] = dict,
                 clock: Callable[[], float] = time.time) -> None:
        self.cfg = cfg
        self.store = store
        self.hub = hub
        self.ingest = ingest
        self.acks_pending = acks_pending
        self.link_stats = link_stats
        self.gc_stats = gc_stats
        self.clock = clock
        self.sessions = Sessions(ttl=cfg.web.session_hours * 3600, clock=clock)
        self.users = {name: (u.hash, u.role) for name, u in cfg.users.items()}
        self.logins = LoginLimiter(clock=clock)
        self.langs = {name: u.lang for name, u in cfg.users.items()}

    def grant(self, user: str) -> str:
        """What a stored session must still match: the role and a fingerprint of the password hash."""
        pw_hash, role = self.users.get(user, ("", ""))
        return f"{role}:{hashlib.sha256(pw_hash.encode()).hexdigest()[:16]}" if role else ""

    async def restore_sessions(self) -> int:
        """Logins survive a restart of the service, unless the user left the config, changed role or got
        a new password."""
        n = 0
        for key, user, grant, csrf, expires in await self.store.load_sessions(self.clock()):
            if grant and self.grant(user) == grant:
                role = grant.split(":", 1)[0]
                self.sessions.restore(key, user=user, role=role, csrf=csrf, expires=expires)
                n += 1
            else:
                await self.store.delete_session(key)
        return n


FLOOR_KEY = web.AppKey("floor", Floor)


# --- helpers -----------------------------------------------------------------------------------------------
def _floor(request: web.Request) -> Floor:
    return request.app[FLOOR_KEY]


def _session(request: web.Request) -> Session | None:
    return _floor(request).sessions.get(request.cookies.get(COOKIE))


def _set_cookie(resp: web.StreamResponse, request: web.Request, session: Session) -> None:
    f = _floor(request)
    resp.set_cookie(COOKIE, session.token, httponly=True, samesite="Strict", secure=f.cfg.web.secure_cookies,
                    path="/", max_age=int(session.expires - f.clock()))


def json_response(data: Any, status: int = 200) -> web.Response:
    """Every JSON answer is strict JSON: a NaN or Infinity is a bug here, never text for the browser."""
    return web.json_response(data, status=status, dumps=strictjson.dumps)


def _json_error(status: int, message: str) -> web.Response:
    return json_response({"error": message}, status=status)


def _page(name: str, **values: str) -> str:
    """A template with {{name}} placeholders filled in, HTML-escaped."""
    text = (TEMPLATES / name).read_text(encoding="utf-8")
    for key, val in values.items():
        text = text.replace("{{" + key + "}}", html.escape(val, quote=True))
    return text


def _api_user(request: web.Request) -> Session:
    s = _session(request)
    if s is None or s.user is None:
        raise _HTTPJson(401, "login required")
    return s


class _HTTPJson(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@web.middleware
async def _middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        resp = await handler(request)
    except _HTTPJson as exc:
        resp = _json_error(exc.status, exc.message)
    except StoreError as exc:  # a full disk or a lost database: say so, the request may be repeated
        log.error("floor: %s %s: %s", request.method, request.path, exc)
        resp = _json_error(503, f"the store is unavailable ({exc}); try again")
    resp.headers.setdefault("Content-Security-Policy", _CSP)
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "no-referrer")
    resp.headers.setdefault("X-Frame-Options", "DENY")
    if not request.path.startswith("/static/"):
        resp.headers.setdefault("Cache-Control", "no-store")
    return resp


# --- login / logout / page ---------------------------------------------------------------------------------
def _login_page(request: web.Request, session: Session, message: str, status: int) -> web.Response:
    body = _page("login.html", csrf=session.csrf, message=message)
    resp = web.Response(text=body, content_type="text/html", status=status)
    _set_cookie(resp, request, session)
    return resp


async def login_form(request: web.Request) -> web.StreamResponse:
    s = _session(request)
    if s is not None and s.user is not None:
        raise web.HTTPSeeOther("/")
    return _login_page(request, s or _floor(request).sessions.anonymous(), "", 200)


async def login_submit(request: web.Request) -> web.StreamResponse:
    f = _floor(request)
    form = await request.post()
    s = _session(request)
    if s is None or not csrf_ok(s, str(form.get("csrf", ""))):
        return _login_page(request, f.sessions.anonymous(), "The form expired; please try again.", 403)
    user, password = str(form.get("user", "")).strip(), str(form.get("password", ""))
    address = request.remote or "?"
    wait = f.logins.begin(user[:64], address)  # counted before the slow check: parallel guesses wait too
    if wait:
        return _login_page(request, s, f"Too many failed attempts; try again in {math.ceil(wait)} s.", 429)
    role = await asyncio.to_thread(check_login, f.users, user, password)  # scrypt is slow on purpose
    if role is None:
        log.warning("floor: failed login for %r from %s", user[:64], address)
        return _login_page(request, s, "Wrong user name or password.", 401)
    f.logins.succeeded(user[:64], address)
    new = f.sessions.login(user, role, s.token)
    await f.store.save_session(new.key, user=user, role=f.grant(user), csrf=new.csrf, expires=new.expires)
    log.info("floor: %s logged in (%s)", user, role)
    resp = web.HTTPSeeOther("/")
    _set_cookie(resp, request, new)
    raise resp


async def logout(request: web.Request) -> web.StreamResponse:
    s = _session(request)
    form = await request.post()
    if s is None or not csrf_ok(s, str(form.get("csrf", ""))):
        return _json_error(403, "bad or missing CSRF token")
    _floor(request).sessions.logout(s.token)
    await _floor(request).store.delete_session(s.key)
    _floor(request).hub.close_owner(s.key)  # its open streams end with it
    resp = web.HTTPSeeOther("/login")
    resp.del_cookie(COOKIE, path="/")
    raise resp


async def index(request: web.Request) -> web.StreamResponse:
    s = _session(request)
    wall = request.query.get("wall") == "1"
    if (s is None or s.user is None) and wall and _wall_allowed(request):
        return await _wall_sign_in(request)
    if s is None or s.user is None:
        raise web.HTTPSeeOther("/login")
    lang = _lang(request, s)
    body = _page("index.html", csrf=s.csrf, user=s.user, role=s.role or "", lang=lang,
                 wall="1" if wall or s.role == "wall" else "0",
                 reminder=str(_floor(request).cfg.web.misdeal_reminder_s), **i18n.page_values(lang),
                 i18n=i18n.bundle_json(lang))
    return web.Response(text=body, content_type="text/html")


def _lang(request: web.Request, s: Session) -> str:
    """The page language: `?lang=` if given, else the user's configured one."""
    asked = request.query.get("lang", "")
    return asked if asked in i18n.LANGS else _floor(request).langs.get(str(s.user), "en")


def _wall_allowed(request: web.Request) -> bool:
    """`/?wall=1` signs in without a password only from the networks in `web.wall_from`."""
    import ipaddress

    nets = _floor(request).cfg.web.wall_from
    try:
        addr = ipaddress.ip_address(request.remote or "")
    except ValueError:
        return False
    return any(addr in ipaddress.ip_network(n, strict=False) for n in nets)


async def _wall_sign_in(request: web.Request) -> web.StreamResponse:
    """A read-only wall session for `web.wall_user` (its role is `wall`: the server refuses its acks)."""
    f = _floor(request)
    user = f.cfg.web.wall_user
    new = f.sessions.login(user, "wall", request.cookies.get(COOKIE))
    await f.store.save_session(new.key, user=user, role=f.grant(user), csrf=new.csrf, expires=new.expires)
    log.info("floor: wall display signed in as %s from %s", user, request.remote)
    resp = web.HTTPSeeOther("/?" + request.query_string)
    _set_cookie(resp, request, new)
    raise resp


# --- JSON API ----------------------------------------------------------------------------------------------
async def api_me(request: web.Request) -> web.StreamResponse:
    s = _api_user(request)
    return json_response({"user": s.user, "role": s.role, "can_ack": s.can_ack})


async def api_tables(request: web.Request) -> web.StreamResponse:
    _api_user(request)
    return json_response(await _floor(request).ingest.tables())


def _time_param(raw: str | None, name: str) -> float | None:
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        pass
    else:
        if not math.isfinite(value):
            raise _HTTPJson(400, f"{name}: not a finite number")
        return value
    try:
        return datetime.fromisoformat(raw).timestamp()
    except (ValueError, OverflowError, OSError):
        raise _HTTPJson(400, f"{name}: not a time (epoch seconds or ISO 8601)") from None


async def api_alerts(request: web.Request) -> web.StreamResponse:
    _api_user(request)
    q = request.query
    status = q.get("status") or None
    if status not in (None, "open", "acked"):
        raise _HTTPJson(400, "status: must be open or acked")
    try:
        limit = int(q.get("limit", "200"))
    except ValueError:
        raise _HTTPJson(400, "limit: not a number") from None
    f = Filters(table=q.get("table") or None, code=q.get("code") or None, severity=q.get("severity") or None,
                since=_time_param(q.get("since"), "since"), until=_time_param(q.get("until"), "until"),
                status=status, limit=limit)
    return json_response(await _floor(request).store.history(f))


async def api_table(request: web.Request) -> web.StreamResponse:
    _api_user(request)
    f = _floor(request)
    table = request.match_info["table"]
    row = next((t for t in await f.ingest.tables() if t["table"] == table), None)
    if row is None:
        raise _HTTPJson(404, f"no table {table!r}")
    row["dealer"] = f.ingest.dealer(table)
    row["alerts"] = await f.store.history(Filters(table=table, limit=50))
    return json_response(row)


async def api_alert(request: web.Request) -> web.StreamResponse:
    _api_user(request)
    a = await _floor(request).store.alert(request.match_info["table"], request.match_info["id"])
    if a is None:
        raise _HTTPJson(404, "no such alert")
    a["rule_info"] = rule_info(str(a.get("code")))
    a["state_at"] = await _state_at(_floor(request), a)
    return json_response(a)


async def _state_at(f: Floor, a: dict[str, Any]) -> dict[str, Any] | None:
    """The table as the floor saw it when the alert arrived (same hand), for "as of hand N, street S": from
    the timelines in memory, or the hand's stored timeline once it has left memory."""
    hand = a.get("hand")
    if not isinstance(hand, int):
        return None
    table, at = str(a["table"]), float(a["floor"]["received"])
    frame = f.ingest.timelines.state_at(table, hand, at)
    if frame is None:
        frame = replay.frame_at(await f.store.replay_frames(table, hand) or [], at)
    return None if frame is None else replay.public_frames([frame], show_cards=False)[0]


async def api_replay(request: web.Request) -> web.StreamResponse:
    """A hand step by step: public states and the hand's alerts; cards only for a finished hand, and only
    for a supervisor."""
    s = _api_user(request)
    f = _floor(request)
    table = request.match_info["table"]
    try:
        hand = int(request.match_info["hand"])
    except ValueError:
        raise _HTTPJson(400, "hand: not a number") from None
    frames = f.ingest.timelines.frames(table, hand) or await f.store.replay_frames(table, hand) or []
    live = f.ingest.timelines.is_live(table, hand)
    show = s.role == "supervisor" and not live
    summary = await f.store.hand_summary(table, hand) if show else None
    alerts = await f.store.history(Filters(table=table, hand=hand, limit=1000))
    if frames:  # a later session may number its hands from 1 again: keep the alerts of this timeline
        lo, hi = frames[0]["at"] - 120.0, frames[-1]["at"] + 120.0
        alerts = [a for a in alerts if lo <= a["floor"]["received"] <= hi]
    return json_response({"table": table, "hand": hand, "live": live, "cards_allowed": show,
                          "frames": replay.public_frames(frames, show_cards=show),
                          "hole_cards": replay.hole_cards(summary),
                          "alerts": sorted(alerts, key=lambda a: a["floor"]["seq"])})


async def _dealer_report(request: web.Request) -> dict[str, Any]:
    _api_user(request)
    f = _floor(request)
    try:
        days = int(request.query.get("days", str(dealers.TREND_DAYS)))
    except ValueError:
        raise _HTTPJson(400, "days: not a number") from None
    now = f.clock()
    hands, faults = await f.store.dealer_rows(now - max(1, min(days, 366)) * 86400.0)
    rep = dealers.report(hands, faults, dealers.parse_shifts(f.cfg.shifts), now=now)
    only = request.query.get("dealer")
    if only is not None:
        rep["dealers"] = [d for d in rep["dealers"] if d["dealer"] == only]
    return rep


async def api_dealers(request: web.Request) -> web.StreamResponse:
    return json_response(await _dealer_report(request))


async def api_dealers_csv(request: web.Request) -> web.StreamResponse:
    text = dealers.to_csv(await _dealer_report(request))
    return web.Response(text=text, content_type="text/csv", charset="utf-8",
                        headers={"Content-Disposition": 'attachment; filename="dealers.csv"'})


async def api_i18n(request: web.Request) -> web.StreamResponse:
    s = _api_user(request)
    return json_response(i18n.bundle(_lang(request, s)))


async def report_page(request: web.Request) -> web.StreamResponse:
    """The printable per-dealer report (filled in by report.js from /api/dealers?dealer=)."""
    s = _session(request)
    if s is None or s.user is None:
        raise web.HTTPSeeOther("/login")
    lang = _lang(request, s)
    body = _page("report.html", lang=lang, **i18n.page_values(lang),
                 i18n=i18n.bundle_json(lang))
    return web.Response(text=body, content_type="text/html")


async def api_stats(request: web.Request) -> web.StreamResponse:
    _api_user(request)
    since = _time_param(request.query.get("since"), "since")
    return json_response(await _floor(request).store.stats(since))


async def api_catalogue(request: web.Request) -> web.StreamResponse:
    _api_user(request)
    return json_response(catalogue_json())


async def api_health(request: web.Request) -> web.StreamResponse:
    _api_user(request)
    f = _floor(request)
    return json_response({"broker": f.link_stats(), "ingest": f.ingest.counts, "hub": f.hub.statistics(),
                          "store": await f.store.counts(), "sessions": len(f.sessions),
                          "quarantine": await f.store.quarantined(),
                          "store_error": f.ingest.store_error, "gc": f.gc_stats()})


async def api_ack(request: web.Request) -> web.StreamResponse:
    s = _api_user(request)
    if not csrf_ok(s, request.headers.get("X-CSRF-Token")):
        raise _HTTPJson(403, "bad or missing CSRF token")
    if not s.can_ack:
        raise _HTTPJson(403, "this account is read-only")
    try:
        body = strictjson.loads(await request.read())
    except strictjson.JsonError as exc:
        raise _HTTPJson(400, f"body must be strict JSON: {exc}") from None
    if not isinstance(body, dict):
        raise _HTTPJson(400, "body must be a JSON object")
    table, alert_id = str(body.get("table") or ""), str(body.get("id") or "")
    ruling = str(body.get("ruling") or "").strip()
    if not table or not alert_id:
        raise _HTTPJson(400, "table and id are required")
    if not ruling or len(ruling) > MAX_RULING:
        raise _HTTPJson(400, f"ruling: 1 to {MAX_RULING} characters")
    f = _floor(request)
    ack = await f.store.add_ack(table=table, alert_id=alert_id, by=str(s.user), ruling=ruling, at=f.clock())
    known = await f.store.alert(table, alert_id)
    if ack is None:
        raise _HTTPJson(404 if known is None else 409,
                        "no such alert" if known is None else "already acknowledged")
    f.acks_pending()
    f.hub.publish({"type": "ack", "ack": ack.to_json()})
    f.ingest.acked(table, str(known["severity"]) if known else "")
    log.info("floor: %s acknowledged %s/%s", s.user, table, alert_id)
    return json_response(ack.to_json())


# --- live stream -------------------------------------------------------------------------------------------
class _Stream:
    """One browser's SSE stream; `cursor` = (alert seq, ack seq) already delivered, sent as the event id."""

    def __init__(self, resp: web.StreamResponse, cursor: tuple[int, int]) -> None:
        self.resp = resp
        self.a, self.k = cursor
        self._out: list[bytes] = []  # formatted events not yet written (see flush)

    async def send(self, kind: str, data: Any) -> None:
        text = strictjson.dumps(data, ensure_ascii=False, separators=(",", ":"))
        self._out.append(f"event: {kind}\nid: {self.a}.{self.k}\ndata: {text}\n\n".encode())
        if len(self._out) >= 64:
            await self.flush()

    async def flush(self) -> None:
        """Write what is formatted in one go: one write (and one send) for all the events that were
        waiting, instead of one each."""
        if self._out:
            out, self._out = b"".join(self._out), []
            await self.resp.write(out)

    async def alert(self, seq: int, alert: dict[str, Any]) -> None:
        if seq > self.a:
            self.a = seq
            await self.send("alert", alert)

    async def ack(self, ack: dict[str, Any]) -> None:
        if int(ack["seq"]) > self.k:
            self.k = int(ack["seq"])
            await self.send("ack", ack)


async def _catch_up(f: Floor, st: _Stream, since: tuple[int, int] | None) -> None:
    if since is None:  # a fresh page: recent alerts, every open one, and all tables
        st.a, st.k = await f.store.cursor()
        await st.send("snapshot", {"tables": await f.ingest.tables(),
                                   "alerts": await f.store.recent_alerts(f.cfg.web.feed_size),
                                   "broker": f.link_stats()["connected"]})
        return
    while batch := await f.store.alerts_after(st.a, CATCH_UP_BATCH):  # however long the page was away
        for a in batch:
            await st.alert(int(a["floor"]["seq"]), a)
    while acks := await f.store.acks_after(st.k, CATCH_UP_BATCH):
        for k in acks:
            await st.ack(k.to_json())
    await st.send("tables", {"tables": await f.ingest.tables(), "broker": f.link_stats()["connected"]})


async def events(request: web.Request) -> web.StreamResponse:
    session = _api_user(request)
    f = _floor(request)
    raw = request.headers.get("Last-Event-ID") or request.query.get("since") or ""
    m = _CURSOR.match(raw)
    since = (int(m[1]), int(m[2])) if m else None
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
    resp.headers["Cache-Control"] = "no-store"
    await resp.prepare(request)
    sub = f.hub.subscribe(owner=session.key)  # before the catch-up query: nothing falls between the two
    st = _Stream(resp, since or (0, 0))
    try:
        await resp.write(b"retry: 1000\n\n")
        await _catch_up(f, st, since)
        await st.flush()
        while True:
            try:
                ev = await asyncio.wait_for(sub.queue.get(), PING_SECONDS)
            except TimeoutError:
                if f.sessions.get(session.token) is None:
                    break  # the login expired: the page's reconnect gets 401 and goes to the login form
                await resp.write(b": ping\n\n")  # lets both ends notice a dead connection
                continue
            # everything else already waiting goes out with it, in one write
            batch = [ev, *(sub.queue.get_nowait() for _ in range(sub.queue.qsize()))]
            for item in batch:
                sub.took(item)
                if item is None:
                    break
                await _forward(st, item)
            await st.flush()
            for item in batch:
                if item is not None and item.get("type") == "alert":
                    f.hub.written(float(item["alert"]["floor"]["received"]))
            if None in batch:
                break
    except ConnectionResetError:
        pass  # the browser went away; it resumes from its last event id
    finally:
        f.hub.unsubscribe(sub)
    return resp


async def _forward(st: _Stream, ev: dict[str, Any]) -> None:
    kind = ev["type"]
    if kind == "alert":
        await st.alert(int(ev["seq"]), ev["alert"])
    elif kind == "ack":
        await st.ack(ev["ack"])
    else:
        await st.send(kind, {k: v for k, v in ev.items() if k != "type"})


# --- app ---------------------------------------------------------------------------------------------------
# A table id in a path: one segment, or `<room>/<table>` on a central floor of a chain (docs/room.md).
_TABLE = r"[^/]+(?:/[^/]+)?"


def build_app(floor: Floor) -> web.Application:
    app = web.Application(middlewares=[_middleware], client_max_size=64 * 1024)
    app[FLOOR_KEY] = floor
    app.router.add_get("/login", login_form)
    app.router.add_post("/login", login_submit)
    app.router.add_post("/logout", logout)
    app.router.add_get("/", index)
    app.router.add_get("/api/me", api_me)
    app.router.add_get("/api/tables", api_tables)
    app.router.add_get(f"/api/tables/{{table:{_TABLE}}}", api_table)
    app.router.add_get("/api/alerts", api_alerts)
    app.router.add_get(f"/api/alerts/{{table:{_TABLE}}}/{{id}}", api_alert)
    app.router.add_post("/api/ack", api_ack)
    app.router.add_get("/api/stats", api_stats)
    app.router.add_get("/api/catalogue", api_catalogue)
    app.router.add_get("/api/health", api_health)
    app.router.add_get("/api/events", events)
    app.router.add_get(f"/api/replay/{{table:{_TABLE}}}/{{hand}}", api_replay)
    app.router.add_get("/api/dealers", api_dealers)
    app.router.add_get("/api/dealers.csv", api_dealers_csv)
    app.router.add_get("/api/i18n", api_i18n)
    app.router.add_get("/report", report_page)
    app.router.add_static("/static/", STATIC, show_index=False)

    async def _close_streams(_app: web.Application) -> None:
        floor.hub.close()

    app.on_shutdown.append(_close_streams)
    return app

