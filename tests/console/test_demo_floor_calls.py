"""``pokertable demo`` against a real mosquitto: every floor call the table raises is answered
by the simulated director with ``floor_decision`` over MQTT (the same command a real director
sends), the table accepts it, and correctly dealt hands raise no misdeal or burn alert.

The test reads the table's public streams with its own client, as a tournament server
would; it never looks inside the demo."""

from __future__ import annotations

import argparse
import json
import threading
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.controller.demo import main as demo
from pokertable.mqtt.mosquitto import MosquittoProcess

pytestmark = pytest.mark.needs("mosquitto", "micropython")

PREFIX = "pokertable/v1/demo/t1"


class Stream:
    """Everything the table publishes on state, events and reply, in arrival order."""

    def __init__(self, port: int, prefix: str = PREFIX) -> None:
        self.messages: list[tuple[str, dict[str, Any]]] = []
        self._subscribed = threading.Event()
        self._arrived = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-stream-{prefix}")

        def on_connect(client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
            client.subscribe([(f"{prefix}/{leaf}", 1) for leaf in ("state", "events", "reply")])

        def on_subscribe(client: Any, userdata: Any, mid: Any, codes: Any, props: Any) -> None:
            self._subscribed.set()

        def on_message(client: Any, userdata: Any, msg: Any) -> None:
            with self._arrived:
                self.messages.append((msg.topic.rsplit("/", 1)[1], json.loads(msg.payload)))
                self._arrived.notify_all()

        self.client.on_connect = on_connect
        self.client.on_subscribe = on_subscribe
        self.client.on_message = on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self._subscribed.wait(120), "no SUBACK from mosquitto"

    def of(self, leaf: str) -> list[dict[str, Any]]:
        with self._arrived:
            return [payload for topic, payload in self.messages if topic == leaf]

    def wait_for_state(self, predicate: Any, what: str) -> None:
        """Until a state satisfying ``predicate`` arrived (a stall limit as the last resort)."""
        with self._arrived:
            seen = self._arrived.wait_for(
                lambda: any(predicate(p) for t, p in self.messages if t == "state"), timeout=300
            )
        assert seen, f"no state with {what} arrived in 300 s"

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()



def test_every_floor_call_is_answered_by_floor_decision_over_mqtt(
    open_broker: MosquittoProcess,
) -> None:
    stream = Stream(open_broker.port)
    args = argparse.Namespace(
        hands=3, players=4, seed=5, broker=("127.0.0.1", open_broker.port), profile="tda-2024",
        floor_pause=0.0, stall_limit=300.0, string_bets=0.6,
        real_time=True,  # the one demo test at a board's pace: simulated time hides no race
    )
    try:
        result = demo.play(args)
        stream.wait_for_state(
            lambda s: s["hand_number"] == 3 and s["street"] == "complete", "hand 3 complete"
        )
    finally:
        stream.stop()
    assert result.hands == 3

    called = {alert["id"]: alert for state in stream.of("state") for alert in state["alerts"]}
    answered = {
        event["data"]["alert_id"]: event["data"]["decision"]
        for event in stream.of("events")
        if event["kind"] == "floor_decision"
    }
    assert called, "string bets at this rate always bring the floor at least once"
    assert answered == result.floor_calls
    assert set(answered) == set(called)
    for alert_id, decision in answered.items():
        assert decision in called[alert_id]["options"]
    replies = {r["request_id"]: r for r in stream.of("reply")}
    assert all(replies[f"floor-{alert_id}"]["ok"] for alert_id in answered)
    # Once ruled, nothing waits for the floor: the last state has no alert left.
    assert stream.of("state")[-1]["alerts"] == []

    misdeal_or_burn = [
        ruling["text"]
        for event in stream.of("events")
        for ruling in event["rulings"]
        if ruling["kind"] == "alert" and ("misdeal" in ruling["text"] or "burn" in ruling["text"])
    ]
    assert misdeal_or_burn == []
