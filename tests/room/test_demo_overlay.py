"""``pokertable demo --overlay`` as a newcomer runs it: the real command prints the page's
URL, and that URL opened in Debian's Chromium shows the demo's table (its players, their
hole cards and win %, the board as it is dealt) while the demo plays its hands."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from typing import Any

import pytest

from pokertable.bench.table_rig import REPO
from pokertable.bench.waiting import wait_for
from tests.room.conftest import ARTIFACTS

pytestmark = pytest.mark.needs("micropython", "chromium")

PLAYERS = ["Ada", "Ben", "Cleo"]  # the demo's first three names


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Output:
    """The demo's stdout, line by line, read on a thread so the test never blocks on it."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._thread.start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            with self._lock:
                self.lines.append(line.rstrip("\n"))

    def matching(self, pattern: str) -> list[re.Match[str]]:
        with self._lock:
            return [m for line in self.lines if (m := re.search(pattern, line))]

    def text(self) -> str:
        with self._lock:
            return "\n".join(self.lines[-20:])


def test_demo_overlay_prints_a_url_whose_page_shows_the_table(browser: Any) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pokertable.controller.cli",
            "demo",
            "--overlay",
            "--overlay-port",
            "0",
            "--players",
            "3",
            "--hands",
            "0",
            "--seed",
            "7",
        ],
        cwd=REPO,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        # Ctrl-C must reach it even when the suite runs as a background job (which ignores
        # SIGINT, and a child would inherit that)
        preexec_fn=_default_sigint,
    )
    out = Output(process)
    try:
        [url] = wait_for(
            lambda: out.matching(r"overlay page: (http://\S+)"),
            "the overlay page's URL",
            timeout=180,
        )
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(url.group(1))
        page.wait_for_selector("#connection.online", state="attached", timeout=60_000)
        # the table's players, and a hand in play: hole cards with a win % for each seat
        page.wait_for_function(
            "() => document.querySelectorAll('#seats .seat').length === 3 &&"
            " document.querySelectorAll('#seats .card[data-card]').length >= 4 &&"
            " [...document.querySelectorAll('#seats .win')].some(e => e.textContent)",
            timeout=180_000,
        )
        names = page.eval_on_selector_all(".seat .name", "els => els.map(e => e.textContent)")
        assert names == PLAYERS
        # a board comes out in one of the first hands: the page draws it
        page.wait_for_function(
            "() => document.querySelectorAll('#board .card').length >= 3", timeout=180_000
        )
        page.screenshot(path=str(ARTIFACTS / "demo-overlay.png"), omit_background=True)
        wait_for(lambda: out.matching(r"^hand 2 "), "two hands played", timeout=300)
    finally:
        process.send_signal(signal.SIGINT)  # Ctrl-C, as a newcomer stops it
        try:
            code = process.wait(120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(30)
            raise AssertionError(f"the demo did not stop on Ctrl-C: {out.text()}") from None
    assert code == 130, out.text()  # stopped cleanly: no traceback, every part shut down
