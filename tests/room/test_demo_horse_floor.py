"""``pokertable demo --game horse --floor`` as a person runs it (issue #30): the clock display
and the floor console in Debian's Chromium follow the HORSE rotation, showing the game of
the level, and during a stud hand the floor console shows the street, the bring-in, the
opener and each seat's upcards."""

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


@pytest.mark.needs("micropython", "chromium")
def test_horse_demo_floor_pages_show_the_game_of_each_level_and_the_stud_hand(
    browser: Any,
) -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "pokertable.controller.cli", "demo", "--floor", "--game",
         "horse", "--hands", "5", "--players", "3", "--floor-pause", "0.2"],
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

    threading.Thread(target=read, daemon=True).start()
    try:

        def url(name: str) -> str | None:
            found = [line.split(": ", 1)[1].split()[0] for line in lines
                     if line.startswith(f"{name}: ")]
            return found[0] if found else None

        floor_url = wait_for(lambda: url("floor console"), "the console's URL", timeout=180)
        clock_url = wait_for(lambda: url("clock display"), "the clock's URL")
        big = browser.new_page(viewport={"width": 1280, "height": 720})
        big.goto(clock_url)
        big.wait_for_function(  # five hands: one a game, so level 1 is limit hold'em
            "() => document.getElementById('blinds').textContent"
            " === 'Limit hold\\'em \\u00b7 100 / 200'", timeout=120_000)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(floor_url)
        page.fill("#username", "director")
        page.fill("#password", "demo")
        page.click("#login button")
        # A stud hand (razz, stud or stud hi-lo: hands 3 to 5) on the floor console.
        table = ".table[data-table='t1']"
        page.wait_for_function(
            f"() => {{ const stud = document.querySelector(\"{table} .stud\");"
            " return Boolean(stud) && !stud.hidden"
            " && /street .* (brought it in|to bring it in|had the bring-in)/.test(stud.textContent)"
            f" && [...document.querySelectorAll(\"{table} td.showing\")]"
            ".some((td) => /^[2-9TJQKA][cdhs]/.test(td.textContent)); }",
            timeout=300_000,
        )
        level = page.inner_text(f"{table} .level")
        assert any(game in level for game in ("Razz", "Stud")), level
        assert "bring-in 50" in level
        page.screenshot(path=str(ARTIFACTS / "demo-floor-stud.png"), full_page=True)
        big.wait_for_function(
            "() => /^(Razz|Stud|Stud hi-lo) \\u00b7 limits 200\\/400 \\u00b7 ante 25"
            " \\u00b7 bring-in 50$/.test(document.getElementById('blinds').textContent)",
            timeout=60_000,
        )
        big.screenshot(path=str(ARTIFACTS / "clock-display-stud.png"))
    finally:
        demo.send_signal(signal.SIGINT)
        try:
            demo.wait(60)
        except subprocess.TimeoutExpired:
            demo.kill()
            demo.wait(10)
