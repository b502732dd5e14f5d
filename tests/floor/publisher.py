"""A stand-in for the table daemon in tests: realistic alerts, retained state and status, hand summaries.

Payloads follow interfaces.md §2–3; alert texts come from the catalogue so every code the page shows is
one the rules core really raises.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import aiomqtt

from controller.core.catalogue import entry
from tests.floor.broker import USERS

PREFIX = "cardtable"
BOARDS = {"preflop": [], "flop": ["Ah", "7c", "2d"], "turn": ["Ah", "7c", "2d", "Ks"],
          "river": ["Ah", "7c", "2d", "Ks", "9h"]}


def alert(table: str, hand: int, n: int, code: str, *, street: str = "flop", seat: int | None = None,
          cards: tuple[str, ...] = (), message: str = "", t: float | None = None) -> dict[str, Any]:
    e = entry(code)
    return {"type": "alert", "id": f"{table}-h{hand}-{n}", "t": t if t is not None else time.time(),
            "table": table, "hand": hand, "code": code, "severity": e.severity, "street": street,
            "seat": seat,
            "cards": list(cards), "message": message or f"{e.title} (hand {hand})", "remedy": e.remedy,
            "rule": e.rule}


def state(table: str, hand: int, street: str = "flop", dealer: str | None = None,
          hole: bool = False) -> dict[str, Any]:
    # The shape of the engine's public_state (controller/core/state.py on the engine branch).
    seats = [{"seat": 1, "player": "Anna", "stack": 9800, "present": True, "status": "live", "bet": 200,
              "cards": 2, "shown": []},
             {"seat": 3, "player": "Ben", "stack": 15250, "present": True, "status": "live", "bet": 200,
              "cards": 2, "shown": []},
             {"seat": 4, "player": "Chris", "stack": 4100, "present": True, "status": "folded", "bet": 0,
              "cards": 0, "shown": []},
             {"seat": 6, "player": "Dana", "stack": 22600, "present": True, "status": "live", "bet": 0,
              "cards": 2, "shown": []}]
    if hole:  # a faulty publisher: the floor must strip these before anything reaches a browser
        seats[0]["cards"] = ["As", "Kd"]
        seats[1]["hole_cards"] = ["Qc", "Qh"]
    out: dict[str, Any] = {"table": table, "hand": hand, "phase": "betting", "street": street, "button": 6,
                           "sb_seat": 1, "bb_seat": 3,
                           "blinds": {"sb": 100, "bb": 200, "ante": 0, "chip": 25},
                           "pots": [{"amount": 1200}], "board": BOARDS.get(street, []), "seats": seats,
                           "to_act": 6, "profile": "handbuch"}
    if dealer:
        out["dealer"] = dealer
    return out


def hand_summary(table: str, hand: int) -> dict[str, Any]:
    return {"table": table, "hand": hand, "board": BOARDS["river"], "actions": [],
            "shown": {"1": ["As", "Kd"], "3": ["Qc", "Qh"]},
            "pots": [{"amount": 2400, "eligible": [1, 3], "winners": {"1": 2400}}]}


@dataclass
class Publisher:
    """One connection per table, as the daemons would have, each with its retained status and will."""

    port: int
    tables: tuple[str, ...] = ("t1", "t2", "t3")
    clients: dict[str, aiomqtt.Client] = field(default_factory=dict)

    async def __aenter__(self) -> Publisher:
        for t in self.tables:
            will = aiomqtt.Will(f"{PREFIX}/{t}/status", b"offline", qos=1, retain=True)
            c = aiomqtt.Client("127.0.0.1", self.port, username=t, password=USERS[t], identifier=f"pub-{t}",
                               will=will)
            await c.__aenter__()
            self.clients[t] = c
        return self

    async def __aexit__(self, *exc: object) -> None:
        for c in self.clients.values():
            await c.__aexit__(None, None, None)
        self.clients.clear()

    async def status(self, table: str, text: str) -> None:
        await self.clients[table].publish(f"{PREFIX}/{table}/status", text.encode(), qos=1, retain=True)

    async def state(self, table: str, st: dict[str, Any]) -> None:
        topic = f"{PREFIX}/{table}/state"
        await self.clients[table].publish(topic, json.dumps(st).encode(), qos=1, retain=True)

    async def alert(self, a: dict[str, Any]) -> float:
        """Publish one alert; returns the wall-clock time just before the publish (for latency)."""
        t0 = time.time()
        await self.clients[a["table"]].publish(f"{PREFIX}/{a['table']}/alerts", json.dumps(a).encode(), qos=1)
        return t0

    async def hand(self, table: str, summary: dict[str, Any]) -> None:
        await self.clients[table].publish(f"{PREFIX}/{table}/hands", json.dumps(summary).encode(), qos=1)


async def publish_one(port: int, user: str, topic: str, payload: dict[str, Any] | str, *,
                      retain: bool = False) -> None:
    """A single publish on a fresh connection (e.g. while other clients are reconnecting)."""
    data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
    async with aiomqtt.Client("127.0.0.1", port, username=user, password=USERS[user]) as c:
        await c.publish(topic, data, qos=1, retain=retain)
