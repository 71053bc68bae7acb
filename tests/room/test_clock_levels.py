"""Every ante format a structure may name, from the clock to a real table, and a level the
table refuses shown on the big clock display (issue #27).

A structure step with a plain ``ante`` used to go out as ``ante_format: "ante"``, which the
tables' schema rejects: the tables silently stayed on the old level.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import USERS, TableRig
from pokertable.bench.waiting import wait_for
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.clock_service import ClockService, display
from pokertable.room.floor_service import console
from tests.room.conftest import ARTIFACTS, signed_in

STRUCTURE = """
[[step]]
small_blind = 100
big_blind = 200
minutes = 20
[[step]]
small_blind = 100
big_blind = 200
ante = 25
ante_format = "ante"
minutes = 20
[[step]]
small_blind = 200
big_blind = 400
ante = 400
ante_format = "bb_ante"
minutes = 20
[[step]]
small_blind = 300
big_blind = 600
ante = 50
ante_format = "button_ante"
minutes = 20
[[step]]
small_blind = 400
big_blind = 800
ante = 100
minutes = 20
"""
CONTROL = "pokertable/v1/club/clock/control"


def _announced(number: int) -> Callable[[dict[str, Any]], bool]:
    return lambda s: number in (s["level"]["number"], (s["pending_level"] or {}).get("number"))


def _level(state: dict[str, Any], number: int) -> dict[str, Any]:
    pending = state["pending_level"]
    return pending if pending and pending["number"] == number else state["level"]


@pytest.mark.needs("mosquitto", "micropython")
def test_each_ante_format_reaches_the_table_and_a_refused_level_shows_on_the_display(
    table: Callable[..., TableRig], browser: Any
) -> None:
    rig = table([(1, "Ann", 5000), (2, "Bob", 5000)], 1)
    service = ClockService(host="127.0.0.1", port=rig.broker.port, venue="club",
                           structure_text=STRUCTURE, login=("clock", USERS["clock"]))
    service.start()
    pages = display("club", f"ws://127.0.0.1:{rig.broker.ws_port}")
    pages.start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(pages.url)
        rig.overlay.wait_state(_announced(1), "level 1")
        expected = {2: ("per_player", 25), 3: ("bb_ante", 400)}
        for number, (ante_format, ante) in expected.items():
            rig.director.publish(CONTROL, {"command": "next_step"})
            state = rig.overlay.wait_state(_announced(number), f"level {number}")
            level = _level(state, number)
            assert (level["ante_format"], level["ante"]) == (ante_format, ante)

        rig.director.publish(CONTROL, {"command": "next_step"})  # button ante: not played here
        page.wait_for_selector("#refused [data-table='t9']", timeout=60_000)
        assert page.inner_text("#refused") == (
            "Table t9 refused level 4: ante format 'button_ante' is not supported at this table")
        refusals = [r for r in rig.director.on("/reply")
                    if r["request_id"].startswith("clock-") and not r["ok"]]
        assert [r["field"] for r in refusals] == ["level.ante_format"]
        assert _level(rig.overlay.state() or {}, 3)["number"] == 3  # still on level 3
        page.screenshot(path=str(ARTIFACTS / "clock-display-refused.png"))

        rig.director.publish(CONTROL, {"command": "next_step"})  # a per-player ante again
        state = rig.overlay.wait_state(_announced(5), "level 5")
        assert _level(state, 5)["ante_format"] == "per_player"
        page.wait_for_function("() => !document.querySelector('#refused div')",
                               timeout=60_000)
        wait_for(lambda: service.refused == {}, "the clock to forget the refusal")
    finally:
        pages.stop()
        service.stop()


def test_the_director_moves_the_clock_from_the_floor_console(
    tmp_path: Path, browser: Any
) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start()
    service = ClockService(host="127.0.0.1", port=broker.port, venue="club",
                           structure_text=STRUCTURE, login=("clock", USERS["clock"]))
    service.start()
    floor = console("club", f"ws://127.0.0.1:{broker.ws_port}")
    floor.start()
    try:
        page = signed_in(browser, floor.url, "director", tables=())
        page.wait_for_function("() => document.getElementById('room-clock').textContent"
                               ".startsWith('Level 1')", timeout=60_000)

        def shows(step: str) -> None:
            page.wait_for_function(f"() => document.getElementById('room-clock').textContent"
                                   f".startsWith('{step}')", timeout=60_000)

        page.click("button[data-clock='next_step']")
        shows("Level 2")
        page.click("button[data-clock='previous_step']")
        shows("Level 1")
        page.fill("#go-to-level", "4")
        page.click("#send-go-to-level")
        shows("Level 4")
        page.click("button[data-clock='add_seconds'][data-seconds='-60']")
        page.wait_for_function("() => /· 1[0-8]:\\d\\d/.test("
                               "document.getElementById('room-clock').textContent)",
                               timeout=60_000)  # 20 minutes less one, and running
        assert service.clock.index == 3
    finally:
        floor.stop()
        service.stop()
        broker.stop()
