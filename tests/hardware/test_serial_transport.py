"""Point-to-point transport over real pseudo-terminals, frames written by CPython's wire codec."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hw_testkit import EventLog, Pty

from pokertable.firmware import wire
from pokertable.hardware.clock import FakeClock
from pokertable.hardware.events import Alert, ChipsSettled, NodeDown, NodeRebooted, NodeUp
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.transport import BusSession, NodeLink, PortSupervisor


def uid(n: int) -> bytes:
    return bytes.fromhex("e0040300") + n.to_bytes(4, "big")


def birth(node: int, seq: int) -> bytes:
    return wire.encode_frame(node, wire.MSG_BIRTH, seq,
                             wire.pack_birth(node, "1.0", "sim", ["seat1.bet", "seat1.stack"]))


def snapshot(node: int, seq: int, zone: str, uids: list[bytes]) -> bytes:
    return wire.encode_frame(node, wire.MSG_SNAPSHOT, seq, wire.pack_snapshot(zone, True, uids))


@pytest.fixture
def chip_registry(registry: TagRegistry) -> TagRegistry:
    for n in range(1, 11):
        registry.add_chip(uid(n), denomination=25 if n <= 5 else 100, chip_set="t")
    return registry


@pytest.fixture
def session(chip_registry: TagRegistry, fake_clock: FakeClock, event_log: EventLog) -> BusSession:
    return BusSession(BusInterpreter(chip_registry), fake_clock, event_log)


@pytest.fixture
def connect(session: BusSession) -> Iterator[Callable[[str], PortSupervisor]]:
    supervisors: list[PortSupervisor] = []

    def start(url: str) -> PortSupervisor:
        sup = PortSupervisor(url, session, backoff_initial_s=0.01, backoff_max_s=0.1)
        supervisors.append(sup)
        sup.start()
        assert sup.wait_connected(), f"could not open {url}"
        return sup

    yield start
    for sup in supervisors:
        sup.stop()


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def settled(log: EventLog, count: int) -> bool:
    return log.wait_for(lambda es: len([e for e in es if isinstance(e, ChipsSettled)]) >= count)


def test_frames_become_events_and_a_resent_frame_is_not_a_second_event(
    pty: Pty, connect: Callable[[str], PortSupervisor], event_log: EventLog
) -> None:
    connect(pty.path)
    frame = snapshot(1, 1, "seat1.bet", [uid(1), uid(6)])
    pty.write(birth(1, 0) + frame + frame)  # the node resent seq 1
    pty.write(snapshot(1, 2, "seat1.bet", [uid(1), uid(6), uid(7)]))
    assert settled(event_log, 2)
    assert event_log.wait_for(lambda es: len(es) >= 3)
    motions = event_log.of(ChipsSettled)
    assert [len(m.arrived) for m in motions] == [2, 1]  # type: ignore[attr-defined]
    assert [type(e) for e in event_log.events] == [NodeUp, ChipsSettled, ChipsSettled]


def test_corrupt_and_truncated_frames_give_no_event_and_resync(
    pty: Pty, connect: Callable[[str], PortSupervisor], event_log: EventLog
) -> None:
    connect(pty.path)
    pty.write(birth(1, 0))
    bad_crc = bytearray(snapshot(1, 1, "seat1.bet", [uid(2)]))
    bad_crc[6] ^= 0x20  # flip a bit inside the encoded body
    truncated = snapshot(1, 2, "seat1.bet", [uid(3)])[:-9]  # cut off: runs into next frame
    garbage = b"\x13\x37\x00\xff\xfe\x00"
    good = snapshot(1, 3, "seat1.bet", [uid(4)])
    pty.write(bytes(bad_crc) + truncated + b"\x00" + garbage + good)
    assert settled(event_log, 1)
    [motion] = event_log.of(ChipsSettled)
    assert [c.uid for c in motion.arrived] == [uid(4).hex()]  # type: ignore[attr-defined]
    alerts = [e for e in event_log.of(Alert) if e.code == "garbage_burst"]  # type: ignore[attr-defined]
    assert len(alerts) == 1


def test_truncated_frame_split_across_writes_resyncs(
    pty: Pty, connect: Callable[[str], PortSupervisor], event_log: EventLog
) -> None:
    connect(pty.path)
    frame = snapshot(1, 5, "seat1.stack", [uid(9)])
    pty.write(frame[:4])  # the node reset mid-frame: the rest never comes
    pty.write(frame)  # first delimiter ends the broken frame; next valid frame decodes
    pty.write(snapshot(1, 6, "seat1.stack", [uid(9), uid(10)]))
    assert settled(event_log, 1)
    assert event_log.wait_for(
        lambda es: sum(len(e.arrived) for e in es if isinstance(e, ChipsSettled)) == 2)


def test_heartbeat_timeout_raises_node_down_within_two_seconds(
    pty: Pty, connect: Callable[[str], PortSupervisor], session: BusSession,
    fake_clock: FakeClock, event_log: EventLog,
) -> None:
    connect(pty.path)
    pty.write(birth(7, 0))
    assert event_log.wait_for(lambda es: any(isinstance(e, NodeUp) for e in es))
    last_heard = fake_clock.ticks_ms()
    while not event_log.of(NodeDown):
        fake_clock.advance(100)  # the HeartbeatWatch interval
        session.tick()
        assert fake_clock.ticks_ms() - last_heard <= 2000, "no NodeDown within 2 s"
    [down] = event_log.of(NodeDown)
    assert down.node == 7  # type: ignore[attr-defined]
    assert any(isinstance(e, Alert) and e.code == "node_down" for e in event_log.events)


def test_birth_with_restarted_seq_is_node_rebooted(
    pty: Pty, connect: Callable[[str], PortSupervisor], event_log: EventLog
) -> None:
    connect(pty.path)
    hb = wire.pack_heartbeat(1000, 40, 0, 0)
    pty.write(birth(3, 0) + b"".join(wire.encode_frame(3, wire.MSG_HEARTBEAT, s, hb)
                                     for s in range(1, 6)))
    pty.write(birth(3, 0))
    assert event_log.wait_for(lambda es: any(isinstance(e, NodeRebooted) for e in es))
    [reboot] = event_log.of(NodeRebooted)
    assert (reboot.last_seq, reboot.new_seq) == (5, 0)  # type: ignore[attr-defined]


def test_unknown_node_is_asked_for_birth_over_the_port(
    pty: Pty, connect: Callable[[str], PortSupervisor], event_log: EventLog
) -> None:
    connect(pty.path)
    pty.write(wire.encode_frame(9, wire.MSG_HEARTBEAT, 40, wire.pack_heartbeat(9, 9, 0, 0)))
    frames = wire.FrameDecoder().feed(pty.read_available(timeout=3.0))
    assert [(f[0], f[1]) for f in frames] == [(9, wire.MSG_CMD_REBIRTH)]


def test_unplug_and_replug_reconnects(
    tmp_path: Path, pty_factory: Callable[[], Pty], connect: Callable[[str], PortSupervisor],
    event_log: EventLog,
) -> None:
    link = tmp_path / "ttyNODE1"  # like a udev /dev/serial/by-id symlink
    first = pty_factory()
    os.symlink(first.path, link)
    sup = connect(str(link))
    first.write(birth(1, 0) + snapshot(1, 1, "seat1.bet", [uid(1)]))
    assert settled(event_log, 1)

    os.unlink(link)
    first.close()  # unplug: the reader gets EIO and stops
    assert wait_until(lambda: sup.failed_opens >= 2), "the supervisor should keep retrying"
    assert not sup.connected.is_set()
    second = pty_factory()
    os.symlink(second.path, link)  # replug: the adapter comes back under the same name
    assert sup.wait_connected(count=2, timeout=5.0)
    second.write(snapshot(1, 2, "seat1.bet", [uid(1), uid(2)]))
    assert settled(event_log, 2)
    assert sup.connections == 2


def test_a_frame_written_at_once_reaches_the_decoder_in_one_piece(
    pty_factory: Callable[[], Pty], connect: Callable[[str], PortSupervisor],
    event_log: EventLog, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # pyserial's own loop handed the first byte on alone, then the rest: two passes through
    # the decoder and the bus per frame. One read takes what has arrived.
    chunks: list[bytes] = []
    received = NodeLink.data_received

    def spy(link: NodeLink, data: bytes) -> None:
        chunks.append(bytes(data))
        received(link, data)

    monkeypatch.setattr(NodeLink, "data_received", spy)
    pty = pty_factory()
    connect(pty.path)
    frames = birth(1, 0) + snapshot(1, 1, "seat1.bet", [uid(1)])
    pty.write(frames)
    assert settled(event_log, 1)
    assert chunks == [frames]
