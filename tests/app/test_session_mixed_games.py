"""Mixed games at the live table (issue #30): a clock level names its game, the table deals
it from the next hand (R23), publishes it, and announces the change with the button rule
(R11-B: between flop games the button and blinds move on as for the next hand)."""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import Phase, Variant
from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.payloads import validate
from tests.app.rules_table import RulesTable

LEVEL_2 = {"number": 2, "small_blind": 100, "big_blind": 200, "ante": 0, "ante_format": "none"}


def _state(table: RulesTable) -> dict[str, Any]:
    state = table_state(table.session, table.t)
    validate("state", {**state, "venue": "v", "table": "t1", "session": "s", "seq": 1,
                       "schema_version": 1})
    return state


def _fold_around(table: RulesTable) -> None:
    """Everyone folds to the big blind."""
    while table.hand.phase is not Phase.COMPLETE:
        table.press("fold")


def test_TDA24_11B_level_game_dealt_from_next_hand_button_moves_on_between_flop_games() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, variant=Variant.FLHE)
    table.press("hand_start")
    first = table.hand
    assert first.variant is Variant.FLHE and _state(table)["game"] == "FT"
    table.deal(
        {
            s: ("2c", "3d") if s == 1 else (f"{'456'[s - 2]}c", f"{'456'[s - 2]}d")
            for s in (1, 2, 3, 4)
        }
    )
    reply = table.command("level", source="clock", level={**LEVEL_2, "game": "FO/8"})
    assert table.replies()[-1]["ok"], reply
    assert table.hand.variant is Variant.FLHE  # R23: the hand in progress keeps its game
    assert _state(table)["pending_level"]["game"] == "FO/8"
    _fold_around(table)
    out = table.press("hand_start")
    hand = table.hand
    assert hand.variant is Variant.FLO8 and hand.variant.hole_cards == 4
    assert _state(table)["game"] == "FO/8" and _state(table)["level"]["game"] == "FO/8"
    # The button and the blinds move on one seat, as for any next hand.
    assert (first.button, first.small_blind_seat, first.big_blind_seat) == (4, 1, 2)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (1, 2, 3)
    started = table.events("hand_start")[-1]
    assert started["data"]["game"] == "FO/8"
    change = [r for r in table.rulings(out) if "game changes" in r["text"]]
    assert [r["rule_ids"] for r in change] == [["TDA2024-11B"]]
    assert "from FT to FO/8" in change[0]["text"] and "move on" in change[0]["text"]
    # Four cards a seat are read and the Omaha hi-lo hand goes on.
    table.deal(
        {
            s: tuple(f"{r}{suit}" for suit in "cdhs")
            for s, r in zip((2, 3, 4, 1), "9TJQ", strict=True)
        }
    )
    assert all(len(s.hole) == 4 for s in table.hand.seats)


def test_TDA24_11B_level_with_a_draw_game_is_dealt_from_the_next_hand() -> None:
    """A draw game in the clock's level (an 8-game mix) is dealt like any other: the
    button moves on as for the next hand and five cards a seat are read."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.command("level", source="clock", level={**LEVEL_2, "game": "F2L3D"})
    assert table.replies()[-1]["ok"]
    table.press("hand_start")
    hand = table.hand
    assert hand.variant is Variant.TRIPLE_DRAW_27 and _state(table)["game"] == "F2L3D"
    assert _state(table)["draw"]["draws"] == 3
    table.deal({1: ("2c", "3c", "4c", "5c", "7d"), 2: ("2d", "3d", "4d", "5d", "7h"),
                3: ("2h", "3h", "4h", "5h", "7s")})
    assert all(len(s.hole) == 5 for s in table.hand.seats)
