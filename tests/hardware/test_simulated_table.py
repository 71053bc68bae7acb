"""End to end: the real firmware under MicroPython on a pty, the Pi's transport on the other end."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hw_testkit import EventLog

from pokertable.controller.cli import main
from pokertable.hardware.clock import MonotonicClock
from pokertable.hardware.events import (
    Alert,
    CardRemoved,
    CardSeen,
    ChipsSettled,
    NodeDown,
    NodeRebooted,
    NodeUp,
)
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.rs485 import Rs485Master
from pokertable.hardware.simulator import (
    ClearZone,
    DealCard,
    NodeSpec,
    PlaceForeignTag,
    PullChips,
    PushChips,
    SimulatorError,
    SyntheticTags,
    TableSimulator,
)
from pokertable.hardware.transport import BusSession, HeartbeatWatch, PortSupervisor, open_port

pytestmark = pytest.mark.slow

SEAT3 = NodeSpec(1, ("seat3.bet", "seat3.stack", "seat3.cards"))
BOARD = NodeSpec(2, ("board", "burn", "muck"))
NODE_CONFIG = {"settle_ms": 400, "heartbeat_ms": 500, "present_after": 2, "absent_after": 2}


class LiveTable:
    def __init__(self, table: TableSimulator, log: EventLog, sups: dict[int, PortSupervisor],
                 session: BusSession) -> None:
        self.table, self.log, self.supervisors, self.session = table, log, sups, session

    def settled(self, count: int, timeout: float = 20.0) -> list[ChipsSettled]:
        assert self.log.wait_for(
            lambda es: sum(isinstance(e, ChipsSettled) for e in es) >= count, timeout
        ), f"expected {count} ChipsSettled, got {self.log.of(ChipsSettled)}"
        return [e for e in self.log.of(ChipsSettled) if isinstance(e, ChipsSettled)]


@pytest.fixture
def live_table(registry: TagRegistry, micropython: Path, event_log: EventLog
               ) -> Iterator[LiveTable]:
    SyntheticTags.enroll(registry)
    session = BusSession(BusInterpreter(registry, heartbeat_timeout_ms=1600), MonotonicClock(),
                         event_log)
    watch = HeartbeatWatch(session)
    with TableSimulator(registry, [SEAT3, BOARD], micropython=micropython,
                        node_config=NODE_CONFIG) as table:
        sups = {n: PortSupervisor(table.port_of(n), session, backoff_initial_s=0.02,
                                  backoff_max_s=0.2) for n in table.nodes}
        for sup in sups.values():
            sup.start()
        watch.start()
        try:
            # Opened after the node booted: the Pi asks for a BIRTH itself if it missed it.
            assert event_log.wait_for(
                lambda es: {e.node for e in es if isinstance(e, NodeUp)} >= {1, 2}, 20.0
            ), f"nodes did not come up: {event_log.events} {table.nodes[1].stderr_tail()}"
            yield LiveTable(table, event_log, sups, session)
        finally:
            watch.stop()
            for sup in sups.values():
                sup.stop()


def test_a_stack_of_25_chips_is_one_chips_settled(live_table: LiveTable) -> None:
    pile = (25,) * 10 + (100,) * 10 + (500,) * 5
    live_table.table.perform(PushChips("seat3.bet", pile))
    [motion] = live_table.settled(1)
    assert motion.zone == "seat3.bet" and motion.seat == 3 and motion.left == ()
    assert Counter(c.denomination for c in motion.arrived) == Counter(pile)
    assert len({c.uid for c in motion.arrived}) == 25
    # Nothing more arrives for the same pile (a quiet second and a half, heartbeats included).
    assert not live_table.log.wait_for(
        lambda es: sum(isinstance(e, ChipsSettled) for e in es) > 1, timeout=1.5)
    assert not live_table.log.of(Alert)


def test_pull_back_deal_and_clear(live_table: LiveTable) -> None:
    table = live_table.table
    table.perform(PushChips("seat3.bet", (100, 100, 500)))
    live_table.settled(1)
    [pulled] = table.perform(PullChips("seat3.bet", (500,)))
    second = live_table.settled(2)[1]
    assert [c.denomination for c in second.left] == [500] and second.arrived == ()

    table.perform(DealCard("seat3.cards", "As"))
    table.perform(DealCard("board", "Kd"))
    assert live_table.log.wait_for(lambda es: len([e for e in es if isinstance(e, CardSeen)]) >= 2)
    seen = {(e.zone, e.rank + e.suit) for e in live_table.log.of(CardSeen)}  # type: ignore[attr-defined]
    assert seen == {("seat3.cards", "As"), ("board", "Kd")}
    table.perform(ClearZone("board"))
    assert live_table.log.wait_for(lambda es: any(isinstance(e, CardRemoved) for e in es))
    [removed] = live_table.log.of(CardRemoved)
    assert (removed.zone, removed.rank, removed.suit) == ("board", "K", "d")  # type: ignore[attr-defined]

    with pytest.raises(SimulatorError, match=r"^denominations:"):
        table.perform(PullChips("seat3.bet", (5000,)))  # none of those lies there
    with pytest.raises(SimulatorError, match=r"^card: As is already on the felt"):
        table.perform(DealCard("muck", "As"))
    with pytest.raises(SimulatorError, match=r"^zone:"):
        table.perform(ClearZone("seat9.bet"))  # no simulated node reads it

    # Like a dealer's rack, the next 500 is the one that rested longest, not the one just pulled.
    [pushed] = table.perform(PushChips("seat3.stack", (500,)))
    assert pushed != pulled
    assert [c.uid for c in live_table.settled(3)[2].arrived] == [pushed]


def test_foreign_chip_alerts_and_is_not_counted(live_table: LiveTable) -> None:
    live_table.table.perform(PlaceForeignTag("seat3.stack", bytes.fromhex("e0041234deadbeef")))
    live_table.table.perform(PushChips("seat3.stack", (1000,)))
    assert live_table.log.wait_for(
        lambda es: any(isinstance(e, Alert) and e.code == "foreign_uid" for e in es), 20.0)
    motions = live_table.settled(1)
    assert sum(m.arrived_value for m in motions) == 1000
    assert all(c.uid != "e0041234deadbeef" for m in motions for c in m.arrived)


def test_node_reboot_and_unplug(live_table: LiveTable) -> None:
    table, log = live_table.table, live_table.log
    table.perform(PushChips("seat3.bet", (25, 25)))
    live_table.settled(1)
    table.nodes[1].reboot()
    assert log.wait_for(lambda es: any(isinstance(e, NodeRebooted) for e in es), 10.0)
    # The chips stayed put through the reset: not counted a second time.
    assert not log.wait_for(lambda es: sum(isinstance(e, ChipsSettled) for e in es) > 1, 1.0)

    bridge = table.nodes[2].bridge
    bridge.unplug()  # pull the board node's USB cable
    assert log.wait_for(lambda es: any(isinstance(e, NodeDown) and e.node == 2 for e in es),
                        5.0)
    downs = [e for e in log.of(NodeDown) if isinstance(e, NodeDown)]
    assert downs[0].silent_ms <= 2000
    bridge.replug()  # the same adapter comes back under the same name
    assert log.wait_for(lambda es: sum(isinstance(e, NodeUp) and e.node == 2 for e in es) >= 2,
                        10.0)
    assert live_table.supervisors[2].connections == 2


def test_rs485_master_polls_the_real_firmware(
    registry: TagRegistry, micropython: Path, event_log: EventLog
) -> None:
    SyntheticTags.enroll(registry)
    session = BusSession(BusInterpreter(registry), MonotonicClock(), event_log)
    with TableSimulator(registry, [SEAT3], micropython=micropython,
                        node_config=NODE_CONFIG) as table:
        ser = open_port(table.port_of(1))
        try:
            master = Rs485Master(ser, [1, 5], session, response_window_s=0.3)
            assert master.direction == "none"  # a pty: no kernel RS-485, no RTS
            # MicroPython takes a while to boot the node (longer on a busy machine): poll
            # until it first answers, then count; the limit only names a node that never did
            for _ in range(300):
                if master.poll_cycle()[1] >= 1:
                    break
            else:
                pytest.fail("node 1 never answered a poll")
            answers = [master.poll_cycle() for _ in range(3)]
        finally:
            ser.close()
    assert all(a[1] >= 1 for a in answers), answers  # node 1 answers every poll
    assert all(a[5] == 0 for a in answers), answers  # nobody lives at address 5
    assert [e.node for e in event_log.of(NodeUp)] == [1]  # type: ignore[attr-defined]


def test_enroll_cli_against_the_real_firmware(
    tmp_path: Path, micropython: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "tags.sqlite"
    scratch = TagRegistry(":memory:")  # the simulator needs a registry; the pad's tags are new
    new_chips = [bytes.fromhex(f"e0040c00{n:08x}") for n in range(20)]
    with TableSimulator(scratch, [NodeSpec(3, ("enroll",))], micropython=micropython,
                        node_config=NODE_CONFIG) as table:
        result: list[int] = []
        cli = threading.Thread(target=lambda: result.append(main(
            ["enroll", "chips", "--denomination", "5000", "--chip-set", "club", "--registry",
             str(db), "--port", table.port_of(3), "--stable-ms", "500", "--timeout-s", "30"])))
        cli.start()
        for uid in new_chips:
            table.perform(PlaceForeignTag("enroll", uid))
        cli.join(30)
    scratch.close()
    assert result == [0], capsys.readouterr()
    registry = TagRegistry(db)
    assert sorted(c.uid for c in registry.chips("club")) == sorted(u.hex() for u in new_chips)
    assert {c.denomination for c in registry.chips("club")} == {5000}
    registry.close()


def test_stud_upcard_pad_is_read_as_its_own_card_zone(registry: TagRegistry, micropython: Path,
                                                     event_log: EventLog) -> None:
    """Stud (issue #30): a seat's upcard pad ``seat3.up`` beside its downcard pad
    ``seat3.cards`` on one node; the real firmware reports each card in its own zone."""
    SyntheticTags.enroll(registry)
    session = BusSession(BusInterpreter(registry, heartbeat_timeout_ms=1600), MonotonicClock(),
                         event_log)
    stud_seat = NodeSpec(1, ("seat3.bet", "seat3.stack", "seat3.cards", "seat3.up"))
    with TableSimulator(registry, [stud_seat], micropython=micropython,
                        node_config=NODE_CONFIG) as table:
        sup = PortSupervisor(table.port_of(1), session, backoff_initial_s=0.02,
                             backoff_max_s=0.2)
        sup.start()
        try:
            assert event_log.wait_for(lambda es: any(isinstance(e, NodeUp) for e in es), 20.0)
            for zone, card in (("seat3.cards", "As"), ("seat3.cards", "Ad"), ("seat3.up", "2c")):
                table.perform(DealCard(zone, card))
            assert event_log.wait_for(
                lambda es: sum(isinstance(e, CardSeen) for e in es) >= 3, 20.0)
            seen = {(e.zone, e.rank + e.suit) for e in event_log.of(CardSeen)}  # type: ignore[attr-defined]
            assert seen == {("seat3.cards", "As"), ("seat3.cards", "Ad"), ("seat3.up", "2c")}
        finally:
            sup.stop()
