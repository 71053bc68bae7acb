"""Mixed games on the clock (issue #30): a structure level names its game (a PHH code)
with its blinds and limits; the clock tells the tables and shows it; an unknown game is
a one-line error naming the step and the field, as the table's config does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pokertable.bench.table_rig import TableRig
from pokertable.controller.app.config import ConfigError, parse_config
from pokertable.mqtt.payloads import validate
from pokertable.room.clock import StructureError, TournamentClock, parse_structure
from tests.room.conftest import ARTIFACTS, Players, clock_and_display

HORSE_START = """
[[step]]
game = "FT"
small_blind = 100
big_blind = 200
minutes = 20
[[step]]
game = "FO/8"
small_blind = 100
big_blind = 200
minutes = 20
[[step]]
small_blind = 200
big_blind = 400
minutes = 20
"""


def test_each_level_names_its_game_and_the_clock_tells_the_tables() -> None:
    steps = parse_structure(HORSE_START)
    assert [s.game for s in steps] == ["FT", "FO/8", None]
    clock = TournamentClock.start(steps, now_ms=0)
    shown = clock.display(now_ms=0)
    assert shown["level"]["game"] == "FT" and shown["next_level"]["game"] == "FO/8"
    clock, changes = clock.advance(now_ms=20 * 60_000)
    told = changes[0].step.level_payload()
    assert told["game"] == "FO/8"
    validate("clock", {"command": "level", "request_id": "r1", "level": told})
    assert "game" not in steps[2].level_payload()  # no game: the tables keep theirs


def test_an_unknown_game_names_the_step_and_the_field() -> None:
    with pytest.raises(StructureError, match=r"^step 2\.game: .*unknown game 'HORSE'") as bad:
        parse_structure(HORSE_START.replace('"FO/8"', '"HORSE"'))
    assert "FO/8" in str(bad.value) and "\n" not in str(bad.value)


def test_the_table_config_level_game_is_checked_naming_the_field() -> None:
    table = {"venue": "v", "id": "t1"}
    level = {"number": 1, "small_blind": 100, "big_blind": 200}
    config = parse_config({"table": table, "levels": [{**level, "game": "PO/8"}]})
    assert config.levels[0].to_level().game is not None
    with pytest.raises(ConfigError, match=r"levels\.0\.game: unknown game 'O8'"):
        parse_config({"table": table, "levels": [{**level, "game": "O8"}]})


@pytest.mark.needs("mosquitto")
def test_the_clock_tells_a_real_table_its_game_and_the_display_shows_it_R11B(
    table: Callable[[Players, int], TableRig], browser: Any
) -> None:
    """The clock process, a real table controller on the shipped broker and the display in
    Debian's Chromium: the level's game goes to the table (its state's ``game``) and up on
    the big display with the blinds."""
    rig = table([(1, "Ann", 5000), (2, "Bob", 5000)], 2)
    with clock_and_display(rig.broker, HORSE_START) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url)
        page.wait_for_function(
            "() => document.getElementById('blinds').textContent"
            " === 'Limit hold\\'em \\u00b7 100 / 200'",
            timeout=60_000,
        )
        assert page.inner_text("#next") == "Next: Limit Omaha hi-lo \u00b7 100 / 200"
        state = rig.overlay.wait_state(lambda s: s["game"] == "FT", "the level's game")
        assert state["level"]["game"] == "FT"
        rig.director.publish("pokertable/v1/club/clock/control", {"command": "next_step"})
        page.wait_for_function(
            "() => document.getElementById('blinds').textContent"
            " === 'Limit Omaha hi-lo \\u00b7 100 / 200'",
            timeout=60_000,
        )
        state = rig.overlay.wait_state(lambda s: s["game"] == "FO/8", "the next level's game")
        assert state["level"] == {
            "number": 2,
            "small_blind": 100,
            "big_blind": 200,
            "ante": 0,
            "ante_format": "none",
            "game": "FO/8",
        }
        page.screenshot(path=str(ARTIFACTS / "clock-display-mixed-game.png"))
