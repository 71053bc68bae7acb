"""The broadcast data feed (issue #31): the relay serves the delayed public state as flat
JSON and CSV over HTTP for vMix, Singular and OBS, and the delay holds there as on the
overlay page: no hole card (no state at all) before the broadcast delay has passed.

The hand is played through ``TableSession``; the table's messages go out on the shipped
broker with the table's own login; the relay and its HTTP server are the real ones."""

from __future__ import annotations

import csv
import io
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX, TABLE_LOGIN, USERS, Watcher
from pokertable.bench.waiting import wait_for
from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.broadcast_feed import COLUMNS, BroadcastFeed
from pokertable.room.overlay_service import OverlayService, load_layout, page_config
from tests.app.session_table import Table

PLAYERS = ((1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000))
HOLES = {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")}
DELAY_S = 8.0


def _get(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.headers["Content-Type"], response.read().decode()


def test_feed_after_the_hand_has_no_equity_and_the_pot_is_the_awards() -> None:
    """A complete hand: the pots are awarded (no bets added), no seat shows an equity."""
    feed = BroadcastFeed(delay_s=0, table="t9")
    feed.released("broadcast/equities", {"hand_id": "h1", "seats": []})
    feed.released(
        "broadcast/state",
        {
            "hand_id": "h1",
            "street": "complete",
            "board": [],
            "level": {"number": 1},
            "pots": [{"amount": 900, "eligible": [1]}],
            "seats": [
                {"seat": 1, "player": "Ann", "stack": 5900, "bet": 300, "status": "active"},
                {"seat": 4, "player": None, "stack": 0, "bet": 0, "status": "empty"},
            ],
        },
    )
    [row] = feed.rows()
    assert (row["pot"], row["equity"], row["table"]) == (900, "", "t9")
    assert list(row) == list(COLUMNS)


@pytest.mark.needs("mosquitto")
def test_feed_over_http_is_delayed_and_flat(tmp_path: Path) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start(timeout=120)
    service = sender = None
    try:
        service = OverlayService(
            host="127.0.0.1",
            port=broker.port,
            venue="club",
            table="t9",
            delay_s=DELAY_S,
            relay_login=("broadcaster", USERS["broadcaster"]),
            http_port=0,
            page_config=page_config(f"ws://127.0.0.1:{broker.ws_port}", load_layout(None)),
        )
        service.start()
        assert service.wait_subscribed(), "the relay could not subscribe"
        base = service.url.rstrip("/")
        sender = Watcher(broker.port, TABLE_LOGIN, (f"{PREFIX}/cmd/#",))

        table = Table(PLAYERS, first_button=3)
        table.press("hand_start")
        for seat, cards in HOLES.items():
            for card in cards:
                table.card(f"seat{seat}.cards", card)
        table.press("check_call")  # Cat calls: 100 + 200 + 200 in front
        state = table_state(table.session, table.t)
        for seq, (seat, cards) in enumerate(HOLES.items(), 1):
            sender.publish(
                f"{PREFIX}/secure/hole_cards/{seat}",
                {
                    "venue": "club",
                    "table": "t9",
                    "session": "s",
                    "seq": seq,
                    "ts_ms": 1,
                    "schema_version": 1,
                    "hand_id": state["hand_id"],
                    "seat": seat,
                    "cards": list(cards),
                },
            )
        sender.publish(
            f"{PREFIX}/state",
            {
                **state,
                "venue": "club",
                "table": "t9",
                "session": "s",
                "seq": 9,
                "schema_version": 1,
            },
        )

        def holding_cards() -> bool:
            assert service is not None
            return any(
                leaf.startswith("broadcast/hole_cards/") for leaf in service.lane.held_leaves()
            )

        wait_for(holding_cards, "the relay holding the hole cards back", timeout=60)
        early_csv = _get(f"{base}/feed.csv")[1]
        early_json = json.loads(_get(f"{base}/feed.json")[1])
        early_seats = json.loads(_get(f"{base}/feed/seats.json")[1])
        assert holding_cards(), "the delay ran out before the feed was read: no check made"
        assert early_csv.strip() == ",".join(COLUMNS)  # the header, no seat, no card
        assert early_seats == []
        assert not any(k.endswith("_cards") for k in early_json)
        assert early_json["delay_s"] == DELAY_S and early_json["hand_id"] == ""

        def released() -> list[dict[str, Any]] | None:
            rows = list(csv.DictReader(io.StringIO(_get(f"{base}/feed.csv")[1])))
            return rows if rows and all(r["cards"] for r in rows) and rows[0]["equity"] else None

        rows = wait_for(released, "the delayed cards and equities in the feed", timeout=120)
        assert not holding_cards()
        by_seat = {int(r["seat"]): r for r in rows}
        assert {s: r["cards"] for s, r in by_seat.items()} == {1: "As Ad", 2: "Ks Kd", 3: "Qs Qd"}
        assert {s: r["name"] for s, r in by_seat.items()} == {1: "Ann", 2: "Bob", 3: "Cat"}
        assert {s: (int(r["stack"]), int(r["bet"])) for s, r in by_seat.items()} == {
            1: (4900, 100),
            2: (4800, 200),
            3: (4800, 200),
        }
        assert all(
            r["pot"] == "500"
            and r["level"] == "1"
            and r["big_blind"] == "200"
            and r["street"] == "preflop"
            for r in rows
        )
        assert (
            float(by_seat[1]["equity"]) > float(by_seat[2]["equity"]) > float(by_seat[3]["equity"])
        )

        content_type, body = _get(f"{base}/feed.json")
        flat = json.loads(body)
        assert content_type == "application/json"
        assert all(not isinstance(v, (dict, list)) for v in flat.values())  # flat
        assert (flat["seat1_name"], flat["seat1_cards"], flat["pot"]) == ("Ann", "As Ad", 500)
        seats = json.loads(_get(f"{base}/feed/seats.json")[1])
        assert [s["seat"] for s in seats] == [1, 2, 3]
        assert _get(f"{base}/feed.csv")[0].startswith("text/csv")
    finally:
        if sender is not None:
            sender.stop()
        if service is not None:
            service.stop()
        broker.stop()
