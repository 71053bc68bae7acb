"""The node's re-send and refresh handlers, on the real firmware under MicroPython."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
MICROPYTHON = Path(sys.executable).parent / "micropython"


@pytest.mark.parametrize(
    "case",
    ["snapshot_request_all_and_one", "refresh_in_turn", "rs485_request_answered_at_the_poll"],
)
@pytest.mark.needs("micropython")
def test_node_self_healing_case(case: str) -> None:
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join(
        [str(REPO / "firmware" / "host"), str(REPO / "firmware"), str(HERE)])
    proc = subprocess.run([str(MICROPYTHON), str(HERE / "mp_link_check.py"), case],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert f"PASS {case}" in proc.stdout, proc.stdout + proc.stderr
