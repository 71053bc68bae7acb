"""PN5180 / ISO 15693 and MFRC522 drivers under MicroPython against simulated chips."""

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

RunMp = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize(
    "case",
    [
        "inventory_25_collisions",  # a 25-chip stack, all in one slot: mask recursion
        "inventory_deep_collisions",  # 24 tags sharing 12 low bits: three mask levels
        "inventory_from_known_prefixes",  # a stale hint still gives the field's set
        "inventory_dropout",  # tags that miss answers: the confirm round finds them
        "inventory_empty_and_antenna",
        "busy_timeout",  # BUSY stuck high -> ReaderTimeout, not a hang
        "busy_slow_ok",
        "pn5180_versions_and_missing_chip",  # a floating MISO is an error, not collisions
        "mfrc522_single_card",  # 4- and 7-byte UIDs, HLTA then WUPA
        "mfrc522_two_cards_on_one_pad",  # two hole cards: both read, every scan
        "mfrc522_three_to_five_cards_every_scan",  # whole collision subtrees reachable
        "mfrc522_guard_time_after_antenna_switch",
    ],
)
def test_driver_case(run_mp: RunMp, case: str) -> None:
    out = run_mp("mp_driver_check.py", case, timeout=300).stdout
    assert f"PASS {case}" in out


def test_mfrc522_wave1_driver_fails_against_the_faithful_fake(micropython: Path) -> None:
    import os

    from .conftest import HERE, mp_env

    env = mp_env()
    env["MICROPYPATH"] = os.pathsep.join([str(HERE / "fixtures" / "wave1"), env["MICROPYPATH"]])
    proc = subprocess.run(
        [str(micropython), str(HERE / "mp_driver_check.py"), "mfrc522_wave1_driver_fails"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS mfrc522_wave1_driver_fails" in proc.stdout
