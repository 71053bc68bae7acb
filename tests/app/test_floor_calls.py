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

from pokertable.bench.table_rig import PREFIX, TableRig
from pokertable.controller.rules import TDA_2024
from pokertable.controller.table.inputs import RoomCommand
from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.payloads import validate
from tests.app.session_table import Table, _deal


def _bb_option_by_chips(table: Table) -> None:
    """The blinds go out; Cat calls, Ann completes, Bob pushes 500 onto his blind on his
    option without a word (open question A6)."""
    table.press("hand_start")
    table.push(1, 100)
    table.push(2, 100, 100)
    _deal(table)
    table.press("check_call")
    table.press("check_call")
    table.push(2, 500)


def test_A6_bb_option_chips_floor_call_has_one_id_and_floor_decision_unblocks() -> None:
    table = Table()
    _bb_option_by_chips(table)
    state = table_state(table.session, table.t)
    validate("state", {**state, "venue": "v", "table": "t1", "session": "s",
                       "seq": 1, "schema_version": 1})
    [alert] = state["alerts"]
    assert alert["id"] == "t1-h00001/F1" and alert["kind"] == "bet_ruling"
    raised = [r for e in table.events() for r in e["rulings"] if r["kind"] == "floor"]
    assert [r["alert_id"] for r in raised] == [alert["id"]]
    for event in table.events():
        validate("event", {**event, "venue": "v", "table": "t1", "session": "s",
                           "seq": 1, "schema_version": 1})
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
    table = TableRig(tmp_path, [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500)], 3)
    # A generous stall limit: both cores may be busy with other work (the waits are on state).
    table.overlay.wait_state = functools.partial(table.overlay.wait_state, timeout=120)  # type: ignore[method-assign]
    try:
        yield table
    finally:
        table.close()


@pytest.mark.needs("mosquitto", "micropython")
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


@pytest.mark.needs("mosquitto", "micropython")
def test_TDA2024_53B_oot_void_raise_answered_over_mqtt_is_applied(rig: TableRig) -> None:
    """A bound out-of-turn raise whose action changed goes to the floor; the director's
    ``floor_decision`` on the real table process makes it the seat's raise and play goes on."""
    rig.start_controller()
    watch = rig.overlay
    watch.wait_state(lambda s: s["hand_number"] == 0, "the controller's first state")
    rig.button("hand_start")
    watch.wait_state(lambda s: s["hand_number"] == 1 and s["action_on"] == 3, "hand 1")
    # No blind chips on the felt: their reads could land after the words below.
    for seat, card in ((1, "Kh"), (2, "Qs"), (3, "Ah"), (1, "Kd"), (2, "Qd"), (3, "Ad")):
        rig.deal(f"seat{seat}.cards", card)
    watch.wait_state(
        lambda s: all(x["cards_held"] == 2 for x in s["seats"] if x["seat"] <= 3), "the hole cards"
    )

    def director(request: str, **payload: Any) -> None:
        rig.director.publish(f"{PREFIX}/cmd/director", {"request_id": request, **payload})

    for seat in (1, 2):  # Ann and Bob say "raise to 600" before Cat acts: SA, both bind
        director(f"w{seat}", command="dealer_button", button="bet_raise", amount=600, seat=seat)
    state = watch.wait_state(lambda s: bool(s["alerts"]), "the skipped-player floor call")
    director(
        "f1", command="floor_decision", alert_id=state["alerts"][0]["id"], decision="all_options"
    )
    watch.wait_state(lambda s: not s["alerts"], "the skipped player's ruling")
    rig.button("bet_raise", 400)  # Cat raises to 400: the action to Ann changed
    state = watch.wait_state(
        lambda s: any(a["kind"] == "oot_void" for a in s["alerts"]), "Ann's oot_void call"
    )
    assert len(state["alerts"]) == 1, state["alerts"]
    [ann] = state["alerts"]
    assert "raise to 600" in ann["options"]  # her bound raise may stand
    director("f2", command="floor_decision", alert_id=ann["id"], decision="raise to 600")
    state = watch.wait_state(
        lambda s: any(a["id"] != ann["id"] for a in s["alerts"]), "Bob's oot_void call"
    )
    bets = {x["seat"]: x["bet"] for x in state["seats"] if x["seat"] <= 3}
    assert bets[1] == 600 and bets[3] == 400
    assert len(state["alerts"]) == 1, state["alerts"]
    [bob] = state["alerts"]
    director("f3", command="floor_decision", alert_id=bob["id"], decision="raise to 1500")
    state = watch.wait_state(
        lambda s: not s["alerts"] and s["action_on"] == 3, "the action back on Cat"
    )
    bets = {x["seat"]: x["bet"] for x in state["seats"] if x["seat"] <= 3}
    assert bets == {1: 600, 2: 1500, 3: 400}
    replies = {r["request_id"]: r["ok"] for r in rig.director.on("/reply")}
    assert replies["f2"] is True and replies["f3"] is True
    applied = [e for e in watch.on("/events") if e["kind"] == "floor_applied"]
    assert [e["data"]["amount"] for e in applied[-2:]] == [600, 1500]
