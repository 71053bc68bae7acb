"""Config and command-line errors: one line each, all at once, exit 78 for a config that
cannot run here (so systemd does not restart into it), never a traceback."""

from __future__ import annotations

import argparse
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from pokertable.controller.app.config import ConfigError, file_problems, parse_config
from pokertable.controller.cli.dispatch import build_parser
from pokertable.hardware.registry import TagRegistry

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = ROOT / "deploy" / "table.minimal.toml"

GOOD = """
[table]
venue = "club-1"
id = "t01"

[[levels]]
number = 1
small_blind = 100
big_blind = 200
"""

TYPOS = """
[table]
venue = "club-1"
id = "t01"
seeats = 9

[[levels]]
number = 1
small_blind = 100
big_blind = 200
chip_unt = 25

[mqtt]
port = 99999
passwrd_file = "mqtt.password"

[gpio]
backend = "fake"

[gpio.pins]
fold = 17
check_call = 17
"""


def pokertable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pokertable.controller.cli", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )


def not_a_pi(tmp_path: Path) -> Path:
    model = tmp_path / "model"
    model.write_bytes(b"Generic x86 PC\x00")
    return model


def a_pi(tmp_path: Path) -> Path:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    return model


# -- every problem, one line each, at once -----------------------------------------------


def test_every_error_in_a_file_is_reported_at_once_with_did_you_mean(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(TYPOS)
    problems = file_problems(path, model_path=not_a_pi(tmp_path))
    assert problems[0].startswith("table.seeats: unknown key; did you mean 'seats'?")
    assert problems[1].startswith("levels.0.chip_unt: unknown key; did you mean 'chip_unit'?")
    assert problems[2] == "mqtt.port: Input should be less than or equal to 65535"
    assert problems[3].startswith("mqtt.passwrd_file: unknown key; did you mean 'password_file'?")
    # The [gpio] section is still checked although the file did not validate.
    assert problems[4] == "gpio.pins.fold: GPIO17 is already check_call"
    assert len(problems) == 5
    assert all("\n" not in p for p in problems)


def test_a_config_error_carries_each_problem_on_its_own_line() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"table": {"venue": "v", "id": "t", "sets": 9}, "levels": []})
    assert caught.value.problems == (
        "table.sets: unknown key; did you mean 'seats'? (known: venue, id, seats, variant, "
        "profile, overrides, first_button)",
        "levels: List should have at least 1 item after validation, not 0",
    )


@pytest.mark.parametrize(
    ("machine", "problem"),
    [
        (
            not_a_pi,
            'gpio.backend: "auto" needs a Raspberry Pi and this is not one; use "fake" to run '
            'without a dealer console, or "none"',
        ),
        (
            a_pi,  # a Pi without the pi extra
            "gpio.backend: \"auto\" needs RPi.GPIO: pip install 'pokertable-controller[pi]' "
            "(it brings rpi-lgpio) in a venv that sees Pi OS's python3-lgpio "
            "(docs/packaging.md, GPIO)",
        ),
    ],
    ids=["off a Pi", "on a Pi without RPi.GPIO"],
)
def test_gpio_auto_where_it_cannot_work_is_caught_by_check(
    tmp_path: Path, machine: Any, problem: str
) -> None:
    path = tmp_path / "table.toml"
    path.write_text(GOOD + '\n[gpio]\nbackend = "auto"\n')
    assert file_problems(path, model_path=machine(tmp_path)) == [problem]


def test_two_buttons_on_one_pin_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(GOOD + '\n[gpio]\nbackend = "fake"\n[gpio.pins]\nfold = 4\n')
    assert file_problems(path) == ["gpio.pins.fold: GPIO4 is already hand_start"]


def test_unknown_pin_key_gets_a_did_you_mean(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(GOOD + '\n[gpio]\nbackend = "fake"\n[gpio.pins]\nfodl = 4\n')
    (problem,) = file_problems(path)
    assert problem.startswith("gpio.pins.fodl: unknown key; did you mean 'fold'?")


def test_a_table_named_like_a_room_topic_is_refused(tmp_path: Path) -> None:
    # <venue>/clock is the room's clock: a table "clock" would write what overlays read
    path = tmp_path / "table.toml"
    path.write_text(GOOD.replace('id = "t01"', 'id = "clock"'))
    (problem,) = file_problems(path)
    assert problem.startswith("table: ") and "'clock' is the name of a room topic" in problem


def test_missing_secret_file_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(GOOD + '\n[mqtt]\npassword_file = "mqtt.password"\n')
    assert file_problems(path) == [
        f"mqtt.password_file: {tmp_path / 'mqtt.password'} does not exist or is not a file"
    ]


def test_unreadable_and_invalid_toml_are_one_line(tmp_path: Path) -> None:
    (missing,) = file_problems(tmp_path / "nope.toml")
    assert missing.endswith("cannot read: No such file or directory")
    broken = tmp_path / "broken.toml"
    broken.write_text("[table\nvenue = 1\n")
    (invalid,) = file_problems(broken)
    assert "not valid TOML" in invalid and "\n" not in invalid


# -- the commands: exit 78, one line per problem, no traceback -----------------------------


@pytest.mark.parametrize("check", [True, False], ids=["check", "run"])
def test_check_and_run_both_exit_78_with_one_line_per_problem(
    tmp_path: Path, check: bool
) -> None:
    path = tmp_path / "table.toml"
    path.write_text(TYPOS)
    result = pokertable("run", "--config", str(path), *(["--check"] if check else []))
    lines = result.stderr.splitlines()
    assert result.returncode == 78
    assert "Traceback" not in result.stderr
    assert len(lines) == 5
    assert all(line.startswith(f"config error: {path}: ") for line in lines)


def test_minimal_example_passes_check_anywhere_once_chips_are_enrolled(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(MINIMAL.read_text())
    # before enrollment the only problem is the missing tag registry (issue #12: never an
    # empty registry made up silently), and the line says what to do
    result = pokertable("run", "--config", str(config), "--check")
    assert result.returncode == 78
    assert result.stderr.count("\n") == 1 and "pokertable enroll" in result.stderr, result.stderr
    TagRegistry(tmp_path / "registry.sqlite3").close()  # what `pokertable enroll` creates
    result = pokertable("run", "--config", str(config), "--check")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"{config}: ok")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("demo", "--profile", "nope"), "argument --profile: unknown profile 'nope'"),
        (("demo", "--profile", "tda-2023"), "did you mean 'tda-2024'?"),
        (("demo", "--broker", "junk"), "argument --broker: 'junk' is not HOST:PORT"),
        (("run", "--config", "x.toml", "--log-level", "LOUD"), "'LOUD' is not one of DEBUG"),
        (("nonsense",), "invalid choice: 'nonsense'"),
    ],
)
def test_cli_errors_are_one_line(args: tuple[str, ...], says: str) -> None:
    result = pokertable(*args)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert says in result.stderr and "--help" in result.stderr


def test_version_comes_from_the_installed_distribution() -> None:
    result = pokertable("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"pokertable {version('pokertable-controller')}"


def test_every_option_of_every_command_has_help() -> None:
    missing: list[str] = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}")
            elif not isinstance(action, argparse._HelpAction) and not action.help:
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "pokertable")
    assert missing == []


def test_a_table_may_deal_a_draw_game() -> None:
    """table.variant takes the draw games the live table deals (issue #30)."""
    for code in ("F2L3D", "N2L1D", "FB"):
        config = parse_config({"table": {"venue": "v", "id": "t", "variant": code},
                               "levels": [{"number": 1, "small_blind": 50, "big_blind": 100}]})
        assert config.variant().value == code and config.variant().is_draw
