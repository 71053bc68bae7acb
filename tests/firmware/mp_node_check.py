"""Node main loop and link checks under MicroPython (run by test_node_link.py).

The real Node, ZoneScanner, Iso15693Reader, Pn5180 and links, over the host machine
shim: UART is a byte pipe, the PN5180 and its tags are simulated, the clock is fake.
"""

import sys

import machine
import node_config
import wire
from antenna_mux import AntennaMux
from clock import FakeClock
from iso15693 import Iso15693Reader
from link import Rs485Link, SerialLink
from machine import SPI, UART, Pin
from node import Node
from pn5180 import Pn5180
from sim_field import FakePn5180, SimField
from zone_scanner import ZoneScanner

UID = b"\xe0\x04\x01\x00\x00\x00\x00\x01"


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


class GuardedUart(UART):
    """A UART that records whether the RS-485 driver was enabled for every write."""

    def __init__(self, de):
        super().__init__(1)
        self.de = de
        self.writes_without_de = 0

    def write(self, buf):
        if not self.de.value():
            self.writes_without_de += 1
        return super().write(buf)


def rig(transport="uart", cfg_update=None):
    clock = FakeClock(1000)
    cs, busy, rst = Pin(17, Pin.OUT), Pin(20, Pin.IN), Pin(21, Pin.OUT)
    mux_pins = [Pin(6, Pin.OUT), Pin(7, Pin.OUT)]

    def channel():
        return mux_pins[0].value() | (mux_pins[1].value() << 1)

    machine.sim_clock = clock  # bus traffic costs simulated time
    field = SimField(channel, clock=clock)
    spi = SPI(0, baudrate=2000000)
    fake = FakePn5180(field, cs, busy, rst, clock)
    spi.sim_attach(fake)
    chip = Pn5180(spi, cs, busy, rst, clock)
    chip.reset()
    c = {
        "node_id": 5,
        "zones": [{"name": "s1.bet", "channel": 0}, {"name": "s1.stack", "channel": 1}],
        "present_after": 1,
        "absent_after": 1,
        "settle_ms": 100,
        "heartbeat_ms": 1000,
    }
    if cfg_update:
        c.update(cfg_update)
    cfg = node_config.validate(c)
    scanner = ZoneScanner(
        Iso15693Reader(chip),
        AntennaMux(mux_pins),
        node_config.zone_list(cfg),
        clock,
        cfg["present_after"],
        cfg["absent_after"],
        cfg["settle_ms"],
    )
    de = Pin(2, Pin.OUT)
    if transport == "rs485":
        uart = GuardedUart(de)
        link = Rs485Link(uart, 5, de)
    else:
        uart = UART(0)
        link = SerialLink(uart, 5)
    node = Node(link, scanner, clock, cfg, "PN5180", recover=chip.reset)
    return node, uart, field, fake, clock, de


def scan_zones(node, clock, n=1):
    """Run the node until it finished n more zone scans (each turn costs 60 us of loop)."""
    target = node.scanner.scans + n
    while node.scanner.scans < target:
        node.step()
        clock.advance_us(60)


def frames(uart):
    return wire.FrameDecoder().feed(uart.sim_take_tx())


def pi(uart, node, msg_type, seq, payload=b""):
    uart.sim_feed(wire.encode_frame(node, msg_type, seq, payload))


def types(fs):
    return [wire.MSG_NAMES[f[1]] for f in fs]


def case_p2p_birth_snapshots_heartbeat():
    node, uart, field, _fake, clock, _de = rig()
    node.boot()
    fs = frames(uart)
    check(types(fs) == ["BIRTH", "SNAPSHOT", "SNAPSHOT"], "boot: %r" % types(fs))
    check([f[2] for f in fs] == [0, 1, 2], "seq must start at 0")
    check(
        wire.unpack_birth(fs[0][3]) == (5, "0.1.0", "PN5180", ["s1.bet", "s1.stack"]),
        "birth payload",
    )
    field.add(1, UID)
    got = []
    for _ in range(8):
        clock.advance(40)
        scan_zones(node, clock)
        got += frames(uart)
    snaps = [wire.unpack_snapshot(f[3]) for f in got if f[1] == wire.MSG_SNAPSHOT]
    check(("s1.stack", False, [UID]) in snaps, "change snapshot missing: %r" % snaps)
    check(("s1.stack", True, [UID]) in snaps, "settled snapshot missing: %r" % snaps)
    check(("s1.bet", True, []) in snaps, "empty zone never settled")
    got += frames(uart)
    start = node.uptime_ms
    clock.advance(1000)
    node.step()
    hb = [wire.unpack_heartbeat(f[3]) for f in got + frames(uart) if f[1] == wire.MSG_HEARTBEAT]
    check(1 <= len(hb) <= 2, "one heartbeat per period: %r" % hb)
    uptime, rate, crc, resets = hb[-1]
    check(uptime == node.uptime_ms and uptime >= start + 1000, "uptime %r" % (hb[-1],))
    check(rate >= 1 and crc == 0 and resets == 0, "heartbeat %r" % (hb[-1],))
    print("PASS p2p_birth_snapshots_heartbeat")


def case_p2p_commands():
    node, uart, _field, _fake, _clock, _de = rig()
    node.boot()
    frames(uart)
    pi(uart, 5, wire.MSG_CMD_PING, 77)
    pi(uart, 6, wire.MSG_CMD_PING, 78)  # another node's: ignored
    pi(uart, 0, wire.MSG_CMD_LED, 79, wire.pack_led(3, "blink"))
    pi(uart, 5, wire.MSG_CMD_CONFIGURE, 80, wire.pack_configure(b'{"settle_ms": 50}'))
    pi(uart, 5, wire.MSG_CMD_CONFIGURE, 81, wire.pack_configure(b'{"settle_ms": -5}'))
    pi(uart, 5, wire.MSG_POLL, 82)
    uart.sim_feed(b"\x13\x37junk\x00")
    node.step()
    fs = [f for f in frames(uart) if f[1] == wire.MSG_ACK]
    acked = [wire.unpack_ack(f[3])[0] for f in fs]
    check(sorted(acked) == [77, 79, 80, 82], "acks %r" % acked)
    check(node.led_state == {3: wire.LED_BLINK}, "led state")
    check(node.scanner.settle_ms == 50 and node.config_errors == 1, "configure")
    check(node.link.crc_errors + node.link.decoder.framing_errors == 1, "junk not counted")
    pi(uart, 5, wire.MSG_CMD_REBIRTH, 83)
    node.step()
    check(types(frames(uart))[:3] == ["BIRTH", "SNAPSHOT", "SNAPSHOT"], "rebirth")
    print("PASS p2p_commands")


def case_rs485_only_when_polled():
    node, uart, field, _fake, clock, de = rig("rs485")
    edges = []
    de.sim_on_change(lambda pin, old, new: edges.append(new))
    node.boot()
    field.add(0, UID)
    for _ in range(6):
        clock.advance(50)
        scan_zones(node, clock)
    check(uart.sim_take_tx() == b"", "node talked on the bus unpolled")
    check(node.link.pending() >= 3, "nothing queued")
    pi(uart, 9, wire.MSG_POLL, 10)  # someone else polled
    node.step()
    check(uart.sim_take_tx() == b"" and not edges, "answered another node's poll")
    pi(uart, 5, wire.MSG_POLL, 11)
    node.step()
    fs = frames(uart)
    check(types(fs)[0] == "BIRTH" and "SNAPSHOT" in types(fs), "poll answer %r" % types(fs))
    check(edges == [1, 0], "DE edges %r" % edges)
    check(uart.writes_without_de == 0, "wrote with the driver off")
    check(de.value() == 0, "bus left driven")
    # Snapshots coalesce: the queued state is the latest, one frame per zone.
    snaps = [wire.unpack_snapshot(f[3]) for f in fs if f[1] == wire.MSG_SNAPSHOT]
    zones = [s[0] for s in snaps]
    check(len(zones) == len(set(zones)), "stale snapshots queued: %r" % zones)
    check(("s1.bet", True, [UID]) in snaps, "latest bet state missing: %r" % snaps)
    while node.link.pending():
        pi(uart, 5, wire.MSG_POLL, 12)
        node.step()
        frames(uart)
    pi(uart, 5, wire.MSG_POLL, 13)
    node.step()
    fs = frames(uart)
    check(
        len(fs) == 1 and fs[0][1] == wire.MSG_ACK and wire.unpack_ack(fs[0][3]) == (13,),
        "empty poll -> ACK",
    )
    print("PASS rs485_only_when_polled")


def case_reader_timeout_counts_reset():
    node, uart, _field, fake, clock, _de = rig()
    node.boot()
    fake.stuck_busy = True
    # each BUSY read costs simulated time (machine.sim_clock): the deadline passes
    while not node.reader_errors:
        node.step()
    fake.stuck_busy = False
    check(
        node.reader_errors == 1 and node.resets == 1,
        "errors %d resets %d" % (node.reader_errors, node.resets),
    )
    # The reset itself met the stuck BUSY: the reader is out of service (BIRTH says so)
    # and is reset again after READER_RETRY_MS, which the heartbeat counts.
    check(node.reader_fault is not None, "reader fault not recorded")
    clock.advance(2000)
    node.step()
    hb = [wire.unpack_heartbeat(f[3]) for f in frames(uart) if f[1] == wire.MSG_HEARTBEAT]
    check(hb and hb[-1][3] == 2 == node.resets, "heartbeat resets %r" % hb)
    print("PASS reader_timeout_counts_reset")


def case_rs485_burst_budget_acks_last():
    node, uart, field, _fake, clock, _de = rig("rs485")
    node.boot()
    for i in range(25):
        field.add(0, bytes((0xE0, 4, 1, 0, 0, 0, i, 0x11)))
        field.add(1, bytes((0xE0, 4, 1, 0, 0, 1, i, 0x22)))
    for _ in range(6):
        clock.advance(50)
        scan_zones(node, clock)
    pi(uart, 5, wire.MSG_CMD_PING, 40)
    node.step()
    sizes = []
    seen = []
    while node.link.pending():
        pi(uart, 5, wire.MSG_POLL, 41)
        node.step()
        raw = uart.sim_take_tx()
        sizes.append(len(raw))
        fs = wire.FrameDecoder().feed(raw)
        acks = [i for i, f in enumerate(fs) if f[1] == wire.MSG_ACK]
        check(not acks or acks == list(range(len(fs) - len(acks), len(fs))), "ACK not last")
        seen += fs
    big = max(wire.encoded_size(len(f[3])) for f in seen)
    check(max(sizes) <= node.link.burst_bytes + big + 1, "burst too long: %r" % sizes)
    check(len(sizes) >= 2, "everything went in one burst: %r" % sizes)
    check(wire.pack_ack(40) in [f[3] for f in seen if f[1] == wire.MSG_ACK], "PING never acked")
    seqs = [f[2] for f in seen]
    check(seqs == list(range(seqs[0], seqs[0] + len(seqs))), "seq gaps %r" % seqs)
    print("PASS rs485_burst_budget_acks_last")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    for n in sys.argv[1:] or sorted(CASES):
        CASES[n]()
