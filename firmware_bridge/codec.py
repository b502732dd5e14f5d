"""Sans-IO wire codec of the reader-hub link (PROTOCOL.md): COBS framing, CRC-16/CCITT-FALSE, messages.

Runs unchanged on CPython and MicroPython: no dataclasses, no runtime typing imports, no
``from __future__``; annotations are never evaluated by MicroPython and are plain builtins on CPython.
"""

PROTOCOL_VERSION = 1
MAGIC = 0xCA  # first byte of every raw frame; a cheap structural check before the CRC
HEADER_LEN = 5  # magic, type, seq (u16 BE), payload length
CRC_LEN = 2
MAX_PAYLOAD = 240
MAX_RAW = HEADER_LEN + MAX_PAYLOAD + CRC_LEN
MAX_ENCODED = MAX_RAW + 2  # COBS adds one code byte per 254 data bytes; raw frames stay below 254
UID_LENGTHS = (4, 7, 10)  # ISO/IEC 14443-3 single, double and triple size uids
MAX_READERS = 16
ALL_READERS = 0xFF

# Hub -> host message types (0x01-0x3F); the host -> hub range is 0x41-0x7F.
T_HELLO = 0x01
T_TAG_PRESENT = 0x02
T_TAG_REMOVED = 0x03
T_READER_FAULT = 0x04
T_HEARTBEAT = 0x05
T_SNAPSHOT = 0x06
T_PONG = 0x07
T_RESULT = 0x08
T_SYNC = 0x41
T_ACK = 0x42
T_REQUEST_SNAPSHOT = 0x43
T_SET_SCAN_RATE = 0x44
T_CONFIGURE_READERS = 0x45
T_PING = 0x46

HUB_TO_HOST = 0
HOST_TO_HUB = 1

# Reader fault codes carried by ReaderFault.
FAULT_RECOVERED = 0
FAULT_NO_RESPONSE = 1
FAULT_BAD_VERSION = 2

# Result status codes.
STATUS_OK = 0
STATUS_BAD_ARGUMENT = 1
STATUS_UNSUPPORTED = 2


def _make_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _make_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, xorout 0; check('123456789') = 0x29B1."""
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ b]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent-overhead byte stuffing: the result holds no 0x00 byte (encode() appends the delimiter)."""
    out = bytearray()
    block = bytearray()
    full = False  # the last block emitted was a full 0xFF block with no zero after it
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
            full = False
        else:
            block.append(b)
            full = False
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
                full = True
    if block or not full:
        out.append(len(block) + 1)
        out.extend(block)
    return bytes(out)


def cobs_decode(data: bytes) -> bytes | None:
    """Inverse of cobs_encode; None when the code bytes do not describe `data` exactly or it holds a 0x00."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            return None
        block = data[i + 1 : i + code]
        if block.find(b"\x00") >= 0:
            return None
        out.extend(block)
        i += code
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def _u16(v: int) -> bytes:
    return bytes(((v >> 8) & 0xFF, v & 0xFF))


def _u32(v: int) -> bytes:
    return bytes(((v >> 24) & 0xFF, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF))


def _get16(b: bytes, i: int) -> int:
    return (b[i] << 8) | b[i + 1]


def _get32(b: bytes, i: int) -> int:
    return (b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]


def _valid_uid(uid: bytes) -> bool:
    return len(uid) in UID_LENGTHS


class Message:
    """Base of all messages: `kind` is the type byte, `seq` the header sequence number (u16)."""

    kind = 0
    sequenced = False  # hub events carrying a nonzero seq that must be acknowledged
    seq = 0

    def payload(self) -> bytes:
        return b""

    def fields(self) -> tuple[object, ...]:
        return ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return False
        return self.kind == other.kind and self.seq == other.seq and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash((self.kind, self.seq, self.fields()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seq={self.seq}, {self.fields()!r})"


class Hello(Message):
    """Hub -> host: sent at boot and in answer to Sync. `first_seq` is the oldest unacknowledged event seq."""

    kind = T_HELLO

    def __init__(self, version: int, boot_id: int, n_readers: int, first_seq: int) -> None:
        self.version = version
        self.boot_id = boot_id
        self.n_readers = n_readers
        self.first_seq = first_seq

    def payload(self) -> bytes:
        return bytes((self.version,)) + _u32(self.boot_id) + bytes((self.n_readers,)) + _u16(self.first_seq)

    def fields(self) -> tuple[object, ...]:
        return (self.version, self.boot_id, self.n_readers, self.first_seq)


class TagEvent(Message):
    """Hub -> host, sequenced: a tag arrived at (present=True) or left (False) reader `reader`."""

    sequenced = True

    def __init__(self, seq: int, present: bool, reader: int, hub_us: int, uid: bytes) -> None:
        self.seq = seq
        self.present = present
        self.kind = T_TAG_PRESENT if present else T_TAG_REMOVED
        self.reader = reader
        self.hub_us = hub_us
        self.uid = bytes(uid)

    def payload(self) -> bytes:
        return bytes((self.reader,)) + _u32(self.hub_us) + bytes((len(self.uid),)) + self.uid

    def fields(self) -> tuple[object, ...]:
        return (self.present, self.reader, self.hub_us, self.uid)


class ReaderFault(Message):
    """Hub -> host, sequenced: reader `reader` stopped answering (code 1) or recovered (code 0)."""

    kind = T_READER_FAULT
    sequenced = True

    def __init__(self, seq: int, reader: int, hub_us: int, code: int) -> None:
        self.seq = seq
        self.reader = reader
        self.hub_us = hub_us
        self.code = code

    def payload(self) -> bytes:
        return bytes((self.reader,)) + _u32(self.hub_us) + bytes((self.code,))

    def fields(self) -> tuple[object, ...]:
        return (self.reader, self.hub_us, self.code)


class Heartbeat(Message):
    """Hub -> host, every second: hub clock, boot id, unacked queue length, retransmissions, reader health."""

    kind = T_HEARTBEAT

    def __init__(
        self, hub_us: int, boot_id: int, unacked: int, retransmits: int, readers_ok: int, readers_enabled: int
    ) -> None:
        self.hub_us = hub_us
        self.boot_id = boot_id
        self.unacked = unacked
        self.retransmits = retransmits
        self.readers_ok = readers_ok
        self.readers_enabled = readers_enabled

    def payload(self) -> bytes:
        return (
            _u32(self.hub_us) + _u32(self.boot_id) + bytes((self.unacked,)) + _u16(self.retransmits)
            + _u16(self.readers_ok) + _u16(self.readers_enabled)
        )

    def fields(self) -> tuple[object, ...]:
        return (
            self.hub_us, self.boot_id, self.unacked, self.retransmits, self.readers_ok, self.readers_enabled
        )


class Snapshot(Message):
    """Hub -> host: the tags on one reader after every event up to and including `as_of_seq`."""

    kind = T_SNAPSHOT

    def __init__(self, reader: int, hub_us: int, as_of_seq: int, ok: bool, uids: list[bytes]) -> None:
        self.reader = reader
        self.hub_us = hub_us
        self.as_of_seq = as_of_seq
        self.ok = ok
        self.uids = [bytes(u) for u in uids]

    def payload(self) -> bytes:
        head = bytes((self.reader,)) + _u32(self.hub_us) + _u16(self.as_of_seq)
        body = bytearray(head)
        body.append(1 if self.ok else 0)
        body.append(len(self.uids))
        for uid in self.uids:
            body.append(len(uid))
            body.extend(uid)
        return bytes(body)

    def fields(self) -> tuple[object, ...]:
        return (self.reader, self.hub_us, self.as_of_seq, self.ok, tuple(self.uids))


class Pong(Message):
    """Hub -> host: answer to Ping with the same token (round-trip time)."""

    kind = T_PONG

    def __init__(self, token: int, hub_us: int) -> None:
        self.token = token
        self.hub_us = hub_us

    def payload(self) -> bytes:
        return _u32(self.token) + _u32(self.hub_us)

    def fields(self) -> tuple[object, ...]:
        return (self.token, self.hub_us)


class Result(Message):
    """Hub -> host: outcome of the host command whose header seq is `seq`."""

    kind = T_RESULT

    def __init__(self, seq: int, command: int, status: int) -> None:
        self.seq = seq
        self.command = command
        self.status = status

    def payload(self) -> bytes:
        return bytes((self.command, self.status))

    def fields(self) -> tuple[object, ...]:
        return (self.command, self.status)


class Sync(Message):
    """Host -> hub: start of the handshake; the hub answers Hello."""

    kind = T_SYNC

    def __init__(self, version: int, seq: int = 0) -> None:
        self.version = version
        self.seq = seq

    def payload(self) -> bytes:
        return bytes((self.version,))

    def fields(self) -> tuple[object, ...]:
        return (self.version,)


class Ack(Message):
    """Host -> hub: every event of boot `boot_id` up to and including `seq` arrived (cumulative; 0 = none).

    `sack` bit i says the event `seq + 2 + i` also arrived, out of order (selective acknowledgement):
    the hub then resends only the holes.
    """

    kind = T_ACK

    def __init__(self, seq: int, boot_id: int, sack: int = 0) -> None:
        self.seq = seq
        self.boot_id = boot_id
        self.sack = sack

    def payload(self) -> bytes:
        return _u32(self.boot_id) + _u16(self.sack)

    def fields(self) -> tuple[object, ...]:
        return (self.boot_id, self.sack)


class RequestSnapshot(Message):
    """Host -> hub: send a Snapshot for `reader` (ALL_READERS = every reader)."""

    kind = T_REQUEST_SNAPSHOT

    def __init__(self, reader: int, seq: int = 0) -> None:
        self.reader = reader
        self.seq = seq

    def payload(self) -> bytes:
        return bytes((self.reader,))

    def fields(self) -> tuple[object, ...]:
        return (self.reader,)


class SetScanRate(Message):
    """Host -> hub: poll every reader once per `period_ms` milliseconds."""

    kind = T_SET_SCAN_RATE

    def __init__(self, period_ms: int, seq: int = 0) -> None:
        self.period_ms = period_ms
        self.seq = seq

    def payload(self) -> bytes:
        return _u16(self.period_ms)

    def fields(self) -> tuple[object, ...]:
        return (self.period_ms,)


class ConfigureReaders(Message):
    """Host -> hub: which readers to poll (bitmap) and the presence/removal hysteresis in scan cycles."""

    kind = T_CONFIGURE_READERS

    def __init__(self, enabled: int, on_cycles: int, off_cycles: int, seq: int = 0) -> None:
        self.enabled = enabled
        self.on_cycles = on_cycles
        self.off_cycles = off_cycles
        self.seq = seq

    def payload(self) -> bytes:
        return _u16(self.enabled) + bytes((self.on_cycles, self.off_cycles))

    def fields(self) -> tuple[object, ...]:
        return (self.enabled, self.on_cycles, self.off_cycles)


class Ping(Message):
    """Host -> hub: liveness and round-trip probe."""

    kind = T_PING

    def __init__(self, token: int, seq: int = 0) -> None:
        self.token = token
        self.seq = seq

    def payload(self) -> bytes:
        return _u32(self.token)

    def fields(self) -> tuple[object, ...]:
        return (self.token,)


def _parse_tag(kind: int, seq: int, p: bytes) -> Message | None:
    if len(p) < 6 or seq == 0 or p[0] >= MAX_READERS:
        return None
    n = p[5]
    if len(p) != 6 + n or not _valid_uid(p[6:]):
        return None
    return TagEvent(seq, kind == T_TAG_PRESENT, p[0], _get32(p, 1), p[6:])


def _parse_snapshot(seq: int, p: bytes) -> Message | None:
    if len(p) < 9 or seq != 0 or p[0] >= MAX_READERS or p[7] > 1:
        return None
    uids = []
    i = 9
    for _ in range(p[8]):
        if i >= len(p):
            return None
        n = p[i]
        uid = p[i + 1 : i + 1 + n]
        if len(uid) != n or not _valid_uid(uid):
            return None
        uids.append(uid)
        i += 1 + n
    if i != len(p):
        return None
    return Snapshot(p[0], _get32(p, 1), _get16(p, 5), p[7] == 1, uids)


def _parse_hub(kind: int, seq: int, p: bytes) -> Message | None:
    n = len(p)
    if kind in (T_TAG_PRESENT, T_TAG_REMOVED):
        return _parse_tag(kind, seq, p)
    if kind == T_SNAPSHOT:
        return _parse_snapshot(seq, p)
    if kind == T_HELLO and n == 8 and seq == 0 and 0 < p[5] <= MAX_READERS:
        return Hello(p[0], _get32(p, 1), p[5], _get16(p, 6))
    if kind == T_READER_FAULT and n == 6 and seq != 0 and p[0] < MAX_READERS and p[5] <= FAULT_BAD_VERSION:
        return ReaderFault(seq, p[0], _get32(p, 1), p[5])
    if kind == T_HEARTBEAT and n == 15 and seq == 0:
        return Heartbeat(_get32(p, 0), _get32(p, 4), p[8], _get16(p, 9), _get16(p, 11), _get16(p, 13))
    if kind == T_PONG and n == 8 and seq == 0:
        return Pong(_get32(p, 0), _get32(p, 4))
    if kind == T_RESULT and n == 2 and p[0] >= T_SYNC and p[1] <= STATUS_UNSUPPORTED:
        return Result(seq, p[0], p[1])
    return None


def _parse_host(kind: int, seq: int, p: bytes) -> Message | None:
    n = len(p)
    if kind == T_ACK and n == 6:
        return Ack(seq, _get32(p, 0), _get16(p, 4))
    if kind == T_SYNC and n == 1:
        return Sync(p[0], seq)
    if kind == T_REQUEST_SNAPSHOT and n == 1 and (p[0] < MAX_READERS or p[0] == ALL_READERS):
        return RequestSnapshot(p[0], seq)
    if kind == T_SET_SCAN_RATE and n == 2:
        return SetScanRate(_get16(p, 0), seq)
    if kind == T_CONFIGURE_READERS and n == 4:
        return ConfigureReaders(_get16(p, 0), p[2], p[3], seq)
    if kind == T_PING and n == 4:
        return Ping(_get32(p, 0), seq)
    return None


def encode_raw(msg: Message) -> bytes:
    """The unstuffed frame: header, payload and CRC (exposed for tests and the specification vectors)."""
    payload = msg.payload()
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    head = bytes((MAGIC, msg.kind)) + _u16(msg.seq & 0xFFFF) + bytes((len(payload),))
    body = head + payload
    return body + _u16(crc16(body))


def encode(msg: Message) -> bytes:
    """One frame on the wire: COBS(raw frame) followed by the 0x00 delimiter."""
    return cobs_encode(encode_raw(msg)) + b"\x00"


def parse_raw(raw: bytes, direction: int) -> Message | None:
    """Validate an unstuffed frame (magic, length, CRC, type, payload shape); None if any check fails."""
    if len(raw) < HEADER_LEN + CRC_LEN or raw[0] != MAGIC:
        return None
    n = raw[4]
    if n > MAX_PAYLOAD or len(raw) != HEADER_LEN + n + CRC_LEN:
        return None
    if crc16(raw[: HEADER_LEN + n]) != _get16(raw, HEADER_LEN + n):
        return None
    kind = raw[1]
    seq = _get16(raw, 2)
    payload = bytes(raw[HEADER_LEN : HEADER_LEN + n])
    if direction == HUB_TO_HOST:
        return _parse_hub(kind, seq, payload)
    return _parse_host(kind, seq, payload)


class Decoder:
    """Bytes in, messages out. Never raises on any input; bad frames are counted and skipped.

    `direction` is the direction of the frames this decoder accepts (HUB_TO_HOST on the host).
    """

    def __init__(self, direction: int) -> None:
        self.direction = direction
        self._buf = bytearray()
        self._overflow = False
        self.frames_good = 0
        self.frames_bad = 0
        self.bytes_dropped = 0

    def reset(self) -> None:
        """Forget a partial frame (after a reconnect); counters are kept."""
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[Message]:
        out: list[Message] = []
        start = 0
        while True:
            end = data.find(b"\x00", start)
            if end < 0:
                self._append(data[start:])
                return out
            self._append(data[start:end])
            msg = self._finish()
            if msg is not None:
                out.append(msg)
            start = end + 1

    def _append(self, chunk: bytes) -> None:
        if self._overflow:
            self.bytes_dropped += len(chunk)
            return
        self._buf.extend(chunk)
        if len(self._buf) > MAX_ENCODED:
            # Longer than any valid frame: garbage or a lost delimiter; skip to the next 0x00.
            self.bytes_dropped += len(self._buf)
            self._buf = bytearray()
            self._overflow = True

    def _finish(self) -> Message | None:
        if self._overflow:
            self._overflow = False
            self.frames_bad += 1
            return None
        if not self._buf:
            return None  # back-to-back delimiters are idle fill, not an error
        raw = cobs_decode(bytes(self._buf))
        self._buf = bytearray()
        msg = None if raw is None else parse_raw(raw, self.direction)
        if msg is None:
            self.frames_bad += 1
        else:
            self.frames_good += 1
        return msg


def seq_next(seq: int) -> int:
    """The sequence number after `seq`: 1..65535 then wraps to 1 (0 means 'unsequenced')."""
    return 1 if seq >= 0xFFFF else seq + 1


def seq_add(seq: int, n: int) -> int:
    """`seq` advanced by n >= 0 steps on the 1..65535 circle (from 0, the first step lands on 1)."""
    if seq == 0:
        if n == 0:
            return 0
        seq, n = 1, n - 1
    return (seq - 1 + n) % 0xFFFF + 1


def seq_diff(a: int, b: int) -> int:
    """Signed distance a - b on the 1..65535 sequence circle, in (-32768, 32767]."""
    d = (a - b) % 0xFFFF
    return d - 0xFFFF if d > 0x7FFF else d
