"""Betting rounds: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to controller/engine/betting.py got past the engine
tests (docs/testing.md, "Mutation testing"). They act through the engine's ``step``, as
the table does.
"""

from __future__ import annotations

from dataclasses import replace

from pokertable.controller.engine import step
from pokertable.controller.engine.events import ActionKind, DealBoard, PlayerAction
from pokertable.controller.engine.model import Level, Phase, Street, Variant
from pokertable.controller.rules import TDA_2024, ReopenRule
from pokertable.controller.rules.profiles import load_profile
from tests.engine.helpers import act, options, preflop, street_state, try_act

NZ = load_profile("clubs-nz-2022")


def test_NZ22_48_facing_a_bet_the_minimum_is_the_increment_not_double() -> None:
    # Facing a first bet of 200 the bet and the increment are the same: the minimum raise
    # is 400 by either rule, and the refusal names the increment, not NZ's "double" clause.
    state = street_state({1: 20000, 2: 20000, 3: 20000}, button=3, big_blind=200)
    state, _ = step(state, PlayerAction(1, ActionKind.BET, 200), NZ)
    same, rulings = step(state, PlayerAction(2, ActionKind.RAISE, 300), NZ)
    assert same is state
    assert "last full increment 200" in rulings[0].text
    assert "double" not in rulings[0].text
    assert rulings[0].rule_ids == ("NZ2022-43A",) and rulings[0].code == "below_minimum"


def test_TDA24_54_pot_limit_small_blind_counts_only_its_own_call() -> None:
    # PLO 100/200, the button calls 200; the small blind (100 in) may raise to
    # 200 + (pot 500 + his call of 100) = 800.
    state = preflop(
        {1: 10_000, 2: 10_000, 3: 10_000},
        button=3,
        sb=1,
        bb=2,
        level=Level(small_blind=100, big_blind=200),
        variant=Variant.PLO,
    )
    state, _ = act(state, (3, "call"))
    opts = options(state)
    assert (opts.seat, opts.to_call, opts.max_to) == (1, 100, 800)
    same, rulings = try_act(state, 1, "raise", 900)
    assert same is state and rulings[0].code == "above_maximum"
    state, _ = act(state, (1, "raise", 800))
    assert state.call_to == 800


def test_fixed_limit_turn_and_river_bets_are_the_big_bet() -> None:
    for street in (Street.TURN, Street.RIVER):
        state = street_state({1: 5000, 2: 5000}, button=2, street=street, variant=Variant.FLHE)
        opts = options(state)
        assert (opts.min_to, opts.max_to) == (200, 200)
        state, _ = act(state, (1, "bet", 200))
        assert options(state).max_to == 400  # a raise is one more big bet
    flop = street_state({1: 5000, 2: 5000}, button=2, street=Street.FLOP, variant=Variant.FLHE)
    assert options(flop).max_to == 100


def test_nobody_left_to_answer_a_raise_only_call_or_fold() -> None:
    # Seat 1 moves all in; seat 2, the last with chips, may call or fold but not raise.
    state = street_state({1: 500, 2: 5000}, button=2, pot=200)
    state, _ = act(state, (1, "all_in"))
    opts = options(state)
    assert opts.seat == 2 and opts.to_call == 500 and not opts.can_raise
    same, rulings = try_act(state, 2, "raise", 2000)
    assert same is state and rulings[0].code == "cannot_raise"
    state, _ = act(state, (2, "call"))
    assert state.seat(2).stack == 4500


def test_TDA24_47_a_one_chip_full_raise_reopens_when_the_big_blind_is_one_chip() -> None:
    # Big blind 1: seat 1 bets 1, seat 2 calls, seat 3 raises to 2, a full raise of one chip.
    # Seat 1, who already acted, faces one chip and may raise again.
    state = street_state({1: 50, 2: 50, 3: 50}, button=3, big_blind=1)
    state, _ = act(state, (1, "bet", 1), (2, "call"), (3, "raise", 2))
    opts = options(state)
    assert opts.seat == 1 and opts.to_call == 1 and opts.reopened and opts.can_raise
    state, _ = act(state, (1, "raise", 3))
    assert state.call_to == 3


def test_TDA24_54B_the_assumed_dead_blind_counts_preflop_only() -> None:
    # EX1's dead small blind is counted as posted for the pre-flop pot limit only: on the
    # flop the pot is the 800 really in it.
    state = preflop(
        {2: 10_000, 3: 10_000, 4: 10_000, 5: 10_000},
        button=5,
        sb=None,
        bb=2,
        level=Level(small_blind=100, big_blind=200),
        variant=Variant.PLO,
    )
    state, _ = act(state, (3, "call"), (4, "call"), (5, "call"), (2, "check"))
    state, _ = step(state, DealBoard(("2c", "7d", "9s")))
    assert state.street is Street.FLOP and state.pot_total == 800
    opts = options(state)
    assert (opts.seat, opts.max_to) == (2, 800)


def test_TDA24_47B_fixed_limit_all_in_below_half_a_bet_does_not_reopen() -> None:
    # Seat 1 bets 100, seat 2 is all in for 140 (40 more: under half a bet), seat 3 calls:
    # seat 1 may only call the 40 (R47-B).
    state = street_state({1: 5000, 2: 140, 3: 5000}, button=3, big_blind=100, variant=Variant.FLHE)
    state, _ = act(state, (1, "bet", 100), (2, "all_in"), (3, "call"))
    opts = options(state)
    assert opts.seat == 1 and opts.to_call == 40 and not opts.reopened and not opts.can_raise
    same, rulings = try_act(state, 1, "raise", 240)
    assert same is state and rulings[0].kind.value == "rejected"


def test_a_stack_that_only_covers_the_call_cannot_raise() -> None:
    state = street_state({1: 5000, 2: 600, 3: 5000}, button=3)
    state, _ = act(state, (1, "bet", 600))
    opts = options(state)
    assert opts.seat == 2 and opts.to_call == 600 and opts.all_in_to == 600
    assert not opts.can_raise
    same, rulings = try_act(state, 2, "raise", 1200)
    assert same is state and rulings[0].code == "cannot_raise"


def test_single_only_reopen_a_caller_of_a_short_all_in_is_not_reopened_by_another() -> None:
    # House rule "single_only": only a full raise after his action re-opens. Seat 3 called
    # a short all-in to 150; another short all-in to 180 leaves him call or fold only.
    single = replace(TDA_2024, reopen=ReopenRule.SINGLE_ONLY)
    state = street_state({1: 5000, 2: 150, 3: 5000, 4: 180}, button=4)
    state, _ = act(state, (1, "bet", 100), (2, "all_in"), (3, "call"), (4, "all_in"), rules=single)
    state, _ = act(state, (1, "call"), rules=single)
    opts = options(state, single)
    assert opts.seat == 3 and opts.to_call == 30 and not opts.reopened and not opts.can_raise


def test_the_action_record_says_which_actions_put_the_player_all_in() -> None:
    # The hand history (PHH export, overlay) reads ``all_in`` off each recorded action.
    state = street_state({1: 500, 2: 5000, 3: 800}, button=3, pot=200)
    state, _ = act(state, (1, "bet", 300), (2, "call"), (3, "all_in"))
    assert [(a.seat, a.kind, a.to, a.all_in) for a in state.actions] == [
        (1, "bet", 300, False),
        (2, "call", 300, False),
        (3, "raise", 800, True),  # an all-in for a full raise is recorded as the raise
    ]


def test_options_can_check_agrees_with_what_step_accepts() -> None:
    # ``options_for`` answers the table's "can I?" questions; its can_check and to_call
    # are what ``step`` then does with a check.
    state = street_state({1: 5000, 2: 5000, 3: 5000}, button=3, pot=300)
    first = options(state)
    assert (first.seat, first.can_check, first.to_call) == (1, True, 0)
    state, _ = act(state, (1, "check"), (2, "bet", 400))
    facing = options(state)
    assert (facing.seat, facing.can_check, facing.to_call) == (3, False, 400)
    same, rulings = try_act(state, 3, "check")
    assert same is state and rulings[0].code == "check_facing_bet"


def test_no_limit_has_no_raise_cap_multiway() -> None:
    # The R48 cap of four bets a street is fixed limit only: the fifth raise stands in
    # no limit, three-handed (where the cap would apply in fixed limit).
    state = street_state({1: 50_000, 2: 50_000, 3: 50_000}, button=3, pot=300)
    state, _ = act(
        state,
        (1, "bet", 100),
        (2, "raise", 200),
        (3, "raise", 300),
        (1, "raise", 400),
        (2, "raise", 500),
    )
    assert (state.call_to, state.bets_this_street) == (500, 5)


def test_a_big_blind_with_nobody_left_to_bet_against_does_not_act() -> None:
    # Heads-up, the small blind is all in for its 50: the big blind faces no bet and
    # nobody can answer one, so 50 goes back to him and the board is run out (R65-A).
    state = preflop({1: 50, 2: 5000}, button=1, sb=1, bb=2)
    assert (state.phase, state.action_on, state.face_up) == (Phase.DEALING, None, True)
    assert (state.seat(2).bet, state.seat(2).stack) == (50, 4950)
