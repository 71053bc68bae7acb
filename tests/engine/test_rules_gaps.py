"""Engine-level cases of issue 17: board repairs (R39), short bets let stand (R52-A), NZ R48
citations, the R48 cap and players left, ACE R17-B, R62 after the hand."""

from __future__ import annotations

import doctest
from dataclasses import replace
from pathlib import Path

import pytest

from pokertable.controller.engine import disputes, repairs, step
from pokertable.controller.engine import found_chips as chips_found
from pokertable.controller.engine.betting import cap_applies
from pokertable.controller.engine.events import (
    ActionKind,
    DealBoard,
    DealHole,
    PlayerAction,
    RepairReason,
    ReplaceBoard,
)
from pokertable.controller.engine.model import HandState, Phase, Street, Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.history.phh import PhhError, load_hands
from pokertable.controller.history.replay import replay_hand
from pokertable.controller.rules.profiles import load_profile
from pokertable.controller.table import color_up, player_clock
from pokertable.controller.table import floor as floor_inputs
from tests.engine.helpers import preflop, street_state

NZ = load_profile("clubs-nz-2022")
T24 = load_profile("tda-2024")


def _flop() -> HandState:
    state = preflop({1: 1000, 2: 1000, 3: 1000}, button=3, sb=1, bb=2)
    state, _ = step(state, DealHole(1, ("As", "Ad")))
    for action in (PlayerAction(3, ActionKind.CALL), PlayerAction(1, ActionKind.CALL),
                   PlayerAction(2, ActionKind.CHECK)):
        state, _ = step(state, action)
    state, _ = step(state, DealBoard(("9h", "8d", "7c")))
    assert state.street is Street.FLOP and state.phase is Phase.BETTING
    return state


def test_TDA24_39A_replace_board_records_the_repair_and_cites_the_rule() -> None:
    state, rulings = step(_flop(), ReplaceBoard(Street.FLOP, ("Th", "9h", "7c"),
                                                RepairReason.FOUR_CARD_FLOP))
    assert state.board == ("Th", "9h", "7c")
    assert state.board_repairs[0].replaced == ("9h", "8d", "7c")
    assert (rulings[0].kind, rulings[0].rule_ids, rulings[0].code) == (
        RulingKind.CORRECTED, ("TDA2024-39A",), "board_replaced")


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (ReplaceBoard(Street.TURN, ("Th",), RepairReason.FLOP_NO_BURN), "repair_wrong_street"),
        (ReplaceBoard(Street.FLOP, ("Th", "9h"), RepairReason.FLOP_NO_BURN), "repair_card_count"),
        (ReplaceBoard(Street.FLOP, ("As", "9h", "7c"), RepairReason.FLOP_NO_BURN),
         "duplicate_card"),
        (ReplaceBoard(Street.FLOP, ("Xx", "9h", "7c"), RepairReason.FLOP_NO_BURN), "unknown_card"),
    ],
)
def test_TDA24_39_repair_that_cannot_be_made_is_refused_without_change(
    event: ReplaceBoard, code: str
) -> None:
    before = _flop()
    after, rulings = step(before, event)
    assert after is before and rulings[0].kind is RulingKind.REJECTED and rulings[0].code == code


def test_TDA24_39B_no_repair_once_anyone_acted_on_the_street() -> None:
    state, _ = step(_flop(), PlayerAction(1, ActionKind.CHECK))
    after, rulings = step(state, ReplaceBoard(Street.FLOP, ("Th", "9h", "7c"),
                                              RepairReason.FLOP_NO_BURN))
    assert after is state and rulings[0].code == "repair_after_action"
    assert rulings[0].rule_ids == ("TDA2024-39B",)


PHH = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 1000, 1000]
actions = ["d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 QsQd", "p3 cc", "p1 cc", "p2 cc",
  "d db 9h8d7c", "{repair}", "p1 cc", "p2 cc", "p3 cc", "d db 2c", "p1 cc", "p2 cc", "p3 cc",
  "d db 3c", "p1 cc", "p2 cc", "p3 cc"]
"""


def test_TDA24_39A_replay_of_a_history_with_a_board_repair(tmp_path: Path) -> None:
    path = tmp_path / "repair.phh"
    path.write_text(PHH.format(repair="d rb flop Th9h7c four_card_flop"))
    result = replay_hand(next(load_hands(path)))
    assert result.state.board == ("Th", "9h", "7c", "2c", "3c")
    assert result.state.board_repairs[0].rule_id == "TDA2024-39A"
    assert "board_replaced" in [r.code for r in result.rulings]


def test_TDA24_39_replay_names_a_bad_repair_reason(tmp_path: Path) -> None:
    path = tmp_path / "repair.phh"
    path.write_text(PHH.format(repair="d rb flop Th9h7c because"))
    with pytest.raises(PhhError, match="repair reason 'because'"):
        replay_hand(next(load_hands(path)))


def test_NZ22_48_engine_rejection_cites_min_reraise_and_the_NZ_rule() -> None:
    state = street_state({1: 20000, 2: 20000, 3: 20000}, button=3, big_blind=200)
    for action in (PlayerAction(1, ActionKind.BET, 200), PlayerAction(2, ActionKind.RAISE, 600)):
        state, _ = step(state, action, NZ)
    same, rulings = step(state, PlayerAction(3, ActionKind.RAISE, 1000), NZ)
    assert same is state and rulings[0].rule_ids == ("NZ2022-48",)
    assert "min_reraise=double_previous_bet" in rulings[0].text
    _, rulings = step(state, PlayerAction(3, ActionKind.RAISE, 900), T24)
    assert rulings[0].rule_ids == ("TDA2024-43A",) and "increment 400" in rulings[0].text


def test_TDA24_52A_engine_accepts_a_short_bet_only_when_the_dealer_let_it_stand() -> None:
    state = street_state({1: 20000, 2: 20000}, button=2, big_blind=200)
    same, rulings = step(state, PlayerAction(1, ActionKind.BET, 100))
    assert same is state and rulings[0].code == "below_minimum"
    state, rulings = step(state, PlayerAction(1, ActionKind.BET, 100, short_stands=True))
    assert (state.call_to, state.increment) == (100, 200)  # not a full bet: min raise stays
    assert rulings[0].kind is RulingKind.BINDING and rulings[0].rule_ids[0] == "TDA2024-52A"


def test_TDA24_48_cap_applies_heads_up_until_the_event_is_down_to_two() -> None:
    state = preflop({1: 5000, 2: 5000}, button=2, sb=2, bb=1, variant=Variant.FLHE)
    assert cap_applies(state, T24)  # players left unknown: not down to two
    assert cap_applies(replace(state, event_players_left=3), T24)
    assert not cap_applies(replace(state, event_players_left=2), T24)
    house = replace(T24, limit_cap_heads_up=False)
    assert not cap_applies(state, house)  # a house rule lifting the cap whenever heads-up
    three = preflop({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, variant=Variant.FLHE)
    assert cap_applies(replace(three, event_players_left=2), T24)


@pytest.mark.parametrize(
    "module", [repairs, chips_found, floor_inputs, disputes, player_clock, color_up]
)
def test_module_examples_run(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0
