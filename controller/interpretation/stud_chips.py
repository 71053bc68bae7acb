"""Stud: the chips of the first to act on third street are the bring-in or its completion.

The first to act on third street (the bring-in card, RP-10-E) must post the bring-in or
complete to the small bet (R3 "complete"); a check is not open to him. His silent chips
read so:

- the bring-in (or all he has, if that is less): the bring-in;
- less than the bring-in with chips behind: the bring-in, and he owes the rest;
- the small bet or more: the completion; chips beyond it are change (fixed limit);
- between the two: the rules do not say which he meant; the floor decides, the options
  being the bring-in (the rest is change) and the completion (he owes the rest).

Once the bring-in is in, completing it is a raise to the small bet (``betting.options_for``
gives it as the fixed amount) and the usual readings (R44 overchip, R45 multiple chips)
apply. Words from the console read the same: a bet or an amount declared short of the
small bet is the bring-in (``declared_bring_in``); "complete" or the small bet completes.

>>> from pokertable.controller.engine import HandSetup, start_hand, step
>>> from pokertable.controller.engine.events import DealHole
>>> from pokertable.controller.engine.model import AnteFormat, Level, Variant
>>> from pokertable.controller.interpretation.chips import ZoneView
>>> from pokertable.controller.interpretation.events import ChipItem
>>> from pokertable.controller.rules import TDA_2024
>>> level = Level(small_blind=0, big_blind=100, ante=10, ante_format=AnteFormat.PER_PLAYER,
...     bring_in=25)
>>> hand, _ = start_hand(HandSetup(hand_id="s", variant=Variant.STUD, level=level, button=2,
...     small_blind_seat=None, big_blind_seat=1, players=((1, "A", 900), (2, "B", 900))))
>>> hand, _ = step(hand, DealHole(1, ("As", "Kd", "2c")))
>>> hand, _ = step(hand, DealHole(2, ("Qs", "Jd", "9h")))
>>> reading = bring_in_reading(hand, ZoneView.fresh(ChipItem(25)), TDA_2024)
>>> reading is not None and (str(reading.action), reading.total)
('bring_in', 25)
>>> reading = bring_in_reading(hand, ZoneView.fresh(ChipItem(100), ChipItem(25)), TDA_2024)
>>> reading is not None and (str(reading.action), reading.total, reading.returned)
('bet', 100, 25)
"""

from __future__ import annotations

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import HandState, Phase, Street
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation.chips import ZoneView
from pokertable.controller.interpretation.context import context_for
from pokertable.controller.interpretation.events import Declaration, DeclKind
from pokertable.controller.interpretation.outcome import Interpretation
from pokertable.controller.interpretation.raises import decided, floor, option_from, raise_to
from pokertable.controller.rules import RuleProfile


def bring_in_due(state: HandState) -> bool:
    """The first to act on third street has not brought it in or completed yet."""
    return (
        state.variant.is_stud
        and state.phase is Phase.BETTING
        and state.street is Street.THIRD
        and state.bring_in_seat is not None
        and state.call_to == 0
        and state.action_on is not None
    )


def bring_in_reading(state: HandState, zone: ZoneView, rules: RuleProfile) -> Interpretation | None:
    """The bring-in or the completion the chips of the seat on the action say; None when
    no bring-in is due (the usual readings apply) or some chips carry no value."""
    if not bring_in_due(state) or state.action_on is None:
        return None
    if any(not c.has_value for c in zone.new):
        return None  # RP-22: the non-value floor of ``read_chips``
    return _bring_in_or_complete(state, zone.value, zone.value, rules, "put", True)


def declared_bring_in(state: HandState, decl: Declaration, zone_value: int,
                      rules: RuleProfile) -> Interpretation | None:
    """A bet or an amount declared short of the small bet by the first to act on third
    street: the bring-in (or the floor, between the two), as his chips would be read.
    None for anything the usual words cover ("complete", the small bet, fold)."""
    if not bring_in_due(state) or decl.seat != state.action_on or decl.amount is None:
        return None
    if decl.kind not in (DeclKind.BET, DeclKind.RAISE, DeclKind.AMOUNT):
        return None
    amount = int(decl.amount)
    if amount >= state.level.big_blind:
        return None  # a completion (capped at the small bet) as any fixed-limit bet
    return _bring_in_or_complete(state, amount, zone_value, rules, "declared", False)


def _bring_in_or_complete(state: HandState, amount: int, zone_value: int, rules: RuleProfile,
                          how: str, by_chips: bool) -> Interpretation | None:
    assert state.action_on is not None
    ctx = context_for(state, state.action_on, rules)
    if ctx is None:
        return None
    seat = ctx.seat
    bring = state.level.bring_in
    small = state.level.big_blind
    posted = min(bring, ctx.all_in_to)
    ids = (rules.cite("bring_in"),)
    as_bring_in = decided(
        ctx, ActionKind.BRING_IN, posted, zone_value, ids,
        f"seat {seat} brings in for {posted}"
        + (f"; {zone_value - posted} is change" if zone_value > posted else ""),
        kind=RulingKind.CORRECTED if amount > posted else RulingKind.ACCEPTED,
        chip_defined=by_chips,
    )
    if amount <= posted:
        if amount < posted:
            return decided(ctx, ActionKind.BRING_IN, posted, zone_value, ids,
                           f"seat {seat} brings in: the bring-in is {posted}, not {amount}"
                           + (f"; he owes {posted - zone_value}" if zone_value < posted else ""),
                           kind=RulingKind.CORRECTED, chip_defined=by_chips)
        return as_bring_in
    if amount >= min(small, ctx.all_in_to):
        return raise_to(ctx, amount, zone_value, (rules.cite("complete"), *ids), rules,
                        f"the bring-in completed to the small bet {small}",
                        chip_defined=by_chips)
    to_small = raise_to(ctx, small, zone_value, (rules.cite("complete"), *ids), rules,
                        f"the bring-in completed to the small bet {small}",
                        chip_defined=by_chips)
    return floor(
        ctx, (*ids, rules.cite("complete"), rules.cite("floor_discretion")),
        f"seat {seat} {how} {amount} on the bring-in of {bring}: more than the bring-in, "
        f"less than the completion to {small}; the TD rules it the bring-in or the "
        "completion",
        (option_from("bring_in", as_bring_in), option_from("complete", to_small)),
    )
