"""Tag inventory on one reader (WUPA/anticollision/HLTA loop) and presence tracking with hysteresis.

Hardware-free: `chip` is anything with version(), wupa(), reqa(), select(), hlta() — the MFRC522 driver
on the Pico, FakeChip under CPython. Runs unchanged on MicroPython (no typing imports at runtime).
"""

GOOD_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0x12, 0xB2)  # FM17522 clone, MFRC522 v0.0/1.0/2.0, other clones
MAX_TAGS = 8  # more than a board (five cards) plus a burn card on the board reader


def inventory(chip: object, max_tags: int = MAX_TAGS) -> list[bytes]:
    """Every uid in the field of `chip`, each tag left halted.

    WUPA wakes tags in IDLE *and* HALT state, so every tag answers once per call; each one is selected
    through the anticollision loop and put to HALT, then REQA (which halted tags ignore) finds the next.
    """
    uids: list[bytes] = []
    if not chip.wupa():
        return uids
    while len(uids) < max_tags:
        uid = chip.select()
        if uid is None:
            break
        if uid not in uids:
            uids.append(uid)
        chip.hlta()
        if not chip.reqa():
            break
    return uids


class Presence:
    """Debounced tags of one reader: on after `on_cycles` sightings in a row, off after `off_cycles` misses"""

    def __init__(self, on_cycles: int = 1, off_cycles: int = 3) -> None:
        self.on_cycles = on_cycles
        self.off_cycles = off_cycles
        self.present: dict[bytes, int] = {}  # uid -> consecutive misses
        self._candidates: dict[bytes, int] = {}  # uid -> consecutive sightings, not yet present

    def update(self, seen: list[bytes]) -> list[tuple[bool, bytes]]:
        """Feed one scan; returns the transitions (True = arrived, False = left) in a stable order."""
        out: list[tuple[bool, bytes]] = []
        for uid in seen:
            if uid in self.present:
                self.present[uid] = 0
                continue
            n = self._candidates.get(uid, 0) + 1
            if n >= self.on_cycles:
                self._candidates.pop(uid, None)
                self.present[uid] = 0
                out.append((True, uid))
            else:
                self._candidates[uid] = n
        for uid in [u for u in self._candidates if u not in seen]:
            del self._candidates[uid]  # a sighting streak broken before it counted
        for uid in sorted(u for u in self.present if u not in seen):
            misses = self.present[uid] + 1
            if misses >= self.off_cycles:
                del self.present[uid]
                out.append((False, uid))
            else:
                self.present[uid] = misses
        return out

    def uids(self) -> list[bytes]:
        return sorted(self.present)
