"""Shared parts of the room's tests: a real table to watch, a broker for the room's
services, and Debian's Chromium."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX, TABLE_LOGIN, USERS, TableRig, Watcher
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.mqtt.payloads import SCHEMA_VERSION
from pokertable.room.clock_service import ClockService

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
"""Screenshots the browser tests keep (gitignored)."""

Players = list[tuple[int, str, int]]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Callable[..., TableRig]]:
    """A factory: ``table(players, first_button)`` starts a real table; closed after.
    ``table(..., table_id="t8", broker=first.broker)`` adds a table to the same room."""
    made: list[TableRig] = []

    def make(players: Players, first_button: int, **room: Any) -> TableRig:
        rig = TableRig(tmp_path / f"table{len(made)}", players, first_button, **room)
        made.append(rig)
        rig.start_controller()
        # a cold start under load (both cores busy) can take tens of seconds
        rig.overlay.wait_state(lambda s: s["hand_number"] == 0, "the table's first state",
                               timeout=180)
        return rig

    yield make
    for rig in reversed(made):  # the table that owns the broker closes last
        rig.close()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[MosquittoProcess]:
    """mosquitto with the shipped config and ACL and the rig's logins (``USERS``), both
    listeners up: the room's services without a table (the restart drills)."""
    process = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    process.start()
    try:
        yield process
    finally:
        process.stop()


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


def signed_in(browser: Any, url: str, login: str, tables: tuple[str, ...] = ("t9",)) -> Any:
    """A floor console page signed in as ``login`` (the rig's password), once it shows
    every table in ``tables`` online."""
    from pokertable.bench.table_rig import USERS

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url)
    page.fill("#username", login)
    page.fill("#password", USERS[login])
    page.click("#login button")
    for name in tables:
        page.wait_for_selector(f".table[data-table='{name}'] .status.online", timeout=60_000)
    return page


def room_clock(broker: MosquittoProcess, structure_text: str, **options: Any) -> ClockService:
    """The venue "club"'s clock service on ``broker``, signed in as the clock role (not
    started); ``options``: ClockService's others, e.g. ``prize_pool``."""
    return ClockService(host="127.0.0.1", port=broker.port, venue="club",
                        structure_text=structure_text, login=("clock", USERS["clock"]),
                        **options)


@contextmanager
def clock_and_display(broker: MosquittoProcess, structure_text: str) -> Iterator[str]:
    """The room clock on ``broker`` running ``structure_text`` and its big display;
    yields the display's URL once the clock is subscribed, and stops both after."""
    from pokertable.room.clock_service import display

    service = room_clock(broker, structure_text)
    service.start()
    try:
        assert service.subscribed.wait(60), "the clock could not subscribe"
        pages = display("club", f"ws://127.0.0.1:{broker.ws_port}")
        pages.start()
        try:
            yield pages.url
        finally:
            pages.stop()
    finally:
        service.stop()


@contextmanager
def overlay_on_air(tmp_path: Path, browser: Any) -> Iterator[tuple[Any, Watcher, MosquittoProcess]]:
    """The broadcast overlay of table t9 live in Chromium (1920x1080): the shipped broker
    with its logins, the real relay, and a sender holding the table's login that has said
    the table is online. Yields (page, sender, broker); what the sender publishes as the
    table reaches the page after the relay's delay."""
    from pokertable.room.overlay_service import OverlayService, load_layout, page_config

    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start(timeout=120)
    service = sender = None
    try:
        service = OverlayService(
            host="127.0.0.1", port=broker.port, venue="club", table="t9", delay_s=0.5,
            relay_login=("broadcaster", USERS["broadcaster"]), http_port=0, heartbeat_s=0.3,
            page_config=page_config(f"ws://127.0.0.1:{broker.ws_port}", load_layout(None)),
        )
        service.start()
        assert service.wait_subscribed(), "the relay could not subscribe"
        sender = Watcher(broker.port, TABLE_LOGIN, (f"{PREFIX}/cmd/#",))
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(service.url)
        page.wait_for_selector("#connection.online", state="attached", timeout=60_000)
        sender.publish(f"{PREFIX}/status", {"state": "online", "schema": SCHEMA_VERSION,
                                            "schema_version": SCHEMA_VERSION})
        yield page, sender, broker
    finally:
        if sender is not None:
            sender.stop()
        if service is not None:
            service.stop()
        broker.stop()
