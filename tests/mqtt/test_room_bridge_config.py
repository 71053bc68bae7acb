"""The room-to-venue bridge configuration documented in docs/scaling.md works as written.

Two real mosquitto processes: a room broker running the shipped config plus
docs/examples/room-bridge.conf, and a central broker. A table publishes to its room
broker; the venue sees its retained state and its events on the central broker, and a
director command sent on the central broker reaches the table.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.mqtt.bridge import TableBridge
from pokertable.mqtt.mosquitto import MosquittoProcess

pytestmark = pytest.mark.needs("mosquitto")

REPO = Path(__file__).resolve().parents[2]
STALL_S = 30  # only if something is broken: each wait names what it waited for


class Venue:
    """A client of the central broker that records every message on the table's tree."""

    def __init__(self, port: int, topic: str) -> None:
        self.messages: list[tuple[str, dict[str, Any], bool]] = []
        self.changed = threading.Condition()
        subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(topic, 1)
        self.client.on_subscribe = lambda c, u, mid, rc, p: subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert subscribed.wait(STALL_S), "the venue client could not subscribe"

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self.changed:
            self.messages.append((message.topic, json.loads(message.payload), message.retain))
            self.changed.notify_all()

    def wait_for(self, leaf: str, what: str) -> dict[str, Any]:
        def found() -> list[dict[str, Any]]:
            return [p for t, p, _ in self.messages if t.endswith(leaf)]

        with self.changed:
            assert self.changed.wait_for(found, STALL_S), f"venue never saw {what}"
            return found()[-1]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _room_broker(workdir: Path, central_port: int) -> MosquittoProcess:
    room = MosquittoProcess.from_shipped(workdir)
    documented = (REPO / "docs" / "examples" / "room-bridge.conf").read_text()
    filled = (
        documented.replace("ROOM_NAME", "east")
        .replace("CENTRAL_HOST", "127.0.0.1")
        .replace("CENTRAL_PORT", str(central_port))
        .replace("CENTRAL_USER", "room-east")
        .replace("CENTRAL_PASSWORD", "unused-by-an-anonymous-test-broker")
    )
    room.config_path.write_text(room.config_path.read_text() + "\n" + filled)
    return room


def test_documented_room_bridge_carries_state_events_and_commands(tmp_path: Path) -> None:
    (tmp_path / "central").mkdir()
    (tmp_path / "room").mkdir()
    central = MosquittoProcess.from_shipped(tmp_path / "central")
    central.start()
    room = _room_broker(tmp_path / "room", central.port)
    room.start()
    venue = Venue(central.port, "pokertable/v1/club/t3/#")
    bridge = TableBridge(
        venue="club", table="t3", session="s1", port=room.port,
        outbox_path=tmp_path / "outbox.sqlite3",
    )  # fmt: skip
    try:
        bridge.start()
        assert bridge.wait_connected(STALL_S), "the table could not reach its room broker"
        # The bridge connection comes up on its own schedule: the table's status is
        # retained, so the venue sees it once the room is linked, whenever that is.
        venue.wait_for("/status", "the table's status through the room bridge")
        bridge.publish_state({"hand_number": 4, "seats": []})
        bridge.publish_event({"hand_id": "h4", "kind": "bet", "rulings": [], "data": {}})
        state = venue.wait_for("/state", "the table's state")
        event = venue.wait_for("/events", "the table's event")
        assert (state["hand_number"], state["table"]) == (4, "t3")
        assert (event["kind"], event["session"]) == ("bet", "s1")

        command = {"command": "pause", "request_id": "r-1"}
        venue.client.publish("pokertable/v1/club/t3/cmd/director", json.dumps(command), 1)
        received = bridge.inbound.get(timeout=STALL_S)
        assert (received.command, received.request_id) == ("pause", "r-1")
    finally:
        bridge.stop()
        venue.close()
        room.stop()
        central.stop()
