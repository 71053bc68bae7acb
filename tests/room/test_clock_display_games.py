"""The clock display and the floor console's room bar name the game of the level (issue #30):
a stud level with its limits, ante and bring-in; a level of a rotation by orbit with its
games. Real mosquitto with the shipped ACL, the real clock process, Debian's Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.floor_service import console
from tests.room.conftest import ARTIFACTS, clock_and_display, signed_in

STRUCTURE = """
[[step]]
game = "FR"
small_blind = 100
big_blind = 200
ante = 25
ante_format = "per_player"
bring_in = 50
minutes = 20
[[step]]
game = "F7S/8"
small_blind = 100
big_blind = 200
ante = 25
ante_format = "per_player"
bring_in = 50
minutes = 20
"""
ORBIT = """
[mix]
games = "horse"
rotation = "orbit"

[[step]]
small_blind = 100
big_blind = 200
stud_ante = 25
bring_in = 50
minutes = 20
"""


@pytest.mark.needs("mosquitto", "chromium")
@pytest.mark.parametrize(
    ("structure", "shown", "next_shown", "bar"),
    [
        (STRUCTURE, "Razz \u00b7 limits 200/400 \u00b7 ante 25 \u00b7 bring-in 50",
         "Next: Stud hi-lo \u00b7 limits 200/400 \u00b7 ante 25 \u00b7 bring-in 50",
         "Level 1 Razz limits 200/400 \u00b7 ante 25 \u00b7 bring-in 50"),
        (ORBIT, "HORSE by orbit \u00b7 limits 200/400 \u00b7 stud ante 25 \u00b7 bring-in 50",
         "", "Level 1 HORSE by orbit limits 200/400 \u00b7 stud ante 25 \u00b7 bring-in 50"),
    ],
    ids=["stud-levels", "horse-by-orbit"],
)
def test_the_clock_display_names_the_game_of_the_level(
    broker: MosquittoProcess, browser: Any, structure: str, shown: str, next_shown: str,
    bar: str,
) -> None:
    with clock_and_display(broker, structure) as url:
        floor = console("club", f"ws://127.0.0.1:{broker.ws_port}")
        floor.start()
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(url)
            page.wait_for_function(
                "(shown) => document.getElementById('blinds').textContent === shown", arg=shown,
                timeout=60_000)
            assert page.inner_text("#next") == next_shown
            name = "orbit" if structure is ORBIT else "stud"
            page.screenshot(path=str(ARTIFACTS / f"clock-display-{name}.png"))
            desk = signed_in(browser, floor.url, "director", tables=())
            desk.wait_for_function(
                "(bar) => document.getElementById('room-clock').textContent.startsWith(bar)",
                arg=bar, timeout=60_000)
        finally:
            floor.stop()
