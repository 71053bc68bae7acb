"""Hostile MQTT input against the whole table: real mosquitto with the shipped config and
ACL, the real ``pokertable run`` process, simulated reader nodes running the firmware.

Each drill sends what a hostile or broken room client can send, then proves the table is
still running (a director command still goes through the engine and is answered) and that
nothing acted twice. Issue #12, Found 1, 4, 5, 6 and 7.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.table_rig import PREFIX, TABLE_LOGIN, USERS, TableRig, Watcher
from pokertable.bench.waiting import wait_for

pytestmark = pytest.mark.needs("mosquitto", "micropython")

PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500)]
OTHER_PREFIX = "pokertable/v1/club/t8"

def online(rig: TableRig) -> None:
    wait_for(lambda: any(s["state"] == "online" for s in rig.overlay.on("/status")),
             f"the table to come online: {rig.log()}")


def reply_to(rig: TableRig, request_id: str) -> dict[str, Any]:
    found: dict[str, Any] = wait_for(
        lambda: next((r for r in rig.director.on("/reply") if r["request_id"] == request_id),
                     None),
        f"a reply to {request_id}",
    )
    return found


def director(rig: TableRig, command: str, request_id: str, **fields: Any) -> None:
    rig.director.publish(f"{PREFIX}/cmd/director",
                         {"command": command, "request_id": request_id, **fields})


def still_running(rig: TableRig, tag: str) -> None:
    """The engine still takes commands: pause and resume, each answered and in the state."""
    director(rig, "pause", f"{tag}-pause")
    assert reply_to(rig, f"{tag}-pause")["ok"] is True
    rig.overlay.wait_state(lambda s: s["paused"] is True, "the table to pause")
    director(rig, "resume", f"{tag}-resume")
    assert reply_to(rig, f"{tag}-resume")["ok"] is True
    rig.overlay.wait_state(lambda s: s["paused"] is False, "the table to resume")


class RawClient:
    """A room client that sends raw bytes and records raw messages (a hostile login)."""

    def __init__(self, port: int, user: str, client_id: str = "", subscribe: tuple[str, ...] = ()):
        self.messages: list[tuple[str, bytes]] = []
        self.connect_codes: list[Any] = []
        self.granted: list[Any] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.client.username_pw_set(user, USERS[user])
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, bytes(m.payload)))
        self.client.on_subscribe = lambda c, u, mid, codes, p: self.granted.extend(codes)
        self._topics = subscribe
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        wait_for(lambda: self.connect_codes, f"{user} to connect")
        assert not self.connect_codes[0].is_failure, self.connect_codes
        if subscribe:
            wait_for(lambda: len(self.granted) >= len(subscribe), f"{user}'s subscriptions")

    def _on_connect(self, client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        self.connect_codes.append(code)
        if self._topics:
            client.subscribe([(t, 1) for t in self._topics])

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(10)

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TableRig]:
    table = TableRig(tmp_path_factory.mktemp("hostile"), PLAYERS, first_button=3)
    try:
        table.start_controller()
        online(table)
        yield table
    finally:
        table.close()


def test_mqtt_nested_payload_on_rebirth_is_answered_and_the_table_keeps_running(rig):
    overlay = RawClient(rig.broker.port, "overlay-secure", "nested")
    try:
        for depth in (60_000, 100_000):  # under and over our own 64 KiB limit
            overlay.publish(f"{PREFIX}/cmd/rebirth", b"[" * depth)
        overlay.publish(f"{PREFIX}/cmd/rebirth", b'{"command":"rebirth","request_id":"n-after"}')
        assert reply_to(rig, "n-after")["ok"] is True
    finally:
        overlay.stop()
    errors = [r["error"] for r in rig.director.on("/reply") if r["request_id"] is None]
    assert "payload is nested too deeply" in errors
    assert any("the limit is 65536" in e for e in errors)
    still_running(rig, "after-nested")
    assert "Traceback" not in rig.log()


def test_mqtt_oversized_payloads_stop_at_the_broker_or_at_our_decode(rig):
    filler = {"command": "rebirth", "request_id": "", "reason": ""}

    def sized(request_id: str, size: int) -> bytes:
        body = json.dumps(dict(filler, request_id=request_id)).encode()
        return body[:-1] + b', "pad": "' + b"x" * (size - len(body) - 11) + b'"}'

    huge = RawClient(rig.broker.port, "overlay-secure", "huge")
    huge.client.publish(f"{PREFIX}/cmd/rebirth", sized("big-8m", 8 * 1024 * 1024), qos=1)
    # Over max_packet_size: the broker ends the sender's connection and forwards nothing.
    wait_for(lambda: not huge.client.is_connected() or len(huge.connect_codes) > 1,
             "the broker to drop the 8 MiB sender")
    huge.stop()
    sender = RawClient(rig.broker.port, "overlay-secure", "sizes")
    try:
        sender.publish(f"{PREFIX}/cmd/rebirth", sized("big-300k", 300 * 1024))  # broker drops
        sender.publish(f"{PREFIX}/cmd/rebirth", sized("big-100k", 100 * 1024))  # we refuse
        sender.publish(f"{PREFIX}/cmd/rebirth", b'{"command":"rebirth","request_id":"s-after"}')
        reply_to(rig, "s-after")
    finally:
        sender.stop()
    replies = rig.director.on("/reply")
    refused = [r["error"] for r in replies if "the limit is" in r.get("error", "")]
    # Only the 100 KiB one reached the table (the reply of any other would be here too).
    assert refused.count("payload is 102400 bytes; the limit is 65536") == 1, refused
    assert not [e for e in refused if "8388608" in e or "307200" in e], refused
    still_running(rig, "after-oversized")


def test_mqtt_overlay_with_the_tables_client_id_cannot_disconnect_the_table(rig):
    """Found 4: the old predictable client id and the login are not the table's client id."""
    observer = Watcher(rig.broker.port, "overlay-secure", (f"{PREFIX}/status", f"{PREFIX}/state"))
    rig.overlay.stop()  # the attacker uses the public overlay login
    try:
        before = len(observer.on("/status"))
        for client_id in (TABLE_LOGIN, "pokertable-club-t9"):
            attacker = RawClient(rig.broker.port, "overlay", client_id)
            attacker.publish(f"{PREFIX}/cmd/rebirth",
                             json.dumps({"command": "rebirth", "request_id": client_id}).encode())
            reply_to(rig, client_id)  # the table is still connected: it answered
            attacker.stop()
        director(rig, "pause", "takeover-check")
        observer.wait_state(lambda s: s["paused"] is True, "the table's state after the attack")
        statuses = [s["state"] for s in observer.on("/status")[before:]]
        assert "lost" not in statuses and "offline" not in statuses, statuses
    finally:
        director(rig, "resume", "takeover-resume")
        reply_to(rig, "takeover-resume")
        observer.stop()
        rig.overlay = Watcher(rig.broker.port, "overlay",
                              (f"{PREFIX}/state", f"{PREFIX}/events", f"{PREFIX}/status"))


def test_mqtt_a_table_login_cannot_write_another_tables_tree_or_read_its_commands(rig):
    observer = Watcher(rig.broker.port, "overlay-secure",
                       (f"{PREFIX}/#", f"{OTHER_PREFIX}/state"))
    other = RawClient(rig.broker.port, "club/t8", subscribe=(f"{PREFIX}/cmd/#", "pokertable/v1/#"))
    try:
        forged = {"venue": "club", "table": "t9", "session": "forged", "seq": 10**9}
        for leaf in ("state", "status", "events", "reply", "secure/hole_cards/1"):
            other.publish(f"{PREFIX}/{leaf}", json.dumps(forged).encode(), retain=True)
        other.publish(f"{OTHER_PREFIX}/state", json.dumps({"own": True}).encode())
        director(rig, "pause", "cross-check")
        reply_to(rig, "cross-check")
        # Positive control: its own subtree works, so the refusals above are the ACL's doing.
        wait_for(lambda: [t for t, _ in observer.messages if t == f"{OTHER_PREFIX}/state"],
                 "t8's own state")
        rig.overlay.wait_state(lambda s: s["paused"] is True, "t9's real state")
        assert not [p for t, p in observer.messages if p.get("session") == "forged"]
        assert not [t for t, _ in other.messages if "/t9/" in t], "t8 read t9's commands"
    finally:
        other.stop()
        observer.stop()
        director(rig, "resume", "cross-resume")
        reply_to(rig, "cross-resume")
    still_running(rig, "after-cross")


def _seat(state: dict[str, Any], number: int) -> dict[str, Any]:
    return next(s for s in state["seats"] if s["seat"] == number)


def _without_seq(reply: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in reply.items() if k != "seq"}


def test_mqtt_the_same_request_id_acts_once_even_across_a_kill_9(tmp_path: Path) -> None:
    from pokertable.bench.crash_script import perform, script

    table = TableRig(tmp_path, PLAYERS, first_button=3)
    try:
        table.start_controller()
        online(table)
        for step in script()[:9]:  # hand start, blinds, six hole cards: seat 3 to act
            perform(table, step)
            table.overlay.wait_state(step[2], f"step {step[:2]}")
        table.overlay.wait_state(lambda s: s["action_on"] == 3, "seat 3 to act")
        press = {"command": "dealer_button", "request_id": "dup-1", "button": "check_call"}
        for _ in range(3):  # the sender retries; QoS 1 may also deliver it again
            table.director.publish(f"{PREFIX}/cmd/director", press)
        replies = wait_for(
            lambda: [r for r in table.director.on("/reply") if r["request_id"] == "dup-1"][2:]
            and [r for r in table.director.on("/reply") if r["request_id"] == "dup-1"],
            "three answers to dup-1",
        )
        assert len({json.dumps(_without_seq(r), sort_keys=True) for r in replies}) == 1
        state = table.overlay.wait_state(lambda s: s["action_on"] == 1, "seat 1 to act")
        assert (_seat(state, 3)["bet"], _seat(state, 1)["bet"]) == (200, 100)

        before = sum(1 for s in table.overlay.on("/status") if s["state"] == "online")
        table.kill_controller()
        table.start_controller()
        wait_for(lambda: sum(1 for s in table.overlay.on("/status") if s["state"] == "online")
                 > before, f"the controller to come back: {table.log()}", timeout=60)
        table.director.publish(f"{PREFIX}/cmd/director", press)  # after the restart, again
        wait_for(lambda: len([r for r in table.director.on("/reply")
                              if r["request_id"] == "dup-1"]) >= 4, "a fourth answer")
        director(table, "pause", "dup-probe")  # processed after the repeat: state is settled
        state = table.overlay.wait_state(lambda s: s["paused"] is True, "the probe")
        assert (_seat(state, 3)["bet"], _seat(state, 1)["bet"], state["action_on"]) == (200, 100, 1)

        director(table, "resume", "dup-resume")
        reply_to(table, "dup-resume")
        # The control: a new request id does act, so the repeats above really were refused.
        table.director.publish(f"{PREFIX}/cmd/director", dict(press, request_id="dup-2"))
        state = table.overlay.wait_state(lambda s: _seat(s, 1)["bet"] == 200, "seat 1 to call")
        assert state["action_on"] == 2
    finally:
        table.close()
