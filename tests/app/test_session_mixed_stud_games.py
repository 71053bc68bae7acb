"""Mixed games with more than one stud game at the live table (issue #30): stud to stud the
button stays frozen (R11-B; RP-18: the stud games in any order), and the flop game after
them starts where it was frozen."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pokertable.controller.engine.model import Level, Phase, Variant
from tests.app.stud_table import StudTable

THIRD = {1: ("As", "Ad", "2c"), 2: ("Ks", "Kd", "9h"), 3: ("Qs", "Qd", "Th"),
         4: ("Js", "Jd", "8h")}
STUD_LEVEL: dict[str, Any] = {"small_blind": 0, "big_blind": 100, "ante": 10,
                              "ante_format": "per_player", "bring_in": 25}


def flop_table(players: int = 4) -> StudTable:
    """Players dealing limit hold'em first; the clock switches the game later."""
    table = StudTable({seat: 5000 for seat in range(1, players + 1)})
    config = replace(table.session.config, variant=Variant.FLHE)
    table.session = replace(table.session, config=config,
                            level=Level(small_blind=50, big_blind=100))
    return table


def play_stud_hand(table: StudTable) -> None:
    """Third street dealt, the bring-in from chips, everyone else folds."""
    table.press("hand_start")
    table.third(THIRD)
    bring_in = table.hand.action_on
    assert bring_in is not None and bring_in == table.hand.bring_in_seat
    table.push(bring_in, 25)
    while table.hand.phase is not Phase.COMPLETE:
        table.press("fold")


def level(table: StudTable, number: int, game: str, **limits: Any) -> None:
    table.command("level", source="clock", level={"number": number, "game": game, **limits})
    assert table.replies()[-1]["ok"], table.replies()[-1]


def test_TDA24_11B_stud_to_razz_button_stays_frozen_then_holdem_resumes_there() -> None:
    table = flop_table()
    table.press("hand_start")
    first = table.hand
    assert (first.variant, first.button, first.big_blind_seat) == (Variant.FLHE, 4, 2)
    while table.hand.phase is not Phase.COMPLETE:
        table.press("fold")
    level(table, 2, "F7S", **STUD_LEVEL)
    play_stud_hand(table)
    stud = table.hand
    assert stud.variant is Variant.STUD and stud.button == 1
    level(table, 3, "FR", **STUD_LEVEL)
    play_stud_hand(table)  # a stud game after another: no KeyError, the button stays
    razz = table.hand
    assert razz.variant is Variant.RAZZ and razz.button == 1
    [change] = [t for t in table.texts("TDA2024-11B") if "from F7S to FR" in t]
    assert "stays frozen" in change
    level(table, 4, "FT", small_blind=50, big_blind=100, ante=0, ante_format="none")
    table.press("hand_start")
    back = table.hand
    assert back.variant is Variant.FLHE and back.button == 1  # where it was frozen
    [resume] = [t for t in table.texts("TDA2024-11B") if "from FR to FT" in t]
    assert "starts where it was frozen" in resume
