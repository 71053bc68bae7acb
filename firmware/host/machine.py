"""Host stand-in for MicroPython's `machine` module (Pin, SPI, UART) on the unix port.

The unix port has no Pin/SPI/UART, so tests and the simulated node put this folder
first on MICROPYPATH. The fakes behave like the parts: an output pin holds what was
written, an input pin reads what the simulated device drives, SPI hands each
transfer to the attached simulated chip (MISO floats high when nothing answers), and
UART is a byte pipe the test can feed and drain. Host-only hooks start with `sim_`.
"""


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
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

    def __init__(self, id=0, baudrate=1000000, polarity=0, phase=0, **kw):
        self.id = id
        self.baudrate = baudrate
        self._device = None

    def init(self, baudrate=1000000, **kw):
        self.baudrate = baudrate

    def deinit(self):
        pass

    def sim_attach(self, device):
        """device.sim_transfer(tx_bytes) -> rx_bytes of the same length."""
        self._device = device

    def _xfer(self, tx):
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

    def __init__(self, id=0, baudrate=115200, **kw):
        self.id = id
        self.baudrate = baudrate
        self._rx = bytearray()
        self._tx = bytearray()

    def init(self, baudrate=115200, **kw):
        self.baudrate = baudrate

    def any(self):
        return len(self._rx)

    def read(self, n=-1):
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


def idle():
    pass


def reset_cause():
    return 0


def unique_id():
    return b"\x00\x00\x00\x00\x00\x00\x00\x01"
