"""A stud hand on the room's pages (issue #30): the broadcast overlay and the floor console
in Debian's Chromium show the game of the level, each seat's upcards, who brought it in
and who opens the street (TDA RP-10-D, RP-10-E); the relay computes no board-game
equities for stud. The screenshot in docs/overlay.md (overlay-stud.png) is from this test.

The hand is played through ``TableSession`` (cards read on each seat's downcard and upcard
pads, the bring-in and the bets pushed as chips); what the table publishes goes out on the
shipped broker with the table's login; the relay, the console and the pages are the real
ones."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX
from pokertable.controller.engine.model import AnteFormat, Level, Variant
from pokertable.controller.table.public_state import table_state
from pokertable.controller.table.session import new_session
from pokertable.mqtt.payloads import SCHEMA_VERSION, validate
from pokertable.room.broadcast import BroadcastLane
from pokertable.room.floor_service import console
from tests.app.session_table import Table
from tests.room.conftest import ARTIFACTS, overlay_on_air, signed_in

DOCS = Path(__file__).resolve().parents[2] / "docs"
PLAYERS = ((1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000), (4, "Dev", 5000))
LEVEL = Level(number=4, small_blind=100, big_blind=200, ante=25,
              ante_format=AnteFormat.PER_PLAYER, bring_in=50, chip_unit=25, game=Variant.STUD)
DOWN = {1: ("Ah", "Kd"), 2: ("9s", "9h"), 3: ("3d", "4d"), 4: ("Tc", "Th")}
UP = {1: ("7c", "7d", "Qs"), 2: ("Qh", "Kh"), 3: ("2c", "5h", "Jd"), 4: ("8h", "Ts", "6c")}


def fifth_street() -> Table:
    """A stud hand played through ``TableSession`` to fifth street. Cat's 2c is the low
    upcard: she brings it in for 50 with chips (RP-10-E) and everybody calls; Ann's pair
    of sevens opens fourth street for 200, Bob folds; her pair opens fifth (RP-10-D)."""
    table = Table(PLAYERS)
    table.session = new_session(table.session.config, LEVEL, table.session.table.seats)
    table.press("hand_start")
    for pad in (0, 1):
        for number, cards in DOWN.items():
            table.card(f"seat{number}.cards", cards[pad])
    for street, burn in ((0, None), (1, "2s"), (2, "3s")):
        if burn is not None:
            table.collect()
            table.card("burn", burn)
        for seat, up in UP.items():
            if len(up) > street:
                table.card(f"seat{seat}.up", up[street])
        if street == 0:
            for seat in (3, 4, 1, 2):  # the bring-in, then the calls, all in chips
                table.push(seat, 25, 25)
        elif street == 1:
            table.push(1, 100, 100)
            table.press("fold")
            table.push(3, 100, 100)
            table.push(4, 100, 100)
    return table


def stud_state(table: Table, seq: int) -> dict[str, Any]:
    """What the table publishes (mqtt/schemas/state.json), stamped as the bridge does."""
    state = {**table_state(table.session, table.t), "venue": "club", "table": "t9",
             "session": "s", "seq": seq, "schema_version": SCHEMA_VERSION}
    validate("state", state)
    return state


def hole_cards(table: Table) -> dict[int, dict[str, Any]]:
    """The last hole cards the table published for each seat (every new stud card)."""
    last = {o.payload["seat"]: o.payload for o in table.out if o.channel == "hole_cards"}
    return {seat: {**payload, "schema_version": SCHEMA_VERSION} for seat, payload in last.items()}


@pytest.mark.needs("mosquitto", "chromium")
def test_overlay_and_floor_console_show_the_stud_hand_RP10D_RP10E(
    tmp_path: Path, browser: Any
) -> None:
    with overlay_on_air(tmp_path, browser) as (page, sender, broker):
        floor = console("club", f"ws://127.0.0.1:{broker.ws_port}")
        floor.start()
        try:
            desk = signed_in(browser, floor.url, "director", tables=())  # before the hand

            def cards(seat: int, selector: str = ".card") -> list[str | None]:
                return [c.get_attribute("data-card") for c in
                        page.query_selector_all(f".seat[data-seat='{seat}'] {selector}")]

            table = fifth_street()
            state = stud_state(table, 1)
            assert (state["street"], state["action_on"]) == ("fifth", 1)
            sender.publish(f"{PREFIX}/state", state)
            # Before the relay releases the hole cards: backs for the downcards, upcards face up.
            page.wait_for_function(
                "() => document.querySelectorAll('.seat[data-seat=\"4\"] .card').length === 5",
                timeout=120_000)
            assert cards(4) == [None, None, "8h", "Ts", "6c"]
            for seat, payload in hole_cards(table).items():
                sender.publish(f"{PREFIX}/secure/hole_cards/{seat}", payload)
            page.wait_for_function(
                "() => document.querySelectorAll('.seat[data-seat=\"4\"] .card:not(.back)')"
                ".length === 5", timeout=120_000)

            assert page.inner_text("#game") == (
                "Stud \u00b7 limits 200/400 \u00b7 ante 25 \u00b7 bring-in 50 \u00b7 fifth street")
            assert page.inner_text("#stud") == (
                "Cat brought it in for 50 \u00b7 Ann opens fifth street")
            assert page.inner_text("#board") == ""

            # Downcards first (known once released, else backs), then the upcards as dealt.
            assert cards(1) == ["Ah", "Kd", "7c", "7d", "Qs"]
            assert cards(3, ".card.up") == ["2c", "5h", "Jd"]
            assert cards(4) == ["Tc", "Th", "8h", "Ts", "6c"]
            assert cards(4, ".card.up") == ["8h", "Ts", "6c"]
            assert cards(2) == []  # folded: the upcards are turned down
            assert page.inner_text(".seat[data-seat='1'] .tags").lower() == "opens"
            assert page.inner_text(".seat[data-seat='3'] .tags").lower() == "bring-in"
            assert page.inner_text(".seat[data-seat='4'] .tags") == ""
            assert page.inner_text(".seat[data-seat='1'] .win") == ""  # no hold'em equities
            page.screenshot(path=str(DOCS / "overlay-stud.png"), omit_background=True)

            # The table's status and state are retained, as the table's own are: the console
            # reads them whenever it subscribes.
            for leaf, payload in (("status", {"state": "online", "schema": SCHEMA_VERSION,
                                              "schema_version": SCHEMA_VERSION}),
                                  ("state", stud_state(table, 2))):
                sender.client.publish(f"{PREFIX}/{leaf}", json.dumps(payload), qos=1,
                                      retain=True).wait_for_publish(30)
            box = ".table[data-table='t9']"
            desk.wait_for_selector(f"{box} .status.online", timeout=120_000)
            desk.wait_for_function(
                f"() => (document.querySelector(\"{box} .level\") || {{}}).textContent"
                "?.includes('Stud')",
                timeout=60_000)
            assert desk.inner_text(f"{box} .level") == (
                "level 4: Stud \u00b7 limits 200/400 \u00b7 ante 25 \u00b7 bring-in 50")
            assert desk.inner_text(f"{box} .stud") == (
                "fifth street \u00b7 Cat brought it in for 50 \u00b7 Ann opens fifth street")
            showing = {
                row.get_attribute("data-seat"): row.query_selector("td.showing").inner_text()
                for row in desk.query_selector_all(f"{box} .players tbody tr")
            }
            assert showing == {"1": "7c 7d Qs (opens)", "2": "", "3": "2c 5h Jd (bring-in)",
                               "4": "8h Ts 6c"}
            desk.screenshot(path=str(ARTIFACTS / "floor-stud.png"), full_page=True)
        finally:
            floor.stop()


def test_no_board_game_equities_are_published_during_a_stud_or_draw_hand() -> None:
    """Four stud cards (or a badugi hand) would pass for an Omaha hand: the relay computes
    no equities for stud, razz or the draw games (the same cards in a state saying pot-limit
    Omaha get them)."""
    table = fifth_street()
    for game, expected in (("F7S", False), ("FR", False), ("F2L3D", False), ("FB", False),
                           ("PO", True)):
        state = {**stud_state(table, 1), "game": game}
        lane = BroadcastLane(delay_s=0)
        lane.on_message("state", state, now_s=0)
        sent = []
        for seat, payload in hole_cards(table).items():
            four = {**payload, "cards": payload["cards"][:4]}
            sent += lane.on_message(f"secure/hole_cards/{seat}", four, now_s=0)
        assert any(m.leaf == "secure/equities" for m in sent) is expected, game


def test_the_terminal_view_shows_the_stud_hand_too_RP10D_RP10E() -> None:
    """``pokertable watch`` (the demo's live view): the game in the level, the downcards as
    bars, the upcards face up and the bring-in and opener tags."""
    from rich.console import Console

    from pokertable.mqtt.watch import TableView, pretty_card, render_table

    view = TableView("club", "t9", state=stud_state(fifth_street(), 1), status="online")
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(render_table(view))
    text = out.getvalue()
    assert "L4 F7S 100/200 ante 25 bring-in 50" in text and "fifth" in text
    ann = " ".join(pretty_card(c) for c in UP[1])
    assert f"▮▮ {ann} (opens)" in text
    assert f"▮▮ {' '.join(pretty_card(c) for c in UP[3])} (bring-in)" in text


def test_the_data_feed_gives_the_game_and_each_stud_seats_upcards() -> None:
    """/feed.json and the CSV (vMix, Singular): the game dealt and each seat's upcards."""
    from pokertable.room.broadcast_feed import BroadcastFeed

    table = fifth_street()
    feed = BroadcastFeed(delay_s=60, table="t9")
    feed.released("broadcast/state", stud_state(table, 1))
    flat = feed.as_flat()
    assert flat["game"] == "F7S" and flat["board"] == "" and flat["pot"] == 900
    assert flat["seat1_upcards"] == "7c 7d Qs" and flat["seat2_upcards"] == ""
    assert flat["seat1_cards"] == ""  # the hole cards only once the relay releases them
