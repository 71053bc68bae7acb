"""The hand engine: ``start_hand`` and ``step(state, event, rules) -> (state, rulings)``.

Pure and deterministic: no clock, no I/O, and the same event list always gives the same
state. One external event runs to completion: automatic follow-ups (return an uncalled
bet, close a street, turn hands face up, award pots) are drained by a flat loop in
``settle`` rather than by recursive phase chaining.

>>> from pokertable.controller.model import Level, Variant
>>> from pokertable.controller.events import PlayerAction, ActionKind
>>> setup = HandSetup(hand_id="demo", variant=Variant.NLHE,
...     level=Level(small_blind=50, big_blind=100), button=3, small_blind_seat=1,
...     big_blind_seat=2, players=((1, "Ann", 1000), (2, "Bob", 1000), (3, "Cat", 1000)))
>>> state, rulings = start_hand(setup)
>>> state.action_on, state.call_to
(3, 100)
>>> state, rulings = step(state, PlayerAction(3, ActionKind.RAISE, 300))
>>> [r.rule_ids for r in rulings]
[('TDA2024-43A',)]
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller import betting
from pokertable.controller.blinds import post_forced_bets
from pokertable.controller.card_checks import check_new_cards, reject
from pokertable.controller.chips_found import count_found_chips
from pokertable.controller.events import (
    ActionKind,
    CountFoundChips,
    DealBoard,
    DealHole,
    Event,
    MuckHand,
    PlayerAction,
    ReplaceBoard,
    ShowHand,
)
from pokertable.controller.model import (
    Betting,
    HandState,
    Level,
    Phase,
    SeatState,
    SeatStatus,
    Street,
    Variant,
    evolve,
)
from pokertable.controller.pots import uncalled_excess
from pokertable.controller.repairs import replace_board
from pokertable.controller.rules import TDA_2024, PotLimitPreflopBlinds, ReopenRule, RuleProfile
from pokertable.controller.rulings import Ruling, RulingKind
from pokertable.controller.showdown import award, muck, show, showdown_done

MAX_SEATS = 10


class EngineError(Exception):
    """Corrupt input that is not a table event at all (programmer or file error)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSetup:
    """Who is dealt in and where the button and blinds are; made by ``controller.table``."""

    hand_id: str
    variant: Variant
    level: Level
    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    players: tuple[tuple[int, str, int], ...]  # (seat, player, stack), dealt in
    antes_by_seat: tuple[tuple[int, int], ...] | None = None  # explicit antes (PHH import)
    event_players_left: int | None = None  # players left in the event, from the room (R48)


def _validate(setup: HandSetup) -> None:
    seats = [p[0] for p in setup.players]
    if len(set(seats)) != len(seats):
        raise EngineError(f"hand {setup.hand_id}: a seat is listed twice: {seats}")
    if not 2 <= len(seats) <= MAX_SEATS:
        raise EngineError(f"hand {setup.hand_id}: {len(seats)} players; need 2 to {MAX_SEATS}")
    if any(stack <= 0 for _, _, stack in setup.players):
        raise EngineError(f"hand {setup.hand_id}: every dealt-in player needs chips")
    if setup.big_blind_seat not in seats:
        raise EngineError(
            f"hand {setup.hand_id}: big blind seat {setup.big_blind_seat} not dealt in"
        )
    if setup.small_blind_seat is not None and setup.small_blind_seat not in seats:
        raise EngineError(
            f"hand {setup.hand_id}: small blind seat {setup.small_blind_seat} not dealt in"
        )


def start_hand(
    setup: HandSetup, rules: RuleProfile = TDA_2024
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Post the forced bets and put the first player pre-flop on the action."""
    _validate(setup)
    seats = tuple(SeatState(seat, name, stack) for seat, name, stack in sorted(setup.players))
    posted = post_forced_bets(
        seats,
        setup.level,
        setup.small_blind_seat,
        setup.big_blind_seat,
        rules,
        dict(setup.antes_by_seat) if setup.antes_by_seat is not None else None,
    )
    assumed = {
        PotLimitPreflopBlinds.DEAD_OR_SHORT: posted.missing_dead + posted.missing_short,
        PotLimitPreflopBlinds.SHORT_ONLY: posted.missing_short,
        PotLimitPreflopBlinds.ACTUAL: 0,
    }[rules.pot_limit_preflop_blinds]
    increment = setup.level.big_blind
    state = HandState(
        hand_id=setup.hand_id,
        variant=setup.variant,
        level=setup.level,
        button=setup.button,
        small_blind_seat=setup.small_blind_seat,
        big_blind_seat=setup.big_blind_seat,
        seats=posted.seats,
        call_to=posted.call_to,
        increment=increment,
        last_full_to=posted.call_to,
        preflop_assumed_dead=assumed if setup.variant.betting is Betting.POT_LIMIT else 0,
        event_players_left=setup.event_players_left,
    )
    state = evolve(state, action_on=betting.next_to_act(state, setup.big_blind_seat))
    rulings = [
        Ruling(RulingKind.INFO, (rules.cite("antes"),), note, code="forced_bet_short")
        for note in posted.notes
    ]
    state, more = settle(state, rules)
    return state, (*rulings, *more)


def step(
    state: HandState, event: Event, rules: RuleProfile = TDA_2024
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Apply one event. A rejected event leaves the state exactly as it was."""
    match event:
        case PlayerAction():
            new, rulings = _apply_action(state, event, rules)
        case DealHole():
            new, rulings = _deal_hole(state, event, rules)
        case DealBoard():
            new, rulings = _deal_board(state, event, rules)
        case ReplaceBoard():
            new, rulings = replace_board(state, event, rules)
        case CountFoundChips():
            new, rulings = count_found_chips(state, event, rules)
        case ShowHand():
            new, rulings = show(state, event, rules)
        case MuckHand():
            new, rulings = muck(state, event, rules)
        case _:
            raise EngineError(f"unknown event {event!r}")
    if any(r.kind is RulingKind.REJECTED for r in rulings):
        return state, rulings
    new, more = settle(new, rules)
    return new, (*rulings, *more)


# --- actions -------------------------------------------------------------------------------


def _apply_action(
    state: HandState, event: PlayerAction, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.phase is not Phase.BETTING or state.action_on is None:
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
    opts = betting.options_for(state, rules)
    assert opts is not None
    seat = state.seat(event.seat)
    kind = event.kind
    if kind is ActionKind.ALL_IN:
        if opts.all_in_to <= state.call_to or not opts.can_raise:
            kind = ActionKind.CALL
        else:
            target = min(opts.all_in_to, opts.max_to)
            state, rulings = _bet_or_raise(
                state, seat, target, opts, rules, event.floor_approved, event.short_stands
            )
            if target < opts.all_in_to and rulings[0].kind is not RulingKind.REJECTED:
                note = Ruling(
                    RulingKind.CORRECTED,
                    (rules.cite("pot_limit"),),
                    f"seat {seat.seat} all in is capped at the pot-limit maximum {target}",
                    seat=seat.seat,
                    code="pot_limit_cap",
                )
                rulings = (note, *rulings[1:])
            return state, rulings
    if kind is ActionKind.FOLD and event.amount:
        # R51-B: the floor had him forfeit (part of) an undercall and fold. The forfeited
        # chips are dead money in the pot; they never count as a call.
        if not 0 < event.amount <= seat.stack:
            return reject(
                state, seat.seat, f"seat {seat.seat} cannot forfeit {event.amount} with "
                f"{seat.stack} behind", rules.cite("call_undercall"), "bad_forfeit",
            )
        folded = evolve(
            seat,
            status=SeatStatus.FOLDED,
            stack=seat.stack - event.amount,
            committed=seat.committed + event.amount,
            dead=seat.dead + event.amount,
        )
        state = betting.finish_action(state, folded, "fold", seat.bet, True)
        return state, (
            Ruling(
                RulingKind.BINDING,
                (rules.cite("call_undercall"),),
                f"seat {seat.seat} forfeits {event.amount} to the pot and folds",
                seat=seat.seat,
                code="forfeit_fold",
            ),
        )
    if kind is ActionKind.FOLD:
        folded = evolve(seat, status=SeatStatus.FOLDED)
        state = betting.finish_action(state, folded, "fold", seat.bet, False)
        ruling = (
            Ruling(
                RulingKind.BINDING,
                (rules.cite("nonstandard_fold"),),
                f"seat {seat.seat} folded when checking was free: the fold is binding",
                seat=seat.seat,
                code="nonstandard_fold",
            )
            if opts.can_check
            else Ruling(
                RulingKind.ACCEPTED,
                (rules.cite("in_turn_binding"),),
                f"seat {seat.seat} folds",
                seat=seat.seat,
                code="fold",
            )
        )
        return state, (ruling,)
    if kind is ActionKind.CHECK:
        if not opts.can_check:
            return reject(
                state,
                seat.seat,
                f"seat {seat.seat} cannot check facing {opts.to_call} to call; call or fold",
                rules.cite("check_facing_bet"),
                "check_facing_bet",
            )
        state = betting.finish_action(state, seat, "check", seat.bet, False)
        return state, (
            Ruling(
                RulingKind.ACCEPTED,
                (rules.cite("in_turn_binding"),),
                f"seat {seat.seat} checks",
                seat=seat.seat,
                code="check",
            ),
        )
    if kind is ActionKind.CALL:
        if opts.can_check:
            state = betting.finish_action(state, seat, "check", seat.bet, False)
            return state, (
                Ruling(
                    RulingKind.CORRECTED,
                    (rules.cite("call_is_check"),),
                    f"seat {seat.seat} called with nothing to call: a check",
                    seat=seat.seat,
                    code="call_is_check",
                ),
            )
        paid = betting.commit_to(state, seat, seat.bet + opts.to_call)
        state = betting.finish_action(state, paid, "call", paid.bet, True)
        all_in = " all in" if paid.status is SeatStatus.ALL_IN else ""
        return state, (
            Ruling(
                RulingKind.ACCEPTED,
                (rules.cite("in_turn_binding"),),
                f"seat {seat.seat} calls{all_in} to {paid.bet}",
                seat=seat.seat,
                code="call",
            ),
        )
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
        and state.variant.betting is not Betting.FIXED_LIMIT
        and seat.stack > opts.to_call
    ):
        if not floor_approved:
            return state, (
                Ruling(
                    RulingKind.FLOOR,
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
                if state.variant.betting is Betting.FIXED_LIMIT
                else f"a full raise, {state.increment}"
            )
            return reject(
                state,
                seat.seat,
                f"seat {seat.seat} may only call or fold: short all-ins since his last action "
                f"did not re-open the betting (faced {state.call_to - seat.matched}; "
                f"re-opening needs {needed})",
                rules.cite(
                    "reopen_limit" if state.variant.betting is Betting.FIXED_LIMIT else "reopen"
                ),
                "not_reopened",
            )
        if state.variant.betting is Betting.FIXED_LIMIT and seat.stack > opts.to_call:
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
        concept = "pot_limit" if state.variant.betting is Betting.POT_LIMIT else "raise_cap"
        return reject(
            state,
            seat.seat,
            f"a {word} to {to} exceeds the maximum {opts.max_to}",
            rules.cite(concept),
            "above_maximum",
        )
    increment = to - state.call_to
    if state.variant.betting is Betting.FIXED_LIMIT:
        full = increment >= betting.small_bet(state)
    else:
        full = increment >= state.increment
    paid = betting.commit_to(state, seat, to)
    state = betting.finish_action(
        state,
        paid,
        word,
        to,
        True,
        call_to=to,
        increment=max(state.increment, increment) if full else state.increment,
        last_full_to=to if full else state.last_full_to,
        bets_this_street=state.bets_this_street + 1,
        last_aggressor=seat.seat,
    )
    all_in = paid.status is SeatStatus.ALL_IN
    if short:
        text = (
            f"the dealer let seat {seat.seat}'s {word} to {to} stand below the minimum "
            f"{opts.min_to}: if noticed on this street it is corrected to {opts.min_to} for "
            "all bettors (R52-A)"
        )
        ids: tuple[str, ...] = rules.cite("underbet", betting.min_raise_concept(state, rules))
        return state, (Ruling(RulingKind.BINDING, ids, text, seat=seat.seat, code="short_stands"),)
    if full:
        text = f"seat {seat.seat} {word}s to {to}" + (" all in" if all_in else "")
        ids = (rules.cite("min_raise"),)
    else:
        text = (
            f"seat {seat.seat} is all in for {to}: a short {word} of {increment}, "
            f"the minimum raise stays {state.increment}"
        )
        ids = rules.cite("min_raise", "reopen")
    return state, (Ruling(RulingKind.ACCEPTED, ids, text, seat=seat.seat, code=word),)


# --- cards ---------------------------------------------------------------------------------


def _deal_hole(
    state: HandState, event: DealHole, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.phase is Phase.COMPLETE or not state.has_seat(event.seat):
        return reject(
            state,
            event.seat,
            f"seat {event.seat} is not dealt in to a running hand",
            rules.cite("rules"),
            "seat_not_dealt_in",
        )
    seat = state.seat(event.seat)
    if seat.hole:
        return reject(
            state,
            event.seat,
            f"seat {event.seat} already holds {seat.hole}",
            rules.cite("rules"),
            "already_dealt",
        )
    if len(event.cards) != state.variant.hole_cards:
        return reject(
            state,
            event.seat,
            f"seat {event.seat} got {len(event.cards)} cards; {state.variant.hole_cards} expected",
            rules.cite("rules"),
            "card_count",
        )
    bad = check_new_cards(state, event.cards, event.seat, rules)
    if bad:
        return bad
    return state.with_seat(evolve(seat, hole=tuple(event.cards))), ()


def _deal_board(
    state: HandState, event: DealBoard, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.phase is not Phase.DEALING:
        return reject(
            state,
            None,
            f"board cards arrived while the hand is in {state.phase}",
            rules.cite("rules"),
            "premature_board",
        )
    nxt = Street(state.street + 1)
    expected = nxt.board_size - len(state.board)
    if len(event.cards) != expected:
        return reject(
            state,
            None,
            f"the {nxt.name.lower()} needs {expected} card(s), got {len(event.cards)}",
            rules.cite("rules"),
            "board_count",
        )
    bad = check_new_cards(state, event.cards, None, rules)
    if bad:
        return bad
    state = evolve(state, board=state.board + tuple(event.cards), street=nxt)
    if sum(1 for s in state.seats if s.status is SeatStatus.LIVE) >= 2:
        state = _open_street(state)
    elif nxt is Street.RIVER:
        state = evolve(state, phase=Phase.SHOWDOWN)
    return state, ()


def _open_street(state: HandState) -> HandState:
    bet_size = (
        betting.small_bet(state)
        if state.variant.betting is Betting.FIXED_LIMIT
        else state.level.big_blind
    )
    state = evolve(
        state,
        phase=Phase.BETTING,
        call_to=0,
        increment=bet_size,
        last_full_to=0,
        bets_this_street=0,
        last_aggressor=None,
        seats=tuple(evolve(s, bet=0, acted=False, matched=0) for s in state.seats),
    )
    return evolve(state, action_on=betting.first_to_act_postflop(state))


# --- automatic follow-ups ------------------------------------------------------------------


def settle(state: HandState, rules: RuleProfile) -> tuple[HandState, tuple[Ruling, ...]]:
    """Drain the automatic steps that follow an event, one flat loop (no recursion).

    Public for layers that change a hand outside ``step`` (a hand killed by the floor,
    a player absent at the deal) and need the same follow-ups.
    """
    rulings: list[Ruling] = []
    while True:
        if state.phase is Phase.COMPLETE:
            break
        if state.players_in_hand == 1:
            state = _return_uncalled(state, rulings, rules)
            state = award(state, rulings, rules, uncontested=True)
            continue
        if state.phase is Phase.BETTING and state.action_on is None:
            state = _close_street(state, rulings, rules)
            continue
        if state.phase is Phase.SHOWDOWN and showdown_done(state, rules):
            # R17-B: all but one mucked without tabling: the last live hand wins uncontested.
            alone = sum(1 for s in state.in_hand if not s.mucked) == 1
            state = award(state, rulings, rules, uncontested=alone)
            continue
        break
    return state, tuple(rulings)


def _return_uncalled(state: HandState, rulings: list[Ruling], rules: RuleProfile) -> HandState:
    excess = uncalled_excess(state.seats)
    if excess is None:
        return state
    seat_no, amount = excess
    seat = state.seat(seat_no)
    back = evolve(
        seat,
        stack=seat.stack + amount,
        bet=seat.bet - amount,
        committed=seat.committed - amount,
        status=SeatStatus.LIVE if seat.status is SeatStatus.ALL_IN else seat.status,
    )
    rulings.append(
        Ruling(
            RulingKind.INFO,
            (rules.cite("uncalled_bet"),),
            f"uncalled {amount} returned to seat {seat_no}",
            seat=seat_no,
            code="uncalled_returned",
        )
    )
    return evolve(state.with_seat(back), returned=(*state.returned, (seat_no, amount)))


def _close_street(state: HandState, rulings: list[Ruling], rules: RuleProfile) -> HandState:
    state = _return_uncalled(state, rulings, rules)
    state = evolve(state, action_on=None)
    if state.street is Street.RIVER:
        if (
            not state.face_up
            and any(s.status is SeatStatus.ALL_IN for s in state.in_hand)
            and (len(state.in_hand) > 1)
        ):
            # R16 / Add. 16 Ex 3: at the end of the final betting round with a player all in,
            # every live hand is tabled.
            rulings.append(
                Ruling(
                    RulingKind.INFO,
                    (rules.cite("all_in_face_up"),),
                    "all-in at the end of the betting: all live hands are tabled now",
                    code="face_up",
                )
            )
            state = evolve(state, face_up=True)
        return evolve(state, phase=Phase.SHOWDOWN)
    live_with_chips = sum(1 for s in state.seats if s.status is SeatStatus.LIVE)
    if live_with_chips <= 1 and not state.face_up:
        rulings.append(
            Ruling(
                RulingKind.INFO,
                (rules.cite("all_in_face_up"),),
                "all-in and no further betting possible: all live hands are tabled now, "
                "then the board is run out",
                code="face_up",
            )
        )
        state = evolve(state, face_up=True)
    return evolve(state, phase=Phase.DEALING)
