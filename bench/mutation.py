"""Mutation testing of the core modules with Cosmic Ray: a benchmark-style job, not CI.

    .venv/bin/pip install -e '.[mutation]'
    .venv/bin/python -m pokertable.bench.mutation [--only pots journal ...] [--out DIR]

For each target, Cosmic Ray makes every one-line mutant of the module (a ``<`` for a
``<=``, a ``+ 1`` for a ``- 1``, a ``True`` for a ``False``...), writes it over the file
in place and runs the module's own test selection; a mutant the tests fail on is killed.
The score per module is killed / (killed + survived); surviving mutants are listed with
their diff in ``<out>/<target>-survivors.txt`` so each is killed by a new test or
documented as equivalent in docs/testing.md.

Why Cosmic Ray and not mutmut: mutmut 3 runs the tests on a copy of the project in
``mutants/``, and this project installs its folders under the ``pokertable`` namespace
with an editable package-dir mapping that points back at the real folders, so the copy
would never be imported. Cosmic Ray mutates the real file and restores it after each
mutant, so the installed namespace sees every mutant. If the job is killed half-way,
``git checkout`` the module it was on.

Every test run gets an empty bytecode cache (``PYTHONPYCACHEPREFIX``): a mutant that
keeps the file's size within the same second would otherwise run the stale ``.pyc``.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Target:
    module: str  # path from the repository root
    tests: tuple[str, ...]  # pytest arguments: the module's own test selection
    functions: tuple[str, ...] = ()  # only these functions/methods (empty: the whole module)


TARGETS: dict[str, Target] = {
    "journal": Target("controller/journal.py", ("tests/app/test_journal_files.py",)),
    "outbox": Target(
        "mqtt/outbox.py", ("tests/mqtt/test_mqtt_outbox.py", "--doctest-modules", "mqtt/outbox.py")
    ),
    "pots": Target(
        "controller/pots.py",
        (
            "tests/engine/test_engine_rules.py",
            "tests/engine/test_odd_chips_R20A.py",
            "tests/profiles/test_profile_cases.py",
            "--doctest-modules",
            "controller/pots.py",
        ),
    ),
    "wire": Target(
        "firmware/wire.py",
        ("tests/firmware/test_wire_codec.py", "tests/firmware/test_wire_cross.py"),
    ),
    "betting": Target(
        "controller/betting.py",
        ("tests/engine", "--ignore=tests/engine/test_pokerkit_differential.py"),
    ),
    "engine": Target(
        "controller/engine.py",
        ("tests/engine", "--ignore=tests/engine/test_pokerkit_differential.py", "tests/profiles"),
    ),
    "interpretation": Target(
        "controller/interpretation/chips.py", ("tests/interpretation",)
    ),
    "irregularities": Target(
        "controller/irregularities/dealing.py", ("tests/irregularities",)
    ),
}


def function_lines(module: Path, names: tuple[str, ...]) -> list[str]:
    """Line ranges ("a-b") of the named functions or methods, for Cosmic Ray's line filter."""
    ranges = []
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in names:
            ranges.append(f"{node.lineno}-{node.end_lineno}")
    return ranges


def write_config(name: str, target: Target, out: Path, timeout_s: float) -> Path:
    nopyc = out / "nopyc"
    nopyc.mkdir(parents=True, exist_ok=True)
    test_command = (
        f"env PYTHONDONTWRITEBYTECODE=1 PYTHONPYCACHEPREFIX={nopyc} {shlex.quote(sys.executable)}"
        " -m pytest -x -q -p no:cacheprovider -p no:warnings "
        + " ".join(shlex.quote(t) for t in target.tests)
    )
    lines = [
        "[cosmic-ray]",
        f'module-path = "{target.module}"',
        f"timeout = {timeout_s}",
        "excluded-modules = []",
        f"test-command = {json.dumps(test_command)}",  # a JSON string is a TOML basic string
        "",
        "[cosmic-ray.distributor]",
        'name = "local"',
    ]
    if target.functions:
        spans = function_lines(ROOT / target.module, target.functions)
        lines += ["", "[cosmic-ray.filters.line-filter.lines]",
                  f"{json.dumps(target.module)} = {json.dumps(spans)}"]
    config = out / f"{name}.toml"
    config.write_text("\n".join(lines) + "\n")
    return config


def run_target(name: str, target: Target, out: Path, timeout_s: float) -> tuple[int, int, int]:
    """Run one target; returns (killed, survived, not run) and writes the survivors file."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    config = write_config(name, target, out, timeout_s)
    session = out / f"{name}.sqlite"
    session.unlink(missing_ok=True)
    bin_dir = Path(sys.executable).parent
    subprocess.run([bin_dir / "cosmic-ray", "init", config, session], cwd=ROOT, check=True)
    if target.functions:
        subprocess.run([bin_dir / "cr-filter-lines", "--config", config, session], cwd=ROOT,
                       check=True)
    subprocess.run([bin_dir / "cosmic-ray", "exec", config, session], cwd=ROOT, check=True)
    killed = survived = other = 0
    report = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome is WorkerOutcome.SKIPPED:
                continue
            if result.test_outcome is TestOutcome.SURVIVED:
                survived += 1
                report.append(f"# {item.job_id}\n{result.diff}\n")
            elif result.test_outcome in (TestOutcome.KILLED, TestOutcome.INCOMPETENT):
                killed += 1
            else:
                other += 1
    (out / f"{name}-survivors.txt").write_text("".join(report))
    return killed, survived, other


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(TARGETS), default=None)
    parser.add_argument("--out", type=Path, default=ROOT / ".mutation")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds one test run may take before the mutant counts as hung")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    os.chdir(ROOT)
    for name in args.only or list(TARGETS):
        killed, survived, other = run_target(name, TARGETS[name], args.out, args.timeout)
        total = killed + survived
        score = 100.0 * killed / total if total else 0.0
        print(f"{name:15s} {TARGETS[name].module:40s} killed {killed:4d}/{total:4d}"
              f" = {score:5.1f}%  (not run: {other})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
