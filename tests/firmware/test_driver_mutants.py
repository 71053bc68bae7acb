"""The driver mutants that used to survive the datasheet fake are caught (issue #28 goal 5).

Each mutant is a one-line change to a copy of the firmware; the named case of
mp_faithful_check.py runs against it under MicroPython and must fail. The same case
passes on the real firmware (tests/firmware/test_faithful_fake.py), so the fake, not
the driver, is what tells them apart.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import FIRMWARE, HERE

MUTANTS = {
    # A CRC error without the collision bit taken for an empty slot: the tag is lost
    # and the inventory still says complete.
    "crc_error_as_empty_slot": (
        "iso15693.py",
        "            # A garbled answer still means someone is in this slot: dig into it.\n"
        "            return SLOT_COLLISION",
        "            return SLOT_EMPTY",
        "crc_only_collisions_and_crc_errors_lose_no_tag",
    ),
    # BUSY read as low right after the frame, before it rose (§11.4.1 step 3 skipped).
    "no_wait_for_busy_rise": (
        "pn5180.py",
        "        t0 = clock.ticks_us()\n        while not busy.value():",
        "        t0 = clock.ticks_us()\n        while False:",
        "busy_rise_and_length_swept",
    ),
    # No BUSY wait at all: the next frame goes out whenever the host gets to it.
    "no_busy_wait": (
        "pn5180.py",
        "        while self._busy.value():\n            if ticks_diff(deadline",
        "        while False:\n            if ticks_diff(deadline",
        "busy_rise_and_length_swept",
    ),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_driver_mutant_is_caught(micropython: Path, tmp_path: Path, name: str) -> None:
    module, old, new, case = MUTANTS[name]
    copy = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, copy)
    text = (copy / module).read_text()
    assert text.count(old) == 1, f"mutant {name}: the line to change is gone from {module}"
    (copy / module).write_text(text.replace(old, new))
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([str(copy / "host"), str(copy), str(HERE)])
    proc = subprocess.run(
        [str(micropython), str(HERE / "mp_faithful_check.py"), case],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert proc.returncode != 0 and f"PASS {case}" not in proc.stdout, (
        f"mutant {name} survived {case}:\n{proc.stdout}"
    )
