"""The simulator's hardware: the reader-hub emulator behind a pty, MockFactory pins for knock and console.

Routes turn simulated events into physical acts on the emulated devices; the real adapters (RfidAdapter,
TapSensor, ConsoleButtons) turn them back into events for the daemon. Conventions of the virtual dealer:
- a card's tag is placed on / removed from the reader of its zone; a card that shows up in a new zone
  while its tag still lies on another reader moves (the adapter reports `card_gone` then `card`);
- right after a new hand is announced the virtual dealer's collection of the previous hand's cards is
  reported (every tag still on a reader is lifted): the rules core settles the last hand at `hand_start`;
- `hand_start` carries the button seat, which the console's new-hand button cannot say: it goes direct.
  Console buttons (misdeal, floor, deck check, clock) and knocks go through the mock GPIO pins;
- the mock pins are stamped with the simulation's virtual clock, so knock timing rules see simulated time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

from controller.core.events import CardGone, CardSeen, ConsoleEvent, Event, HandStart, Knock
from controller.daemon.health import Health
from controller.hardware.base import Source
from controller.hardware.console import ConsoleButtons
from controller.hardware.rfid import RfidAdapter
from controller.hardware.tap import TapSensor
from controller.sim.driver import VirtualClock
from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware.scan import MAX_TAGS

TAP_PIN = 17
CONSOLE_PINS = {"new_hand": 5, "misdeal": 6, "floor": 13, "deck_check": 19, "deck_check_done": 20,
                "clock": 26}


class VirtualMockPin(MockPin):  # type: ignore[misc]
    """A MockPin whose edges carry the factory's (virtual) time instead of time.monotonic()."""

    def _change_state(self, value: bool) -> bool:
        if self._state != value:
            t: float = self._factory.ticks()
            self._state: bool = value
            self._last_change = t
            return True
        return False

    def clear_states(self) -> None:
        self._last_change = self._factory.ticks()
        self.states: list[Any] = []


class VirtualMockFactory(MockFactory):  # type: ignore[misc]
    """MockFactory on the simulation clock."""

    def __init__(self, clock: VirtualClock) -> None:
        self.virtual_clock = clock
        super().__init__(pin_class=VirtualMockPin)

    def ticks(self) -> float:
        return self.virtual_clock()

    @staticmethod
    def ticks_diff(later: float, earlier: float) -> float:
        return later - earlier


def zone_readers(seats: int) -> dict[str, int]:
    """Reader number per zone: seat1…seatN on readers 0…N-1, then board, burn, muck, deck."""
    zones = [f"seat{s}" for s in range(1, seats + 1)] + ["board", "burn", "muck", "deck"]
    return {z: i for i, z in enumerate(zones)}


@dataclass(kw_only=True)
class RfidRoute:
    """Card events with a tag uid → tags placed on / lifted from the emulated readers."""

    emu: Emulator
    readers: dict[str, int]
    name: str = "rfid"
    on_reader: dict[str, int] = field(default_factory=dict)  # uid → reader it lies on (our model)
    emit: Callable[[Event], None] | None = None  # the direct path, for arrivals on a full reader

    def bind(self, emit: Callable[[Event], None]) -> None:
        self.emit = emit

    def accepts(self, event: Event) -> bool:
        if not isinstance(event, CardSeen | CardGone) or event.uid is None or event.zone not in self.readers:
            return False
        here = self.on_reader.get(event.uid)
        reader = self.readers[event.zone]
        if isinstance(event, CardGone):
            return here == reader  # a tag that is not there cannot leave (an injected oddity): direct
        # A tag already on that reader cannot arrive again; a reader inventories at most MAX_TAGS tags
        # (the muck pile outgrows it): such cards go direct and are not on any reader.
        return here != reader

    async def send(self, event: Event) -> int:
        assert isinstance(event, CardSeen | CardGone) and event.uid is not None
        reader = self.readers[event.zone]
        if isinstance(event, CardGone):
            del self.on_reader[event.uid]
            self.emu.remove(reader, event.uid)
            return 1
        old = self.on_reader.get(event.uid)
        if sum(1 for r in self.on_reader.values() if r == reader) >= MAX_TAGS:
            # A reader inventories at most MAX_TAGS tags and the muck pile outgrows that: the card is
            # lifted from its old reader (the adapter reports card_gone) and its arrival goes direct.
            assert self.emit is not None
            if old is not None:
                del self.on_reader[event.uid]
                self.emu.remove(old, event.uid)
            self.emit(event)
            return 2 if old is not None else 1
        self.on_reader[event.uid] = reader
        if old is None:
            self.emu.place(reader, event.uid)
            return 1
        self.emu.apply([(old, event.uid, False), (reader, event.uid, True)])
        return 2  # card_gone from the old zone, then card

    async def after(self, event: Event) -> int:
        if not isinstance(event, HandStart) or not self.on_reader:
            return 0
        lifted = list(self.on_reader.items())
        self.on_reader.clear()
        self.emu.apply([(reader, uid, False) for uid, reader in lifted])
        return len(lifted)


@dataclass(kw_only=True)
class PinRoute:
    """Knocks and console buttons → a press and release of a mock GPIO pin (active low)."""

    factory: Any
    name: str = "gpio"

    def pin_for(self, event: Event) -> int | None:
        if isinstance(event, Knock):
            return TAP_PIN
        if isinstance(event, ConsoleEvent):
            return CONSOLE_PINS[event.button]
        if isinstance(event, HandStart) and event.button is None:
            return CONSOLE_PINS["new_hand"]
        return None

    def accepts(self, event: Event) -> bool:
        return self.pin_for(event) is not None

    async def send(self, event: Event) -> int:
        pin = self.factory.pin(self.pin_for(event))
        pin.drive_low()
        pin.drive_high()
        return 1

    async def after(self, event: Event) -> int:
        return 0


@dataclass(kw_only=True)
class EmulatorSource:
    """Owns the emulator's lifetime inside the task group (stopped when the daemon stops)."""

    emu: Emulator
    name: str = "hub-emulator"

    async def run(self, emit: Callable[[Event], None]) -> None:
        import asyncio

        try:
            await asyncio.Event().wait()
        finally:
            self.emu.stop()

    def statistics(self) -> dict[str, Any]:
        return {"history": len(self.emu.history)}


def build_hardware(*, clock: VirtualClock, seats: int, health: Health) -> tuple[list[Source], list[Any]]:
    """Start the emulated hub and wire the real adapters to it and to the virtual mock pins."""
    readers = zone_readers(seats)
    # Fast scanning: the simulation waits for each event, so the hub's latency is the run time.
    emu = Emulator(n_readers=len(readers), scan_ms=2)
    path = emu.start()
    zones = {str(i): z for z, i in readers.items()}

    def reader_fault(status: Any) -> None:
        health.set(f"reader:{status.reader}", not status.ok,
                   f"reader {status.reader} ({zones.get(str(status.reader))}) stopped answering")

    pin_fault = health.pin_fault

    rfid = RfidAdapter(path, zones, clock, debounce=0.0, on_fault=reader_fault)
    factory = VirtualMockFactory(clock)
    tap = TapSensor(TAP_PIN, pin_factory=factory, clock=clock, active_low=True, min_gap=0.0, bounce=0.0,
                    stuck_after=3600.0, on_fault=pin_fault)
    console = ConsoleButtons(CONSOLE_PINS, pin_factory=factory, clock=clock, active_low=True, bounce=0.0,
                             min_gap=0.0, stuck_after=3600.0, on_fault=pin_fault)
    sources: list[Source] = [EmulatorSource(emu=emu), rfid, tap, console]
    return sources, [RfidRoute(emu=emu, readers=readers), PinRoute(factory=factory)]
