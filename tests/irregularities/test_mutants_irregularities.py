"""Irregularities: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to controller/irregularities/ got past the
irregularity tests (docs/testing.md, "Mutation testing"); driven through the tracked hand.
"""

from __future__ import annotations

from pokertable.controller.irregularities.events import KillHand
from pokertable.controller.model import Level
from tests.irregularities.table_driver import Table, codes, find, setup

L100 = Level(small_blind=50, big_blind=100)


def test_TDA24_53B_the_floor_is_asked_once_about_a_skipped_seat() -> None:
    # Seat 4 is skipped; seat 5 calls and seat 6 folds out of turn: substantial action,
    # the floor is called about seat 4. Seats 1 and 2 folding out of turn after that are
    # out of turn too, but the question about seat 4 is not asked again.
    table = Table(
        setup(
            {1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000, 5: 20_000, 6: 20_000},
            button=6,
            sb=1,
            bb=2,
            level=Level(small_blind=100, big_blind=200),
        )
    )
    table.deal()
    table.acts((3, "raise", 600))
    table.act(5, "call")
    assert find(table.act(6, "fold"), "skipped_player").seat == 4
    for seat in (1, 2):
        out = table.act(seat, "fold")
        assert "out_of_turn" in codes(out) and "skipped_player" not in codes(out)
    assert table.t.oot.floor_pending == 4


def test_TDA24_65A_a_killed_hand_keeps_the_called_part_of_its_street_bet() -> None:
    # Seat 4 raised to 1,500 over a called 400 and its hand is killed: 1,100 goes back,
    # the 400 that was called stays as its street bet and in the pot.
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "raise", 600), (4, "call"), (1, "fold"), (2, "call"))
    table.street(3)
    table.acts((2, "bet", 400), (3, "call"), (4, "raise", 1500))
    pot_before = table.t.hand.pot_total
    table.send(KillHand(4))
    seat4 = table.t.hand.seat(4)
    assert (seat4.bet, seat4.stack, seat4.committed) == (400, 4000, 1000)
    assert table.t.hand.pot_total == pot_before - 1100


def test_readers_a_removal_read_at_another_antenna_leaves_the_board_card_in_place() -> None:
    # A flop card flickers at seat 2's antenna: seen there (one card in two zones: nothing
    # changed), then read leaving seat 2. It never left the board, so the turn card that
    # follows is the fourth board card and is dealt.
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "call"), (1, "call"), (2, "check"))
    table.street(3)
    table.acts((1, "check"), (2, "check"), (3, "check"))
    flop_card = table.t.hand.board[0]
    assert codes(table.seat(2, flop_card)) == ["card_two_zones"]
    assert table.remove("seat2.cards", flop_card) == []
    assert table.t.ledger.in_zone("board").count(flop_card) == 1
    table.street(1)
    assert len(table.t.hand.board) == 4 and table.t.hand.board[0] == flop_card
