"""Zone names: the one vocabulary shared by firmware configs, the simulator and the controller.

A zone is one antenna area under the felt. Names are plain strings:

==================  ==========================================  ==========
name                what lies there                             tag kind
==================  ==========================================  ==========
``seat<N>.bet``     chips a player has put forward (N = 1..10)  chips
``seat<N>.stack``   the player's stack behind the line          chips
``seat<N>.cards``   the player's hole cards                     cards
``board``           community cards                             cards
``burn``            burn cards                                  cards
``muck``            mucked / folded cards                       cards
``enroll``          the enrollment pad (chips or one card)      any
==================  ==========================================  ==========

>>> seat_of("seat3.bet"), seat_of("board")
(3, None)
>>> zone_kind("seat10.stack"), zone_kind("muck"), zone_kind("enroll")
('chips', 'cards', 'enroll')
"""

from __future__ import annotations

import re
from typing import Literal

MAX_SEATS = 10
ENROLL_ZONE = "enroll"
SHARED_CARD_ZONES = ("board", "burn", "muck")

ZoneKind = Literal["chips", "cards", "enroll"]

_SEAT_ZONE = re.compile(r"^seat([1-9][0-9]?)\.(bet|stack|cards)$")


def is_valid_zone(name: str) -> bool:
    """True for every name in the table above (seat numbers 1..MAX_SEATS)."""
    if name in SHARED_CARD_ZONES or name == ENROLL_ZONE:
        return True
    match = _SEAT_ZONE.match(name)
    return match is not None and int(match.group(1)) <= MAX_SEATS


def seat_of(name: str) -> int | None:
    """The seat number of a seat zone, ``None`` for shared zones."""
    match = _SEAT_ZONE.match(name)
    return int(match.group(1)) if match else None


def zone_kind(name: str) -> ZoneKind:
    """Which tags belong in the zone; raises ``ValueError`` for an unknown zone name."""
    if not is_valid_zone(name):
        raise ValueError(f"zone: unknown zone name {name!r}")
    if name == ENROLL_ZONE:
        return "enroll"
    if name in SHARED_CARD_ZONES or name.endswith(".cards"):
        return "cards"
    return "chips"


def seat_zone(seat: int, area: Literal["bet", "stack", "cards"]) -> str:
    """Build a seat zone name, checking the seat number.

    >>> seat_zone(3, "bet")
    'seat3.bet'
    """
    if not 1 <= seat <= MAX_SEATS:
        raise ValueError(f"seat: must be 1..{MAX_SEATS}, got {seat}")
    return f"seat{seat}.{area}"
