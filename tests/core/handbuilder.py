"""Test helper: a HandRecord as the engine would leave it at the end of betting."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from controller.core.record import ActionRecord, HandRecord


def deal_order(seats: Iterable[int], button: int) -> tuple[int, ...]:
    """Seats clockwise from the first seat left of the button."""
    ordered = sorted(seats)
    after = [s for s in ordered if s > button]
    return tuple(after + [s for s in ordered if s <= button])


def make_record(
    *,
    stacks: Mapping[int, int],
    button: int,
    committed: Mapping[int, int],
    hole: Mapping[int, Sequence[str]] | None = None,
    board: Sequence[str] = (),
    folded: Iterable[int] = (),
    dead: Iterable[int] = (),
    shown: Iterable[int] | None = None,
    antes: Mapping[int, int] | None = None,
    sb: int = 1,
    bb: int = 2,
    chip: int = 1,
    river_aggressor: int | None = None,
    all_in_order: Sequence[int] = (),
) -> HandRecord:
    """`committed` includes antes; `shown` defaults to every live seat with hole cards (all tabled)."""
    order = deal_order(stacks, button)
    rec = HandRecord(
        table="t1", hand=1, t_start=0.0, button=button, sb_seat=order[0] if len(order) > 2 else button,
        bb_seat=order[1] if len(order) > 2 else order[0], sb=sb, bb=bb, ante=max((antes or {0: 0}).values()),
        chip=chip, dealt_in=order, starting_stacks=dict(stacks),
        hole={s: list(c) for s, c in (hole or {}).items()}, board=list(board),
        committed={s: committed.get(s, 0) for s in order}, folded=set(folded), dead=set(dead),
        all_in_order=list(all_in_order), last_aggressor={"river": river_aggressor}, ended="showdown",
    )
    for s, a in (antes or {}).items():
        rec.actions.append(ActionRecord(t=0.0, street="preflop", seat=s, action="post_ante", total=0,
                                        added=a))
    live = rec.live_seats()
    for s in (live if shown is None else shown):
        if s in rec.hole:
            rec.shown[s] = list(rec.hole[s])
    return rec
