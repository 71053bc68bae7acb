"""The seat-draw display (issue #31): every player still in, alphabetically, with his table
and seat, from the clock's leaderboard, read anonymously over the broker's WebSockets like
the clock display; a move or a redraw is highlighted. Debian's Chromium, the shipped
mosquitto and ACL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import USERS, Watcher
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.clock_service import display

DOCS = Path(__file__).resolve().parents[2] / "docs"
TOPIC = "pokertable/v1/club/leaderboard"


def _board(rows: list[tuple[str, str, int, int]]) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "players_left": len(rows),
        "chips_in_play": 0,
        "average_stack": None,
        "audit": None,
        "rows": [
            {"rank": n, "player": p, "table": t, "seat": s, "stack": c, "big_blinds": None}
            for n, (p, t, s, c) in enumerate(rows, 1)
        ],
    }


def _publish(clock: Watcher, rows: list[tuple[str, str, int, int]]) -> None:
    """The clock's leaderboard with these rows, retained, as the clock publishes it."""
    clock.client.publish(TOPIC, json.dumps(_board(rows)), qos=1, retain=True).wait_for_publish(5)


@pytest.mark.needs("mosquitto")
def test_seat_draw_lists_everyone_and_highlights_a_move(tmp_path: Path, browser: Any) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start(timeout=120)
    clock = pages = None
    try:
        clock = Watcher(broker.port, "clock", (TOPIC,), client_id="seat-draw-clock")
        first = [
            ("Cat", "t9", 3, 9000),
            ("ann", "t9", 1, 8000),
            ("Bob", "t8", 2, 7000),
            ("Dan", "t8", 5, 6000),
        ]
        _publish(clock, first)
        pages = display("club", f"ws://127.0.0.1:{broker.ws_port}")
        pages.start()
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(pages.url.replace("/clock_display/", "/seat_draw/"))
        page.wait_for_selector("#draw li[data-player='Dan']", timeout=60_000)
        names = page.eval_on_selector_all("#draw li", "els => els.map(e => e.dataset.player)")
        assert names == ["ann", "Bob", "Cat", "Dan"]
        assert page.inner_text("#draw li[data-player='Bob'] .where") == "Table t8 · Seat 2"
        assert page.eval_on_selector_all("#draw li.moved", "els => els.length") == 0
        assert page.inner_text("#summary") == "4 players · 2 tables"
        # a balancing move: Bob to t9 seat 4; stacks change too (no highlight for that)
        moved = [
            ("Cat", "t9", 3, 9100),
            ("ann", "t9", 1, 7900),
            ("Bob", "t9", 4, 7000),
            ("Dan", "t8", 5, 6000),
        ]
        _publish(clock, moved)
        page.wait_for_selector("#draw li.moved[data-player='Bob']", timeout=60_000)
        assert page.eval_on_selector_all("#draw li.moved", "els => els.length") == 1
        assert page.inner_text("#draw li[data-player='Bob'] .where") == "Table t9 · Seat 4"
        page.screenshot(path=str(DOCS / "seat-draw.png"))
    finally:
        if pages is not None:
            pages.stop()
        if clock is not None:
            clock.stop()
        broker.stop()
