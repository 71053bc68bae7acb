"""Runs of cards and draws applied together, as a replay reads them (``history.replay``).

A replay meets the deal and a draw as runs of events: every player's hole cards in turn,
every player's ``sd`` in a draw, then the cards each discarding player draws. Through
``step`` each one copies the hand state (and a draw's record); a run function applies the
usual ones in one pass and copies them once, with the rulings ``step`` gives, so the state
it returns is the one ``step`` reaches event by event (issue #30, docs/benchmarks.md
"Session 18"; stud's streets are ``stud.deal_run``'s).

A run never refuses anything and never decides a house rule: it stops before the first
event that is not the usual one (a seat not dealt in, a card in play or unknown, a draw out
of turn, a change of mind, a short stub to reshuffle, a card exposed earlier in the draw)
and before the event that completes a draw (it opens the next betting round); ``step``
then takes that event, with its refusal and its rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.draw import discard_ruling
from pokertable.controller.engine.events import DealHole, Discard
from pokertable.controller.engine.model import (
    DrawState,
    HandState,
    Phase,
    SeatState,
    copier,
)
from pokertable.controller.engine.rulings import Ruling
from pokertable.controller.rules import RuleProfile

_DEALING = Phase.DEALING
_DECK_HAS = STANDARD_DECK.issuperset
_BETTING = Phase.BETTING
_seat_hole = copier(SeatState, "hole")
_state_seats = copier(HandState, "seats")
_state_drawn = copier(HandState, "seats", "draw")
_draw_ran = copier(DrawState, "order", "owed", "discarded", "seen", "stub", "log")


def hole_run(state: HandState, events: Sequence[DealHole]) -> tuple[HandState, int]:
    """The board games' and draw games' deal: the state after the usual hole cards at the
    head of ``events`` (``state_machine._deal_hole`` one by one, which gives no ruling),
    and how many of them that is."""
    phase = state.phase
    if (
        state.draw is not None
        or state.variant.is_stud
        or not (phase is _DEALING or (phase is _BETTING and state.action_on is not None))
        or state.players_in_hand == 1  # ``settle`` would award the pot
    ):
        return state, 0
    size = state.variant.hole_cards
    seats = list(state.seats)
    held = set(state.board)  # ``checks.cards_in_play``, kept up to date through the run
    for s in seats:
        held.update(s.hole)
    for _, card in state.exposed:
        held.add(card)
    done = 0
    for event in events:
        number = event.seat
        cards = event.cards
        index = -1
        for i, s in enumerate(seats):
            if s.seat == number:
                index = i
                break
        if (
            index < 0
            or type(cards) is not tuple
            or seats[index].hole
            or len(cards) != size
            or not _DECK_HAS(cards)
            or not held.isdisjoint(cards)
            or len(set(cards)) != size
        ):
            break
        seats[index] = _seat_hole(seats[index], cards)
        held.update(cards)
        done += 1
    if not done:
        return state, 0
    return _state_seats(state, tuple(seats)), done


def draw_run(
    state: HandState, events: Sequence[Discard | DealHole], rules: RuleProfile
) -> tuple[HandState, int, tuple[Ruling, ...]]:
    """The state after the usual events at the head of ``events`` (``draw.discard`` and
    ``draw.deal_drawn`` one by one), how many of them that is, and their rulings."""
    draw = state.draw
    if (
        draw is None
        or state.phase is not _DEALING
        or not (draw.order or draw.owed)
        or draw.returned  # a reshuffled stub: a seen card may come again (``deal_drawn``)
        or draw.last  # an exposed card is replaced after the others
        or state.players_in_hand == 1  # ``settle`` would award the pot
    ):
        return state, 0, ()
    order = draw.order
    turn = 0  # the players in ``order`` who stood pat or discarded in the run
    owed = list(draw.owed)
    discarded = draw.discarded
    seen = draw.seen
    stub = draw.stub
    log = list(draw.log)
    spare = 0 if rules.draw_last_card_dealt else 1  # the stub's card kept back
    number_of_draw = draw.number
    seats = list(state.seats)
    rulings: list[Ruling] = []
    done = 0
    for event in events:
        number = event.seat
        cards = event.cards
        if type(cards) is not tuple:
            break
        index = -1
        for i, s in enumerate(seats):
            if s.seat == number:
                index = i
                break
        if index < 0:
            break
        seat = seats[index]
        if type(event) is Discard:
            if turn >= len(order) or order[turn] != number or any(w == number for w, _ in owed):
                break  # out of turn, or a change of his draw
            hand = seat.hole
            if cards and (len(set(cards)) != len(cards) or not set(cards).issubset(hand)):
                break
            if turn + 1 == len(order) and not owed and not cards:
                break  # the draw's last stand pat opens the betting: ``step``
            turn += 1
            if cards:
                owed.append((number, cards))
                seats[index] = _seat_hole(seat, tuple([c for c in hand if c not in cards]))
            discarded += cards
            log.append((number_of_draw, number, "sd", cards))
            rulings.append(discard_ruling(rules, number, cards, number_of_draw, False))
        elif type(event) is DealHole:
            need = -1
            for waiting, discards in owed:
                if waiting == number:
                    need = len(discards)
                    break
            if (
                need != len(cards)
                or need > stub - spare  # the stub is short: reshuffled by the house's rule
                or not seen.isdisjoint(cards)
                or (need > 1 and len(set(cards)) != need)
                or not _DECK_HAS(cards)
            ):
                break
            still = [p for p in owed if p[0] != number]
            if turn == len(order) and not still:
                break  # the draw's last cards open the betting: ``step``
            owed = still
            stub = max(0, stub - need)
            log.append((number_of_draw, number, "dh", cards))
            seen = seen.union(cards)
            seats[index] = _seat_hole(seat, seat.hole + cards)
        else:
            break
        done += 1
    if not done:
        return state, 0, ()
    draw = _draw_ran(draw, order[turn:], tuple(owed), discarded, seen, stub, tuple(log))
    return _state_drawn(state, tuple(seats), draw), done, tuple(rulings)
