"""Betting rounds: whose turn it is, what they may do, and what an action does (R43, R47, R48, R54).

All amounts are street totals ("raise to X"), as the TDA rules state raises. Functions here are pure
and return new state; legality is answered once, by ``options_for``, and both the engine's
``step`` and any "can I?" question use it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine.model import (
    ActionRecord,
    Betting,
    HandState,
    SeatState,
    SeatStatus,
    Street,
    builder,
    copier,
    evolve,
)
from pokertable.controller.rules import MinReraise, ReopenRule, RuleProfile

# Enum members as module globals: on CPython 3.11 reading one through its class
# (``SeatStatus.LIVE``) costs ~50 ns, and the engine does it per seat on every step.
_ALL_IN = SeatStatus.ALL_IN
_FOLDED = SeatStatus.FOLDED
_LIVE = SeatStatus.LIVE
_FIXED_LIMIT = Betting.FIXED_LIMIT
_POT_LIMIT = Betting.POT_LIMIT
_FLOP = Street.FLOP
_PREFLOP = Street.PREFLOP
_action_record = builder(ActionRecord)  # ActionRecord(...) with plain stores (every action)
# The copies every action makes, with positional values (model.copier): the actor's seat,
# the hand with the action recorded (a bet or raise also sets the street's bet fields),
# and a seat at a new street.
_seat_acted = copier(SeatState, "acted", "matched")
_seat_folded = copier(SeatState, "status", "acted", "matched")
_seat_paid = copier(SeatState, "stack", "bet", "committed", "status", "acted", "matched")
_seat_new_street = copier(SeatState, "bet", "acted", "matched")
_state_acted = copier(HandState, "seats", "actions", "action_on")
_RAISE_FIELDS = ("call_to", "increment", "last_full_to", "bets_this_street", "last_aggressor")
_state_raised = copier(HandState, "seats", "actions", "action_on", *_RAISE_FIELDS)


@dataclass(frozen=True, slots=True)
class Options:
    """What the seat on the action may do now."""

    seat: int
    to_call: int  # chips to add to call (0 = may check); already capped at the stack
    can_check: bool
    can_raise: bool  # bet or raise allowed (stack beyond the call, round open to him, cap not hit)
    min_to: int  # smallest legal bet/raise total, or the all-in total when that is smaller
    max_to: int  # largest legal bet/raise total (NL: all-in; PL: pot; FL: the fixed size)
    all_in_to: int  # street total if he puts everything in
    reopened: bool  # False when short all-ins did not re-open the betting to him (R47)


_options = builder(Options)  # Options(...) with plain stores: every bet and raise asks


def small_bet(state: HandState) -> int:
    """Fixed limit: the bet size of the current street (small bet pre-flop and flop)."""
    bb = state.level.big_blind
    return bb if state.street <= _FLOP else 2 * bb


def pot_limit_max_to(state: HandState, seat: SeatState, rules: RuleProfile) -> int:
    """R54: max raise to = call_to + (all chips in the pot and in front + the call)."""
    call_to = state.call_to
    pot = state.pot_total
    if state.street is _PREFLOP and state.preflop_assumed_dead:
        # R54-B: a dead or short all-in blind is counted as if fully posted.
        pot += state.preflop_assumed_dead
        call_to = max(call_to, state.level.big_blind)
    return call_to + pot + (call_to - seat.bet)


def is_reopened(state: HandState, seat: SeatState, rules: RuleProfile) -> bool:
    """R47: has the betting been re-opened to a seat that already acted this street?"""
    if not seat.acted:
        return True
    faced = state.call_to - seat.matched
    if faced <= 0:
        return False
    if state.variant.betting is _FIXED_LIMIT:
        return faced >= rules.limit_reopen_fraction * small_bet(state)
    if rules.reopen is not ReopenRule.CUMULATIVE:
        # Only a full raise made after he acted re-opens; cumulative short all-ins do not.
        return state.last_full_to > seat.matched
    return faced >= state.increment


def min_raise_to(state: HandState, rules: RuleProfile) -> int:
    """R43-A: call + the largest full increment; Clubs NZ R48 also asks for double the bet."""
    to = state.call_to + state.increment
    if rules.min_reraise is MinReraise.DOUBLE_PREVIOUS_BET:
        to = max(to, 2 * state.call_to)
    return to


def min_raise_concept(state: HandState, rules: RuleProfile) -> str:
    """The rule concept that sets the minimum now: NZ R48's "double" where it binds."""
    if (
        rules.min_reraise is MinReraise.DOUBLE_PREVIOUS_BET
        and 2 * state.call_to > state.call_to + state.increment
    ):
        return "min_reraise"
    return "min_raise"


def min_raise_basis(state: HandState, rules: RuleProfile) -> str:
    """Why the minimum is what it is, for the dealer's sentence."""
    if min_raise_concept(state, rules) == "min_reraise":
        return f"min_reraise={rules.min_reraise.value}: at least double the bet of {state.call_to}"
    return f"last full increment {state.increment}"


def cap_applies(state: HandState, rules: RuleProfile) -> bool:
    """R48: the limit cap holds heads-up too, until the event is down to two players.

    The number of players left comes from the room (``event_players_left``); unknown
    means the event is not down to two. ``limit_cap_heads_up=False`` is a house rule
    that lifts the cap whenever the hand is heads-up.
    """
    heads_up = len([s for s in state.seats if s.status is _LIVE]) <= 2
    if not heads_up:
        return True
    event_down_to_two = state.event_players_left is not None and state.event_players_left <= 2
    return rules.limit_cap_heads_up and not event_down_to_two


def options_for(state: HandState, rules: RuleProfile) -> Options | None:
    """Options of the seat on the action, or None when nobody is on the action."""
    if state.action_on is None:
        return None
    seat = state.seat(state.action_on)
    need = max(0, state.call_to - seat.bet)
    all_in_to = seat.bet + seat.stack
    to_call = min(need, seat.stack)
    reopened = is_reopened(state, seat, rules)
    cap_hit = False
    cap = rules.limit_max_bets_per_street
    limit = state.variant.betting is _FIXED_LIMIT
    if limit and cap is not None and cap_applies(state, rules):
        cap_hit = state.bets_this_street >= cap
    can_raise = seat.stack > need and reopened and not cap_hit
    # Nobody left with chips to answer a raise: only call or fold remain.
    if can_raise:
        for s in state.seats:
            if s.status is _LIVE and s.seat != seat.seat:
                break
        else:
            can_raise = False
    if state.variant.betting is _FIXED_LIMIT:
        fixed_to = state.call_to + small_bet(state)
        if state.bring_in_seat is not None and 0 < state.call_to < state.level.big_blind \
                and not state.bets_this_street and state.street is _PREFLOP:
            fixed_to = state.level.big_blind  # stud: the bring-in is completed (R3, stud.py)
        min_to = max_to = min(fixed_to, all_in_to)
    else:
        min_to = min(min_raise_to(state, rules), all_in_to)
        if state.variant.betting is _POT_LIMIT:
            max_to = min(pot_limit_max_to(state, seat, rules), all_in_to)
        else:
            max_to = all_in_to
    return _options(
        seat=seat.seat,
        to_call=to_call,
        can_check=need == 0,
        can_raise=can_raise,
        min_to=min_to,
        max_to=max_to,
        all_in_to=all_in_to,
        reopened=reopened,
    )


def finish_action(
    state: HandState, seat: SeatState, kind: str, to: int, chips_in: bool, **changes: object
) -> HandState:
    """Record an action in turn and pass the action on, in one copy of the state.

    ``seat`` is the actor after his chips moved; ``changes`` are other HandState fields the
    action changes (call_to, increment, ...). The action moves to the next seat to act.
    """
    call_to = changes.get("call_to", state.call_to)
    assert isinstance(call_to, int)
    acted = _seat_acted(seat, True, max(call_to, to))
    return _record(state, acted, kind, to, chips_in, call_to, changes)


def fold_and_finish(state: HandState, seat: SeatState) -> HandState:
    """A fold with no chips in, recorded as ``finish_action`` would, one copy of the seat."""
    folded = _seat_folded(seat, _FOLDED, True, max(state.call_to, seat.bet))
    return _record(state, folded, "fold", seat.bet, False, state.call_to, {})


def pay_and_finish(
    state: HandState, seat: SeatState, total: int, kind: str, to: int, **changes: object
) -> HandState:
    """Move chips from behind into the street bet (total ``total``), then ``finish_action``
    (chips in), with one copy of the seat."""
    add = total - seat.bet
    stack = seat.stack - add
    call_to = changes.get("call_to", state.call_to)
    assert isinstance(call_to, int)
    acted = _seat_paid(
        seat,
        stack,
        total,
        seat.committed + add,
        _ALL_IN if stack == 0 else seat.status,
        True,
        max(call_to, to),
    )
    return _record(state, acted, kind, to, True, call_to, changes)


def _record(
    state: HandState,
    acted: SeatState,
    kind: str,
    to: int,
    chips_in: bool,
    call_to: int,
    changes: dict[str, object],
) -> HandState:
    number = acted.seat
    seats = tuple([acted if s.seat == number else s for s in state.seats])
    record = _action_record(state.street, number, kind, to, chips_in, acted.status is _ALL_IN)
    actions = (*state.actions, record)
    action_on = next_to_act_among(seats, call_to, number)
    if not changes:  # a fold, check or call
        return _state_acted(state, seats, actions, action_on)
    if len(changes) == 5 and changes.keys() == _RAISE_KEYS:  # a bet or raise (actions.py)
        return _state_raised(
            state, seats, actions, action_on, changes["call_to"], changes["increment"],
            changes["last_full_to"], changes["bets_this_street"], changes["last_aggressor"],
        )
    return evolve(state, seats=seats, actions=actions, action_on=action_on, **changes)


_RAISE_KEYS = frozenset(_RAISE_FIELDS)


def bets_pulled_in(seats: tuple[SeatState, ...]) -> tuple[SeatState, ...]:
    """The seats with the street's bets gone to the pot (``committed`` keeps the chips)."""
    return tuple(
        [
            s
            if s.bet == 0 and not s.acted and s.matched == 0
            else _seat_new_street(s, 0, False, 0)
            for s in seats
        ]
    )


def next_to_act(state: HandState, after: int) -> int | None:
    """First seat clockwise after ``after`` who still has to act on this street."""
    return next_to_act_among(state.seats, state.call_to, after)


def next_to_act_among(seats: tuple[SeatState, ...], call_to: int, after: int) -> int | None:
    live = [s for s in seats if s.status is _LIVE]
    if not live:
        return None
    others_can_act = len(live) > 1
    # ``seats`` is in seat order: first the live seats after ``after``, then from the top.
    first = None
    for s in live:
        if s.bet < call_to or (not s.acted and others_can_act):
            if s.seat > after:
                return s.seat
            if first is None:
                first = s.seat
    return first


def first_to_act_postflop(state: HandState) -> int | None:
    """Post-flop the first live seat left of the button acts first (heads-up: the big blind)."""
    return next_to_act(state, state.button)
