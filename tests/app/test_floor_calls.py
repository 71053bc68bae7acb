"""Every floor call has one id everywhere and the director's answer unblocks the hand (issue #11).

The id in the state's ``alerts``, on the floor ruling of the event that raised it, in the
rejections that wait for it, in ``floor_decision`` and in its reply is the same string.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pokertable.controller.inputs import RoomCommand
from pokertable.controller.public_state import table_state
from pokertable.controller.rules import TDA_2024
from pokertable.mqtt.mosquitto import find_mosquitto
from pokertable.mqtt.payloads import validate
from tests.app.session_table import Table, _deal
from tests.app.table_rig import PREFIX, TableRig


def _bb_option_by_chips(table: Table) -> None:
    """Cat calls, Ann completes, Bob pushes 500 on his option without a word (rules-spec A6)."""
    table.press("hand_start")
    _deal(table)
    table.press("check_call")
    table.press("check_call")
    table.push(2, 500)


def test_A6_bb_option_chips_floor_call_has_one_id_and_floor_decision_unblocks() -> None:
    table = Table()
    _bb_option_by_chips(table)
    state = table_state(table.session, table.t)
    validate("state", {**state, "venue": "v", "table": "t1", "session": "s", "seq": 1})
    [alert] = state["alerts"]
    assert alert["id"] == "t1-h00001/F1" and alert["kind"] == "bet_ruling"
    raised = [r for e in table.events() for r in e["rulings"] if r["kind"] == "floor"]
    assert [r["alert_id"] for r in raised] == [alert["id"]]
    for event in table.events():
        validate("event", {**event, "venue": "v", "table": "t1", "session": "s", "seq": 1})
    refused = table.press("check_call")  # the dealer tries to go on: the floor must answer
    assert alert["id"] in refused[0].payload["rulings"][0]["text"]
    assert table.session.hand is not None and table.session.hand.action_on == 2

    bad = table(RoomCommand("floor_decision", "d0", {"alert_id": "a-1", "decision": "check"}, 1))
    assert bad[0].payload["ok"] is False and bad[0].payload["field"] == "alert_id"
    out = table(
        RoomCommand("floor_decision", "d1", {"alert_id": alert["id"], "decision": "check"}, 1)
    )
    reply = next(o.payload for o in out if o.channel == "reply")
    assert reply["ok"] is True
    decided = next(o.payload for o in out if o.channel == "event")
    assert decided["kind"] == "floor_decision" and decided["data"]["alert_id"] == alert["id"]
    hand = table.session.hand
    assert hand is not None and hand.action_on is None  # Bob checked: the round is over
    assert table_state(table.session, table.t)["alerts"] == []


def test_TDA2024_35A5_card_count_left_to_the_floor_dead_hand_answered_by_floor_decision() -> None:
    rules = replace(TDA_2024, misdeal_on_card_count=False)  # as profiles that leave it to the TD
    table = Table(rules=rules)
    table.press("hand_start")
    for seat, card in ((1, "As"), (2, "Ks"), (3, "Qs"), (1, "Ad"), (2, "Kd"), (3, "Qd")):
        table.card(f"seat{seat}.cards", card)
    table.card("seat2.cards", "2h")  # a third card to Bob
    [alert] = table_state(table.session, table.t)["alerts"]
    assert alert["kind"] == "card_count_floor" and alert["options"] == ["misdeal", "dead_hand"]
    out = table(
        RoomCommand("floor_decision", "f1", {"alert_id": alert["id"], "decision": "dead_hand"}, 1)
    )
    assert next(o.payload for o in out if o.channel == "reply")["ok"] is True
    hand = table.session.hand
    assert hand is not None and hand.seat(2).status.value == "folded"
    assert table.session.tracked is not None and 2 in table.session.tracked.killed


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    if find_mosquitto() is None:
        pytest.skip("needs mosquitto")
    table = TableRig(tmp_path, [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500)], 3)
    # A generous stall limit: both cores may be busy with other work (the waits are on state).
    table.overlay.wait_state = functools.partial(table.overlay.wait_state, timeout=120)  # type: ignore[method-assign]
    try:
        yield table
    finally:
        table.close()


def test_A6_floor_call_answered_over_mqtt_unblocks_the_hand(rig: TableRig) -> None:
    rig.start_controller()
    watch = rig.overlay
    watch.wait_state(lambda s: s["hand_number"] == 0, "the controller's first state")
    rig.button("hand_start")
    watch.wait_state(lambda s: s["hand_number"] == 1 and s["action_on"] == 3, "hand 1")
    rig.push(1, 100)
    rig.push(2, 100, 100)
    for seat, card in ((1, "Kh"), (2, "Qs"), (3, "Ah"), (1, "Kd"), (2, "Qd"), (3, "Ad")):
        rig.deal(f"seat{seat}.cards", card)
    watch.wait_state(
        lambda s: all(x["cards_held"] == 2 for x in s["seats"] if x["seat"] <= 3), "the hole cards"
    )
    rig.button("check_call")
    watch.wait_state(lambda s: s["action_on"] == 1, "Cat's call")
    rig.button("check_call")
    watch.wait_state(lambda s: s["action_on"] == 2, "Ann's completion")
    rig.push(2, 500)  # Bob's option: chips without a word
    state = watch.wait_state(lambda s: bool(s["alerts"]), "the floor call")
    alert_id = state["alerts"][0]["id"]
    raised: list[dict[str, Any]] = [
        r for e in watch.on("/events") for r in e["rulings"] if r["kind"] == "floor"
    ]
    assert [r.get("alert_id") for r in raised] == [alert_id]
    rig.director.publish(
        f"{PREFIX}/cmd/director",
        {
            "command": "floor_decision",
            "request_id": "fd1",
            "alert_id": alert_id,
            "decision": "check",
        },
    )
    state = watch.wait_state(
        lambda s: not s["alerts"] and s["action_on"] is None, "the hand to move on"
    )
    replies = [r for r in rig.director.on("/reply") if r["request_id"] == "fd1"]
    assert replies and replies[0]["ok"] is True
    decided = [e for e in watch.on("/events") if e["kind"] == "floor_decision"]
    assert decided and decided[0]["data"]["alert_id"] == alert_id
    rig.clear("seat1.bet")
    rig.clear("seat2.bet")
    rig.clear("seat3.bet")
    rig.deal("burn", "5s")
    for card in ("2c", "7d", "9h"):
        rig.deal("board", card)
    watch.wait_state(lambda s: s["street"] == "flop" and s["action_on"] == 1, "the flop")
