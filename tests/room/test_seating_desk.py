"""The seating desk's controls over real mosquitto with the shipped ACL: tables' states in
(published with each table's own login), the floor's controls, the desk's proposals out.
The moves themselves are carried out against real tables in test_seating_service.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import USERS, Watcher
from pokertable.bench.waiting import wait_for
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.seating_service import SeatingService
from tests.room.test_seating import state

pytestmark = pytest.mark.needs("mosquitto")
BASE = "pokertable/v1/club"


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[SeatingService, Watcher, int]]:
    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start()
    desk = SeatingService(
        host="127.0.0.1",
        port=broker.port,
        venue="club",
        login=("director", USERS["director"]),
        seed=3,
    )
    desk.start()
    floor = Watcher(
        broker.port,
        "floor",
        (f"{BASE}/seating", f"{BASE}/t9/cmd/director"),
        client_id="floor-desk-test",
    )
    try:
        assert desk.subscribed.wait(60)
        yield desk, floor, broker.port
    finally:
        floor.stop()
        desk.stop()
        broker.stop()


def publish_state(port: int, table: str, payload: dict[str, Any]) -> None:
    """A table's retained state, published with the table's own login (the ACL's rule)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"state-{table}")
    client.username_pw_set(f"club/{table}", USERS[f"club/{table}"])
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        client.publish(
            f"{BASE}/{table}/state", json.dumps(payload), qos=1, retain=True
        ).wait_for_publish(10)
    finally:
        client.loop_stop()
        client.disconnect()


def latest(floor: Watcher, predicate: Any, what: str) -> dict[str, Any]:
    return wait_for(
        lambda: next((p for p in reversed(floor.on("/seating")) if predicate(p)), None), what
    )


def test_the_desk_proposes_balancing_halts_late_entries_and_refuses_what_cannot_be(
    room: tuple[SeatingService, Watcher, int],
) -> None:
    desk, floor, port = room
    # t9: five players, last big blind seat 5, seat 6 open; t8: eight players.
    publish_state(port, "t9", state({1, 2, 3, 4, 5}, button=3, big_blind=5))
    publish_state(port, "t8", state(set(range(1, 9)), button=1, big_blind=3))
    seen = latest(floor, lambda p: p["tables"] == {"t8": 8, "t9": 5}, "both tables")
    assert [h["table"] for h in seen["halts"]] == ["t9"]  # R11-D: 3 short, BB on an open seat
    assert seen["halts"][0]["rule_ids"] == ["TDA2024-11D"]
    assert [(m["source"], m["seat"], m["destination"], m["to_seat"]) for m in seen["moves"]] == [
        ("t8", 4, "t9", 6)
    ]  # t8's next big blind to the single big blind at t9

    # The desk holds the halted table: paused, so its next hand is refused.
    wait_for(lambda: any(c["command"] == "pause" for c in floor.on("/cmd/director")), "pause")
    publish_state(port, "t9", {**state({1, 2, 3, 4, 5}, button=3, big_blind=5), "paused": True})
    control = f"{BASE}/seating/control"
    floor.publish(control, {"command": "waive_halt", "table": "t9"})
    latest(floor, lambda p: p["halts"] == [], "the halt waived")
    resumed = wait_for(
        lambda: [c for c in floor.on("/cmd/director") if c["command"] == "resume"],
        "resume after the waiver",
    )
    assert resumed[0]["note"] == "seating desk: R11-D halt"

    floor.publish(
        control,
        {
            "command": "late_entry",
            "player": "Late",
            "starting_stack": 10_000,
            "levels_missed": [[100, 200]],
        },
    )
    late = latest(
        floor, lambda p: any(m["player"] == "Late" for m in p["moves"]), "the late entrant's seat"
    )
    entry = next(m for m in late["moves"] if m["player"] == "Late")
    assert (entry["source"], entry["destination"], entry["stack"]) == ("", "t9", 10_000)
    assert entry["rule_ids"] == ["TDA2024-8A"] and entry["to_seat"] not in (1, 2, 3, 4, 5)

    floor.publish(control, {"command": "break_table", "table": "t9"})
    refused = latest(floor, lambda p: any(not d["ok"] for d in p["done"]), "a refusal")
    assert "not enough open seats" in refused["done"][-1]["error"]
    floor.publish(control, {"command": "final_table"})
    latest(
        floor,
        lambda p: bool(p["done"]) and "RP-9" in p["done"][-1].get("error", ""),
        "final table refused",
    )
    floor.publish(control, {"command": "break_table", "table": 9})  # seating_control.json
    latest(
        floor,
        lambda p: bool(p["done"]) and p["done"][-1].get("error", "").startswith("table: "),
        "a malformed control named by its field",
    )
    floor.publish(control, {"command": "shuffle_up"})
    latest(
        floor,
        lambda p: bool(p["done"]) and "known: confirm" in p["done"][-1].get("error", ""),
        "an unknown control named",
    )
    assert desk.snapshot()["tables"] == {"t8": 8, "t9": 5}  # nothing moved without a confirm
