"""Stud/8's awards have Omaha hi-lo's shape (issue #30): per pot, one award per half won,
``half`` naming it, a scoop as one award of each half, a pot without a qualifying low all
``high``; the chips are still split by R20-B (suit), R20-C (odd chip high) and R21."""

from __future__ import annotations

from pokertable.controller.engine import step
from pokertable.controller.engine.events import ActionKind, PlayerAction, ShowHand
from pokertable.controller.engine.model import HandState, Phase, Variant
from pokertable.controller.engine.rulings import Ruling
from tests.engine.test_stud_rules import _tie_to_showdown, act, deal, new_hand

A = ActionKind


def _to_showdown(
    state: HandState, streets: tuple[dict[int, str], ...]
) -> tuple[HandState, list[Ruling]]:
    """Deal each later street, everyone checks, every live hand is tabled; the rulings."""
    out: list[Ruling] = []
    for cards in streets:
        state, _ = deal(state, cards)
        while state.action_on is not None:
            state, rulings = step(state, PlayerAction(state.action_on, A.CHECK))
            out += rulings
    for seat in state.in_hand:
        state, rulings = step(state, ShowHand(seat.seat))
        out += rulings
    assert state.phase is Phase.COMPLETE
    return state, out


def _shape(state: HandState) -> list[tuple[int, int, str, int, str]]:
    return [(a.pot_index, a.seat, a.half, a.amount, a.hand_name) for a in state.awards]


def _awarded(rulings: list[Ruling]) -> list[tuple[str, tuple[str, ...]]]:
    return [(r.text, r.rule_ids) for r in rulings if r.code == "pot_awarded"]


def test_TDA24_20C_stud8_a_hand_winning_both_halves_scoops_with_an_award_of_each() -> None:
    state = new_hand(Variant.STUD_HILO, {1: 100, 2: 100})
    state, _ = deal(state, {1: "As2s3c", 2: "KhKs9c"})
    state = act(state, (1, A.BRING_IN, None), (2, A.CALL, None))
    state, rulings = _to_showdown(
        state, ({1: "4d", 2: "9d"}, {1: "5h", 2: "Jc"}, {1: "Kd", 2: "Jh"}, {1: "Qc", 2: "7s"})
    )
    # the wheel is the best high (a straight) and the best low: a pot of 6, 3 a half
    assert _shape(state) == [(0, 1, "high", 3, "Straight"), (0, 1, "low", 3, "5-4-3-2-A low")]
    assert state.seat(1).stack == 103 and state.seat(2).stack == 97
    assert _awarded(rulings) == [
        ("main pot high half 3 to seat 1 with Straight", ("TDA2024-20C",)),
        ("main pot low half 3 to seat 1 with 5-4-3-2-A low", ("TDA2024-20C",)),
    ]


def test_TDA24_20B_stud8_tied_highs_without_a_low_take_the_pot_odd_chip_by_suit() -> None:
    """No qualifying low: the tied straights take the whole pot of 13 as the high half, the
    odd chip to seat 2's spade king (R20-B), as in seven-card stud."""
    state = _tie_to_showdown(Variant.STUD_HILO)
    assert _shape(state) == [(0, 2, "high", 7, "Straight"), (0, 1, "high", 6, "Straight")]


def test_TDA24_21_stud8_each_pot_is_split_on_its_own() -> None:
    """Seat 1 (the only low) is all in on third street: the main pot of 15 is split, 8 to
    the high (R20-C) and 7 to his low; the side pot, where no hand has a low, is all high."""
    state = new_hand(Variant.STUD_HILO, {1: 5, 2: 100, 3: 100})
    state, _ = deal(state, {1: "As2d3c", 2: "KsKdKh", 3: "QsQd9h"})
    assert state.bring_in_seat == 1
    state = act(state, (1, A.BRING_IN, None), (2, A.RAISE, 4), (3, A.CALL, None),
                (1, A.CALL, None))
    assert state.seat(1).stack == 0
    state, _ = deal(state, {1: "4h", 2: "Jc", 3: "6s"})
    state = act(state, (2, A.BET, 4), (3, A.CALL, None))
    state, rulings = _to_showdown(
        state, ({1: "7d", 2: "Jd", 3: "6d"}, {1: "9c", 2: "9s", 3: "8s"},
                {1: "Tc", 2: "Ts", 3: "Js"})
    )
    assert _shape(state) == [
        (0, 2, "high", 8, "Full House"),
        (0, 1, "low", 7, "7-4-3-2-A low"),
        (1, 2, "high", 8, "Full House"),
    ]
    assert {s.seat: s.stack for s in state.seats} == {1: 7, 2: 107, 3: 91}
    assert _awarded(rulings)[0] == (
        "side pot 1 (no qualifying low) 8 to seat 2 with Full House",
        ("TDA2024-20C", "TDA2024-21"),
    )
