"""Random 2-7 triple draw, 2-7 single draw and badugi hands dealt from the pads, drawn
through the muck and played through ``TableSession`` (issue #30): every hand reaches its
award with no alert, chips are conserved, and the table's stacks are the engine's replay of
the same cards, draws and actions."""

from __future__ import annotations

import random

import pytest

from pokertable.controller.engine import HandSetup, start_hand, step
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.events import DealHole, Discard, ShowHand
from pokertable.controller.engine.model import HandState, Level, Phase, Variant
from pokertable.controller.rules import TDA_2024
from tests.app.draw_table import DrawTable

LEVEL = Level(small_blind=50, big_blind=100)


def _play(table: DrawTable, rng: random.Random) -> dict[int, tuple[str, ...]]:
    """One hand: cards from a shuffled deck onto the pads, random draws and actions until
    the award; the cards first dealt, by seat."""
    deck = sorted(STANDARD_DECK)
    rng.shuffle(deck)
    hand = table.hand
    dealt = {s.seat: tuple(deck.pop() for _ in range(hand.variant.hole_cards))
             for s in hand.seats}
    table.deal(dealt)
    while table.hand.phase is not Phase.COMPLETE:
        hand = table.hand
        if hand.phase is Phase.BETTING:
            _act(table, hand, rng)
        elif hand.phase is Phase.DEALING and hand.draw is not None and hand.draw.order:
            table.collect()
            table.card("burn", deck.pop())
            for seat in hand.draw.order:
                hole = list(table.hand.seat(seat).hole)
                count = rng.randint(0, min(3, len(deck) - 2))  # no reshuffle here
                if count == 0:
                    table.press("check_call")  # stands pat
                    continue
                table.discard(seat, *rng.sample(hole, count))
                table.serve(seat, *(deck.pop() for _ in range(count)))
        else:
            table.press("confirm")
    return dealt


def _act(table: DrawTable, hand: HandState, rng: random.Random) -> None:
    roll = rng.random()
    if roll < 0.15:
        table.press("fold")
    elif roll < 0.35:
        table.press("bet_raise", hand.call_to + hand.increment)
    else:
        table.press("check_call")


def _replayed(table: DrawTable, starting: dict[int, int],
              dealt: dict[int, tuple[str, ...]]) -> dict[int, int]:
    """The engine alone, fed the cards, draws and actions of the table's hand."""
    played = table.hand
    setup = HandSetup(hand_id="r", variant=played.variant, level=played.level,
                      button=played.button, small_blind_seat=played.small_blind_seat,
                      big_blind_seat=played.big_blind_seat,
                      players=tuple((s, f"P{s}", stack) for s, stack in starting.items()))
    hand, _ = start_hand(setup, TDA_2024)
    for seat in hand.seats_clockwise_from(hand.button):
        hand, _ = step(hand, DealHole(seat.seat, dealt[seat.seat]), TDA_2024)
    log = played.draw.log if played.draw is not None else ()
    for street in range(played.variant.draws + 1):
        for record in played.actions:
            if record.street == street and record.action is not None:
                hand, _ = step(hand, record.action, TDA_2024)
        for number, seat_no, kind, cards in log:
            if number == street + 1:
                event = Discard(seat_no, cards) if kind == "sd" else DealHole(seat_no, cards)
                hand, _ = step(hand, event, TDA_2024)
    for s in played.seats:
        if hand.phase is Phase.SHOWDOWN and s.shown:
            hand, _ = step(hand, ShowHand(s.seat), TDA_2024)
    return {s.seat: s.stack for s in hand.seats}


@pytest.mark.parametrize("variant",
                         [Variant.TRIPLE_DRAW_27, Variant.SINGLE_DRAW_27, Variant.BADUGI])
def test_R35A7_random_draw_hands_through_the_table_conserve_chips(variant: Variant) -> None:
    rng = random.Random(f"draw-{variant.value}")
    for _ in range(12):
        starting = {s: rng.choice((300, 900, 2000)) for s in (1, 2, 3, 4)}
        table = DrawTable(starting, variant=variant, level=LEVEL)
        table.press("hand_start")
        dealt = _play(table, rng)
        assert table.alert_codes() == [], table.alert_codes()
        assert table.hand.awards
        stacks = table.stacks()
        assert sum(stacks.values()) == sum(starting.values())
        assert {s: stacks.get(s, 0) for s in starting} == _replayed(table, starting, dealt)
