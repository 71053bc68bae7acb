"""``pokertable demo --floor`` as a person runs it: the demo prints where the floor console
and the clock display are, and both pages in Debian's Chromium show the demo's table
playing and the clock running."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from typing import Any

import pytest

from pokertable.bench.table_rig import REPO
from pokertable.bench.waiting import wait_for
from tests.room.conftest import ARTIFACTS


@pytest.mark.needs("micropython")
def test_demo_floor_prints_the_console_and_the_clock_and_they_show_the_table(
    browser: Any,
) -> None:
    demo = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pokertable.controller.cli",
            "demo",
            "--floor",
            "--players",
            "3",
            "--floor-pause",
            "0.2",
        ],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert demo.stderr is not None
        for line in demo.stderr:
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:

        def url(name: str) -> str | None:
            found = [
                line.split(": ", 1)[1].split()[0] for line in lines if line.startswith(f"{name}: ")
            ]
            return found[0] if found else None

        floor_url = wait_for(lambda: url("floor console"), "the console's URL", timeout=180)
        clock_url = wait_for(lambda: url("clock display"), "the clock's URL")
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(floor_url)
        page.fill("#username", "director")
        page.fill("#password", "demo")
        page.click("#login button")
        page.wait_for_function(
            "() => /hand [1-9]/.test(document.querySelector(\".table[data-table='t1'] .hand\")"
            "?.textContent || '')",
            timeout=180_000,
        )
        page.wait_for_function(
            "() => document.getElementById('room-clock').textContent.startsWith('Level 1')",
            timeout=60_000,
        )
        rows = page.eval_on_selector_all(
            ".table[data-table='t1'] tbody tr td:nth-child(2)", "els => els.map(e => e.textContent)"
        )
        assert rows == ["Ada", "Ben", "Cleo"]
        page.screenshot(path=str(ARTIFACTS / "demo-floor.png"), full_page=True)

        big = browser.new_page(viewport={"width": 1280, "height": 720})
        big.goto(clock_url)
        big.wait_for_function(
            "() => document.getElementById('blinds').textContent === '100 / 200'"
            " && document.getElementById('players').textContent === 'Players 3'",
            timeout=60_000,
        )
    finally:
        demo.send_signal(signal.SIGINT)
        try:
            demo.wait(60)
        except subprocess.TimeoutExpired:
            demo.kill()
            demo.wait(10)
