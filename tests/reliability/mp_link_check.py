# ruff: noqa: UP031, SIM108

"""The node's self-healing handlers under MicroPython (run by test_link_node.py).

The real Node, ZoneScanner, Iso15693Reader, Pn5180 and SerialLink over the host machine
shim (UART is a byte pipe, the PN5180 and its tags are simulated, the clock is fake).
"""

import sys

import machine
import node_config
import wire
from antenna_mux import AntennaMux
from clock import FakeClock, ticks_diff
from iso15693 import Iso15693Reader
from link import Rs485Link, SerialLink
from machine import SPI, UART, Pin
from node import Node
from pn5180 import Pn5180
from sim_field import FakePn5180, SimField
from zone_scanner import ZoneScanner

UID = b"\xe0\x04\x01\x00\x00\x00\x00\x01"
ZONES = ["s1.bet", "s1.stack", "s1.cards"]


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def rig(cfg_update=None, transport="uart"):
    clock = FakeClock(1000)
    cs, busy, rst = Pin(17, Pin.OUT), Pin(20, Pin.IN), Pin(21, Pin.OUT)
    mux_pins = [Pin(6, Pin.OUT), Pin(7, Pin.OUT)]

    def channel():
        return mux_pins[0].value() | (mux_pins[1].value() << 1)

    machine.sim_clock = clock  # bus traffic costs simulated time
    field = SimField(channel, clock=clock)
    spi = SPI(0, baudrate=2000000)
    spi.sim_attach(FakePn5180(field, cs, busy, rst, clock))
    chip = Pn5180(spi, cs, busy, rst, clock)
    chip.reset()
    c = {
        "node_id": 5,
        "zones": [{"name": z, "channel": i} for i, z in enumerate(ZONES)],
        "present_after": 1,
        "absent_after": 1,
        "settle_ms": 100,
        "heartbeat_ms": 60000,
        "refresh_ms": 0,
    }
    c.update(cfg_update or {})
    cfg = node_config.validate(c)
    scanner = ZoneScanner(Iso15693Reader(chip), AntennaMux(mux_pins), node_config.zone_list(cfg),
                          clock, cfg["present_after"], cfg["absent_after"], cfg["settle_ms"])
    uart = UART(0)
    if transport == "rs485":
        link = Rs485Link(uart, 5, Pin(2, Pin.OUT))
    else:
        link = SerialLink(uart, 5)
    node = Node(link, scanner, clock, cfg, "PN5180", recover=chip.reset)
    return node, uart, field, clock


def frames(uart):
    return wire.FrameDecoder().feed(uart.sim_take_tx())


def snaps(fs):
    return [wire.unpack_snapshot(f[3]) for f in fs if f[1] == wire.MSG_SNAPSHOT]


def settle(node, clock, ms=500):
    """Run the node loop for `ms` of simulated time (each turn also costs 200 us)."""
    end = clock.ticks_ms() + ms
    while ticks_diff(end, clock.ticks_ms()) > 0:
        node.step()
        clock.advance_us(200)


def case_snapshot_request_all_and_one():
    node, uart, field, clock = rig()
    node.boot()
    field.add(1, UID)
    settle(node, clock)
    frames(uart)
    uart.sim_feed(wire.encode_frame(5, wire.MSG_CMD_SNAPSHOT, 40, wire.pack_snapshot_request()))
    node.service_link()
    got = snaps(frames(uart))
    check([s[0] for s in got] == ZONES, "every zone, in order: %r" % got)
    check(("s1.stack", True, [UID]) in got, "the current settled state: %r" % got)
    uart.sim_feed(wire.encode_frame(5, wire.MSG_CMD_SNAPSHOT, 41,
                                    wire.pack_snapshot_request("s1.stack")))
    node.service_link()
    check(snaps(frames(uart)) == [("s1.stack", True, [UID])], "one zone")
    uart.sim_feed(wire.encode_frame(5, wire.MSG_CMD_SNAPSHOT, 42,
                                    wire.pack_snapshot_request("nowhere")))
    uart.sim_feed(wire.encode_frame(5, wire.MSG_CMD_SNAPSHOT, 43, b"\x09ab"))
    node.service_link()
    check(frames(uart) == [] and node.config_errors == 2, "unknown zone / bad payload counted")
    print("PASS snapshot_request_all_and_one")


def case_refresh_in_turn():
    node, uart, field, clock = rig({"refresh_ms": 500})
    node.boot()
    field.add(0, UID)
    settle(node, clock)
    frames(uart)
    seen = []
    for _ in range(3):
        clock.advance(500)
        node.step()
        seen += [s[0] for s in snaps(frames(uart))]
    # Every zone once, in the zones' order (from wherever the turn had got to while the
    # zone settled: how many refreshes that took depends on the scan order).
    turn = ZONES.index(seen[0]) if seen and seen[0] in ZONES else 0
    check(seen == ZONES[turn:] + ZONES[:turn], "one zone per refresh_ms, in turn: %r" % seen)
    print("PASS refresh_in_turn")


def case_rs485_request_answered_at_the_poll():
    node, uart, _field, clock = rig(transport="rs485")
    node.boot()
    settle(node, clock)
    uart.sim_feed(wire.encode_frame(5, wire.MSG_POLL, 1))
    node.service_link()
    frames(uart)
    uart.sim_feed(wire.encode_frame(5, wire.MSG_CMD_SNAPSHOT, 2, wire.pack_snapshot_request()))
    node.service_link()
    check(frames(uart) == [], "silent until polled")
    uart.sim_feed(wire.encode_frame(5, wire.MSG_POLL, 3))
    node.service_link()
    check([s[0] for s in snaps(frames(uart))] == ZONES, "the burst carries every zone")
    print("PASS rs485_request_answered_at_the_poll")


if __name__ == "__main__":
    globals()["case_" + sys.argv[1]]()
