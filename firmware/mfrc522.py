"""MFRC522 reader for ISO 14443A cards: one or two cards on a hole-card pad or board spot.

Bus and chip layer (register access over SPI with injected CS/RST pins, a preallocated
FIFO buffer, an IRQ wait with a deadline) and the ISO 14443A layer (WUPA/REQA,
bit-oriented anticollision over cascade levels 1-3 for 4-, 7- and 10-byte UIDs, SELECT,
HLTA)::

    rfid = Mfrc522(spi, cs=Pin(5, Pin.OUT), rst=Pin(22, Pin.OUT), clock=SystemClock())
    rfid.init()
    uids = rfid.scan()          # every card on the pad (two hole cards are normal)

Datasheet (MFRC522 Rev 3.9) points the wave-1 driver missed: after RST or SoftReset the
oscillator starts first (§8.8.2) and writes before that are lost, so init() waits for
CommandReg.PowerDown to clear; the receive timer exists only once TModeReg/TReload are
written; a card needs time after the field reaches it (ISO/IEC 14443-3 allows 5 ms), so
every scan starts with a 5 ms guard (the antenna mux may just have switched pads).
Two cards: WUPA wakes all, anticollision picks one bit by bit, HLTA parks it. A card that
loses anticollision after WUPA drops back to HALT (ISO/IEC 14443-3 state diagram), so
each next card is found with WUPA again, steering every collision away from the cards
already read; a scan ends when the pad is silent or only known cards answer.
"""

from micropython import const

from clock import ticks_add, ticks_diff
from reader_errors import ReaderError, ReaderProtocolError, ReaderTimeout

try:
    from collections.abc import Generator
    from typing import Any
except ImportError:
    pass

_DEBUG = const(False)

# Registers (datasheet §9.2).
_REG_COMMAND = const(0x01)
_REG_COM_IRQ = const(0x04)
_REG_ERROR = const(0x06)
_REG_FIFO_DATA = const(0x09)
_REG_FIFO_LEVEL = const(0x0A)
_REG_BIT_FRAMING = const(0x0D)
_REG_COLL = const(0x0E)
_REG_MODE = const(0x11)
_REG_TX_CONTROL = const(0x14)
_REG_TX_ASK = const(0x15)
_REG_T_MODE = const(0x2A)
_REG_T_PRESCALER = const(0x2B)
_REG_T_RELOAD_H = const(0x2C)
_REG_T_RELOAD_L = const(0x2D)
REG_VERSION = const(0x37)

# Commands.
_PCD_IDLE = const(0x00)
_PCD_TRANSCEIVE = const(0x0C)
_PCD_SOFT_RESET = const(0x0F)
_POWER_DOWN = const(0x10)

# Bits.
_IRQ_TIMER = const(0x01)
_IRQ_IDLE = const(0x10)
_IRQ_RX = const(0x20)
_IRQ_CLEAR_ALL = const(0x7F)
_ERR_COLLISION = const(0x08)
_ERR_FATAL = const(0x13)  # buffer overflow | parity | protocol
_COLL_POS_NOT_VALID = const(0x20)
_FIFO_FLUSH = const(0x80)
_START_SEND = const(0x80)
_TX_ANTENNA_ON = const(0x03)
_TX_ASK_100 = const(0x40)
_T_MODE_AUTO = const(0x80)
_T_PRESCALER = const(0xA9)  # 13.56 MHz / (2*0xA9+1) ~ 40 kHz timer: 25 us ticks
_T_RELOAD = const(200)  # 201 ticks ~ 5 ms card response timeout
_MODE_CRC_6363 = const(0x3D)

# ISO 14443A.
_PICC_WUPA = const(0x52)
_PICC_HLTA = const(0x50)
_SEL = (0x93, 0x95, 0x97)  # cascade levels 1-3
_NVB_SELECT = const(0x70)
_CASCADE_TAG = const(0x88)
_SAK_UID_INCOMPLETE = const(0x04)

_FIFO_LEN = const(64)
_DEFAULT_TIMEOUT_MS = const(50)
_OSC_TIMEOUT_MS = const(50)
GUARD_US = const(5000)  # ISO/IEC 14443-3: a PICC may need 5 ms of field before a command
MAX_CARDS = const(5)  # a pad holds two hole cards; 3-5 (a dealing error) are still all read


class ReaderCollision(ReaderError):
    """Anticollision could not separate the cards (kept for callers of wave 1)."""


def crc_a(data: bytes | bytearray | memoryview, n: int) -> int:
    """ISO 14443A CRC_A (init 0x6363, reflected poly 0x8408) of data[:n]."""
    crc = 0x6363
    for i in range(n):
        b = (data[i] ^ (crc & 0xFF)) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


class Mfrc522:
    def __init__(
        self, spi: Any, cs: Any, rst: Any, clock: Any, timeout_ms: int = _DEFAULT_TIMEOUT_MS
    ) -> None:
        self._spi = spi
        self._cs = cs
        self._rst = rst
        self._clock = clock
        self.timeout_ms = timeout_ms
        self._reg = memoryview(bytearray(2))  # address, value
        self._reg_rx = memoryview(bytearray(2))
        self._fifo = memoryview(bytearray(_FIFO_LEN))  # frames out and in; next call overwrites
        self._deadline_ms = 0
        self.coll_pos = -1  # first collided bit of the last answer (0-based), -1 if none
        self.selected_cl = b""
        self._cs.value(1)
        self._rst.value(1)

    # ---------------------------------------------------------------- bus / chip

    def _write_reg(self, reg: int, value: int) -> None:
        self._reg[0] = (reg << 1) & 0x7E
        self._reg[1] = value
        self._cs.value(0)
        self._spi.write(self._reg)
        self._cs.value(1)

    def _read_reg(self, reg: int) -> int:
        self._reg[0] = 0x80 | ((reg << 1) & 0x7E)
        self._reg[1] = 0
        self._cs.value(0)
        self._spi.write_readinto(self._reg, self._reg_rx)
        self._cs.value(1)
        return int(self._reg_rx[1])

    def _set_bits(self, reg: int, mask: int) -> None:
        self._write_reg(reg, self._read_reg(reg) | mask)

    def _wait_oscillator(self) -> None:
        """§8.8.2: after a reset the oscillator starts before any register works."""
        clock = self._clock
        deadline = ticks_add(clock.ticks_ms(), _OSC_TIMEOUT_MS)
        while True:
            clock.sleep_us(1000)
            if not self._read_reg(_REG_COMMAND) & _POWER_DOWN:
                return
            if ticks_diff(deadline, clock.ticks_ms()) <= 0:
                raise ReaderTimeout("MFRC522 oscillator not running %d ms after reset"
                                    % _OSC_TIMEOUT_MS)

    def init(self) -> None:
        """Hard reset, soft reset (each waiting for the oscillator), timer, ASK, antenna on."""
        self._rst.value(0)
        self._clock.sleep_us(10)  # datasheet: reset pulse >= 100 ns
        self._rst.value(1)
        self._wait_oscillator()
        self._write_reg(_REG_COMMAND, _PCD_SOFT_RESET)
        self._wait_oscillator()
        self._write_reg(_REG_T_MODE, _T_MODE_AUTO)
        self._write_reg(_REG_T_PRESCALER, _T_PRESCALER)
        self._write_reg(_REG_T_RELOAD_H, _T_RELOAD >> 8)
        self._write_reg(_REG_T_RELOAD_L, _T_RELOAD & 0xFF)
        self._write_reg(_REG_TX_ASK, _TX_ASK_100)
        self._write_reg(_REG_MODE, _MODE_CRC_6363)
        self._set_bits(_REG_TX_CONTROL, _TX_ANTENNA_ON)
        if self._read_reg(_REG_T_RELOAD_L) != _T_RELOAD & 0xFF:
            raise ReaderError("MFRC522 lost its register writes (not answering on SPI?)")

    def version(self) -> int:
        return self._read_reg(REG_VERSION)

    def start_transceive(self, n: int, tx_last_bits: int = 0, rx_align: int = 0) -> None:
        """Send _fifo[:n] (the last byte only tx_last_bits long if non-zero)."""
        self._write_reg(_REG_COMMAND, _PCD_IDLE)
        self._write_reg(_REG_COM_IRQ, _IRQ_CLEAR_ALL)
        self._write_reg(_REG_FIFO_LEVEL, _FIFO_FLUSH)
        for i in range(n):
            self._write_reg(_REG_FIFO_DATA, self._fifo[i])
        framing = ((rx_align & 0x07) << 4) | (tx_last_bits & 0x07)
        self._write_reg(_REG_BIT_FRAMING, framing)
        self._write_reg(_REG_COMMAND, _PCD_TRANSCEIVE)
        self._write_reg(_REG_BIT_FRAMING, framing | _START_SEND)
        self._deadline_ms = ticks_add(self._clock.ticks_ms(), self.timeout_ms)

    def poll_transceive(self) -> int:
        """-1 while waiting, 0 if no card answered, else bytes received into _fifo.

        A collision is not an error here: `coll_pos` tells anticollision where it is.
        """
        irq = self._read_reg(_REG_COM_IRQ)
        if irq & (_IRQ_RX | _IRQ_IDLE):
            err = self._read_reg(_REG_ERROR)
            self.coll_pos = -1
            if err & _ERR_COLLISION:
                coll = self._read_reg(_REG_COLL)
                if not coll & _COLL_POS_NOT_VALID:
                    pos = coll & 0x1F
                    self.coll_pos = (pos if pos else 32) - 1
            elif err & _ERR_FATAL:
                raise ReaderProtocolError("MFRC522 error register 0x%02x" % err)
            n = min(self._read_reg(_REG_FIFO_LEVEL), _FIFO_LEN)
            for i in range(n):
                self._fifo[i] = self._read_reg(_REG_FIFO_DATA)
            return n
        if irq & _IRQ_TIMER:
            return 0
        if ticks_diff(self._deadline_ms, self._clock.ticks_ms()) <= 0:
            raise ReaderTimeout("MFRC522 no IRQ after %d ms" % self.timeout_ms)
        return -1

    def _xfer(
        self, n: int, tx_last_bits: int = 0, rx_align: int = 0
    ) -> "Generator[int, None, int]":
        self.start_transceive(n, tx_last_bits, rx_align)
        while True:
            got = self.poll_transceive()
            if got >= 0:
                return got
            yield 0

    def transceive(self, n: int, tx_last_bits: int = 0) -> int:
        """Blocking exchange; returns the received byte count (0 = silence)."""
        job = self._xfer(n, tx_last_bits)
        while True:
            try:
                next(job)
            except StopIteration as done:
                return int(done.value)

    # ---------------------------------------------------------------- ISO 14443A

    def _append_crc(self, n: int) -> int:
        crc = crc_a(self._fifo, n)
        self._fifo[n] = crc & 0xFF
        self._fifo[n + 1] = crc >> 8
        return n + 2

    @staticmethod
    def _node(level: int, ctx: bytes, known: bytearray, c: int, bit: int) -> tuple:
        """The collision-tree branch: bit `bit` at CLn position c after this prefix."""
        prefix = 0
        for i in range(c):
            prefix |= ((known[i // 8] >> (i % 8)) & 1) << i
        return (level, ctx, c, prefix | (bit << c))

    def _cascade(
        self, level: int, uid: bytearray, done: set, path: list
    ) -> "Generator[int, None, int]":
        """Bit-oriented anticollision + SELECT at one level; appends CLn; returns SAK.

        At a collided bit it takes branch 1 unless that branch's subtree is `done` (every
        card in it read this scan), then 0; each choice is appended to `path`.
        """
        ctx = bytes(uid)
        f = self._fifo
        sel = _SEL[level]
        known = bytearray(5)  # UID CLn (4 bytes) + BCC as far as known
        k = 0  # known bits
        for _ in range(33):
            nfull = k // 8
            extra = k % 8
            f[0] = sel
            f[1] = ((2 + nfull) << 4) | extra
            for i in range(nfull + (1 if extra else 0)):
                f[2 + i] = known[i]
            got = yield from self._xfer(2 + nfull + (1 if extra else 0), extra, extra)
            if got == 0:
                raise ReaderProtocolError("anticollision: the card left the field")
            # The answer continues bit k: its first byte shares known[nfull]'s low bits.
            for i in range(got):
                b = f[i]
                if i == 0 and extra:
                    b = (known[nfull] & ((1 << extra) - 1)) | (b & (0xFF << extra) & 0xFF)
                if nfull + i < 5:
                    known[nfull + i] = b
            if self.coll_pos < 0:
                break
            c = nfull * 8 + self.coll_pos  # absolute collided bit in CLn
            if c < k or c >= 32:
                raise ReaderProtocolError("anticollision: collision at bit %d of CLn" % c)
            one = self._node(level, ctx, known, c, 1)
            zero = self._node(level, ctx, known, c, 0)
            path.append((zero, one) if one in done else (one, zero))
            bit = 0 if one in done else 1
            known[c // 8] = (known[c // 8] & ((1 << (c % 8)) - 1)) | (bit << (c % 8))
            k = c + 1
        else:
            raise ReaderProtocolError("anticollision: no progress")
        if known[0] ^ known[1] ^ known[2] ^ known[3] ^ known[4]:
            raise ReaderProtocolError("anticollision: BCC mismatch")
        for i in range(4):
            uid.append(known[i])
        self.selected_cl = bytes(known)
        f[0] = sel
        f[1] = _NVB_SELECT
        for i in range(5):
            f[2 + i] = known[i]
        got = yield from self._xfer(self._append_crc(7))
        if got != 3:
            raise ReaderProtocolError("select: expected SAK + CRC_A")
        if crc_a(f, 1) != f[1] | (f[2] << 8):
            raise ReaderProtocolError("select: SAK CRC_A mismatch")
        return int(f[0])

    def _read_one(self, done: set) -> "Generator[int, None, bytes | None]":
        """WUPA, cascade levels, SELECT, HLTA: one card's UID, None if silent.

        WUPA wakes the cards halted before too (a card woken from HALT and not selected
        falls back to HALT, so REQA would lose it): the anticollision steers away from
        the collision subtrees already read, kept in `done` as branches of the tree.
        """
        f = self._fifo
        f[0] = _PICC_WUPA
        got = yield from self._xfer(1, 7)
        if got == 0:
            return None  # (an ATQA collision still answers with bytes: go on)
        raw = bytearray()
        path: list = []  # (branch taken, its sibling) at every collision, all levels
        level = 0
        sak = yield from self._cascade(level, raw, done, path)
        while sak & _SAK_UID_INCOMPLETE:
            if raw[-4] != _CASCADE_TAG or level >= 2:
                raise ReaderProtocolError("select: cascade bit without cascade tag")
            raw = raw[:-4] + raw[-3:]  # drop the cascade tag
            level += 1
            sak = yield from self._cascade(level, raw, done, path)
        # The card's own branch is read; a branch whose sibling is read too is finished,
        # which finishes the branch above it, up the path.
        for i in range(len(path) - 1, -1, -1):
            taken, sibling = path[i]
            done.add(taken)
            if sibling not in done:
                break
        f[0] = _PICC_HLTA
        f[1] = 0
        yield from self._xfer(self._append_crc(2))  # a halted card does not answer
        if _DEBUG:
            print("mfrc522 uid", bytes(raw), "sak", sak)
        return bytes(raw)

    def scan_steps(self, channel: int = 0) -> "Generator[int, None, list[bytes]]":
        """Guard time, then every card on the pad (halted one by one); returns UIDs."""
        clock = self._clock
        start = clock.ticks_us()
        while True:
            left = GUARD_US - ticks_diff(clock.ticks_us(), start)
            if left <= 0:
                break
            yield left
        uids: list[bytes] = []
        done: set = set()
        for _ in range(MAX_CARDS + 1):
            uid = yield from self._read_one(done)
            if uid is None or uid in uids:
                break  # silent pad, or only cards already read are left
            uids.append(uid)
        return uids

    def scan(self) -> list[bytes]:
        job = self.scan_steps()
        while True:
            try:
                wait = next(job)
            except StopIteration as done:
                return list(done.value)
            if wait:
                self._clock.sleep_us(wait)

    def read_uid(self) -> bytes | None:
        """One card (bring-up): the first UID found, or None."""
        uids = self.scan()
        return uids[0] if uids else None
