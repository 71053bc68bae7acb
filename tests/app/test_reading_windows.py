"""The readers' windows are table.toml settings (``[reading]``, issues #26 and #30): an
installer tunes them to his hardware, and the live table judges with what he gave.

``card_read_window_ms`` is how long after a deal's first card the table waits for the other
seats' reads before it rules on the read order (R35-A2); ``chip_report_lag_ms`` is how long
a street card read before the last call's chips is held for them (RP-5). Through
``TableApp``, with the table's clock simulated (the inputs' ``at_ms``), never slept.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pokertable.controller.app.config import ConfigError, parse_config
from pokertable.controller.app.table_app import fresh_session
from pokertable.controller.engine.model import Phase, Street
from tests.app.test_session_chips_before_cards import (
    AppTable,
    _config,
    _late,
    _premature,
    _turn_held,
)
from tests.console.test_config_and_cli_errors import GOOD, pokertable


def test_without_a_reading_section_the_windows_are_unchanged(tmp_path: Path) -> None:
    config = fresh_session(_config(tmp_path / "journal.jsonl")).config
    assert (config.card_read_window_ms, config.chip_report_lag_ms) == (1500, 1000)


MISDEAL = ("misdeal_first_card",)


@pytest.mark.parametrize(
    ("reading", "late", "misdeal"),
    [
        (None, 1200, None),  # the default 1,500 ms window
        ({"card_read_window_ms": 2000}, 1200, None),
        ({"card_read_window_ms": 1000}, 1200, MISDEAL),
        (None, 1800, MISDEAL),
        ({"card_read_window_ms": 2000}, 1800, None),
    ],
    ids=["1.2 s, default", "1.2 s, 2000 ms", "1.2 s, 1000 ms", "1.8 s, default",
         "1.8 s, 2000 ms"],
)
def test_TDA2024_35A2_a_first_seat_read_late_is_judged_by_the_configured_window(
    tmp_path: Path, reading: dict[str, int] | None, late: int,
    misdeal: tuple[str, ...] | None,
) -> None:
    """Button 3: seat 1 gets the first card, but the readers report seats 2 and 3 first and
    seat 1 ``late`` ms later (a slow node). Inside the window that is the readers' order;
    outside it the first card went to seat 2 (R35-A2)."""
    table = AppTable(tmp_path, reading)
    table.press("hand_start")
    table.card("seat2.cards", "Ks")
    table.card("seat3.cards", "Qs")
    _late(table, late)
    table.card("seat1.cards", "As")
    for seat, card in ((1, "Ad"), (2, "Kd"), (3, "Qd")):
        table.card(f"seat{seat}.cards", card)
    table.press("check_call")  # an action: what waited for the window is judged now
    tracked = table.session.tracked
    assert tracked is not None
    assert (tracked.misdeal.codes if tracked.misdeal is not None else None) == misdeal
    if misdeal is None:
        assert tracked.deal.closed and table.alert_codes() == []
        assert table.hand.seat(3).acted  # seat 3 (under the gun, three-handed) called
    table.app.close()


@pytest.mark.parametrize(
    ("reading", "late", "premature"),
    [
        (None, 1500, ["premature_turn"]),  # the default 1,000 ms lag
        ({"chip_report_lag_ms": 2000}, 1500, []),
        ({"chip_report_lag_ms": 250}, 300, ["premature_turn"]),
    ],
    ids=["default", "2000 ms", "250 ms"],
)
def test_TDA24_RP5_a_call_reported_after_the_turn_is_judged_by_the_configured_lag(
    tmp_path: Path, reading: dict[str, int] | None, late: int, premature: list[str]
) -> None:
    """The turn is read before seat 3's call, whose chips are reported ``late`` ms after it:
    within the lag the call completed the round and the card is the turn; past it the
    turn was dealt before seat 3 acted (RP-5)."""
    table = AppTable(tmp_path, reading)
    _turn_held(table)
    _late(table, late)
    table.push(3, 100, 100)
    assert _premature(table) == premature
    if not premature:
        assert table.hand.street is Street.TURN and table.hand.phase is Phase.BETTING
        assert table.hand.board[-1] == "Tc" and table.alert_codes() == []
    table.app.close()


def test_TDA24_RP5_the_application_clock_waits_the_configured_lag(tmp_path: Path) -> None:
    """Nothing else is read: the application judges the held turn when the installer's lag
    has passed, not the default's."""
    table = AppTable(tmp_path, {"chip_report_lag_ms": 3000})
    _turn_held(table)
    _late(table, 1001)
    assert table.app.judge_time() == ()  # the default lag has passed, this table's has not
    assert table.app.snapshot().held_cards
    _late(table, 2000)
    table.app.judge_time()
    table.session = table.app.snapshot()
    assert _premature(table) == ["premature_turn"] and not table.session.held_cards
    table.app.close()


def _problems(reading: dict[str, object], **table: object) -> tuple[str, ...]:
    """The problems ``parse_config`` finds in a table with this ``[reading]`` section and
    these extra ``[table]`` keys."""
    with pytest.raises(ConfigError) as caught:
        parse_config(_table(reading, **table))
    return caught.value.problems


def _table(reading: dict[str, object], **table: object) -> dict[str, object]:
    return {"table": {"venue": "v", "id": "t1", **table},
            "levels": [{"number": 1, "small_blind": 100, "big_blind": 200}],
            "reading": reading}


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("card_read_window_ms", 199, "Input should be greater than or equal to 200"),
        ("card_read_window_ms", 10_001, "Input should be less than or equal to 10000"),
        ("chip_report_lag_ms", 0, "Input should be greater than or equal to 200"),
        ("chip_report_lag_ms", "1s", "Input should be a valid integer, unable to parse string "
                                     "as an integer"),
    ],
)
def test_a_bad_window_is_refused_on_one_line_naming_it(key: str, value: object,
                                                       reason: str) -> None:
    assert _problems({key: value}) == (f"reading.{key}: {reason}",)


def test_a_misspelt_window_gets_a_did_you_mean() -> None:
    (problem,) = _problems({"card_window_ms": 2000})
    assert problem.startswith("reading.card_window_ms: unknown key; did you mean "
                              "'card_read_window_ms'?")


def test_the_chip_motion_window_override_is_bounded_too() -> None:
    """The chips' one-motion window (R56) is the profile's ``motion_window_ms``, set for a
    table under ``[table.overrides]``: the same bounds as the ``[reading]`` windows."""
    tuned = parse_config(_table({}, overrides={"motion_window_ms": 1200}))
    assert tuned.rules().motion_window_ms == 1200
    assert _problems({}, overrides={"motion_window_ms": 50}) == (
        "table.overrides.motion_window_ms: tda-2024: parameter 'motion_window_ms': a "
        "reader-timing window is 200 to 10000 ms (got 50)",
    )


def test_run_check_exits_78_naming_the_window(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(GOOD + "\n[reading]\ncard_read_window_ms = 20000\nchip_report_lag_ms = 2000\n")
    result = pokertable("run", "--config", str(path), "--check")
    assert result.returncode == 78
    assert result.stderr.splitlines() == [
        f"config error: {path}: reading.card_read_window_ms: "
        "Input should be less than or equal to 10000"
    ]
