"""The hand engine: ``start_hand`` and ``step(state, event, rules) -> (state, rulings)``.

Pure and deterministic: no clock, no I/O, and the same event list always gives the same
state. One external event runs to completion: automatic follow-ups (return an uncalled
bet, close a street, turn hands face up, award pots) are drained by a flat loop in
``settle`` rather than by recursive phase chaining.

>>> from pokertable.controller.engine.model import Level, Variant
>>> from pokertable.controller.engine.events import PlayerAction, ActionKind
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

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter, countOf
from typing import Any

from pokertable.controller.engine import betting, draw, stud, stud_procedures, stud_showdown
from pokertable.controller.engine.actions import apply_action
from pokertable.controller.engine.blinds import post_forced_bets
from pokertable.controller.engine.checks import check_new_cards, dealt_in_seat, reject
from pokertable.controller.engine.events import (
    CardExposed,
    CountFoundChips,
    DealBoard,
    DealHole,
    Discard,
    Event,
    KillAtDeal,
    MuckHand,
    PlayerAction,
    ReplaceBoard,
    ShowHand,
    UpcardsPickedUp,
)
from pokertable.controller.engine.found_chips import count_found_chips
from pokertable.controller.engine.model import (
    Betting,
    HandState,
    Level,
    Phase,
    SeatState,
    SeatStatus,
    Street,
    Variant,
    builder,
    copier,
    evolve,
)
from pokertable.controller.engine.pots import uncalled_excess
from pokertable.controller.engine.repairs import replace_board
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.engine.showdown import award, muck, show, showdown_done
from pokertable.controller.errors import ControllerError
from pokertable.controller.rules import (
    TDA_2024,
    DrawLimping,
    PotLimitPreflopBlinds,
    RuleProfile,
)

# Enum members as module globals: on CPython 3.11 reading one through its class
# (``SeatStatus.LIVE``) costs ~50 ns, and the engine does it per seat on every step.
_ALL_IN = SeatStatus.ALL_IN
_LIVE = SeatStatus.LIVE
_FOLDED = SeatStatus.FOLDED
_STATUS = attrgetter("status")
_BETTING = Phase.BETTING
_COMPLETE = Phase.COMPLETE
_DEALING = Phase.DEALING
_SHOWDOWN = Phase.SHOWDOWN
_FIXED_LIMIT = Betting.FIXED_LIMIT
_POT_LIMIT = Betting.POT_LIMIT
_FLOP = Street.FLOP
_RIVER = Street.RIVER
_NEXT_STREET = (Street.FLOP, Street.TURN, Street.RIVER, Street.SEVENTH)
_INFO = RulingKind.INFO
_LIMPING = DrawLimping.ALLOWED  # the draw games' betting differs only where a house forbids it
_REJECTED = RulingKind.REJECTED
_DEAD_OR_SHORT = PotLimitPreflopBlinds.DEAD_OR_SHORT
_SHORT_ONLY = PotLimitPreflopBlinds.SHORT_ONLY
_ACTUAL = PotLimitPreflopBlinds.ACTUAL
# Records built with plain stores (model.builder): one state and its seats per hand, and
# the announcements that follow the actions.
_hand_state = builder(HandState)
_seat_state = builder(SeatState)
_ruling = builder(Ruling)
# The copies of a dealt card and of a street opened, with positional values (model.copier).
_seat_dealt = copier(SeatState, "hole")
_seat_refunded = copier(SeatState, "stack", "bet", "committed", "status")
_state_refunded = copier(HandState, "seats", "returned")
_street_closed = copier(HandState, "action_on", "face_up", "phase")
_street_opened = copier(
    HandState, "board", "street", "phase", "call_to", "increment", "last_full_to",
    "bets_this_street", "last_aggressor", "seats", "action_on",
)

MAX_SEATS = 10


class EngineError(ControllerError):
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
    if setup.variant.is_stud:  # antes only; the bring-in comes with third street
        if not 2 <= len(setup.players) <= MAX_SEATS:
            raise EngineError(f"hand {setup.hand_id}: {len(setup.players)} players")
        try:
            state, notes = stud.start_state(setup, rules)
        except ValueError as exc:
            raise EngineError(str(exc)) from exc
        state, more = settle(state, rules)
        return state, (*notes, *more)
    _validate(setup)
    seats = tuple([_seat_state(seat, name, stack) for seat, name, stack in sorted(setup.players)])
    posted = post_forced_bets(
        seats,
        setup.level,
        setup.small_blind_seat,
        setup.big_blind_seat,
        rules,
        dict(setup.antes_by_seat) if setup.antes_by_seat is not None else None,
    )
    counted = rules.pot_limit_preflop_blinds  # not a dict by member: an enum hashes in Python
    if counted is _DEAD_OR_SHORT:
        assumed = posted.missing_dead + posted.missing_short
    elif counted is _SHORT_ONLY:
        assumed = posted.missing_short
    elif counted is _ACTUAL:
        assumed = 0
    else:
        raise KeyError(counted)
    increment = setup.level.big_blind
    state = _hand_state(
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
        action_on=betting.next_to_act_among(posted.seats, posted.call_to, setup.big_blind_seat),
        preflop_assumed_dead=assumed if setup.variant.betting is _POT_LIMIT else 0,
        event_players_left=setup.event_players_left,
    )
    rulings = [
        Ruling(_INFO, (rules.cite("antes"),), note, code="forced_bet_short")
        for note in posted.notes
    ]
    state, more = settle(state, rules)
    return state, (*rulings, *more)


def step(
    state: HandState, event: Event, rules: RuleProfile = TDA_2024
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Apply one event. A rejected event leaves the state exactly as it was."""
    try:
        handler = _HANDLERS[type(event)]  # one look-up, not a ``match`` over 11 classes
    except KeyError:
        handler = _handler_of(event)
    new, rulings = handler(state, event, rules)
    for r in rulings:
        if r.kind is _REJECTED:
            return state, rulings
    # The action's record keeps the event, so the log replays exactly (``ActionRecord``).
    # The record was built by this very step and nothing else holds it yet, so the event
    # is stored in it as it is finished, like ``builder``'s plain stores: a copy of the
    # record and of the hand per action cost a tenth of a bare replay.
    actions = new.actions
    if (
        actions is not state.actions
        and isinstance(event, PlayerAction)
        and len(actions) == len(state.actions) + 1
        and actions[-1].action is None
    ):
        object.__setattr__(actions[-1], "action", event)
    phase = new.phase
    if (phase is _DEALING or (phase is _BETTING and new.action_on is not None)) and (
        len(new.seats) - countOf(map(_STATUS, new.seats), _FOLDED) != 1
    ):
        return new, rulings  # ``settle``'s first test (players_in_hand), inline: most steps
    new, more = settle(new, rules)
    return new, (rulings + more if more else rulings)


Handler = Callable[[HandState, Any, RuleProfile], tuple[HandState, tuple[Ruling, ...]]]


def _player_action(
    state: HandState, event: PlayerAction, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.variant.is_stud:
        return stud.apply_stud_action(state, event, rules)
    if rules.draw_limping is not _LIMPING and state.variant.is_draw:
        return draw.apply_draw_action(state, event, rules)
    return apply_action(state, event, rules)


def _hole_cards(
    state: HandState, event: DealHole, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.variant.is_stud:
        return stud.deal_hole(state, event, rules)
    if state.draw is not None:
        return draw.deal_drawn(state, event, rules)
    return _deal_hole(state, event, rules)


def _board_cards(
    state: HandState, event: DealBoard, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.variant.is_stud:
        return stud.deal_community(state, event, rules)
    return _deal_board(state, event, rules)


def _card_exposed(
    state: HandState, event: CardExposed, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.variant.is_draw:  # a card exposed on the draw (R35-A7)
        return draw.exposed_card(state, event, rules)
    return stud_procedures.card_exposed(state, event, rules)  # stud: RP-10-A/B


def _handler_of(event: Event) -> Handler:
    """The handler of an event of a subclass of an event class (the rest: EngineError)."""
    for cls, handler in _HANDLERS.items():
        if isinstance(event, cls):
            return handler
    raise EngineError(f"unknown event {event!r}")


# --- cards ---------------------------------------------------------------------------------


def _deal_hole(
    state: HandState, event: DealHole, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    seat = dealt_in_seat(state, event.seat, rules)
    if isinstance(seat, tuple):
        return seat
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
    return state.with_seat(_seat_dealt(seat, tuple(event.cards))), ()


def _deal_board(
    state: HandState, event: DealBoard, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.phase is not _DEALING:
        return reject(
            state,
            None,
            f"board cards arrived while the hand is in {state.phase}",
            rules.cite("rules"),
            "premature_board",
        )
    nxt = _NEXT_STREET[state.street]  # not ``Street(n)``: an enum call, costly per street
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
    board = state.board + tuple(event.cards)
    if len([s for s in state.seats if s.status is _LIVE]) >= 2:
        return _open_street(state, board, nxt), ()
    # An all-in run-out: no betting round, but the dealer still pulls the last round's
    # bets into the pot before the card, so nothing shows "in front" of a seat.
    seats = _bets_pulled_in(state.seats)
    if nxt is _RIVER:
        return evolve(state, board=board, street=nxt, phase=_SHOWDOWN, seats=seats,
                      call_to=0), ()
    return evolve(state, board=board, street=nxt, seats=seats, call_to=0), ()


_bets_pulled_in = betting.bets_pulled_in


def _open_street(state: HandState, board: tuple[str, ...], street: Street) -> HandState:
    """The board dealt and a new betting round opened, in one copy of the state."""
    bet_size = state.level.big_blind
    if state.variant.betting is _FIXED_LIMIT and street > _FLOP:
        bet_size *= 2  # the big bet from the turn (betting.small_bet)
    seats = _bets_pulled_in(state.seats)
    return _street_opened(
        state, board, street, _BETTING, 0, bet_size, 0, 0, None, seats,
        betting.next_to_act_among(seats, 0, state.button),
    )


# --- automatic follow-ups ------------------------------------------------------------------


def settle(state: HandState, rules: RuleProfile) -> tuple[HandState, tuple[Ruling, ...]]:
    """Drain the automatic steps that follow an event, one flat loop (no recursion).

    Public for layers that change a hand outside ``step`` (a hand killed by the floor,
    a player absent at the deal) and need the same follow-ups.
    """
    phase = state.phase
    if (phase is _DEALING or (phase is _BETTING and state.action_on is not None)) and (
        state.players_in_hand != 1
    ):
        return state, ()  # most steps: a card awaited or a player to act, nothing follows
    rulings: list[Ruling] = []
    while True:
        phase = state.phase
        if phase is _COMPLETE:
            break
        if state.players_in_hand == 1:
            state = _return_uncalled(state, rulings, rules)
            award_pots = stud_showdown.award if state.variant.is_stud else award
            state = award_pots(state, rulings, rules, uncontested=True)
            continue
        if phase is _BETTING:
            if state.action_on is not None:
                break
            state = _close_street(state, rulings, rules)
            continue
        if phase is _SHOWDOWN and showdown_done(state, rules):
            # R17-B: all but one mucked without tabling: the last live hand wins uncontested.
            alone = sum(1 for s in state.in_hand if not s.mucked) == 1
            award_pots = stud_showdown.award if state.variant.is_stud else award
            state = award_pots(state, rulings, rules, uncontested=alone)
            continue
        break
    return state, tuple(rulings)


def _return_uncalled(state: HandState, rulings: list[Ruling], rules: RuleProfile) -> HandState:
    excess = uncalled_excess(state.seats)
    if excess is None:
        return state
    seat_no, amount = excess
    seat = state.seat(seat_no)
    back = _seat_refunded(
        seat,
        seat.stack + amount,
        seat.bet - amount,
        seat.committed - amount,
        _LIVE if seat.status is _ALL_IN else seat.status,
    )
    rulings.append(
        _ruling(
            _INFO,
            (rules.cite("uncalled_bet"),),
            f"uncalled {amount} returned to seat {seat_no}",
            seat=seat_no,
            code="uncalled_returned",
        )
    )
    seats = tuple([back if s.seat == seat_no else s for s in state.seats])  # ``with_seat``
    return _state_refunded(state, seats, (*state.returned, (seat_no, amount)))


def _close_street(state: HandState, rulings: list[Ruling], rules: RuleProfile) -> HandState:
    state = _return_uncalled(state, rulings, rules)
    if state.street is state.variant.last_street:
        face_up = state.face_up
        if (
            not state.face_up
            and any(s.status is _ALL_IN for s in state.in_hand)
            and (len(state.in_hand) > 1)
        ):
            # R16 / Add. 16 Ex 3: at the end of the final betting round with a player all in,
            # every live hand is tabled.
            rulings.append(
                _ruling(
                    _INFO,
                    (rules.cite("all_in_face_up"),),
                    "all-in at the end of the betting: all live hands are tabled now",
                    code="face_up",
                )
            )
            face_up = True
        return _street_closed(state, None, face_up, _SHOWDOWN)
    live_with_chips = len([s for s in state.seats if s.status is _LIVE])
    face_up = state.face_up
    if live_with_chips <= 1 and not state.face_up and (
        rules.draw_face_up_before_draws or not state.variant.is_draw
    ):
        rulings.append(
            _ruling(
                _INFO,
                (rules.cite("all_in_face_up"),),
                "all-in and no further betting possible: all live hands are tabled now, "
                + ("then the draws are played" if state.variant.is_draw else
                   "then the board is run out"),
                code="face_up",
            )
        )
        face_up = True
    if state.variant.is_draw:
        return draw.open_draw(state, face_up)
    return _street_closed(state, None, face_up, _DEALING)


# ``step``'s handler of each event class, in the order a subclass is matched.
_HANDLERS: dict[type, Handler] = {
    PlayerAction: _player_action,
    DealHole: _hole_cards,
    Discard: draw.discard,
    DealBoard: _board_cards,
    ReplaceBoard: replace_board,
    CountFoundChips: count_found_chips,
    ShowHand: show,
    MuckHand: muck,
    CardExposed: _card_exposed,  # stud dealing procedures (RP-10-A/B), a draw's (R35-A7)
    KillAtDeal: stud_procedures.kill_at_deal,  # R30, R71-C, RP-10-C
    UpcardsPickedUp: stud_procedures.upcards_picked_up,  # R66
}
