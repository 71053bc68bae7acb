"""PN5180 NFC front end: the bus and chip layers (ISO 15693 lives in iso15693.py).

The caller injects the SPI bus, the chip-select, BUSY and RST pins and a clock, so the
same class drives a real chip on a Pico/ESP32 and the simulated chip on the host::

    chip = Pn5180(spi, cs=Pin(17, Pin.OUT), busy=Pin(20, Pin.IN), rst=Pin(21, Pin.OUT),
                  clock=SystemClock())
    chip.reset()                       # >= 10 us pulse, start-up, IDLE_IRQ, IRQs cleared

Every command goes through `_cmd()`, which packs into one preallocated buffer and waits
for BUSY with a deadline (datasheet Rev 4.0 §11.4.1), raising `ReaderTimeout` instead of
hanging. RF exchanges are split into start/poll so a scan can yield between them; each
exchange runs with TIMER1 armed (Tables 86/89), the only thing that ends a silent slot.
"""

from micropython import const

from clock import ticks_add, ticks_diff
from reader_errors import ReaderChipError, ReaderError, ReaderFieldBusy, ReaderTimeout

try:
    from typing import Any
except ImportError:  # MicroPython: annotations are never evaluated
    pass

_DEBUG = const(False)

# Host interface commands (datasheet Table 5).
_CMD_WRITE_REGISTER = const(0x00)
_CMD_WRITE_REGISTER_OR_MASK = const(0x01)
_CMD_WRITE_REGISTER_AND_MASK = const(0x02)
_CMD_READ_REGISTER = const(0x04)
_CMD_READ_EEPROM = const(0x07)
_CMD_SEND_DATA = const(0x09)
_CMD_READ_DATA = const(0x0A)
_CMD_LOAD_RF_CONFIG = const(0x11)
_CMD_RF_ON = const(0x16)
_CMD_RF_OFF = const(0x17)

# Registers (Table 74).
REG_SYSTEM_CONFIG = const(0x00)
REG_IRQ_ENABLE = const(0x01)
REG_IRQ_STATUS = const(0x02)
REG_IRQ_CLEAR = const(0x03)
REG_TRANSCEIVE_CONTROL = const(0x04)
REG_TIMER1_RELOAD = const(0x0C)
REG_TIMER1_CONFIG = const(0x0F)
REG_RX_WAIT_CONFIG = const(0x11)
REG_CRC_RX_CONFIG = const(0x12)
REG_RX_STATUS = const(0x13)
REG_TX_CONFIG = const(0x18)
REG_CRC_TX_CONFIG = const(0x19)
REG_RF_STATUS = const(0x1D)

# SYSTEM_CONFIG command field (Table 75, bits 2:0).
SYSCFG_COMMAND_MASK = const(0x00000007)
SYSCFG_CMD_IDLE = const(0x0)
SYSCFG_CMD_TRANSCEIVE = const(0x3)

# IRQ_STATUS bits (Table 77).
IRQ_RX = const(1 << 0)
IRQ_TX = const(1 << 1)
IRQ_IDLE = const(1 << 2)
IRQ_TX_RFON = const(1 << 9)
IRQ_RF_ACTIVE_ERROR = const(1 << 10)  # RF_ON refused: another field is on (§11.8.2)
IRQ_TIMER1 = const(1 << 12)  # RX timeout: no tag answered in time
IRQ_RX_SOF_DET = const(1 << 14)  # a start of frame was detected: an answer is coming in
IRQ_GENERAL_ERROR = const(1 << 17)  # an instruction's condition failed (§11.4.3.1)
IRQ_ALL = const(0x000FFFFF)

# TIMER1_CONFIG (Table 89): start when our frame ends, stop when an answer starts.
T1_ENABLE = const(1 << 0)
T1_START_ON_TX_ENDED = const(1 << 11)
T1_STOP_ON_RX_STARTED = const(1 << 20)
T1_RX_TIMEOUT = const(0x00100801)  # STOP_ON_RX_STARTED | START_ON_TX_ENDED | ENABLE
T1_RELOAD_MAX = const(0xFFFFF)  # Table 86: 20 bits
T1_TICKS_PER_MS = const(13560)  # prescaler off: 13.56 MHz

# RX_STATUS fields (Table 93).
RX_NUM_BYTES_MASK = const(0x1FF)
RX_DATA_INTEGRITY_ERROR = const(1 << 16)
RX_PROTOCOL_ERROR = const(1 << 17)
RX_COLLISION_DETECTED = const(1 << 18)
RX_COLL_POS_SHIFT = const(19)
RX_COLL_POS_MASK = const(0x7F)

# TX_CONFIG (Table 98): clearing TX_DATA_ENABLE and the start symbol sends only an EOF.
TX_CONFIG_DATA_ENABLE = const(0x000004C0)
CRC_ENABLE = const(0x00000001)

# LOAD_RF_CONFIG settings (Table 32): ISO 15693 ASK100 26 kbit/s.
RF_CONFIG_ISO15693_TX = const(0x0D)
RF_CONFIG_ISO15693_RX = const(0x8D)

_EEPROM_VERSIONS = const(0x10)  # product, firmware, EEPROM version: 2 bytes each
_RX_BUF_LEN = const(508)  # the chip's receive buffer (§11.4.3.2)
_CMD_BUF_LEN = const(2 + 64)  # command byte + argument + largest frame we send
_DEFAULT_TIMEOUT_MS = const(50)
_BUSY_RISE_MAX_US = const(100)  # §11.4.1 step 3: BUSY rises this soon after a frame (bound)
_RESET_LOW_US = const(50)  # Table 129: >= 10 us
_BOOT_US = const(3000)  # Table 141: tboot 2.5 ms typical before any SPI frame
_BOOT_TIMEOUT_MS = const(100)  # tboot max depends on EEPROM XTAL_BOOT_TIME


class Pn5180:
    """Chip layer: register access and RF primitives, nothing ISO 15693 specific."""

    def __init__(
        self,
        spi: Any,
        cs: Any,
        busy: Any,
        rst: Any,
        clock: Any,
        timeout_ms: int = _DEFAULT_TIMEOUT_MS,
    ) -> None:
        self._spi = spi
        self._cs = cs
        self._busy = busy
        self._rst = rst
        self._clock = clock
        self.timeout_ms = timeout_ms
        self._cmd_buf = memoryview(bytearray(_CMD_BUF_LEN))  # reused for every command
        self._rx_buf = memoryview(bytearray(_RX_BUF_LEN))  # reused for every response
        # TX_CONFIG sends an EOF only (the slots of a 16-slot round): put back before the
        # next frame with data, once TX_IRQ says the last EOF left
        self._eof_mode = False
        self._timer_reload = -1  # what TIMER1 holds (-1: unknown, arm it)
        self._deadline_ms = 0
        self._cs.value(1)
        self._rst.value(1)

    # ------------------------------------------------------------------ bus layer

    def _deadline(self) -> int:
        return int(ticks_add(self._clock.ticks_ms(), self.timeout_ms))

    def _wait_busy(self, deadline: int) -> None:
        """Block until BUSY is low; raise ReaderTimeout once the deadline passed."""
        while self._busy.value():
            if ticks_diff(deadline, self._clock.ticks_ms()) <= 0:
                raise ReaderTimeout("PN5180 BUSY still high after %d ms" % self.timeout_ms)

    def _wait_busy_rise(self) -> None:
        """§11.4.1 steps 3-5: after a frame BUSY goes high, then low. Wait for the rise
        (a "BUSY low" read right after the frame may come before it) up to its bound: a
        pulse too short to catch is over by then."""
        busy = self._busy
        clock = self._clock
        t0 = clock.ticks_us()
        while not busy.value():
            if ticks_diff(clock.ticks_us(), t0) >= _BUSY_RISE_MAX_US:
                return

    def _cmd(self, n: int, rx_len: int = 0) -> memoryview:
        """Send _cmd_buf[:n] as one SPI frame; optionally read rx_len bytes back.

        Returns a view of the receive buffer that the next command overwrites.
        """
        deadline = self._deadline()
        self._wait_busy(deadline)
        self._cs.value(0)
        self._spi.write(self._cmd_buf[:n])
        self._wait_busy_rise()
        self._cs.value(1)
        self._wait_busy(deadline)
        if not rx_len:
            return self._rx_buf[:0]
        rx = self._rx_buf[:rx_len]
        self._cs.value(0)
        self._spi.readinto(rx, 0xFF)
        self._wait_busy_rise()
        self._cs.value(1)
        self._wait_busy(deadline)
        if _DEBUG:
            print("pn5180 cmd", bytes(self._cmd_buf[:n]), "->", bytes(rx))
        return rx

    def _put_u32(self, at: int, value: int) -> None:
        buf = self._cmd_buf
        buf[at] = value & 0xFF
        buf[at + 1] = (value >> 8) & 0xFF
        buf[at + 2] = (value >> 16) & 0xFF
        buf[at + 3] = (value >> 24) & 0xFF

    # ----------------------------------------------------------------- chip layer

    def reset(self) -> None:
        """Hardware reset (§11.2.2): RESET_N low >= 10 us, start-up, IDLE_IRQ, IRQs cleared.

        No SPI frame goes out during the 2.5 ms start-up (Table 141); then IRQ_STATUS is
        polled until IDLE_IRQ reports the chip ready. An all-ones read is a floating MISO.
        """
        clock = self._clock
        self._eof_mode = False
        self._timer_reload = -1
        self._rst.value(0)
        clock.sleep_us(_RESET_LOW_US)
        self._rst.value(1)
        clock.sleep_us(_BOOT_US)
        deadline = ticks_add(clock.ticks_ms(), _BOOT_TIMEOUT_MS)
        while True:
            irq = self.read_register(REG_IRQ_STATUS)
            if irq != 0xFFFFFFFF and irq & IRQ_IDLE:
                break
            if ticks_diff(deadline, clock.ticks_ms()) <= 0:
                raise ReaderTimeout("PN5180 no IDLE_IRQ %d ms after reset" % _BOOT_TIMEOUT_MS)
            clock.sleep_us(200)
        self.write_register(REG_IRQ_CLEAR, IRQ_ALL)

    def versions(self) -> tuple[int, int, int]:
        """(product, firmware, EEPROM) versions as major<<8|minor.

        Raises ReaderError if the bus reads all-ones or all-zeros: a missing chip or a
        floating MISO would otherwise look like an endless stream of collisions.
        """
        v = self.read_eeprom(_EEPROM_VERSIONS, 6)
        if all(b == 0xFF for b in v) or all(b == 0 for b in v):
            raise ReaderError("PN5180 not answering on SPI (versions read %r)" % bytes(v))
        return (v[1] << 8) | v[0], (v[3] << 8) | v[2], (v[5] << 8) | v[4]

    def write_register(self, reg: int, value: int) -> None:
        self._cmd_buf[0] = _CMD_WRITE_REGISTER
        self._cmd_buf[1] = reg
        self._put_u32(2, value)
        self._cmd(6)

    def write_register_or_mask(self, reg: int, mask: int) -> None:
        self._cmd_buf[0] = _CMD_WRITE_REGISTER_OR_MASK
        self._cmd_buf[1] = reg
        self._put_u32(2, mask)
        self._cmd(6)

    def write_register_and_mask(self, reg: int, mask: int) -> None:
        self._cmd_buf[0] = _CMD_WRITE_REGISTER_AND_MASK
        self._cmd_buf[1] = reg
        self._put_u32(2, mask)
        self._cmd(6)

    def read_register(self, reg: int) -> int:
        self._cmd_buf[0] = _CMD_READ_REGISTER
        self._cmd_buf[1] = reg
        rx = self._cmd(2, 4)
        return rx[0] | (rx[1] << 8) | (rx[2] << 16) | (rx[3] << 24)

    def read_eeprom(self, addr: int, n: int) -> memoryview:
        """Returns a view the next command overwrites."""
        self._cmd_buf[0] = _CMD_READ_EEPROM
        self._cmd_buf[1] = addr
        self._cmd_buf[2] = n
        return self._cmd(3, n)

    def load_rf_config(self, tx: int, rx: int) -> None:
        self._cmd_buf[0] = _CMD_LOAD_RF_CONFIG
        self._cmd_buf[1] = tx
        self._cmd_buf[2] = rx
        self._cmd(3)

    def arm_rx_timeout(self, us: int) -> None:
        """TIMER1 ends an exchange `us` after our frame if no answer started (Tables 86/89).

        Its reset value 0 never expires, so without this a silent slot never ends.
        Written only when the value changes (a reset forgets it).
        """
        reload = min(us * T1_TICKS_PER_MS // 1000, T1_RELOAD_MAX)
        if reload == self._timer_reload:
            return
        self.write_register(REG_TIMER1_RELOAD, reload)
        self.write_register(REG_TIMER1_CONFIG, T1_RX_TIMEOUT)
        self._timer_reload = reload

    def start_rf_on(self) -> None:
        """RF_ON with collision avoidance (Table 37 parameter 0): see poll_rf_on."""
        self.write_register(REG_IRQ_CLEAR, IRQ_TX_RFON | IRQ_RF_ACTIVE_ERROR | IRQ_GENERAL_ERROR)
        self._cmd_buf[0] = _CMD_RF_ON
        self._cmd_buf[1] = 0
        self._cmd(2)
        self._deadline_ms = self._deadline()

    def poll_rf_on(self) -> bool:
        """True once the field is on; ReaderFieldBusy if another reader's field was there."""
        irq = self.read_register(REG_IRQ_STATUS)
        if irq & IRQ_RF_ACTIVE_ERROR:
            raise ReaderFieldBusy("PN5180 RF_ON refused: an external field is on (RF_ACTIVE_ERROR)")
        if irq & IRQ_GENERAL_ERROR:
            raise ReaderChipError("PN5180 general error on RF_ON (IRQ 0x%05x)" % irq)
        if irq & IRQ_TX_RFON:
            return True
        if ticks_diff(self._deadline_ms, self._clock.ticks_ms()) <= 0:
            raise ReaderTimeout("PN5180 RF field did not come on in %d ms" % self.timeout_ms)
        return False

    def rf_on(self) -> None:
        """Blocking RF_ON (bring-up and tests; the scanner uses start/poll)."""
        self.start_rf_on()
        while not self.poll_rf_on():
            pass

    def rf_off(self) -> None:
        self._cmd_buf[0] = _CMD_RF_OFF
        self._cmd_buf[1] = 0
        self._cmd(2)

    def send_data(self, data: bytes | bytearray | memoryview, valid_bits: int = 0) -> None:
        n = len(data)
        if n > _CMD_BUF_LEN - 2:
            raise ValueError(
                "data: %d bytes exceeds the %d-byte command buffer" % (n, _CMD_BUF_LEN - 2)
            )
        self._cmd_buf[0] = _CMD_SEND_DATA
        self._cmd_buf[1] = valid_bits
        self._cmd_buf[2 : 2 + n] = data
        self._cmd(2 + n)

    def read_data(self, n: int) -> memoryview:
        """Read n received bytes. Returns a view the next command overwrites."""
        self._cmd_buf[0] = _CMD_READ_DATA
        self._cmd_buf[1] = 0
        return self._cmd(2, n)

    # ---------------------------------------------------- transceive, split start/poll

    def start_transceive(
        self, data: bytes | bytearray | memoryview, eof_only: bool = False
    ) -> None:
        """Put the chip in transceive state and send data (or only an EOF: next slot).

        TX_CONFIG stays in EOF-only mode over the slots of a round (one write per round,
        not two per slot) and is put back before the next frame with data, once TX_IRQ
        says the last EOF left: SEND_DATA returns while the frame is still on air
        (Table 15 note), and TX_CONFIG must not change under it. The put-back is an OR
        of the data bits, so it is right whether or not LOAD_RF_CONFIG reloaded TX_CONFIG
        in between (the datasheet does not say; docs/hardware-test-plan.md H3).
        """
        if eof_only:
            if not self._eof_mode:
                self.write_register_and_mask(REG_TX_CONFIG, ~TX_CONFIG_DATA_ENABLE & 0xFFFFFFFF)
                self._eof_mode = True
        elif self._eof_mode:
            self._finish_eof()
        self.write_register(REG_IRQ_CLEAR, IRQ_ALL)
        self.write_register_and_mask(REG_SYSTEM_CONFIG, ~SYSCFG_COMMAND_MASK & 0xFFFFFFFF)
        self.write_register_or_mask(REG_SYSTEM_CONFIG, SYSCFG_CMD_TRANSCEIVE)
        self.send_data(data[:0] if eof_only else data)
        self._deadline_ms = self._deadline()

    def _finish_eof(self) -> None:
        """Wait for TX_IRQ of the last EOF, then re-enable data for the next frame."""
        deadline = self._deadline()
        while not self.read_register(REG_IRQ_STATUS) & IRQ_TX:
            if ticks_diff(deadline, self._clock.ticks_ms()) <= 0:
                raise ReaderTimeout("PN5180 EOF not sent in %d ms" % self.timeout_ms)
        self.write_register_or_mask(REG_TX_CONFIG, TX_CONFIG_DATA_ENABLE)
        self._eof_mode = False

    def poll_transceive(self) -> int:
        """0 while still waiting, else the IRQ_STATUS bits (IRQ_RX or IRQ_TIMER1 set).

        A general error raises ReaderChipError: it is a chip fault, not an empty slot.
        A missing IRQ past the command deadline raises ReaderTimeout.
        """
        irq = self.read_register(REG_IRQ_STATUS)
        if irq & IRQ_GENERAL_ERROR:
            raise ReaderChipError("PN5180 general error during transceive (IRQ 0x%05x)" % irq)
        if irq & (IRQ_RX | IRQ_TIMER1):
            return int(irq)
        if ticks_diff(self._deadline_ms, self._clock.ticks_ms()) <= 0:
            raise ReaderTimeout("PN5180 no RX/timer IRQ after %d ms" % self.timeout_ms)
        return 0

    def receiving(self, irq: int) -> bool:
        """TIMER1 fired but an answer had started (SOF seen, receiver active): a late tag.

        Its RX_IRQ follows; reading this as an empty slot would lose the tag. RX_SOF_DET
        is latched in IRQ_STATUS (Table 77), so the IRQ word already read tells, at no
        SPI cost per empty slot. (RF_STATUS RX_ACTIVE, Table 103, would also cover an SOF
        still being taken in, for one more SPI read per empty slot: not taken.)
        """
        return bool(irq & IRQ_RX_SOF_DET)

    def wait_transceive(self) -> int:
        """Blocking loop over poll_transceive."""
        while True:
            irq = self.poll_transceive()
            if irq:
                return irq
