"""Verbal declarations (R40-B/C, R43-B, R51-A, R54-D, R55, R57, R59) and R40-A precedence.

``read_declaration`` rules on words, using the chips in the zone only where the words leave
the amount to them ("raise" without an amount, R42-B / R51-A). ``combine`` applies R40-A:
whichever came first defines the bet; simultaneous clear words beat chips; unclear or
contradictory input goes to the TD with both readings as options.
"""

from __future__ import annotations

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Betting
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation.chips import ZoneView, read_chips
from pokertable.controller.interpretation.context import BetContext
from pokertable.controller.interpretation.events import (
    Declaration,
    DeclKind,
    Precedence,
)
from pokertable.controller.interpretation.outcome import FloorOption, Interpretation
from pokertable.controller.interpretation.pot_limit import (
    ambiguous_amount,
    ambiguous_floor,
    pot_declaration,
)
from pokertable.controller.interpretation.raises import (
    call,
    decided,
    fifty_standard,
    floor,
    option_from,
    raise_to,
)
from pokertable.controller.interpretation.undercalls import undercall
from pokertable.controller.rules import NlPotDeclaration, RuleProfile

UNCLEAR_WORDS = frozenset({DeclKind.CONDITIONAL, DeclKind.NONSTANDARD})


def combine(ctx: BetContext, decl: Declaration, zone: ZoneView, chips_present: bool,
            rules: RuleProfile) -> Interpretation:
    """R40-A: pick the defining element between words and chips, or hand it to the TD."""
    prec = decl.precedence
    if prec is Precedence.CHIPS_FIRST or (prec is Precedence.SIMULTANEOUS
                                          and decl.kind in UNCLEAR_WORDS):
        if not chips_present:
            return _waiting(ctx, decl, rules, "chips came first: waiting for them to settle")
        reading = read_chips(ctx, zone, rules)
        return _with_ids(reading, (rules.cite("verbal_chips"),),
                         f" (chips came first and define the bet; the words '{decl.kind}' "
                         "do not change it)")
    if prec is Precedence.UNCLEAR:
        if not chips_present:
            return _waiting(ctx, decl, rules, "words unclear: waiting for the chips")
        return _contradiction(ctx, decl, zone, rules)
    return read_declaration(ctx, decl, zone, chips_present, rules)


def read_declaration(ctx: BetContext, decl: Declaration, zone: ZoneView, chips_present: bool,
                     rules: RuleProfile) -> Interpretation:
    """Words define the bet; chips already out only fulfil it (change back / chips owed)."""
    value = zone.holds(ctx.own)
    kind = decl.kind
    amount = None if decl.amount is None else int(decl.amount)
    general = (rules.cite("general_declaration"),)
    if kind is DeclKind.FOLD:
        return decided(ctx, ActionKind.FOLD, ctx.own, ctx.own, (rules.cite("in_turn_binding"),),
                       f"seat {ctx.seat} folds", code="fold")
    if kind is DeclKind.CHECK:
        if not ctx.facing:
            return decided(ctx, ActionKind.CHECK, ctx.own, value, general,
                           f"seat {ctx.seat} checks", code="check")
        return Interpretation(
            seat=ctx.seat, action=None, total=ctx.own, rule_ids=(rules.cite("check_facing_bet"),),
            text=f"seat {ctx.seat} said check facing {ctx.call_to}: he may call or fold but "
                 "not raise", kind=RulingKind.CORRECTED, code="check_facing_bet")
    if kind is DeclKind.CALL:
        if not ctx.facing:
            return decided(ctx, ActionKind.CHECK, ctx.own, value, (rules.cite("call_is_check"),),
                           f"seat {ctx.seat} said call with no bet to him: a check",
                           kind=RulingKind.CORRECTED, code="call_is_check")
        return call(ctx, value, general, "'call' commits him to the full current action")
    if kind is DeclKind.ALL_IN:
        if not ctx.facing or ctx.all_in_to > ctx.call_to:
            return raise_to(ctx, ctx.all_in_to, value, general, rules, "all in declared")
        return call(ctx, value, general, "all in declared")
    if kind in UNCLEAR_WORDS:
        return _unclear_words(ctx, decl, zone, chips_present, rules)
    if decl.magnitude_unclear and amount is not None:
        chosen, legal = ambiguous_amount(ctx, amount, rules)
        if chosen is None:
            return ambiguous_floor(ctx, amount, legal, value, rules)
        reading = _amount_reading(ctx, kind, chosen, value, rules)
        return _with_ids(reading, (rules.cite("unclear_betting"),),
                         f" ('{decl.words or amount}' read as {chosen}: the highest reasonable "
                         f"amount not above the pot {ctx.pot})")
    if kind is DeclKind.POT:
        as_pot = pot_declaration(ctx, value, rules)
        if as_pot is not None:
            return as_pot
        if rules.nl_pot_declaration is NlPotDeclaration.NOT_A_BET:
            # ACE R54: "pot" binds to nothing in no-limit; the player must say an amount.
            return Interpretation(
                seat=ctx.seat, action=None, total=ctx.own,
                rule_ids=(rules.cite("nl_pot_declaration"),),
                text=f"seat {ctx.seat} said pot: not a bet in no-limit here; he must declare "
                     "an amount", kind=RulingKind.CORRECTED, code="pot_not_a_bet")
    if kind is DeclKind.COMPLETE and ctx.betting is Betting.FIXED_LIMIT:
        return raise_to(ctx, ctx.min_to, value, general, rules, "complete to the full bet")
    if amount is not None:
        return _amount_reading(ctx, kind, amount, value, rules)
    # BET / RAISE / POT (no limit) / COMPLETE without an amount: the chips size it.
    ids = _commit_ids(ctx, kind, rules)
    if not ctx.can_raise or ctx.betting is Betting.FIXED_LIMIT:
        return raise_to(ctx, ctx.min_to, value, ids, rules, f"'{kind}' declared")
    if not chips_present:
        return _waiting(ctx, decl, rules, f"'{kind}' declared: the chips will give the amount")
    if rules.two_motion_raise and kind is DeclKind.RAISE and ctx.facing and value == ctx.call_to:
        # T11 R36: "raise" declared, the call amount pushed, the raise in one more motion.
        return Interpretation(seat=ctx.seat, action=None, total=ctx.own,
                              rule_ids=(rules.cite("two_motion_raise"),),
                              text=f"seat {ctx.seat} declared raise and pushed the call amount "
                                   f"{ctx.call_to}: the raise follows in one more motion",
                              kind=RulingKind.INFO, code="two_motion_pending", waiting=True)
    return raise_to(ctx, value, value, ids, rules, f"'{kind}' declared, then {value} in chips",
                    chip_defined=True)


def _amount_reading(ctx: BetContext, kind: DeclKind, amount: int, value: int,
                    rules: RuleProfile) -> Interpretation:
    if kind is DeclKind.AMOUNT:
        return amount_only(ctx, amount, value, rules)
    ids = (*_commit_ids(ctx, kind, rules), rules.cite("raise_total"))
    if ctx.facing and amount <= ctx.call_to and amount < ctx.all_in_to:
        return raise_to(ctx, ctx.min_to, value, ids, rules,
                        f"'{kind} {amount}' cannot be a total above {ctx.call_to}: a raise "
                        "commits him to at least the minimum")
    return raise_to(ctx, amount, value, ids, rules, f"'{kind} {amount}' is a total of {amount}")


def amount_only(ctx: BetContext, amount: int, value: int, rules: RuleProfile) -> Interpretation:
    """R40-C: an amount alone is the same as silently pushing that amount."""
    ids = (rules.cite("amount_only"),)
    why = f"'{amount}' alone is the same as pushing {amount}"
    if not ctx.facing:
        if ctx.call_to > 0 and amount <= ctx.call_to:
            return decided(ctx, ActionKind.CHECK, ctx.own, value, ids, f"{why}: a check")
        return raise_to(ctx, amount, value, ids, rules, why)
    if amount >= ctx.all_in_to:
        return raise_to(ctx, ctx.all_in_to, value, ids, rules, f"{why}: all his chips")
    if amount < ctx.call_to:
        return undercall(ctx, amount, value, ids, rules, why)
    if amount == ctx.call_to:
        return call(ctx, value, ids, why)
    return fifty_standard(ctx, amount, value, ids, rules, why)


def _commit_ids(ctx: BetContext, kind: DeclKind, rules: RuleProfile) -> tuple[str, ...]:
    if kind is DeclKind.POT:
        return (rules.cite("nl_pot_declaration"),)
    if kind is DeclKind.RAISE and not ctx.facing and ctx.call_to == 0:
        return (rules.cite("raise_is_min_bet"),)
    return (rules.cite("general_declaration"),)


def _unclear_words(ctx: BetContext, decl: Declaration, zone: ZoneView, chips_present: bool,
                   rules: RuleProfile) -> Interpretation:
    """R59-A conditional or R57 non-standard words: the TD rules; the legal actions are listed."""
    concept = "conditional" if decl.kind is DeclKind.CONDITIONAL else "unclear_betting"
    value = zone.holds(ctx.own)
    readings = [read_chips(ctx, zone, rules)] if chips_present else []
    if ctx.facing:
        readings.append(call(ctx, value, (), "ruled a call"))
        readings.append(decided(ctx, ActionKind.FOLD, ctx.own, ctx.own, (), "ruled a fold"))
    else:
        readings.append(decided(ctx, ActionKind.CHECK, ctx.own, value, (), "ruled a check"))
    if ctx.can_raise:
        target = decl.amount if isinstance(decl.amount, int) and decl.amount > 0 else ctx.min_to
        readings.append(raise_to(ctx, target, value, (), rules, "ruled binding as said"))
    options: list[FloorOption] = []
    for reading in readings:
        if reading.floor is not None:
            options.extend(reading.floor.options)
        elif reading.action is not None:
            name = f"{reading.action}_{reading.total}"
            if all(o.name != name for o in options):
                options.append(option_from(name, reading))
    return floor(ctx, (rules.cite(concept), rules.cite("floor_discretion")),
                 f"seat {ctx.seat} made a {decl.kind} declaration '{decl.words}': the TD decides "
                 "whether and how it binds; subject to penalty", tuple(options))


def _contradiction(ctx: BetContext, decl: Declaration, zone: ZoneView,
                   rules: RuleProfile) -> Interpretation:
    """Add. 40-A Ex 1: words unclear or contradicting the chips; both readings to the TD."""
    by_chips = read_chips(ctx, zone, rules)
    by_words = read_declaration(ctx, decl, zone, True, rules)
    options: list[FloorOption] = []
    for name, reading in (("chips", by_chips), ("verbal", by_words)):
        if reading.floor is not None:
            options.extend(o for o in reading.floor.options if o.action is not None)
        elif reading.action is not None:
            options.append(option_from(name, reading))
    said = f"{decl.kind} {decl.amount}" if decl.amount is not None else str(decl.kind)
    return floor(ctx, (rules.cite("verbal_chips"), rules.cite("floor_discretion")),
                 f"seat {ctx.seat}: words '{said}' (unclear) and chips {zone.value} disagree; "
                 f"the TD determines the bet. Words read: {by_words.text}. Chips read: "
                 f"{by_chips.text}", tuple(options))


def _waiting(ctx: BetContext, decl: Declaration, rules: RuleProfile, why: str) -> Interpretation:
    return Interpretation(seat=ctx.seat, action=None, total=ctx.own,
                          rule_ids=(rules.cite("general_declaration"),),
                          text=f"seat {ctx.seat}: {why}", kind=RulingKind.INFO,
                          code="amount_pending", waiting=True)


def _with_ids(reading: Interpretation, ids: tuple[str, ...], note: str) -> Interpretation:
    from pokertable.controller.engine.model import evolve

    merged = tuple(dict.fromkeys((*reading.rule_ids, *ids)))
    if reading.floor is not None:
        return evolve(reading, rule_ids=merged, text=reading.text + note,
                      floor=evolve(reading.floor, rule_ids=tuple(dict.fromkeys(
                          (*reading.floor.rule_ids, *ids)))))
    return evolve(reading, rule_ids=merged, text=reading.text + note)
