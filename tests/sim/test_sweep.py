"""A random sweep over table set-ups: game, profile, seats (2 to the maximum), betting structure,
big-blind ante, tags or codes, injection rate and every dealer reaction. Each table plays its hands
through the simulator and the core follows them: nothing stuck, no BAD_EVENT, the simulator's stacks,
every injected error detected, no false or follow-up false alert, no crash.

The hand-written tests pick their tables; this one does not, and it found what they missed on
short-handed tables (a wrong stud bring-in raised over, an all-in river corrected at the showdown, a
four-card flop let stand in a runout, a bring-in with nobody left to bet against). The everyday run plays
40 tables of 60 hands; `CARDTABLE_FULL=1` plays 400 tables of 80 hands (about 8 minutes on one core).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from controller.sim import VirtualTable
from controller.sim.follow import follow
from controller.sim.score import score
from controller.sim.table import REACTIONS

FULL = os.environ.get("CARDTABLE_FULL") == "1"
# Another base seed draws other tables (exploration: `CARDTABLE_SWEEP_SEED=7 CARDTABLE_FULL=1 pytest …`);
# the known tables below are numbered for the default seed.
SEED = int(os.environ.get("CARDTABLE_SWEEP_SEED", "20261128"))
TABLES, HANDS = (2000, 100) if FULL else (40, 60)
PROFILES = ("cuca", "uesg", "handbuch", "tda", "classic")


def table_setup(rng: random.Random) -> dict[str, Any]:
    game = rng.choice(("holdem", "holdem", "stud", "mixed"))
    kw: dict[str, Any] = {
        "game": game, "profile": rng.choice(PROFILES), "seats": rng.randint(2, 10 if game == "holdem" else 7),
        "seed": rng.randrange(10**6), "inject": rng.choice((0.3, 0.6)), "use_uids": rng.random() < 0.5,
        "reactions": REACTIONS if rng.random() < 0.5 else ("remedy",)}
    if game == "stud":
        kw["limit"] = rng.choice(("fixed", "pot", "no"))
    if game == "holdem":
        kw["limit"] = rng.choice((None, "pot", "fixed"))
        kw["ante"] = "bb" if rng.random() < 0.3 else "none"
    return kw


# Tables the sweep fails on that are not fixed yet (docs/simulator.md "Random sweep"): each is a strict
# xfail, so it is seen and a fix shows up as XPASS.
KNOWN: dict[int, str] = {}  # none open (table 1100, pot-limit stud after a short all-in, was fixed)


@pytest.mark.parametrize("n", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN[n]))
                               if n in KNOWN else n for n in range(TABLES)])
def test_random_table_followed_to_the_end(n: int) -> None:
    kw = table_setup(random.Random(SEED + n))
    hands = list(VirtualTable(**kw).hands(HANDS))
    stats, alerts = follow(hands, kw["profile"])
    result = score(hands, alerts)
    where = f"{kw}: {stats.summary()}\n{result.summary()}"
    assert stats.clean, where
    assert not result.missed and not result.false_alerts, where
    assert not result.clean_faults and not result.follow_up_false, where
