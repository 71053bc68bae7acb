"""Domain events: what the table's hardware saw, as frozen data for the controller.

Everything here is a fact about tags, zones and nodes, stamped with ``at_ms`` from the
injected clock. Nothing here knows poker rules: whether 3 chips in ``seat3.bet`` are
a call or a raise is the controller's business.

>>> e = NodeDown(node=2, at_ms=1500, silent_ms=1600)
>>> e.node, e.at_ms
(2, 1500)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pokertable.hardware.registry import Chip

AlertCode = Literal[
    "foreign_uid",  # a UID not in the registry lies in a play zone: never counted
    "removed_chip",  # a chip whose denomination was raced off is in play
    "retired_chip",  # a retired chip is in play
    "non_value_chip",  # a bounty/clock token/other chip lies in a bet or stack zone
    "misplaced_tag",  # a card in a chip zone or a chip in a card zone
    "garbage_burst",  # many CRC/framing errors in a short time: check cabling
    "bad_payload",  # a valid frame whose payload did not parse
    "node_down",  # a node missed its heartbeats
    "unknown_zone",  # a node reported a zone name outside hardware.zones
    "node_stale",  # a node beats but its reader no longer scans: its zones are stale
    "port_missing",  # a reader port cannot be opened (unplugged, wrong path, no rights)
    "zone_fault",  # a node cannot read a zone (antenna channel off its switch) or its reader
    "zone_incomplete",  # a zone's inventory cannot finish: tags there may be missing
]


@dataclass(frozen=True, slots=True)
class ChipsSettled:
    """One chip motion: the chips that arrived in and left a zone since its last settled view.

    Only registered, in-play chips are listed; anything else raised an :class:`Alert`
    and is left out, so these tuples are always safe to count.
    """

    zone: str
    seat: int | None
    arrived: tuple[Chip, ...]
    left: tuple[Chip, ...]
    node: int
    at_ms: int
    # The first view of the zone since this process started: ``arrived`` is everything
    # that lies there, and whatever the controller believed was there besides has gone
    # (it left while nobody was listening, e.g. during a controller restart).
    complete: bool = False

    @property
    def arrived_value(self) -> int:
        return sum(c.denomination for c in self.arrived if c.kind == "value")

    @property
    def left_value(self) -> int:
        return sum(c.denomination for c in self.left if c.kind == "value")


@dataclass(frozen=True, slots=True)
class CardSeen:
    zone: str
    seat: int | None
    rank: str
    suit: str
    uid: str
    deck_id: str
    node: int
    at_ms: int


@dataclass(frozen=True, slots=True)
class CardRemoved:
    zone: str
    seat: int | None
    rank: str
    suit: str
    uid: str
    deck_id: str
    node: int
    at_ms: int


@dataclass(frozen=True, slots=True)
class NodeUp:
    """A node was heard (first BIRTH, or first frame after it was down)."""

    node: int
    zones: tuple[str, ...]
    fw_version: str
    reader_type: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class NodeDown:
    node: int
    at_ms: int
    silent_ms: int


@dataclass(frozen=True, slots=True)
class NodeRebooted:
    """A node sent BIRTH with its sequence restarted (a reset, a brown-out, a watchdog).

    ``last_seq`` is -1 when the reset was seen from a heartbeat's uptime going backwards
    because the BIRTH itself was lost.

    Zone views are kept: the node's next snapshots are diffed against them, so chips
    that stayed put through the reset are not counted a second time.
    """

    node: int
    at_ms: int
    last_seq: int
    new_seq: int


@dataclass(frozen=True, slots=True)
class Alert:
    """Something a floor person or technician should look at; ``rule_hint`` names a rule if any."""

    code: AlertCode
    message: str
    at_ms: int
    zone: str | None = None
    node: int | None = None
    rule_hint: str | None = None
    uid: str | None = None


@dataclass(frozen=True, slots=True)
class ZoneSnapshot:
    """Low-level: the raw UIDs of one snapshot. Emitted only on request (enrollment, debugging)."""

    zone: str
    settled: bool
    uids: tuple[str, ...]
    node: int
    at_ms: int


HardwareEvent = (
    ChipsSettled | CardSeen | CardRemoved | NodeUp | NodeDown | NodeRebooted | Alert | ZoneSnapshot
)
