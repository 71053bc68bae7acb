"""Inbound clock and director commands: validated always, bad ones answered and ignored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mqtt_samples import sample_state

from pokertable.mqtt.bridge import TableBridge
from pokertable.mqtt.payloads import validate
from pokertable.mqtt.topics import TableTopics

T = TableTopics("casino", "t07")
LEVEL_8 = {"number": 8, "small_blind": 300, "big_blind": 600, "ante": 600,
           "ante_format": "bb_ante"}


@pytest.fixture
def bridge(broker: Any, tmp_path: Path) -> Iterator[TableBridge]:
    b = TableBridge(venue="casino", table="t07", session="s1", port=broker.port,
                    outbox_path=tmp_path / "outbox.sqlite", validate_outbound=True)
    b.start()
    assert b.wait_subscribed(5)  # commands published from now on reach it
    b.publish_state(sample_state())
    assert b.wait_delivered(5)
    yield b
    b.stop(drain_timeout=0.5)


def test_rule_23_clock_level_reaches_the_application(broker, bridge, subscribers):
    clock = subscribers(broker.port, [T.reply]).start()
    clock.publish(T.clock, {"command": "level", "request_id": "lvl-8", "level": LEVEL_8})
    command = bridge.inbound.get(timeout=60)
    assert (command.source, command.command, command.request_id) == ("clock", "level", "lvl-8")
    assert command.payload["level"] == LEVEL_8
    # The application decides (Rule 23: next hand) and answers through the bridge.
    bridge.reply(command.request_id, ok=True, command=command.command)
    assert clock.wait_for(lambda s: bool(s.on("/reply")))
    reply = clock.on("/reply")[0].json()
    validate("reply", reply)
    assert (reply["request_id"], reply["ok"]) == ("lvl-8", True)


@pytest.mark.parametrize(
    ("command", "field"),
    [
        ({"command": "pause", "request_id": "d1"}, None),
        ({"command": "hand_for_hand", "request_id": "d2", "enabled": True}, None),
        ({"command": "floor_decision", "request_id": "d3", "alert_id": "a-1",
          "decision": "call"}, None),
        ({"command": "seat_player", "request_id": "d4", "seat": 2, "player": "Barbara",
          "stack": 30000}, None),
        ({"command": "player_absent", "request_id": "d5", "seat": 3}, None),
        ({"command": "player_present", "request_id": "d6", "seat": 3}, None),
        ({"command": "penalty", "request_id": "d7", "seat": 1, "penalty": "missed_hands",
          "count": 3, "rule_ids": ["TDA2024-71"], "note": "abusive language"}, None),
        ({"command": "resume", "request_id": "d8"}, None),
        ({"command": "dealer_button", "request_id": "d9", "button": "check_call",
          "lit_seat": 3}, None),
        ({"command": "card_exposed", "request_id": "d10", "seat": 2, "card_index": 1}, None),
    ],
)
def test_valid_director_commands_are_delivered(broker, bridge, subscribers, command, field):
    director = subscribers(broker.port, [T.reply]).start()
    director.publish(T.director, command)
    received = bridge.inbound.get(timeout=60)
    assert received.source == "director"
    assert received.payload == command
    assert bridge.rejected.empty()


MALFORMED = [
    (b"not json at all", None, None),
    (b"[1, 2, 3]", None, None),
    (json.dumps({"command": "pause"}).encode(), "request_id", None),
    (json.dumps({"command": "explode", "request_id": "m1"}).encode(), "command", "m1"),
    (json.dumps({"command": "seat_player", "request_id": "m2", "seat": 13, "player": "Zed",
                 "stack": 100}).encode(), "seat", "m2"),
    (json.dumps({"command": "seat_player", "request_id": "m3", "seat": 2,
                 "player": "Zed"}).encode(), "stack", "m3"),
    (json.dumps({"command": "hand_for_hand", "request_id": "m4", "enabled": "yes"}).encode(),
     "enabled", "m4"),
    (json.dumps({"command": "pause", "request_id": "m5", "sudo": True}).encode(), "sudo", "m5"),
    (json.dumps({"command": "penalty", "request_id": "m6", "seat": 1, "penalty": "warning",
                 "rule_ids": []}).encode(), "rule_ids", "m6"),
]


@pytest.mark.parametrize(("raw", "field", "request_id"), MALFORMED)
def test_malformed_director_command_gets_error_reply_and_changes_nothing(
    broker, bridge, subscribers, raw, field, request_id
):
    director = subscribers(broker.port, [T.reply, T.state]).start()
    assert director.wait_for(lambda s: bool(s.on("/state")))
    states_before = len(director.on("/state"))
    director.publish(T.director, raw)
    assert director.wait_for(lambda s: bool(s.on("/reply")))
    reply = director.on("/reply")[0].json()
    validate("reply", reply)
    assert reply["ok"] is False
    assert reply["error"]
    assert reply.get("field") == field
    assert reply["request_id"] == request_id
    assert bridge.inbound.empty()
    rejected = bridge.rejected.get(timeout=1)
    assert rejected.field == field
    assert len(director.on("/state")) == states_before  # nothing republished, nothing changed


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"command": "level", "request_id": "c1"}, "level"),
        ({"command": "level", "request_id": "c2", "level": {**LEVEL_8, "big_blind": 0}},
         "level.big_blind"),
        ({"command": "level", "request_id": "c3", "level": {**LEVEL_8, "ante_format": "odd"}},
         "level.ante_format"),
        ({"command": "level", "request_id": "c4", "level": {**LEVEL_8, "extra": 1}},
         "level.extra"),
        ({"command": "break_start", "request_id": "c5", "minutes": 0}, "minutes"),
    ],
)
def test_malformed_clock_message_names_the_field(broker, bridge, subscribers, payload, field):
    clock = subscribers(broker.port, [T.reply]).start()
    clock.publish(T.clock, payload)
    assert clock.wait_for(lambda s: bool(s.on("/reply")))
    reply = clock.on("/reply")[0].json()
    assert (reply["ok"], reply["field"], reply["request_id"]) == (False, field,
                                                                 payload["request_id"])
    assert bridge.inbound.empty()


def test_bad_rebirth_request_is_answered(broker, bridge, subscribers):
    consumer = subscribers(broker.port, [T.reply]).start()
    consumer.publish(T.rebirth, {"command": "rebirth"})
    assert consumer.wait_for(lambda s: bool(s.on("/reply")))
    reply = consumer.on("/reply")[0].json()
    assert (reply["ok"], reply["field"]) == (False, "request_id")


def test_a_command_sent_the_moment_the_table_is_online_is_heard(broker, tmp_path):
    """The table says ``online`` only once the broker has its command subscriptions: a
    director that acts on ``online`` at once (a floor console reconnecting) is not lost."""
    import threading

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    eager = TableTopics("casino", "t-eager")  # no retained status from other tests
    sent = threading.Event()
    director = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="eager-director")

    def on_message(client: Any, userdata: Any, msg: Any) -> None:
        if not sent.is_set() and json.loads(msg.payload).get("state") == "online":
            client.publish(eager.director, json.dumps({"command": "pause", "request_id": "e1"}), 1)
            sent.set()

    subscribed = threading.Event()
    director.on_message = on_message
    director.on_subscribe = lambda *args: subscribed.set()
    director.on_connect = lambda client, *args: client.subscribe(eager.status, 1)
    director.connect("127.0.0.1", broker.port)
    director.loop_start()
    bridge = TableBridge(venue="casino", table="t-eager", session="s1", port=broker.port,
                         outbox_path=tmp_path / "outbox.sqlite")
    try:
        assert subscribed.wait(10), "the director could not subscribe"
        bridge.start()
        assert sent.wait(10), "the table never said online"
        received = bridge.inbound.get(timeout=10)
        assert (received.command, received.request_id) == ("pause", "e1")
    finally:
        bridge.stop(drain_timeout=0.5)
        director.loop_stop()
        director.disconnect()


def test_a_clock_level_sent_once_subscribed_is_heard_however_late_the_SUBACK(
    broker, subscribers, tmp_path
):
    """The CONNACK comes before the table's subscriptions are in place, and the clock's
    level is not retained: sent in between it is lost for good (the dealer's-choice demo
    waited 300 s for its first level). ``wait_subscribed`` waits for the SUBACK; here the
    table's network thread is held right after the CONNACK, before its SUBSCRIBE goes out."""
    import threading

    late = TableTopics("casino", "t-late")
    bridge = TableBridge(venue="casino", table="t-late", session="s1", port=broker.port,
                         outbox_path=tmp_path / "outbox.sqlite")
    gate = threading.Event()

    def held(*args: Any) -> None:
        bridge._on_connect(*args)  # connected; the SUBSCRIBE is queued, not yet written
        gate.wait(30)

    bridge._client.on_connect = held
    clock = subscribers(broker.port, [late.reply]).start()
    try:
        bridge.start()
        assert bridge.wait_connected(30)
        assert not bridge.wait_subscribed(0)  # connected is not subscribed
        gate.set()
        assert bridge.wait_subscribed(30)
        clock.publish(late.clock, {"command": "level", "request_id": "lvl-1", "level": LEVEL_8})
        command = bridge.inbound.get(timeout=60)
        assert (command.command, command.request_id) == ("level", "lvl-1")
    finally:
        gate.set()
        bridge.stop(drain_timeout=0.5)


def test_a_command_from_a_login_that_commands_no_table_is_logged_and_ignored(
    broker, bridge, subscribers, caplog
):
    """Bad input (issue #27): ``cmd/overlay`` is a topic the overlay login may write (its
    own name) but not a login that commands tables: the table logs it and acts on nothing."""
    import logging

    from pokertable.bench.waiting import wait_for

    caplog.set_level(logging.WARNING, logger="pokertable.mqtt.bridge")
    overlay = subscribers(broker.port, [T.reply]).start()
    topic = f"{T.base}/cmd/overlay"
    overlay.publish(topic, {"command": "pause", "request_id": "o1"})
    wait_for(lambda: any(topic in r.getMessage() for r in caplog.records), "the warning")
    assert [r.getMessage() for r in caplog.records if topic in r.getMessage()] == [
        f"ignored a message on {topic}: not a login that commands tables"]
    assert bridge.inbound.empty() and bridge.rejected.empty()
