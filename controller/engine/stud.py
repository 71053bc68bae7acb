"""Seven-card stud, stud hi-lo eight or better and razz: what differs from the board games.

Stud has no button, no blinds and no board. Every player antes; the third street is two
cards down and one up; the low upcard by suit posts the bring-in (razz: the high upcard,
the ace being low) and may complete instead (RP-10-E); fourth to sixth streets are one
card up each, seventh one card down. From fourth street the best showing hand acts first
(razz: the lowest), tied showing hands broken by the high card by suit (RP-10-D); bets are
the small bet on third and fourth street and the big bet from fifth (TDA Add. 43), never
doubled on fourth for an open pair (RP-10-F). When the stub cannot give every player a
seventh card, one community card serves everybody (RP-10-H).

The showdown and the award (best five of seven, razz's A-5 low, stud/8's split, odd chips
by suit, R20-B/C) are ``stud_showdown``'s; the card order by rank and suit they share is
here.

``state_machine`` sends stud hands here at the start, for the cards and the player actions;
betting itself (``betting``, ``actions``) is shared with the board games.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING

from pokertable.controller.engine import betting
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.checks import check_new_cards, dealt_in_seat, reject
from pokertable.controller.engine.events import DealBoard, DealHole
from pokertable.controller.engine.model import (
    HandState,
    Phase,
    SeatState,
    SeatStatus,
    Street,
    Variant,
    builder,
    copier,
    evolve,
)
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.engine.stud_betting import (  # stud's actions, called as stud's
    apply_stud_action as apply_stud_action,
)
from pokertable.controller.rules import RuleProfile

if TYPE_CHECKING:
    from pokertable.controller.engine.state_machine import HandSetup

_INFO = RulingKind.INFO
_LIVE = SeatStatus.LIVE
_ALL_IN = SeatStatus.ALL_IN
_FOLDED = SeatStatus.FOLDED
_BETTING = Phase.BETTING
_DEALING = Phase.DEALING
_SHOWDOWN = Phase.SHOWDOWN
_COMPLETE = Phase.COMPLETE
_THIRD = Street.THIRD
_RAZZ = Variant.RAZZ
_FOURTH = Street.FOURTH
_SEVENTH = Street.SEVENTH
_ruling = builder(Ruling)  # Ruling(...) with plain stores, as in engine/actions.py
_seat_state = builder(SeatState)  # one hand's seats and state, as state_machine builds them
_hand_state = builder(HandState)
# The copies of every dealt card and of every street opened, with positional values
# (model.copier): ``evolve`` builds a keyword dict and looks its copier up on each call.
_seat_dealt = copier(SeatState, "hole", "up")
_state_seats = copier(HandState, "seats")
_street_opened = copier(
    HandState, "seats", "bring_in_seat", "street", "phase", "call_to", "increment",
    "last_full_to", "bets_this_street", "last_aggressor", "opener_seat", "action_on",
)
_DECK_HAS = STANDARD_DECK.issuperset
_HOLE = attrgetter("hole")
_chain = chain.from_iterable

HIGH_RANK = {r: i for i, r in enumerate("23456789TJQKA", start=2)}  # stud: the ace is high
LOW_RANK = {r: i for i, r in enumerate("A23456789TJQK", start=1)}  # razz: the ace is low
SUIT = {"c": 0, "d": 1, "h": 2, "s": 3}  # clubs, diamonds, hearts, spades (low to high)
STREET_NAMES = ("third", "fourth", "fifth", "sixth", "seventh")
_NEXT_STREET = (Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)


def street_name(street: Street) -> str:
    return STREET_NAMES[street]


def _rank_of(variant: Variant) -> dict[str, int]:
    return LOW_RANK if variant is Variant.RAZZ else HIGH_RANK


def card_key(card: str, ranks: dict[str, int]) -> tuple[int, int]:
    """A card's place by rank, then suit (the suit breaks ties: RP-10-D/E, R20-B)."""
    return ranks[card[0]], SUIT[card[1]]


# --- the deal -----------------------------------------------------------------------------


def start_state(setup: HandSetup, rules: RuleProfile) -> tuple[HandState, tuple[Ruling, ...]]:
    """Antes posted, waiting for third street (``state_machine.start_hand`` settles it).

    The antes are dead money in the main pot; a player who cannot cover his is all in for
    what he has. The bring-in comes with third street (RP-10-E).
    """
    level = setup.level
    if level.bring_in <= 0:
        raise ValueError(f"hand {setup.hand_id}: {setup.variant.name} needs a bring-in")
    antes = (
        dict(setup.antes_by_seat)
        if setup.antes_by_seat is not None
        else {seat: level.ante for seat, _, _ in setup.players}
    )
    seats = []
    notes = []
    for seat, name, stack in sorted(setup.players):
        ante = min(antes.get(seat, 0), stack)
        if ante < antes.get(seat, 0):
            notes.append(
                Ruling(
                    _INFO,
                    (rules.cite("antes"),),
                    f"seat {seat} is all in for an ante of {ante}",
                    seat=seat,
                    code="forced_bet_short",
                )
            )
        seats.append(
            _seat_state(
                seat,
                name,
                stack - ante,
                committed=ante,
                dead=ante,
                status=_ALL_IN if ante == stack else _LIVE,
            )
        )
    state = _hand_state(
        hand_id=setup.hand_id,
        variant=setup.variant,
        level=level,
        button=setup.button,
        small_blind_seat=None,
        big_blind_seat=setup.big_blind_seat,
        seats=tuple(seats),
        phase=_DEALING,
        action_on=None,
        increment=level.big_blind,
        event_players_left=setup.event_players_left,
    )
    return state, tuple(notes)


def cards_for(street: Street) -> int:
    """Cards a live hand holds once ``street`` is dealt (a community card counts as one)."""
    return 3 + street


def pending_street(state: HandState) -> Street:
    """The street being dealt while the hand is in ``DEALING``."""
    if state.bring_in_seat is None:
        return _THIRD
    return _NEXT_STREET[state.street]  # not ``Street(n)``: an enum call, costly per card


def deal_hole(
    state: HandState, event: DealHole, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Third street: two down and one up per player; fourth to sixth one up; seventh one down.

    Cards for a street arrive while the previous betting round is still open are premature
    (RP-5-D: the dealer returns them to the stub, reshuffles, and deals the street again).

    The usual card (every card of a replay) is dealt in one pass over the seats that finds
    the seat, checks the cards against every hand and builds the new seats; anything else
    (no seat, a premature or dead-hand card, a card in play, a community card or an exposed
    card on the table) goes through ``_deal_checked``, which names what is wrong.
    """
    if state.phase is not _DEALING or state.exposed or state.board:
        return _deal_checked(state, event, rules)
    number = event.seat
    cards = event.cards
    if type(cards) is not tuple:
        return _deal_checked(state, event, rules)
    up: tuple[str, ...]
    third = state.bring_in_seat is None
    if third:
        street = _THIRD
        if len(cards) != 3:
            return _deal_checked(state, event, rules)
        first, second, last = cards
        if first in (second, last) or second == last:
            return _deal_checked(state, event, rules)
        up = cards[2:]
    else:
        street = _NEXT_STREET[state.street]
        if len(cards) != 1:
            return _deal_checked(state, event, rules)
        first = second = last = cards[0]
        up = () if street is _SEVENTH else cards
    if not _DECK_HAS(cards):
        return _deal_checked(state, event, rules)
    target = 3 + street  # ``cards_for``, inlined: no community card here
    seats = list(state.seats)
    index = -1
    waiting = False  # a live hand other than this one still short of the street's cards
    for i, s in enumerate(seats):
        hole = s.hole
        if first in hole or (third and (second in hole or last in hole)):
            return _deal_checked(state, event, rules)
        if s.seat == number:
            index = i
        elif not waiting and s.status is not _FOLDED and len(hole) != target:
            waiting = True
    if index < 0:
        return _deal_checked(state, event, rules)
    seat = seats[index]
    hole = seat.hole
    if seat.status is _FOLDED or len(hole) >= target:
        return _deal_checked(state, event, rules)
    seats[index] = _seat_dealt(seat, hole + cards, seat.up + up)
    if waiting or len(hole) + len(cards) != target:
        return _state_seats(state, tuple(seats)), ()
    # The street's last card: the seats and the opened street in one copy of the state.
    return open_street(state, tuple(seats), street, rules)


def deal_run(state: HandState, events: Sequence[DealHole]) -> tuple[HandState, int]:
    """A street's cards dealt together, as a replay reads them (a run of ``d dh``): the
    state ``deal_hole`` reaches card by card, in one copy of the state, and how many of
    ``events`` were dealt. It stops before the street's last card (``step`` deals it: it
    opens the betting, with rulings) and before any card that is not the usual one (a
    second card for a seat, a card in play, a dead hand ...), which ``step`` then refuses
    by its rule; it never refuses anything itself. Mid-street cards give no rulings and
    ``settle`` has nothing to do after them, so nothing of ``step``'s is skipped."""
    seats = state.seats
    if state.phase is not _DEALING or state.exposed or state.board or len(events) < 1:
        return state, 0
    third = state.bring_in_seat is None
    street = _THIRD if third else _NEXT_STREET[state.street]
    count = 3 if third else 1
    target = 3 + street
    by_number = {s.seat: s for s in seats}
    waiting = {s.seat for s in seats if s.status is not _FOLDED and len(s.hole) != target}
    if len(waiting) < 2 or state.players_in_hand == 1:
        return state, 0  # the next card may close the street, or the hand is won
    held = set(_chain(map(_HOLE, seats)))
    dealt: dict[int, tuple[str, ...]] = {}
    for event in events:
        number = event.seat
        cards = event.cards
        seat = by_number.get(number)
        if (
            seat is None
            or number in dealt
            or type(cards) is not tuple
            or len(cards) != count
            or seat.status is _FOLDED
            or len(seat.hole) >= target
            or not _DECK_HAS(cards)
            or not held.isdisjoint(cards)
            or (third and len(set(cards)) != 3)
        ):
            break
        if len(seat.hole) + count == target and number in waiting:
            if len(waiting) == 1:
                break  # the street's last card
            waiting.discard(number)
        held.update(cards)
        dealt[number] = cards
    if not dealt:
        return state, 0
    new = []
    for s in seats:
        given = dealt.get(s.seat)
        if given is not None:
            up = given[2:] if third else () if street is _SEVENTH else given
            s = _seat_dealt(s, s.hole + given, s.up + up)
        new.append(s)
    return _state_seats(state, tuple(new)), len(dealt)


def _deal_checked(
    state: HandState, event: DealHole, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """``deal_hole`` with every check, in the order the refusals are given."""
    number = event.seat
    seat = dealt_in_seat(state, number, rules)
    if isinstance(seat, tuple):
        return seat
    if state.phase is not _DEALING:
        return reject(
            state,
            event.seat,
            f"a card for seat {event.seat} before the betting "
            f"on {street_name(state.street)} street is complete: premature",
            rules.cite("premature_cards"),
            "premature_card",
        )
    if seat.status is _FOLDED:
        return reject(
            state,
            event.seat,
            f"seat {event.seat} has no live hand: no more cards are dealt to it",
            rules.cite("stud_dead_at_deal"),
            "dead_hand",
        )
    street = _THIRD if state.bring_in_seat is None else _NEXT_STREET[state.street]
    count = 3 if street is _THIRD else 1
    target = 3 + street - (1 if state.board else 0)  # ``cards_for``, inlined: every card
    if len(seat.hole) >= target:
        return reject(
            state,
            event.seat,
            f"seat {event.seat} already has its {street_name(street)} street card(s)",
            rules.cite("rules"),
            "already_dealt",
        )
    if len(event.cards) != count:
        return reject(
            state,
            event.seat,
            f"seat {event.seat} got {len(event.cards)} card(s) on "
            f"{street_name(street)} street; {count} expected",
            rules.cite("rules"),
            "card_count",
        )
    bad = check_new_cards(state, event.cards, event.seat, rules)
    if bad:
        return bad
    cards = tuple(event.cards)
    up = cards[2:] if street is _THIRD else () if street is _SEVENTH else cards
    dealt = _seat_dealt(seat, seat.hole + cards, seat.up + up)
    seats = tuple([dealt if s.seat == number else s for s in state.seats])
    for s in seats:
        if s.status is not _FOLDED and len(s.hole) != target:
            return _state_seats(state, seats), ()
    # The street's last card: the seats and the opened street in one copy of the state.
    return open_street(state, seats, street, rules)


def deal_community(
    state: HandState, event: DealBoard, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """RP-10-H: the stub is short for seventh street, so one card serves every player."""
    if state.phase is not _DEALING or pending_street(state) is not _SEVENTH or state.board:
        return reject(
            state,
            None,
            "a community card is dealt only in place of the seventh street cards",
            rules.cite("stud_short_stub"),
            "premature_board",
        )
    if any(len(s.hole) > cards_for(Street.SIXTH) for s in state.seats if s.in_hand):
        return reject(
            state,
            None,
            "seventh street cards were already dealt",
            rules.cite("stud_short_stub"),
            "board_count",
        )
    if len(event.cards) != 1:
        return reject(
            state,
            None,
            "one community card replaces seventh street",
            rules.cite("stud_short_stub"),
            "board_count",
        )
    bad = check_new_cards(state, event.cards, None, rules)
    if bad:
        return bad
    state = evolve(state, board=tuple(event.cards))
    state, rulings = open_street(state, state.seats, _SEVENTH, rules)
    note = Ruling(
        _INFO,
        (rules.cite("stud_short_stub"),),
        "the stub is short: one community "
        f"card {event.cards[0]} for every player; the first to act on sixth street "
        "acts first",
        code="community_card",
    )
    return state, (note, *rulings)


def bring_in_seat(state: HandState) -> int:
    """RP-10-E: the lowest upcard by suit brings in (razz: the highest, the ace low)."""
    return _bring_in_among(state.seats, state.variant is _RAZZ)


def _bring_in_among(seats: Sequence[SeatState], razz: bool) -> int:
    ranks = LOW_RANK if razz else HIGH_RANK
    keyed = [
        (ranks[s.up[0][0]], SUIT[s.up[0][1]], s.seat)
        for s in seats
        if s.up and s.status is not _FOLDED  # a hand killed at the deal (R30) brings none in
    ]
    return (max(keyed) if razz else min(keyed))[2]


def showing_value(variant: Variant, up: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """The showing hand's worth for opening a street; larger opens (straights and flushes do
    not count; razz: the lowest hand opens, pairs being worse)."""
    return _showing(variant is _RAZZ, up)


@lru_cache(maxsize=8192)
def _showing(razz: bool, up: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """``showing_value`` cached by a bool, not the variant (an enum hashes in Python)."""
    ranks = LOW_RANK if razz else HIGH_RANK
    counts: dict[int, int] = {}
    for c in up:
        counts[ranks[c[0]]] = counts.get(ranks[c[0]], 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    pattern = tuple(count for _, count in groups)
    order = tuple(rank for rank, _ in groups)
    if razz:
        return tuple(-c for c in pattern), tuple(-r for r in order)
    return pattern, order


def opener(state: HandState) -> tuple[int, bool]:
    """RP-10-D: the best showing hand, tied hands broken by the high card by suit; and
    whether a tie was broken that way (PokerKit breaks it by seat instead)."""
    return _opener_among(state.seats, state.variant is _RAZZ)


def _opener_among(seats: Sequence[SeatState], razz: bool) -> tuple[int, bool]:
    best: tuple[tuple[int, ...], ...] | None = None
    tied: list[SeatState] = []
    for s in seats:
        if s.status is _FOLDED:
            continue
        value = _showing(razz, s.up)
        if best is None or value > best:
            best = value
            tied = [s]
        elif value == best:
            tied.append(s)
    if len(tied) == 1:
        return tied[0].seat, False
    ranks = LOW_RANK if razz else HIGH_RANK
    top = max(tied, key=lambda s: max(card_key(c, ranks) for c in s.up))
    return top.seat, True


def open_street(
    state: HandState, seats: tuple[SeatState, ...], street: Street, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Every live hand in ``seats`` holds its cards: the betting round of ``street`` opens,
    in one copy of the state."""
    seats = betting.bets_pulled_in(seats)
    razz = state.variant is _RAZZ
    bring_in: int | None
    if street is _THIRD:
        first = _bring_in_among(seats, razz)
        bring_in = first
        ruling = _ruling(
            _INFO,
            (rules.cite("bring_in"),),
            f"seat {first} has the bring-in card",
            seat=first,
            code="bring_in_card",
        )
    else:
        first, tie = _opener_among(seats, razz)
        bring_in = state.bring_in_seat
        ruling = _ruling(
            _INFO,
            rules.cite("stud_opener", "show_order") if tie else (rules.cite("show_order"),),
            f"seat {first} shows the {'low' if razz else 'high'} hand "
            f"and acts first on {STREET_NAMES[street]} street"
            + (" (tied showing hands: the high card by suit)" if tie else ""),
            seat=first,
            code="opener",
        )
    action_on = betting.next_to_act_among(seats, 0, first - 1)
    rulings: tuple[Ruling, ...] = (ruling,)
    if street is _SEVENTH and action_on is None and len([s for s in seats if s.in_hand]) > 1:
        rulings += (_expose_first(seats, rules),)
    # With fewer than two players left with chips nobody is on the action: ``settle``
    # closes the street at once and the cards run out (R16).
    return _street_opened(
        state, seats, bring_in, street, _BETTING, 0,
        state.level.big_blind * (1 if street <= _FOURTH else 2),  # the increment
        0, 0, None,  # last_full_to, bets_this_street, last_aggressor
        first,  # the opener
        action_on,  # RP-10-E: a bring-in all in for the ante: the action starts on his left
    ), rulings


def _expose_first(seats: tuple[SeatState, ...], rules: RuleProfile) -> Ruling:
    """RP-10-B: seventh street is dealt down with no betting to come; the players not at
    risk (with chips behind) expose first, then the all-in players."""
    safe = [s.seat for s in seats if s.status is _LIVE]
    at_risk = [s.seat for s in seats if s.status is _ALL_IN]
    first = f"seat(s) {', '.join(map(str, safe))} (not at risk) expose first, then " if safe else ""
    return _ruling(
        _INFO,
        (rules.cite("stud_seventh_exposed"),),
        f"seventh street is dealt down; {first}seat(s) {', '.join(map(str, at_risk))} all in",
        code="expose_order",
    )
