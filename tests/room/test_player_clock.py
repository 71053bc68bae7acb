"""A clock called on a player (R29; TDA 2011 R24): the room counts it down and calls time.

The pure part first, with time passed in (the addendum's TDA11-24-D1 and T24-29-D1
timings), then a real table, the clock process and both pages in Debian's Chromium: the
floor console calls the clock, the console and the big clock display count it down, and the
room's ``clock_expired`` rules the hand as the table's profile says."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from typing import Any

import pytest

from pokertable.bench.table_rig import USERS, TableRig
from pokertable.room import player_clocks as player_clocks_module
from pokertable.room.clock_service import ClockService, display
from pokertable.room.floor_service import console
from pokertable.room.player_clocks import MARGIN_MS, PlayerClocks
from tests.room.conftest import ARTIFACTS, signed_in
from tests.room.test_clock import STRUCTURE


def test_module_examples_run() -> None:
    result = doctest.testmod(player_clocks_module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("case", "seconds", "countdown"),
    [("TDA11-24-D1", 60, 10), ("T24-29-D1", 25, 5)],
)
def test_TDA11_24_D1_and_T24_29_D1_the_room_calls_time_only_after_the_whole_clock(
    case: str, seconds: int, countdown: int
) -> None:
    """T11: one minute and a ten-second countdown; T24: 25 s and a 5 s countdown. The room
    counts from the state's arrival, whatever the table's clock says, and never calls time
    at the deadline itself: a tie goes to the player (R29)."""
    total = (seconds + countdown) * 1000
    state = {
        "ts_ms": 1_700_000_000_000,
        "clock": {
            "seat": 4,
            "expires_at_ms": 1_700_000_000_000 + total,
            "seconds": seconds,
            "countdown": countdown,
        },
    }
    clocks = PlayerClocks().seen("t1", state, now_ms=50)
    assert clocks.countdown(now_ms=50) == [
        {"table": "t1", "seat": 4, "seconds_left": seconds + countdown, "final": False}
    ]
    final = clocks.countdown(now_ms=50 + seconds * 1000 + 1)[0]
    assert final["final"] is True and final["seconds_left"] == countdown
    assert clocks.due(now_ms=50 + total) == []  # the tie is the player's
    assert clocks.due(now_ms=50 + total + MARGIN_MS) == [("t1", 4)], case


@pytest.mark.needs("mosquitto", "micropython")
def test_a_clock_called_from_the_console_counts_down_and_kills_the_hand_TDA11(
    table: Callable[..., TableRig], browser: Any
) -> None:
    # TDA 2011 R24: dead even when not facing a bet; the times shortened by table override
    rig = table(
        [(1, "Ann", 5000), (2, "Bob", 5000)],
        1,
        table_lines=(
            'profile = "tda-2011"',
            "overrides = { clock_seconds = 4, clock_countdown_seconds = 3 }",
        ),
    )
    service = ClockService(
        host="127.0.0.1",
        port=rig.broker.port,
        venue="club",
        structure_text=STRUCTURE,
        login=("clock", USERS["clock"]),
    )
    service.start()
    assert service.subscribed.wait(60), "the clock could not subscribe"
    ws = f"ws://127.0.0.1:{rig.broker.ws_port}"
    floor = console("club", ws)
    pages = display("club", ws)
    floor.start()
    pages.start()
    try:
        page = signed_in(browser, floor.url, "floor")
        big = browser.new_page(viewport={"width": 1280, "height": 720})
        big.goto(pages.url)

        rig.button("hand_start")
        rig.overlay.wait_state(lambda s: s["action_on"] == 1, "the small blind to act")
        rig.button("check_call")  # Ann completes; Bob has his option, facing no bet
        rig.overlay.wait_state(lambda s: s["action_on"] == 2, "Bob's option")

        table_card = ".table[data-table='t9']"
        page.click(f"{table_card} .dealer summary")
        page.select_option(f"{table_card} .entry-command", "clock_call")
        page.click(f"{table_card} .send-entry")
        state = rig.overlay.wait_state(lambda s: s["clock"] is not None, "Bob on the clock")
        assert state["clock"]["seat"] == 2 and state["clock"]["seconds"] == 4
        page.wait_for_selector(f"{table_card} .player-clock:not([hidden])", timeout=60_000)
        big.wait_for_function(
            "() => document.querySelector('#player-clocks div[data-table=\"t9\"]') !== null",
            timeout=60_000,
        )
        big.screenshot(path=str(ARTIFACTS / "clock-display-player-clock.png"))
        page.wait_for_selector(f"{table_card} .player-clock.final", timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "floor-player-clock.png"), full_page=True)

        # time is up: the room says so, the table kills the hand (T11 R24), Ann wins
        after = rig.overlay.wait_state(
            lambda s: s["street"] == "complete", "the hand over", timeout=60
        )
        assert after["clock"] is None
        assert next(s for s in after["seats"] if s["seat"] == 1)["stack"] == 5200
        expired = [e for e in rig.overlay.on("/events") if e["kind"] == "clock_expired"]
        assert [r["rule_ids"] for r in expired[0]["rulings"]] == [["TDA2011-24"]]
        assert "his hand is dead" in expired[0]["rulings"][0]["text"]
        page.wait_for_selector(f"{table_card} .player-clock", state="hidden", timeout=60_000)
        big.wait_for_function(
            "() => document.getElementById('player-clocks').children.length === 0",
            timeout=60_000,
        )
    finally:
        floor.stop()
        pages.stop()
        service.stop()
