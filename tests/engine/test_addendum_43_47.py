"""TDA 2024 Addendum cases for Rule 43 (minimum raise) and Rule 47 (re-opening), by case id.

Each test name carries the case id from shared/spec/addendum-cases.md.
"""

from __future__ import annotations

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Level, SeatStatus, Street
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation import (
    ChipMotion,
    Declaration,
    DeclKind,
    InterpretedHand,
    Precedence,
)
from pokertable.controller.rules import TDA_2024
from tests.engine.helpers import act, options, preflop, street_state, try_act

DEEP = 20_000


def test_TDA24_43_EX1_min_raise_is_largest_prior_increment() -> None:
    state = street_state({1: DEEP, 2: DEEP, 3: DEEP, 4: DEEP}, button=4)
    state, _ = act(state, (1, "bet", 600))
    assert (state.call_to, state.increment) == (600, 600)
    state, _ = act(state, (2, "raise", 1600))
    assert state.increment == 1000
    state, rulings = act(state, (3, "raise", 3600))
    assert (state.call_to, state.increment) == (3600, 2000)
    assert rulings[-1].rule_ids == ("TDA2024-43A",)
    opts = options(state)
    assert opts.seat == 4 and opts.to_call == 3600 and opts.min_to == 5600  # not 7,200
    # DERIVED negative: a raise to 5,000 is below the minimum and is refused with the rule.
    same, rulings = try_act(state, 4, "raise", 5000)
    assert same is state
    assert rulings[0].kind is RulingKind.REJECTED
    assert rulings[0].code == "below_minimum" and rulings[0].rule_ids == ("TDA2024-43A",)


def test_TDA24_43_EX2_short_all_in_does_not_raise_the_min_raise() -> None:
    # Seats: 1 SB, 2 BB, 3 = A (UTG, exactly 150), 4 = B, 5 button.
    state = preflop(
        {1: 10_000, 2: 10_000, 3: 150, 4: 10_000, 5: 10_000},
        button=5,
        sb=1,
        bb=2,
        level=Level(small_blind=50, big_blind=100),
    )
    assert state.action_on == 3
    state, rulings = act(state, (3, "all_in"))
    assert state.seat(3).status is SeatStatus.ALL_IN
    assert (state.call_to, state.increment) == (150, 100)
    assert "TDA2024-47A" in rulings[0].rule_ids  # short: does not re-open / change the minimum
    opts = options(state)
    assert opts.seat == 4 and opts.to_call == 150 and opts.min_to == 250


def test_TDA24_43_EX3_two_500s_over_a_300_bet_is_a_raise_to_1000() -> None:
    # The case is two 500 chips, not a declared raise: the chips are read (R45-B, the 50%
    # standard) and the engine state that results is what the next player faces.
    hand = InterpretedHand.of(
        street_state({1: DEEP, 2: DEEP, 3: DEEP}, button=3, street=Street.TURN), TDA_2024
    )
    hand, _ = hand.step(Declaration(1, DeclKind.BET, 300, Precedence.VERBAL_FIRST))
    hand, outcome = hand.step(ChipMotion.of(2, 500, 500))
    ruled = outcome.interpretation
    assert ruled is not None and ruled.floor is None
    assert (ruled.action, ruled.total, ruled.returned) == (ActionKind.RAISE, 1000, 0)
    assert "TDA2024-45B1" in ruled.rule_ids
    state = hand.state
    assert (state.seat(2).bet, state.call_to, state.increment) == (1000, 1000, 700)
    opts = options(state)
    assert opts.seat == 3 and opts.to_call == 1000 and opts.min_to == 1700


def _four_before_blinds() -> dict[int, int]:
    # Seats 1 SB, 2 BB, 3..6 = A, B, C, D, button = 6 (D); 25-50.
    return {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000, 5: 10_000, 6: 10_000}


def test_TDA24_43_EX4A_largest_increment_after_several_raises() -> None:
    state = preflop(
        _four_before_blinds(), button=6, sb=1, bb=2, level=Level(small_blind=25, big_blind=50)
    )
    state, _ = act(state, (3, "raise", 125))
    assert state.increment == 75
    state, _ = act(state, (4, "raise", 200))
    assert state.increment == 75
    state, _ = act(state, (5, "raise", 500))
    assert state.increment == 300
    opts = options(state)
    assert opts.seat == 6 and opts.to_call == 500 and opts.min_to == 800


def test_TDA24_43_EX4B_one_large_raise_two_calls() -> None:
    state = preflop(
        _four_before_blinds(), button=6, sb=1, bb=2, level=Level(small_blind=25, big_blind=50)
    )
    state, _ = act(state, (3, "raise", 500), (4, "call"), (5, "call"))
    assert state.increment == 450
    opts = options(state)
    assert opts.seat == 6 and opts.to_call == 500 and opts.min_to == 950


def _ex1_flop():
    # A..E = seats 1..5, button 5; B has exactly 125, D exactly 200; 50-100.
    state = street_state({1: 5000, 2: 125, 3: 5000, 4: 200, 5: 5000}, button=5)
    state, _ = act(state, (1, "bet", 100), (2, "all_in"), (3, "call"), (4, "all_in"), (5, "call"))
    return state


def test_TDA24_47_EX1_cumulative_short_all_ins_reopen_the_betting() -> None:
    state = _ex1_flop()
    assert (state.call_to, state.increment) == (200, 100)
    opts = options(state)
    assert opts.seat == 1 and opts.reopened and opts.can_raise
    assert opts.to_call == 100 and opts.min_to == 300


def test_TDA24_47_EX1A_smooth_call_does_not_reopen_for_C() -> None:
    state, _ = act(_ex1_flop(), (1, "call"))
    opts = options(state)
    assert opts.seat == 3 and not opts.reopened and not opts.can_raise and opts.to_call == 75
    same, rulings = try_act(state, 3, "raise", 400)
    assert same is state and rulings[0].code == "not_reopened"
    assert rulings[0].rule_ids == ("TDA2024-47A",)
    state, _ = act(state, (3, "call"))
    assert state.street is Street.FLOP and state.action_on is None  # round over: E matched


def test_TDA24_47_EX1B_min_raise_reopens_for_C_and_E() -> None:
    state, _ = act(_ex1_flop(), (1, "raise", 300))
    assert state.increment == 100
    opts = options(state)
    assert opts.seat == 3 and opts.reopened and opts.to_call == 175 and opts.min_to == 400
    state, _ = act(state, (3, "call"))
    opts = options(state)
    assert opts.seat == 5 and opts.reopened and opts.to_call == 100  # DERIVED


def test_TDA24_47_EX2_min_raise_after_several_short_all_ins() -> None:
    state = street_state({1: 10_000, 2: 500, 3: 650, 4: 800, 5: 10_000, 6: 10_000}, button=6)
    state, _ = act(state, (1, "bet", 300), (2, "all_in"), (3, "all_in"), (4, "all_in"), (5, "call"))
    assert (state.call_to, state.increment) == (800, 300)
    opts = options(state)
    assert opts.seat == 6 and opts.to_call == 800 and opts.min_to == 1100
    state, _ = act(state, (6, "call"))
    opts = options(state)  # DERIVED: back to A, faced 500 >= 300
    assert opts.seat == 1 and opts.reopened and opts.min_to == 1100


def _ex3_to_big_blind():
    # 6-handed 2,000-4,000: seats 1 A (UTG), 2 B, 3 C (7,500), 4 D (button), 5 SB, 6 BB.
    stacks = {1: 100_000, 2: 100_000, 3: 7_500, 4: 100_000, 5: 100_000, 6: 100_000}
    state = preflop(stacks, button=4, sb=5, bb=6, level=Level(small_blind=2000, big_blind=4000))
    assert state.action_on == 1
    state, _ = act(state, (1, "call"), (2, "fold"), (3, "all_in"), (4, "fold"), (5, "fold"))
    return state


def test_TDA24_47_EX3A_bb_keeps_option_limper_not_reopened() -> None:
    state = _ex3_to_big_blind()
    assert (state.call_to, state.increment) == (7500, 4000)
    opts = options(state)
    assert opts.seat == 6 and opts.reopened and opts.to_call == 3500 and opts.min_to == 11_500
    state, _ = act(state, (6, "call"))
    opts = options(state)
    assert opts.seat == 1 and not opts.reopened and opts.to_call == 3500
    same, rulings = try_act(state, 1, "raise", 15_500)
    assert same is state and rulings[0].code == "not_reopened"


def test_TDA24_47_EX3B_bb_min_raise_reopens_limper() -> None:
    state, _ = act(_ex3_to_big_blind(), (6, "raise", 11_500))
    opts = options(state)
    assert opts.seat == 1 and opts.reopened and opts.to_call == 7500 and opts.min_to == 15_500
