"""Host stand-in for MicroPython's `machine` module (Pin, SPI, UART, WDT) on the unix port.

The unix port has no Pin/SPI/UART, so tests and the simulated node put this folder
first on MICROPYPATH. The fakes behave like the parts: an output pin holds what was
written, an input pin reads what the simulated device drives, SPI hands each
transfer to the attached simulated chip (MISO floats high when nothing answers), and
UART is a byte pipe the test can feed and drain. Host-only hooks start with `sim_`.

Two optional models make the host behave like a board:

- `sim_board(name)` checks every Pin/SPI/UART against that board's pin capabilities
  (RP2040 datasheet §1.4.3 GPIO function table; ESP32 datasheet §2.2 pin list and
  §2.4 strapping pins, ESP32-WROVER datasheet: GPIO16/17 wired to the PSRAM). A pin
  the chip does not have, an output on an input-only pin, an SPI/UART signal on a pin
  without that function, or a flash pin raises ValueError, like the real port; a
  strapping or PSRAM pin is recorded in `sim_hazards()` (the port would accept it
  and the board would misbehave at boot or lose its PSRAM).
- `sim_clock = FakeClock()` makes bus traffic cost simulated time: each SPI transfer
  its bits at the set baud rate plus the interpreter's call overhead, each pin access
  a few microseconds (MicroPython on a 125 MHz RP2040; bench them on real hardware,
  docs/hardware-test-plan.md H2).
"""

SPI_CALL_US = 40  # interpreter + driver overhead around one spi.write/readinto call
PIN_US = 4  # one Pin.value() call from Python
sim_clock = None

_board = None
_hazards = []

# RP2040 datasheet §1.4.3 (GPIO functions): pins usable per SPI/UART instance.
_RP2040 = {
    "pins": set(range(30)),
    "input_only": set(),
    "forbidden": set(),
    "spi": {
        0: {"sck": {2, 6, 18, 22}, "mosi": {3, 7, 19, 23}, "miso": {0, 4, 16, 20}},
        1: {"sck": {10, 14, 26}, "mosi": {11, 15, 27}, "miso": {8, 12, 24, 28}},
    },
    "uart": {
        0: {"tx": {0, 12, 16, 28}, "rx": {1, 13, 17, 29}},
        1: {"tx": {4, 8, 20, 24}, "rx": {5, 9, 21, 25}},
    },
    "hazard": {},
}
# ESP32 datasheet v4: GPIO 0-39 without 20, 24, 28-31; 34-39 input only; 6-11 are the
# SPI flash (WROOM/WROVER); strapping pins 0, 2, 5, 12, 15 (§2.4); 16/17 PSRAM on WROVER.
_ESP32 = {
    "pins": set(range(40)) - {20, 24, 28, 29, 30, 31},
    "input_only": {34, 35, 36, 37, 38, 39},
    "forbidden": {6, 7, 8, 9, 10, 11},
    "spi": None,  # any output-capable pin through the GPIO matrix
    "uart": None,
    "hazard": {
        0: "strapping pin GPIO0 (boot mode)",
        2: "strapping pin GPIO2 (must be low/floating to enter download mode)",
        5: "strapping pin GPIO5 (SDIO slave timing, sampled at reset)",
        12: "strapping pin GPIO12 (flash voltage: high at reset selects 1.8 V)",
        15: "strapping pin GPIO15 (boot log / SDIO timing)",
        16: "GPIO16 is the PSRAM chip select on ESP32-WROVER modules",
        17: "GPIO17 is the PSRAM clock on ESP32-WROVER modules",
    },
}
BOARDS = {"rp2040_pico": _RP2040, "esp32_devkit": _ESP32}


def sim_board(name):
    """Check pins against this board from now on (None: accept anything)."""
    global _board
    _board = BOARDS[name] if name is not None else None
    del _hazards[:]


def sim_hazards():
    return list(_hazards)


def _cost(us):
    if sim_clock is not None:
        sim_clock.advance_us(us)


def _pin_id(p):
    return p.id if isinstance(p, Pin) else p


def _check_pin(n, mode):
    if _board is None:
        return
    if n not in _board["pins"] or n in _board["forbidden"]:
        raise ValueError("invalid pin %r" % (n,))
    if mode in (Pin.OUT, Pin.OPEN_DRAIN) and n in _board["input_only"]:
        raise ValueError("pin %r is input only" % (n,))
    if n in _board["hazard"]:
        _hazards.append("GPIO%d: %s" % (n, _board["hazard"][n]))


def _check_function(kind, inst, role, pin):
    if _board is None or pin is None:
        return
    n = _pin_id(pin)
    table = _board[kind]
    if table is None:
        _check_pin(n, Pin.IN if role in ("miso", "rx") else Pin.OUT)
        return
    if inst not in table:
        raise ValueError("%s(%r) does not exist" % (kind.upper(), inst))
    if n not in table[inst][role]:
        raise ValueError("bad %s pin %r for %s%d" % (role.upper(), n, kind.upper(), inst))


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        _check_pin(id, mode)
        self.id = id
        self.mode = mode
        self.pull = pull
        self._value = 1 if pull == Pin.PULL_UP else 0
        self._source = None
        self._listeners = []
        self.writes = 0
        if value is not None:
            self._value = 1 if value else 0

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self.mode = mode
        if value is not None:
            self.value(value)

    def value(self, v=None):
        _cost(PIN_US)
        if v is None:
            if self._source is not None:
                return 1 if self._source() else 0
            return self._value
        new = 1 if v else 0
        old = self._value
        self._value = new
        self.writes += 1
        for cb in self._listeners:
            cb(self, old, new)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=0):
        return None

    # host-only hooks
    def sim_drive(self, source):
        """Make value() read from source() (a simulated device driving this input)."""
        self._source = source

    def sim_on_change(self, callback):
        """Call callback(pin, old, new) whenever the firmware writes this pin."""
        self._listeners.append(callback)


class SPI:
    MSB = 0
    LSB = 1

    def __init__(self, id=0, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None,
                 miso=None, **kw):
        _check_function("spi", id, "sck", sck)
        _check_function("spi", id, "mosi", mosi)
        _check_function("spi", id, "miso", miso)
        self.id = id
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self._device = None

    def init(self, baudrate=1000000, **kw):
        self.baudrate = baudrate

    def deinit(self):
        pass

    def sim_attach(self, device):
        """device.sim_transfer(tx_bytes) -> rx_bytes of the same length."""
        self._device = device

    def _xfer(self, tx):
        _cost(SPI_CALL_US + (len(tx) * 8 * 1000000) // self.baudrate)
        if self._device is None:
            return b"\xff" * len(tx)
        rx = self._device.sim_transfer(bytes(tx))
        if len(rx) != len(tx):
            raise OSError("simulated SPI device returned %d bytes for %d" % (len(rx), len(tx)))
        return rx

    def write(self, buf):
        self._xfer(buf)

    def read(self, n, write=0):
        return self._xfer(bytes([write]) * n)

    def readinto(self, buf, write=0):
        rx = self._xfer(bytes([write]) * len(buf))
        for i in range(len(buf)):
            buf[i] = rx[i]

    def write_readinto(self, wbuf, rbuf):
        rx = self._xfer(wbuf)
        for i in range(len(rbuf)):
            rbuf[i] = rx[i]


class UART:
    """A byte pipe: the firmware reads what the test sim_feed()s; writes are captured."""

    def __init__(self, id=0, baudrate=115200, tx=None, rx=None, **kw):
        _check_function("uart", id, "tx", tx)
        _check_function("uart", id, "rx", rx)
        self.id = id
        self.baudrate = baudrate
        self._rx = bytearray()
        self._tx = bytearray()

    def init(self, baudrate=115200, **kw):
        self.baudrate = baudrate

    def any(self):
        _cost(PIN_US)
        return len(self._rx)

    def read(self, n=-1):
        _cost(PIN_US)
        if not self._rx:
            return None
        if n < 0 or n > len(self._rx):
            n = len(self._rx)
        out = bytes(self._rx[:n])
        self._rx = self._rx[n:]
        return out

    def readinto(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        data = self.read(n)
        if not data:
            return None
        for i in range(len(data)):
            buf[i] = data[i]
        return len(data)

    def write(self, buf):
        self._tx.extend(buf)
        return len(buf)

    def flush(self):
        pass

    def txdone(self):
        return True

    # host-only hooks
    def sim_feed(self, data):
        self._rx.extend(data)

    def sim_take_tx(self):
        out = bytes(self._tx)
        self._tx = bytearray()
        return out


class WDT:
    """Hardware watchdog: the board resets unless feed() comes within `timeout` ms."""

    instances: list = []  # noqa: RUF012 - every watchdog made, for tests

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        self.last_feed_us = sim_clock.ticks_us() if sim_clock is not None else 0
        self.longest_gap_us = 0
        WDT.instances.append(self)

    def feed(self):
        self.feeds += 1
        if sim_clock is not None:
            now = sim_clock.ticks_us()
            self.longest_gap_us = max(self.longest_gap_us, now - self.last_feed_us)
            self.last_feed_us = now


def idle():
    pass


def reset_cause():
    return 0


def reset():
    raise SystemExit("machine.reset()")


def unique_id():
    return b"\x00\x00\x00\x00\x00\x00\x00\x01"
