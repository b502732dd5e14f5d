"""The link after a hub reboot (issue #12, item 9): a lost HELLO must not let an event of the new boot be
delivered under the old boot's numbers (a duplicate or out-of-order event after the resync), and a HELLO
with first_seq = 0 must not stall the link. 0 lost, 0 duplicated, order kept.

A real Pico's clock (ticks_us) starts again at zero on every boot; the emulator's HubCore reads the host's
monotonic clock, so `RebootingEmulator` gives each boot its own clock from zero, and can lose the HELLO a
boot sends."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from firmware_bridge import codec
from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware.hub import HubCore
from firmware_bridge.link import HubLink, HubRestart, LinkReport, TagReport
from tests.bridge.test_link import sans_io_link, wait_until


class RebootingEmulator(Emulator):
    lose_hello = False

    def _new_hub(self) -> HubCore:
        self._boot_t = time.monotonic()
        return super()._new_hub()

    def _now(self) -> int:  # type: ignore[override]
        return int((time.monotonic() - getattr(self, "_boot_t", 0.0)) * 1e6) + 1000

    def _tx(self, data: bytes) -> None:
        if self.lose_hello:
            msgs = codec.Decoder(codec.HUB_TO_HOST).feed(data)
            if any(isinstance(m, codec.Hello) for m in msgs):
                self.lose_hello = False
                data = b"\x00" + b"".join(codec.encode(m) for m in msgs if not isinstance(m, codec.Hello))
        super()._tx(data)


def delivered(reps: list[LinkReport]) -> list[tuple[int, int]]:
    return [(r.boot_id, r.seq) for r in reps if isinstance(r, TagReport)]


def test_lost_hello_after_a_reboot_no_duplicate_no_reordering(tmp_path: Path) -> None:
    emu = RebootingEmulator(n_readers=2, link=str(tmp_path / "hub"))

    async def body() -> None:
        link = HubLink(emu.path, rng=random.Random(3))
        reps: list[LinkReport] = []
        task = asyncio.create_task(link.run(reps.append))
        try:
            await wait_until(lambda: link.up and link.stats.snapshots == 2)
            for n, (reader, uid, present) in enumerate([(0, "0a000001", True), (0, "0a000002", True),
                                                        (1, "0a000003", True), (0, "0a000001", False),
                                                        (0, "0a000002", False)], start=1):
                emu.apply([(reader, uid, present)])
                await wait_until(lambda n=n: len(delivered(reps)) == n)  # type: ignore[misc]
            # expected is now 6
            await asyncio.sleep(2.5)  # heartbeats with nothing in flight; the old boot ran for a while
            old_boot = link.boot_id
            emu.freeze()  # the hub hangs (no scans) while six more tags land on reader 1 …
            emu.apply([(1, f"0b0000{i:02x}", True) for i in range(6)])
            emu.lose_hello = True
            emu.reset()  # … then reboots; its HELLO is lost on the wire
            emu.freeze(False)  # first scan of the new boot: seqs 1…7 in one burst, 6 and 7 collide with ours
            await wait_until(lambda: link.boot_id != old_boot, timeout=5)
            await wait_until(lambda: len(of_boot(reps, link.boot_id)) >= 6, timeout=5)
            await asyncio.sleep(0.5)
            got = delivered(reps)
            generated = [(e.boot_id, e.msg.seq) for e in emu.history if isinstance(e.msg, codec.TagEvent)]
            assert len(got) == len(set(got)), got  # 0 duplicated
            assert set(got) <= set(generated), got  # nothing delivered under a boot that did not send it
            for boot in {b for b, _ in got}:
                seqs = [s for b, s in got if b == boot]
                assert seqs == sorted(seqs)  # order kept within each boot
            new = [s for b, s in got if b == link.boot_id]
            assert new == [s for b, s in generated if b == link.boot_id]  # 0 lost
            restart = next(i for i, r in enumerate(reps)
                           if isinstance(r, HubRestart) and r.boot_id == link.boot_id)
            assert all(r.boot_id == link.boot_id for r in reps[restart:] if isinstance(r, TagReport))
            assert link.stats.hub_restarts == 1
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    with emu:
        asyncio.run(body())


def of_boot(reps: list[LinkReport], boot: int | None) -> list[int]:
    return [s for b, s in delivered(reps) if b == boot]


def ev(seq: int, hub_us: int) -> bytes:
    return codec.encode(codec.TagEvent(seq, True, 0, hub_us, seq.to_bytes(4, "big")))


def test_sans_io_new_boot_event_with_a_colliding_seq_is_not_delivered() -> None:
    link, t, reps = sans_io_link()
    link._on_bytes(ev(1, 50_000_000) + ev(2, 51_000_000))
    link._on_bytes(codec.encode(codec.Heartbeat(52_000_000, 0xB0, 0, 0, 3, 3)))
    t.sent()
    link._on_bytes(ev(3, 1_500_000))  # the rebooted hub's third event; its clock restarted
    assert [r.seq for r in reps if isinstance(r, TagReport)] == [1, 2]
    assert link.stats.missed_reboots == 1 and codec.Sync in [type(m) for m in t.sent()]
    link._on_bytes(codec.encode(codec.Hello(1, 0xB1, 2, 1)))  # the resync: the new boot resends 1…3
    link._on_bytes(ev(1, 1_300_000) + ev(2, 1_400_000) + ev(3, 1_500_000))
    assert [(r.boot_id, r.seq) for r in reps if isinstance(r, TagReport)] == [
        (0xB0, 1), (0xB0, 2), (0xB1, 1), (0xB1, 2), (0xB1, 3)]


def test_sans_io_clock_wrap_within_a_boot_is_not_a_reboot() -> None:
    link, _t, reps = sans_io_link()
    link._on_bytes(ev(1, 0xFFFF_F000) + ev(2, 0x0000_1000))  # the 32-bit µs clock wraps after 71.6 min
    assert [r.seq for r in reps if isinstance(r, TagReport)] == [1, 2] and link.stats.missed_reboots == 0


def test_sans_io_hello_with_first_seq_zero_does_not_stall() -> None:
    link, t, reps = sans_io_link()
    link._on_bytes(codec.encode(codec.Hello(1, 0xB2, 2, 0)))
    t.sent()
    link._on_bytes(ev(1, 1000) + ev(2, 2000) + ev(3, 3000))
    assert [(r.boot_id, r.seq) for r in reps if isinstance(r, TagReport)] == [(0xB2, 1), (0xB2, 2), (0xB2, 3)]
    assert link.stats.gaps == 0 and t.sent() == [codec.Ack(3, 0xB2, 0)]
