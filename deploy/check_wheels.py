"""Check that the table's dependencies install as wheels on every supported Pi OS.

For each target (Pi OS Bookworm 64-bit and 32-bit, Python 3.11; Trixie 64-bit, 3.13) this
asks pip to *resolve and download* the runtime dependencies and the Pi's extras, with their
dependencies, from PyPI, accepting only wheels built for that machine: nothing may need a
compiler on the Pi. ``.ci/run`` runs it before the tests; docs/packaging.md explains the
choices (which extras, why ``lgpio`` comes from the OS).

    python3 deploy/check_wheels.py            # all targets, in parallel; exit 1 on a miss

pip is run ``--isolated`` with PyPI as its only index, so neither this machine's pip
configuration (a constraints file, local wheel folders) nor a cached local build can make
a dependency look available. One limit of ``pip download --platform``: pip evaluates the
*transitive* dependencies' environment markers for the machine it runs on (Linux CPython,
like the Pi); our own requirements' markers are evaluated here for each target.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _packaging(module: str) -> Any:
    """``packaging.<module>``, or, before the venv exists, the copy pip carries."""
    try:
        return importlib.import_module(f"packaging.{module}")
    except ModuleNotFoundError:
        return importlib.import_module(f"pip._vendor.packaging.{module}")


Requirement = _packaging("requirements").Requirement
default_environment = _packaging("markers").default_environment

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
INDEX = "https://pypi.org/simple"
EXTRAS = ("pi", "demo", "broadcast")
"""The extras a Pi owner installs: GPIO, the demo, the broadcast relay's equities."""
NOT_CHECKED = {
    ("broadcast", "armv7l"): "PyPI has no numpy wheel for armv7l (piwheels has)",
    ("demo", "armv7l"): "amqtt's dependencies (cffi among them) lack armv7l wheels on PyPI",
}
"""(extra, machine) pairs left out, and why: the relay runs on a 64-bit Pi or a PC."""
FROM_THE_OS = {"pi": "lgpio (python3-lgpio, seen through --system-site-packages)"}
"""Extras checked without their dependencies, and what Pi OS provides for them instead."""


@dataclass(frozen=True)
class Target:
    name: str
    machine: str  # platform.machine() on that Pi
    python: str  # major.minor
    glibc: tuple[int, int]  # the OS's glibc: the newest manylinux it can load
    known_gaps: tuple[tuple[str, str], ...] = ()
    """(dependency of a dependency, why) with no wheel on PyPI for this target: then only
    our own requirements must resolve as wheels (alone), and the gap is printed."""

    @property
    def abi(self) -> str:
        return "cp" + self.python.replace(".", "")

    def platform_tags(self) -> list[str]:
        """Every wheel platform tag pip on that Pi accepts (glibc-based: no musllinux).

        ``pip download --platform`` matches each tag exactly, so one tag alone would miss
        a wheel built for an older glibc: list them all, newest first."""
        major, newest = self.glibc
        tags = [f"manylinux_{major}_{minor}_{self.machine}" for minor in range(newest, 16, -1)]
        legacy = {"aarch64": ["manylinux2014"], "armv7l": ["manylinux2014"]}[self.machine]
        return [*tags, *(f"{name}_{self.machine}" for name in legacy), f"linux_{self.machine}"]

    def marker_environment(self) -> dict[str, str]:
        """What ``platform_machine``, ``python_version``... are on that Pi."""
        environment = {str(key): str(value) for key, value in default_environment().items()}
        environment.update(
            platform_machine=self.machine, python_version=self.python,
            python_full_version=f"{self.python}.0", sys_platform="linux",
            platform_system="Linux", os_name="posix", implementation_name="cpython",
            platform_python_implementation="CPython",
        )
        return environment


TARGETS = (
    Target("Pi OS Bookworm 64-bit", "aarch64", "3.11", (2, 36)),
    Target("Pi OS Bookworm 32-bit", "armv7l", "3.11", (2, 36), known_gaps=(
        ("cffi", "cryptography's dependency: no armv7l wheel on PyPI; Pi OS 32-bit's pip "
                 "takes it from piwheels (docs/packaging.md)"),)),
    Target("Pi OS Trixie 64-bit", "aarch64", "3.13", (2, 41)),
)


def requirements(project: dict[str, object], target: Target,
                 extras: tuple[str, ...] = EXTRAS) -> tuple[list[str], list[str]]:
    """(resolved with dependencies, resolved alone) requirement strings for ``target``:
    the runtime dependencies and ``extras``, each kept when its marker holds there."""
    table = project["project"]
    assert isinstance(table, dict)
    optional = table.get("optional-dependencies", {})
    groups = [("", list(table["dependencies"]))]
    groups += [(extra, list(optional[extra])) for extra in extras
               if (extra, target.machine) not in NOT_CHECKED]
    with_deps: list[str] = []
    alone: list[str] = []
    for extra, specs in groups:
        for spec in specs:
            requirement = Requirement(spec)
            environment = {**target.marker_environment(), "extra": extra}
            if requirement.marker is not None and not requirement.marker.evaluate(environment):
                continue
            requirement.marker = None
            (alone if extra in FROM_THE_OS else with_deps).append(str(requirement))
    return with_deps, alone


def pip_download(target: Target, specs: list[str], into: Path, *, deps: bool) -> list[str]:
    """The argument list of a wheels-only ``pip download`` for ``target``."""
    command = [
        sys.executable, "-m", "pip", "download", "--isolated", "--disable-pip-version-check",
        "--index-url", INDEX, "--only-binary=:all:", "--progress-bar", "off",
        "--implementation", "cp", "--python-version", target.python,
        "--abi", target.abi, "--abi", "abi3", "--abi", "none", "--dest", str(into),
    ]
    for tag in target.platform_tags():
        command += ["--platform", tag]
    if not deps:
        command.append("--no-deps")
    return [*command, *specs]


_NO_MATCH = re.compile(
    r"(?:Could not find a version that satisfies the requirement|"
    r"No matching distribution found for) (\S+)"
)


def missing_wheels(pip_output: str) -> list[str]:
    """The requirements pip found no wheel for, from its output (each named once)."""
    found: list[str] = []
    for name in _NO_MATCH.findall(pip_output):
        if name not in found:
            found.append(name)
    return found


@dataclass
class Outcome:
    target: Target
    ok: bool
    wheels: list[str]  # file names downloaded
    missing: list[str]
    detail: str  # pip's last error line when it failed for another reason
    gaps: list[str]  # known gaps that explained a failure with dependencies


def _run(target: Target, specs: list[str], into: Path, deps: bool) -> tuple[bool, str]:
    if not specs:
        return True, ""
    run = subprocess.run(pip_download(target, specs, into, deps=deps),
                         capture_output=True, text=True, check=False)
    return run.returncode == 0, run.stdout + run.stderr


def check(target: Target, project: dict[str, object]) -> Outcome:
    with_deps, alone = requirements(project, target)
    gaps: list[str] = []
    with tempfile.TemporaryDirectory(prefix="wheels-") as folder:
        into = Path(folder)
        ok, text = _run(target, with_deps, into, deps=True)
        if not ok and target.known_gaps:
            # pip names what needs the gap ("cryptography 50.0.2 depends on cffi>=2.0.0"):
            # those are checked alone, everything else still with its dependencies
            needing = {Requirement(spec).name: spec for spec in with_deps}
            culprits = {found for name, _ in target.known_gaps for found in re.findall(
                rf"(\S+) \S+ depends on {re.escape(name)}\b", text)} & set(needing)
            if culprits:
                rest = [spec for name, spec in needing.items() if name not in culprits]
                ok, text = _run(target, rest, into, deps=True)
                if ok:
                    ok, text = _run(target, [needing[n] for n in sorted(culprits)], into,
                                    deps=False)
                gaps = [f"{name} ({why})" for name, why in target.known_gaps] if ok else []
        if ok:
            ok, more = _run(target, alone, into, deps=False)
            text += more
        wheels = sorted(path.name for path in into.iterdir())
    missing = missing_wheels(text)
    errors = [line for line in text.splitlines() if line.startswith("ERROR")]
    return Outcome(target, ok and all(w.endswith(".whl") for w in wheels), wheels, missing,
                   "" if ok else (errors[-1] if errors else text.strip()[-300:]), gaps)


def compiled(wheels: list[str]) -> list[str]:
    """The wheels built for a machine (not ``none-any``): what the check is really about."""
    return [w.split("-")[0] for w in wheels if not w.endswith("-none-any.whl")]


def main() -> int:
    project = tomllib.loads(PYPROJECT.read_text("utf-8"))
    started = time.monotonic()
    with ThreadPoolExecutor(len(TARGETS)) as pool:
        outcomes = list(pool.map(lambda target: check(target, project), TARGETS))
    failed = 0
    for outcome in outcomes:
        target = outcome.target
        where = f"{target.name} ({target.machine}, cp{target.python.replace('.', '')})"
        if outcome.ok:
            print(f"wheels: {where}: {len(outcome.wheels)} wheels, built for the machine: "
                  f"{', '.join(compiled(outcome.wheels)) or 'none'}")
            for gap in outcome.gaps:
                print(f"wheels: {where}: known gap, not from PyPI: {gap}")
            continue
        failed += 1
        if outcome.missing:
            print(f"wheels: {where}: no wheel for {', '.join(outcome.missing)}", file=sys.stderr)
        else:
            print(f"wheels: {where}: pip failed: {outcome.detail}", file=sys.stderr)
    from_os = "; ".join(f"[{extra}] needs {what}" for extra, what in FROM_THE_OS.items())
    print(f"wheels: from the OS, not PyPI: {from_os}")
    for (extra, machine), why in NOT_CHECKED.items():
        print(f"wheels: [{extra}] not checked on {machine}: {why}")
    print(f"wheels: {len(TARGETS) - failed} of {len(TARGETS)} Pi targets resolve "
          f"({time.monotonic() - started:.1f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
