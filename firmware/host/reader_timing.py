"""Reader-node timing model: bet latency and stack settle time on simulated time.

    MICROPYPATH=firmware/host:firmware .venv/bin/micropython firmware/host/reader_timing.py [trials]

Runs the real node (PN5180 driver, ISO 15693 anticollision, zone scanner, Node) of a
three-seat node (nine antennas: seatN.bet/stack/cards) on the datasheet PN5180 fake and a
`FakeClock`. Time passes only by the costs the model charges, calibrated to an RP2040 at
125 MHz under MicroPython (assumed until docs/hardware-test-plan.md H2 measures them):
40 µs of interpreter and driver time around each SPI transfer plus its bits at 2 MHz
(`machine.SPI_CALL_US`), 4 µs per pin access (`machine.PIN_US`), 60 µs per node loop
turn besides its bus traffic (`LOOP_US`), and the RF air times of ISO/IEC 15693-3 at
26.48 kbit/s (`sim_field`). Prints one JSON line: the bet latency (a 10-chip bet pushed
into a bet zone at a random moment while 40-chip stacks sit in the stack zones, until the
node sends the settled snapshot that holds it), the settle time of a 40-chip stack put
down, the time until a stack that 10 chips left for its seat's bet zone is reported
settled without them, and the ISO 15693 air-time floor of one inventory of the same tags
(no host time).
Arguments after the trial count override settings for experiments, e.g.
`confirm=1 slice_ms=150 change_slice_ms=150 bet_settle_ms=300 present_after=1`.
"""

import json
import random
import sys

import machine
from machine import SPI, UART, Pin
from sim_field import (
    READER_BYTE_US,
    READER_EOF_US,
    READER_SOF_US,
    T1_US,
    T2_US,
    TAG_BIT_US,
    TAG_EOF_US,
    TAG_SOF_US,
    FakePn5180,
    SimField,
)

import node_config
import wire
from antenna_mux import AntennaMux
from clock import FakeClock
from iso15693 import GUARD_US, Iso15693Reader
from link import SerialLink
from node import Node
from pn5180 import Pn5180
from zone_scanner import ZoneScanner

LOOP_US = 60
SEATS = 3
STACK = 40
BET = 10
RX_TIMEOUT_US = 797


def uid(zone, i):
    return bytes((0xE0, 0x04, 0x01, zone, 0x12, (i * 97) & 0xFF, (i * 7) & 0xFF, (i * 37) & 0xFF))


def air_floor_us(n):
    """ISO 15693 air time to inventory n tags at best: the guard time, then 16-slot
    rounds in which no two tags ever collide, one answer per tag (and t2 after it), the
    empty slots' timeouts; no STAY QUIET, no host time. What any reader on this air
    interface needs for one inventory; the node needs two to confirm a new chip."""
    request = READER_SOF_US + 5 * READER_BYTE_US + READER_EOF_US  # INVENTORY + CRC
    answer = T1_US + TAG_SOF_US + 12 * 8 * TAG_BIT_US + TAG_EOF_US + T2_US
    rounds = max(1, (n + 15) // 16)
    empty = rounds * 16 - n
    slots = rounds * (request + 15 * READER_EOF_US) + n * answer + empty * RX_TIMEOUT_US
    return GUARD_US + slots


KNOBS = {}  # experiments: name=value on the command line


def build(present_after, absent_after, settle_ms):
    clock = FakeClock(1000)
    machine.sim_clock = clock
    pins = [Pin(6 + i, Pin.OUT) for i in range(4)]

    def channel():
        return sum(pins[i].value() << i for i in range(4))

    cs, busy, rst = Pin(17, Pin.OUT), Pin(20, Pin.IN), Pin(21, Pin.OUT)
    spi = SPI(0, baudrate=2000000)
    field = SimField(channel, clock=clock)
    spi.sim_attach(FakePn5180(field, cs, busy, rst, clock))
    clock.advance(10)
    chip = Pn5180(spi, cs, busy, rst, clock)
    chip.reset()
    zones = []
    for s in range(SEATS):
        for k, kind in enumerate(("bet", "stack", "cards")):
            zones.append({"name": "seat%d.%s" % (s + 1, kind), "channel": s * 3 + k})
    cfg = node_config.validate({"zones": zones, "present_after": present_after,
                                "absent_after": absent_after, "settle_ms": settle_ms,
                                "refresh_ms": 0, "heartbeat_ms": 600000})
    reader = Iso15693Reader(chip)
    if "confirm" in KNOBS:
        reader.confirm = bool(KNOBS["confirm"])
    scanner = ZoneScanner(reader, AntennaMux(pins), node_config.zone_list(cfg),
                          clock, present_after, absent_after, settle_ms,
                          KNOBS.get("bet_present_after"),
                          KNOBS.get("bet_settle_ms", cfg["bet_settle_ms"]))
    if "slice_ms" in KNOBS:
        scanner.slice_ms = KNOBS["slice_ms"]
    if "change_slice_ms" in KNOBS:
        scanner.change_slice_ms = KNOBS["change_slice_ms"]
    uart = UART(1)
    node = Node(SerialLink(uart, 1), scanner, clock, cfg, recover=chip.reset)
    return clock, field, node, uart


def run_until(clock, node, uart, zone, want, limit_ms=30000, flagged=None):
    """Step the node until it sends a settled snapshot of zone holding exactly `want`;
    `flagged` (a list) collects when a snapshot of the zone said incomplete."""
    dec = wire.FrameDecoder()
    parts = {}
    end = clock.ticks_ms() + limit_ms
    while clock.ticks_ms() < end:
        node.step()
        clock.advance_us(LOOP_US)
        for f in dec.feed(uart.sim_take_tx() or b""):
            if f[1] != wire.MSG_SNAPSHOT:
                continue
            z, settled, uids, incomplete, part = wire.unpack_snapshot_part(f[3])
            if z == zone and incomplete and flagged is not None:
                flagged.append(clock.ticks_ms())
            if z != zone or not settled:
                continue
            if part is not None:  # join the numbered parts of one generation
                _gen, index, count = part
                if index == 0:
                    parts = {}
                parts[index] = uids
                if len(parts) < count:
                    continue
                uids = [u for k in range(count) for u in parts[k]]
            if sorted(uids) == want:
                return clock.ticks_us()
    raise AssertionError("zone %s never settled with %d tags" % (zone, len(want)))


def idle(clock, node, uart, us):
    """Let the node run on for `us` (its scan moves on: the next event lands at a random
    point of the scan cycle)."""
    end = clock.ticks_us() + us
    while clock.ticks_us() < end:
        node.step()
        clock.advance_us(LOOP_US)
    uart.sim_take_tx()


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def main(trials):
    random.seed(28)
    clock, field, node, uart = build(KNOBS.get("present_after", 2), 3, 300)
    for s in range(SEATS):
        for i in range(STACK):
            field.add(s * 3 + 1, uid(s * 3 + 1, i))
    node.boot()
    run_until(clock, node, uart, "seat%d.stack" % SEATS,
              sorted(uid(SEATS * 3 - 2, i) for i in range(STACK)), 60000)
    bets = []
    for t in range(trials):
        seat = t % SEATS
        ch = seat * 3
        idle(clock, node, uart, random.getrandbits(22))  # up to 4 s: any point of the cycle
        chips = [uid(ch, 100 + i) for i in range(BET)]
        t0 = clock.ticks_us()
        for c in chips:
            field.add(ch, c)
        bets.append((run_until(clock, node, uart, "seat%d.bet" % (seat + 1), sorted(chips))
                     - t0) // 1000)
        field.clear(ch)
        run_until(clock, node, uart, "seat%d.bet" % (seat + 1), [])
    settles = []
    for t in range(max(3, trials // 4)):
        seat = t % SEATS
        ch = seat * 3 + 1
        field.clear(ch)
        run_until(clock, node, uart, "seat%d.stack" % (seat + 1), [])
        chips = [uid(ch, 200 + i) for i in range(STACK)]
        idle(clock, node, uart, random.getrandbits(22))
        t0 = clock.ticks_us()
        for c in chips:
            field.add(ch, c)
        settles.append((run_until(clock, node, uart, "seat%d.stack" % (seat + 1), sorted(chips))
                        - t0) // 1000)
    # A bet taken from the stack: 10 of the seat's 40 chips leave its stack zone for its
    # bet zone at once, until the stack's settled snapshot holds the 30 left.
    takes = []
    for t in range(max(3, trials // 4)):
        seat = t % SEATS
        ch = seat * 3 + 1
        stack = [uid(ch, 200 + i) for i in range(STACK)]
        idle(clock, node, uart, random.getrandbits(22))
        t0 = clock.ticks_us()
        for c in stack[:BET]:
            field.remove(ch, c)
            field.add(ch - 1, c)
        takes.append((run_until(clock, node, uart, "seat%d.stack" % (seat + 1),
                                sorted(stack[BET:])) - t0) // 1000)
        field.clear(ch - 1)
        for c in stack[:BET]:
            field.add(ch, c)
        run_until(clock, node, uart, "seat%d.stack" % (seat + 1), sorted(stack))
        idle(clock, node, uart, 1000000)  # the emptied bet zone settles meanwhile
    print(json.dumps({
        "bet_p50_ms": percentile(bets, 50), "bet_p95_ms": percentile(bets, 95),
        "bet_min_ms": min(bets), "bet_max_ms": max(bets), "bets": len(bets),
        "settle_p50_ms": percentile(settles, 50), "settle_min_ms": min(settles),
        "settle_max_ms": max(settles),
        "settles": len(settles),
        "take_p50_ms": percentile(takes, 50), "take_min_ms": min(takes),
        "take_max_ms": max(takes), "takes": len(takes),
        "air_floor_bet_ms": round(air_floor_us(BET) / 1000, 1),
        "air_floor_stack_ms": round(air_floor_us(STACK) / 1000, 1),
    }))


if __name__ == "__main__":
    for _arg in sys.argv[2:]:
        _k, _v = _arg.split("=")
        KNOBS[_k] = int(_v)
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
