"""Shared parts of the room's tests: a real table to watch, and Debian's Chromium."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.table_rig import TableRig

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
"""Screenshots the browser tests keep (gitignored)."""

Players = list[tuple[int, str, int]]


def wait_for(predicate: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    """Wait on a condition; the limit is a last resort that names what never happened."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Callable[[Players, int], TableRig]]:
    """A factory: ``table(players, first_button)`` starts a real table; closed after."""
    made: list[TableRig] = []

    def make(players: Players, first_button: int) -> TableRig:
        rig = TableRig(tmp_path / f"table{len(made)}", players, first_button)
        made.append(rig)
        rig.start_controller()
        # a cold start under load (both cores busy) can take tens of seconds
        rig.overlay.wait_state(lambda s: s["hand_number"] == 0, "the table's first state",
                               timeout=180)
        return rig

    yield make
    for rig in made:
        rig.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium from Debian's package, driven by Playwright (never downloaded)."""
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()
