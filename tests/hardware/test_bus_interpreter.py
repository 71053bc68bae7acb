"""BusInterpreter: frames -> domain events, without a port or a clock."""

from __future__ import annotations

import pytest

from pokertable.firmware import wire
from pokertable.hardware.events import (
    Alert,
    CardRemoved,
    CardSeen,
    ChipsSettled,
    HardwareEvent,
    NodeDown,
    NodeRebooted,
    NodeUp,
)
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry


def uid(n: int) -> bytes:
    return bytes.fromhex("e0040100") + n.to_bytes(4, "big")


class Node:
    """Plays one node's side: frames with its own running sequence number."""

    def __init__(self, interp: BusInterpreter, node: int, seq: int = 0) -> None:
        self.interp, self.node, self.seq = interp, node, seq

    def send(self, msg_type: int, payload: bytes, at_ms: int) -> list[HardwareEvent]:
        events = self.interp.on_frame(self.node, msg_type, self.seq, payload, at_ms)
        self.seq = (self.seq + 1) & 0xFFFF
        return events

    def birth(self, at_ms: int = 0) -> list[HardwareEvent]:
        payload = wire.pack_birth(self.node, "1.0", "sim", ["seat3.bet", "seat3.cards", "board"])
        return self.send(wire.MSG_BIRTH, payload, at_ms)

    def snapshot(self, zone: str, uids: list[bytes], at_ms: int, settled: bool = True
                 ) -> list[HardwareEvent]:
        return self.send(wire.MSG_SNAPSHOT, wire.pack_snapshot(zone, settled, uids), at_ms)


@pytest.fixture
def chips(registry: TagRegistry) -> TagRegistry:
    for n in range(1, 6):
        registry.add_chip(uid(n), denomination=100, chip_set="club", colour="black")
    for n in range(6, 9):
        registry.add_chip(uid(n), denomination=500, chip_set="club", colour="purple")
    registry.add_card(uid(50), rank="A", suit="s", deck_id="red")
    registry.add_card(uid(51), rank="K", suit="h", deck_id="red")
    return registry


def test_settled_snapshot_is_one_motion_with_arrived_and_left(chips: TagRegistry) -> None:
    node = Node(BusInterpreter(chips), 1)
    assert isinstance(node.birth()[0], NodeUp)
    [first] = node.snapshot("seat3.bet", [uid(1), uid(2), uid(6)], 100)
    assert isinstance(first, ChipsSettled)
    assert (first.zone, first.seat, first.at_ms) == ("seat3.bet", 3, 100)
    assert sorted(c.denomination for c in first.arrived) == [100, 100, 500]
    assert first.left == () and first.arrived_value == 700
    [second] = node.snapshot("seat3.bet", [uid(1), uid(7)], 200)  # 2 and 6 out, 7 in
    assert isinstance(second, ChipsSettled)
    assert [c.uid for c in second.arrived] == [uid(7).hex()]
    assert sorted(c.uid for c in second.left) == [uid(2).hex(), uid(6).hex()]
    assert second.left_value == 600


def test_unsettled_snapshots_do_not_count_chips(chips: TagRegistry) -> None:
    node = Node(BusInterpreter(chips), 1)
    node.birth()
    assert node.snapshot("seat3.bet", [uid(1)], 100, settled=False) == []
    [event] = node.snapshot("seat3.bet", [uid(1), uid(2)], 150)
    assert isinstance(event, ChipsSettled) and len(event.arrived) == 2


def test_foreign_uid_raises_alert_and_is_never_counted(chips: TagRegistry) -> None:
    node = Node(BusInterpreter(chips), 1)
    node.birth()
    events = node.snapshot("seat3.bet", [uid(999)], 100)
    assert [type(e) for e in events] == [Alert]
    alert = events[0]
    assert isinstance(alert, Alert)
    assert (alert.code, alert.zone, alert.uid) == ("foreign_uid", "seat3.bet", uid(999).hex())
    # It leaves again: still nothing counted, no second alert.
    assert node.snapshot("seat3.bet", [], 200) == []
    # Mixed pile: only the real chip is counted.
    events = node.snapshot("seat3.bet", [uid(1), uid(998)], 300)
    settled = [e for e in events if isinstance(e, ChipsSettled)]
    assert [len(s.arrived) for s in settled] == [1]
    assert [e.code for e in events if isinstance(e, Alert)] == ["foreign_uid"]


def test_removed_and_retired_chips_alert_and_are_not_counted(chips: TagRegistry) -> None:
    chips.set_chip_status(uid(6), "removed_denomination")
    chips.set_chip_status(uid(7), "retired")
    node = Node(BusInterpreter(chips), 1)
    node.birth()
    events = node.snapshot("seat3.bet", [uid(6), uid(7)], 100)
    codes = sorted(e.code for e in events if isinstance(e, Alert))
    assert codes == ["removed_chip", "retired_chip"]
    assert not [e for e in events if isinstance(e, ChipsSettled)]
    assert node.snapshot("seat3.bet", [], 200) == []  # leaving does not un-count anything


def test_card_zones_report_seen_and_removed(chips: TagRegistry) -> None:
    node = Node(BusInterpreter(chips), 1)
    node.birth()
    [seen] = node.snapshot("seat3.cards", [uid(50)], 100, settled=False)
    assert isinstance(seen, CardSeen)
    assert (seen.rank, seen.suit, seen.deck_id, seen.seat) == ("A", "s", "red", 3)
    events = node.snapshot("seat3.cards", [uid(51)], 200)
    assert [type(e) for e in events] == [CardRemoved, CardSeen]
    chip_in_card_zone = node.snapshot("board", [uid(1)], 300)
    assert [e.code for e in chip_in_card_zone if isinstance(e, Alert)] == ["misplaced_tag"]


def test_resent_frame_is_not_a_second_event(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips)
    node = Node(interp, 1)
    node.birth()
    payload = wire.pack_snapshot("seat3.bet", True, [uid(1)])
    assert len(interp.on_frame(1, wire.MSG_SNAPSHOT, 5, payload, 100)) == 1
    assert interp.on_frame(1, wire.MSG_SNAPSHOT, 5, payload, 110) == []
    assert interp.duplicates == 1


def test_heartbeat_timeout_then_node_comes_back(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips, heartbeat_timeout_ms=1600)
    node = Node(interp, 4)
    node.birth(at_ms=0)
    node.send(wire.MSG_HEARTBEAT, wire.pack_heartbeat(1000, 50, 0, 0), 1000)
    assert interp.tick(2600) == []
    events = interp.tick(2700)
    assert [type(e) for e in events] == [NodeDown, Alert]
    assert isinstance(events[1], Alert) and events[1].code == "node_down"
    assert interp.tick(3000) == []  # reported once
    back = node.send(wire.MSG_HEARTBEAT, wire.pack_heartbeat(3000, 50, 0, 0), 3100)
    assert [type(e) for e in back] == [NodeUp]
    assert isinstance(back[0], NodeUp) and back[0].zones == ("seat3.bet", "seat3.cards", "board")


def test_birth_with_restarted_seq_is_a_reboot_but_rebirth_is_not(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips)
    node = Node(interp, 2)
    node.birth()
    for t in range(10):
        node.send(wire.MSG_HEARTBEAT, wire.pack_heartbeat(t, 1, 0, 0), t)
    assert node.birth(at_ms=20) == []  # answer to CMD_REBIRTH: seq keeps counting
    node.seq = 0
    [event] = node.birth(at_ms=30)
    assert isinstance(event, NodeRebooted) and (event.last_seq, event.new_seq) == (11, 0)


def test_reboot_keeps_zone_view_so_chips_are_not_counted_twice(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips)
    node = Node(interp, 2)
    node.birth()
    node.snapshot("seat3.bet", [uid(1), uid(2)], 10)
    node.seq = 0
    node.birth(at_ms=20)
    assert node.snapshot("seat3.bet", [uid(1), uid(2)], 30) == []


def test_frame_from_unknown_node_asks_for_birth(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips)
    events = interp.on_frame(9, wire.MSG_HEARTBEAT, 77, wire.pack_heartbeat(5, 1, 0, 0), 0)
    assert [type(e) for e in events] == [NodeUp]
    assert interp.take_commands() == [(9, wire.MSG_CMD_REBIRTH, b"")]
    assert interp.take_commands() == []


def test_garbage_burst_alerts_once_per_window(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips, garbage_burst_errors=3, garbage_window_ms=1000)
    assert interp.on_decode_errors(2, 0) == []
    [alert] = interp.on_decode_errors(1, 100, "/dev/pts/9")
    assert isinstance(alert, Alert) and alert.code == "garbage_burst"
    assert "/dev/pts/9" in alert.message
    assert interp.on_decode_errors(5, 200) == []
    assert interp.on_decode_errors(1, 5000) == []  # a lone error later is not a burst


def test_bad_payload_and_unknown_zone_alerts_name_the_field(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips)
    Node(interp, 1).birth()
    [bad] = interp.on_frame(1, wire.MSG_SNAPSHOT, 1, b"\x05seat", 10)
    assert isinstance(bad, Alert) and bad.code == "bad_payload" and "zone" in bad.message
    payload = wire.pack_snapshot("seat99.bet", True, [uid(1)])
    [zone_alert] = interp.on_frame(1, wire.MSG_SNAPSHOT, 2, payload, 20)
    assert isinstance(zone_alert, Alert) and zone_alert.code == "unknown_zone"


def test_pi_commands_echoed_on_the_bus_are_ignored(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips)
    assert interp.on_frame(3, wire.MSG_POLL, 0, b"", 0) == []
    assert not interp.node_is_up(3)


def test_reboot_after_a_long_uptime_is_seen_despite_seq_wrap_arithmetic(
    chips: TagRegistry,
) -> None:
    interp = BusInterpreter(chips)
    node = Node(interp, 2, seq=39_999)
    node.birth()  # first contact in the middle of a long life
    [event] = Node(interp, 2, seq=0).birth(at_ms=50)  # seq 0 looks "after" 39999 mod 2**16
    assert isinstance(event, NodeRebooted)


def test_a_sequence_wrapping_from_65535_to_0_is_no_gap_and_asks_for_nothing(
    chips: TagRegistry,
) -> None:
    interp = BusInterpreter(chips)
    node = Node(interp, 4, seq=65_533)
    node.birth()
    interp.take_commands()
    for at_ms in (100, 200, 300, 400):  # seq 65534, 65535, 0, 1: one frame after another
        heartbeat = wire.pack_heartbeat(10_000 + at_ms, 40, 0, 0)
        assert node.send(wire.MSG_HEARTBEAT, heartbeat, at_ms) == []
    assert node.seq == 2
    assert (interp.gaps, interp.resyncs) == (0, 0)
    assert interp.take_commands() == []  # no snapshot asked for, no rebirth


def test_a_birth_answering_rebirth_at_the_wrap_is_no_reboot(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips)
    node = Node(interp, 4, seq=65_534)
    node.birth()
    node.send(wire.MSG_HEARTBEAT, wire.pack_heartbeat(10_000, 40, 0, 0), 100)  # seq 65535
    assert node.birth(at_ms=200) == []  # seq 0 counts on from 65535: the same life
    assert (interp.gaps, interp.resyncs) == (0, 0)
    assert (4, wire.MSG_CMD_REBIRTH, b"") not in interp.take_commands()


def test_lost_birth_reboot_is_seen_from_uptime_going_backwards(chips: TagRegistry) -> None:
    interp = BusInterpreter(chips)
    node = Node(interp, 5)
    node.birth()
    node.send(wire.MSG_HEARTBEAT, wire.pack_heartbeat(50_000, 40, 0, 0), 100)
    node.seq = 3  # the reset's BIRTH (seq 0) and first snapshots were lost to noise
    [event] = node.send(wire.MSG_HEARTBEAT, wire.pack_heartbeat(1_000, 40, 0, 0), 200)
    assert isinstance(event, NodeRebooted) and event.last_seq == -1
    assert interp.take_commands() == [
        (5, wire.MSG_CMD_SNAPSHOT, b""),  # seq 1 -> 3: frames were lost
        (5, wire.MSG_CMD_REBIRTH, b""),
    ]
    # Uptime near the u32 limit wrapping to 0 is not a reset.
    node.send(wire.MSG_HEARTBEAT, wire.pack_heartbeat(0xFFFF_FF00, 40, 0, 0), 300)
    assert node.send(wire.MSG_HEARTBEAT, wire.pack_heartbeat(100, 40, 0, 0), 400) == []
