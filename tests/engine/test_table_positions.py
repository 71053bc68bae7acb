"""Button, blinds and who is dealt in between hands: dead button (R32), heads-up (R34-B), R8-A."""

from __future__ import annotations

import pytest

from pokertable.controller.engine import EngineError, start_hand, step
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import Level, Phase, Variant
from pokertable.controller.engine.seating import TableSeat, TableState, after_hand, next_hand
from tests.engine.helpers import play

LEVEL = Level(small_blind=50, big_blind=100)


def _table(*seats: tuple[int, int]) -> TableState:
    return TableState(seats=tuple(TableSeat(s, f"P{s}", stack) for s, stack in seats))


def _play_fold_around(table: TableState, hand_id: str, first_button: int | None = None):
    setup = next_hand(
        table, hand_id=hand_id, variant=Variant.NLHE, level=LEVEL, first_button=first_button
    )
    state, _ = start_hand(setup)
    while state.phase is not Phase.COMPLETE:
        state = play(state, PlayerAction(state.action_on, ActionKind.FOLD))
    return setup, state


def test_first_hand_needs_a_drawn_button() -> None:
    with pytest.raises(EngineError, match="button"):
        next_hand(
            _table((1, 1000), (2, 1000), (3, 1000)), hand_id="h", variant=Variant.NLHE, level=LEVEL
        )


def test_positions_advance_one_seat_each_hand() -> None:
    table = _table((1, 1000), (3, 1000), (5, 1000), (7, 1000))
    setup, hand = _play_fold_around(table, "h1", first_button=1)
    assert (setup.button, setup.small_blind_seat, setup.big_blind_seat) == (1, 3, 5)
    table = after_hand(table, hand)
    setup, _ = _play_fold_around(table, "h2")
    assert (setup.button, setup.small_blind_seat, setup.big_blind_seat) == (3, 5, 7)


def test_dead_small_blind_and_dead_button_when_players_bust() -> None:
    """R32: the BB advances one active player; the SB goes to last BB's seat (dead if gone);
    the button goes to last hand's SB position (dead button if that seat emptied)."""
    table = _table((1, 1000), (2, 1000), (3, 1000), (4, 1000), (5, 1000))
    setup, hand = _play_fold_around(table, "h1", first_button=1)
    assert (setup.button, setup.small_blind_seat, setup.big_blind_seat) == (1, 2, 3)
    table = after_hand(table, hand)
    # The player in seat 3 (last hand's big blind) busts elsewhere: remove him.
    table = TableState(
        seats=tuple(s for s in table.seats if s.seat != 3),
        button=table.button,
        small_blind_position=table.small_blind_position,
        big_blind_seat=table.big_blind_seat,
        big_blind_player=table.big_blind_player,
    )
    setup, hand = _play_fold_around(table, "h2")
    assert setup.big_blind_seat == 4
    assert setup.small_blind_seat is None  # dead small blind: seat 3 is empty
    assert setup.button == 2
    assert {p[0] for p in setup.players} == {1, 2, 4, 5}
    table = after_hand(table, hand)
    setup, _ = _play_fold_around(table, "h3")
    assert (setup.button, setup.small_blind_seat, setup.big_blind_seat) == (3, 4, 5)  # dead button


def test_new_player_between_button_and_small_blind_waits_R8A() -> None:
    table = _table((1, 1000), (4, 1000), (6, 1000), (8, 1000))
    _, hand = _play_fold_around(table, "h1", first_button=1)  # button 1, SB 4, BB 6
    table = after_hand(table, hand)
    # Next hand: button 4, SB 6, BB 8. A new player in seat 5 sits between button and SB.
    table = table.seat_player(5, "Late", 1000).seat_player(2, "Early", 1000)
    setup = next_hand(table, hand_id="h2", variant=Variant.NLHE, level=LEVEL)
    assert (setup.button, setup.small_blind_seat, setup.big_blind_seat) == (4, 6, 8)
    dealt = {p[0] for p in setup.players}
    assert 5 not in dealt  # waits until the button passes
    assert 2 in dealt  # seat 2 may be dealt in at once


def test_heads_up_button_posts_small_blind_and_nobody_gets_bb_twice_R34B() -> None:
    table = _table((2, 1000), (5, 1000), (8, 1000))
    setup, hand = _play_fold_around(table, "h1", first_button=2)  # button 2, SB 5, BB 8
    assert setup.big_blind_seat == 8
    table = after_hand(table, hand)
    table = TableState(
        seats=tuple(s for s in table.seats if s.seat != 2),
        button=table.button,
        small_blind_position=table.small_blind_position,
        big_blind_seat=table.big_blind_seat,
        big_blind_player=table.big_blind_player,
    )
    setup, hand = _play_fold_around(table, "h2")
    assert setup.big_blind_seat == 5  # seat 8 had the big blind last hand
    assert setup.button == setup.small_blind_seat == 8
    state, _ = start_hand(setup)
    assert state.action_on == 8  # heads-up: the button acts first pre-flop
    table = after_hand(table, hand)
    setup, _ = _play_fold_around(table, "h3")
    assert setup.big_blind_seat == 8 and setup.button == 5


def test_busted_players_leave_and_stacks_carry_over() -> None:
    table = _table((1, 1000), (2, 100), (3, 1000))
    setup = next_hand(table, hand_id="h1", variant=Variant.NLHE, level=LEVEL, first_button=3)
    state, _ = start_hand(setup)  # SB 1, BB 2 (all in for 100)
    state, _ = step(state, PlayerAction(3, ActionKind.CALL))
    state, _ = step(state, PlayerAction(1, ActionKind.FOLD))
    assert state.phase is Phase.DEALING and state.face_up
    from pokertable.controller.engine.events import DealBoard, DealHole

    for seat, cards in ((2, ("2c", "3d")), (3, ("As", "Ah"))):
        state, _ = step(state, DealHole(seat, cards))
    for cards in (("Kd", "9s", "7h"), ("5c",), ("Jd",)):
        state, _ = step(state, DealBoard(cards))
    from pokertable.controller.engine.events import ShowHand

    state, _ = step(state, ShowHand(2))
    state, _ = step(state, ShowHand(3))
    assert state.phase is Phase.COMPLETE
    table = after_hand(table, state)
    assert [(s.seat, s.stack) for s in table.seats] == [(1, 950), (3, 1150)]
