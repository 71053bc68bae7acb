"""A mix by orbit from the clock to a real table (issue #30): the clock's level carries the
rotation, the table publishes the orbit and the next game, the big display names the mix
instead of one game (the tables change game within the level) and the floor console's
table card shows the game dealt, the orbit and the next game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pokertable.bench.table_rig import TableRig
from pokertable.room.floor_service import console
from tests.room.conftest import Players, clock_and_display, signed_in

ORBIT_MIX = """
[mix]
games = ["FT", "F7S"]
rotation = "orbit"

[[step]]
small_blind = 50
big_blind = 100
bring_in = 25
stud_ante = 10
minutes = 20
"""


@pytest.mark.needs("mosquitto")
def test_the_clock_tells_a_real_table_its_orbit_mix_and_the_display_names_it_R11B(
    table: Callable[[Players, int], TableRig], browser: Any
) -> None:
    rig = table([(1, "Ann", 5000), (2, "Bob", 5000)], 2)
    with clock_and_display(rig.broker, ORBIT_MIX) as url:
        state = rig.overlay.wait_state(lambda s: s.get("orbit") is not None, "the orbit")
        assert state["orbit"] == {"games": ["FT", "F7S"], "game": "FT", "dealers_choice": False,
                                  "hands_played": 0, "hands": None}
        assert state["next_game"] == "FT" and state["game"] == "FT"
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url)
        page.wait_for_function(
            "() => document.getElementById('blinds').textContent"
            " === 'Limit hold\\'em \\u2192 Stud by orbit \\u00b7 limits 100/200"
            " \\u00b7 stud ante 10 \\u00b7 bring-in 25'",
            timeout=60_000,
        )
        floor = console("club", f"ws://127.0.0.1:{rig.broker.ws_port}")
        floor.start()
        try:  # the floor console's table card: the game, the orbit, the next game
            page = signed_in(browser, floor.url, "director")
            page.wait_for_function(
                "() => (document.querySelector(\".table[data-table='t9'] .level\") || {})"
                ".textContent === 'level 1: FT (orbit 0/?, next FT) 50/100'",
                timeout=60_000,
            )
        finally:
            floor.stop()
