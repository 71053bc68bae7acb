"""The seating desk with two real tables (``pokertable run`` processes on one mosquitto):
a balancing move proposed from their states, confirmed on the floor console in Debian's
Chromium, carried out at both tables; and a chip race from the stack zones' RFID counts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import USERS, TableRig, Watcher
from pokertable.bench.waiting import wait_for
from pokertable.hardware.simulator import PushChips
from pokertable.room.floor_service import console
from pokertable.room.seating_service import SeatingService
from tests.room.conftest import ARTIFACTS

pytestmark = pytest.mark.needs("mosquitto", "micropython", "chromium")

CARDS = [r + s for r in "AKQJT98765432" for s in "shdc"]


@pytest.fixture
def two_tables(tmp_path: Path) -> Iterator[tuple[TableRig, TableRig]]:
    """Table t9 with six players and t8 with three, on t9's broker: one room."""
    big = TableRig(
        tmp_path / "t9", [(s, f"Nine{s}", 10_000) for s in range(1, 7)], 6, seats_per_node=3
    )
    small: TableRig | None = None
    try:
        small = TableRig(
            tmp_path / "t8",
            [(s, f"Eight{s}", 10_000) for s in range(1, 4)],
            3,
            broker=big.broker,
            table_id="t8",
        )
        for rig in (big, small):
            rig.start_controller()
        for rig in (big, small):
            rig.overlay.wait_state(lambda s: s["hand_number"] == 0, "the first state", timeout=180)
        yield big, small
    finally:
        if small is not None:
            small.close()
        big.close()


def seat(state: dict[str, Any], number: int) -> dict[str, Any]:
    return next(s for s in state["seats"] if s["seat"] == number)


def walk(rig: TableRig, hand: int) -> None:
    """One hand at a real table: blinds, the deal from the small blind, folds to the BB."""
    rig.button("hand_start")
    state = rig.overlay.wait_state(
        lambda s: s["hand_number"] == hand and s["action_on"], f"hand {hand}"
    )
    players = [s["seat"] for s in state["seats"] if s["status"] == "active"]
    button, big = state["button"], state["big_blind_seat"]
    order = sorted(players, key=lambda n: (n - button - 1) % 9)  # from the small blind
    small = order[0] if order[1] == big else None
    if small is not None:
        rig.push(small, 100)
    rig.push(big, 100, 100)
    cards = iter(CARDS)
    for _ in range(2):
        for n in order:
            rig.deal(f"seat{n}.cards", next(cards))
    rig.overlay.wait_state(
        lambda s: all(seat(s, n)["cards_held"] == 2 for n in order) and seat(s, big)["bet"] == 200,
        "the deal and the blinds read",
    )
    while True:
        state = rig.overlay.state() or {}
        if state.get("street") == "complete":
            break
        on = state["action_on"]
        rig.button("fold")
        rig.overlay.wait_state(lambda s, on=on: s["action_on"] != on, f"seat {on} folds")
    for n in order:
        rig.clear(f"seat{n}.bet")
        rig.clear(f"seat{n}.cards")


def test_a_balancing_move_is_confirmed_on_the_floor_console_and_made_at_both_tables(
    two_tables: tuple[TableRig, TableRig], browser: Any
) -> None:
    big, small = two_tables
    for rig in (big, small):
        walk(rig, 1)
    desk = SeatingService(
        host="127.0.0.1",
        port=big.broker.port,
        venue="club",
        login=("director", USERS["director"]),
        seed=16,
    )
    seating = Watcher(
        big.broker.port, "floor", ("pokertable/v1/club/seating",), client_id="rig-floor-seating"
    )
    desk.start()
    server = console("club", f"ws://127.0.0.1:{big.broker.ws_port}")
    server.start()
    try:
        assert desk.subscribed.wait(60), "the desk could not subscribe"
        # t9: button 6, SB 1, BB 2 -> seat 3 is big blind next; t8: BB 2, seat 4 the worst.
        published = wait_for(
            lambda: next((p for p in reversed(seating.on("/seating")) if p["moves"]), None),
            "a proposed move",
        )
        (move,) = published["moves"]
        assert (move["source"], move["seat"], move["destination"], move["to_seat"]) == (
            "t9",
            3,
            "t8",
            4,
        )
        assert move["rule_ids"] == ["TDA2024-11A", "TDA2024-11C"]

        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.url)
        page.fill("#username", "floor")
        page.fill("#password", USERS["floor"])
        page.click("#login button")
        button = page.wait_for_selector(f"button[data-confirm='{move['id']}']", timeout=60_000)
        assert button is not None
        assert "Nine3" in page.inner_text(f".move[data-move='{move['id']}']")
        page.screenshot(path=str(ARTIFACTS / "seating-move.png"), full_page=True)
        button.click()

        moved = small.overlay.wait_state(
            lambda s: seat(s, 4)["player"] == "Nine3", "the player seated at t8"
        )
        left = big.overlay.wait_state(
            lambda s: seat(s, 3)["status"] == "empty", "the player gone from t9"
        )
        assert seat(moved, 4)["stack"] == 10_000
        assert sum(s["stack"] for s in left["seats"] + moved["seats"]) == 90_000
        page.wait_for_selector("#seating .none", timeout=60_000)  # balanced: 5 and 4
        journaled = json.dumps(small.journaled()) + json.dumps(big.journaled())
        assert "unseat_player" in journaled and "seating desk" in journaled  # on record

        # Colour-up: the 25s leave; the stack zones' RFID counts give each player's odd chips.
        small.sim.perform(PushChips("seat1.stack", (25, 25, 25, 100)))
        small.sim.perform(PushChips("seat2.stack", (25, 100)))
        small.overlay.wait_state(
            lambda s: (
                seat(s, 1).get("stack_chips") == {"25": 3, "100": 1}
                and seat(s, 2).get("stack_chips") == {"25": 1, "100": 1}
            ),
            "both stack zones read",
        )
        seating.publish(
            "pokertable/v1/club/seating/control",
            {"command": "chip_race", "removed": [25], "denomination": 100},
        )
        race = wait_for(
            lambda: next(
                (
                    p["chip_race"]["t8"]
                    for p in reversed(seating.on("/seating"))
                    if "t8" in p["chip_race"]
                ),
                None,
            ),
            "the chip race",
        )
        lines = {line["seat"]: line for line in race["lines"]}
        assert (lines[1]["odd"], lines[2]["odd"], race["chips_raced"]) == (75, 25, 1)
        assert [len(lines[s]["cards"]) for s in (1, 2)] == [3, 1]
        page.wait_for_selector("#seating .race[data-race='t8']", timeout=60_000)
    finally:
        server.stop()
        desk.stop()
        seating.stop()
