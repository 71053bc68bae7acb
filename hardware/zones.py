"""Zone names: the one vocabulary shared by firmware configs, the simulator and the controller.

A zone is one antenna area under the felt. Names are plain strings:

==================  ==========================================  ==========
name                what lies there                             tag kind
==================  ==========================================  ==========
``seat<N>.bet``     chips a player has put forward (N = 1..10)  chips
``seat<N>.stack``   the player's stack behind the line          chips
``seat<N>.cards``   the player's hole cards (stud: downcards)   cards
``seat<N>.up``      stud: the player's upcards, face up         cards
``board``           community cards                             cards
``burn``            burn cards                                  cards
``muck``            mucked / folded cards                       cards
``enroll``          the enrollment pad (chips or one card)      any
==================  ==========================================  ==========

>>> seat_of("seat3.bet"), seat_of("board")
(3, None)
>>> zone_kind("seat10.stack"), zone_kind("muck"), zone_kind("enroll"), zone_kind("seat2.up")
('chips', 'cards', 'enroll', 'cards')

Stud deals each player cards down and cards up: the downcards lie on the seat's hole-card
pad (``seat<N>.cards``, the one hold'em uses, so a mixed-game table needs no other antenna
for them) and the upcards in a row on a second pad, ``seat<N>.up``. A card is an upcard or
a downcard by the pad it is read on; the firmware only names zones, so a node gets the
upcard pad by its config's zone list.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

MAX_SEATS = 10
ENROLL_ZONE = "enroll"
SHARED_CARD_ZONES = ("board", "burn", "muck")

ZoneKind = Literal["chips", "cards", "enroll"]

_SEAT_ZONE = re.compile(r"^seat([1-9][0-9]?)\.(bet|stack|cards|up)$")
_SEAT_AREAS = ("bet", "stack", "cards", "up")
_CARD_AREAS = ("cards", "up")


def _parse(name: str) -> tuple[ZoneKind, int | None] | None:
    if name == ENROLL_ZONE:
        return "enroll", None
    if name in SHARED_CARD_ZONES:
        return "cards", None
    match = _SEAT_ZONE.match(name)
    if match is None or int(match.group(1)) > MAX_SEATS:
        return None
    return ("cards" if match.group(2) in _CARD_AREAS else "chips"), int(match.group(1))


# Every table zone, parsed once: each snapshot frame asks about its zone several times.
_ZONES = {
    name: parsed
    for name in (
        *SHARED_CARD_ZONES,
        ENROLL_ZONE,
        *(f"seat{n}.{area}" for n in range(1, MAX_SEATS + 1) for area in _SEAT_AREAS),
    )
    if (parsed := _parse(name)) is not None
}


# Read-only: every table zone -> (kind, seat or None), one lookup for a frame's zone.
TABLE_ZONES: Mapping[str, tuple[ZoneKind, int | None]] = _ZONES


def is_valid_zone(name: str) -> bool:
    """True for every name in the table above (seat numbers 1..MAX_SEATS)."""
    return name in _ZONES


def seat_of(name: str) -> int | None:
    """The seat number of a seat zone, ``None`` for shared zones."""
    parsed = _ZONES.get(name)
    if parsed is not None:
        return parsed[1]
    match = _SEAT_ZONE.match(name)  # a seat beyond MAX_SEATS still names its seat
    return int(match.group(1)) if match else None


def zone_kind(name: str) -> ZoneKind:
    """Which tags belong in the zone; raises ``ValueError`` for an unknown zone name."""
    parsed = _ZONES.get(name)
    if parsed is None:
        raise ValueError(f"zone: unknown zone name {name!r}")
    return parsed[0]


def seat_zone(seat: int, area: Literal["bet", "stack", "cards", "up"]) -> str:
    """Build a seat zone name, checking the seat number.

    >>> seat_zone(3, "bet")
    'seat3.bet'
    """
    if not 1 <= seat <= MAX_SEATS:
        raise ValueError(f"seat: must be 1..{MAX_SEATS}, got {seat}")
    return f"seat{seat}.{area}"
