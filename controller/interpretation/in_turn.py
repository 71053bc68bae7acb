"""The lean path for the commonest chips at the table: value chips settled in the bet zone
of the seat on the action, with nothing open around them.

Most chip motions in a hand are a player calling, checking or betting in turn. For those,
``EventRun``'s checks before the reading (the motion's validation, an ante or a late blind
to make first, a floor ruling or a quote, out-of-turn holding, R51-C, R55) all come out as
no-ops, and its routing costs more than the reading itself, every chip, from cold caches.
``plain_turn`` asks the few facts under which each of those checks is a no-op, then reads
the chips as ``EventRun`` does (the same ``read_chips`` against the same ``context_for``,
whose facts the last state already worked out). Anything else returns None and goes the
general way; what is applied after the reading is the general code's (``_engine_action``),
so the rulings are the same by construction.
"""

from __future__ import annotations

from pokertable.controller.engine.model import HandState, Phase, SeatStatus, evolve
from pokertable.controller.interpretation.chips import read_chips
from pokertable.controller.interpretation.context import context_for
from pokertable.controller.interpretation.events import VALUE, ChipMotion
from pokertable.controller.interpretation.late import UNDERCALL
from pokertable.controller.interpretation.outcome import Interpretation
from pokertable.controller.interpretation.zones import Pending
from pokertable.controller.rules import RuleProfile


def plain_turn(state: HandState, pending: Pending, event: ChipMotion,
               rules: RuleProfile) -> tuple[Pending, Interpretation] | None:
    """(the zones with the motion put, the decided reading) when ``event`` is chips in turn
    with nothing open; None: the general path decides (``EventRun.handle``)."""
    seat = event.seat
    # One settled motion (R56 and Add. 46 Sit. 5 need the general path), a betting round
    # open on this seat outside stud (the bring-in), no floor ruling or pot count pending.
    if not event.settled or event.combined_gesture or not event.chips \
            or state.action_on != seat or state.phase is not Phase.BETTING \
            or state.variant.is_stud or pending.floors or pending.quote is not None:
        return None
    for chip in event.chips:  # value chips only: RP-22 items and bad tags are alerts
        if chip.kind != VALUE or chip.denomination <= 0:
            return None
    if not state.has_seat(seat):
        return None
    me = state.seat(seat)
    if me.status is SeatStatus.FOLDED:
        return None
    zone = pending.zone(seat)
    # Nothing in the zone waits for these chips: an open motion, words, a held action, chips
    # owed after a ruling, R55's "check", an ante still to make (RP-11).
    if zone.motion or zone.motion_open or zone.declaration is not None or zone.held \
            or zone.waiting or zone.owed or zone.no_raise or zone.ante_due:
        return None
    if event.zone_read and not (me.acted or me.bet <= 0 or zone.prior_start):
        return None  # his posted blind may be among them (Add. 46, ``blind_chips_first``)
    ctx = context_for(state, seat, rules)
    if ctx is None:
        return None
    zone = evolve(zone, motion=event.chips, motion_last_ms=event.at_ms)
    reading = read_chips(ctx, zone.view(ctx.own), rules)
    if reading.floor is not None or reading.waiting or reading.action is None \
            or reading.code == UNDERCALL or reading.player_action(event.at_ms) is None:
        return None  # the floor, words awaited, or R51-C's sequence: the general path
    return pending.with_zone(zone), reading
