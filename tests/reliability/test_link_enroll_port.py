"""``pokertable enroll`` against a port that does not exist blames the port (issue #12 item 9).

It used to wait out its timeout and then blame the pad ("never held a stable pile").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pokertable.controller.cli import main


@pytest.mark.parametrize("what", [["chips", "--denomination", "500"], ["deck", "--deck-id", "d"]])
def test_enroll_on_a_missing_port_names_the_port(
    what: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "ttyUSB-nowhere")
    code = main(["enroll", *what, "--registry", str(tmp_path / "tags.sqlite"),
                 "--port", missing, "--timeout-s", "120"])
    err = capsys.readouterr().err
    assert code == 1
    assert missing in err and "cannot open it" in err
    assert "stable pile" not in err and "Traceback" not in err
