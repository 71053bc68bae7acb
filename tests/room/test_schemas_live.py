"""Every topic has a schema, docs/mqtt.md and the schema files agree, and what the table
and the room services really publish on the shipped mosquitto validates (issue #31).

The table's payloads come from a ``TableSession`` playing a hand through a real
``TableBridge`` (outbound validation off: the check is the subscriber's); the clock, the
seating desk and the broadcast relay are the real services. Every message every login
can read is checked against the schema ``mqtt.topics.schema_for_topic`` names."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.table_rig import TABLE_LOGIN, USERS
from pokertable.bench.waiting import wait_for
from pokertable.controller.table.public_state import table_state
from pokertable.controller.table.state import Channel
from pokertable.mqtt.bridge import TableBridge
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.mqtt.payloads import SCHEMA_DIR, SCHEMA_NAMES, SCHEMA_VERSION, validate
from pokertable.mqtt.topics import schema_for_topic
from pokertable.room.overlay_service import OverlayService, load_layout, page_config
from pokertable.room.seating_service import SeatingService
from tests.app.session_table import Table
from tests.room.conftest import room_clock

DOC = Path(__file__).resolve().parents[2] / "docs" / "mqtt.md"
STRUCTURE = "[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = 20\n"
INBOUND = {"clock", "director", "rebirth", "clock_control", "seating_control"}
PLAYERS = ((1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000))
HOLES = {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")}


def _doc_rows() -> list[tuple[str, str]]:
    """(topic, schema file) of every row of docs/mqtt.md's topic table."""
    text = DOC.read_text("utf-8")
    start = text.index("| topic | dir |")
    table = text[start:].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        topic = cells[0].strip("`")
        schemas = re.findall(r"`([a-z_]+)\.json`", cells[4])
        assert len(schemas) == 1, f"docs/mqtt.md: {topic} names no one schema file: {cells[4]}"
        rows.append((topic, schemas[0]))
    return rows


def _example(topic: str) -> str:
    """A concrete topic for a row of the docs' table."""
    concrete = (
        topic.replace("<venue>", "casino")
        .replace("<table>", "t07")
        .replace("<seat>", "3")
        .replace("<login>", "director/ann")
        .replace("<service>", "clock")
    )
    return f"pokertable/v1/{concrete}"


def test_docs_topic_table_and_schema_files_agree() -> None:
    """Each row of docs/mqtt.md names the schema the code uses for that topic, and every
    schema file (but the shared definitions) is named by a row."""
    rows = _doc_rows()
    assert len(rows) >= 20
    for topic, schema in rows:
        assert (SCHEMA_DIR / f"{schema}.json").is_file(), f"{topic}: no {schema}.json"
        if "services/<login>" in topic:  # a service login has one part in the example
            topic = topic.replace("<login>", "clock")
        assert schema_for_topic(_example(topic)) == schema, topic
    files = {p.stem for p in SCHEMA_DIR.glob("*.json")} - {"common"}
    assert files == {schema for _, schema in rows} == set(SCHEMA_NAMES)


@pytest.mark.parametrize("name", sorted(set(SCHEMA_NAMES) - INBOUND))
def test_outbound_schemas_take_an_added_field_and_ask_for_the_version(name: str) -> None:
    """A consumer written against v1 keeps validating when a field is added; the version
    is required, and only version 1 is v1."""
    schema = json.loads((SCHEMA_DIR / f"{name}.json").read_text("utf-8"))
    assert "unevaluatedProperties" not in schema and "additionalProperties" not in schema
    required = schema["required"] + [
        r for part in schema.get("allOf", []) for r in _ref_required(part)
    ]
    assert "schema_version" in required


def _ref_required(part: dict[str, Any]) -> list[str]:
    if part.get("$ref") == "common.json#/$defs/origin":
        common = json.loads((SCHEMA_DIR / "common.json").read_text("utf-8"))
        required: list[str] = common["$defs"]["origin"]["required"]
        return required
    return []


class Recorder:
    """One paho client per login, each subscribed to the whole tree: together they hear
    everything the ACL lets any of them read."""

    def __init__(self, port: int, logins: tuple[str, ...]) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        self.clients = []
        for login in logins:
            ready = threading.Event()
            client = mqtt.Client(
                CallbackAPIVersion.VERSION2, client_id=f"schema-check-{login.replace('/', '-')}"
            )
            client.username_pw_set(login, USERS[login])
            client.on_connect = lambda c, *_: c.subscribe("pokertable/v1/#", qos=1)
            client.on_subscribe = lambda *_, ready=ready: ready.set()
            client.on_message = self._on_message
            client.connect("127.0.0.1", port)
            client.loop_start()
            assert ready.wait(30), f"{login} could not subscribe"
            self.clients.append(client)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self._lock:
            self.messages.append((message.topic, bytes(message.payload)))

    def schemas_seen(self) -> set[str]:
        with self._lock:
            return {schema_for_topic(t) for t, _ in self.messages}

    def stop(self) -> None:
        for client in self.clients:
            client.loop_stop()
            client.disconnect()


@pytest.mark.needs("mosquitto")
def test_what_the_table_and_the_room_publish_validates(tmp_path: Path) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start(timeout=120)
    started: list[Any] = []
    recorder = None
    try:
        recorder = Recorder(
            broker.port, ("director", "overlay-secure", "broadcast", "floor", "overlay", "clock")
        )
        bridge = TableBridge(
            venue="club",
            table="t9",
            session="s-schema",
            outbox_path=tmp_path / "outbox.sqlite3",
            port=broker.port,
            username=TABLE_LOGIN,
            password=USERS[TABLE_LOGIN],
            validate_outbound=False,
        )
        bridge.start()
        started.append(bridge)
        clock = room_clock(broker, STRUCTURE)
        seating = SeatingService(
            host="127.0.0.1", port=broker.port, venue="club", login=("director", USERS["director"])
        )
        relay = OverlayService(
            host="127.0.0.1",
            port=broker.port,
            venue="club",
            table="t9",
            delay_s=0.2,
            relay_login=("broadcaster", USERS["broadcaster"]),
            heartbeat_s=0.3,
            page_config=page_config("ws://127.0.0.1:1", load_layout(None)),
        )
        for service in (clock, seating, relay):
            service.start()
            started.append(service)
        assert relay.wait_subscribed(), "the relay could not subscribe"
        assert bridge.wait_subscribed(30)  # commands from the room reach it

        table = Table(PLAYERS, first_button=3)
        sent = {"outputs": 0}

        def publish() -> None:
            """What the application hands its bridge (controller/app/table_app.py)."""
            for output in table.out[sent["outputs"] :]:
                if output.channel == Channel.EVENT:
                    bridge.publish_event(dict(output.payload))
                elif output.channel == Channel.HOLE_CARDS:
                    bridge.publish_hole_cards(dict(output.payload))
            sent["outputs"] = len(table.out)
            bridge.publish_state(table_state(table.session, table.t))

        publish()
        table.press("hand_start")
        for seat, cards in HOLES.items():
            for card in cards:
                table.card(f"seat{seat}.cards", card)
        publish()
        table.press("check_call")
        publish()
        bridge.reply("r-schema", ok=False, command="pause", error="not now", field=None)
        director = recorder.clients[0]
        director.publish(
            "pokertable/v1/club/t9/cmd/director",
            json.dumps({"command": "pause", "request_id": "d1", "note": "schema check"}),
            qos=1,
        )
        director.publish(
            "pokertable/v1/club/t9/cmd/rebirth",
            json.dumps({"command": "rebirth", "request_id": "rb1"}),
            qos=1,
        )
        director.publish(
            "pokertable/v1/club/clock/control",
            json.dumps(
                {"command": "add_seconds", "seconds": 60, "note": "by director (floor console)"}
            ),
            qos=1,
        )
        director.publish(
            "pokertable/v1/club/seating/control",
            json.dumps({"command": "waive_halt", "table": "t9"}),
            qos=1,
        )

        wanted = set(SCHEMA_NAMES)
        wait_for(
            lambda: recorder is not None and wanted <= recorder.schemas_seen(),
            "a message on every topic of the tree",
            timeout=120,
        )
        with recorder._lock:
            messages = list(recorder.messages)
        for topic, raw in messages:
            payload = json.loads(raw)
            schema = schema_for_topic(topic)
            validate(schema, payload)  # type: ignore[arg-type]
            if schema not in INBOUND:
                assert payload["schema_version"] == SCHEMA_VERSION, topic
    finally:
        if recorder is not None:
            recorder.stop()
        for service in reversed(started):
            service.stop()
        broker.stop()
