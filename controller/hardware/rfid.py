"""RFID adapter: reader-hub reports -> `card` / `card_gone` events, readers mapped to table zones.

Implements the Source protocol (controller/hardware/base.py). The link guarantees each hub report once
and in order; this module adds what the table means: which zone a reader covers, the set of tags each
reader holds (several per reader: the board reader holds five), reconciliation with snapshots after a
hub restart, and a flicker debounce so a card that drops out of the field for a moment is not reported
as gone and back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.core.cards import CardError, check_zone
from controller.core.events import CardGone, CardSeen
from controller.errors import UsageError
from controller.hardware.base import Clock, Emit
from firmware_bridge.codec import MAX_READERS
from firmware_bridge.link import HubLink, HubRestart, LinkReport, ReaderSnapshot, ReaderStatus, TagReport


@dataclass(frozen=True, kw_only=True, slots=True)
class ZoneMap:
    """Hub reader number -> table zone. Several readers may cover one zone; a reader covers one zone."""

    readers: Mapping[int, str]

    @classmethod
    def from_config(cls, mapping: Mapping[Any, Any], where: str = "rfid.readers") -> ZoneMap:
        """Validate e.g. {"0": "seat1", "1": "seat2", "7": "board"}; raises UsageError naming the bad key."""
        out: dict[int, str] = {}
        for key, zone in mapping.items():
            try:
                reader = int(key)
            except (TypeError, ValueError):
                raise UsageError(f"{where}: reader {key!r} is not a number 0-{MAX_READERS - 1}") from None
            if not 0 <= reader < MAX_READERS:
                raise UsageError(f"{where}: reader {reader} out of range 0-{MAX_READERS - 1}")
            try:
                out[reader] = check_zone(zone)
            except CardError as exc:
                raise UsageError(f"{where}.{key}: {exc}") from None
        if not out:
            raise UsageError(f"{where}: no readers mapped to zones")
        return cls(readers=out)


class RfidAdapter:
    """The reader hub as a Source: `port` is a device path (preferably /dev/serial/by-id/...)."""

    name = "rfid"

    def __init__(
        self,
        port: str,
        zones: ZoneMap | Mapping[Any, Any],
        clock: Clock,
        *,
        debounce: float = 0.15,
        link: HubLink | None = None,
        on_fault: Callable[[ReaderStatus], None] | None = None,
    ) -> None:
        self.zones = zones if isinstance(zones, ZoneMap) else ZoneMap.from_config(zones)
        self.clock = clock
        self.debounce = debounce
        self.link = link or HubLink(port)
        self.on_fault = on_fault
        self._emit: Emit = lambda event: None
        self._visible: dict[int, set[str]] = {r: set() for r in self.zones.readers}
        self._pending_gone: dict[tuple[int, str], float] = {}  # (reader, uid) -> deadline
        self._wake = asyncio.Event()
        self.counters = {"cards_seen": 0, "cards_gone": 0, "flickers_suppressed": 0, "unmapped_reports": 0,
                         "snapshot_corrections": 0, "reader_faults": 0, "hub_restarts": 0}

    async def run(self, emit: Emit) -> None:
        self._emit = emit
        async with asyncio.TaskGroup() as tg:
            tg.create_task(self.link.run(self.on_report), name="rfid-link")
            tg.create_task(self._expire_loop(), name="rfid-debounce")

    def statistics(self) -> dict[str, Any]:
        return {
            **self.counters,
            "tags_per_zone": self._tags_per_zone(),
            "link": self.link.statistics(),
        }

    # -- reports ------------------------------------------------------------------------------------

    def on_report(self, rep: LinkReport) -> None:
        """Called by the link on the event-loop thread, in hub order."""
        if isinstance(rep, TagReport):
            if rep.reader not in self._visible:
                self.counters["unmapped_reports"] += 1
                return
            if rep.present:
                self._arrive(rep.reader, rep.uid)
            else:
                self._leave(rep.reader, rep.uid)
        elif isinstance(rep, ReaderSnapshot):
            self._reconcile(rep)
        elif isinstance(rep, ReaderStatus):
            if not rep.ok:
                self.counters["reader_faults"] += 1
            if self.on_fault is not None:
                self.on_fault(rep)
        elif isinstance(rep, HubRestart):
            self.counters["hub_restarts"] += 1

    def _arrive(self, reader: int, uid: str) -> None:
        if self._pending_gone.pop((reader, uid), None) is not None:
            self.counters["flickers_suppressed"] += 1  # gone and back within the debounce: never left
            return
        if uid in self._visible[reader]:
            return  # a rebooted hub re-reporting a tag that never moved
        # A card is in one place at a time: a pending removal elsewhere happens first.
        for (r, u) in [k for k in self._pending_gone if k[1] == uid]:
            self._pending_gone.pop((r, u))
            self._gone(r, u)
        self._visible[reader].add(uid)
        self.counters["cards_seen"] += 1
        self._emit(CardSeen(t=self.clock(), zone=self.zones.readers[reader], uid=uid, source=self.name))

    def _leave(self, reader: int, uid: str) -> None:
        if uid not in self._visible[reader] or (reader, uid) in self._pending_gone:
            return
        self._pending_gone[(reader, uid)] = self.clock() + self.debounce
        self._wake.set()

    def _gone(self, reader: int, uid: str) -> None:
        self._visible[reader].discard(uid)
        self.counters["cards_gone"] += 1
        self._emit(CardGone(t=self.clock(), zone=self.zones.readers[reader], uid=uid, source=self.name))

    def _reconcile(self, snap: ReaderSnapshot) -> None:
        if snap.reader not in self._visible:
            return
        have = self._visible[snap.reader] - {u for (r, u) in self._pending_gone if r == snap.reader}
        # A reader that does not answer reports no tags; that is no evidence that a card left.
        for uid in sorted(have - set(snap.uids)) if snap.ok else []:
            self.counters["snapshot_corrections"] += 1
            self._leave(snap.reader, uid)
        for uid in sorted(set(snap.uids) - self._visible[snap.reader]):
            self.counters["snapshot_corrections"] += 1
            self._arrive(snap.reader, uid)

    def flush(self) -> None:
        """Emit every pending removal now (shutdown, tests)."""
        for key in list(self._pending_gone):
            self._pending_gone.pop(key)
            self._gone(*key)

    def expire(self, now: float) -> None:
        """Emit the removals whose debounce ran out by `now`."""
        for key in [k for k, t in self._pending_gone.items() if t <= now]:
            self._pending_gone.pop(key)
            self._gone(*key)

    async def _expire_loop(self) -> None:
        while True:
            if not self._pending_gone:
                self._wake.clear()
                await self._wake.wait()
                continue
            now = self.clock()
            self.expire(now)
            nxt = min(self._pending_gone.values(), default=now + self.debounce)
            await asyncio.sleep(max(0.005, nxt - now))

    def _tags_per_zone(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for reader, uids in self._visible.items():
            zone = self.zones.readers[reader]
            out[zone] = out.get(zone, 0) + len(uids)
        return out
