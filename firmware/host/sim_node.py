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

POKERTABLE_SIM_CLOCK=virtual runs the same loop on simulated time (`pokertable demo`):
every SPI transfer and pin access costs what it costs on a board (machine.sim_clock), a
wait the firmware announces (field off, guard time, a busy chip) is skipped at once, and
once every zone has read the field as it now is and settled, the node has nothing left
to find out: it then sleeps on its pty and stdin. Its clock never lags the real one, so
heartbeats keep at least their real pace. A change to the field is read in a few milliseconds of
CPU instead of the ~0.5 s a board takes; the frames and their order are the firmware's.
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

import machine
from machine import SPI, Pin
from sim_field import FakePn5180, SimField

import node_config
from antenna_mux import AntennaMux
from clock import FakeClock, SystemClock, ticks_add, ticks_diff
from iso15693 import Iso15693Reader
from link import Rs485Link, SerialLink
from node import Node
from pn5180 import Pn5180
from zone_scanner import ZoneScanner

_STEP_MS = 1  # idle gap between zone scans; POKERTABLE_SIM_STEP_MS overrides it
_YIELD_US = 300  # the fake sleeps this long when polled while the chip is busy
_VMIN = 6  # index of VMIN in the termios control-character list
_TURN_US = 50  # simulated time: a loop turn that cost nothing else (interpreter overhead)
_IDLE_WAKE_MS = 1000  # simulated time, settled field: look for due work at least this often


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


class VirtualClock(FakeClock):
    """Simulated time: the hardware and the node's waits move it, and it never lags the
    real clock: `pace()`, once per loop turn, adds whatever real time passed beyond what
    the turn cost in simulated time (all of it while the node sleeps, some when the
    machine is too busy to run the node), so heartbeats never come later than on a board.
    """

    def __init__(self) -> None:
        super().__init__(0)
        self._real = SystemClock()
        self._real_mark = self._real.ticks_us()
        self._virtual_mark = self.now_us

    def pace(self) -> None:
        real = self._real.ticks_us()
        behind = ticks_diff(real, self._real_mark) - (self.now_us - self._virtual_mark)
        if behind > 0:
            self.now_us += behind
        self._real_mark = real
        self._virtual_mark = self.now_us


class WaitRecorder:
    """The reader as the scanner sees it, noting what each exchange said it waits for.

    The firmware's scan yields after each RF exchange with the microseconds it still has
    to wait (0: it polls the chip). On simulated time the node skips that wait at once.
    """

    def __init__(self, reader: Any) -> None:
        self._reader = reader
        self.wait_us = 0

    def scan_steps(self, channel: int = 0) -> Any:
        job = self._reader.scan_steps(channel)
        while True:
            try:
                wait = next(job)
            except StopIteration as done:
                self.wait_us = 0
                return done.value
            self.wait_us = wait or 0
            yield wait

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reader, name)


class SkippingPn5180(FakePn5180):
    """The fake chip on simulated time: a driver that polls BUSY while the chip works is
    moved on to the moment it is done (or to its next event), instead of spinning one
    simulated pin read at a time through a 450 us LOAD_RF_CONFIG."""

    def _idle_wait(self) -> None:
        now = self._now()
        until = self._busy_until
        if self._events and self._events[0][0] < until:
            until = self._events[0][0]
        if until > now:
            self.clock.sleep_us(until - now)


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
        self.virtual = os.getenv("POKERTABLE_SIM_CLOCK") == "virtual"
        self.vclock: VirtualClock | None = None
        if self.virtual:
            self.vclock = VirtualClock()
            shim: Any = machine  # the host shim: its sim_ hooks are not in the board's stubs
            shim.sim_clock = self.vclock  # bus traffic costs simulated time
            self.clock: Any = self.vclock
        else:
            self.clock = SystemClock()
        # Zone index -> scans of it the field edits wait for (simulated time: see _settled)
        self.unread: dict[int, int] = {}
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
        chip_model = SkippingPn5180 if self.virtual else FakePn5180
        self.fake = chip_model(self.field, cs, busy, rst, clock, yield_us=_YIELD_US)
        spi.sim_attach(self.fake)
        chip = Pn5180(spi, cs, busy, rst, clock)
        chip.reset()
        reader: Any = Iso15693Reader(chip)
        if self.virtual:
            reader = self.waits = WaitRecorder(reader)
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
            bet_settle_ms=cfg["bet_settle_ms"],
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
        # A fresh scanner has read nothing yet: every zone must be read before it rests.
        self.unread = {i: 1 for i in range(len(self.zones))}
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
                self._edited(ch)
            elif op == "CLEAR" and len(parts) == 2:
                ch = self._zone(parts[1])
                self.field.clear(ch)
                self._edited(ch)
            else:
                raise ValueError("command: cannot parse %r" % line.strip())
        except ValueError as e:
            _err(str(e))
        return True

    def _edited(self, ch: int) -> None:
        """The field of zone `ch` changed: a scan that started before may have missed it,
        so the zone is not read until two more of its scans have ended."""
        scans = self.node.scanner.zones[ch].scans
        self.unread[ch] = max(self.unread.get(ch, 0), scans + 2)

    def _settled(self) -> bool:
        """Every zone read since its field last changed, nothing pending, all settled:
        from here on each scan would repeat the last one until the field changes."""
        scanner = self.node.scanner
        if scanner.scanning:
            return False
        for i, zone in enumerate(scanner.zones):
            if zone.scans < self.unread.get(i, 0) or zone.hits or zone.misses:
                return False
            if not zone.settled:
                return False
        self.unread = {}
        return True

    def _housekeeping_in_ms(self) -> int:
        """Simulated ms until the node's heartbeat or anti-entropy refresh is due."""
        node, cfg, now = self.node, self.node.cfg, self.clock.ticks_ms()
        due = [_IDLE_WAKE_MS]
        last_hb = getattr(node, "_hb_ms", None)
        if last_hb is not None:
            due.append(ticks_diff(ticks_add(last_hb, cfg["heartbeat_ms"]), now))
        period, last_refresh = cfg.get("refresh_ms", 0), getattr(node, "_refresh_ms", None)
        if period and last_refresh is not None:
            due.append(ticks_diff(ticks_add(last_refresh, period), now))
        return max(0, min(due))

    def _zone(self, name: str) -> int:
        if name not in self.zones:
            raise ValueError("zone: %r not one of %s" % (name, ",".join(self.zones)))
        return self.zones.index(name)

    def run(self) -> None:
        if self.vclock is not None:
            self.run_simulated(self.vclock)
            return
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


    def _serve(self, events: list[Any]) -> bool:
        """Handle what poll() returned; False when the node must stop."""
        for fd, ev in events:
            if fd != 0:
                if ev & (select.POLLHUP | select.POLLERR):
                    return False  # the Pi closed its end of the pty for good
                self.node.service_link()
            elif ev & select.POLLIN:
                line = sys.stdin.readline()
                if not line or not self.command(line):
                    return False  # stdin closed (the driver is gone) or QUIT
            elif ev & (select.POLLHUP | select.POLLERR):
                return False
        return True

    def run_simulated(self, clock: VirtualClock) -> None:
        """The loop of run() on simulated time: no real wait while there is work to do.

        Between a field edit and the moment every zone has read it and settled, the node
        scans flat out, jumping its clock over each wait; then it sleeps for real until
        the Pi or the field has something for it, or a heartbeat is due.
        """
        poller = select.poll()
        poller.register(0, select.POLLIN)
        poller.register(self.port.fd, select.POLLIN)
        next_scan = clock.ticks_ms()
        while True:
            resting = self._settled()
            wait = self._housekeeping_in_ms() if resting else 0
            events = poller.poll(wait)
            clock.pace()
            if resting and self._housekeeping_in_ms() > 0:
                if not self._serve(events):
                    return
                continue  # only the pty or stdin woke us
            if not self._serve(events):
                return
            scanner = self.node.scanner
            if not scanner.scanning:
                idle = ticks_diff(next_scan, clock.ticks_ms())
                if idle > 0:
                    clock.advance(idle)  # the idle gap between zone scans, skipped
            before = clock.ticks_us()
            self.node.step()
            if scanner.scanning:
                self._skip_wait(before)
            else:
                next_scan = ticks_add(clock.ticks_ms(), self.step_ms)

    def _skip_wait(self, before: int) -> None:
        """After one exchange: jump over the wait the firmware announced, or to the chip's
        next event while it polls a busy chip; a turn always costs a little time."""
        clock = self.clock
        wait = self.waits.wait_us
        events = self.fake._events
        if wait > 0:
            clock.advance_us(wait)
        elif events and events[0][0] > clock.ticks_us():
            clock.advance_us(events[0][0] - clock.ticks_us())
        if clock.ticks_us() == before:
            clock.advance_us(_TURN_US)

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
