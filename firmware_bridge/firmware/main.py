"""Reader-hub entry point on the Pico: wire the MFRC522 readers and USB serial to HubCore.

Runs at power-up (MicroPython executes main.py). Everything it does besides I/O lives in hub.py, which
the CPython tests and the emulator exercise with fake readers.
"""

import os
import select
import sys
import time

import micropython
from hub import HubCore
from machine import SPI, WDT, Pin
from mfrc522 import MFRC522

import config


class Clock:
    """Microseconds since boot without the 2**30 wrap of time.ticks_us()."""

    def __init__(self) -> None:
        self.last = time.ticks_us()
        self.acc = 0

    def now(self) -> int:
        t = time.ticks_us()
        self.acc += time.ticks_diff(t, self.last)
        self.last = t
        return self.acc


def build_readers() -> list:
    Pin(config.RST, Pin.OUT, value=1)
    time.sleep_ms(50)
    spi = SPI(config.SPI_ID, baudrate=config.BAUD, polarity=0, phase=0,
              sck=Pin(config.SCK), mosi=Pin(config.MOSI), miso=Pin(config.MISO))
    for pin in config.CS:  # deselect everyone before talking to anyone (shared MISO)
        Pin(pin, Pin.OUT, value=1)
    return [MFRC522(spi, Pin(pin)) for pin in config.CS]


def run() -> None:
    micropython.kbd_intr(-1)  # 0x03 is frame data, not Ctrl-C
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    clock = Clock()
    boot_id = int.from_bytes(os.urandom(4), "big")  # RP2040 ring-oscillator entropy
    hub = HubCore(build_readers(), boot_id, stdout.write, clock.now(),
                  config.SCAN_MS, config.ON_CYCLES, config.OFF_CYCLES)
    wdt = WDT(timeout=config.WATCHDOG_MS)
    buf = bytearray()
    while True:
        while poller.poll(0) and len(buf) < 256:
            buf.extend(stdin.read(1))
        if buf:
            hub.feed(bytes(buf), clock.now())
            buf = bytearray()
        hub.poll(clock.now())
        wdt.feed()
        time.sleep_ms(1)


if Pin(config.MAINTENANCE, Pin.IN, Pin.PULL_UP).value():
    run()
