"""Two floor tablets on one shared login (issue #27): each page has its own client id, so
neither takes the other's session over; both stay live and both can act."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pokertable.bench.table_rig import TableRig
from pokertable.room.floor_service import console
from tests.room.conftest import signed_in


@pytest.mark.needs("mosquitto", "micropython")
def test_two_tablets_on_the_floor_login_both_stay_connected_and_act(
    table: Callable[..., TableRig], browser: Any
) -> None:
    rig = table([(1, "Ann", 5000), (2, "Bob", 5000)], 1)
    floor = console("club", f"ws://127.0.0.1:{rig.broker.ws_port}")
    floor.start()
    try:
        first = signed_in(browser, floor.url, "floor")
        second = signed_in(browser, floor.url, "floor")
        card = ".table[data-table='t9']"
        first.click(f"{card} button[data-command='pause']")
        rig.overlay.wait_state(lambda s: s["paused"], "the table paused from the first tablet")
        for page in (first, second):  # both still receive the table's state
            page.wait_for_function(
                f"() => document.querySelector(\"{card} .hand\").textContent.includes('paused')",
                timeout=60_000)
        second.click(f"{card} button[data-command='resume']")
        rig.overlay.wait_state(lambda s: not s["paused"], "resumed from the second tablet")
        assert first.is_hidden("#offline") and second.is_hidden("#offline")
        log = rig.broker.log_path.read_text()
        assert "already connected" not in log, "a tablet took the other's session over"
    finally:
        floor.stop()
