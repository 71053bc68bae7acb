"""Who decided a floor call is the broker login that sent it, not what the sender typed.

Commands go to ``cmd/<login>``; the shipped ACL's ``cmd/%u`` pattern lets a login publish
only under its own name, so the table reads the sender from the topic. Against a real
mosquitto with the shipped ACL and a real table process (issue #27).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokertable.bench.table_rig import PREFIX, TableRig, Watcher
from pokertable.bench.waiting import wait_for


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path, [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500)], 3)
    table.overlay.wait_state = functools.partial(table.overlay.wait_state, timeout=120)  # type: ignore[method-assign]
    try:
        yield table
    finally:
        table.close()


def _floor_call(rig: TableRig) -> str:
    """Rules-spec A6: Bob pushes 500 on his big-blind option without a word: a floor call."""
    watch = rig.overlay
    watch.wait_state(lambda s: s["hand_number"] == 0, "the controller's first state")
    rig.button("hand_start")
    watch.wait_state(lambda s: s["hand_number"] == 1 and s["action_on"] == 3, "hand 1")
    rig.push(1, 100)
    rig.push(2, 100, 100)
    for seat, card in ((1, "Kh"), (2, "Qs"), (3, "Ah"), (1, "Kd"), (2, "Qd"), (3, "Ad")):
        rig.deal(f"seat{seat}.cards", card)
    watch.wait_state(
        lambda s: all(x["cards_held"] == 2 for x in s["seats"] if x["seat"] <= 3), "the cards"
    )
    rig.button("check_call")
    watch.wait_state(lambda s: s["action_on"] == 1, "Cat's call")
    rig.button("check_call")
    watch.wait_state(lambda s: s["action_on"] == 2, "Ann's completion")
    rig.push(2, 500)
    state = watch.wait_state(lambda s: bool(s["alerts"]), "the floor call")
    return str(state["alerts"][0]["id"])


@pytest.mark.needs("mosquitto", "micropython")
def test_floor_decision_is_journaled_with_the_sending_login_not_the_typed_note(
    rig: TableRig,
) -> None:
    rig.start_controller()
    alert_id = _floor_call(rig)
    clock = Watcher(rig.broker.port, "clock", (f"{PREFIX}/reply",), client_id="t-clock")
    floor = Watcher(rig.broker.port, "floor", (f"{PREFIX}/reply",), client_id="t-floor")
    try:
        decision = {"command": "floor_decision", "alert_id": alert_id, "decision": "check"}
        # The clock may not send director commands: the broker drops cmd/director from it...
        clock.publish(f"{PREFIX}/cmd/director", {**decision, "request_id": "clk-as-director",
                                                 "note": "by director"})
        # ... and the table refuses a floor decision on the clock's own topic.
        clock.publish(f"{PREFIX}/cmd/clock", {**decision, "request_id": "clk-own"})
        refused = wait_for(
            lambda: [r for r in clock.on("/reply") if r["request_id"] == "clk-own"],
            "the table's refusal of the clock's floor decision", timeout=60)
        assert refused[0]["ok"] is False and refused[0]["field"] == "command"
        assert rig.overlay.state()["alerts"], "the call still waits"  # type: ignore[index]

        # The floor signs as the director in the note: the table records the login.
        floor.publish(f"{PREFIX}/cmd/floor", {**decision, "request_id": "fl-1",
                                              "note": "by director (floor console)"})
        rig.overlay.wait_state(lambda s: not s["alerts"], "the call answered")
        [decided] = [e for e in rig.overlay.on("/events") if e["kind"] == "floor_decision"]
        assert decided["data"]["by"] == "floor"
        assert decided["rulings"][0]["text"].endswith("check (by floor)")
        journaled = [r for r in rig.journaled()
                     if r["kind"] == "command" and r["command"] == "floor_decision"]
        assert [(r["request_id"], r["sender"]) for r in journaled] == [("fl-1", "floor")]
        replies = {r["request_id"] for r in clock.on("/reply")}
        assert "clk-as-director" not in replies, "the broker let the clock sign as director"
    finally:
        clock.stop()
        floor.stop()
