"""The shipped configs say what `run --check` will say: deploy/table.minimal.toml passes
on any machine once its registry is beside it; deploy/table.example.toml, with its files
in place, is refused off a Pi only for its GPIO dealer console."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pokertable.controller.cli import main
from pokertable.hardware.gpio import running_on_pi
from pokertable.hardware.registry import TagRegistry

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_the_minimal_config_passes_check_once_its_registry_is_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    shutil.copy(DEPLOY / "table.minimal.toml", config)
    assert main(["run", "--config", str(config), "--check"]) == 78
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pokertable enroll" in err  # the next step, named
    TagRegistry(tmp_path / "registry.sqlite3").close()  # what `pokertable enroll` writes to
    assert main(["run", "--config", str(config), "--check"]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith(f"{config}: ok")


def test_the_example_config_passes_check_but_for_the_pi_console_off_a_pi(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    text = (DEPLOY / "table.example.toml").read_text()
    config.write_text(text.replace("/var/lib/pokertable", str(tmp_path))
                      .replace("/etc/pokertable", str(tmp_path)))
    TagRegistry(tmp_path / "registry.sqlite3").close()
    (tmp_path / "mqtt.password").write_text("secret\n")
    code = main(["run", "--config", str(config), "--check"])
    err = capsys.readouterr().err
    if running_on_pi():
        assert code == 0, err
    else:
        assert code == 78
        assert err.splitlines() == [
            f'config error: {config}: gpio.backend: "auto" needs a Raspberry Pi and this is '
            'not one; use "fake" to run without a dealer console, or "none"'
        ]
