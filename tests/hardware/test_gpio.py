"""Tap sensor and console buttons on gpiozero's MockFactory with timed edge patterns, and the bridge."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins import mock as gpio_mock
from gpiozero.pins.mock import MockFactory

from controller.core.events import ConsoleEvent, Event, HandStart, Knock
from controller.errors import UsageError
from controller.hardware.base import Source
from controller.hardware.console import ConsoleButtons
from controller.hardware.gpio import Debouncer, HardwareFault, make_pin_factory
from controller.hardware.tap import TapSensor
from controller.hardware.threadbridge import ThreadBridge

ROOT = Path(__file__).resolve().parents[2]


class FakeTime:
    """One clock for gpiozero's mock edge timestamps and for our session clock."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    monkeypatch.setattr(gpio_mock, "monotonic", fake)
    return fake


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


Pattern = list[tuple[float, bool]]  # (time, line level high?)


async def play(source: Any, factory: MockFactory, clock: FakeTime, lines: dict[int, Pattern],
               until: float, faults: list[HardwareFault] | None = None) -> list[Event]:
    """Run `source`, drive each pin through its timed pattern, advance to `until`; return its events."""
    out: list[Event] = []
    task = asyncio.create_task(source.run(out.append))
    await asyncio.sleep(0)  # let run() open the pins
    steps = sorted((t, pin, high) for pin, pattern in lines.items() for t, high in pattern)
    for t, pin, high in steps:
        await advance(clock, t)
        p = factory.pin(pin)
        p.drive_high() if high else p.drive_low()
        await asyncio.sleep(0)  # the bridge delivers on the loop
    await advance(clock, until)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return out


async def advance(clock: FakeTime, t: float) -> None:
    """Move the fake clock forward in 50 ms steps so the stuck-line check sees time pass."""
    start = clock.t
    while clock.t < t:
        clock.t = min(t, clock.t + 0.05)
        if t - start > 0.5:
            await asyncio.sleep(0.003)  # long waits: let the stuck-line check (every 1 ms) run each step
    await asyncio.sleep(0)


def knock(at: float, bounce: bool = False, hold: float = 0.06) -> Pattern:
    """An active-low press at `at`; with contact bounce on press and on release."""
    press = [(at, False)]
    if bounce:
        press += [(at + 0.001, True), (at + 0.002, False), (at + 0.004, True), (at + 0.005, False)]
    release = [(at + hold, True)]
    if bounce:
        release += [(at + hold + 0.001, False), (at + hold + 0.003, True)]
    return press + release


def tap(factory: MockFactory, clock: FakeTime, **kw: Any) -> TapSensor:
    return TapSensor(17, pin_factory=factory, clock=clock, check_every=0.001, **kw)


def test_single_knock(factory: MockFactory, clock: FakeTime) -> None:
    out = asyncio.run(play(tap(factory, clock), factory, clock, {17: knock(1.0)}, 1.5))
    assert out == [Knock(t=1.0, source="tap")]


def test_contact_bounce_is_one_knock(factory: MockFactory, clock: FakeTime) -> None:
    sensor = tap(factory, clock)
    out = asyncio.run(play(sensor, factory, clock, {17: knock(1.0, bounce=True)}, 1.5))
    assert out == [Knock(t=1.0, source="tap")]
    assert sensor.statistics()["rejected_bounce"] == 3 and sensor.statistics()["edges"] == 8


def test_double_knock_is_two_knocks_when_the_gap_allows(factory: MockFactory, clock: FakeTime) -> None:
    pattern = knock(1.0, bounce=True) + knock(1.2, bounce=True)
    out = asyncio.run(play(tap(factory, clock, min_gap=0.12), factory, clock, {17: pattern}, 2.0))
    assert [e.t for e in out] == [1.0, 1.2]


def test_minimum_gap_merges_a_double_knock(factory: MockFactory, clock: FakeTime) -> None:
    sensor = tap(factory, clock, min_gap=0.3)
    pattern = knock(1.0, bounce=True) + knock(1.2, bounce=True) + knock(1.6)
    out = asyncio.run(play(sensor, factory, clock, {17: pattern}, 2.0))
    assert [e.t for e in out] == [1.0, 1.6]
    assert sensor.statistics()["rejected_gap"] == 1


def test_release_bounce_after_a_long_press_is_not_a_knock(factory: MockFactory, clock: FakeTime) -> None:
    out = asyncio.run(play(tap(factory, clock, min_gap=0.1), factory, clock,
                           {17: knock(1.0, bounce=True, hold=0.4)}, 2.0))
    assert [e.t for e in out] == [1.0]


def test_stuck_line_is_a_fault_then_recovers(factory: MockFactory, clock: FakeTime) -> None:
    faults: list[HardwareFault] = []
    sensor = tap(factory, clock, stuck_after=2.0, on_fault=faults.append)
    pattern = [(1.0, False), (4.0, True), *knock(5.0)]
    out = asyncio.run(play(sensor, factory, clock, {17: pattern}, 5.5))
    assert [e.t for e in out] == [1.0, 5.0]  # the press that got stuck, then a knock after release
    assert [(f.line, f.active) for f in faults] == [("17", True), ("17", False)]
    assert 3.0 <= faults[0].t <= 3.1 and 4.0 <= faults[1].t <= 4.1
    assert sensor.statistics()["faults"] == 1


def test_edges_while_stuck_do_not_knock(factory: MockFactory, clock: FakeTime) -> None:
    sensor = tap(factory, clock, stuck_after=1.0)
    pattern = [(1.0, False), (2.5, True), (2.501, False)]  # a glitch while stuck: still stuck
    out = asyncio.run(play(sensor, factory, clock, {17: pattern}, 3.0))
    assert [e.t for e in out] == [1.0]


def test_active_high_polarity(factory: MockFactory, clock: FakeTime) -> None:
    sensor = tap(factory, clock, active_low=False)
    out = asyncio.run(play(sensor, factory, clock, {17: [(1.0, True), (1.05, False), (1.5, True)]}, 2.0))
    assert [e.t for e in out] == [1.0, 1.5]


def test_debouncer_rejects_a_bounce_longer_than_the_gap() -> None:
    with pytest.raises(UsageError, match="debounce"):
        Debouncer(bounce=0.5, min_gap=0.1, stuck_after=1)


CONSOLE = {"new_hand": 5, "misdeal": 6, "floor": 13, "deck_check": 19, "deck_check_done": 20, "clock": 26}


def test_console_buttons_emit_hand_start_and_console_events(factory: MockFactory, clock: FakeTime) -> None:
    buttons = ConsoleButtons(CONSOLE, pin_factory=factory, clock=clock, check_every=0.001)
    lines = {pin: knock(1.0 + i, bounce=True) for i, pin in enumerate(CONSOLE.values())}
    lines[5] = knock(1.0, bounce=True) + knock(1.2)  # an impatient double press of "new hand"
    out = asyncio.run(play(buttons, factory, clock, lines, 7.0))
    assert out == [HandStart(t=1.0, source="console")] + [
        ConsoleEvent(t=1.0 + i, button=b, source="console")  # type: ignore[arg-type]
        for i, b in enumerate(CONSOLE) if b != "new_hand"
    ]
    assert buttons.statistics()["buttons"]["new_hand"]["rejected_gap"] == 1


def test_stuck_console_button(factory: MockFactory, clock: FakeTime) -> None:
    faults: list[HardwareFault] = []
    buttons = ConsoleButtons({"floor": 13}, pin_factory=factory, clock=clock, stuck_after=5,
                             check_every=0.001, on_fault=faults.append)
    asyncio.run(play(buttons, factory, clock, {13: [(1.0, False)]}, 6.5))
    assert [(f.source, f.line, f.active) for f in faults] == [("console", "floor", True)]


@pytest.mark.parametrize(("pins", "message"), [({"shuffle": 5}, "unknown button 'shuffle'"),
                                               ({"floor": 5, "clock": 5}, "share one GPIO pin")])
def test_console_config_errors(pins: dict[str, int], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        ConsoleButtons(pins, pin_factory=MockFactory(), clock=lambda: 0.0)


def test_unknown_pin_factory_is_one_clear_line() -> None:
    with pytest.raises(UsageError, match="unknown gpio pin factory 'gpio9'"):
        make_pin_factory("gpio9")
    assert isinstance(make_pin_factory("mock"), MockFactory)


def test_sources_implement_the_protocol(factory: MockFactory) -> None:
    sources: list[Source] = [TapSensor(4, pin_factory=factory, clock=lambda: 0.0),
                             ConsoleButtons({"floor": 5}, pin_factory=factory, clock=lambda: 0.0)]
    assert [s.name for s in sources] == ["tap", "console"]


def test_edges_from_another_thread_arrive_in_order_on_the_loop_thread(factory: MockFactory) -> None:
    """Real threads, real time: gpiozero calls back on its own thread; the bridge hands over in order."""
    seen: list[tuple[float, int]] = []
    import time

    sensor = TapSensor(21, pin_factory=factory, clock=time.monotonic, min_gap=0.02, bounce=0.005)

    async def main() -> None:
        loop_thread = threading.get_ident()
        task = asyncio.create_task(sensor.run(lambda e: seen.append((e.t, threading.get_ident()))))
        await asyncio.sleep(0.01)
        pin = factory.pin(21)

        def drive() -> None:
            for _ in range(10):
                pin.drive_low()
                time.sleep(0.012)
                pin.drive_high()
                time.sleep(0.02)

        await asyncio.to_thread(drive)
        await asyncio.sleep(0.05)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert {tid for _t, tid in seen} == {loop_thread}

    asyncio.run(main())
    assert len(seen) == 10 and [t for t, _ in seen] == sorted(t for t, _ in seen)


def test_tap_and_console_can_share_one_bridge(factory: MockFactory) -> None:
    async def main() -> ThreadBridge:
        bridge = ThreadBridge(asyncio.get_running_loop())
        out: list[Event] = []
        tap = TapSensor(4, pin_factory=factory, clock=lambda: 0.0, bridge=bridge)
        con = ConsoleButtons({"floor": 5}, pin_factory=factory, clock=lambda: 0.0, bridge=bridge)
        tasks = [asyncio.create_task(s.run(out.append)) for s in (tap, con)]
        await asyncio.sleep(0.01)
        for pin in (4, 5):
            factory.pin(pin).drive_low()
        await asyncio.sleep(0.01)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert [type(e).__name__ for e in out] == ["Knock", "ConsoleEvent"]
        return bridge

    assert asyncio.run(main()).posted == 2


def test_thread_bridge_preserves_order_and_counts_calls_after_close() -> None:
    got: list[int] = []

    async def main() -> ThreadBridge:
        bridge = ThreadBridge(asyncio.get_running_loop())
        threads = [threading.Thread(target=lambda: [bridge.post(got.append, i) for i in range(500)])]
        for th in threads:
            th.start()
        await asyncio.to_thread(threads[0].join)
        await asyncio.sleep(0.01)
        return bridge

    bridge = asyncio.run(main())
    assert got == list(range(500)) and bridge.posted == 500
    bridge.post(got.append, 1)  # the loop is closed now
    assert bridge.dropped == 1 and len(got) == 500


def test_only_the_bridge_calls_call_soon_threadsafe() -> None:
    users = [p.relative_to(ROOT).as_posix() for p in (ROOT / "controller").rglob("*.py")
             if "call_soon_threadsafe" in p.read_text(encoding="utf-8")]
    assert users == ["controller/hardware/threadbridge.py"]


