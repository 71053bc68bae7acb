"""Chips put out of turn (R53-A): what they would mean now, and what happens to them.

The interpretation layer only decides. Chips a seat puts out before the action reaches it
are read as the action they would be if he were on the action now. The applying layer
(the irregularities layer at the live table) holds that action. When the action reaches
him, it binds if the action to him has not changed. Otherwise the chips go back and he has
all his options. That layer says which happened, and ``settle_held`` moves the zone's chips
to match: into the bet, or back to the player.
"""

from __future__ import annotations

from collections.abc import Iterable

from pokertable.controller.engine.model import HandState, evolve
from pokertable.controller.engine.rulings import Ruling
from pokertable.controller.interpretation.chips import read_chips
from pokertable.controller.interpretation.context import context_for
from pokertable.controller.interpretation.declarations import combine
from pokertable.controller.interpretation.events import Declaration, chip_value
from pokertable.controller.interpretation.outcome import Interpretation
from pokertable.controller.interpretation.zones import Pending, SeatZone
from pokertable.controller.rules import RuleProfile

APPLIED = frozenset({"oot_binding"})  # the held action was applied in turn
RETURNED = frozenset({"oot_void", "oot_not_valid", "oot_lapsed"})  # the chips go back


def reading_out_of_turn(state: HandState, zone: SeatZone,
                        rules: RuleProfile) -> Interpretation | None:
    """The action ``zone``'s chips would be if its seat were on the action now."""
    ctx = context_for(evolve(state, action_on=zone.seat), zone.seat, rules)
    if ctx is None:
        return None
    reading = read_chips(ctx, zone.view(ctx.own), rules)
    if reading.action is None or reading.floor is not None:
        return None
    return reading


def words_out_of_turn(state: HandState, decl: Declaration, zone: SeatZone,
                      rules: RuleProfile) -> Interpretation | None:
    """The action ``decl`` would be if its seat were on the action now (words need no chips)."""
    ctx = context_for(evolve(state, action_on=decl.seat), decl.seat, rules)
    if ctx is None:
        return None
    reading = combine(ctx, decl, zone.view(ctx.own), False, rules)
    if reading.action is None or reading.floor is not None or reading.waiting:
        return None
    return reading


def settle_held(pending: Pending, rulings: Iterable[Ruling]) -> Pending:
    """Move held chips into the bet (the action bound) or back to the player (it did not)."""
    for ruling in rulings:
        if ruling.seat is None or ruling.code not in APPLIED | RETURNED:
            continue
        zone = pending.zone(ruling.seat)
        if not zone.held:
            continue
        if not zone.motion:  # words alone were held: no chips to move
            zone = evolve(zone, held=False)
        elif ruling.code in APPLIED:
            chips = zone.prior + zone.motion
            zone = evolve(zone.afresh(), prior_start=chips, prior=chips)
        else:
            zone = evolve(zone, motion=(), held=False,
                          change=zone.change + chip_value(zone.motion))
        pending = pending.with_zone(zone)
    return pending
