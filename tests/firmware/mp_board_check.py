"""main.build() for each board pin map, under MicroPython (run by test_boards.py).

    micropython mp_board_check.py <board> <transport>

Patches the host machine shim so that every Pin is findable by number and the SPI
bus built by main.py has a simulated PN5180 on the board's CS/BUSY/RST pins, and checks
every pin against the board's capabilities (machine.sim_board). A wrong or missing pin in
the board JSON, a pin without the SPI/UART function, a strapping or PSRAM pin makes the
build or the tag read fail.
"""

import sys

import machine
import wire
from clock import SystemClock
from sim_field import FakePn5180, SimField

PINS = {}
CLOCK = SystemClock()
FIELD = SimField(clock=CLOCK)
UID = b"\xe0\x04\x01\x00\x00\x00\x00\x07"


class RegisteredPin(machine.Pin):
    """Pins by number; the PN5180 fake is wired up once its CS, BUSY and RST exist."""

    board = None
    fake = None

    def __init__(self, id, mode=-1, pull=-1, value=None):
        super().__init__(id, mode, pull, value)
        PINS[id] = self
        p = RegisteredPin.board["pn5180"]
        if RegisteredPin.fake is None and all(p[k] in PINS for k in ("cs", "busy", "rst")):
            RegisteredPin.fake = FakePn5180(FIELD, PINS[p["cs"]], PINS[p["busy"]],
                                            PINS[p["rst"]], CLOCK)


class BoardSpi(machine.SPI):
    def __init__(self, id=0, **kw):
        super().__init__(id, **kw)
        self.sim_attach(self)

    def sim_transfer(self, tx):
        return RegisteredPin.fake.sim_transfer(tx)


machine.Pin = RegisteredPin
machine.SPI = BoardSpi

import main  # noqa: E402  (after the patch: main binds machine.Pin/SPI at import)
import node_config  # noqa: E402


def run(board_name, transport):
    here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
    board = main.load_board(board_name, here + "/../../firmware/")
    RegisteredPin.board = board
    machine.sim_board(board_name)
    zones = [{"name": "bet", "channel": 0}, {"name": "stack", "channel": 3}]
    cfg = node_config.validate(
        {"board": board_name, "transport": transport, "zones": zones, "present_after": 1}
    )
    node = main.build(cfg, board)
    sel = board["mux_select"]
    FIELD._channel = lambda: sum(PINS[n].value() << i for i, n in enumerate(sel))
    FIELD.add(3, UID)
    node.boot()
    start = CLOCK.ticks_ms()
    while not node.scanner.snapshot(1)[2]:
        node.step()
        if CLOCK.ticks_ms() - start > 20000:
            raise AssertionError("tag never read")
    if transport == "rs485":
        de = PINS[board["rs485_de"]]
        if de.value() != 0 or node.link._port.sim_take_tx():
            raise AssertionError("RS-485 node talked unpolled")
        node.link._port.sim_feed(wire.encode_frame(1, wire.MSG_POLL, 1))
        node.step()
    frames = wire.FrameDecoder().feed(node.link._port.sim_take_tx())
    snaps = [wire.unpack_snapshot(f[3]) for f in frames if f[1] == wire.MSG_SNAPSHOT]
    if ("stack", False, [UID]) not in snaps:
        raise AssertionError("tag on antenna 3 not reported: %r" % snaps)
    if machine.sim_hazards():
        raise AssertionError("hazardous pins: %r" % machine.sim_hazards())
    print("PASS board", board_name, transport)


run(sys.argv[1], sys.argv[2])
