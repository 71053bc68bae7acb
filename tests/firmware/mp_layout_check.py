"""The shipped 3-seat layout (9 antennas) on each board, under MicroPython (test_layouts.py).

    micropython mp_layout_check.py <board> <case>

case `shipped`: firmware/node_config.example.json built by main.build() on the board's pin
map, one tag on each of the nine antennas: every zone must report its tag, no fault.
case `two_lines`: the same layout on a board with only two RF-switch select lines (4
antennas): the node boots, its BIRTH lists the four zones it scans and the five it cannot
(with the reason), and those four zones still report. case `no_reader`: nothing answers on
SPI: the node boots, BIRTH names the reader fault, the heartbeat goes on; once the reader
answers (plugged in) a new BIRTH clears the fault and the zones report.
"""

import sys

import machine
import wire
from clock import SystemClock
from sim_field import FakePn5180, SimField

PINS = {}
CLOCK = SystemClock()
FIELD = SimField(clock=CLOCK)
STATE = {"board": None, "fake": None, "reader": True}


def uid(ch):
    return b"\xe0\x04\x01\x00\x00\x00\x01" + bytes([ch])


class RegisteredPin(machine.Pin):
    def __init__(self, id, mode=-1, pull=-1, value=None):
        super().__init__(id, mode, pull, value)
        PINS[id] = self
        attach()


def attach():
    p = STATE["board"]["pn5180"]
    wired = all(p[k] in PINS for k in ("cs", "busy", "rst"))
    if STATE["fake"] is None and STATE["reader"] and wired:
        STATE["fake"] = FakePn5180(FIELD, PINS[p["cs"]], PINS[p["busy"]], PINS[p["rst"]], CLOCK)


class BoardSpi(machine.SPI):
    def __init__(self, id=0, **kw):
        super().__init__(id, **kw)
        self.sim_attach(self)

    def sim_transfer(self, tx):
        if STATE["fake"] is None:
            return b"\xff" * len(tx)  # MISO floats high: no reader on the bus
        return STATE["fake"].sim_transfer(tx)


machine.Pin = RegisteredPin
machine.SPI = BoardSpi

import main  # noqa: E402
import node_config  # noqa: E402


def frames(node):
    return wire.FrameDecoder().feed(node.link._port.sim_take_tx())


def run_until(node, done, out, limit_ms=30000):
    start = CLOCK.ticks_ms()
    while not done():
        node.step()
        out.extend(frames(node))
        if CLOCK.ticks_ms() - start > limit_ms:
            raise AssertionError("timed out; frames: %r" % [(f[1], f[3][:20]) for f in out])


def reported(out):
    seen = {}
    for f in out:
        if f[1] == wire.MSG_SNAPSHOT:
            zone, _settled, uids = wire.unpack_snapshot(f[3])
            seen[zone] = uids
    return seen


def births(out):
    return [
        (wire.unpack_birth(f[3])[3], wire.unpack_birth_faults(f[3]))
        for f in out
        if f[1] == wire.MSG_BIRTH
    ]


def run(board_name, case):
    here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
    board = main.load_board(board_name, here + "/../../firmware/")
    cfg = node_config.load(here + "/../../firmware/node_config.example.json")
    cfg["board"] = board_name
    cfg["transport"] = "uart"  # the frames go straight out; the bus is tested elsewhere
    if case == "two_lines":
        board["mux_select"] = board["mux_select"][:2]
    STATE["board"] = board
    STATE["reader"] = case != "no_reader"
    machine.sim_board(board_name)
    sel = board["mux_select"]
    FIELD._channel = lambda: sum(PINS[n].value() << i for i, n in enumerate(sel))
    names = [z["name"] for z in cfg["zones"]]
    for z in cfg["zones"]:
        FIELD.add(z["channel"], uid(z["channel"]))
    node = main.build(cfg, board)
    out = []
    node.boot()
    out.extend(frames(node))
    reachable = [z["name"] for z in cfg["zones"] if z["channel"] < (1 << len(sel))]
    if case == "no_reader":
        born = births(out)
        if len(born) != 1 or born[0][1][0][0] != "" or "PN5180" not in born[0][1][0][1]:
            raise AssertionError("reader fault not in BIRTH: %r" % born)
        run_until(node, lambda: any(f[1] == wire.MSG_HEARTBEAT for f in out), out)
        STATE["reader"] = True
        attach()  # the reader is plugged in: the node's retry finds it
        run_until(node, lambda: births(out)[-1][1] == [], out)
    want = {z["name"]: [uid(z["channel"])] for z in cfg["zones"] if z["name"] in reachable}
    run_until(node, lambda: all(reported(out).get(n) == want[n] for n in want), out)
    born = births(out)
    if born[-1][0] != reachable:
        raise AssertionError("BIRTH zones %r, expected %r" % (born[-1][0], reachable))
    if case == "two_lines":
        faults = born[-1][1]
        if [f[0] for f in faults] != names[4:]:
            raise AssertionError("faults %r" % faults)
        if "channel 4: the antenna switch has channels 0..3" not in faults[0][1]:
            raise AssertionError("fault reason %r" % faults[0][1])
    elif born[-1][1]:
        raise AssertionError("unexpected faults %r" % born[-1][1])
    if set(reported(out)) - set(reachable):
        raise AssertionError("a zone out of service reported: %r" % reported(out))
    if machine.sim_hazards():
        raise AssertionError("hazardous pins: %r" % machine.sim_hazards())
    print("PASS layout", board_name, case, len(want), "zones")


run(sys.argv[1], sys.argv[2])
