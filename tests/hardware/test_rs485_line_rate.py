"""The RS-485 master at the real line rate (issue #28, goal 2): windows, bursts, 10 nodes.

The bus is `timed_bus.TimedBus`: bytes take their 86.8 µs each at 115,200 Bd, two talkers
at once corrupt each other, time is virtual. The nodes are the real firmware (`Node`,
`ZoneScanner`, `Rs485Link`) with a scripted antenna; the Pi is the real `Rs485Master`,
`BusSession` and interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from timed_bus import (
    DePin,
    MasterPort,
    NodePort,
    TimedBus,
    fw_link,
    fw_node,
    node_config,
    zone_scanner,
)

from pokertable.firmware import wire
from pokertable.hardware.events import HardwareEvent
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.rs485 import Rs485Master
from pokertable.hardware.simulator import SyntheticTags
from pokertable.hardware.transport import BusSession

TURN_US = 1_000  # one node loop turn: one RF exchange (docs/wire-protocol.md, bus timing)


class Antenna:
    """What each zone's antenna sees now (a blocking reader: one step is one inventory)."""

    def __init__(self, zones: int) -> None:
        self.seen: dict[int, list[bytes]] = {z: [] for z in range(zones)}
        self.channel = 0
        self.complete = True

    def select(self, channel: int) -> None:
        self.channel = channel

    def scan(self) -> list[bytes]:
        return list(self.seen[self.channel])


@dataclass
class SimNode:
    node: Any
    antenna: Antenna
    port: NodePort
    sent_ok: int = 0


def make_node(bus: TimedBus, node_id: int, zones: list[str], cfg: dict[str, Any]) -> SimNode:
    de = DePin()
    port = NodePort(bus, f"node{node_id}", de)
    antenna = Antenna(len(zones))
    config = node_config.validate(
        dict(cfg, node_id=node_id, transport="rs485",
             zones=[{"name": z, "channel": i} for i, z in enumerate(zones)])
    )
    scanner = zone_scanner.ZoneScanner(antenna, antenna, node_config.zone_list(config), bus.clock,
                                       config["present_after"], config["absent_after"],
                                       config["settle_ms"])
    link = fw_link.Rs485Link(port, node_id, de)
    node = fw_node.Node(link, scanner, bus.clock, config, "PN5180")
    sim = SimNode(node, antenna, port)

    def turn(now: int) -> int:
        node.step()
        return max(now + TURN_US, port.tx_done_at)  # a burst blocks the loop until sent

    node.boot()
    bus.run_loop(turn, first_us=node_id * 97)
    return sim


class Recording(BusSession):
    """The table's session, also counting every node frame that reached the Pi."""

    def __init__(self, registry: TagRegistry, bus: TimedBus) -> None:
        self.events: list[HardwareEvent] = []
        super().__init__(BusInterpreter(registry), bus.clock, self.events.append)
        self.frames = 0
        self.decode_errors = 0

    def deliver(self, frames: list[tuple[int, int, int, bytes]], new_errors: int = 0,
                port: str = "") -> list[Any]:
        self.frames += len(frames)
        self.decode_errors += new_errors
        return super().deliver(frames, new_errors, port)


def chips(start: int, n: int) -> list[bytes]:
    return [SyntheticTags.chip_uid(i) for i in range(start, start + n)]


def registry() -> TagRegistry:
    reg = TagRegistry(":memory:")
    SyntheticTags.enroll(reg, chips={25: 700, 100: 700})
    return reg


def test_a_window_stays_open_while_a_heartbeat_and_a_40_chip_snapshot_arrive() -> None:
    """Wave 2's master closed 5 ms after the heartbeat and polled into the snapshot."""
    bus = TimedBus()
    session = Recording(registry(), bus)
    master = Rs485Master(MasterPort(bus), [1, 2], session, monotonic=bus.clock.monotonic)
    cfg = {"present_after": 1, "absent_after": 1, "settle_ms": 0, "heartbeat_ms": 100,
           "refresh_ms": 0}
    nodes = [make_node(bus, n, [f"seat{n}.stack"], cfg) for n in (1, 2)]
    for n, sim in enumerate(nodes):
        sim.antenna.seen[0] = chips(n * 100, 40)
    for _ in range(30):
        master.poll_cycle()
    sent = sum(s.node.link.frames_sent for s in nodes)
    assert bus.collisions == 0 and session.decode_errors == 0
    assert session.frames == sent  # every frame a node sent was heard
    for n in (1, 2):
        view = session.interpreter.zone_view(f"seat{n}.stack")
        assert view == frozenset(u.hex() for u in chips((n - 1) * 100, 40))


def test_ten_nodes_under_resync_and_anti_entropy_lose_no_frame_and_never_collide() -> None:
    """The must-show of issue #28: 10 nodes, bursts of heartbeat + 60-chip snapshots."""
    bus = TimedBus(115_200)
    session = Recording(registry(), bus)
    addresses = list(range(1, 11))
    master = Rs485Master(MasterPort(bus), addresses, session, monotonic=bus.clock.monotonic)
    cfg = {"present_after": 1, "absent_after": 1, "settle_ms": 50, "heartbeat_ms": 300,
           "refresh_ms": 200}  # anti-entropy five times as often as shipped
    nodes = []
    for n in addresses:
        zones = [f"seat{n}.bet", f"seat{n}.stack"]
        sim = make_node(bus, n, zones, cfg)
        sim.antenna.seen[1] = chips(n * 60, 60)  # a 60-chip stack: two parts on the wire
        nodes.append(sim)
    cycles = 0
    while bus.clock.now_us < 8_000_000:  # eight seconds of table time
        cycles += 1
        if cycles % 5 == 0:  # a bet lands and is taken back: snapshots on every node
            for k, sim in enumerate(nodes):
                bet = chips(1000 + k * 10, 10) if cycles % 10 == 0 else []
                sim.antenna.seen[0] = bet
        if cycles % 7 == 0:  # the Pi asks every node for all its zones (resync burst)
            for n in addresses:
                master.queue_command(n, wire.MSG_CMD_SNAPSHOT, wire.pack_snapshot_request())
        master.poll_cycle()
    sent = sum(s.node.link.frames_sent for s in nodes)
    dropped = sum(s.node.link.dropped for s in nodes)
    assert bus.collisions == 0, f"{bus.collisions} colliding bytes"
    assert bus.undriven == 0  # nobody spoke unpolled
    assert session.decode_errors == 0 and dropped == 0
    assert session.frames == sent > 400  # 0 frames lost
    print(f"10 nodes, {bus.clock.now_us / 1e6:.1f} s: {cycles} poll cycles, {sent} frames, "
          f"{bus.bytes_sent} bytes, 0 collisions")
    for n in addresses:
        assert session.interpreter.zone_view(f"seat{n}.stack") == frozenset(
            u.hex() for u in chips(n * 60, 60))
    assert master.overruns == 0


def test_a_node_that_never_stops_talking_is_cut_off_and_the_others_are_still_heard() -> None:
    """Bad input of issue #28: a babbling node is an overrun, never a stuck bus."""
    bus = TimedBus()
    session = Recording(registry(), bus)
    master = Rs485Master(MasterPort(bus), [1, 2, 3], session, monotonic=bus.clock.monotonic)
    cfg = {"present_after": 1, "absent_after": 1, "settle_ms": 0, "heartbeat_ms": 100,
           "refresh_ms": 0}
    nodes = [make_node(bus, n, [f"seat{n}.bet"], cfg) for n in (1, 3)]
    babbler = NodePort(bus, "node2", DePin())
    babbler.de.level = 1
    decoder = wire.FrameDecoder()
    noise = bytes(range(1, 256)) * 24  # 6 KB: 0.53 s on the wire, over max_reply_s

    def babble(now: int) -> int:
        """Node 2's firmware is stuck: every POLL of it gets half a second of noise."""
        data = babbler.read(4096)
        if data and any(f[0] == 2 and f[1] == wire.MSG_POLL for f in decoder.feed(data)):
            babbler.write(noise)
        return max(now + TURN_US, babbler.tx_done_at)

    bus.run_loop(babble)
    cycles = [master.poll_cycle() for _ in range(4)]
    assert master.overruns == 4  # every window of node 2 ran past max_reply_s
    assert all(c[1] > 0 and c[3] > 0 and c[2] == 0 for c in cycles)  # 1 and 3 always heard
    assert bus.collisions == 0  # the master waited for the noise to end before polling on
    assert session.frames == sum(s.node.link.frames_sent for s in nodes)


def test_a_poll_cut_mid_byte_by_the_master_is_dropped_and_the_bus_goes_on() -> None:
    """Bad input of issue #28: the Pi's port dies mid-frame (a POLL cut inside a byte: the
    receivers get its bits up to the cut, the rest of the byte read as ones). No node
    answers the torn frame, and the next poll cycle hears every node."""
    bus = TimedBus()
    session = Recording(registry(), bus)
    port = MasterPort(bus)
    master = Rs485Master(port, [1, 2], session, monotonic=bus.clock.monotonic)
    cfg = {"present_after": 1, "absent_after": 1, "settle_ms": 0, "heartbeat_ms": 100,
           "refresh_ms": 0}
    nodes = [make_node(bus, n, [f"seat{n}.bet"], cfg) for n in (1, 2)]
    nodes[0].antenna.seen[0] = chips(0, 3)
    poll = b"\x00" + wire.encode_frame(1, wire.MSG_POLL, 7, b"")
    cut = len(poll) // 2
    torn = poll[:cut] + bytes([poll[cut] | 0xF0])  # the high bits lost: idle line = ones
    port.write(torn)
    port.flush()
    bus.advance_to(bus.clock.now_us + 50_000)  # 50 ms: an answer would have started
    assert port.read(4096) == b""  # nobody answered the torn POLL
    assert nodes[0].node.link.polls == 0
    heard = [master.poll_cycle() for _ in range(3)]
    assert all(h[1] > 0 and h[2] > 0 for h in heard[1:])  # both nodes heard again
    assert bus.collisions == 0
    assert session.interpreter.zone_view("seat1.bet") == frozenset(u.hex() for u in chips(0, 3))
