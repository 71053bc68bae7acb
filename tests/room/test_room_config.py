"""``pokertable room``: one room.toml for the venue's services, checked like table.toml
(issue #27): a good file passes ``--check``, a bad one is one line and exit 78, and
``--service`` runs a service from it: the floor console, and a broadcast relay against a
real mosquitto with its delay file where systemd's unit keeps its state."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest

from pokertable.bench.table_rig import REPO, USERS
from pokertable.bench.waiting import wait_for
from pokertable.controller.cli import dispatch as cli
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.room_config import RoomConfig

STRUCTURE = "[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = 20\n"


def _room(tmp_path: Path, **replace: str) -> Path:
    (tmp_path / "structure.toml").write_text(STRUCTURE)
    for login in ("clock", "director", "archive", "broadcaster"):
        secret = tmp_path / f"{login}.secret"
        secret.write_text(f"{login}-pw\n")
        secret.chmod(0o600)
    text = f"""
[room]
venue = "club"
[broker]
port = 1883
[clock]
structure = "{tmp_path / 'structure.toml'}"
user = "clock"
password_file = "{tmp_path / 'clock.secret'}"
http_port = 8082
[floor]
http_port = 0
[seating]
user = "director"
password_file = "{tmp_path / 'director.secret'}"
[archive]
user = "archive"
password_file = "{tmp_path / 'archive.secret'}"
db = "{tmp_path / 'hands.sqlite3'}"
[relay.t9]
user = "broadcaster"
password_file = "{tmp_path / 'broadcaster.secret'}"
http_port = 8083
delay_s = 90
"""
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "room.toml"
    path.write_text(text)
    return path


def test_a_good_room_toml_passes_the_check(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["room", "--config", str(_room(tmp_path)), "--check"]) == 0
    assert capsys.readouterr().out.endswith(
        "venue club: clock, floor, seating, archive, relay-t9: ok\n")


def test_the_shipped_example_is_a_valid_room_toml() -> None:
    example = tomllib.loads((REPO / "deploy" / "room.example.toml").read_text())
    assert RoomConfig.model_validate(example).services().keys() == {
        "clock", "floor", "seating", "archive", "relay-t07"}


@pytest.mark.parametrize(("replace", "message"), [
    ({'venue = "club"': 'venue = "club/x"'}, "room.venue: String should match"),
    ({"port = 1883": 'port = "1883"'}, "broker.port: Input should be a valid integer"),
    ({"http_port = 0": "http_port = 8082"}, "floor.http_port: 8082 is also clock's"),
    ({'user = "clock"': 'user = "clock"\npassword = "x"'}, "clock.password: Extra inputs"),
    ({"[floor]": "[flor]"}, "flor: Extra inputs"),
    ({"clock.secret": "missing.secret"}, "clock.password_file: .*No such file"),
    ({"structure.toml": "room.toml"}, "clock.structure: .*step: Field required"),
    ({"[relay.t9]": "[relay.t9x]\nlayout = 'layout.json'"},
     "relay.t9x.layout: layout.json: No such file"),
    ({"[relay.t9]": '[relay."t/9"]'}, r"relay.t/9.\[key\]: String should match"),
    ({"delay_s = 90": "delay_s = -1"}, "relay.t9.delay_s: Input should be greater than"),
    ({"delay_s = 90": 'delay_s = "90"'}, "relay.t9.delay_s: Input should be a valid number"),
    ({"http_port = 8083": "http_port = 8082"}, "relay.t9.http_port: 8082 is also clock's"),
    ({"broadcaster.secret": "missing.secret"}, "relay.t9.password_file: .*No such file"),
    ({"http_port = 8082": "http_port = 8082\nbuy_in = -5"}, "clock.buy_in: Input should be"),
    ({"http_port = 8082": "http_port = 8082\npayouts = 'missing.csv'"},
     "clock.payouts: missing.csv: No such file"),
    ({"http_port = 8082": "http_port = 8082\nha_discovery = 'home assistant'"},
     "clock.ha_discovery: String should match"),
])
def test_a_bad_room_toml_is_one_line_and_exit_78(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], replace: dict[str, str], message: str
) -> None:
    path = _room(tmp_path, **replace)
    assert cli.main(["room", "--config", str(path), "--check"]) == 78
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert re.search(message, err), err


def test_the_clock_section_carries_the_prize_pool_payouts_and_home_assistant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The clock's prize pool, payout table and Home Assistant discovery come from room.toml
    (issue #31): the service is started with them, and a bad payout table is one line."""
    from pokertable.room.clock_service import add_arguments
    from pokertable.room.room_config import _clock_argv, load_room_config

    chart = tmp_path / "payouts.csv"
    chart.write_text("place,percent\n1,60\n2,40\n")
    path = _room(tmp_path, **{"http_port = 8082": (
        f"http_port = 8082\nbuy_in = 100\nre_entry = 80\nadd_on = 50\nrake_percent = 10"
        f"\nguarantee = 5000\npayouts = '{chart}'\nha_discovery = 'homeassistant'")})
    argv, _ = _clock_argv(load_room_config(path))
    options = dict(zip(argv[::2], argv[1::2], strict=True))
    assert {k: options[k] for k in ("--buy-in", "--re-entry", "--add-on", "--rake-percent",
                                    "--guarantee", "--payouts", "--ha-discovery")} == {
        "--buy-in": "100", "--re-entry": "80", "--add-on": "50", "--rake-percent": "10.0",
        "--guarantee": "5000", "--payouts": str(chart), "--ha-discovery": "homeassistant"}
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    parsed = parser.parse_args(argv)
    assert (parsed.buy_in, parsed.guarantee, parsed.ha_discovery) == (100, 5000, "homeassistant")
    chart.write_text("place,percent\n1,sixty\n")
    assert cli.main(["room", "--config", str(path), "--check"]) == 78
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "clock.payouts: " in err, err


def test_a_password_file_others_can_read_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _room(tmp_path)
    (tmp_path / "director.secret").chmod(0o644)
    assert cli.main(["room", "--config", str(path), "--check"]) == 78
    assert "seating.password_file: " in capsys.readouterr().err


def test_a_service_runs_from_the_room_toml(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "pokertable.controller.cli", "room", "--config",
         str(_room(tmp_path)), "--service", "floor", "--log-level", "debug"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # blocks until the console is up
        assert line.startswith("floor console: http://127.0.0.1:"), line
        url = line.split(": ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=30) as response:
            assert response.status == 200 and b"Sign in" in response.read()
    finally:
        process.terminate()
        process.wait(30)


@pytest.mark.needs("mosquitto")
def test_a_broadcast_relay_runs_from_the_room_toml(tmp_path: Path, broker: MosquittoProcess
                                                   ) -> None:
    """``--service relay-<table>``: the relay with its login from the password file, online
    on the broker, its delay file (0600) in the unit's state directory, its page served."""
    path = _room(tmp_path, **{"port = 1883": f"port = {broker.port}",
                              "http_port = 8083": "http_port = 0"})
    (tmp_path / "broadcaster.secret").write_text(USERS["broadcaster"] + "\n")
    state = tmp_path / "state"
    state.mkdir()
    from tests.room.test_overlay_anonymous import Client

    watcher = Client(broker.port, "director")
    env = {**os.environ, "STATE_DIRECTORY": str(state)}
    process = subprocess.Popen(
        [sys.executable, "-m", "pokertable.controller.cli", "room", "--config", str(path),
         "--service", "relay-t9"], cwd=REPO, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # blocks until the relay's page is up
        assert line.startswith("overlay page: http://127.0.0.1:"), line
        assert line.endswith("(broadcast delay 90 s)\n"), line
        url = line.split(": ", 1)[1].split(" ", 1)[0]
        with urllib.request.urlopen(f"{url}config.json", timeout=30) as response:
            assert b"relay-secret" not in response.read()
        status = "pokertable/v1/club/services/broadcaster/relay-club-t9"
        wait_for(lambda: any(t == status and b'"online"' in p for t, p in list(watcher.seen)),
                 "the relay online", 120)
        delay_file = state / "broadcast-club-t9.sqlite3"
        assert oct(delay_file.stat().st_mode & 0o777) == "0o600"
    finally:
        process.terminate()
        process.wait(30)
        watcher.stop()


@pytest.mark.parametrize(("service", "section"), [("relay-t8", "relay.t8"), ("clok", "clok")])
def test_a_service_the_file_does_not_name_is_one_line_and_exit_78(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], service: str, section: str
) -> None:
    path = _room(tmp_path)
    assert cli.main(["room", "--config", str(path), "--service", service]) == 78
    assert capsys.readouterr().err == f"pokertable room: {path}: no [{section}] section\n"
