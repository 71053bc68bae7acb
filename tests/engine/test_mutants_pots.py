"""Pots, uncalled bets and odd chips: cases found by mutation testing (issue #20).

Each test pins an outcome that a one-line change to controller/engine/pots.py got past the rest
of the suite (docs/testing.md, "Mutation testing"). They go through the pots module's
public functions, whose callers are the engine's showdown and the public pot display.
"""

from __future__ import annotations

from dataclasses import replace

from pokertable.controller.engine.model import Pot, SeatState, SeatStatus
from pokertable.controller.engine.pots import build_pots, split_hi_lo, split_pot, uncalled_excess
from pokertable.controller.rules import TDA_2024


def test_chips_below_the_unit_go_to_the_first_winner_left_of_the_button() -> None:
    # 1,050 in 100-chips between two: 5 units each, and the 50 that cannot be split
    # further goes to the first winner clockwise from the button, once (R20-A).
    assert split_pot(1050, [5, 3], 100) == ((5, 550), (3, 500))
    assert split_pot(1050, [3, 5], 100) == ((3, 550), (5, 500))
    # Three winners, odd units and a remainder: no chip made or lost.
    shares = split_pot(1075, [6, 2, 4], 100)
    assert shares == ((6, 475), (2, 300), (4, 300))
    assert sum(chips for _, chips in shares) == 1075


def test_a_single_winner_takes_the_whole_pot_whatever_the_unit() -> None:
    assert split_pot(1075, [7], 100) == ((7, 1075),)
    assert split_pot(300, [7], 25) == ((7, 300),)


def test_dead_money_above_every_live_player_joins_the_last_pot_not_the_main() -> None:
    # Seat 3 bet 500 and folded to a 300 all-in after seat 1 was all in for 100. Its 200
    # above the highest live commitment is dead money in the side pot that only seat 2
    # can win, not in the main pot seat 1 can win.
    a = SeatState(1, "a", 0, committed=100, status=SeatStatus.ALL_IN)
    b = SeatState(2, "b", 0, committed=300, status=SeatStatus.ALL_IN)
    c = SeatState(3, "c", 1000, committed=500, status=SeatStatus.FOLDED)
    assert build_pots([a, b, c]) == (Pot(300, (1, 2)), Pot(600, (2,)))


def test_dead_money_above_three_layers_joins_the_top_side_pot() -> None:
    # All-ins for 100 and 300, a live 600, and a fold for 900: the 300 above 600 is in the
    # pot only seat 4 can win; the middle side pot stays (2, 4).
    a = SeatState(1, "a", 0, committed=100, status=SeatStatus.ALL_IN)
    b = SeatState(2, "b", 0, committed=300, status=SeatStatus.ALL_IN)
    c = SeatState(3, "c", 0, committed=900, status=SeatStatus.FOLDED)
    d = SeatState(4, "d", 5000, committed=600)
    assert build_pots([a, b, c, d]) == (Pot(400, (1, 2, 4)), Pot(600, (2, 4)), Pot(900, (4,)))


def test_dead_money_with_one_live_player_level_is_one_pot_for_him() -> None:
    # Everyone but seat 2 folded; the folded chips above his commitment stay in his pot.
    b = SeatState(2, "b", 0, committed=200)
    c = SeatState(3, "c", 0, committed=700, status=SeatStatus.FOLDED)
    assert build_pots([b, c]) == (Pot(900, (2,)),)


def test_antes_alone_make_a_main_pot_every_live_player_may_win() -> None:
    # Seat 1 is all in for the ante alone: the antes are his main pot; the bets above are a
    # side pot between the others.
    a = SeatState(1, "a", 0, committed=100, dead=100, status=SeatStatus.ALL_IN)
    b = SeatState(2, "b", 0, committed=600, dead=100)
    c = SeatState(3, "c", 0, committed=600, dead=100)
    assert build_pots([a, b, c]) == (Pot(300, (1, 2, 3)), Pot(1000, (2, 3)))


def test_no_live_player_no_pot() -> None:
    folded = SeatState(1, "a", 0, committed=100, status=SeatStatus.FOLDED)
    assert build_pots([folded]) == ()


def test_a_lone_bet_is_uncalled_in_full() -> None:
    assert uncalled_excess([SeatState(4, "d", 0, bet=700)]) == (4, 700)
    assert uncalled_excess([]) is None


def test_matched_top_bets_leave_nothing_uncalled() -> None:
    a = SeatState(1, "a", 0, bet=400)
    b = SeatState(2, "b", 0, bet=400)
    c = SeatState(3, "c", 0, bet=100)
    assert uncalled_excess([c, a, b]) is None
    # Only the excess over the second-highest bet goes back, to the top bettor.
    assert uncalled_excess([c, SeatState(1, "a", 0, bet=900), b]) == (1, 500)


def test_hi_lo_halves_keep_the_odd_unit_for_high_and_the_remainder() -> None:
    # 1,150 in 100-chips: 11 units, low half 5 units, high half 6 units + the 50 (R20-C).
    assert split_hi_lo(1150, [2], [5], 100, TDA_2024) == ((2, 650), (5, 500))
    # One player scooping both halves gets all of it, counted once per half.
    assert split_hi_lo(1150, [2], [2], 100, TDA_2024) == ((2, 1150),)


def test_evenly_split_clause_only_when_the_same_hands_win_both_halves() -> None:
    # Clubs NZ 20-F / TDA 2011 R16: the whole pot is split evenly only when the same
    # players win high and low; different winners still split the halves on their own.
    evenly = replace(TDA_2024, odd_chip_identical_split_evenly=True)
    assert split_hi_lo(66, [5], [2], 1, evenly) == ((5, 33), (2, 33))
    assert split_hi_lo(66, [2], [5], 1, evenly) == ((2, 33), (5, 33))
    assert split_hi_lo(67, [2], [5], 1, evenly) == ((2, 34), (5, 33))


def test_chips_only_from_folded_seats_still_make_a_pot_for_the_live_players() -> None:
    # No chip is lost: with nothing in from the live seats (and no antes), the folded
    # seat's chips are one pot that every live seat may win.
    live = [SeatState(1, "a", 1000), SeatState(2, "b", 1000)]
    folded = SeatState(3, "c", 700, committed=300, status=SeatStatus.FOLDED)
    assert build_pots([*live, folded]) == (Pot(300, (1, 2)),)
