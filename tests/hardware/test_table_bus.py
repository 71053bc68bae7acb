"""TableBus: several ports, commands routed to the node's port, RS-485 bus reopened after unplug."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from hw_testkit import CHIP, PolledNodes, Pty

from pokertable.firmware import wire
from pokertable.hardware.bus import BusConfig, TableBus
from pokertable.hardware.clock import MonotonicClock
from pokertable.hardware.events import ChipsSettled, HardwareEvent, NodeUp
from pokertable.hardware.registry import TagRegistry


def next_of(bus: TableBus, kind: type, timeout: float = 5.0) -> HardwareEvent:
    while True:
        event = bus.events.get(timeout=timeout)
        if isinstance(event, kind):
            return event


def test_point_to_point_ports_and_command_routing(
    pty_factory: Callable[[], Pty], registry: TagRegistry
) -> None:
    a, b = pty_factory(), pty_factory()
    bus = TableBus(registry, MonotonicClock(), BusConfig(ports=(a.path, b.path)))
    bus.start()
    try:
        # Opening a port flushes its input: speak only once both ports are open.
        for supervisor in bus.supervisors.values():
            assert supervisor.wait_connected(timeout=5.0)
        a.write(wire.encode_frame(1, wire.MSG_BIRTH, 0, wire.pack_birth(1, "1", "t", ["board"])))
        b.write(wire.encode_frame(2, wire.MSG_BIRTH, 0, wire.pack_birth(2, "1", "t", ["muck"])))
        ups = {next_of(bus, NodeUp).node, next_of(bus, NodeUp).node}  # type: ignore[attr-defined]
        assert ups == {1, 2}
        assert bus.send(2, wire.MSG_CMD_LED, wire.pack_led(3, "blink"))
        assert not bus.send(7, wire.MSG_CMD_PING)  # never heard of node 7
        [(node, msg_type, _, payload)] = wire.FrameDecoder().feed(b.read_available(2.0))
        assert (node, msg_type, wire.unpack_led(payload)) == (2, wire.MSG_CMD_LED, (3, 2))
        assert a.read_available(0.2) == b""  # nothing went to node 1's port
    finally:
        bus.stop()


def test_rs485_bus_polls_and_comes_back_after_unplug(
    tmp_path: Path, pty_factory: Callable[[], Pty], registry: TagRegistry
) -> None:
    registry.add_chip(CHIP, denomination=1000)
    link = tmp_path / "ttyRS485"
    first = pty_factory()
    os.symlink(first.path, link)
    nodes = PolledNodes(first)
    nodes.start()
    config = BusConfig(ports=(str(link),), rs485_addresses=(1, 2), response_window_s=0.05,
                       backoff_max_s=0.1)
    bus = TableBus(registry, MonotonicClock(), config)
    bus.start()
    try:
        motion = next_of(bus, ChipsSettled)
        assert isinstance(motion, ChipsSettled) and motion.arrived_value == 1000
        os.unlink(link)
        first.close()
        nodes.join(2)
        supervisor = bus.supervisors[str(link)]
        second = pty_factory()
        os.symlink(second.path, link)
        again = PolledNodes(second)
        again.start()
        try:
            # The reopened bus is polled again, every address in turn, on the new port.
            deadline = time.monotonic() + 60.0  # a stall limit for a loaded machine
            while len(again.polls_seen) < 4 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert again.polls_seen[:4] == [1, 2, 1, 2]
            assert supervisor.connections == 2
        finally:
            again.stop.set()
            again.join(2)
    finally:
        bus.stop()
        nodes.stop.set()
