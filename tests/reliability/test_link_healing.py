"""The Pi side of the self-healing link, without a port or a clock (issue #12).

Gap -> re-send request, noise on a port -> re-send request (rate-limited, and once
more after the noise), a reset whose BIRTH was lost, a node that beats but does not
scan, LEDs sent again to a node that lost them, and a port that never opens.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from pokertable.controller.app.config import (
    AppConfig,
    LevelSection,
    PathSection,
    PlayerSection,
    TableSection,
)
from pokertable.controller.app.table_app import TableApp, hardware_to_input
from pokertable.firmware import wire
from pokertable.hardware.clock import FakeClock
from pokertable.hardware.events import Alert, ChipsSettled, HardwareEvent, NodeRebooted
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.transport import BusSession, PortSupervisor

CHIP = bytes.fromhex("e004010000000001")
RESYNC = (3, wire.MSG_CMD_SNAPSHOT, b"")


def _registry() -> TagRegistry:
    registry = TagRegistry(":memory:")
    registry.add_chip(CHIP.hex(), denomination=100, chip_set="club", colour="black")
    return registry


class Node:
    def __init__(self, interp: BusInterpreter, node: int = 3) -> None:
        self.interp, self.node, self.seq = interp, node, 0

    def send(self, msg_type: int, payload: bytes, at_ms: int) -> list[HardwareEvent]:
        events = self.interp.on_frame(self.node, msg_type, self.seq, payload, at_ms)
        self.seq = (self.seq + 1) & 0xFFFF
        return events

    def birth(self, zones: tuple[str, ...] = ("seat1.bet",)) -> None:
        self.send(wire.MSG_BIRTH, wire.pack_birth(self.node, "1", "sim", list(zones)), 0)

    def bet(self, uids: list[bytes], at_ms: int) -> list[HardwareEvent]:
        return self.send(wire.MSG_SNAPSHOT, wire.pack_snapshot("seat1.bet", True, uids), at_ms)

    def beat(self, at_ms: int, scans: int = 40, crc_errors: int = 0) -> list[HardwareEvent]:
        return self.send(wire.MSG_HEARTBEAT,
                         wire.pack_heartbeat(at_ms, scans, crc_errors, 0), at_ms)


def test_sequence_gap_asks_for_every_zone_and_the_resend_heals_the_view() -> None:
    interp = BusInterpreter(_registry())
    node = Node(interp)
    node.birth()
    node.bet([], 10)
    assert interp.take_commands() == []
    node.seq += 1  # the settled snapshot with the chip was lost on the line
    assert node.beat(500) == []
    assert interp.take_commands() == [RESYNC] and interp.gaps == 1
    assert interp.zone_view("seat1.bet") == frozenset()  # still wrong ...
    [moved] = node.bet([CHIP], 520)  # ... until the node's answer to CMD_SNAPSHOT
    assert isinstance(moved, ChipsSettled) and moved.arrived_value == 100
    assert interp.zone_view("seat1.bet") == {CHIP.hex()}


def test_resync_requests_are_rate_limited_and_one_follows_the_last_trouble() -> None:
    interp = BusInterpreter(_registry(), resync_holdoff_ms=200)
    node = Node(interp)
    node.birth()
    interp.request_resync(3, 1_000)
    interp.request_resync(3, 1_050)
    interp.request_resync(3, 1_150)
    assert interp.take_commands() == [RESYNC]  # one now, the rest wait for the holdoff
    node.bet([], 1_100)  # the first request is answered
    interp.tick(1_150)
    assert interp.take_commands() == []
    interp.tick(1_200)  # the noise has stopped: the pending request goes out
    assert interp.take_commands() == [RESYNC]
    node.bet([], 1_250)
    interp.tick(2_000)
    assert interp.take_commands() == []  # answered, nothing pending any more


def test_a_request_lost_on_the_way_is_asked_again_until_answered() -> None:
    interp = BusInterpreter(_registry(), resync_holdoff_ms=200, heartbeat_timeout_ms=10_000)
    node = Node(interp)
    node.birth(("seat1.bet", "board"))
    interp.request_resync(3, 1_000)
    assert interp.take_commands() == [RESYNC]
    interp.tick(1_100)
    assert interp.take_commands() == []
    interp.tick(1_200)  # no snapshot came back: the request itself was lost
    assert interp.take_commands() == [RESYNC]
    node.send(wire.MSG_SNAPSHOT, wire.pack_snapshot("board", True, []), 1_250)
    interp.tick(1_400)  # another zone's refresh is no answer: seat1.bet still missing
    assert interp.take_commands() == [RESYNC]
    node.bet([], 1_450)  # the node answers the last request with every zone
    node.send(wire.MSG_SNAPSHOT, wire.pack_snapshot("board", True, []), 1_460)
    interp.tick(1_800)
    assert interp.take_commands() == []


def test_corrupt_frames_on_a_port_ask_its_nodes_again(tmp_path: Path) -> None:
    clock = FakeClock(start_ms=5_000)
    sent: list[tuple[int, int, bytes]] = []
    session = BusSession(BusInterpreter(_registry()), clock, lambda _e: None)
    session.command_sender = lambda n, t, p: sent.append((n, t, p)) is None
    birth = (3, wire.MSG_BIRTH, 0, wire.pack_birth(3, "1", "sim", ["seat1.bet"]))
    other = (4, wire.MSG_BIRTH, 0, wire.pack_birth(4, "1", "sim", ["board"]))
    session.deliver([birth], port="/dev/ttyA")
    session.deliver([other], port="/dev/ttyB")
    commands = session.deliver([], new_errors=2, port="/dev/ttyA")
    assert commands == [RESYNC]  # node 3 only: node 4 is on another port
    clock.advance(50)
    assert session.deliver([], new_errors=1, port="/dev/ttyA") == []  # holdoff
    clock.advance(200)
    session.tick()  # the watch's tick sends the request that waited
    assert sent == [RESYNC]


def test_reset_with_its_birth_lost_is_seen_from_the_sequence_going_back() -> None:
    interp = BusInterpreter(_registry())
    node = Node(interp)
    node.birth()
    node.seq = 900
    node.bet([CHIP], 100)
    interp.take_commands()
    interp.take_state_wanted()
    node.seq = 2  # rebooted: BIRTH (0) and the first snapshot (1) were lost
    [event] = node.bet([CHIP], 200)
    assert isinstance(event, NodeRebooted) and (event.last_seq, event.new_seq) == (900, 2)
    assert (3, wire.MSG_CMD_REBIRTH, b"") in interp.take_commands()
    assert interp.take_state_wanted() == {3}  # its LEDs must be sent again
    assert node.beat(300) == []  # one reset, one event


def test_node_that_beats_but_never_scans_is_stale_once() -> None:
    interp = BusInterpreter(_registry(), stale_after_beats=2, stale_after_ms=5_000,
                            heartbeat_timeout_ms=60_000)
    node = Node(interp)
    node.birth()
    assert node.beat(1_000, scans=0) == []
    assert node.beat(2_000, scans=0) == []  # a slow scan of a big pile: not yet
    assert node.beat(5_000, scans=0) == []
    [alert] = node.beat(6_000, scans=0)  # five seconds without one finished zone scan
    assert isinstance(alert, Alert) and alert.code == "node_stale" and alert.node == 3
    assert "seat1.bet" in alert.message and "5000 ms" in alert.message
    assert node.beat(7_000, scans=0) == []  # said once
    assert node.beat(8_000, scans=30) == []  # scanning again
    node.beat(9_000, scans=0)
    assert [e.code for e in node.beat(14_000, scans=0) if isinstance(e, Alert)] == ["node_stale"]


def test_dropped_commands_and_reboots_send_the_leds_again() -> None:
    clock = FakeClock(start_ms=0)
    session = BusSession(BusInterpreter(_registry()), clock, lambda _e: None)
    refreshed: list[int] = []
    session.state_refresher = refreshed.append
    hb = wire.pack_heartbeat
    session.deliver([(3, wire.MSG_BIRTH, 0, wire.pack_birth(3, "1", "sim", ["seat1.bet"]))])
    session.deliver([(3, wire.MSG_HEARTBEAT, 1, hb(1_000, 40, 0, 0))])
    session.deliver([(3, wire.MSG_HEARTBEAT, 2, hb(2_000, 40, 0, 0))])
    assert refreshed == []
    session.deliver([(3, wire.MSG_HEARTBEAT, 3, hb(3_000, 40, 1, 0))])  # it dropped one of ours
    assert refreshed == [3]


def _app(tmp_path: Path) -> TableApp:
    config = AppConfig(
        table=TableSection(venue="v", id="t1", seats=10, first_button=1),
        levels=[LevelSection(number=1, small_blind=100, big_blind=200, chip_unit=25)],
        players=[PlayerSection(seat=1, name="Ann", stack=5000)],
        registry=PathSection(path=str(tmp_path / "reg.sqlite3")),
        journal=PathSection(path=str(tmp_path / "journal.jsonl")),
    )
    app = TableApp(config)
    app.recover()
    return app


def test_reader_port_that_never_opens_alerts_the_room(tmp_path: Path) -> None:
    """Issue #12 item 9: a log warning was all; now one alert reaches the room's events."""
    events: list[HardwareEvent] = []
    seen = threading.Event()

    def sink(event: HardwareEvent) -> None:
        events.append(event)
        seen.set()

    session = BusSession(BusInterpreter(_registry()), FakeClock(start_ms=0), sink)
    missing = str(tmp_path / "ttyUSB-not-there")
    supervisor = PortSupervisor(missing, session, backoff_max_s=0.05)
    supervisor.start()
    try:
        assert seen.wait(30), "no alert for the missing port"
        stall = time.monotonic() + 30
        while supervisor.failed_opens < 3:  # it keeps retrying ...
            assert time.monotonic() < stall, "the supervisor stopped retrying the port"
            seen.clear()
            seen.wait(0.05)
    finally:
        supervisor.stop()
    alerts = [e for e in events if isinstance(e, Alert)]
    assert [a.code for a in alerts] == ["port_missing"]  # ... but says it once
    assert missing in alerts[0].message
    app = _app(tmp_path)
    item = hardware_to_input(alerts[0], 1_000)
    assert item is not None
    outputs = app.process(item)
    [event] = [o for o in outputs if o.channel == "event"]
    assert event.payload["kind"] == "port_missing"
    assert missing in event.payload["rulings"][0]["text"]
    app.close()


def test_a_node_that_lost_its_leds_gets_the_lit_seats_again() -> None:
    from pokertable.hardware.bus import BusConfig, TableBus

    bus = TableBus(_registry(), FakeClock(start_ms=0), BusConfig(ports=("/dev/never",)))
    sent: list[tuple[int, int, bytes]] = []
    bus.send = lambda node, t, p=b"": sent.append((node, t, p)) is None  # type: ignore[method-assign]
    bus.session.node_ports[3] = "/dev/never"
    bus.show_led(2, "on")
    bus.show_led(4, "blink")
    bus.show_led(2, "off")
    assert [wire.unpack_led(p) for _n, _t, p in sent] == [(2, 1), (4, 2), (2, 0)]
    sent.clear()
    assert bus.session.state_refresher is not None
    bus.session.state_refresher(3)  # it rebooted, or its heartbeat counted lost frames
    assert sent == [(3, wire.MSG_CMD_LED, wire.pack_led(0, "off")),
                    (3, wire.MSG_CMD_LED, wire.pack_led(4, "blink"))]
