"""The quality gates, run with the suite so CI enforces them: ruff on the whole tree,
mypy --strict on the CPython packages, and mypy on the firmware against the MicroPython
stubs (installed into typings/, never into the venv, so CPython code cannot see them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)


def test_ruff_is_clean() -> None:
    proc = _run(str(BIN / "ruff"), "check", "--quiet", ".")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_mypy_strict_on_controller_hardware_mqtt() -> None:
    proc = _run(str(BIN / "mypy"))  # packages and strictness come from pyproject.toml
    assert proc.returncode == 0, proc.stdout[-4000:]


def test_firmware_type_checks_against_micropython_stubs() -> None:
    typings = REPO / "typings"
    if not (typings / "machine").exists() and not any(typings.glob("machine*")):
        install = _run(sys.executable, "-m", "pip", "install", "--quiet", "--target",
                       str(typings), "micropython-rp2-stubs")
        assert install.returncode == 0, install.stderr[-2000:]
    proc = _run(str(BIN / "mypy"), "--config-file", "mypy-firmware.ini")
    assert proc.returncode == 0, proc.stdout[-4000:]
