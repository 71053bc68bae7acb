"""Rule 20-A: the odd chip goes to the first tied hand clockwise from the button.

The seats here are chosen so that "first left of the button" and "lowest seat number"
name different players: an award ordered by seat number loses these tests.
"""

from __future__ import annotations

from pokertable.controller.engine import step
from pokertable.controller.engine.events import (
    ActionKind,
    DealBoard,
    DealHole,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.model import HandState, Level, Phase
from tests.engine.helpers import act, play, preflop

# Blinds 25-50 in 25 chips: a pot of 125 is five units, so two tied hands leave one over.
LEVEL = Level(small_blind=25, big_blind=50, chip_unit=25)
BOARD = ("2c", "7d", "9h", "Js", "Kd")
# Seats 4 and 1 both hold ace-queen: the same five cards (A K Q J 9), a tie.
HOLES = {4: ("As", "Qs"), 1: ("Ah", "Qh")}


def check_down_to_showdown(state: HandState) -> HandState:
    for seat, cards in HOLES.items():
        state, _ = step(state, DealHole(seat, cards))
    while len(state.board) < 5:
        n = 3 if not state.board else 1
        state = play(state, DealBoard(BOARD[len(state.board) : len(state.board) + n]))
        while state.phase is Phase.BETTING:
            assert state.action_on is not None
            state = play(state, PlayerAction(state.action_on, ActionKind.CHECK))
    for seat in HOLES:
        state, _ = step(state, ShowHand(seat))
    return state


def test_TDA24_20A_odd_chip_to_first_seat_left_of_the_button_not_the_lowest_seat() -> None:
    # Button 2, small blind 3, big blind 4, seat 1 first to act pre-flop.
    state = preflop({1: 1000, 2: 1000, 3: 1000, 4: 1000}, button=2, sb=3, bb=4, level=LEVEL)
    state, _ = act(state, (1, "call"), (2, "fold"), (3, "fold"), (4, "check"))
    state = check_down_to_showdown(state)
    assert state.phase is Phase.COMPLETE
    # 125 = 50 + 50 + the small blind's dead 25. Clockwise from the button: 3 (folded),
    # then 4, then 1. Seat 4 takes the odd 25 although seat 1 has the lower number.
    assert {a.seat: a.amount for a in state.awards} == {4: 75, 1: 50}
    assert {s.seat: s.stack for s in state.seats} == {1: 1000, 2: 1000, 3: 975, 4: 1025}
