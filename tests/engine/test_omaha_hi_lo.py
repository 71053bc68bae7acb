"""Omaha hi-lo eight or better (FO/8, PO/8) through the engine: R20-C, R20-A, R21.

Hands are played from the blinds to the showdown with ``step``; the expected chips come
from the rule text worked by hand in each docstring.
"""

from __future__ import annotations

from dataclasses import replace

from pokertable.controller.engine import step
from pokertable.controller.engine.events import (
    ActionKind,
    DealBoard,
    DealHole,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.model import HandState, Level, Phase, Variant
from pokertable.controller.rules import TDA_2024, RuleProfile
from tests.engine.helpers import act, options, play, preflop, try_act

LOW_BOARD = ("2c", "5d", "7h", "Ks", "Qd")


def to_showdown(
    state: HandState,
    holes: dict[int, tuple[str, ...]],
    board: tuple[str, ...] = LOW_BOARD,
    rules: RuleProfile = TDA_2024,
) -> tuple[HandState, list[str]]:
    """Deal the holes and the board, check every street, table every live hand."""
    for seat, cards in holes.items():
        state = play(state, DealHole(seat, cards), rules)
    while len(state.board) < 5:
        n = 3 if not state.board else 1
        state = play(state, DealBoard(board[len(state.board) : len(state.board) + n]), rules)
        while state.phase is Phase.BETTING:
            assert state.action_on is not None
            state = play(state, PlayerAction(state.action_on, ActionKind.CHECK), rules)
    messages: list[str] = []
    for seat in holes:
        if state.seat(seat).in_hand and state.phase is not Phase.COMPLETE:
            state, out = step(state, ShowHand(seat), rules)
            messages += [f"{r.text} {r.rule_ids}" for r in out]
    assert state.phase is Phase.COMPLETE
    return state, messages


def won(state: HandState) -> dict[int, int]:
    totals: dict[int, int] = {}
    for a in state.awards:
        totals[a.seat] = totals.get(a.seat, 0) + a.amount
    return totals


def limped(variant: Variant, level: Level | None = None, seats: int = 3) -> HandState:
    stacks = {n: 1000 for n in range(1, seats + 1)}
    state = preflop(stacks, button=seats, sb=1, bb=2, level=level, variant=variant)
    for n in range(3, seats + 1):
        state, _ = act(state, (n, "call"))
    state, _ = act(state, (1, "call"), (2, "check"))
    return state


def test_R20C_high_and_low_split_the_pot_two_hole_cards_and_three_board() -> None:
    """Seat 1 has the nut low (A-3 with 2-5-7); seat 2 kings set for high; seat 3 only a
    board low (three low board cards and no two low hole cards of his own: no low)."""
    state = limped(Variant.PLO8)
    holes = {1: ("As", "3d", "Jc", "Jd"), 2: ("Kc", "Kd", "9s", "9h"), 3: ("4h", "Tc", "Th", "Js")}
    state, messages = to_showdown(state, holes)
    assert won(state) == {2: 150, 1: 150}
    halves = {(a.seat, a.half) for a in state.awards}
    assert halves == {(2, "high"), (1, "low")}
    assert any("7-5-3-2-A low" in a.hand_name for a in state.awards)
    assert any("TDA2024-20C" in m and "low half" in m for m in messages)


def test_R20C_odd_chip_of_the_total_pot_goes_to_the_high_side() -> None:
    """Pot of 75 chips of 25 is three units: two to the high half, one to the low half."""
    level = Level(small_blind=25, big_blind=25, chip_unit=25)
    state = limped(Variant.PLO8, level)
    holes = {1: ("As", "3d", "Jc", "Jd"), 2: ("Kc", "Kd", "9s", "9h"), 3: ("Th", "Tc", "8s", "8h")}
    state, _ = to_showdown(state, holes)
    assert won(state) == {2: 50, 1: 25}


def test_R20C_no_qualifying_low_the_high_hand_scoops() -> None:
    """Board K-Q-9 with two low cards: no five different ranks eight or lower for anyone."""
    state = limped(Variant.FLO8)
    holes = {1: ("As", "3d", "Jc", "Jd"), 2: ("Kc", "Kd", "9s", "9h"), 3: ("4h", "Tc", "Th", "3s")}
    state, messages = to_showdown(state, holes, ("2c", "5d", "Ks", "Qd", "9c"))
    assert won(state) == {2: 300}
    assert [a.half for a in state.awards] == ["high"]
    assert any("no qualifying low" in m for m in messages)


def test_R20C_one_hand_wins_both_halves_and_scoops() -> None:
    """Seat 1: kings with the board king (trips) for high, A-3 with 2-5-7 for low."""
    state = limped(Variant.PLO8)
    holes = {1: ("As", "3d", "Kc", "Kh"), 2: ("Jc", "Jd", "9s", "9h"), 3: ("Th", "Tc", "8s", "8h")}
    state, _ = to_showdown(state, holes)
    assert {(a.seat, a.half, a.amount) for a in state.awards} == {(1, "high", 150), (1, "low", 150)}
    assert won(state) == {1: 300}


def test_R20C_quartered_pot_tied_lows_split_the_low_half_R20A() -> None:
    """Seats 1 and 3 hold the same low (A-3): the low half is split between them, seat 2
    takes the high half: 300 -> 150 high, 75 + 75 low (each is quartered)."""
    state = limped(Variant.PLO8)
    holes = {1: ("As", "3d", "Jc", "Jd"), 2: ("Kc", "Kd", "9s", "9h"), 3: ("Ah", "3c", "Tc", "Th")}
    state, messages = to_showdown(state, holes)
    assert won(state) == {2: 150, 1: 75, 3: 75}
    assert any("TDA2024-20A" in m for m in messages)


def test_R20A_odd_chip_of_a_split_half_goes_clockwise_from_the_button() -> None:
    """Pot 5 units of 25 (125): high 75 to seat 2; low 50 split 25/25. With 7 units: high
    100 (4 units), low 75 split between seats 3 and 1 clockwise from button 3: seat 1 first."""
    level = Level(small_blind=25, big_blind=25, chip_unit=25)
    state = preflop(
        {1: 1000, 2: 1000, 3: 1000}, button=3, sb=1, bb=2, level=level, variant=Variant.PLO8
    )
    state, _ = act(state, (3, "raise", 50), (1, "call"), (2, "call"))  # 150
    holes = {1: ("As", "3d", "Jc", "Jd"), 2: ("Kc", "Kd", "9s", "9h"), 3: ("Ah", "3c", "Tc", "Th")}
    state, _ = to_showdown(state, holes)
    # 150 = 6 units: high 3 units (75), low 3 units split 2 (seat 1, first left of
    # the button) and 1 (seat 3).
    assert won(state) == {2: 75, 1: 50, 3: 25}


def test_R21_each_side_pot_is_split_hi_lo_on_its_own_contenders() -> None:
    """Seat 1 is all in for 100 with the only low. Main pot 300: high seat 2, low seat 1.
    Side pot (seats 2 and 3, 400 more): nobody in it has a low, so its high hand takes it
    all, although seat 1's low plays in the main pot (the rule text, not PokerKit)."""
    state = preflop(
        {1: 100, 2: 1000, 3: 1000},
        button=3,
        sb=1,
        bb=2,
        level=Level(small_blind=50, big_blind=100),
        variant=Variant.PLO8,
    )
    state, _ = act(state, (3, "raise", 300), (1, "all_in"), (2, "call"))
    holes = {1: ("As", "3d", "Jc", "Jd"), 2: ("Kc", "Kd", "9s", "9h"), 3: ("Th", "Tc", "8s", "8h")}
    state, messages = to_showdown(state, holes)
    assert [(p.amount, p.eligible) for p in state.pots] == [(300, (1, 2, 3)), (400, (2, 3))]
    by_pot = {(a.pot_index, a.seat, a.half): a.amount for a in state.awards}
    assert by_pot == {(0, 2, "high"): 150, (0, 1, "low"): 150, (1, 2, "high"): 400}
    assert any("side pot 1" in m and "TDA2024-21" in m for m in messages)


def test_R20C_identical_hands_both_halves_split_evenly_under_NZ_add_20F() -> None:
    """NZ Add. 20-F's own example: 66 chips, two identical hands win both halves: 33/33.
    TDA 2024 deleted R20-D: halves split on their own, 34/32."""
    level = Level(small_blind=11, big_blind=22)
    holes = {1: ("As", "3d", "4c", "Jd"), 2: ("Ah", "3c", "4d", "Js"), 3: ("Kc", "Kd", "9s", "9h")}
    board = ("2c", "5d", "6h", "Ks", "Qd")
    nz = replace(TDA_2024, odd_chip_identical_split_evenly=True)
    results = {}
    for name, rules in (("tda", TDA_2024), ("nz", nz)):
        state, _ = to_showdown(limped(Variant.PLO8, level), holes, board, rules)
        results[name] = won(state)
    # Seats 1 and 2 each: 3-4 with 2-5-6 a straight (high), A-3 with 2-5-6 (6-5-3-2-A low).
    assert results["nz"][1] == results["nz"][2] == 33
    assert results["tda"] == {1: 34, 2: 32}


def test_fixed_limit_omaha_hi_lo_bets_one_small_bet_on_the_flop() -> None:
    """FO/8 is fixed limit: a bet on the flop is the small bet, a raise one more (not pot)."""
    state = limped(Variant.FLO8, Level(small_blind=50, big_blind=100))
    for seat, cards in {
        1: ("As", "3d", "Jc", "Jd"),
        2: ("Kc", "Kd", "9s", "9h"),
        3: ("Th", "Tc", "8s", "8h"),
    }.items():
        state = play(state, DealHole(seat, cards))
    state = play(state, DealBoard(LOW_BOARD[:3]))
    opts = options(state)
    assert (opts.min_to, opts.max_to) == (100, 100)
    _, refused = try_act(state, state.action_on or 0, "bet", 300)
    assert any(r.kind.name == "REJECTED" for r in refused)
