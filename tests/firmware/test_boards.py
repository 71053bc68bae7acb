"""Each board's pin map builds a working node through firmware/main.py (under MicroPython)."""

import subprocess
from collections.abc import Callable

import pytest

RunMp = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize("board", ["rp2040_pico", "esp32_devkit"])
@pytest.mark.parametrize("transport", ["uart", "rs485"])
def test_board_builds_and_reads_a_tag(run_mp: RunMp, board: str, transport: str) -> None:
    assert f"PASS board {board} {transport}" in run_mp("mp_board_check.py", board, transport).stdout
