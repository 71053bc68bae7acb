"""Frames in, domain events out: the pure heart of the Pi side of the bus.

:class:`BusInterpreter` reads no clock and touches no port. The transport hands it
decoded frames with the time they arrived; it answers with events::

    interp = BusInterpreter(registry)
    events = interp.on_frame(node=2, msg_type=wire.MSG_SNAPSHOT, seq=7, payload=p, at_ms=1200)
    events += interp.tick(at_ms=3000)            # NodeDown for nodes silent too long

What it does per frame: drop duplicates (a resent frame is not a second event), track
node health and resets, turn zone snapshots into chip motions and card sightings
resolved through the :class:`~hardware.registry.TagRegistry`, and raise an
:class:`~hardware.events.Alert` for anything that must not be counted.

The link heals itself (issue #12): a gap in a node's sequence numbers, or corrupt
frames on its port (:meth:`request_resync`), makes it ask the node for the current
snapshot of every zone (``CMD_SNAPSHOT``), at most once per ``resync_holdoff_ms``, once
more after the last trouble, and again until every zone's snapshot has come back (the
request or part of the answer may be lost), so the view converges as soon as the noise
stops.
A sequence that goes backwards is a reset whose BIRTH was lost.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from pokertable.firmware import wire
from pokertable.hardware.events import (
    Alert,
    AlertCode,
    CardRemoved,
    CardSeen,
    ChipsSettled,
    HardwareEvent,
    NodeDown,
    NodeRebooted,
    NodeUp,
    ZoneSnapshot,
)
from pokertable.hardware.registry import Card, Chip, TagRegistry
from pokertable.hardware.snapshot_join import SnapshotJoiner
from pokertable.hardware.zones import TABLE_ZONES

# (node, msg_type, payload) the transport should send to a node.
Command = tuple[int, int, bytes]

_UPTIME_WRAP_ZONE = 0xF000_0000  # a u32 uptime this high may wrap to 0: not a reset

_NODE_TO_PI = frozenset((wire.MSG_BIRTH, wire.MSG_SNAPSHOT, wire.MSG_HEARTBEAT, wire.MSG_ACK))
_SNAPSHOT = wire.MSG_SNAPSHOT


def seq_after(a: int, b: int) -> bool:
    """Serial-number order for 16-bit wrapping sequences (RFC 1982).

    >>> seq_after(5, 4), seq_after(0, 65535), seq_after(4, 5), seq_after(7, 7)
    (True, True, False, False)
    """
    diff = (a - b) & 0xFFFF
    return 0 < diff < 0x8000


Frame = tuple[int, int, bytes]  # (seq, msg_type, payload): what makes a frame a repeat


class RecentFrames:
    """The last ``size`` frames of a node, asked "seen already?" once per frame.

    A deque alone answered by comparing with every frame it held (64 tuples walked per
    frame, from a cold cache on a chip's path to the room, docs/benchmarks.md); a count
    per frame beside it answers with one hash lookup.
    """

    __slots__ = ("_order", "_size", "counts")

    def __init__(self, size: int = 64) -> None:
        self._order: deque[Frame] = deque()
        # frame -> how many of the window's frames it is; read only (``frame in counts``
        # is ``frame in self`` without a Python call, on_frame's check)
        self.counts: dict[Frame, int] = {}
        self._size = size

    def __contains__(self, frame: object) -> bool:
        return frame in self.counts

    def __len__(self) -> int:
        return len(self._order)

    def append(self, frame: Frame) -> None:
        self._order.append(frame)
        counts = self.counts
        counts[frame] = counts.get(frame, 0) + 1
        if len(self._order) > self._size:
            old = self._order.popleft()
            left = counts[old] - 1
            if left:
                counts[old] = left
            else:
                del counts[old]

    def clear(self) -> None:
        self._order.clear()
        self.counts.clear()


@dataclass(slots=True)
class _NodeState:
    last_heard_ms: int
    last_seq: int
    last_type: int
    up: bool = True
    zones: tuple[str, ...] = ()
    fw_version: str = "?"
    reader_type: str = "?"
    uptime_ms: int | None = None
    idle_beats: int = 0  # consecutive heartbeats with 0 scans/s
    idle_since_ms: int = 0  # when the first of them arrived
    stale: bool = False
    node_crc_errors: int | None = None  # the node's count of our frames it dropped
    recent: RecentFrames = field(default_factory=RecentFrames)
    faults: tuple[tuple[str, str], ...] = ()  # (zone, reason) its BIRTH says are out of service

    def remember(self, seq: int, msg_type: int, payload: bytes) -> None:
        self.recent.append((seq, msg_type, payload))
        self.last_seq = seq
        self.last_type = msg_type


class BusInterpreter:
    """Turns decoded node frames into :mod:`hardware.events`; pure apart from the registry."""

    def __init__(
        self,
        registry: TagRegistry,
        *,
        heartbeat_timeout_ms: int = 1_600,
        garbage_burst_errors: int = 3,
        garbage_window_ms: int = 1_000,
        emit_snapshots: bool = False,
        announce_first_view: bool = False,
        resync_holdoff_ms: int = 200,
        stale_after_beats: int = 2,
        stale_after_ms: int = 5_000,
    ) -> None:
        self.registry = registry
        # A controller that restarted must learn what left a zone while it was down: the
        # first view of each chip zone is then reported as complete, even when empty.
        self.announce_first_view = announce_first_view
        self.heartbeat_timeout_ms = heartbeat_timeout_ms
        self.garbage_burst_errors = garbage_burst_errors
        self.garbage_window_ms = garbage_window_ms
        self.emit_snapshots = emit_snapshots
        self.duplicates = 0
        self._nodes: dict[int, _NodeState] = {}
        self._zone_uids: dict[str, frozenset[str]] = {}  # last view per zone (all raw UIDs)
        self._counted_chips: dict[str, dict[str, Chip]] = {}  # chips reported as present
        self._shown_cards: dict[str, dict[str, Card]] = {}  # cards reported as present
        self._bad_zones: set[tuple[int, str]] = set()
        self._joiner = SnapshotJoiner()
        self._incomplete_zones: set[tuple[int, str]] = set()  # alerted, not yet complete
        self._error_times: deque[int] = deque()
        self._last_garbage_alert_ms: int | None = None
        self._commands: list[Command] = []
        self.resync_holdoff_ms = resync_holdoff_ms
        # Stale: this many heartbeats in a row, over at least this long, with no finished
        # zone scan (a big pile on a slow board can take a while, never seconds).
        self.stale_after_beats = stale_after_beats
        self.stale_after_ms = stale_after_ms
        self.gaps = 0  # sequence gaps seen (frames lost without a decode error)
        self.resyncs = 0  # CMD_SNAPSHOT requests sent
        self._resync_sent: dict[int, int] = {}
        self._resync_pending: set[int] = set()
        # Asked for every zone; the zones whose snapshot has not come back yet.
        self._resync_waiting: dict[int, set[str]] = {}
        self._state_wanted: set[int] = set()  # nodes that may have lost our commands

    # -- inputs ------------------------------------------------------------------------

    def on_frame(
        self, node: int, msg_type: int, seq: int, payload: bytes, at_ms: int
    ) -> list[HardwareEvent]:
        """Handle one valid frame; returns the events it caused (often none)."""
        if msg_type not in _NODE_TO_PI:
            return []  # our own command echoed on a half-duplex bus, or a frame for a node
        events: list[HardwareEvent] = []
        state = self._nodes.get(node)
        if state is None:
            state = _NodeState(last_heard_ms=at_ms, last_seq=(seq - 1) & 0xFFFF, last_type=-1)
            self._nodes[node] = state
            if msg_type != wire.MSG_BIRTH:
                # Heard mid-life (the Pi restarted): ask for a BIRTH to learn its zones.
                events.append(NodeUp(node, (), "?", "?", at_ms))
                self._commands.append((node, wire.MSG_CMD_REBIRTH, b""))
        elif not state.up:
            state.up = True
            self._state_wanted.add(node)
            self.request_resync(node, at_ms)  # what changed while it was silent
            events.append(NodeUp(node, state.zones, state.fw_version, state.reader_type, at_ms))
        state.last_heard_ms = at_ms

        if msg_type == wire.MSG_BIRTH:
            if seq == state.last_seq and state.last_type == wire.MSG_BIRTH:
                self.duplicates += 1
                return events
            events += self._on_birth(node, state, seq, payload, at_ms)
            state.remember(seq, msg_type, payload)
            return events
        frame = (seq, msg_type, payload)
        if frame in state.recent.counts:
            self.duplicates += 1
            return events
        if state.last_type != -1 and seq != (state.last_seq + 1) & 0xFFFF:
            events += self._check_sequence(node, state, seq, at_ms)
        state.recent.append(frame)  # what ``remember`` does, without its call
        state.last_seq = seq
        state.last_type = msg_type
        if msg_type == _SNAPSHOT:
            events += self._on_snapshot(node, payload, at_ms)
        elif msg_type == wire.MSG_HEARTBEAT:
            events += self._on_heartbeat(node, state, seq, payload, at_ms)
        return events

    def _check_sequence(
        self, node: int, state: _NodeState, seq: int, at_ms: int
    ) -> list[HardwareEvent]:
        """A skipped seq lost frames: ask for every zone again. A seq that went back: reset."""
        if state.last_type == -1 or seq == (state.last_seq + 1) & 0xFFFF:
            return []
        if seq_after(seq, state.last_seq):
            self.gaps += 1
            self.request_resync(node, at_ms)
            return []
        # The node restarted and its BIRTH was lost (the sequence starts at 0 again).
        last = state.last_seq
        state.recent.clear()
        state.uptime_ms = None
        self._commands.append((node, wire.MSG_CMD_REBIRTH, b""))
        self._state_wanted.add(node)
        return [NodeRebooted(node, at_ms, last, seq)]

    def request_resync(self, node: int, at_ms: int) -> None:
        """Ask ``node`` for all its zones now, or once the holdoff has passed (see tick)."""
        sent = self._resync_sent.get(node)
        if sent is not None and at_ms - sent < self.resync_holdoff_ms:
            self._resync_pending.add(node)
            return
        self._resync_pending.discard(node)
        state = self._nodes.get(node)
        self._resync_waiting[node] = set(state.zones if state is not None and state.zones
                                         else ("*",))
        self._resync_sent[node] = at_ms
        self.resyncs += 1
        self._commands.append((node, wire.MSG_CMD_SNAPSHOT, wire.pack_snapshot_request()))

    def take_outputs(self) -> tuple[list[Command], set[int]]:
        """``take_commands()`` and ``take_state_wanted()``, as a delivery or a tick takes them."""
        return self.take_commands(), self.take_state_wanted()

    def take_state_wanted(self) -> set[int]:
        """Nodes that rebooted or dropped our frames: their LEDs must be sent again."""
        wanted, self._state_wanted = self._state_wanted, set()
        return wanted

    def _on_heartbeat(
        self, node: int, state: _NodeState, seq: int, payload: bytes, at_ms: int
    ) -> list[HardwareEvent]:
        """Uptime going backwards is a reset whose BIRTH we never got (lost to noise)."""
        try:
            uptime_ms, scans_per_s, node_crc_errors, _resets = wire.unpack_heartbeat(payload)
        except ValueError as exc:
            return [self._bad_payload(node, "HEARTBEAT", exc, at_ms)]
        previous, state.uptime_ms = state.uptime_ms, uptime_ms
        if previous is not None and uptime_ms < previous and previous < _UPTIME_WRAP_ZONE:
            state.recent.clear()
            state.recent.append((seq, wire.MSG_HEARTBEAT, payload))
            state.node_crc_errors = node_crc_errors
            self._commands.append((node, wire.MSG_CMD_REBIRTH, b""))
            self._state_wanted.add(node)
            return [NodeRebooted(node, at_ms, -1, seq)]
        if state.node_crc_errors is not None and node_crc_errors != state.node_crc_errors:
            self._state_wanted.add(node)  # some of our commands (LEDs) never arrived
        state.node_crc_errors = node_crc_errors
        return self._staleness(node, state, scans_per_s, at_ms)

    def _staleness(
        self, node: int, state: _NodeState, scans_per_s: int, at_ms: int
    ) -> list[HardwareEvent]:
        """A node that beats but no longer scans is alive with a stale view: say so once."""
        if scans_per_s:
            state.idle_beats = 0
            state.stale = False
            return []
        if state.idle_beats == 0:
            state.idle_since_ms = at_ms
        state.idle_beats += 1
        idle_ms = at_ms - state.idle_since_ms
        if (state.stale or state.idle_beats < self.stale_after_beats
                or idle_ms < self.stale_after_ms):
            return []
        state.stale = True
        return [
            Alert(
                "node_stale",
                f"node {node} is alive but has not finished a scan for {idle_ms} ms "
                f"(zones: {', '.join(state.zones) or 'unknown'}): what the table shows there "
                "is stale; check the reader board and its antenna cables",
                at_ms,
                node=node,
            )
        ]

    def on_decode_errors(self, new_errors: int, at_ms: int, port: str = "") -> list[HardwareEvent]:
        """Count bad frames from the decoder; a burst of them raises one ``garbage_burst``."""
        for _ in range(min(new_errors, self.garbage_burst_errors)):
            self._error_times.append(at_ms)
        while self._error_times and at_ms - self._error_times[0] > self.garbage_window_ms:
            self._error_times.popleft()
        if len(self._error_times) < self.garbage_burst_errors:
            return []
        last = self._last_garbage_alert_ms
        if last is not None and at_ms - last <= self.garbage_window_ms:
            return []
        self._last_garbage_alert_ms = at_ms
        where = f" on {port}" if port else ""
        return [
            Alert(
                "garbage_burst",
                f"{len(self._error_times)} corrupt frames within {self.garbage_window_ms} ms"
                f"{where}: check the bus cabling, termination and ground",
                at_ms,
            )
        ]

    def tick(self, at_ms: int) -> list[HardwareEvent]:
        """Declare down every node silent for longer than ``heartbeat_timeout_ms``.

        Also sends the resync requests that waited for their holdoff.
        """
        for node in sorted(self._resync_pending | set(self._resync_waiting)):
            if not self.node_is_up(node):
                continue  # node_down is raised; NodeUp asks again
            if at_ms - self._resync_sent.get(node, at_ms) >= self.resync_holdoff_ms:
                self.request_resync(node, at_ms)  # waited out the holdoff, or got lost
        events: list[HardwareEvent] = []
        for node, state in sorted(self._nodes.items()):
            silent = at_ms - state.last_heard_ms
            if state.up and silent > self.heartbeat_timeout_ms:
                state.up = False
                events.append(NodeDown(node, at_ms, silent))
                events.append(
                    Alert(
                        "node_down",
                        f"node {node} silent for {silent} ms (zones: "
                        f"{', '.join(state.zones) or 'unknown'}): its zones are not being read",
                        at_ms,
                        node=node,
                    )
                )
        return events

    def take_commands(self) -> list[Command]:
        """Frames the transport should send now (e.g. a REBIRTH request); clears the queue."""
        commands, self._commands = self._commands, []
        return commands

    def zone_view(self, zone: str) -> frozenset[str]:
        """The UIDs last reported in ``zone`` (what the readers believe lies there now)."""
        return self._zone_uids.get(zone, frozenset())

    def node_is_up(self, node: int) -> bool:
        state = self._nodes.get(node)
        return state is not None and state.up

    # -- frame kinds -------------------------------------------------------------------

    def _on_birth(
        self, node: int, state: _NodeState, seq: int, payload: bytes, at_ms: int
    ) -> list[HardwareEvent]:
        events: list[HardwareEvent] = []
        try:
            _, fw_version, reader_type, zones = wire.unpack_birth(payload)
            faults = tuple(wire.unpack_birth_faults(payload))
        except ValueError as exc:
            return [self._bad_payload(node, "BIRTH", exc, at_ms)]
        for zone, reason in faults:
            if (zone, reason) not in state.faults:
                where = f"zone {zone}" if zone else "its reader"
                events.append(Alert("zone_fault", f"node {node} cannot read {where}: {reason}",
                                    at_ms, zone=zone or None, node=node))
        state.faults = faults
        first = state.last_type == -1
        # A node restarts its sequence at 0; a BIRTH answering CMD_REBIRTH keeps counting.
        restarted = not first and (
            (seq == 0 and state.last_seq != 0xFFFF) or not seq_after(seq, state.last_seq)
        )
        state.zones = tuple(zones)
        state.fw_version = fw_version
        state.reader_type = reader_type
        if restarted:
            state.recent.clear()
            state.uptime_ms = None
            state.node_crc_errors = None
            self._state_wanted.add(node)
            events.append(NodeRebooted(node, at_ms, state.last_seq, seq))
        elif first:
            events.append(NodeUp(node, state.zones, fw_version, reader_type, at_ms))
        return events

    def _on_snapshot(self, node: int, payload: bytes, at_ms: int) -> list[HardwareEvent]:
        try:
            whole = self._joiner.feed(node, payload)
        except ValueError as exc:
            return [self._bad_payload(node, "SNAPSHOT", exc, at_ms)]
        if whole is None:
            return []  # a part: the zone is acted on once every part has come
        zone, settled, raw_uids, incomplete = whole
        waiting = self._resync_waiting.get(node)
        if waiting is not None:
            waiting.discard(zone)
            waiting.discard("*")
            if not waiting:
                del self._resync_waiting[node]  # every zone asked for has come back
        events: list[HardwareEvent] = []
        if incomplete and (node, zone) not in self._incomplete_zones:
            self._incomplete_zones.add((node, zone))
            events.append(Alert("zone_incomplete", f"incomplete inventory of {zone} on node "
                                f"{node}: tags there may be missing (too many on one antenna?)",
                                at_ms, zone=zone, node=node))
        elif not incomplete and self._incomplete_zones:
            self._incomplete_zones.discard((node, zone))
        uids = frozenset(map(bytes.hex, raw_uids))
        if self.emit_snapshots:
            events.append(ZoneSnapshot(zone, settled, tuple(sorted(uids)), node, at_ms))
        kind_seat = TABLE_ZONES.get(zone)
        if kind_seat is None:
            if (node, zone) not in self._bad_zones:
                self._bad_zones.add((node, zone))
                events.append(
                    Alert("unknown_zone", f"node {node} reports zone {zone!r}, which is not a "
                          "table zone (see hardware.zones)", at_ms, zone=zone, node=node)
                )
            return events
        kind, seat = kind_seat
        if kind == "enroll":
            return events
        if kind == "chips":
            if settled:
                events += self._chip_motion(node, zone, uids, at_ms, seat)
            return events
        return events + self._card_motion(node, zone, uids, at_ms, seat)

    def _chip_motion(
        self, node: int, zone: str, uids: frozenset[str], at_ms: int, seat: int | None
    ) -> list[HardwareEvent]:
        first_view = zone not in self._zone_uids
        previous = self._zone_uids.get(zone, frozenset())
        self._zone_uids[zone] = uids
        counted = self._counted_chips.setdefault(zone, {})
        events: list[HardwareEvent] = []
        arrived: list[Chip] = []
        for uid in sorted(uids - previous):
            tag = self.registry.lookup(uid)
            alert = self._chip_problem(tag, uid, zone, node, at_ms)
            if alert is not None:
                events.append(alert)
            if isinstance(tag, Chip) and tag.status == "in_play":
                counted[uid] = tag
                arrived.append(tag)
        left = [counted.pop(uid) for uid in sorted(previous - uids) if uid in counted]
        complete = first_view and self.announce_first_view
        if arrived or left or complete:
            events.insert(
                0,
                ChipsSettled(zone, seat, tuple(arrived), tuple(left), node, at_ms,
                             complete=complete),
            )
        return events

    def _chip_problem(
        self, tag: Chip | Card | None, uid: str, zone: str, node: int, at_ms: int
    ) -> Alert | None:
        def alert(code: AlertCode, message: str, rule: str | None = None) -> Alert:
            return Alert(code, message, at_ms, zone=zone, node=node, rule_hint=rule, uid=uid)

        if tag is None:
            return alert("foreign_uid", f"unknown tag {uid} in {zone}: not one of our chips, "
                         "not counted")
        if isinstance(tag, Card):
            return alert("misplaced_tag", f"card {tag.code} (deck {tag.deck_id}) lies in chip "
                         f"zone {zone}")
        if tag.status == "removed_denomination":
            return alert("removed_chip", f"a {tag.denomination} chip ({tag.colour or 'no colour'})"
                         f" is in {zone} but that denomination was raced off: not counted",
                         "chip race / colour-up")
        if tag.status == "retired":
            return alert("retired_chip", f"retired chip {uid} in {zone}: not counted")
        if tag.kind != "value" and zone.endswith(".bet"):
            return alert("non_value_chip", f"a {tag.kind} chip lies in bet zone {zone}")
        return None

    def _card_motion(
        self, node: int, zone: str, uids: frozenset[str], at_ms: int, seat: int | None
    ) -> list[HardwareEvent]:
        previous = self._zone_uids.get(zone, frozenset())
        self._zone_uids[zone] = uids
        shown = self._shown_cards.setdefault(zone, {})
        events: list[HardwareEvent] = []
        for uid in sorted(previous - uids):
            card = shown.pop(uid, None)
            if card is not None:
                events.append(CardRemoved(zone, seat, card.rank, card.suit, uid, card.deck_id,
                                          node, at_ms))
        for uid in sorted(uids - previous):
            tag = self.registry.lookup(uid)
            if isinstance(tag, Card):
                shown[uid] = tag
                events.append(CardSeen(zone, seat, tag.rank, tag.suit, uid, tag.deck_id,
                                       node, at_ms))
            elif tag is None:
                events.append(Alert("foreign_uid", f"unknown tag {uid} in card zone {zone}: "
                                    "not one of our cards", at_ms, zone=zone, node=node, uid=uid))
            else:
                events.append(Alert("misplaced_tag", f"a {tag.denomination} chip lies in card "
                                    f"zone {zone}", at_ms, zone=zone, node=node, uid=uid))
        return events

    @staticmethod
    def _bad_payload(node: int, what: str, exc: ValueError, at_ms: int) -> Alert:
        return Alert("bad_payload", f"node {node} sent a {what} that does not parse: {exc}",
                     at_ms, node=node)
