"""A room command published with the retain flag is applied once, never again (issue #26).

Commands are requests answered by a reply, not state. When a sender (a console script, a
misconfigured client) sets the retain flag, the broker keeps the command and hands it to
every later subscriber: without a guard, a table that opens a new journal (a new
tournament, the old journal moved aside) has no record of its ``request_id`` and applies
the stale command again. Driven through the real runtime, bridge and mosquitto.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.waiting import wait_for
from pokertable.controller.app.config import load_config
from pokertable.controller.app.runtime import TableRuntime
from pokertable.controller.app.table_app import TableApp
from pokertable.controller.table.inputs import RoomCommand, from_record
from pokertable.hardware.registry import TagRegistry
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.mqtt.topics import TableTopics

pytestmark = pytest.mark.needs("mosquitto")
TOPICS = TableTopics("club", "t1")


class Director:
    """The room's director client: publishes commands and records every reply."""

    def __init__(self, port: int) -> None:
        self.replies: list[dict[str, Any]] = []
        self.online = 0  # "online" statuses seen: the table has its command subscriptions
        self._lock = threading.Lock()
        subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="retain-director")
        self.client.on_connect = lambda c, *a: c.subscribe([(TOPICS.reply, 1),
                                                             (TOPICS.status, 1)])
        self.client.on_subscribe = lambda *a: subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert subscribed.wait(10), "the director could not subscribe to replies"

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        body = json.loads(msg.payload)
        with self._lock:
            if msg.topic == TOPICS.status:
                self.online += body["state"] == "online" and not msg.retain
            else:
                self.replies.append(body)

    def start_table(self, runtime: TableRuntime) -> TableApp:
        """Start ``runtime`` and wait until it says online: its commands are heard."""
        before = self.online
        app = runtime.start()
        wait_for(lambda: self.online > before, "the table to say online")
        return app

    def reply_to(self, request_id: str) -> dict[str, Any] | None:
        with self._lock:
            return next((r for r in self.replies if r["request_id"] == request_id), None)

    def send(self, request_id: str, command: str, *, retain: bool = False, **more: Any) -> None:
        body = json.dumps({"command": command, "request_id": request_id, **more})
        self.client.publish(TOPICS.director, body, qos=1, retain=retain).wait_for_publish(10)

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def _runtime(tmp_path: Path, port: int, **options: Any) -> TableRuntime:
    (tmp_path / "table.toml").write_text(
        "\n".join([
            "[table]", 'venue = "club"', 'id = "t1"',
            "[[levels]]", "number = 1", "small_blind = 100", "big_blind = 200",
            "[registry]", 'path = "registry.sqlite3"',
            "[journal]", 'path = "journal.jsonl"',
            "[mqtt]", f"port = {port}", 'outbox = "outbox.sqlite3"',
        ]) + "\n"
    )
    if not (tmp_path / "registry.sqlite3").exists():
        TagRegistry(tmp_path / "registry.sqlite3").close()
    return TableRuntime(load_config(tmp_path / "table.toml"), **options)


def _commands(app: TableApp) -> list[str]:
    """The request ids of the room commands in the table's journal."""
    inputs = (from_record(record) for record in app.journal.records())
    return [item.request_id for item in inputs if isinstance(item, RoomCommand)]


def test_a_retained_command_is_not_applied_again_by_a_new_journal(tmp_path: Path) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path)
    broker.start()
    director = Director(broker.port)
    runtime = _runtime(tmp_path, broker.port)
    try:
        app = director.start_table(runtime)
        director.send("p1", "pause", retain=True)  # live: the table applies it once
        assert wait_for(lambda: director.reply_to("p1"), "the pause's reply")["ok"] is True
        assert app.session.paused and _commands(app) == ["p1"]
        runtime.stop()

        (tmp_path / "journal.jsonl").rename(tmp_path / "journal-day1.jsonl")  # a new event
        runtime = _runtime(tmp_path, broker.port)
        director.replies.clear()
        app = director.start_table(runtime)  # the broker hands it the retained "pause"
        director.send("s1", "hand_for_hand", enabled=False)  # a live command after it
        wait_for(lambda: director.reply_to("s1"), "the live command's reply")
        assert not app.session.paused  # the stale pause was not applied again
        assert "p1" not in _commands(app)
        refused = director.reply_to("p1")
        assert refused is not None and refused["ok"] is False
        assert "retain" in refused["error"]
    finally:
        runtime.stop()
        director.stop()
        broker.stop()
