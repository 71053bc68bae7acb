"""Irregularities: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to controller/irregularities/ got past the
irregularity tests (docs/testing.md, "Mutation testing"); driven through the tracked hand.
"""

from __future__ import annotations

from pokertable.controller.model import Level
from tests.irregularities.table_driver import Table, codes, find, setup


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
