"""The floor's answers to the engine's stud dealing calls, sent back as the engine's events.

Where the profile leaves a stud procedure to the floor (TDA 2011 has no RP-10), the engine
waits with a ``FLOOR`` ruling and the same event comes again carrying the floor's choice:

- ``dead_bring_in`` (R26/R50 with RP-10-C's question): a hand killed at the deal holds
  the bring-in card: ``posts_bring_in`` or ``next_low_card_brings_in`` (``KillAtDeal``);
- ``seventh_exposed`` (RP-10-B's question): ``replace`` or ``card_stands`` (``CardExposed``);
- ``both_downcards_exposed`` (beyond RP-10-A): ``misdeal`` is declared, ``play_on`` is not.

R66's call (``upcards_picked_up``) is answered in ``commands`` with the pads' own call.
"""

from __future__ import annotations

from pokertable.controller.engine.events import CardExposed, DeadAtDeal, KillAtDeal
from pokertable.controller.irregularities.events import ConfirmMisdeal
from pokertable.controller.table.hands import reader_step
from pokertable.controller.table.state import Output, PendingAlert, TableSession

STUD_DEALING_CALLS = frozenset({"dead_bring_in", "seventh_exposed", "both_downcards_exposed"})


def stud_dealing_decided(
    session: TableSession, pending: PendingAlert, decision: str, at_ms: int, out: list[Output]
) -> TableSession:
    """Apply the floor's choice on one of the engine's stud dealing calls."""
    seat, tracked = pending.ruling.seat, session.tracked
    if seat is None or tracked is None or tracked.over:
        return session
    if pending.kind == "dead_bring_in":
        reason = DeadAtDeal.ABSENT if seat in tracked.absent else DeadAtDeal.PENALTY
        kill = KillAtDeal(seat, reason, posts_bring_in=decision == "posts_bring_in",
                          at_ms=at_ms)
        return reader_step(session, kill, out, at_ms, "floor_applied")
    if pending.kind == "seventh_exposed":
        hole = tracked.hand.seat(seat).hole
        exposed = CardExposed(seat, hole[-1], replace=decision == "replace", at_ms=at_ms)
        return reader_step(session, exposed, out, at_ms, "floor_applied")
    if decision == "misdeal":  # both downcards exposed: the floor calls the misdeal
        return reader_step(session, ConfirmMisdeal(at_ms), out, at_ms, "misdeal")
    return session
