"""Issue #28 on the Pi: a node's faults, a zone sent in parts, a zone that cannot complete.

What the node says in BIRTH (zones out of service, a dead reader) and in SNAPSHOT flags
(incomplete inventory, numbered parts) reaches the table as alerts and whole zones, and
`pokertable readers` shows it.
"""

from __future__ import annotations

import io

from rich.console import Console

from pokertable.firmware import wire
from pokertable.hardware.clock import FakeClock
from pokertable.hardware.events import Alert, ChipsSettled
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.reader_diagnostics import DiagnosticSession, render
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.simulator import SyntheticTags

ZONES = ["seat1.bet", "seat1.stack", "seat1.cards", "seat2.bet"]
FAULTS = [("seat2.stack", "channel 4: the antenna switch has channels 0..3")]


def registry() -> TagRegistry:
    reg = TagRegistry(":memory:")
    SyntheticTags.enroll(reg)
    return reg


def test_a_birth_fault_becomes_one_zone_fault_alert_naming_zone_and_reason() -> None:
    interp = BusInterpreter(registry())
    birth = wire.pack_birth(1, "0.2.0", "PN5180", ZONES, FAULTS)
    events = interp.on_frame(1, wire.MSG_BIRTH, 0, birth, 0)
    alerts = [e for e in events if isinstance(e, Alert)]
    assert [(a.code, a.zone) for a in alerts] == [("zone_fault", "seat2.stack")]
    assert "channel 4" in alerts[0].message
    again = interp.on_frame(1, wire.MSG_BIRTH, 1, birth, 10)  # the same fault: no new alert
    assert not [e for e in again if isinstance(e, Alert)]


def test_a_150_chip_stack_in_parts_is_acted_on_once_every_part_has_come() -> None:
    interp = BusInterpreter(registry())
    interp.on_frame(1, wire.MSG_BIRTH, 0, wire.pack_birth(1, "0.2.0", "PN5180", ZONES), 0)
    uids = [SyntheticTags.chip_uid(i) for i in range(150)]
    parts = wire.snapshot_parts("seat1.stack", True, uids, gen=3)
    assert len(parts) == 5
    events = []
    for seq, part in enumerate(parts, start=1):
        assert not events  # nothing before the last part
        events = interp.on_frame(1, wire.MSG_SNAPSHOT, seq, part, seq)
    motion = [e for e in events if isinstance(e, ChipsSettled)]
    assert len(motion) == 1 and len(motion[0].arrived) == 150
    assert interp.zone_view("seat1.stack") == frozenset(u.hex() for u in uids)


def test_a_part_of_an_older_generation_never_mixes_into_a_newer_one() -> None:
    interp = BusInterpreter(registry())
    interp.on_frame(1, wire.MSG_BIRTH, 0, wire.pack_birth(1, "0.2.0", "PN5180", ZONES), 0)
    chips = [SyntheticTags.chip_uid(i) for i in range(41)]
    old = wire.snapshot_parts("seat1.stack", True, chips[:40], gen=1)
    new = wire.snapshot_parts("seat1.stack", True, chips[1:], gen=2)
    interp.on_frame(1, wire.MSG_SNAPSHOT, 1, old[0], 1)
    interp.on_frame(1, wire.MSG_SNAPSHOT, 2, new[0], 2)
    interp.on_frame(1, wire.MSG_SNAPSHOT, 3, old[1], 3)  # late part of gen 1: dropped
    assert interp.zone_view("seat1.stack") == frozenset()
    interp.on_frame(1, wire.MSG_SNAPSHOT, 4, new[1], 4)
    assert SyntheticTags.chip_uid(0).hex() not in interp.zone_view("seat1.stack")
    assert len(interp.zone_view("seat1.stack")) == 40


def test_an_incomplete_zone_is_alerted_once_until_it_completes_again() -> None:
    interp = BusInterpreter(registry())
    interp.on_frame(1, wire.MSG_BIRTH, 0, wire.pack_birth(1, "0.2.0", "PN5180", ZONES), 0)
    uid = [SyntheticTags.chip_uid(0)]
    codes = []
    for seq, incomplete in enumerate([True, True, False, True], start=1):
        payload = wire.pack_snapshot("seat1.stack", False, uid, incomplete)
        codes += [e.code for e in interp.on_frame(1, wire.MSG_SNAPSHOT, seq, payload, seq)
                  if isinstance(e, Alert)]
    assert codes == ["zone_incomplete", "zone_incomplete"]


def test_pokertable_readers_shows_the_faults_and_the_incomplete_zone() -> None:
    session = DiagnosticSession(registry(), FakeClock())
    faults = [("", "reader PN5180: PN5180 no IDLE_IRQ 100 ms after reset"), *FAULTS]
    session.deliver([(1, wire.MSG_BIRTH, 0, wire.pack_birth(1, "0.2.0", "PN5180", ZONES, faults))],
                    0, "/dev/ttyAMA0")
    session.deliver([(1, wire.MSG_SNAPSHOT, 1,
                      wire.pack_snapshot("seat1.stack", False, [], incomplete=True))],
                    0, "/dev/ttyAMA0")
    out = io.StringIO()
    Console(file=out, width=120).print(render(session, 0))
    text = out.getvalue()
    assert "READER FAULT" in text
    assert "FAULT: channel 4: the antenna switch has channels 0..3" in text
    assert "incomplete inventory of seat1." in text
