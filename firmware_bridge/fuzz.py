"""Corruption fuzzer for the codec: mutates valid frame streams and counts corrupted frames accepted."""

from __future__ import annotations

import random
from dataclasses import dataclass

from firmware_bridge import codec


@dataclass(frozen=True, kw_only=True, slots=True)
class FuzzResult:
    trials: int
    frames_sent: int
    frames_accepted: int  # decoded messages, all of them checked against the originals
    corrupted_accepted: int  # decoded messages that were not sent, or out of order: must be 0
    decoder_raised: int  # must be 0
    bare_crc_accepted: int  # corrupted frames a COBS + bare CRC-16 check alone would have accepted
    by_kind: dict[str, int]


def random_uid(rng: random.Random) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(rng.choice(codec.UID_LENGTHS)))


def random_hub_message(rng: random.Random, seq: int) -> codec.Message:
    """A valid hub -> host message; sequenced ones get `seq` so every message in a stream is unique."""
    pick = rng.random()
    us = rng.getrandbits(32)
    reader = rng.randrange(codec.MAX_READERS)
    if pick < 0.6:
        return codec.TagEvent(seq, rng.random() < 0.5, reader, us, random_uid(rng))
    if pick < 0.7:
        return codec.ReaderFault(seq, reader, us, rng.randrange(3))
    if pick < 0.8:
        bits = [rng.getrandbits(16) for _ in range(3)]
        return codec.Heartbeat(us, rng.getrandbits(32), rng.randrange(256), *bits)
    if pick < 0.9:
        uids = [random_uid(rng) for _ in range(rng.randrange(6))]
        return codec.Snapshot(reader, us, seq, rng.random() < 0.9, uids)
    if pick < 0.95:
        return codec.Pong(rng.getrandbits(32), us)
    return codec.Hello(codec.PROTOCOL_VERSION, rng.getrandbits(32), rng.randrange(1, 17), seq)


def random_host_message(rng: random.Random, seq: int) -> codec.Message:
    """A valid host -> hub message; every one in a stream differs by its seq or command id."""
    pick = rng.random()
    if pick < 0.5:
        return codec.Ack(seq, rng.getrandbits(32), rng.getrandbits(16))
    if pick < 0.6:
        return codec.Sync(codec.PROTOCOL_VERSION, seq)
    if pick < 0.7:
        return codec.RequestSnapshot(rng.choice((codec.ALL_READERS, rng.randrange(codec.MAX_READERS))), seq)
    if pick < 0.8:
        return codec.SetScanRate(rng.randrange(5, 1001), seq)
    if pick < 0.9:
        return codec.ConfigureReaders(rng.getrandbits(16), rng.randrange(1, 11), rng.randrange(1, 51), seq)
    return codec.Ping(rng.getrandbits(32), seq)


def corrupt(stream: bytes, rng: random.Random) -> tuple[bytes, str]:
    """Apply one corruption: bit flips, a truncation (tail or a middle slice) or inserted random bytes."""
    data = bytearray(stream)
    kind = rng.choice(("flip", "flip", "truncate", "cut", "insert", "mixed"))
    if kind in ("flip", "mixed"):
        for _ in range(rng.choice((1, 1, 1, 2, 3, 8))):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    if kind == "truncate":
        data = data[: rng.randrange(len(data))]
    if kind in ("cut", "mixed"):
        i = rng.randrange(len(data))
        del data[i : i + rng.randint(1, 12)]
    if kind in ("insert", "mixed"):
        i = rng.randrange(len(data) + 1)
        data[i:i] = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 24)))
    return bytes(data), kind


def _is_subsequence(got: list[codec.Message], sent: list[codec.Message]) -> int:
    """How many of `got` are not matched, in order, by `sent` (corrupted or reordered acceptances)."""
    bad = 0
    j = 0
    for msg in got:
        k = j
        while k < len(sent) and sent[k] != msg:
            k += 1
        if k == len(sent):
            bad += 1
        else:
            j = k + 1
    return bad


def _bare_crc_false_accepts(data: bytes, raws: set[bytes]) -> int:
    """Frames passing only COBS + CRC-16 (no magic, length, type or payload checks) that were never sent."""
    bad = 0
    for chunk in data.split(b"\x00"):
        raw = codec.cobs_decode(chunk) if chunk else None
        if raw is None or len(raw) < 3 or raw in raws:
            continue
        if codec.crc16(raw[:-2]) == (raw[-2] << 8) | raw[-1]:
            bad += 1
    return bad


def run(trials: int, seed: int = 1, pool_size: int = 2000, direction: int = codec.HUB_TO_HOST) -> FuzzResult:
    """`direction` picks which side's decoder is attacked (hub -> host frames by default)."""
    rng = random.Random(seed)
    make = random_hub_message if direction == codec.HUB_TO_HOST else random_host_message
    pool = []
    for _ in range(pool_size):
        msgs = [make(rng, s) for s in range(1, rng.randint(2, 6) + 1)]
        pool.append((msgs, b"".join(codec.encode(m) for m in msgs), {codec.encode_raw(m) for m in msgs}))
    sent = accepted = bad = raised = bare = 0
    by_kind: dict[str, int] = {}
    for _ in range(trials):
        msgs, stream, raws = pool[rng.randrange(pool_size)]
        data, kind = corrupt(stream, rng)
        by_kind[kind] = by_kind.get(kind, 0) + 1
        sent += len(msgs)
        dec = codec.Decoder(direction)
        try:
            cut = rng.randrange(len(data) + 1)  # two chunks: frames straddle feed() calls
            got = dec.feed(data[:cut]) + dec.feed(data[cut:])
        except Exception:
            raised += 1
            continue
        accepted += len(got)
        bad += _is_subsequence(got, msgs)
        bare += _bare_crc_false_accepts(data, raws)
    return FuzzResult(trials=trials, frames_sent=sent, frames_accepted=accepted, corrupted_accepted=bad,
                      decoder_raised=raised, bare_crc_accepted=bare, by_kind=by_kind)


if __name__ == "__main__":
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    t0 = time.perf_counter()
    print(run(n), f"{time.perf_counter() - t0:.1f} s")
