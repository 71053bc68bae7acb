"""An ante the table took as posted whose chips never showed in the poster's bet zone (RP-11).

The engine posts the big blind ante (with per-player antes, each blind's ante too) as dead
money, and the table looks for its chips beside his blind (``SeatZone.ante_first``). When
the readers have reported his zone and the ante is still not in it when the action reaches
him (or the betting round closes first, a blind all in), the dealer is told once, naming the
seat and the amount: it went straight into the pot, or he owes it. Chips he then puts out
while he still posts make it up (``EventRunBase._ante_first``).
"""

from __future__ import annotations

from pokertable.controller.engine.model import HandState, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.interpretation.zones import SeatZone
from pokertable.controller.rules import RuleProfile


def ante_owed(hand: HandState, zone: SeatZone,
              rules: RuleProfile) -> tuple[SeatZone, Ruling] | None:
    """The zone marked told and the ruling, when his seen zone lacks the ante he posted and
    the dealer has not been told yet; None otherwise (a zone never read: the table cannot
    know, and takes the ante to lie there or in the pot)."""
    if zone.ante_due <= 0 or not zone.seen or zone.ante_told or not hand.has_seat(zone.seat) \
            or hand.variant.is_stud:  # stud antes usually go straight to the pot
        return None
    if hand.seat(zone.seat).acted:
        return None
    text = (f"seat {zone.seat}: his ante of {zone.ante_due} is not in his bet zone: unless "
            f"it went straight into the pot, he owes it (RP-11 dead money, not his blind)")
    return evolve(zone, ante_told=True), Ruling(
        RulingKind.ALERT, (rules.cite("antes"),), text, seat=zone.seat, code="ante_owed")
