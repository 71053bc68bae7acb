"""Irregularities from card and chip events: misdeals, fouled decks, burns, OOT, levels (issue 4).

The card readers see every card as it lands; this package turns that into the rulings of
TDA Rules 23, 30, 34-39, 53, 58, 65 and RP-5, around the pure hand engine::

    t, rulings = start_tracked(setup, TDA_2024, expected=table_setup)
    t, rulings = step(t, CardSeen("seat4.cards", "As", "e004a1"), TDA_2024)
    t, rulings = step(t, PlayerAction(4, ActionKind.CALL), TDA_2024)
    t.published(TDA_2024)     # SA from every reference point, misdeal offer, alerts ...

Every alert is a ``Ruling`` with rule ids and the procedure the dealer must follow.
"""

from pokertable.controller.irregularities.hand import HandStatus, TrackedHand
from pokertable.controller.irregularities.tracked import redeal, start_tracked, step

__all__ = ["HandStatus", "TrackedHand", "redeal", "start_tracked", "step"]
