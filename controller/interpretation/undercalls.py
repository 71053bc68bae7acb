"""Undercalls (R51-B, R51-C) and relatively tiny chips (R41).

An undercall is less than the call, without "call" declared first and not all in. Heads-up,
or against the round's opening bet, it is a mandatory full call; anywhere else the TD
chooses between a full call and forfeiting the intended undercall and folding. A chip that is
relatively tiny to the bet always goes to the TD (R41), even where R51-B would force a call
(open question A11: both rules are cited).
"""

from __future__ import annotations

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation.context import BetContext
from pokertable.controller.interpretation.outcome import FloorOption, Interpretation
from pokertable.controller.interpretation.raises import call, floor, option_from
from pokertable.controller.rules import RuleProfile


def undercall(ctx: BetContext, total: int, zone: int, ids: tuple[str, ...], rules: RuleProfile,
              why: str, *, chip_defined: bool = False) -> Interpretation:
    """Rule on ``total`` < call_to from a player who has more chips (not all in)."""
    ids = (*ids, rules.cite("call_undercall"))
    mandatory = ("heads-up" if ctx.heads_up else "against the opening bet" if ctx.opening_bet
                 else "")
    full = call(ctx, zone, ids, f"{why}; {total} is an undercall of {ctx.call_to}",
                kind=RulingKind.CORRECTED, chip_defined=chip_defined, code="undercall_full_call")
    intended = max(0, total - ctx.own)
    fold = forfeit_option(ctx, zone, intended)
    tiny = total < rules.tiny_chip_fraction * ctx.call_to
    if tiny:
        note = f" (R51-B alone would make it a full call {mandatory})" if mandatory else ""
        return floor(ctx, (rules.cite("calling_methods"), *ids),
                     f"seat {ctx.seat} silently put {total}, relatively tiny against "
                     f"{ctx.call_to}: TD decides, a full call is possible{note}; "
                     "subject to penalty",
                     (option_from("full_call", full), fold))
    if mandatory and rules.undercall_mandatory:
        return full
    return floor(ctx, ids,
                 f"seat {ctx.seat} undercalled {ctx.call_to} with {total} multi-way and not "
                 "against the opening bet: TD decides between a full call and forfeiting the "
                 "undercall and folding",
                 (option_from("full_call", full), fold))


def forfeit_option(ctx: BetContext, zone: int, intended: int) -> FloorOption:
    """Fold, forfeiting the intended undercall (the TD may set a smaller forfeit, Add. 51 Ex 4)."""
    return FloorOption(
        "forfeit_fold",
        f"seat {ctx.seat} forfeits up to {intended} to the pot and folds",
        ActionKind.FOLD, ctx.own, returned=max(0, zone - ctx.own - intended), forfeit=intended,
    )
