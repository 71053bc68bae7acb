"""Random stud, stud/8 and razz hands dealt from the pads and played through
``TableSession`` (issue #30): every hand reaches its award with no alert, chips are
conserved, and the table's stacks are the engine's replay of the same actions."""

from __future__ import annotations

import random

import pytest

from pokertable.controller.engine import HandSetup, start_hand, step
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.events import DealBoard, DealHole, ShowHand
from pokertable.controller.engine.model import HandState, Phase, Variant
from pokertable.controller.rules import TDA_2024
from tests.app.stud_table import STUD_LEVEL, StudTable


def _play(table: StudTable, rng: random.Random) -> None:
    """One hand: cards from a shuffled deck onto the pads, random actions until the award."""
    deck = sorted(STANDARD_DECK)
    rng.shuffle(deck)
    seats = [s.seat for s in table.hand.seats]
    table.third({s: (deck.pop(), deck.pop(), deck.pop()) for s in seats})
    while table.hand.phase is not Phase.COMPLETE:
        hand = table.hand
        if hand.phase is Phase.BETTING:
            _act(table, hand, rng)
        elif hand.phase is Phase.DEALING:
            table.collect()
            table.card("burn", deck.pop())
            live = [s.seat for s in hand.seats if s.in_hand]
            if len(hand.seats[0].hole) == 6 and rng.random() < 0.2:
                table.card("board", deck.pop())  # RP-10-H: the stub runs short
            else:
                table.deal_street(None, {s: deck.pop() for s in live})
        else:
            table.press("confirm")


def _act(table: StudTable, hand: HandState, rng: random.Random) -> None:
    seat = hand.action_on
    assert seat is not None
    if hand.call_to == 0 and hand.bring_in_seat is not None and not hand.actions:
        table.push(seat, *([25] if rng.random() < 0.6 else [25, 25, 25, 25]))
        return
    roll = rng.random()
    if roll < 0.15:
        table.press("fold")
    elif roll < 0.35:
        table.press("bet_raise", hand.call_to + (100 if hand.street <= 1 else 200))
    else:
        table.press("check_call")


def _replayed(table: StudTable, starting: dict[int, int]) -> dict[int, int]:
    """The engine alone, fed the cards and actions the table's hand ended with."""
    played = table.hand
    setup = HandSetup(hand_id="r", variant=played.variant, level=played.level, button=3,
                      small_blind_seat=None, big_blind_seat=1,
                      players=tuple((s, f"P{s}", stack) for s, stack in starting.items()))
    hand, _ = start_hand(setup, TDA_2024)
    for street in range(5):
        for s in played.seats:
            cards = s.hole[:3] if street == 0 else s.hole[2 + street:3 + street]
            if cards and hand.seat(s.seat).in_hand:
                hand, _ = step(hand, DealHole(s.seat, cards), TDA_2024)
        if street == 4 and played.board:
            hand, _ = step(hand, DealBoard(played.board), TDA_2024)
        for record in played.actions:
            if record.street == street and record.action is not None:
                hand, _ = step(hand, record.action, TDA_2024)
    for s in played.seats:
        if hand.phase is Phase.SHOWDOWN and s.shown:
            hand, _ = step(hand, ShowHand(s.seat), TDA_2024)
    return {s.seat: s.stack for s in hand.seats}


@pytest.mark.parametrize("variant", [Variant.STUD, Variant.STUD_HILO, Variant.RAZZ])
def test_RP10_random_stud_hands_through_the_table_conserve_chips(variant: Variant) -> None:
    rng = random.Random(f"stud-{variant.value}")
    for _ in range(12):
        starting = {s: rng.choice((300, 900, 2000)) for s in (1, 2, 3, 4)}
        table = StudTable(starting, variant=variant, level=STUD_LEVEL)
        table.press("hand_start")
        _play(table, rng)
        assert table.alert_codes() == [], table.alert_codes()
        stacks = table.stacks()
        assert sum(stacks.values()) == sum(starting.values())
        assert {s: stacks.get(s, 0) for s in starting} == _replayed(table, starting)
