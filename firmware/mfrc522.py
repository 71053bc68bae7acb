"""MFRC522 reader for ISO 14443A cards (one card on a hole-card pad or board spot).

Bus and chip layer (register access over SPI with injected CS/RST pins, a preallocated
FIFO buffer, an IRQ wait with a deadline) and the ISO 14443A layer (WUPA, cascade
anticollision for 4- and 7-byte UIDs, SELECT, HLTA)::

    rfid = Mfrc522(spi, cs=Pin(5, Pin.OUT), rst=Pin(22, Pin.OUT), clock=SystemClock())
    rfid.init()
    uids = rfid.scan()          # [] or [uid]; two cards on one pad raise ReaderCollision

WUPA (not REQA) is used so a card halted by the previous scan answers again.
"""

from micropython import const

from clock import ticks_add, ticks_diff
from reader_errors import ReaderError, ReaderProtocolError, ReaderTimeout

try:
    from typing import Any
except ImportError:
    pass

_DEBUG = const(False)

# Registers.
_REG_COMMAND = const(0x01)
_REG_COM_IRQ = const(0x04)
_REG_ERROR = const(0x06)
_REG_FIFO_DATA = const(0x09)
_REG_FIFO_LEVEL = const(0x0A)
_REG_BIT_FRAMING = const(0x0D)
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

# Bits.
_IRQ_TIMER = const(0x01)
_IRQ_IDLE = const(0x10)
_IRQ_RX = const(0x20)
_IRQ_CLEAR_ALL = const(0x7F)
_ERR_COLLISION = const(0x08)
_ERR_FATAL = const(0x13)  # buffer overflow | parity | protocol
_FIFO_FLUSH = const(0x80)
_START_SEND = const(0x80)
_TX_ANTENNA_ON = const(0x03)
_TX_ASK_100 = const(0x40)
_T_MODE_AUTO = const(0x80)
_T_PRESCALER = const(0xA9)  # 13.56 MHz / (2*0xA9+1) ~ 40 kHz timer: 25 us ticks
_T_RELOAD = const(0x03E8)  # 1000 ticks = 25 ms card response timeout
_MODE_CRC_6363 = const(0x3D)

# ISO 14443A.
_PICC_WUPA = const(0x52)
_PICC_HLTA = const(0x50)
_SEL_CL1 = const(0x93)
_SEL_CL2 = const(0x95)
_NVB_ANTICOLL = const(0x20)
_NVB_SELECT = const(0x70)
_CASCADE_TAG = const(0x88)
_SAK_UID_INCOMPLETE = const(0x04)

_FIFO_LEN = const(64)
_DEFAULT_TIMEOUT_MS = const(50)


class ReaderCollision(ReaderError):
    """More than one ISO 14443A card answered on a pad meant for one."""


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

    def init(self) -> None:
        """Hard reset via RST, soft reset, 25 ms response timer, 100% ASK, antenna on."""
        self._rst.value(0)
        self._rst.value(1)
        self._write_reg(_REG_COMMAND, _PCD_SOFT_RESET)
        self._write_reg(_REG_T_MODE, _T_MODE_AUTO)
        self._write_reg(_REG_T_PRESCALER, _T_PRESCALER)
        self._write_reg(_REG_T_RELOAD_H, _T_RELOAD >> 8)
        self._write_reg(_REG_T_RELOAD_L, _T_RELOAD & 0xFF)
        self._write_reg(_REG_TX_ASK, _TX_ASK_100)
        self._write_reg(_REG_MODE, _MODE_CRC_6363)
        self._set_bits(_REG_TX_CONTROL, _TX_ANTENNA_ON)

    def version(self) -> int:
        return self._read_reg(REG_VERSION)

    def start_transceive(self, n: int, tx_last_bits: int = 0) -> None:
        """Send _fifo[:n] (the last byte only tx_last_bits long if non-zero)."""
        self._write_reg(_REG_COMMAND, _PCD_IDLE)
        self._write_reg(_REG_COM_IRQ, _IRQ_CLEAR_ALL)
        self._write_reg(_REG_FIFO_LEVEL, _FIFO_FLUSH)
        for i in range(n):
            self._write_reg(_REG_FIFO_DATA, self._fifo[i])
        self._write_reg(_REG_BIT_FRAMING, tx_last_bits & 0x07)
        self._write_reg(_REG_COMMAND, _PCD_TRANSCEIVE)
        self._set_bits(_REG_BIT_FRAMING, _START_SEND)

    def poll_transceive(self) -> int:
        """-1 while waiting, 0 if no card answered, else bytes received into _fifo."""
        irq = self._read_reg(_REG_COM_IRQ)
        if irq & (_IRQ_RX | _IRQ_IDLE):
            err = self._read_reg(_REG_ERROR)
            if err & _ERR_COLLISION:
                raise ReaderCollision("ISO 14443A collision: more than one card on the pad")
            if err & _ERR_FATAL:
                raise ReaderProtocolError("MFRC522 error register 0x%02x" % err)
            n = min(self._read_reg(_REG_FIFO_LEVEL), _FIFO_LEN)
            for i in range(n):
                self._fifo[i] = self._read_reg(_REG_FIFO_DATA)
            return n
        if irq & _IRQ_TIMER:
            return 0
        return -1

    def transceive(self, n: int, tx_last_bits: int = 0) -> int:
        """Blocking loop over start/poll; returns the received byte count (0 = silence)."""
        self.start_transceive(n, tx_last_bits)
        deadline = ticks_add(self._clock.ticks_ms(), self.timeout_ms)
        while True:
            got = self.poll_transceive()
            if got >= 0:
                return got
            if ticks_diff(deadline, self._clock.ticks_ms()) <= 0:
                raise ReaderTimeout("MFRC522 no IRQ after %d ms" % self.timeout_ms)

    # ---------------------------------------------------------------- ISO 14443A

    def _append_crc(self, n: int) -> int:
        crc = crc_a(self._fifo, n)
        self._fifo[n] = crc & 0xFF
        self._fifo[n + 1] = crc >> 8
        return n + 2

    def _cascade(self, sel: int, uid: bytearray) -> int:
        """Anticollision + SELECT at one cascade level; appends 4 bytes to uid; -> SAK."""
        f = self._fifo
        f[0] = sel
        f[1] = _NVB_ANTICOLL
        if self.transceive(2) != 5:
            raise ReaderProtocolError("anticollision: expected 5 bytes (UID CLn + BCC)")
        if f[0] ^ f[1] ^ f[2] ^ f[3] ^ f[4]:
            raise ReaderProtocolError("anticollision: BCC mismatch")
        for i in range(4):
            uid.append(f[i])
        bcc = f[4]
        for i in range(3, -1, -1):
            f[2 + i] = f[i]
        f[0] = sel
        f[1] = _NVB_SELECT
        f[6] = bcc
        if self.transceive(self._append_crc(7)) != 3:
            raise ReaderProtocolError("select: expected SAK + CRC_A")
        if crc_a(f, 1) != f[1] | (f[2] << 8):
            raise ReaderProtocolError("select: SAK CRC_A mismatch")
        return int(f[0])

    def read_uid(self) -> bytes | None:
        """WUPA, cascade levels 1-2, SELECT, HLTA. None if no card is on the pad."""
        f = self._fifo
        f[0] = _PICC_WUPA
        if self.transceive(1, 7) != 2:
            return None
        raw = bytearray()
        sak = self._cascade(_SEL_CL1, raw)
        if sak & _SAK_UID_INCOMPLETE:
            if raw[0] != _CASCADE_TAG:
                raise ReaderProtocolError("select: cascade bit without cascade tag")
            sak = self._cascade(_SEL_CL2, raw)
            uid = bytes(raw[1:])
        else:
            uid = bytes(raw)
        f[0] = _PICC_HLTA
        f[1] = 0
        self.transceive(self._append_crc(2))  # a halted card does not answer
        if _DEBUG:
            print("mfrc522 uid", uid, "sak", sak)
        return uid

    def scan(self) -> list[bytes]:
        uid = self.read_uid()
        return [uid] if uid is not None else []
