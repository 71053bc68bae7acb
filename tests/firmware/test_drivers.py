"""PN5180 / ISO 15693 and MFRC522 drivers under MicroPython against simulated chips."""

import subprocess
from collections.abc import Callable

import pytest

RunMp = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize(
    "case",
    [
        "inventory_25_collisions",  # a 25-chip stack, all in one slot: mask recursion
        "inventory_deep_collisions",  # 24 tags sharing 12 low bits: three mask levels
        "inventory_dropout",  # tags that miss answers: the confirm round finds them
        "inventory_empty_and_antenna",
        "busy_timeout",  # BUSY stuck high -> ReaderTimeout, not a hang
        "busy_slow_ok",
        "pn5180_versions_and_missing_chip",  # a floating MISO is an error, not collisions
        "mfrc522_single_card",  # 4- and 7-byte UIDs, HLTA then WUPA
        "mfrc522_two_cards_collide",
    ],
)
def test_driver_case(run_mp: RunMp, case: str) -> None:
    out = run_mp("mp_driver_check.py", case).stdout
    assert f"PASS {case}" in out
