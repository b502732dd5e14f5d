"""The floor UI's server side without a browser: the password-less wall, replay permissions, open means
fault, dealer exports behind the login, and the config checks of the new keys."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from controller.floor.app import FloorService
from controller.floor.errors import FloorConfigError
from controller.floor.store import Filters
from tests.floor.publisher import alert, hand_summary, state
from tests.floor.test_web import csrf_from, run_service, session
from tests.floor.uihelp import UI_PASSWORDS, ui_config


def run(tmp_path: Path, body: Any, **web: Any) -> None:
    run_service(tmp_path, body, cfg=ui_config({"sqlite": str(tmp_path / "floor.sqlite3")}, 1, **web))


async def feed(svc: FloorService, table: str, kind: str, obj: dict[str, Any]) -> None:
    await svc.ingest.handle(f"cardtable/{table}/{kind}", json.dumps(obj).encode())


async def sign_in(http: Any, base: str, user: str) -> None:
    token = await csrf_from(http, base + "/login")
    async with http.post(
        base + "/login",
        data={"user": user, "password": UI_PASSWORDS[user], "csrf": token},
        allow_redirects=False,
    ) as r:
        assert r.status == 303


def test_wall_opens_without_password_only_from_its_network(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        async with session() as http:
            async with http.get(base + "/?wall=1", allow_redirects=False) as r:
                assert r.status == 303 and r.headers["Location"] == "/?wall=1"
            async with http.get(base + "/?wall=1") as r:
                page = await r.text()
            assert 'name="role" content="wall"' in page and 'id="login-btn"' not in page
            token = await csrf_from(http, base + "/?wall=1")
            await feed(svc, "t1", "alerts", alert("t1", 1, 1, "KNOCK_MISSING"))
            async with http.post(
                base + "/api/ack",
                json={"table": "t1", "id": "t1-h1-1", "ruling": "x"},
                headers={"X-CSRF-Token": token},
            ) as r:
                assert r.status == 403  # read-only

    run(tmp_path, body)

    async def elsewhere(svc: FloorService, base: str) -> None:
        async with session() as http, http.get(base + "/?wall=1", allow_redirects=False) as r:
            assert r.status == 303 and r.headers["Location"] == "/login"

    run(tmp_path / "b", elsewhere, wall_from=["10.0.5.0/24"])


def test_replay_shows_cards_of_finished_hands_to_supervisors_only(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        # Hand 7 of an earlier session (an hour ago): not part of this hand's timeline.
        old = {**alert("r1", 7, 1, "BURN_EXTRA"), "id": "r1-h7-old"}
        await svc.store.add_alert(old, dealer=None, received=time.time() - 3600)
        for street in ("preflop", "flop", "river"):
            await feed(svc, "r1", "state", state("r1", 7, street, hole=True))
        await feed(svc, "r1", "alerts", alert("r1", 7, 1, "TURN_PREMATURE"))
        river = state("r1", 7, "river")
        river["phase"] = "showdown"
        river["seats"][0]["shown"] = ["As", "Kd"]
        await feed(svc, "r1", "state", river)
        await feed(svc, "r1", "state", state("r1", 8, "preflop"))
        await feed(svc, "r1", "hands", hand_summary("r1", 7))
        for user, cards in (("anna", {}), ("sven", {"1": ["As", "Kd"], "3": ["Qc", "Qh"]})):
            async with session() as http:
                await sign_in(http, base, user)
                async with http.get(base + "/api/replay/r1/7") as r:
                    rep = await r.json()
                assert rep["live"] is False and rep["hole_cards"] == cards and len(rep["frames"]) == 4
                assert [a["code"] for a in rep["alerts"]] == ["TURN_PREMATURE"]
                text = json.dumps(rep["frames"])
                assert ('"Kd"' in text) is (user == "sven")  # showdown cards in states: supervisor only
                assert '"Qc"' not in text  # the faulty publisher's hole cards never (stripped on ingest)
                async with http.get(base + "/api/replay/r1/8") as r:
                    live = await r.json()
                assert live["live"] is True and live["hole_cards"] == {} and live["cards_allowed"] is False
                async with http.get(base + "/api/replay/r1/seven") as r:
                    assert r.status == 400
        # The finished hand's timeline was written to the store when hand 8 began.
        frames = await svc.store.replay_frames("r1", 7)
        assert frames is not None and len(frames) == 4

    run(tmp_path, body)


def test_info_is_never_open_and_exports_need_a_login(tmp_path: Path) -> None:
    async def body(svc: FloorService, base: str) -> None:
        await feed(svc, "t1", "alerts", alert("t1", 1, 1, "POT_AWARD"))
        await feed(svc, "t1", "alerts", alert("t1", 1, 2, "BURN_EXTRA"))
        rows = await svc.store.history(Filters(status="open"))
        assert [a["code"] for a in rows] == ["BURN_EXTRA"]
        async with session() as http:
            for path in ("/api/dealers", "/api/dealers.csv", "/api/replay/t1/1", "/api/i18n"):
                async with http.get(base + path) as r:
                    assert r.status == 401, path
            async with http.get(base + "/report", allow_redirects=False) as r:
                assert r.status == 303 and r.headers["Location"] == "/login"
            await sign_in(http, base, "greta")
            async with http.get(base + "/api/i18n") as r:
                assert (await r.json())["codes"]["BURN_EXTRA"]["title"] == "Zwei Burn-Karten vor einer Straße"
            async with http.get(base + "/api/dealers?days=x") as r:
                assert r.status == 400 and (await r.json())["error"] == "days: not a number"

    run(tmp_path, body)


@pytest.mark.parametrize(
    ("web", "message"),
    [
        ({"wall_from": ["10.0.0.0/33"]}, "web.wall_from: Value error, '10.0.0.0/33' is not an IP network"),
        (
            {"wall_from": ["10.0.0.0/24"], "wall_user": "anna"},
            "web.wall_user: 'anna' must be a user with role 'wall'",
        ),
    ],
)
def test_bad_wall_settings_are_named(tmp_path: Path, web: dict[str, Any], message: str) -> None:
    with pytest.raises(FloorConfigError) as err:
        ui_config({"sqlite": str(tmp_path / "f.sqlite3")}, 1, **web)
    assert message.split("Value error, ")[-1] in str(err.value), str(err.value)


def test_bad_shift_is_named(tmp_path: Path) -> None:
    from controller.floor.config import parse_config

    with pytest.raises(FloorConfigError, match=r"shifts: .*late: '14-22' is not HH:MM-HH:MM"):
        parse_config(
            {
                "users": {"a": {"hash": "scrypt$4096$8$1$c2FsdHNhbHRzYWx0c2FsdA$" + "A" * 43}},
                "shifts": {"late": "14-22"},
            }
        )
