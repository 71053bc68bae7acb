"""Draw games: 2-7 triple draw, no-limit 2-7 single draw and badugi (issue #30).

They play like hold'em without a board: a button, blinds, five cards down (badugi four),
a betting round, then a draw and a betting round, once (single draw) or three times
(triple draw; the small bet before the second draw, the big bet after). In a draw every
live hand, all-in hands too, stands pat or discards and is dealt as many new cards, in
turn from the first seat left of the button, after one burn (R38: one burn per street).

The TDA leaves the draws to house rules ("House rules apply for draw games", R35-A7), so
the house's choices are the profile's ``draw_*`` parameters: whether the stub's last card
is dealt, what a short stub takes in when it is reshuffled (face down, R39-D), whether a
player may change his discards until he is served; and limping (RP-17: allowed in
single draw). The engine sees no stub, so it counts one (``model.DrawState``): a card
already seen may be dealt again only once a reshuffle put it back.

``state_machine`` sends a closing betting round here (``open_draw``), and the
``Discard`` events and the draw's ``DealHole`` cards; betting is the board games'.
"""

from __future__ import annotations

from pokertable.controller.engine import betting
from pokertable.controller.engine.actions import apply_action
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.checks import reject
from pokertable.controller.engine.events import (
    ActionKind,
    CardExposed,
    DealHole,
    Discard,
    PlayerAction,
)
from pokertable.controller.engine.model import (
    Betting,
    DrawState,
    HandState,
    Phase,
    SeatState,
    SeatStatus,
    Street,
    builder,
    copier,
    evolve,
)
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import DrawExposedCard, DrawLimping, DrawReshuffle, RuleProfile

_ACCEPTED = RulingKind.ACCEPTED
_INFO = RulingKind.INFO
_BETTING = Phase.BETTING
_DEALING = Phase.DEALING
_FOLDED = SeatStatus.FOLDED
_LIVE = SeatStatus.LIVE
_PREFLOP = Street.PREFLOP
_FIXED_LIMIT = Betting.FIXED_LIMIT
_DECK_SIZE = len(STANDARD_DECK)
_ruling = builder(Ruling)  # Ruling(...) with plain stores, as in engine/actions.py


_DRAW_NAMES = ("first draw", "second draw", "third draw")
_NEXT_STREET = {street: Street(street + 1) for street in Street if street < max(Street)}
_FLOP = Street.FLOP
_draw_state = builder(DrawState)  # DrawState(...) with plain stores
# The copies of every draw step, with positional values (model.copier): ``evolve`` builds a
# keyword dict and looks its copier up on each call.
_draw_next = copier(DrawState, "number", "order", "owed", "last", "stub", "burns")
_draw_declared = copier(DrawState, "order", "owed", "discarded", "log")
_draw_served = copier(DrawState, "owed", "returned", "stub", "burns", "log", "seen")
_seat_hole = copier(SeatState, "hole")
_state_draw = copier(HandState, "draw")
_state_seats_draw = copier(HandState, "seats", "draw")
_draw_opened = copier(HandState, "action_on", "face_up", "phase", "draw", "seats", "call_to")
_betting_after_draw = copier(
    HandState, "street", "phase", "call_to", "increment", "last_full_to", "bets_this_street",
    "last_aggressor", "seats", "action_on", "draw",
)


# --- the draw opens ----------------------------------------------------------------------


def open_draw(state: HandState, face_up: bool) -> HandState:
    """A betting round before a draw closed: every live hand draws, in turn from the first
    seat left of the button (all-in hands too)."""
    before = state.draw
    button = state.button
    seats = state.seats
    after = [s.seat for s in seats if s.seat > button and s.status is not _FOLDED]
    after += [s.seat for s in seats if s.seat <= button and s.status is not _FOLDED]
    order = tuple(after)
    if before is None:  # the first draw: the stub is what the deal left
        dealt = frozenset([c for s in seats for c in s.hole])
        stub = _DECK_SIZE - len(dealt)
        # One burn for the draw (R38: one burn per street), whether or not anybody draws.
        burned = 1 if stub > 0 else 0
        draw = _draw_state(number=1, order=order, seen=dealt, stub=stub - burned, burns=burned)
    else:
        burned = 1 if before.stub > 0 else 0
        draw = _draw_next(
            before, before.number + 1, order, (), (), before.stub - burned, before.burns + burned
        )
    return _draw_opened(state, None, face_up, _DEALING, draw, betting.bets_pulled_in(seats), 0)


def _draw_open(state: HandState) -> DrawState | None:
    draw = state.draw
    if state.phase is not _DEALING or draw is None or not (draw.order or draw.owed):
        return None
    return draw


# --- standing pat or discarding -----------------------------------------------------------


def discard(
    state: HandState, event: Discard, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """A player stands pat or discards, in turn; with ``draw_change_of_mind`` he may change
    his discards until he is served (house rules, R35-A7)."""
    draw = _draw_open(state)
    number = event.seat
    seat = None
    index = 0
    for s in state.seats:  # a loop, not ``has_seat`` and ``seat``: every draw comes here
        if s.seat == number:
            seat = s
            break
        index += 1
    if draw is None or seat is None:
        return reject(
            state,
            number,
            f"seat {number} cannot draw now: no draw is open",
            rules.cite("draw_house"),
            "no_draw",
        )
    cards = tuple(event.cards)
    old = None
    for waiting, discards in draw.owed:
        if waiting == number:
            old = discards
            break
    if old is not None:
        if not rules.draw_change_of_mind:
            return reject(
                state,
                number,
                f"seat {number} already discarded {len(old)}: "
                "the house does not let a player change his draw",
                rules.cite("draw_house"),
                "draw_declared",
            )
        hand = seat.hole + old
    elif not draw.order or draw.order[0] != number:
        on = f"seat {draw.order[0]}" if draw.order else "nobody (the cards are being dealt)"
        return reject(
            state,
            number,
            f"seat {number} drew out of turn: the draw is on {on}",
            rules.cite("draw_house"),
            "out_of_turn",
        )
    else:
        hand = seat.hole
    if cards and (len(set(cards)) != len(cards) or not set(cards).issubset(hand)):
        return reject(
            state,
            number,
            f"seat {number} discards {list(cards)} but holds {list(hand)}",
            rules.cite("draw_house"),
            "discard_not_held",
        )
    entry = (draw.number, number, "sd", cards)
    if old is None:  # the usual declaration, in turn
        draw = _draw_declared(
            draw,
            draw.order[1:],
            (*draw.owed, (number, cards)) if cards else draw.owed,
            draw.discarded + cards,
            (*draw.log, entry),
        )
    else:
        draw = _changed(draw, number, old, cards, entry)
    if cards or old is not None:
        kept = tuple([c for c in hand if c not in cards])
        seats = state.seats
        state = _state_seats_draw(
            state, (*seats[:index], _seat_hole(seat, kept), *seats[index + 1 :]), draw
        )
    else:  # standing pat: his hand is as it was
        state = _state_draw(state, draw)
    return _maybe_done(state, (discard_ruling(rules, number, cards, draw.number, old is not None),))


def discard_ruling(
    rules: RuleProfile, number: int, cards: tuple[str, ...], draw_number: int, changed: bool
) -> Ruling:
    """The ruling of a player's stand pat or discards (also a replay's run, runs.py)."""
    what = f"discards {len(cards)} and draws {len(cards)}" if cards else "stands pat"
    if changed:
        what = f"changes his draw: {what}"
    return _ruling(
        _ACCEPTED,
        (rules.cite("draw_house"),),
        f"seat {number} {what} on the {_DRAW_NAMES[draw_number - 1]}",
        seat=number,
        code="draw",
    )


def _changed(
    draw: DrawState,
    number: int,
    old: tuple[str, ...],
    cards: tuple[str, ...],
    entry: tuple[int, int, str, tuple[str, ...]],
) -> DrawState:
    """A player changes the discards he declared: his place among the players waiting
    stays his, and his earlier declaration leaves the record."""
    owed = dict(draw.owed)
    if cards:
        owed[number] = cards
    else:
        del owed[number]
    discarded = tuple(c for c in draw.discarded if c not in old)
    log = tuple(e for e in draw.log if e[:3] != (draw.number, number, "sd"))
    return evolve(
        draw,
        owed=tuple(owed.items()),
        discarded=discarded + cards,
        log=(*log, entry),
    )


# --- the new cards -----------------------------------------------------------------------


def deal_drawn(
    state: HandState, event: DealHole, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """The cards a player drew: as many as he discarded, from the stub; a short stub is
    reshuffled first as the house says (``draw_last_card_dealt``, ``draw_reshuffle``)."""
    draw = _draw_open(state)
    number = event.seat
    discards = None
    if draw is not None:
        for waiting, cards in draw.owed:
            if waiting == number:
                discards = cards
                break
    if draw is None or discards is None:
        premature = state.phase is _BETTING
        return reject(
            state,
            number,
            f"seat {number} is not waiting for draw cards"
            + (": the betting round is not complete (premature)" if premature else ""),
            rules.cite("premature_cards" if premature else "draw_house"),
            "premature_card" if premature else "not_drawing",
        )
    if event.seat in draw.last and (draw.order or any(w not in draw.last for w, _ in draw.owed)):
        return reject(
            state,
            event.seat,
            f"seat {event.seat}'s exposed card is replaced after the other players are "
            "served (house rules)",
            rules.cite("draw_house"),
            "served_last",
        )
    cards = tuple(event.cards)
    need = len(discards)
    if len(cards) != need:
        return reject(
            state,
            number,
            f"seat {number} discarded {need} and gets {len(cards)} card(s)",
            rules.cite("draw_house"),
            "card_count",
        )
    rulings: tuple[Ruling, ...] = ()
    stub, burns = draw.stub, draw.burns
    returned = draw.returned
    if need > stub - (0 if rules.draw_last_card_dealt else 1):
        pile = _reshuffled(state, draw, rules)
        returned = returned | pile
        stub += len(pile)
        if rules.draw_reshuffle is DrawReshuffle.ALL_NOT_IN_PLAY:
            stub, burns = stub + burns, 0
        rulings = (
            Ruling(
                _INFO,
                rules.cite("draw_reshuffle", "draw_house"),
                f"the stub is short for seat {number}'s {need} card(s): "
                f"{len(pile)} card(s) shuffled face down into a new stub",
                seat=number,
                code="draw_reshuffle",
            ),
        )
    seen = draw.seen
    # A card already seen comes again only once a reshuffle put it back in the stub.
    fresh = seen.isdisjoint(cards) if not returned else not any(
        c in seen and c not in returned for c in cards
    )
    if not fresh or (need > 1 and len(set(cards)) != need):
        bad = _not_in_stub(state, cards, returned, rules, number)
        if bad:
            return bad
    elif not STANDARD_DECK.issuperset(cards):
        return reject(
            state, number, f"unknown card(s) {list(cards)}", rules.cite("nonstandard_card"),
            "unknown_card",
        )
    draw = _draw_served(
        draw,
        tuple([p for p in draw.owed if p[0] != number]),
        returned.difference(cards) if returned else returned,
        max(0, stub - need),
        burns,
        (*draw.log, (draw.number, number, "dh", cards)),
        seen.union(cards),
    )
    seats = tuple([_seat_hole(s, s.hole + cards) if s.seat == number else s for s in state.seats])
    if draw.order or draw.owed:
        return _state_seats_draw(state, seats, draw), rulings
    return _betting_opened(state, seats, draw), rulings


def _live_cards(state: HandState) -> set[str]:
    live: set[str] = set()
    for s in state.seats:
        if s.status is not _FOLDED:
            live.update(s.hole)
    return live


def _reshuffled(state: HandState, draw: DrawState, rules: RuleProfile) -> frozenset[str]:
    """The seen cards a short stub takes in: the discards and the muck, less the discards
    of the players still waiting for cards (the drawer's own included); or, by PokerKit's
    house rule, every card outside the live hands (its burns come back too)."""
    pile = set(draw.seen) - _live_cards(state) - draw.returned
    if rules.draw_reshuffle is DrawReshuffle.DISCARDS:
        for _, cards in draw.owed:
            pile.difference_update(cards)
    return frozenset(pile)


def _not_in_stub(
    state: HandState,
    cards: tuple[str, ...],
    returned: frozenset[str],
    rules: RuleProfile,
    seat: int,
) -> tuple[HandState, tuple[Ruling, ...]] | None:
    unknown = [c for c in cards if c not in STANDARD_DECK]
    if unknown:
        return reject(
            state, seat, f"unknown card(s) {unknown}", rules.cite("nonstandard_card"),
            "unknown_card",
        )
    live = _live_cards(state)
    twice = [c for i, c in enumerate(cards) if c in live or c in cards[:i]]
    if twice:
        return reject(
            state,
            seat,
            f"card(s) {twice} are already in play: fouled deck?",
            rules.cite("fouled_deck"),
            "duplicate_card",
        )
    draw = state.draw
    assert draw is not None
    dead = [c for c in cards if c in draw.seen and c not in returned]
    if dead:
        return reject(
            state,
            seat,
            f"card(s) {dead} were discarded or mucked and are not in the stub: "
            "they come back only when a short stub is reshuffled",
            rules.cite("draw_house"),
            "card_not_in_stub",
        )
    return None


# --- a card exposed on the draw ------------------------------------------------------------


def exposed_card(
    state: HandState, event: CardExposed, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """A replacement card the dealer exposed (``card`` "" if no reader saw it): it goes to
    the muck and the player is served its replacement after the others (house rules,
    R35-A7, ``draw_exposed_card``). Already dealt to him, it is taken back, even once the
    next betting round opened if nobody acted in it; the floor's choice comes as
    ``replace``."""
    draw = state.draw
    seat_no, card = event.seat, event.card
    hole = state.seat(seat_no).hole if state.has_seat(seat_no) else ()
    number = draw.number if draw is not None else 0
    dealt = draw is not None and bool(card) and card in hole and any(
        n == number and s == seat_no and kind == "dh" and card in cards
        for n, s, kind, cards in draw.log
    )
    reopen = dealt and state.phase is _BETTING and not any(
        a.street is state.street for a in state.actions
    )
    if draw is None or not (
        (_draw_open(state) is not None and (dealt or seat_no in dict(draw.owed))) or reopen
    ):
        return reject(
            state, seat_no, f"seat {seat_no} is not being served on a draw: no draw card of "
            "his to replace", rules.cite("draw_house"), "not_drawing",
        )
    replace = event.replace
    if replace is None and rules.draw_exposed_card is DrawExposedCard.FLOOR:
        return state, (_ruling(
            RulingKind.FLOOR, (rules.cite("draw_house"),),
            f"seat {seat_no}'s draw card {card or '(not read)'} was exposed by the dealer: "
            "the house leaves it to the floor: replace it (to the muck, served after the "
            "others) or he keeps it (R35-A7)",
            seat=seat_no, options=("replace", "keep"), code="draw_exposed",
        ),)
    if replace is False:
        return state, (_ruling(_INFO, (rules.cite("draw_house"),),
                               f"floor: seat {seat_no} keeps the exposed card", seat=seat_no,
                               code="draw_exposed_kept"),)
    owed, seen, stub, log = dict(draw.owed), draw.seen, draw.stub, draw.log
    if dealt:  # back from his hand: he is owed one card again
        owed[seat_no] = (*owed.get(seat_no, ()), card)
        hole = tuple(c for c in hole if c != card)
        log = tuple(
            (n, s, kind, tuple(c for c in cards if c != card))
            if (n, s, kind) == (number, seat_no, "dh") else (n, s, kind, cards)
            for n, s, kind, cards in log
            if (n, s, kind, cards) != (number, seat_no, "dh", (card,))
        )
    else:  # it came off the stub on its way to him
        stub = max(0, stub - 1)
        seen = seen | {card} if card else seen
    draw = evolve(draw, owed=tuple(owed.items()), seen=seen, stub=stub, log=log,
                  last=draw.last if seat_no in draw.last else (*draw.last, seat_no))
    seats = tuple([evolve(s, hole=hole) if s.seat == seat_no else s for s in state.seats])
    state = evolve(state, seats=seats, draw=draw)
    if reopen:  # the betting round opened on his card: the draw is served again
        state = evolve(state, street=Street(state.street - 1), phase=_DEALING, action_on=None)
    return state, (_ruling(
        _ACCEPTED, (rules.cite("draw_house"),),
        f"seat {seat_no}'s exposed card {card or '(not read)'} goes to the muck: he is "
        "dealt its replacement after the other players drew (R35-A7 house rules)",
        seat=seat_no, code="draw_exposed_replaced",
    ),)


# --- the draw closes ----------------------------------------------------------------------


def _maybe_done(
    state: HandState, rulings: tuple[Ruling, ...]
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Every live hand drew and was served: the betting round after the draw opens (with
    fewer than two players with chips ``settle`` closes it at once)."""
    draw = state.draw
    assert draw is not None
    if draw.order or draw.owed:
        return state, rulings
    return _betting_opened(state, state.seats, draw), rulings


def _betting_opened(
    state: HandState, seats: tuple[SeatState, ...], draw: DrawState
) -> HandState:
    """The hand with ``seats`` and ``draw`` and the betting round after the draw open, in
    one copy of the state."""
    street = _NEXT_STREET[state.street]
    size = state.level.big_blind
    if state.variant.betting is _FIXED_LIMIT and street > _FLOP:
        size *= 2  # the big bet after the second draw (betting.small_bet)
    seats = betting.bets_pulled_in(seats)
    return _betting_after_draw(
        state, street, _BETTING, 0, size, 0, 0, None, seats,
        betting.next_to_act_among(seats, 0, state.button), draw,
    )


# --- betting ------------------------------------------------------------------------------


def apply_draw_action(
    state: HandState, event: PlayerAction, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Betting as in the board games; before the first draw a house may forbid limping in
    triple draw (RP-17 allows it in single draw)."""
    if (
        event.kind is ActionKind.CALL
        and state.street is _PREFLOP
        and rules.draw_limping is DrawLimping.SINGLE_DRAW_ONLY
        and state.variant.draws > 1
        and state.bets_this_street == 0
        and state.action_on == event.seat
    ):
        return reject(
            state,
            event.seat,
            f"seat {event.seat} may not limp in triple draw here: raise or fold "
            "(the house allows limping in single draw only)",
            rules.cite("draw_limping"),
            "no_limping",
        )
    return apply_action(state, event, rules)
