"""`pokertable demo` arguments are checked when parsed: one line naming the option, exit 2."""

from __future__ import annotations

import socket

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
