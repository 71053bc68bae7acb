"""Raise sizing shared by chips and words: the 50% standard (R43-A), completions to the legal
minimum (R43-A, R52-A), the pot-limit cap (R54) and the bookkeeping of change and chips owed.

Every function returns an ``Interpretation`` whose ``total`` is a street total; ``zone``
is the value the player's betting zone holds for this action (chips returned = zone above
the total, chips owed = total above the zone), so chips are conserved by construction:
``zone + add - returned == total``.
"""

from __future__ import annotations

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Betting
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation.context import BetContext
from pokertable.controller.interpretation.outcome import FloorOption, FloorRuling, Interpretation
from pokertable.controller.rules import FiftyBasis, RuleProfile


def decided(
    ctx: BetContext, action: ActionKind, total: int, zone: int, ids: tuple[str, ...], text: str,
    *, kind: RulingKind = RulingKind.ACCEPTED, code: str = "", chip_defined: bool = False,
    complete_to: int | None = None,
) -> Interpretation:
    """An Interpretation with change / chips owed worked out from the zone value."""
    returned = max(0, zone - total)
    add = max(0, total - zone)
    return Interpretation(
        seat=ctx.seat, action=action, total=total, returned=returned, add=add,
        complete_to=complete_to, rule_ids=_unique(ids), text=text, kind=kind,
        code=code or str(action), chip_defined=chip_defined,
    )


def call(ctx: BetContext, zone: int, ids: tuple[str, ...], why: str, *,
         kind: RulingKind = RulingKind.ACCEPTED, chip_defined: bool = False,
         code: str = "call") -> Interpretation:
    """A call of the full amount, or all in for less when the stack does not cover it."""
    if ctx.all_in_to <= ctx.call_to:
        return decided(ctx, ActionKind.ALL_IN, ctx.all_in_to, zone, ids,
                       f"seat {ctx.seat} calls all in for {ctx.all_in_to}: {why}",
                       kind=kind, code="call_all_in", chip_defined=chip_defined)
    text = f"seat {ctx.seat} calls {ctx.call_to}: {why}"
    return decided(ctx, ActionKind.CALL, ctx.call_to, zone, ids, text, kind=kind, code=code,
                   chip_defined=chip_defined)


def raise_to(ctx: BetContext, total: int, zone: int, ids: tuple[str, ...], rules: RuleProfile,
             why: str, *, chip_defined: bool = False,
             below_min: tuple[str, ...] | None = None) -> Interpretation:
    """A bet or raise the player is committed to, corrected into the legal range.

    Below the minimum -> completed to the minimum (R43-A, R52-A; R55-B for a bet); beyond the
    pot-limit maximum -> capped (R54); at or above the stack -> all in.
    """
    word = ctx.bet_word()
    if not ctx.can_raise:
        reason = ("short all-ins did not re-open the betting" if not ctx.reopened
                  else "no chips beyond the call or nobody left to raise")
        concept = "reopen"
        if ctx.reopened and ctx.betting is Betting.FIXED_LIMIT and ctx.stack > ctx.need:
            reason, concept = "the raise cap is reached (or nobody is left to raise)", "raise_cap"
        return call(ctx, zone, (*ids, rules.cite(concept)), f"{why}; he may not raise: {reason}",
                    kind=RulingKind.CORRECTED, chip_defined=chip_defined, code="raise_not_allowed")
    if total >= ctx.all_in_to and ctx.all_in_to <= ctx.max_to:
        return decided(ctx, ActionKind.ALL_IN, ctx.all_in_to, zone, ids,
                       f"seat {ctx.seat} is all in for {ctx.all_in_to}: {why}",
                       code="all_in", chip_defined=chip_defined)
    if total > ctx.max_to:
        capped = ctx.max_to
        concept = "pot_limit" if ctx.betting is Betting.POT_LIMIT else "raise_cap"
        return decided(ctx, ctx.aggressive(capped), capped, zone, (*ids, rules.cite(concept)),
                       f"seat {ctx.seat} {word}s the maximum {capped}, not {total}: {why}",
                       kind=RulingKind.CORRECTED, code="capped", chip_defined=chip_defined)
    if total < ctx.min_to:
        target = ctx.min_to
        extra = below_min if below_min is not None else (
            (rules.cite("underbet"),) if word is ActionKind.BET
            else rules.cite("min_raise", "underbet"))
        basis = ""
        if target > ctx.full_raise_to:  # a house minimum above R43-A (Clubs NZ R48)
            extra = (*extra, rules.cite("min_reraise"))
            basis = f" (min_reraise={rules.min_reraise.value}: double the bet of {ctx.call_to})"
        return decided(
            ctx, ctx.aggressive(target), target, zone, (*ids, *extra),
            f"seat {ctx.seat} must {word} to the minimum {target}{basis} (he put {total}): {why}",
            kind=RulingKind.CORRECTED, code="completed", chip_defined=chip_defined,
            complete_to=target,
        )
    return decided(ctx, ctx.aggressive(total), total, zone, ids,
                   f"seat {ctx.seat} {word}s to {total}: {why}", chip_defined=chip_defined)


def fifty_standard(ctx: BetContext, total: int, zone: int, ids: tuple[str, ...],
                   rules: RuleProfile, why: str, *, chip_defined: bool = False) -> Interpretation:
    """R43-A for an unannounced amount above the call: raise, complete to a min raise, or call."""
    portion = total - ctx.call_to
    ids = (*ids, rules.cite("min_raise"))
    if total >= ctx.full_raise_to or total >= ctx.max_to:
        return raise_to(ctx, total, zone, ids, rules, f"{why}; a full raise",
                        chip_defined=chip_defined)
    if rules.fifty_basis is FiftyBasis.FLOOR:
        by_increment = _fifty(ctx, total, zone, ids, rules, why, ctx.inc, _RAISE, chip_defined)
        by_bet = _fifty(ctx, total, zone, ids, rules, why, ctx.call_to, _BET, chip_defined)
        if (by_increment.action, by_increment.total) == (by_bet.action, by_bet.total):
            return by_increment
        return floor(ctx, (*ids, rules.cite("floor_discretion")),
                     f"seat {ctx.seat} put {portion} over {ctx.call_to}: 50% of the last raise "
                     f"({ctx.inc}) and 50% of the previous bet ({ctx.call_to}) disagree; the TD "
                     "chooses the basis (open question A31)",
                     (option_from("last_increment", by_increment),
                      option_from("previous_bet", by_bet)))
    if rules.fifty_basis is FiftyBasis.PREVIOUS_BET:
        return _fifty(ctx, total, zone, ids, rules, why, ctx.call_to, _BET, chip_defined)
    return _fifty(ctx, total, zone, ids, rules, why, ctx.inc, _RAISE, chip_defined)


_RAISE = "half the last full raise"
_BET = "half the previous bet"


def _fifty(ctx: BetContext, total: int, zone: int, ids: tuple[str, ...], rules: RuleProfile,
           why: str, basis: int, what: str, chip_defined: bool) -> Interpretation:
    """The 50% test of an amount above the call against ``basis`` (R43-A; T11 R37)."""
    portion = total - ctx.call_to
    threshold = rules.raise_threshold * basis
    if portion >= threshold:
        if portion == threshold and rules.exact_threshold_option:
            return _exact_threshold_floor(ctx, total, zone, ids, rules, why)
        return raise_to(ctx, total, zone, ids, rules,
                        f"{why}; {portion} is at least {threshold:g} ({what} {basis}), so a "
                        "full minimum raise", chip_defined=chip_defined,
                        below_min=())
    return call(ctx, zone, ids,
                f"{why}; {portion} is less than {threshold:g} ({what} {basis}) and raise "
                "was not declared",
                kind=RulingKind.CORRECTED if zone > ctx.call_to else RulingKind.ACCEPTED,
                chip_defined=chip_defined)


def _exact_threshold_floor(ctx: BetContext, total: int, zone: int, ids: tuple[str, ...],
                           rules: RuleProfile, why: str) -> Interpretation:
    as_call = call(ctx, zone, ids, why)
    as_raise = raise_to(ctx, total, zone, ids, rules, why)
    return floor(ctx, ids, f"seat {ctx.seat} put exactly half a raise: the player chooses "
                 "(house option at exactly 50%)",
                 (option_from("call", as_call), option_from("raise", as_raise)))


def option_from(name: str, reading: Interpretation) -> FloorOption:
    return FloorOption(name, reading.text, reading.action, reading.total, reading.returned,
                       reading.add)


def floor(ctx: BetContext, ids: tuple[str, ...], text: str,
          options: tuple[FloorOption, ...], *, blocks_table: bool = True) -> Interpretation:
    """A TD-discretion ruling: no action, the options listed, the table waits."""
    ruling = FloorRuling("", ctx.seat, _unique(ids), text, options, blocks_table)
    return Interpretation(seat=ctx.seat, action=None, total=ctx.own, rule_ids=ruling.rule_ids,
                          text=text, kind=RulingKind.FLOOR, code="floor", floor=ruling)


def _unique(ids: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))
