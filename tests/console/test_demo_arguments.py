"""`pokertable demo` arguments are checked when parsed: one line naming the option, exit 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pokertable.controller.cli import dispatch as cli


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--hands", "-1"], "--hands"),
        (["--hands", "many"], "--hands"),
        (["--string-bets", "5"], "--string-bets"),
        (["--string-bets", "-0.1"], "--string-bets"),
    ],
)
def test_a_bad_demo_argument_is_refused_before_anything_starts(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["demo", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert named in err and "Traceback" not in err


@pytest.mark.needs("micropython")
def test_a_taken_overlay_port_is_named_and_exits_unavailable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = cli.main(["demo", "--hands", "1", "--overlay", "--overlay-port", str(port)])
    err = capsys.readouterr().err
    assert code == 69  # EX_UNAVAILABLE: the machine's, not the program's fault
    assert err.count("\n") == 1 and f"port {port}" in err and "a bug" not in err


# Loaded by the child interpreter from PYTHONPATH: amqtt cannot be imported, as in an
# install without the `demo` extra (nothing is uninstalled).
_NO_AMQTT = """
import importlib.abc, sys
class _NoAmqtt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "amqtt":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _NoAmqtt())
"""


@pytest.mark.parametrize(
    ("argv", "instead"),
    [
        (["--hands", "1"], ", or give --broker HOST:PORT (a broker already running)"),
        (["--tables", "2", "--hands", "1"],
         ", or give --broker HOST:PORT (a broker already running)"),
    ],
)
def test_demo_without_amqtt_names_the_demo_extra_and_exits_unavailable(
    tmp_path: Path, argv: list[str], instead: str
) -> None:
    (tmp_path / "sitecustomize.py").write_text(_NO_AMQTT)
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p)
    run = subprocess.run(
        [sys.executable, "-m", "pokertable.controller.cli", "demo", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert run.returncode == 69, run.stderr  # EX_UNAVAILABLE, not 70 "a bug"
    assert run.stderr.splitlines() == [
        "pokertable demo: demos with their own MQTT broker need amqtt: "
        "pip install 'pokertable-controller[demo]'" + instead
    ], run.stderr


@pytest.mark.needs("micropython")
@pytest.mark.parametrize("tables", [[], ["--tables", "2"]])
def test_demo_with_a_broker_nobody_answers_names_it_and_exits_unavailable(
    capsys: pytest.CaptureFixture[str], tables: list[str]
) -> None:
    from pokertable.mqtt.mosquitto import free_port

    port = free_port()  # nothing listens there
    code = cli.main(["demo", "--hands", "1", *tables, "--broker", f"127.0.0.1:{port}"])
    err = capsys.readouterr().err
    assert code == 69, err  # EX_UNAVAILABLE: the machine's broker, not a bug in the demo
    assert err.count("\n") == 1 and f"127.0.0.1:{port}" in err and "a bug" not in err
