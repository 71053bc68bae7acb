"""``pokertable room``: one room.toml for the venue's services, checked like table.toml
(issue #27): a good file passes ``--check``, a bad one is one line and exit 78, and
``--service`` runs a service from it."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest

from pokertable.bench.table_rig import REPO
from pokertable.controller.cli import dispatch as cli
from pokertable.room.room_config import RoomConfig

STRUCTURE = "[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = 20\n"


def _room(tmp_path: Path, **replace: str) -> Path:
    (tmp_path / "structure.toml").write_text(STRUCTURE)
    for login in ("clock", "director", "archive"):
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
    assert capsys.readouterr().out.endswith("venue club: clock, floor, seating, archive: ok\n")


def test_the_shipped_example_is_a_valid_room_toml() -> None:
    example = tomllib.loads((REPO / "deploy" / "room.example.toml").read_text())
    assert RoomConfig.model_validate(example).services().keys() == {
        "clock", "floor", "seating", "archive"}


@pytest.mark.parametrize(("replace", "message"), [
    ({'venue = "club"': 'venue = "club/x"'}, "room.venue: String should match"),
    ({"port = 1883": 'port = "1883"'}, "broker.port: Input should be a valid integer"),
    ({"http_port = 0": "http_port = 8082"}, "floor.http_port: 8082 is also clock's"),
    ({'user = "clock"': 'user = "clock"\npassword = "x"'}, "clock.password: Extra inputs"),
    ({"[floor]": "[flor]"}, "flor: Extra inputs"),
    ({"clock.secret": "missing.secret"}, "clock.password_file: .*No such file"),
    ({"structure.toml": "room.toml"}, "clock.structure: .*step: Field required"),
])
def test_a_bad_room_toml_is_one_line_and_exit_78(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], replace: dict[str, str], message: str
) -> None:
    path = _room(tmp_path, **replace)
    assert cli.main(["room", "--config", str(path), "--check"]) == 78
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert re.search(message, err), err


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
