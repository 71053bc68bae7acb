"""The tournament clock: the pure model with time passed in, then the clock process against
a real table and its display page in Debian's Chromium."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import USERS, TableRig
from pokertable.bench.waiting import wait_for
from pokertable.mqtt.payloads import validate
from pokertable.room import clock as clock_module
from pokertable.room.clock import StructureError, TournamentClock, parse_structure
from pokertable.room.clock_service import ClockService, display
from pokertable.room.clock_service import main as clock_main
from tests.room.conftest import ARTIFACTS, Players

STRUCTURE = """
[[step]]
small_blind = 100
big_blind = 200
minutes = 20
[[step]]
small_blind = 200
big_blind = 400
ante = 400
ante_format = "bb_ante"
minutes = 20
[[step]]
break_minutes = 15
color_up = [25]
[[step]]
small_blind = 300
big_blind = 600
ante = 600
ante_format = "bb_ante"
minutes = 20
"""
MINUTE = 60_000



def test_module_examples_run() -> None:
    result = doctest.testmod(clock_module)
    assert result.attempted > 0 and result.failed == 0


def test_pause_stops_the_time_and_resume_gives_it_back() -> None:
    clock = TournamentClock.start(parse_structure(STRUCTURE), now_ms=0)
    clock = clock.pause(now_ms=5 * MINUTE)
    assert clock.remaining_ms(now_ms=50 * MINUTE) == 15 * MINUTE
    assert clock.advance(now_ms=50 * MINUTE)[1] == []  # paused: no level change
    clock = clock.resume(now_ms=50 * MINUTE)
    assert clock.remaining_ms(now_ms=51 * MINUTE) == 14 * MINUTE
    assert clock.display(51 * MINUTE)["paused"] is False


def test_a_long_gap_passes_every_step_in_order_and_stops_at_the_last() -> None:
    clock = TournamentClock.start(parse_structure(STRUCTURE), now_ms=0)
    clock, changes = clock.advance(now_ms=500 * MINUTE)
    assert [(c.kind, c.step.level_number) for c in changes] == [
        ("level", 2), ("break_start", None), ("break_end", None), ("level", 3)]
    assert clock.current.level_number == 3 and clock.remaining_ms(500 * MINUTE) == 0


def test_display_names_the_next_level_the_break_and_the_room() -> None:
    clock = TournamentClock.start(parse_structure(STRUCTURE), now_ms=0)
    shown = clock.display(now_ms=MINUTE, players_left=7, chips_in_play=70_000)
    assert shown["level"] == {"number": 1, "small_blind": 100, "big_blind": 200, "ante": 0,
                              "ante_format": "none"}
    assert shown["next_level"]["big_blind"] == 400
    assert shown["steps_to_break"] == 2 and shown["average_stack"] == 10_000
    clock = clock.add_time(-19 * MINUTE)
    clock, _ = clock.advance(now_ms=MINUTE)
    assert clock.current.level_number == 2


LEVEL = "[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = 20\n"


@pytest.mark.parametrize(("text", "message"), [
    ("[[step]]\nbreak_minutes = 10\n", "the first step must be a level"),
    ("[[step]]\nsmall_blind = 100\nminutes = 20\n", "step 1.big_blind: Field required"),
    ("[[step]]\nsmall_blind = 300\nbig_blind = 200\nminutes = 20\n",
     "step 1: .*small_blind must not be more than big_blind"),
    ("[[step]]\nsmall_blind = 1\nbig_blind = 2\nminutes = 1\nantes = 1\n",
     "step 1.antes: Extra inputs"),
    ("[[step]\n", "structure:"),
    ("", "step: Field required"),
    ('[[step]]\nsmall_blind = "100"\nbig_blind = 200\nminutes = 20\n',
     "step 1.small_blind: Input should be a valid integer"),
    ("[[step]]\nsmall_blind = 100\nbig_blind = 200.0\nminutes = 20\n",
     "step 1.big_blind: Input should be a valid integer"),
    ("[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = true\n", "step 1.minutes"),
    (LEVEL + 'ante = 25\nante_format = "none"\n', "an ante with ante_format none"),
    (LEVEL + 'ante_format = "bb_ante"\n', "ante_format bb_ante needs an ante"),
    (LEVEL + 'ante = 25\nante_format = "big"\n', "step 1.ante_format: Input should be"),
    (LEVEL + "[[step]]\nbreak_minutes = 0\n", "step 2.break_minutes: .*greater than"),
    (LEVEL + "[[step]]\nbreak_minutes = 5\ncolor_up = [0]\n", "step 2.color_up.0"),
    (LEVEL + "title = 1\n", "step 1.title: Extra inputs"),
])
def test_a_bad_structure_names_the_step_and_field(text: str, message: str) -> None:
    with pytest.raises(StructureError, match=message) as raised:
        parse_structure(text)
    assert "\n" not in str(raised.value)


def test_a_bad_structure_stops_the_clock_with_one_line_and_exit_78(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "structure.toml"
    bad.write_text('[[step]]\nsmall_blind = "100"\nbig_blind = 200.5\nminutes = 20\n')
    assert clock_main(["--venue", "club", "--structure", str(bad),
                       "--broker", "127.0.0.1:1"]) == 78
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "step 1.small_blind" in err and "step 1.big_blind" in err


@pytest.mark.parametrize(("written", "sent"), [
    ("", "none"), ('ante = 25\n', "per_player"), ('ante = 25\nante_format = "ante"\n',
                                                   "per_player"),
    ('ante = 25\nante_format = "per_player"\n', "per_player"),
    ('ante = 200\nante_format = "bb_ante"\n', "bb_ante"),
    ('ante = 25\nante_format = "button_ante"\n', "button_ante"),
])
def test_every_ante_format_is_sent_as_the_tables_schema_names_it(written: str, sent: str) -> None:
    [step] = parse_structure(LEVEL + written)
    level = step.level_payload()
    assert level["ante_format"] == sent
    validate("clock", {"command": "level", "request_id": "r1", "level": level})


def test_the_clock_drives_the_table_and_the_display(
    table: Callable[[Players, int], TableRig], browser: Any
) -> None:
    rig = table([(1, "Ann", 5000), (2, "Bob", 5000)], 2)
    exports = rig.workdir / "exports"
    service = ClockService(host="127.0.0.1", port=rig.broker.port, venue="club",
                           structure_text=STRUCTURE, login=("clock", USERS["clock"]),
                           export_dir=exports)
    service.start()
    assert service.subscribed.wait(60), "the clock could not subscribe"
    pages = display("club", f"ws://127.0.0.1:{rig.broker.ws_port}")
    pages.start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(pages.url)
        page.wait_for_function(
            "() => document.getElementById('blinds').textContent === '100 / 200'"
            " && document.getElementById('players').textContent === 'Players 2'",
            timeout=60_000)
        assert page.inner_text("#next") == "Next: 200 / 400 BB ante 400"

        # a hand is running when the director moves the clock on: Rule 23, next hand
        rig.button("hand_start")
        rig.overlay.wait_state(lambda s: s["hand_number"] == 1, "hand 1")
        rig.director.publish("pokertable/v1/club/clock/control", {"command": "next_step"})
        page.wait_for_function(
            "() => document.getElementById('blinds').textContent === '200 / 400 BB ante 400'",
            timeout=60_000)
        state = rig.overlay.wait_state(lambda s: s["pending_level"] is not None,
                                       "the announced level")
        assert state["level"]["big_blind"] == 200
        assert state["pending_level"]["big_blind"] == 400
        page.screenshot(path=str(ARTIFACTS / "clock-display.png"))

        rig.director.publish("pokertable/v1/club/clock/control", {"command": "pause"})
        page.wait_for_selector("#paused", state="visible", timeout=60_000)

        # chip counts: the leaderboard page, the audit against the entries, an export
        rig.director.publish("pokertable/v1/club/clock/control", {
            "command": "entries", "players": 2, "starting_stack": 5000})
        rig.director.publish("pokertable/v1/club/clock/control", {"command": "export"})
        board = browser.new_page(viewport={"width": 1280, "height": 720})
        board.goto(pages.url.replace("clock_display/", "leaderboard/"))
        board.wait_for_function(
            "() => document.getElementById('audit').textContent === 'chips match the entries'",
            timeout=60_000)
        players = board.eval_on_selector_all("#board tbody tr td:nth-child(2)",
                                             "els => els.map(e => e.textContent)")
        assert sorted(players) == ["Ann", "Bob"]
        board.screenshot(path=str(ARTIFACTS / "leaderboard.png"))
        csv_files = wait_for(lambda: sorted(exports.glob("chipcounts-*.csv")), "the export")
        assert "Ann" in csv_files[-1].read_text() and "Bob" in csv_files[-1].read_text()
    finally:
        pages.stop()
        service.stop()
