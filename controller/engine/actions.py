"""Betting actions in turn: fold, check, call, bet, raise and all in (``engine.step``).

Split from ``engine`` so each module stays readable: this one holds what a player's
action may do under the rule profile (minimum and maximum raise, re-opening, the fixed-limit
cap, forfeits), and the engine dispatches to ``apply_action``.
"""

from __future__ import annotations

from pokertable.controller.engine import betting
from pokertable.controller.engine.checks import reject
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import (
    Betting,
    HandState,
    Phase,
    SeatState,
    SeatStatus,
    builder,
    evolve,
)
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import ReopenRule, RuleProfile

# Enum members as module globals: on CPython 3.11 reading one through its class
# (``SeatStatus.LIVE``) costs ~50 ns, and the engine does it per seat on every step.
_ACCEPTED = RulingKind.ACCEPTED
_BINDING = RulingKind.BINDING
_CORRECTED = RulingKind.CORRECTED
_FLOOR = RulingKind.FLOOR
_REJECTED = RulingKind.REJECTED
_BETTING = Phase.BETTING
_FIXED_LIMIT = Betting.FIXED_LIMIT
_POT_LIMIT = Betting.POT_LIMIT
_FOLDED = SeatStatus.FOLDED
_ruling = builder(Ruling)  # Ruling(...) with plain stores, for the rulings of every action
_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_ALL_IN_KIND = ActionKind.ALL_IN


def apply_action(
    state: HandState, event: PlayerAction, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.phase is not _BETTING or state.action_on is None:
        return reject(
            state,
            event.seat,
            f"no betting round is open (phase {state.phase})",
            rules.cite("in_turn_binding"),
            "no_betting_round",
        )
    if event.seat != state.action_on:
        return reject(
            state,
            event.seat,
            f"seat {event.seat} acted but the action is on seat {state.action_on}",
            rules.cite("acting_in_turn"),
            "out_of_turn",
        )
    seat = state.seat(event.seat)
    kind = event.kind
    if kind is _FOLD or kind is _CHECK or kind is _CALL:
        # What a fold, check or call needs of ``options_for``, without the raise bounds.
        return _fold_check_or_call(state, seat, kind, event.amount, rules)
    opts = betting.options_for(state, rules)
    assert opts is not None
    if kind is _ALL_IN_KIND:
        if opts.all_in_to <= state.call_to or not opts.can_raise:
            return _fold_check_or_call(state, seat, _CALL, event.amount, rules)
        target = min(opts.all_in_to, opts.max_to)
        state, rulings = _bet_or_raise(
            state, seat, target, opts, rules, event.floor_approved, event.short_stands
        )
        if target < opts.all_in_to and rulings[0].kind is not _REJECTED:
            note = Ruling(
                _CORRECTED,
                (rules.cite("pot_limit"),),
                f"seat {seat.seat} all in is capped at the pot-limit maximum {target}",
                seat=seat.seat,
                code="pot_limit_cap",
            )
            rulings = (note, *rulings[1:])
        return state, rulings
    # BET or RAISE
    if event.amount is None:
        return reject(
            state,
            seat.seat,
            f"seat {seat.seat}: a {kind} needs an amount",
            rules.cite("raise_total"),
            "amount_missing",
        )
    return _bet_or_raise(
        state, seat, event.amount, opts, rules, event.floor_approved, event.short_stands
    )


def _fold_check_or_call(
    state: HandState, seat: SeatState, kind: ActionKind, amount: int | None, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Fold, check or call: ``can_check`` and ``to_call`` as ``options_for`` gives them.

    Most actions of a hand are these, and they need none of the raise bounds (minimum,
    pot-limit maximum, re-opening, the cap) that ``options_for`` works out.
    """
    need = state.call_to - seat.bet
    can_check = need <= 0  # ``Options.can_check``
    to_call = min(need, seat.stack) if need > 0 else 0  # ``Options.to_call``
    if kind is _FOLD and amount:
        # R51-B: the floor had him forfeit (part of) an undercall and fold. The forfeited
        # chips are dead money in the pot; they never count as a call.
        if not 0 < amount <= seat.stack:
            return reject(
                state,
                seat.seat,
                f"seat {seat.seat} cannot forfeit {amount} with {seat.stack} behind",
                rules.cite("call_undercall"),
                "bad_forfeit",
            )
        folded = evolve(
            seat,
            status=_FOLDED,
            stack=seat.stack - amount,
            committed=seat.committed + amount,
            dead=seat.dead + amount,
        )
        state = betting.finish_action(state, folded, "fold", seat.bet, True)
        return state, (
            _ruling(
                _BINDING,
                (rules.cite("call_undercall"),),
                f"seat {seat.seat} forfeits {amount} to the pot and folds",
                seat=seat.seat,
                code="forfeit_fold",
            ),
        )
    if kind is _FOLD:
        state = betting.fold_and_finish(state, seat)
        ruling = (
            _ruling(
                _BINDING,
                (rules.cite("nonstandard_fold"),),
                f"seat {seat.seat} folded when checking was free: the fold is binding",
                seat=seat.seat,
                code="nonstandard_fold",
            )
            if can_check
            else _ruling(
                _ACCEPTED,
                (rules.cite("in_turn_binding"),),
                f"seat {seat.seat} folds",
                seat=seat.seat,
                code="fold",
            )
        )
        return state, (ruling,)
    if kind is _CHECK:
        if not can_check:
            return reject(
                state,
                seat.seat,
                f"seat {seat.seat} cannot check facing {to_call} to call; call or fold",
                rules.cite("check_facing_bet"),
                "check_facing_bet",
            )
        state = betting.finish_action(state, seat, "check", seat.bet, False)
        return state, (
            _ruling(
                _ACCEPTED,
                (rules.cite("in_turn_binding"),),
                f"seat {seat.seat} checks",
                seat=seat.seat,
                code="check",
            ),
        )
    # CALL
    if can_check:
        state = betting.finish_action(state, seat, "check", seat.bet, False)
        return state, (
            _ruling(
                _CORRECTED,
                (rules.cite("call_is_check"),),
                f"seat {seat.seat} called with nothing to call: a check",
                seat=seat.seat,
                code="call_is_check",
            ),
        )
    total = seat.bet + to_call
    all_in = " all in" if to_call == seat.stack else ""
    state = betting.pay_and_finish(state, seat, total, "call", total)
    return state, (
        _ruling(
            _ACCEPTED,
            (rules.cite("in_turn_binding"),),
            f"seat {seat.seat} calls{all_in} to {total}",
            seat=seat.seat,
            code="call",
        ),
    )

def _bet_or_raise(
    state: HandState,
    seat: SeatState,
    to: int,
    opts: betting.Options,
    rules: RuleProfile,
    floor_approved: bool = False,
    short_stands: bool = False,
) -> tuple[HandState, tuple[Ruling, ...]]:
    word = "raise" if state.call_to > 0 else "bet"
    faced = state.call_to - seat.matched
    if (
        not opts.reopened
        and rules.reopen is ReopenRule.FLOOR_ON_CUMULATIVE
        and seat.acted
        and faced >= state.increment
        and state.variant.betting is not _FIXED_LIMIT
        and seat.stack > opts.to_call
    ):
        if not floor_approved:
            return state, (
                Ruling(
                    _FLOOR,
                    (rules.cite("reopen"),),
                    f"seat {seat.seat} wants to raise after short all-ins that add up to a full "
                    f"raise ({faced} >= {state.increment}) though none of them was one: the "
                    "rules do not cover this, the floor decides",
                    seat=seat.seat,
                    options=("allow the raise", "call or fold only"),
                    code="reopen_floor",
                ),
            )
        opts = evolve(opts, can_raise=True, reopened=True)
    if not opts.can_raise:
        if not opts.reopened:
            needed = (
                f"half a bet, {betting.small_bet(state) // 2}"
                if state.variant.betting is _FIXED_LIMIT
                else f"a full raise, {state.increment}"
            )
            return reject(
                state,
                seat.seat,
                f"seat {seat.seat} may only call or fold: short all-ins since his last action "
                f"did not re-open the betting (faced {state.call_to - seat.matched}; "
                f"re-opening needs {needed})",
                rules.cite(
                    "reopen_limit" if state.variant.betting is _FIXED_LIMIT else "reopen"
                ),
                "not_reopened",
            )
        if state.variant.betting is _FIXED_LIMIT and seat.stack > opts.to_call:
            return reject(
                state,
                seat.seat,
                f"the raise cap of {rules.limit_max_bets_per_street} bets is reached: call or fold",
                rules.cite("raise_cap"),
                "raise_cap",
            )
        return reject(
            state,
            seat.seat,
            f"seat {seat.seat} cannot {word}: no chips beyond the call or nobody left to call",
            rules.cite("in_turn_binding"),
            "cannot_raise",
        )
    if to <= state.call_to:
        return reject(
            state,
            seat.seat,
            f"a {word} to {to} does not exceed {state.call_to}",
            rules.cite("raise_total"),
            "not_a_raise",
        )
    if to > opts.all_in_to:
        return reject(
            state,
            seat.seat,
            f"seat {seat.seat} has only {opts.all_in_to} in total, not {to}",
            rules.cite("in_turn_binding"),
            "more_than_stack",
        )
    short = to < opts.min_to and to != opts.all_in_to
    if short and not short_stands:
        return reject(
            state,
            seat.seat,
            f"a {word} to {to} is below the minimum {opts.min_to} "
            f"({betting.min_raise_basis(state, rules)})",
            rules.cite(betting.min_raise_concept(state, rules)),
            "below_minimum",
        )
    if to > opts.max_to:
        concept = "pot_limit" if state.variant.betting is _POT_LIMIT else "raise_cap"
        return reject(
            state,
            seat.seat,
            f"a {word} to {to} exceeds the maximum {opts.max_to}",
            rules.cite(concept),
            "above_maximum",
        )
    increment = to - state.call_to
    if state.variant.betting is _FIXED_LIMIT:
        full = increment >= betting.small_bet(state)
    else:
        full = increment >= state.increment
    all_in = to == opts.all_in_to
    state = betting.pay_and_finish(
        state,
        seat,
        to,
        word,
        to,
        call_to=to,
        increment=max(state.increment, increment) if full else state.increment,
        last_full_to=to if full else state.last_full_to,
        bets_this_street=state.bets_this_street + 1,
        last_aggressor=seat.seat,
    )
    if short:
        text = (
            f"the dealer let seat {seat.seat}'s {word} to {to} stand below the minimum "
            f"{opts.min_to}: if noticed on this street it is corrected to {opts.min_to} for "
            "all bettors (R52-A)"
        )
        ids: tuple[str, ...] = rules.cite("underbet", betting.min_raise_concept(state, rules))
        return state, (_ruling(_BINDING, ids, text, seat=seat.seat, code="short_stands"),)
    if full:
        text = f"seat {seat.seat} {word}s to {to}" + (" all in" if all_in else "")
        ids = (rules.cite("min_raise"),)
    else:
        text = (
            f"seat {seat.seat} is all in for {to}: a short {word} of {increment}, "
            f"the minimum raise stays {state.increment}"
        )
        ids = rules.cite("min_raise", "reopen")
    return state, (_ruling(_ACCEPTED, ids, text, seat=seat.seat, code=word),)
