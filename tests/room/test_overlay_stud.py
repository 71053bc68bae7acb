"""A stud hand on the room's pages (issue #30): the broadcast overlay and the floor console
in Debian's Chromium show the game of the level, each seat's upcards, who brought it in
and who opens the street (TDA RP-10-D, RP-10-E); the relay computes no board-game
equities for stud. The screenshot in docs/overlay.md (overlay-stud.png) is from this test.

The state is what the table publishes (mqtt/schemas/state.json, validated here), sent on
the shipped broker with the table's login; the relay, the console and the pages are the
real ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX, TABLE_LOGIN, USERS, Watcher
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.mqtt.payloads import SCHEMA_VERSION, validate
from pokertable.room.broadcast import BroadcastLane
from pokertable.room.floor_service import console
from pokertable.room.overlay_service import OverlayService, load_layout, page_config
from tests.room.conftest import ARTIFACTS, signed_in

pytestmark = pytest.mark.needs("mosquitto", "chromium")

DOCS = Path(__file__).resolve().parents[2] / "docs"
# Fifth street of a stud hand, four players. Cat's 2c was the low upcard (RP-10-E: she
# brought it in for 50); Bob folded on fourth; Ann's pair of sevens showing opens fifth
# street (RP-10-D). Each seat: the two downcards, then the upcards as dealt.
SEATS = {
    1: ("Ann", ("Ah", "Kd"), ("7c", "7d", "Qs")),
    2: ("Bob", ("9s", "9h"), ()),
    3: ("Cat", ("3d", "4d"), ("2c", "5h", "Jd")),
    4: ("Dev", ("Tc", "Th"), ("8h", "Ts", "6c")),
}
LEVEL = {"number": 4, "small_blind": 100, "big_blind": 200, "ante": 25,
         "ante_format": "per_player", "bring_in": 50, "game": "F7S"}


def stud_state(seq: int) -> dict[str, Any]:
    """The table's state on fifth street, Ann to act (what ``table_state`` publishes)."""
    seats: list[dict[str, Any]] = []
    for number in range(1, 7):
        if number not in SEATS:
            seats.append({"seat": number, "player": None, "stack": 0, "bet": 0,
                          "status": "empty", "cards_held": 0})
            continue
        name, _, up = SEATS[number]
        folded = not up
        seats.append({"seat": number, "player": name, "stack": 4400 if folded else 3975,
                      "bet": 0, "status": "folded" if folded else "active",
                      "cards_held": 0 if folded else 2 + len(up), "upcards": list(up)})
    state = {
        "ts_ms": 1000 + seq, "hand_id": "t9-h00012", "hand_number": 12, "level": LEVEL,
        "pending_level": None, "game": "F7S", "paused": False, "hand_for_hand": False,
        "deal_held": False, "runout_held": False, "clock": None, "penalties": [],
        "button": None, "big_blind_seat": None, "street": "fifth",
        "stud": {"bring_in_seat": 3, "bring_in": 50, "bring_in_posted": True,
                 "opener_seat": 1, "small_bet": 200, "big_bet": 400},
        "board": [], "pots": [{"amount": 1900, "eligible": [1, 3, 4]}], "awards": [],
        "seats": seats, "action_on": 1, "to_call": 0, "min_raise_to": 400,
        "substantial_action": True, "alerts": [],
        "venue": "club", "table": "t9", "session": "s", "seq": seq,
        "schema_version": SCHEMA_VERSION,
    }
    validate("state", state)
    return state


def test_overlay_and_floor_console_show_the_stud_hand_RP10D_RP10E(
    tmp_path: Path, browser: Any
) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start(timeout=120)
    service = None
    sender = None
    floor = None
    try:
        service = OverlayService(
            host="127.0.0.1", port=broker.port, venue="club", table="t9", delay_s=0.5,
            relay_login=("broadcaster", USERS["broadcaster"]), http_port=0, heartbeat_s=0.3,
            page_config=page_config(f"ws://127.0.0.1:{broker.ws_port}", load_layout(None)),
        )
        service.start()
        assert service.wait_subscribed(), "the relay could not subscribe"
        floor = console("club", f"ws://127.0.0.1:{broker.ws_port}")
        floor.start()
        sender = Watcher(broker.port, TABLE_LOGIN, (f"{PREFIX}/cmd/#",))
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(service.url)
        page.wait_for_selector("#connection.online", state="attached", timeout=60_000)

        sender.publish(f"{PREFIX}/status", {"state": "online", "schema": SCHEMA_VERSION,
                                            "schema_version": SCHEMA_VERSION})
        sender.publish(f"{PREFIX}/state", stud_state(1))
        for number in (1, 3):  # the hole cards the table read, released after the delay
            _, down, up = SEATS[number]
            sender.publish(f"{PREFIX}/secure/hole_cards/{number}", {
                "hand_id": "t9-h00012", "seat": number, "cards": [*down, up[0]],
                "ts_ms": 900, "schema_version": SCHEMA_VERSION})
        page.wait_for_function(
            "() => document.querySelectorAll('.seat[data-seat=\"3\"] .card:not(.back)')"
            ".length === 5", timeout=120_000)

        assert page.inner_text("#game") == (
            "Stud \u00b7 limits 200/400 \u00b7 ante 25 \u00b7 bring-in 50 \u00b7 fifth street")
        assert page.inner_text("#stud") == (
            "Cat brought it in for 50 \u00b7 Ann opens fifth street")
        assert page.inner_text("#board") == ""

        def cards(seat: int, selector: str = ".card") -> list[str | None]:
            return [c.get_attribute("data-card") for c in
                    page.query_selector_all(f".seat[data-seat='{seat}'] {selector}")]

        # Downcards first (known once released, else backs), then the upcards as dealt.
        assert cards(1) == ["Ah", "Kd", "7c", "7d", "Qs"]
        assert cards(3, ".card.up") == ["2c", "5h", "Jd"]
        assert cards(4) == [None, None, "8h", "Ts", "6c"]
        assert cards(4, ".card.up") == ["8h", "Ts", "6c"]
        assert cards(2) == []  # folded: the upcards are turned down
        assert page.inner_text(".seat[data-seat='1'] .tags").lower() == "opens"
        assert page.inner_text(".seat[data-seat='3'] .tags").lower() == "bring-in"
        assert page.inner_text(".seat[data-seat='4'] .tags") == ""
        assert page.inner_text(".seat[data-seat='1'] .win") == ""  # no hold'em equities
        page.screenshot(path=str(DOCS / "overlay-stud.png"), omit_background=True)

        desk = signed_in(browser, floor.url, "director", tables=())
        sender.publish(f"{PREFIX}/status", {"state": "online", "schema": SCHEMA_VERSION,
                                            "schema_version": SCHEMA_VERSION})
        sender.publish(f"{PREFIX}/state", stud_state(2))  # the table's next state
        table = ".table[data-table='t9']"
        desk.wait_for_function(
            f"() => document.querySelector(\"{table} .level\").textContent.includes('Stud')",
            timeout=60_000)
        assert desk.inner_text(f"{table} .level") == (
            "level 4: Stud \u00b7 limits 200/400 \u00b7 ante 25 \u00b7 bring-in 50")
        assert desk.inner_text(f"{table} .stud") == (
            "fifth street \u00b7 Cat brought it in for 50 \u00b7 Ann opens fifth street")
        showing = {
            row.get_attribute("data-seat"): row.query_selector("td.showing").inner_text()
            for row in desk.query_selector_all(f"{table} .players tbody tr")
        }
        assert showing == {"1": "7c 7d Qs (opens)", "2": "", "3": "2c 5h Jd (bring-in)",
                           "4": "8h Ts 6c"}
        desk.screenshot(path=str(ARTIFACTS / "floor-stud.png"), full_page=True)
    finally:
        if floor is not None:
            floor.stop()
        if sender is not None:
            sender.stop()
        if service is not None:
            service.stop()
        broker.stop()


def test_no_board_game_equities_are_published_during_a_stud_hand() -> None:
    """Four stud cards would pass for an Omaha hand: the relay computes none for stud."""
    state = stud_state(1)
    lane = BroadcastLane(delay_s=0)
    lane.on_message("state", state, now_s=0)
    sent = []
    for number in (1, 3, 4):
        _, down, up = SEATS[number]
        sent += lane.on_message(
            f"secure/hole_cards/{number}",
            {"hand_id": state["hand_id"], "seat": number, "cards": [*down, *up[:2]]},
            now_s=0,
        )
    assert not any(m.leaf == "secure/equities" for m in sent)
