"""Fake MFRC522 readers for CPython tests and the emulator: ISO/IEC 14443-3 tag states, flicker, faults.

Implements the same primitive interface as mfrc522.MFRC522 (version, wupa, reqa, select, hlta), so the
firmware's inventory loop runs against it unchanged.
"""

import random

IDLE, READY, ACTIVE, HALT = 0, 1, 2, 3


class FakeChip:
    """One reader and the tags in its field; `miss_rate` makes a tag skip a whole scan (flicker)."""

    def __init__(self, rng: random.Random | None = None, miss_rate: float = 0.0) -> None:
        self.tags: dict[bytes, int] = {}  # uid -> ISO 14443 state
        self.rng = rng or random.Random(0)
        self.miss_rate = miss_rate
        self.dead = False  # True: the chip does not answer on SPI (VersionReg reads 0x00)
        self._muted: set[bytes] = set()  # tags that miss this scan

    def place(self, uid: bytes) -> None:
        self.tags.setdefault(bytes(uid), IDLE)

    def remove(self, uid: bytes) -> None:
        self.tags.pop(bytes(uid), None)

    def version(self) -> int:
        return 0x00 if self.dead else 0x92

    def wupa(self) -> bool:
        if self.dead:
            return False
        self._muted = {u for u in self.tags if self.miss_rate and self.rng.random() < self.miss_rate}
        answered = False
        for uid in self.tags:
            if uid not in self._muted:
                self.tags[uid] = READY
                answered = True
        return answered

    def reqa(self) -> bool:
        answered = False
        for uid, state in self.tags.items():
            if state == IDLE and uid not in self._muted:
                self.tags[uid] = READY
                answered = True
        return answered

    def select(self) -> bytes | None:
        """Anticollision picks the smallest READY uid (bitwise collisions resolve towards 1 bits first
        on real chips; the order does not matter to the firmware); the others return to IDLE."""
        ready = sorted(u for u, s in self.tags.items() if s == READY)
        if not ready:
            return None
        for uid in ready[1:]:
            self.tags[uid] = IDLE
        self.tags[ready[0]] = ACTIVE
        return ready[0]

    def hlta(self) -> None:
        for uid, state in self.tags.items():
            if state == ACTIVE:
                self.tags[uid] = HALT
