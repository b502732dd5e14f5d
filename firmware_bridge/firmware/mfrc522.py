"""MFRC522 driver over SPI for MicroPython: the five primitives the inventory loop needs.

version() reads VersionReg; wupa()/reqa() send the 7-bit short frames; select() runs the bit-oriented
anticollision loop through all cascade levels (4-, 7- and 10-byte uids) and selects one tag; hlta()
halts it. Register and command values follow the NXP MFRC522 data sheet (rev. 3.9, §9 and §10) and the
ISO/IEC 14443-3 commands. Not exercised by the CPython tests (they use fakes.FakeChip); compiled by
mpy-cross in the test suite. Many readers share one bus: each instance owns one chip-select pin.
"""

COMMAND, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
MODE, TX_CONTROL, TX_ASK = 0x11, 0x14, 0x15
CRC_H, CRC_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37

CMD_IDLE, CMD_CALC_CRC, CMD_TRANSCEIVE, CMD_SOFT_RESET = 0x00, 0x03, 0x0C, 0x0F
PICC_REQA, PICC_WUPA, PICC_HLTA = 0x26, 0x52, 0x50
PICC_SEL = (0x93, 0x95, 0x97)  # cascade levels 1-3
CASCADE_TAG = 0x88

OK, TIMEOUT, ERR, COLLISION = 0, 1, 2, 3
POLL_LIMIT = 2000  # register polls before giving up (the chip's own timer fires after 2 ms)


class MFRC522:
    """One reader: `spi` is a configured machine.SPI (mode 0, ≤ 10 MHz), `cs` a machine.Pin output."""

    def __init__(self, spi: object, cs: object) -> None:
        self.spi = spi
        self.cs = cs
        cs.init(cs.OUT, value=1)
        self.init()

    # -- registers --------------------------------------------------------------------------------

    def _wreg(self, reg: int, val: int) -> None:
        self.cs.value(0)
        self.spi.write(bytes(((reg << 1) & 0x7E, val & 0xFF)))
        self.cs.value(1)

    def _rreg(self, reg: int) -> int:
        self.cs.value(0)
        self.spi.write(bytes((0x80 | ((reg << 1) & 0x7E),)))
        val = self.spi.read(1)[0]
        self.cs.value(1)
        return val

    def _set(self, reg: int, mask: int) -> None:
        self._wreg(reg, self._rreg(reg) | mask)

    def _clear(self, reg: int, mask: int) -> None:
        self._wreg(reg, self._rreg(reg) & ~mask)

    def init(self) -> None:
        self._wreg(COMMAND, CMD_SOFT_RESET)
        for _ in range(POLL_LIMIT):
            if not self._rreg(COMMAND) & 0x10:  # PowerDown bit clears when the reset is done
                break
        self._wreg(T_MODE, 0x80)  # timer starts automatically after every transmission
        self._wreg(T_PRESCALER, 0xA9)  # 40 kHz timer tick
        # 80 ticks = 2 ms receive timeout. Tags answer within ~0.1 ms, but an empty field and HLTA
        # (which has no answer) always run into the timeout: the usual 25 ms would make one pass over
        # eight empty readers take 200 ms instead of 16 ms.
        self._wreg(T_RELOAD_H, 0x00)
        self._wreg(T_RELOAD_L, 0x50)
        self._wreg(TX_ASK, 0x40)  # 100 % ASK modulation
        self._wreg(MODE, 0x3D)  # CRC preset 0x6363 (ISO 14443-A)
        self._set(TX_CONTROL, 0x03)  # antenna on

    def version(self) -> int:
        """VersionReg: 0x91/0x92 for MFRC522, 0x88 FM17522; 0x00 or 0xFF when the chip does not answer."""
        return self._rreg(VERSION)

    # -- transceive -------------------------------------------------------------------------------

    def _transceive(self, data: bytes, tx_last_bits: int = 0, rx_align: int = 0) -> tuple[int, bytes, int]:
        self._wreg(COMMAND, CMD_IDLE)
        self._wreg(COM_IRQ, 0x7F)  # clear every interrupt request bit
        self._wreg(FIFO_LEVEL, 0x80)  # flush the FIFO
        for b in data:
            self._wreg(FIFO_DATA, b)
        self._wreg(BIT_FRAMING, (rx_align << 4) | tx_last_bits)
        self._wreg(COMMAND, CMD_TRANSCEIVE)
        self._set(BIT_FRAMING, 0x80)  # StartSend
        status = TIMEOUT
        for _ in range(POLL_LIMIT):
            irq = self._rreg(COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq: the exchange finished
                status = OK
                break
            if irq & 0x01:  # TimerIRq: no answer within 2 ms
                break
        self._clear(BIT_FRAMING, 0x80)
        if status != OK:
            return status, b"", 0
        err = self._rreg(ERROR)
        if err & 0x13:  # BufferOvfl, ParityErr, ProtocolErr
            return ERR, b"", 0
        n = self._rreg(FIFO_LEVEL)
        back = bytes(self._rreg(FIFO_DATA) for _ in range(n))
        valid_bits = self._rreg(CONTROL) & 0x07
        return (COLLISION if err & 0x08 else OK), back, valid_bits

    def _crc(self, data: bytes) -> bytes:
        self._wreg(COMMAND, CMD_IDLE)
        self._wreg(DIV_IRQ, 0x04)
        self._wreg(FIFO_LEVEL, 0x80)
        for b in data:
            self._wreg(FIFO_DATA, b)
        self._wreg(COMMAND, CMD_CALC_CRC)
        for _ in range(POLL_LIMIT):
            if self._rreg(DIV_IRQ) & 0x04:
                break
        self._wreg(COMMAND, CMD_IDLE)
        return bytes((self._rreg(CRC_L), self._rreg(CRC_H)))

    # -- ISO/IEC 14443-3 ------------------------------------------------------------------------

    def _short_frame(self, cmd: int) -> bool:
        self._clear(COLL, 0x80)  # ValuesAfterColl: bits received after a collision are cleared
        status, back, _bits = self._transceive(bytes((cmd,)), tx_last_bits=7)
        # Several tags answering ATQA collide harmlessly (their ATQAs are ORed): any answer counts.
        return status in (OK, COLLISION) and len(back) == 2

    def wupa(self) -> bool:
        """Wake every tag in the field, also halted ones."""
        return self._short_frame(PICC_WUPA)

    def reqa(self) -> bool:
        """Wake tags in IDLE state only (halted tags stay silent)."""
        return self._short_frame(PICC_REQA)

    def hlta(self) -> None:
        """Halt the selected tag; a halted tag answers WUPA but not REQA."""
        frame = bytes((PICC_HLTA, 0x00))
        self._transceive(frame + self._crc(frame))  # success is *no* answer (a timeout)

    def _cascade(self, level: int) -> tuple[bytes, int] | None:
        """Anticollision and SELECT at one cascade level: (4 uid-or-CT bytes, SAK) or None."""
        sel = PICC_SEL[level]
        buf = bytearray(9)
        buf[0] = sel
        known = 0  # uid bits of this level already fixed
        for _ in range(33):
            whole, part = known // 8, known % 8
            nvb = ((2 + whole) << 4) | part
            buf[1] = nvb
            status, back, _bits = self._transceive(bytes(buf[: 2 + whole + (1 if part else 0)]), part, part)
            if status not in (OK, COLLISION) or not back:
                return None
            for i, b in enumerate(back):  # merge the answer behind the bits we sent
                j = 2 + whole + i
                if j >= 7:
                    break
                if i == 0 and part:
                    mask = (0xFF << part) & 0xFF
                    b = (buf[j] & ~mask) | (b & mask)
                buf[j] = b
            if status == OK:
                break
            coll = self._rreg(COLL)
            if coll & 0x20:  # CollPosNotValid
                return None
            pos = coll & 0x1F or 32
            if pos <= known:
                return None
            known = pos
            bit = (known - 1) % 8
            buf[2 + (known - 1) // 8] |= 1 << bit  # take the branch with a 1 at the collision
        uid4 = bytes(buf[2:6])
        if buf[6] != uid4[0] ^ uid4[1] ^ uid4[2] ^ uid4[3]:
            return None  # BCC mismatch: a corrupted answer
        frame = bytes((sel, 0x70)) + uid4 + bytes((buf[6],))
        status, back, _bits = self._transceive(frame + self._crc(frame))
        if status != OK or len(back) != 3:
            return None
        return uid4, back[0]

    def select(self) -> bytes | None:
        """Select one READY tag (anticollision) and return its full uid; None if none answers cleanly."""
        uid = b""
        for level in range(3):
            got = self._cascade(level)
            if got is None:
                return None
            part, sak = got
            if sak & 0x04:  # uid not complete: the first byte is the cascade tag
                uid += part[1:]
                continue
            return uid + part
        return None
