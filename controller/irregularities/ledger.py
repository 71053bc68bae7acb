"""Where every card of the hand is, by identity (rank + suit) and by tag.

Identity is rank + suit, never the tag: a second tag with the same rank and suit is a
fouled deck (R35-E), while the same tag read again (a player peeking lifts his cards off
the antenna) is the same card moving, not a duplicate.

>>> parse_zone("seat4.cards"), parse_zone("board"), parse_zone("seat4.bet")
(('seat', 4), ('board', None), None)

Stud: a seat's upcards lie on its second pad, ``seat<N>.up`` (hardware/zones.py); both pads
are the seat's, and the pad says whether a card was dealt up or down.

>>> parse_zone("seat4.up"), is_upcard_zone("seat4.up"), is_upcard_zone("seat4.cards")
(('seat', 4), True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pokertable.controller.engine import MAX_SEATS
from pokertable.controller.engine.cards import STANDARD_DECK

_SEAT_ZONE = re.compile(r"seat(\d{1,2})\.(?:cards|up)")
STUB = "stub"  # a card returned to the stub (a stud premature card, RP-5-D): dealt again
_SHARED_ZONES = ("board", "burn", "muck")
JOKERS = frozenset({"Jk", "JK", "Jr", "Jb"})


def parse_zone(zone: str) -> tuple[str, int | None] | None:
    """(kind, seat) of a card zone, or None when cards do not belong there."""
    try:
        return _PARSED[zone]  # every read asks: a lookup, not a regex match
    except KeyError:
        pass
    if zone in _SHARED_ZONES:
        return zone, None
    match = _SEAT_ZONE.fullmatch(zone)
    if match and 1 <= int(match.group(1)) <= MAX_SEATS:
        return "seat", int(match.group(1))
    return None


# The card zones there are (a few dozen): parsed once. Others (bad input) are not kept.
_PARSED: dict[str, tuple[str, int | None]] = {
    **{zone: (zone, None) for zone in _SHARED_ZONES},
    **{f"seat{n}.{pad}": ("seat", n) for n in range(1, MAX_SEATS + 1) for pad in ("cards", "up")},
}


def is_upcard_zone(zone: str) -> bool:
    """A seat's upcard pad (stud): cards read there were dealt face up."""
    return zone.endswith(".up") and parse_zone(zone) is not None


def card_kind(card: str, deck: frozenset[str]) -> str:
    """"standard" (in the game's deck), "nonstandard" (joker, short-deck rank) or "unknown"."""
    if card in deck:
        return "standard"
    if card in JOKERS or card in STANDARD_DECK:
        return "nonstandard"
    return "unknown"


@dataclass(frozen=True, slots=True)
class Placement:
    card: str
    tag: str
    zone: str
    present: bool  # False after CardRemoved: the card is in a hand, the stub or in transit

    def lies_in(self, zone: str) -> bool:
        """Whether the card counts as lying in ``zone``. A card lifted off a pad or the burn
        (a player peeking) is still there; a board card taken off is not: it went back to
        the stub (RP-5) or is on its way to the burn (R39)."""
        return self.zone == zone and (self.present or zone != "board")


@dataclass(frozen=True, slots=True)
class CardLedger:
    placements: tuple[Placement, ...] = ()

    def by_card(self, card: str) -> Placement | None:
        return next((p for p in self.placements if p.card == card), None)

    def by_tag(self, tag: str) -> Placement | None:
        return next((p for p in self.placements if p.tag == tag), None)

    def put(self, card: str, tag: str, zone: str, present: bool = True) -> CardLedger:
        """Record where a tag is. A re-read in place keeps its position (the board order holds);
        anything else is a new arrival and goes to the end."""
        new = Placement(card, tag, zone, present)
        placements = self.placements
        for i, old in enumerate(placements):  # one pass: a tag is recorded once
            if old.tag == tag:
                if old.present and old.zone == zone:
                    return CardLedger((*placements[:i], new, *placements[i + 1:]))
                return CardLedger((*placements[:i], *placements[i + 1:], new))
        return CardLedger((*placements, new))

    def held_by_zone(self) -> dict[str, int]:
        """How many cards each zone holds, as ``lying_in`` counts them, in one pass."""
        counts: dict[str, int] = {}
        for p in self.placements:
            if p.present or p.zone != "board":
                counts[p.zone] = counts.get(p.zone, 0) + 1
        return counts

    def lying_in(self, zone: str) -> tuple[str, ...]:
        """Cards that count as lying in ``zone`` (``Placement.lies_in``), in arrival order."""
        return tuple(p.card for p in self.placements if p.lies_in(zone))

    def in_zone(self, zone: str) -> tuple[str, ...]:
        """Cards present in ``zone``, in the order they arrived."""
        return tuple(p.card for p in self.placements if p.zone == zone and p.present)
