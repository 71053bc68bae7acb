"""`pokertable demo` arguments are checked when parsed: one line naming the option, exit 2."""

from __future__ import annotations

import pytest

from pokertable.controller import cli


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
