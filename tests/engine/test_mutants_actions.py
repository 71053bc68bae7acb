"""A player's action (controller/engine/actions.py): outcomes found missing by mutation testing
(issue #20), through the engine's ``step`` as the table acts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pokertable.controller.engine.model import Variant
from pokertable.controller.rules import TDA_2024, ReopenRule
from tests.engine.helpers import act, raise_after_three_short_all_ins, street_state, try_act


def test_TDA24_43B_an_all_in_above_a_big_blind_but_short_of_the_last_raise_is_not_full() -> None:
    # Big blind 100: seat 1 bets 100, seat 2 raises to 600 (a raise of 500); seat 3's all
    # in to 900 raises 300, more than a big blind but short of 500: the minimum stays 500.
    state = street_state({1: 5000, 2: 5000, 3: 900}, button=3, pot=300)
    state, rulings = act(state, (1, "bet", 100), (2, "raise", 600), (3, "all_in"))
    assert rulings[-1].text == (
        "seat 3 is all in for 900: a short raise of 300, the minimum raise stays 500"
    )
    assert (state.increment, state.last_full_to) == (500, 600)


@pytest.mark.parametrize("bb", [100, 1000])  # 1,000: amounts that are not small ints
def test_R48_a_fixed_limit_raise_of_one_bet_is_a_full_raise(bb: int) -> None:
    state = street_state(
        {1: 50 * bb, 2: 50 * bb}, button=2, big_blind=bb, pot=3 * bb, variant=Variant.FLHE
    )
    state, rulings = act(state, (1, "bet", bb), (2, "raise", 2 * bb))
    assert rulings[-1].text == f"seat 2 raises to {2 * bb}"
    assert state.last_full_to == 2 * bb


def test_a_full_raise_that_puts_the_player_all_in_says_so() -> None:
    state = street_state({1: 5000, 2: 1000}, button=2, pot=300)
    state, rulings = act(state, (1, "bet", 200), (2, "all_in"))
    assert rulings[-1].text == "seat 2 raises to 1000 all in"


def test_a_call_with_an_amount_is_a_call_not_a_forfeit() -> None:
    # Only a fold carries a forfeit (R51-B); the amount of a call is the call.
    state = street_state({1: 5000, 2: 5000}, button=2, pot=300)
    state, rulings = act(state, (1, "bet", 1000), (2, "call", 1000))
    assert [r.code for r in rulings][:2] == ["bet", "call"]
    assert (state.seat(2).status.value, state.seat(2).committed) == ("live", 1000)


def test_a_raise_below_the_call_is_not_a_raise() -> None:
    state = street_state({1: 5000, 2: 5000}, button=2, pot=300)
    state, _ = act(state, (1, "bet", 1000))
    same, rulings = try_act(state, 2, "raise", 500)
    assert same is state and rulings[0].code == "not_a_raise"


def test_TDA11_37_short_all_ins_adding_up_to_more_than_a_raise_go_to_the_floor() -> None:
    # Profile "floor_on_cumulative": short all-ins after seat 1's bet of 100 (to 150, 190,
    # 240) leave him facing 140, more than the full raise of 100: the floor decides.
    floor = replace(TDA_2024, reopen=ReopenRule.FLOOR_ON_CUMULATIVE)
    _, rulings = raise_after_three_short_all_ins(floor)
    assert rulings[0].code == "reopen_floor"
