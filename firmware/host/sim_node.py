"""Simulated reader node: the real firmware main loop on the unix port.

    MICROPYPATH=<repo>/firmware/host:<repo>/firmware \\
        .venv/bin/micropython firmware/host/sim_node.py <tty_path> <node_id> <zones_csv>

Everything above the SPI bus is the real firmware (Pn5180 driver, ISO 15693
anticollision, antenna mux, zone scanner, link, Node); below it is the datasheet-faithful
PN5180 and RF field of sim_field.py on the real clock: a zone scan takes as long as on a
board (~30 ms empty, ~0.35 s for 20 chips) and the node serves its pty between exchanges.
The field is edited one command per stdin line:
`ADD <zone> <uid_hex>`, `DEL <zone> <uid_hex>`, `CLEAR <zone>`, `REBOOT`, `QUIT`, and
`STATS`, which prints `STATS polls=<n> mid_scan=<m> scans=<s> violations=<v>` on stdout:
the polls answered, how many of them came while a zone scan was part way through, zone
scans done and datasheet rules the driver broke (the fake's record).
Timing comes from the JSON file named by POKERTABLE_NODE_CONFIG (else defaults);
`"transport": "rs485"` there makes the node speak only when polled (MSG_POLL).
"""

import os
import select
import sys
import termios

try:
    from typing import Any
except ImportError:
    pass
from binascii import unhexlify

from machine import SPI, Pin
from sim_field import FakePn5180, SimField

import node_config
from antenna_mux import AntennaMux
from clock import SystemClock, ticks_add, ticks_diff
from iso15693 import Iso15693Reader
from link import Rs485Link, SerialLink
from node import Node
from pn5180 import Pn5180
from zone_scanner import ZoneScanner

_STEP_MS = 1  # idle gap between zone scans; POKERTABLE_SIM_STEP_MS overrides it
_YIELD_US = 300  # the fake sleeps this long when polled while the chip is busy
_VMIN = 6  # index of VMIN in the termios control-character list


class TtyPort:
    """A raw, non-blocking tty with the UART read/write/any interface."""

    def __init__(self, path: str) -> None:
        self._f = open(path, "r+b")
        self.fd = self._f.fileno()
        termios.setraw(self.fd)  # type: ignore[attr-defined]  # unix port only
        attrs = termios.tcgetattr(self.fd)
        attrs[6][_VMIN] = 0  # read() returns what is there instead of blocking
        termios.tcsetattr(self.fd, termios.TCSANOW, attrs)
        self._poll = select.poll()
        self._poll.register(self.fd, select.POLLIN)

    def any(self) -> int:
        return 1 if self._poll.poll(0) else 0

    def read(self, n: int) -> bytes | None:
        if not self._poll.poll(0):
            return None
        return self._f.read(n) or None

    def write(self, buf) -> int:  # type: ignore[no-untyped-def]
        data = bytes(buf)
        self._f.write(data)
        return len(data)


def _err(msg: str) -> None:
    sys.stderr.write("sim_node: " + msg + "\n")


class SimNode:
    def __init__(self, tty_path: str, node_id: int, zones: list[str]) -> None:
        cfg_path = os.getenv("POKERTABLE_NODE_CONFIG")
        cfg = node_config.load(cfg_path) if cfg_path else node_config.validate({})
        cfg["node_id"] = node_id
        cfg["zones"] = [{"name": z, "channel": i} for i, z in enumerate(zones)]
        self.cfg = node_config.validate(cfg)
        self.zones = zones
        self.step_ms = int(os.getenv("POKERTABLE_SIM_STEP_MS") or _STEP_MS)
        self.port = TtyPort(tty_path)
        bits = 1
        while (1 << bits) < len(zones):
            bits += 1
        self.mux_pins = [Pin(10 + i, Pin.OUT) for i in range(bits)]
        self.clock = SystemClock()
        self.field = SimField(channel=self._channel_from_pins, clock=self.clock)
        self.node = self._boot()

    def _channel_from_pins(self) -> int:
        ch = 0
        for i, pin in enumerate(self.mux_pins):
            if pin.value():
                ch |= 1 << i
        return ch

    def _boot(self) -> Node:
        """Power-on: fresh chip, scanner and link (seq 0); the field stays as it is."""
        cs, busy, rst = Pin(17, Pin.OUT), Pin(20, Pin.IN), Pin(21, Pin.OUT)
        spi: Any = SPI(0)  # the host shim's SPI, with sim_attach
        clock = self.clock
        self.fake = FakePn5180(self.field, cs, busy, rst, clock, yield_us=_YIELD_US)
        spi.sim_attach(self.fake)
        chip = Pn5180(spi, cs, busy, rst, clock)
        chip.reset()
        reader = Iso15693Reader(chip)
        mux = AntennaMux(self.mux_pins)
        cfg = self.cfg
        scanner = ZoneScanner(
            reader,
            mux,
            node_config.zone_list(cfg),
            clock,
            cfg["present_after"],
            cfg["absent_after"],
            cfg["settle_ms"],
        )
        if cfg["transport"] == "rs485":
            # Multi-drop behaviour on the pty: silent until the Pi polls this address.
            link: SerialLink = Rs485Link(self.port, cfg["node_id"], Pin(2, Pin.OUT))
        else:
            link = SerialLink(self.port, cfg["node_id"])
        node = Node(link, scanner, clock, cfg, "PN5180", recover=chip.reset)
        self.mid_scan_polls = 0
        answer = link.on_poll

        def on_poll(seq: int) -> None:
            if scanner.scanning:
                self.mid_scan_polls += 1
            answer(seq)

        link.on_poll = on_poll  # type: ignore[method-assign]
        node.boot()
        return node

    def command(self, line: str) -> bool:
        """Apply one stdin line to the field; False means quit."""
        parts = line.split()
        if not parts:
            return True
        op = parts[0].upper()
        try:
            if op == "QUIT":
                return False
            if op == "STATS":
                sys.stdout.write("STATS polls=%d mid_scan=%d scans=%d violations=%d\n" % (
                    getattr(self.node.link, "polls", 0), self.mid_scan_polls,
                    self.node.scanner.scans, len(self.fake.violations)))
                sys.stdout.flush()
            elif op == "REBOOT":
                self.node = self._boot()
            elif op in ("ADD", "DEL") and len(parts) == 3:
                ch = self._zone(parts[1])
                uid = unhexlify(parts[2])
                if len(uid) != 8:
                    raise ValueError("uid: %s is not an 8-byte ISO 15693 UID" % parts[2])
                if op == "ADD":
                    self.field.add(ch, uid)
                else:
                    self.field.remove(ch, uid)
            elif op == "CLEAR" and len(parts) == 2:
                self.field.clear(self._zone(parts[1]))
            else:
                raise ValueError("command: cannot parse %r" % line.strip())
        except ValueError as e:
            _err(str(e))
        return True

    def _zone(self, name: str) -> int:
        if name not in self.zones:
            raise ValueError("zone: %r not one of %s" % (name, ",".join(self.zones)))
        return self.zones.index(name)

    def run(self) -> None:
        poller = select.poll()
        poller.register(0, select.POLLIN)
        poller.register(self.port.fd, select.POLLIN)
        clock = self.clock
        next_scan = clock.ticks_ms()
        while True:
            # While a zone scan is under way the node runs one RF exchange per turn and
            # looks at the pty between turns; between scans it idles step_ms.
            scanning = self.node.scanner.scanning
            wait = 0 if scanning else max(0, ticks_diff(next_scan, clock.ticks_ms()))
            for fd, ev in poller.poll(wait):
                if fd != 0:
                    if ev & (select.POLLHUP | select.POLLERR):
                        return  # the Pi closed its end of the pty for good
                    self.node.service_link()
                elif ev & select.POLLIN:
                    line = sys.stdin.readline()
                    if not line:
                        return  # stdin closed: the driver is gone
                    if not self.command(line):
                        return
                elif ev & (select.POLLHUP | select.POLLERR):
                    return
            if scanning or ticks_diff(clock.ticks_ms(), next_scan) >= 0:
                self.node.step()
                if not self.node.scanner.scanning:
                    next_scan = ticks_add(clock.ticks_ms(), self.step_ms)


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        _err("usage: sim_node.py <tty_path> <node_id> <zones_csv>")
        return 2
    zones = [z for z in argv[3].split(",") if z]
    try:
        sim = SimNode(argv[1], int(argv[2]), zones)
    except (ValueError, OSError) as e:
        _err(str(e))
        return 2
    sim.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
