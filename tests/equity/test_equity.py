"""Exact equities checked against independent evaluators: eval7 for hold'em (its C
evaluator, enumerated here board by board) and PokerKit for Omaha (its own hand model,
exactly two hole cards and three board cards)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import eval7
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.controller.evaluation.equity import Equities, equities
from pokertable.controller.evaluation.handrank import (
    best_value,
    card_id,
    card_text,
    seven_card_values,
)

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def _shares(values: list[int]) -> list[Fraction]:
    best = max(values)
    winners = [v == best for v in values]
    return [Fraction(1, sum(winners)) if w else Fraction(0) for w in winners]


def _oracle(holes: dict[int, tuple[str, ...]], board: tuple[str, ...], dead: tuple[str, ...],
            strength: object) -> dict[int, tuple[Fraction, Fraction, Fraction]]:
    """(win, tie, equity) per seat by plain enumeration with an outside evaluator."""
    used = {c for cards in holes.values() for c in cards} | set(board) | set(dead)
    rest = [c for c in DECK if c not in used]
    seats = sorted(holes)
    win = dict.fromkeys(seats, 0)
    tie = dict.fromkeys(seats, 0)
    share = dict.fromkeys(seats, Fraction(0))
    boards = 0
    for runout in combinations(rest, 5 - len(board)):
        full = (*board, *runout)
        values = [strength(holes[s], full) for s in seats]  # type: ignore[operator]
        shares = _shares(values)
        split = sum(1 for s in shares if s)
        for seat, part in zip(seats, shares, strict=True):
            if part:
                (win if split == 1 else tie)[seat] += 1
                share[seat] += part
        boards += 1
    return {s: (Fraction(win[s], boards), Fraction(tie[s], boards), share[s] / boards)
            for s in seats}


def _eval7_holdem(hole: tuple[str, ...], board: tuple[str, ...]) -> int:
    return int(eval7.evaluate([eval7.Card(c) for c in (*hole, *board)]))


def _pokerkit_omaha(hole: tuple[str, ...], board: tuple[str, ...]) -> object:
    from pokerkit import Card, OmahaHoldemHand

    return OmahaHoldemHand.from_game(list(Card.parse("".join(hole))),
                                     list(Card.parse("".join(board))))


def _assert_same(ours: Equities, oracle: dict[int, tuple[Fraction, Fraction, Fraction]]) -> None:
    assert ours.exact and ours.error_bound == 0
    for seat in ours.seats:
        win, tie, share = oracle[seat.seat]
        # exact enumeration: the counts agree to the board, so the floats agree to rounding
        assert round(seat.win * ours.boards) == win * ours.boards, seat
        assert round(seat.tie * ours.boards) == tie * ours.boards, seat
        assert seat.equity == pytest.approx(float(share), abs=1e-12), seat


def _spot(rng: random.Random, players: int, board_cards: int, dead: int, hole: int
          ) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...], tuple[str, ...]]:
    cards = rng.sample(DECK, players * hole + board_cards + dead)
    holes = {seat: tuple(cards[(seat - 1) * hole: seat * hole]) for seat in range(1, players + 1)}
    rest = cards[players * hole:]
    return holes, tuple(rest[:board_cards]), tuple(rest[board_cards:])


def test_seven_card_strength_orders_hands_as_eval7_does() -> None:
    rng = random.Random(20241126)
    for size in (5, 6, 7):
        hands = [rng.sample(range(52), size) for _ in range(6000)]
        ours = seven_card_values(np.array(hands)).astype(int)
        theirs = [_eval7_holdem(tuple(card_text(c) for c in h), ()) for h in hands]
        for i in range(0, len(hands), 2):
            assert (ours[i] > ours[i + 1]) == (theirs[i] > theirs[i + 1]), hands[i: i + 2]
            assert (ours[i] == ours[i + 1]) == (theirs[i] == theirs[i + 1]), hands[i: i + 2]
            assert best_value(hands[i]) == ours[i]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), board_cards=st.sampled_from(
    [3, 4, 5]), dead=st.integers(0, 4))
def test_holdem_equities_equal_eval7_enumeration(seed: int, players: int, board_cards: int,
                                                 dead: int) -> None:
    if board_cards == 3 and players > 6:
        board_cards = 4  # keep the oracle's Python loop short; 9-way flops are in the bench
    holes, board, dead_cards = _spot(random.Random(seed), players, board_cards, dead, 2)
    ours = equities("NLHE", holes, board, dead_cards)
    _assert_same(ours, _oracle(holes, board, dead_cards, _eval7_holdem))
    assert sum(s.equity for s in ours.seats) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(3))
def test_plo4_equities_equal_pokerkit_enumeration(seed: int) -> None:
    holes, board, dead = _spot(random.Random(seed), 2 + seed, 4, seed, 4)
    ours = equities("PLO", holes, board, dead)
    _assert_same(ours, _oracle(holes, board, dead, _pokerkit_omaha))


def test_plo4_flop_heads_up_is_exact() -> None:
    holes = {1: ("As", "Ah", "Kd", "Qc"), 2: ("Ks", "Kh", "Jd", "Tc")}
    ours = equities("PLO", holes, ("2c", "3d", "4c"))
    assert ours.exact and ours.boards == 41 * 40 // 2
    _assert_same(ours, _oracle(holes, ("2c", "3d", "4c"), (), _pokerkit_omaha))


def test_preflop_heads_up_enumerates_every_board_exactly() -> None:
    spot = equities("NLHE", {1: ("As", "Ah"), 2: ("Ks", "Kh")})
    assert spot.exact and spot.boards == 1_712_304
    aces, kings = spot.seats
    # counted by hand from the two seats' boards: ties are boards where both play the board
    assert round(aces.win * spot.boards) + round(kings.win * spot.boards) + round(
        aces.tie * spot.boards) == spot.boards
    assert 0.82 < aces.equity < 0.83


def test_omaha_preflop_is_sampled_with_an_error_bound_and_repeatable() -> None:
    holes = {1: ("As", "Ah", "Kd", "Qc"), 2: ("Ks", "Kh", "Jd", "Tc")}
    first, second = equities("PLO", holes), equities("PLO", holes)
    assert not first.exact and 0 < first.error_bound < 0.01
    assert first == second  # seeded from the cards, not a clock


def test_outs_on_the_turn_for_the_seat_behind() -> None:
    spot = equities("NLHE", {1: ("As", "Ah"), 2: ("Ks", "Kh")}, ("2c", "7d", "9h", "Jc"))
    assert spot.seats[0].outs == ()
    assert spot.seats[1].outs == ("Kc", "Kd")
    assert [s.label for s in spot.seats] == ["Pair", "Pair"]


def test_a_board_everyone_plays_is_a_tie() -> None:
    spot = equities("NLHE", {1: ("2c", "3d"), 2: ("2d", "3c")}, ("As", "Ks", "Qs", "Js", "Ts"))
    assert [(s.win, s.tie, s.equity) for s in spot.seats] == [(0, 1, 0.5), (0, 1, 0.5)]
    assert spot.seats[0].label == "Straight Flush"


def test_dead_cards_cannot_come() -> None:
    live = equities("NLHE", {1: ("As", "Ah"), 2: ("Ks", "Kh")}, ("2c", "7d", "9h", "Jc"))
    dead = equities("NLHE", {1: ("As", "Ah"), 2: ("Ks", "Kh")}, ("2c", "7d", "9h", "Jc"),
                    dead=("Kc",))
    assert dead.boards == live.boards - 1
    assert dead.seats[1].outs == ("Kd",)


@pytest.mark.parametrize(("holes", "board", "dead", "message"), [
    ({1: ("As", "Ah"), 2: ("As", "Kh")}, (), (), "seat 2: As is also in seat 1"),
    ({1: ("As", "Ah"), 2: ("Ks", "Kh")}, ("Ks", "2c", "3c"), (), "board: Ks is also in seat 2"),
    ({1: ("As", "Ah"), 2: ("Ks", "Xh")}, (), (), "seat 2: card: 'Xh' is not a card"),
    ({1: ("As", "Ah", "2c"), 2: ("Ks", "Kh")}, (), (), "seat 1: 3 hole cards"),
    ({1: ("As", "Ah")}, (), (), "holes: equity needs two or more"),
    ({1: ("As", "Ah"), 2: ("Ks", "Kh")}, ("2c",), (), "board: 1 cards"),
])
def test_a_bad_spot_names_the_seat_or_card(holes: dict[int, tuple[str, ...]],
                                           board: tuple[str, ...], dead: tuple[str, ...],
                                           message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        equities("NLHE", holes, board, dead)


def test_card_ids_round_trip() -> None:
    assert [card_text(card_id(c)) for c in DECK] == DECK


def test_module_examples_run() -> None:
    import doctest

    from pokertable.controller.evaluation import equity, handrank

    for module in (equity, handrank):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
