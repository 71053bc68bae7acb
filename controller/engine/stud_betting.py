"""Stud's own betting: the bring-in, completing it and fourth street's bet (RP-10-E/F).

``stud.apply_stud_action`` is this module's (``state_machine`` and ``stud_procedures`` call
it there); the deal, the bring-in card and the opener are ``stud``'s. Everything else a
player does is the board games' betting (``betting``, ``actions``).
"""

from __future__ import annotations

from pokertable.controller.engine import betting
from pokertable.controller.engine.actions import apply_action
from pokertable.controller.engine.checks import reject
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import HandState, Phase, SeatState, Street, builder, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import RuleProfile

_ACCEPTED = RulingKind.ACCEPTED
_BETTING = Phase.BETTING
_THIRD = Street.THIRD
_FOURTH = Street.FOURTH
_BRING_IN_KIND = ActionKind.BRING_IN
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_FOLD = ActionKind.FOLD
_BET = ActionKind.BET
_RAISE = ActionKind.RAISE
_ALL_IN_KIND = ActionKind.ALL_IN
_ruling = builder(Ruling)  # Ruling(...) with plain stores, as in engine/actions.py


def apply_stud_action(
    state: HandState, event: PlayerAction, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """The bring-in, its completion and fourth street; everything else as in the board games.

    Only the action asked for is looked at here (fifth to seventh street, a call or a fold
    go straight to ``apply_action``): every action of a stud hand comes this way."""
    kind = event.kind
    if state.phase is not _BETTING or event.seat != state.action_on:
        return apply_action(state, event, rules)  # its refusals name the rule
    if kind is _BRING_IN_KIND:
        return _bring_in(state, state.seat(event.seat), rules)
    street = state.street
    if street is _THIRD:
        if state.call_to == 0:  # nobody has brought in: the bring-in or a completion is due
            if kind is _CHECK or kind is _CALL or (
                kind is _FOLD and event.seat == state.bring_in_seat
            ):
                return _bring_in_required(state, event.seat, rules)
        elif (
            (kind is _BET or kind is _RAISE or kind is _ALL_IN_KIND)
            and state.call_to < state.level.big_blind
            and not state.bets_this_street
        ):
            return _complete(state, state.seat(event.seat), event, rules)
    elif (
        street is _FOURTH
        and (kind is _BET or kind is _RAISE or kind is _ALL_IN_KIND)
        and event.amount is not None
        and event.amount > state.call_to + state.level.big_blind
    ):
        return reject(
            state,
            event.seat,
            f"bets on fourth street are {state.level.big_blind}: they are not doubled for a "
            "pair showing",
            rules.cite("stud_fourth_street"),
            "above_maximum",
        )
    return apply_action(state, event, rules)


def _bring_in(
    state: HandState, seat: SeatState, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """RP-10-E: the first to act on third street posts the bring-in (at most his stack)."""
    if state.street is not _THIRD or state.call_to != 0:
        return reject(
            state,
            seat.seat,
            "the bring-in is posted once, by the first to act on third street",
            rules.cite("bring_in"),
            "no_bring_in",
        )
    amount = min(state.level.bring_in, seat.stack)
    # He has acted: with nothing more than the bring-in in, the action does not come
    # back to him, and a short all-in over it re-opens the betting only as R47-B says.
    state = betting.pay_and_finish(state, seat, amount, "bring_in", amount, call_to=amount)
    return state, (
        _ruling(
            _ACCEPTED,
            (rules.cite("bring_in"),),
            f"seat {seat.seat} brings in for {amount}",
            seat=seat.seat,
            code="bring_in",
        ),
    )


def _bring_in_required(
    state: HandState, number: int, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    return reject(
        state,
        number,
        f"seat {number} must bring in for "
        f"{state.level.bring_in} or complete to {state.level.big_blind}"
        + ("" if number == state.bring_in_seat else ", or fold"),
        rules.cite("bring_in"),
        "bring_in_required",
    )


def _complete(
    state: HandState, seat: SeatState, event: PlayerAction, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Raising the bring-in is completing it to the small bet (R3 "complete")."""
    small = state.level.big_blind
    all_in_to = seat.bet + seat.stack
    to = min(small, all_in_to)
    if to <= state.call_to:  # all in for no more than the bring-in: a call
        return apply_action(state, evolve(event, kind=ActionKind.CALL, amount=None), rules)
    if event.kind is not ActionKind.ALL_IN and event.amount != to:
        return reject(
            state,
            seat.seat,
            f"the bring-in of {state.call_to} is completed to {to}, not {event.amount}",
            rules.cite("complete"),
            "complete_amount",
        )
    full = to == small
    state = betting.pay_and_finish(
        state,
        seat,
        to,
        "raise",
        to,
        call_to=to,
        last_full_to=to if full else state.last_full_to,
        bets_this_street=state.bets_this_street + 1,
        last_aggressor=seat.seat,
    )
    if full:
        # The completion is the street's first full bet: it re-opens the betting to every
        # player who acted on the bring-in, whatever the bring-in's size (R47-B counts
        # short all-ins, not this).
        state = evolve(
            state,
            seats=tuple(
                evolve(s, matched=0) if s.acted and s.matched and s.seat != seat.seat else s
                for s in state.seats
            ),
        )
    text = f"seat {seat.seat} completes the bring-in to {to}" + ("" if full else " all in")
    return state, (
        _ruling(_ACCEPTED, (rules.cite("complete"),), text, seat=seat.seat, code="complete"),
    )
