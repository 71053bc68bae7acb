"""Properties of the interpreter over random play: chips are conserved, resends change nothing."""

from __future__ import annotations

from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from pokertable.firmware import wire
from pokertable.hardware.events import Alert, ChipsSettled, HardwareEvent
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry

ZONES = ("seat1.bet", "seat1.stack", "seat2.bet")
KNOWN = [bytes.fromhex("e0040a00") + n.to_bytes(4, "big") for n in range(12)]
FOREIGN = [bytes.fromhex("e0040b00") + n.to_bytes(4, "big") for n in range(3)]
RETIRED = KNOWN[11]


def make_registry() -> TagRegistry:
    reg = TagRegistry(":memory:")
    for i, uid in enumerate(KNOWN):
        reg.add_chip(uid, denomination=(25, 100, 500)[i % 3])
    reg.set_chip_status(RETIRED, "retired")
    return reg


REGISTRY = make_registry()

views = st.lists(
    st.tuples(st.sampled_from(ZONES), st.sets(st.sampled_from(KNOWN + FOREIGN), max_size=8),
              st.booleans(), st.booleans()),
    max_size=30,
)


def play(script: list[tuple[str, set[bytes], bool, bool]], resend: bool
         ) -> tuple[list[HardwareEvent], dict[str, set[bytes]]]:
    interp = BusInterpreter(REGISTRY)
    events = interp.on_frame(1, wire.MSG_BIRTH, 0, wire.pack_birth(1, "1", "t", list(ZONES)), 0)
    last_settled: dict[str, set[bytes]] = {}
    for seq, (zone, uids, settled, twice) in enumerate(script, start=1):
        payload = wire.pack_snapshot(zone, settled, sorted(uids))
        events += interp.on_frame(1, wire.MSG_SNAPSHOT, seq, payload, seq * 10)
        if resend and twice:
            events += interp.on_frame(1, wire.MSG_SNAPSHOT, seq, payload, seq * 10 + 1)
        if settled:
            last_settled[zone] = set(uids)
    return events, last_settled


@settings(max_examples=150, deadline=None)
@given(views)
def test_counted_chips_equal_the_in_play_chips_lying_in_each_zone(
    script: list[tuple[str, set[bytes], bool, bool]],
) -> None:
    events, last_settled = play(script, resend=False)
    net: dict[str, Counter[str]] = {z: Counter() for z in ZONES}
    for e in events:
        if isinstance(e, ChipsSettled):
            net[e.zone].update(c.uid for c in e.arrived)
            net[e.zone].subtract(c.uid for c in e.left)
    for zone in ZONES:
        lying = {u.hex() for u in last_settled.get(zone, set()) if u in KNOWN and u != RETIRED}
        assert +net[zone] == Counter(lying)
        assert all(v >= 0 for v in net[zone].values())
    foreign_alerts = {e.uid for e in events if isinstance(e, Alert) and e.code == "foreign_uid"}
    assert foreign_alerts <= {u.hex() for u in FOREIGN}


@settings(max_examples=100, deadline=None)
@given(views)
def test_a_resent_frame_never_adds_an_event(script: list[tuple[str, set[bytes], bool, bool]]
                                            ) -> None:
    once, _ = play(script, resend=False)
    twice, _ = play(script, resend=True)
    assert twice == once


@given(st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 80), st.sampled_from((2, 3)),
                                              st.sampled_from((b"", b"a", b"b")))),
                max_size=300))
@example([(n, 2, b"") for n in range(65)] + [(0, 2, b""), (1, 2, b"")])  # the 64th back
def test_recent_frames_answer_as_a_64_frame_deque_walked_in_full(
    steps: list[tuple[int, int, bytes] | None],
) -> None:
    """The duplicate check's hashed window (``RecentFrames``) holds what the deque it
    replaced held: the last 64 frames remembered since the last clear (None: a clear)."""
    from collections import deque

    from pokertable.hardware.interpreter import RecentFrames

    recent, window = RecentFrames(), deque[tuple[int, int, bytes]](maxlen=64)
    for step in steps:
        if step is None:
            recent.clear()
            window.clear()
            continue
        assert (step in recent) == (step in window)
        recent.append(step)
        window.append(step)
        assert len(recent) == len(window)
    assert all(frame in recent for frame in window)
