"""``pokertable init`` writes a config that passes ``run --check`` on the machine it ran on."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pokertable.controller.app.config import file_problems
from pokertable.controller.cli import init as init_config
from pokertable.controller.cli import main


def test_defaults_write_a_config_that_passes_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(init_config, "SERVICE_DATA", tmp_path / "no-service-here")
    out = tmp_path / "table.toml"
    code = main(["init", "--defaults", "--output", str(out), "--venue", "club-9",
                 "--table", "t07", "--seats", "6", "--port", "/dev/serial/by-id/usb-x",
                 "--broker", "broker.local:1884"])
    assert code == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith(f"init: wrote {out}: ok")
    data = tomllib.loads(out.read_text())
    assert data["table"] == {"venue": "club-9", "id": "t07", "seats": 6, "profile": "tda-2024"}
    assert data["readers"] == [{"port": "/dev/serial/by-id/usb-x", "transport": "uart"}]
    assert data["mqtt"]["host"] == "broker.local" and data["mqtt"]["port"] == 1884
    assert data["gpio"]["backend"] == "none"  # this is not a Pi
    assert data["registry"]["path"] == "registry.sqlite3"  # beside the file
    assert file_problems(out) == []
    # what init wrote, `run --check` passes on the same machine: the registry is there
    assert main(["run", "--config", str(out), "--check"]) == 0, capsys.readouterr().err
    assert (tmp_path / "registry.sqlite3").is_file()


def test_questions_take_answers_and_enter_keeps_the_default(tmp_path: Path) -> None:
    replies = iter(["casino", "", "x", "11", "10", "", "400", "none", ""])
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return next(replies)

    answers = init_config.ask(init_config.Answers(ports=["/dev/ttyAMA0"]), read)
    assert answers.venue == "casino" and answers.table == "t01"
    assert answers.seats == 10  # "x" and 11 were asked again
    assert (answers.small_blind, answers.big_blind) == (100, 400)
    assert answers.ports == [] and answers.broker == "127.0.0.1:1883"
    assert asked[5] == "first level: small blind [100]: "
    assert "reader ports, comma-separated (none: no readers yet) [/dev/ttyAMA0]: " in asked


def test_a_bad_answer_is_reported_as_run_check_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(init_config, "SERVICE_DATA", tmp_path / "no-service-here")
    out = tmp_path / "table.toml"
    code = main(["init", "--defaults", "--output", str(out), "--venue", "club 1",
                 "--port", "/dev/ttyAMA0"])
    assert code == 78
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"config error: {out}: table.venue: String should match")


@pytest.mark.parametrize("seats", ["11", "1", "many"])
def test_a_seat_count_a_table_cannot_have_is_refused_when_parsed(
    seats: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "table.toml"
    with pytest.raises(SystemExit) as stop:
        main(["init", "--defaults", "--output", str(out), "--seats", seats])
    assert stop.value.code == 2 and not out.exists()
    err = capsys.readouterr().err
    assert "--seats" in err and "2 to 10" in err


def test_an_existing_file_is_kept_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "table.toml"
    out.write_text("# mine\n")
    assert main(["init", "--defaults", "--output", str(out)]) == 1
    assert out.read_text() == "# mine\n"
    assert "use --force" in capsys.readouterr().err


def test_detect_ports_lists_by_id_links_then_the_header_uart(tmp_path: Path) -> None:
    (tmp_path / "by-id").mkdir()
    for name in ("usb-b", "usb-a"):
        (tmp_path / "by-id" / name).touch()
    header = tmp_path / "ttyAMA0"
    header.touch()
    found = init_config.detect_ports(str(tmp_path / "by-id" / "*"), str(header))
    assert found == [str(tmp_path / "by-id" / "usb-a"), str(tmp_path / "by-id" / "usb-b"),
                     str(header)]
