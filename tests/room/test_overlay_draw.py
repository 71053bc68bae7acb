"""A draw hand on the room's pages (issue #30): the broadcast overlay and the floor console
in Debian's Chromium say which draw is under way, who is on it, and how many cards each
player drew or that he stood pat (R35-A7) — never which cards.

The hand is 2-7 triple draw played through ``TableSession`` (cards read on each seat's pad,
discards in the muck, standing pat by the dealer's check/call); what the table publishes
goes out on the shipped broker with the table's login to the real relay and pages."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX
from pokertable.mqtt.payloads import SCHEMA_VERSION
from pokertable.room.floor_service import console
from tests.app.draw_table import THREE, DrawTable
from tests.room.conftest import ARTIFACTS, overlay_on_air, signed_in
from tests.room.test_overlay_stud import stud_state as published


def second_seat_stood_pat() -> DrawTable:
    """Everybody limps, the big blind checks; on the first draw seat 1 (the small blind,
    first to draw) throws his king and is served, seat 2 stands pat; seat 3 is to draw."""
    table = DrawTable(THREE)
    table.to_first_draw()
    table.card("burn", "Jd")
    table.discard(1, "Ks")
    table.serve(1, "8d")
    table.press("check_call")  # seat 2 knocks: pat
    return table


@pytest.mark.needs("mosquitto", "chromium")
def test_overlay_and_floor_console_show_the_draw_under_way_R35A7(
    tmp_path: Path, browser: Any
) -> None:
    table = second_seat_stood_pat()
    state = published(table, 1)
    assert state["draw"]["on_draw"] == 3 and state["draw"]["round"] == 1
    with overlay_on_air(tmp_path, browser) as (page, sender, broker):
        floor = console("club", f"ws://127.0.0.1:{broker.ws_port}")
        floor.start()
        try:
            sender.publish(f"{PREFIX}/state", state)
            page.wait_for_function(
                "() => document.querySelector('#draw').textContent !== ''", timeout=120_000)
            assert page.inner_text("#game").startswith("2-7 triple draw \u00b7 limits 100/200")
            assert page.inner_text("#draw") == "first draw \u00b7 P3 to draw"
            tags = {seat: page.inner_text(f".seat[data-seat='{seat}'] .tags").lower()
                    for seat in (1, 2, 3)}
            assert tags == {1: "drew 1", 2: "pat", 3: "drawing"}
            page.screenshot(path=str(ARTIFACTS / "overlay-draw.png"), omit_background=True)

            # Served, seat 3 ends the draw: the betting after it says which draw it follows.
            table.discard(3, "Qs", "As")
            table.serve(3, "2s", "4d")
            after = published(table, 2)
            assert after["draw"]["drawing"] is False
            sender.publish(f"{PREFIX}/state", after)
            page.wait_for_function(
                "() => document.querySelector('#draw').textContent === 'after the first draw'",
                timeout=120_000)
            assert page.inner_text(".seat[data-seat='3'] .tags").lower() == "drew 2"

            online = {"state": "online", "schema": SCHEMA_VERSION,
                      "schema_version": SCHEMA_VERSION}
            for leaf, payload in (("status", online), ("state", state)):  # retained, as the
                sender.client.publish(f"{PREFIX}/{leaf}", json.dumps(payload), qos=1,  # table's
                                      retain=True).wait_for_publish(30)
            desk = signed_in(browser, floor.url, "director")
            box = ".table[data-table='t9']"
            desk.wait_for_function(
                f"() => (document.querySelector(\"{box} .stud\") || {{}}).textContent"
                "?.includes('draw')", timeout=60_000)
            assert desk.inner_text(f"{box} .stud") == "first draw \u00b7 P3 to draw"
            status = {row.get_attribute("data-seat"): row.query_selector_all("td")[4].inner_text()
                      for row in desk.query_selector_all(f"{box} .players tbody tr")}
            assert status == {"1": "active \u00b7 drew 1", "2": "active \u00b7 pat",
                              "3": "active \u00b7 drawing"}
            desk.screenshot(path=str(ARTIFACTS / "floor-draw.png"), full_page=True)
        finally:
            floor.stop()


def test_the_terminal_view_tags_each_seat_at_the_draw_R35A7() -> None:
    """``pokertable watch``: five bars per seat, and drew/pat/drawing at this draw."""
    from rich.console import Console

    from pokertable.mqtt.watch import TableView, render_table

    view = TableView("club", "t9", state=published(second_seat_stood_pat(), 1), status="online")
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(render_table(view))
    text = out.getvalue()
    assert "▮▮▮▮▮ (drew 1)" in text and "▮▮▮▮▮ (pat)" in text and "▮▮▮▮▮ (drawing)" in text
