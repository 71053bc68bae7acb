"""RS-485 polling master over a real pty: nodes answer only when polled; ENOTTY is tolerated."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
import serial
from hw_testkit import CHIP, EventLog, PolledNodes, Pty

from pokertable.hardware import rs485
from pokertable.hardware.clock import FakeClock
from pokertable.hardware.events import ChipsSettled, NodeDown, NodeUp
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.rs485 import Rs485Master, configure_direction
from pokertable.hardware.transport import BusSession, open_port


@pytest.fixture
def bus(pty: Pty) -> Iterator[PolledNodes]:
    nodes = PolledNodes(pty)
    nodes.start()
    yield nodes
    nodes.stop.set()
    nodes.join(2)


def test_direction_control_tolerates_enotty_and_logs_once(
    pty: Pty, caplog: pytest.LogCaptureFixture
) -> None:
    rs485._logged_ports.discard(pty.path)  # pty numbers are reused across tests
    ser = open_port(pty.path)
    try:
        with caplog.at_level(logging.WARNING, logger="pokertable.hardware.rs485"):
            assert configure_direction(ser) == "none"
            assert configure_direction(ser) == "none"
        assert len(caplog.records) == 1
        assert "Inappropriate ioctl" in caplog.records[0].getMessage()
        assert ser.rs485_mode is None  # the failed kernel setting was not left behind
        ser.write(b"still usable\x00")
    finally:
        ser.close()
    loop = serial.serial_for_url("loop://")
    assert configure_direction(loop) == "none"


def test_master_polls_each_address_and_collects_answers(
    pty: Pty, bus: PolledNodes, registry: TagRegistry, fake_clock: FakeClock,
    event_log: EventLog,
) -> None:
    registry.add_chip(CHIP, denomination=1000)
    session = BusSession(BusInterpreter(registry), fake_clock, event_log)
    ser = open_port(pty.path)
    try:
        master = Rs485Master(ser, [1, 2, 3], session, response_window_s=0.1)
        assert master.direction == "none"
        first = master.poll_cycle()
        assert first == {1: 3, 2: 2, 3: 0}  # BIRTH+SNAPSHOT+ACK, BIRTH+ACK, silence
        assert bus.polls_seen == [1, 2, 3]
        assert master.timeouts == 1
        ups = sorted(e.node for e in event_log.of(NodeUp))  # type: ignore[attr-defined]
        assert ups == [1, 2]
        [motion] = event_log.of(ChipsSettled)
        assert motion.seat == 2 and motion.arrived_value == 1000  # type: ignore[attr-defined]

        bus.mute[2] = True  # node 2 dies: answers stop, the master's health check notices
        for _ in range(10):
            fake_clock.advance(400)
            master.poll_cycle()
            if event_log.of(NodeDown):
                break
        assert [e.node for e in event_log.of(NodeDown)] == [2]  # type: ignore[attr-defined]
        assert bus.polls_seen[:6] == [1, 2, 3, 1, 2, 3]
    finally:
        ser.close()


def test_master_rejects_bad_addresses(pty: Pty, registry: TagRegistry) -> None:
    session = BusSession(BusInterpreter(registry), FakeClock(), lambda e: None)
    ser = open_port(pty.path)
    try:
        with pytest.raises(ValueError, match="addresses"):
            Rs485Master(ser, [0, 1], session)
    finally:
        ser.close()
