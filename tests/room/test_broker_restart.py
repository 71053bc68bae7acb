"""The broker restarts mid-tournament (issue #27): the pages say "offline — reconnecting"
and come back by themselves, the clock reconnects and says it is online again.

The screenshots in docs/floor.md and docs/clock.md are from this test. A real table, the
clock process, the floor console and the clock display in Debian's
Chromium, against a real mosquitto that is stopped and started on the same ports.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pokertable.bench.table_rig import USERS, TableRig
from pokertable.bench.waiting import wait_for
from pokertable.room.clock_service import ClockService, display
from pokertable.room.floor_service import console
from tests.room.conftest import ARTIFACTS, signed_in
from tests.room.test_takeover_drill import Recorder, _attacker

STRUCTURE = "[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = 20\n"


@pytest.mark.needs("mosquitto", "micropython")
def test_pages_show_offline_and_reconnect_when_the_broker_restarts(
    table: Callable[..., TableRig], browser: Any
) -> None:
    rig = table([(1, "Ann", 5000), (2, "Bob", 5000)], 1)
    service = ClockService(host="127.0.0.1", port=rig.broker.port, venue="club",
                           structure_text=STRUCTURE, login=("clock", USERS["clock"]))
    service.start()
    ws = f"ws://127.0.0.1:{rig.broker.ws_port}"
    floor, clock = console("club", ws), display("club", ws)
    floor.start()
    clock.start()
    try:
        page = signed_in(browser, floor.url, "director")
        big = browser.new_page(viewport={"width": 1280, "height": 720})
        big.goto(clock.url)
        big.wait_for_function("() => document.getElementById('blinds').textContent"
                              " === '100 / 200'", timeout=60_000)
        assert page.is_hidden("#offline") and big.is_hidden("#offline")

        rig.broker.stop()
        page.wait_for_selector("#offline", state="visible", timeout=60_000)
        big.wait_for_selector("#offline", state="visible", timeout=60_000)
        assert "offline — reconnecting" in page.inner_text("#offline")
        page.screenshot(path=str(ARTIFACTS / "floor-offline.png"))
        big.screenshot(path=str(ARTIFACTS / "clock-display-offline.png"))

        rig.broker.start()
        page.wait_for_selector("#offline", state="hidden", timeout=60_000)
        big.wait_for_selector("#offline", state="hidden", timeout=60_000)
        # the clock is back: its status (retained, online) and fresh display updates
        watcher = Recorder(rig.broker.port)
        try:
            wait_for(lambda: any(json.loads(p).get("state") == "online"
                                 for t, p in watcher.seen if t.endswith("/services/clock/clock")),
                     "the clock's status online again", timeout=60)
        finally:
            watcher.stop()
        assert service.client.is_connected()
        # the table came back too, and the console shows it
        page.wait_for_selector(".table[data-table='t9'] .status.online", timeout=60_000)
        director = _attacker(rig.broker.port, "director", "restart-director")
        assert director is not None
        director.publish("pokertable/v1/club/clock/control",
                         json.dumps({"command": "pause"}), 1).wait_for_publish(30)
        director.disconnect()
        director.loop_stop()
        big.wait_for_selector("#paused", state="visible", timeout=60_000)
    finally:
        clock.stop()
        floor.stop()
        service.stop()
