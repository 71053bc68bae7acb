"""Issue #28 goal 1: every layout a table needs boots, and a fault is reported, not a loop.

The shipped 3-seat layout (firmware/node_config.example.json: nine antennas, the node the
demo builds for three seats) is built by firmware/main.py on each board's pin map under
the MicroPython unix port, with the datasheet PN5180 fake on the SPI bus.
"""

import subprocess
from collections.abc import Callable

import pytest

RunMp = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize("board", ["rp2040_pico", "esp32_devkit"])
def test_the_shipped_three_seat_layout_boots_and_every_zone_reports(
    run_mp: RunMp, board: str
) -> None:
    out = run_mp("mp_layout_check.py", board, "shipped").stdout
    assert f"PASS layout {board} shipped 9 zones" in out


def test_a_channel_the_switch_cannot_reach_is_a_birth_fault_not_a_boot_loop(
    run_mp: RunMp,
) -> None:
    out = run_mp("mp_layout_check.py", "rp2040_pico", "two_lines").stdout
    assert "PASS layout rp2040_pico two_lines 4 zones" in out
    assert "node fault: seat2.stack: channel 4" in out  # on the USB console too
    assert "restarting" not in out


def test_a_reader_that_does_not_answer_is_a_fault_until_it_is_plugged_in(run_mp: RunMp) -> None:
    out = run_mp("mp_layout_check.py", "rp2040_pico", "no_reader").stdout
    assert "PASS layout rp2040_pico no_reader 9 zones" in out
    assert "node fault: reader: reader PN5180" in out
