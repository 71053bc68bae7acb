"""The PN5180 driver and node loop against the datasheet-faithful fake (simulated time).

The wave-1 driver (kept unchanged in fixtures/wave1/) must fail against the fake: it never
arms TIMER1, so its first silent slot never ends. The fixed driver reads 1-30 tags with
the scan times real chips show, and the node answers every poll while it scans.
"""

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import HERE, mp_env

RunMp = Callable[..., subprocess.CompletedProcess[str]]


def test_wave1_driver_fails_against_the_faithful_fake(micropython: Path) -> None:
    env = mp_env()
    env["MICROPYPATH"] = os.pathsep.join([str(HERE / "fixtures" / "wave1"), env["MICROPYPATH"]])
    proc = subprocess.run(
        [str(micropython), str(HERE / "mp_faithful_check.py"), "wave1_driver_fails"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS wave1_driver_fails" in proc.stdout
    assert "no RX/timer IRQ" in proc.stdout


@pytest.mark.parametrize(
    "case",
    [
        "reset_sequence",  # >= 10 us pulse, 2.5 ms start-up, IDLE_IRQ, no SPI during boot
        "reads_1_to_30_tags",  # complete inventories, realistic simulated scan times
        "back_to_back_scans_see_everyone",  # minimum field-off time
        "rf_on_collision_avoidance",  # RF_ACTIVE_ERROR is a busy field, not an empty zone
        "general_error_is_not_an_empty_slot",
        "inventory_bounded_by_time",
        "node_answers_polls_while_scanning_20_chip_stacks",
        "node_survives_reader_faults",
    ],
)
def test_faithful_case(run_mp: RunMp, case: str) -> None:
    assert f"PASS {case}" in run_mp("mp_faithful_check.py", case, timeout=300).stdout
