"""Rulings the rules leave to the Tournament Director, and the floor's answers to them.

A FLOOR ruling lists options; the table waits for ``FloorDecision(ruling_id, option)``. This
module builds the floor rulings that do not come from reading one bet (premature actions,
R50-B / R59-B; string bets, R56) and turns a chosen option into an ``Interpretation``.
"""

from __future__ import annotations

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import evolve
from pokertable.controller.engine.rulings import FloorDecision, RulingKind
from pokertable.controller.interpretation.events import Declaration, DeclKind
from pokertable.controller.interpretation.outcome import FloorOption, FloorRuling, Interpretation
from pokertable.controller.rules import RuleProfile

PREMATURE = "premature"
STRING_BET = "string_bet"
CHIPS_BEHIND = "chips_behind"


def premature(decl: Declaration, waiting_on: int, rules: RuleProfile) -> FloorRuling:
    """R50-B: words before the previous bet's amount is clear; R59-B for a premature call."""
    if decl.kind is DeclKind.CALL:
        ids: tuple[str, ...] = (rules.cite("premature_call"), rules.cite("wait_for_amount"))
        text = (f"seat {decl.seat} called before seat {waiting_on}'s amount was known: the TD "
                "rules as best fits, possibly obliging a call of any amount")
    else:
        ids = (rules.cite("wait_for_amount"), rules.cite("floor_discretion"))
        text = (f"seat {decl.seat} declared {decl.kind} before seat {waiting_on}'s amount was "
                "clear: whether it binds is the TD's call (open question A14)")
    options = (
        FloorOption("binding", f"seat {decl.seat}'s {decl.kind} binds when the action reaches "
                    "him"),
        FloorOption("void", f"seat {decl.seat} acts again once the amount is clear"),
    )
    return FloorRuling("", decl.seat, ids, text, options, blocks_table=False, topic=PREMATURE,
                       held=decl)


def string_bet(seat: int, total: int, excess: int, can_amend: bool,
               rules: RuleProfile) -> FloorRuling:
    """R56: a second motion after the bet was ruled; which chips count is not stated (A15)."""
    options = [FloorOption("first_motion", f"the bet stays {total}; {excess} goes back",
                           returned=excess)]
    if can_amend:
        options.append(FloorOption("count_all", f"the bet becomes {total + excess}",
                                   ActionKind.RAISE, total + excess))
    return FloorRuling(
        "", seat, (rules.cite("string_bet"), rules.cite("raising_methods"),
                   rules.cite("floor_discretion")),
        f"seat {seat} returned to his stack for {excess} more after a bet of {total}: a string "
        "bet; the TD decides whether those chips count", tuple(options), topic=STRING_BET,
        excess=excess,
    )


def chips_behind(seat: int, value: int, rules: RuleProfile) -> FloorRuling:
    """R62: is a hidden chip found behind an all-in part of the accepted action (R49)?"""
    options = (
        FloorOption("in_action", f"the {value} is part of the all-in: callers who cover him owe "
                    f"it too", ActionKind.ALL_IN),
        FloorOption("not_in_action", f"the {value} is set aside: he is not paid for it if he "
                    "wins, not saved by it if he loses; the TD may award it to the winning "
                    "caller"),
    )
    return FloorRuling(
        "", seat, (rules.cite("chips_behind"), rules.cite("accepted_action")),
        f"seat {seat} was all in and {value} was found behind: the TD decides whether it is "
        "part of the accepted action", options, topic=CHIPS_BEHIND, excess=value,
    )


def chosen(floor: FloorRuling, option: FloorOption, decision: FloorDecision, zone_value: int,
           own: int) -> Interpretation:
    """The Interpretation the table applies for a floor choice that carries an action."""
    returned, add = option.returned, option.add
    text = f"floor ruling {floor.ruling_id}: {option.text}"
    forfeit = 0
    if option.action is ActionKind.FOLD and option.forfeit:
        forfeit = option.forfeit if decision.forfeit is None else decision.forfeit
        forfeit = max(0, min(forfeit, zone_value))
        returned = max(0, zone_value - own - forfeit) if zone_value > own else 0
        text = (f"floor ruling {floor.ruling_id}: seat {floor.seat} forfeits {forfeit} and "
                f"folds; {returned} returned")
    return Interpretation(
        seat=floor.seat, action=option.action, total=option.total, returned=returned, add=add,
        rule_ids=floor.rule_ids, text=text, kind=RulingKind.CORRECTED,
        code=f"floor_{option.name}", complete_to=option.total if add else None, forfeit=forfeit,
    )


def with_id(floor: FloorRuling, number: int, hand_id: str) -> FloorRuling:
    return evolve(floor, ruling_id=f"{hand_id}/F{number}")
