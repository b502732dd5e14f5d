"""The reader hub's logic (PROTOCOL.md §6-8): scan readers, queue events, ack/retransmit, answer commands.

Sans-IO and hardware-free: bytes from the host go in through feed(), time goes in through poll(now_us),
frames for the host come out through the `write` callback. main.py drives it on the Pico; the emulator
and the tests drive it under CPython with FakeChip readers.
"""

try:
    from firmware_bridge import codec
    from firmware_bridge.firmware.scan import GOOD_VERSIONS, Presence, inventory
except ImportError:  # on the Pico every module sits at the top level of the filesystem
    import codec
    from scan import GOOD_VERSIONS, Presence, inventory

WINDOW = 16  # unacknowledged events in flight
QUEUE_CAP = 64  # unacknowledged events held; polling pauses before it would overflow
RTO_US = 50_000  # first retransmission timeout (USB round trips take 1-2 ms)
RTO_MAX_US = 800_000
FAST_RTX_US = 10_000  # at most one fast retransmission (on a duplicate ACK) per 10 ms
HEARTBEAT_US = 1_000_000
FAULT_CYCLES = 5  # failed VersionReg reads in a row before a reader is reported faulty
MAX_TAGS = 8


class HubCore:
    """One hub: `chips` are the readers in pin-map order; `write(bytes)` sends to the host."""

    def __init__(self, chips: list[object], boot_id: int, write: object, now_us: int,
                 scan_ms: int = 20, on_cycles: int = 1, off_cycles: int = 3) -> None:
        self.chips = chips
        self.boot_id = boot_id & 0xFFFFFFFF
        self._write = write
        self.decoder = codec.Decoder(codec.HOST_TO_HUB)
        self.scan_us = scan_ms * 1000
        self.on_cycles = on_cycles
        self.off_cycles = off_cycles
        self.enabled = (1 << len(chips)) - 1
        self.presence = [Presence(on_cycles, off_cycles) for _ in chips]
        self.fail_count = [0] * len(chips)
        self.faulty = [False] * len(chips)
        self.queue: list[codec.Message] = []  # unacknowledged sequenced events, oldest first
        self.n_sent = 0  # how many queue entries went out since the last go-back
        self.last_seq = 0  # 0 = no event yet at this boot
        self.rto = RTO_US
        self.rtx_at = -1  # retransmission deadline, -1 = disarmed
        self.fast_at = -FAST_RTX_US  # when the last fast retransmission happened
        self.sacked: set[int] = set()  # seqs the host holds out of order (its last selective ACK)
        self.next_scan = now_us
        self.next_heartbeat = now_us + HEARTBEAT_US
        self.cycles = 0
        self.pending_snapshots: list[int] = []
        self.retransmits = 0
        self.now = now_us
        self._out: list[bytes] = []
        self._send(codec.Hello(codec.PROTOCOL_VERSION, self.boot_id, len(chips), self._first_seq()))
        self._flush()

    # -- time and I/O ---------------------------------------------------------------------------

    def hub_us(self) -> int:
        return self.now & 0xFFFFFFFF

    def feed(self, data: bytes, now_us: int) -> None:
        """Bytes from the host."""
        self.now = now_us
        for msg in self.decoder.feed(data):
            self._on_command(msg)
        self._pump()
        self._flush()

    def poll(self, now_us: int) -> None:
        """Run whatever is due: a scan cycle, a retransmission, a heartbeat."""
        self.now = now_us
        if now_us >= self.next_scan:
            self.next_scan = max(self.next_scan + self.scan_us, now_us - self.scan_us)
            self._scan_cycle()
        if self.rtx_at >= 0 and now_us >= self.rtx_at:
            self._go_back()
            self.rto = min(self.rto * 2, RTO_MAX_US)
            self.rtx_at = now_us + self.rto
        if now_us >= self.next_heartbeat:
            self.next_heartbeat = now_us + HEARTBEAT_US
            self._send(self._heartbeat())
        self._pump()
        self._flush()

    def _send(self, msg: codec.Message) -> None:
        self._out.append(codec.encode(msg))

    def _flush(self) -> None:
        if self._out:
            # A leading delimiter ends any garbage on the line so it cannot merge with our first frame.
            self._write(b"\x00" + b"".join(self._out))
            self._out = []

    # -- events ---------------------------------------------------------------------------------

    def _first_seq(self) -> int:
        return self.queue[0].seq if self.queue else codec.seq_next(self.last_seq)

    def _take_seq(self) -> int:
        self.last_seq = codec.seq_next(self.last_seq)
        return self.last_seq

    def _pump(self) -> None:
        """Send queued events that fit in the window and have not been sent since the last go-back;
        events the host reported holding (selective ACK) are skipped."""
        limit = min(len(self.queue), WINDOW)
        if self.n_sent < limit:
            for msg in self.queue[self.n_sent:limit]:
                if msg.seq not in self.sacked:
                    self._send(msg)
            self.n_sent = limit
            if self.rtx_at < 0:
                self.rtx_at = self.now + self.rto

    def _go_back(self) -> None:
        """Timeout or resync: everything in flight goes out again. Selective-ACK knowledge is dropped
        too, since a timeout means our picture of the host may be stale (it may have restarted)."""
        self.retransmits += self.n_sent
        self.sacked = set()
        self.n_sent = 0
        if not self.queue:
            self.rtx_at = -1

    def _on_ack(self, msg: codec.Ack) -> None:
        if msg.boot_id != self.boot_id:
            # The host still believes in an earlier boot: tell it who we are instead of trusting the seq.
            self._send(codec.Hello(codec.PROTOCOL_VERSION, self.boot_id, len(self.chips), self._first_seq()))
            return
        advanced = False
        for k in range(min(len(self.queue), WINDOW)):  # only events that went out can be acknowledged
            if self.queue[k].seq == msg.seq:
                del self.queue[: k + 1]
                self.n_sent = max(0, self.n_sent - (k + 1))
                self.rto = RTO_US
                self.rtx_at = self.now + self.rto if self.n_sent else -1
                advanced = True
                break
        missing = self.queue and self.n_sent and codec.seq_next(msg.seq) == self.queue[0].seq
        if not missing or (advanced and not msg.sack):
            self.sacked = set()  # plain progress: whatever follows is simply still in flight
            return
        # The host holds everything up to msg.seq, and queue[0] is missing there: either a duplicate
        # ACK (it received a later frame across the hole) or a selective ACK naming what it holds.
        # Resend just the holes now instead of waiting for the timeout.
        self.sacked = set()
        for i in range(WINDOW):
            if msg.sack & (1 << i):
                self.sacked.add(codec.seq_add(msg.seq, i + 2))
        if self.now - self.fast_at < FAST_RTX_US:
            return
        self.fast_at = self.now
        top = 1  # how far past msg.seq to resend: up to the highest event the host holds
        for q in self.sacked:
            top = max(top, codec.seq_diff(q, msg.seq))
        for m in self.queue[: self.n_sent]:
            if codec.seq_diff(m.seq, msg.seq) > top:
                break
            if m.seq not in self.sacked:
                self._send(m)
                self.retransmits += 1

    # -- scanning -------------------------------------------------------------------------------

    def _scan_cycle(self) -> None:
        for r in range(len(self.chips)):
            if not self.enabled & (1 << r):
                continue
            if len(self.queue) + 2 * MAX_TAGS + 1 > QUEUE_CAP:
                return  # no room for this reader's worst case: poll it next cycle instead of losing events
            self._scan_reader(r)
        self.cycles += 1
        if self.pending_snapshots and self.cycles >= self.on_cycles:
            for r in self.pending_snapshots:
                self._send_snapshot(r)
            self.pending_snapshots = []

    def _scan_reader(self, r: int) -> None:
        chip = self.chips[r]
        if chip.version() not in GOOD_VERSIONS:
            self.fail_count[r] += 1
            if self.fail_count[r] >= FAULT_CYCLES and not self.faulty[r]:
                self.faulty[r] = True
                code = codec.FAULT_NO_RESPONSE
                self.queue.append(codec.ReaderFault(self._take_seq(), r, self.hub_us(), code))
            return  # keep the tag set as it was: a dead reader cannot tell us a card left
        self.fail_count[r] = 0
        if self.faulty[r]:
            self.faulty[r] = False
            self.queue.append(codec.ReaderFault(self._take_seq(), r, self.hub_us(), codec.FAULT_RECOVERED))
        for present, uid in self.presence[r].update(inventory(chip, MAX_TAGS)):
            self.queue.append(codec.TagEvent(self._take_seq(), present, r, self.hub_us(), uid))

    def readers_ok(self) -> int:
        bits = 0
        for r in range(len(self.chips)):
            if not self.faulty[r] and self.enabled & (1 << r):
                bits |= 1 << r
        return bits

    def _heartbeat(self) -> codec.Message:
        return codec.Heartbeat(self.hub_us(), self.boot_id, min(len(self.queue), 255),
                               self.retransmits & 0xFFFF, self.readers_ok(), self.enabled)

    def _send_snapshot(self, r: int) -> None:
        uids = self.presence[r].uids()
        self._send(codec.Snapshot(r, self.hub_us(), self.last_seq, not self.faulty[r], uids))

    # -- host commands --------------------------------------------------------------------------

    def _on_command(self, msg: codec.Message) -> None:
        if isinstance(msg, codec.Ack):
            self._on_ack(msg)
        elif isinstance(msg, codec.Sync):
            self._send(codec.Hello(codec.PROTOCOL_VERSION, self.boot_id, len(self.chips), self._first_seq()))
            self._go_back()  # the host may have missed anything in flight: resend the window now
        elif isinstance(msg, codec.RequestSnapshot):
            wanted = list(range(len(self.chips))) if msg.reader == codec.ALL_READERS else [msg.reader]
            wanted = [r for r in wanted if r < len(self.chips)]
            if self.cycles >= self.on_cycles:
                for r in wanted:
                    self._send_snapshot(r)
            else:  # right after boot: answer once the first scans have filled the presence sets
                self.pending_snapshots = sorted(set(self.pending_snapshots + wanted))
        elif isinstance(msg, codec.Ping):
            self._send(codec.Pong(msg.token, self.hub_us()))
        elif isinstance(msg, codec.SetScanRate):
            ok = 5 <= msg.period_ms <= 1000
            if ok:
                self.scan_us = msg.period_ms * 1000
            self._result(msg, ok)
        elif isinstance(msg, codec.ConfigureReaders):
            self._configure(msg)

    def _configure(self, msg: codec.ConfigureReaders) -> None:
        ok = 1 <= msg.on_cycles <= 10 and 1 <= msg.off_cycles <= 50 and msg.enabled < (1 << len(self.chips))
        if ok:
            self.enabled = msg.enabled
            self.on_cycles = msg.on_cycles
            self.off_cycles = msg.off_cycles
            for p in self.presence:
                p.on_cycles = msg.on_cycles
                p.off_cycles = msg.off_cycles
        self._result(msg, ok)

    def _result(self, msg: codec.Message, ok: bool) -> None:
        if msg.seq:
            self._send(codec.Result(msg.seq, msg.kind, codec.STATUS_OK if ok else codec.STATUS_BAD_ARGUMENT))

    def statistics(self) -> dict[str, int]:
        return {
            "boot_id": self.boot_id, "last_seq": self.last_seq, "unacked": len(self.queue),
            "retransmits": self.retransmits, "frames_good": self.decoder.frames_good,
            "frames_bad": self.decoder.frames_bad, "cycles": self.cycles,
        }
