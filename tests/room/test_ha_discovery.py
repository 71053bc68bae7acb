"""Home Assistant MQTT discovery (issue #31): the clock announces each table and itself;
what it publishes on the shipped mosquitto is checked against Home Assistant's documented
discovery rules, and the templates are rendered with Jinja2 (HA's template engine) on what
the table and the clock really publish.

The rules below are written from Home Assistant's MQTT docs (integrations/mqtt, "MQTT
Discovery"; sensor.mqtt and binary_sensor.mqtt configuration), not from our code:

* topic ``<discovery_prefix>/<component>/[<node_id>/]<object_id>/config``, node and object
  ids from ``[a-zA-Z0-9_-]``; the config retained (else lost when HA restarts);
* the payload a JSON dictionary; every *required* variable present (``state_topic`` for a
  sensor and a binary sensor); names abbreviated only with the documented abbreviations;
* ``device`` only with ``unique_id``, and with ``identifiers`` or ``connections``;
* ``availability`` a list of maps, each with a ``topic``; ``availability_mode`` one of
  ``all``, ``any``, ``latest``; ``payload_available`` / ``payload_not_available`` default
  ``online`` / ``offline``; a binary sensor's state matches ``payload_on`` / ``payload_off``
  (default ``ON`` / ``OFF``);
* ``object_id`` (``obj_id``) is gone: HA deprecated it in 2025.10 for
  ``default_entity_id`` (``<component>.<id>``) and dropped it in 2026.4 (HA's own
  deprecation warning, quoted in many integrations' issue trackers).
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import jinja2
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.table_rig import TABLE_LOGIN, USERS
from pokertable.bench.waiting import wait_for
from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.bridge import TableBridge
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.clock_service import ClockService
from pokertable.room.ha_discovery import table_discovery
from tests.app.session_table import Table

TOPIC = re.compile(
    r"^homeassistant/(sensor|binary_sensor)/(?:[a-zA-Z0-9_-]+/)?[a-zA-Z0-9_-]+/config$"
)
ABBREVIATIONS = {  # the documented ones our two components may use
    "avty": "availability",
    "avty_mode": "availability_mode",
    "avty_t": "availability_topic",
    "avty_tpl": "availability_template",
    "dev": "device",
    "dev_cla": "device_class",
    "ent_cat": "entity_category",
    "exp_aft": "expire_after",
    "frc_upd": "force_update",
    "ic": "icon",
    "json_attr_t": "json_attributes_topic",
    "json_attr_tpl": "json_attributes_template",
    "name": "name",
    "obj_id": "object_id",
    "off_dly": "off_delay",
    "pl_avail": "payload_available",
    "pl_not_avail": "payload_not_available",
    "pl_off": "payload_off",
    "pl_on": "payload_on",
    "stat_cla": "state_class",
    "stat_t": "state_topic",
    "uniq_id": "unique_id",
    "unit_of_meas": "unit_of_measurement",
    "val_tpl": "value_template",
    "qos": "qos",
}
COMMON = {
    "availability",
    "availability_mode",
    "availability_topic",
    "availability_template",
    "device",
    "device_class",
    "enabled_by_default",
    "entity_category",
    "expire_after",
    "force_update",
    "icon",
    "json_attributes_template",
    "json_attributes_topic",
    "name",
    "default_entity_id",
    "payload_available",
    "payload_not_available",
    "qos",
    "state_topic",
    "unique_id",
    "value_template",
    "encoding",
}
KNOWN = {
    "sensor": COMMON | {"unit_of_measurement", "state_class"},
    "binary_sensor": COMMON | {"payload_on", "payload_off", "off_delay"},
}
DEVICE_KEYS = {
    "cu": "configuration_url",
    "cns": "connections",
    "ids": "identifiers",
    "name": "name",
    "mf": "manufacturer",
    "mdl": "model",
    "hw": "hw_version",
    "sw": "sw_version",
    "sa": "suggested_area",
    "via_device": "via_device",
}
AVAILABILITY_KEYS = {"topic", "payload_available", "payload_not_available", "value_template"}


def ha_problems(topic: str, payload: bytes, retained: bool) -> list[str]:
    """What Home Assistant's documented discovery rules say is wrong with one message."""
    match = TOPIC.match(topic)
    if match is None:
        return [f"{topic}: not <prefix>/<component>/[<node_id>/]<object_id>/config"]
    problems = [] if retained else [f"{topic}: not retained"]
    config = json.loads(payload)
    if not isinstance(config, dict):
        return [*problems, f"{topic}: payload is not a JSON dictionary"]
    config = {ABBREVIATIONS.get(k, k): v for k, v in config.items()}
    component = match.group(1)
    unknown = set(config) - KNOWN[component]
    if unknown:
        problems.append(f"{topic}: not documented for {component}: {sorted(unknown)}")
    if not isinstance(config.get("state_topic"), str):
        problems.append(f"{topic}: state_topic is required")
    device = config.get("device")
    if device is not None:
        device = {DEVICE_KEYS.get(k, k): v for k, v in device.items()}
        if "unique_id" not in config:
            problems.append(f"{topic}: a device only works with unique_id")
        if not (device.get("identifiers") or device.get("connections")):
            problems.append(f"{topic}: a device needs identifiers or connections")
        if set(device) - set(DEVICE_KEYS.values()):
            problems.append(f"{topic}: device keys {sorted(set(device))}")
    availability = config.get("availability", [])
    if not isinstance(availability, list) or not all(
        isinstance(a, dict) and isinstance(a.get("topic"), str) and set(a) <= AVAILABILITY_KEYS
        for a in availability
    ):
        problems.append(f"{topic}: availability must be a list of maps with a topic")
    if "availability" in config and "availability_topic" in config:
        problems.append(f"{topic}: availability and availability_topic together")
    if config.get("availability_mode", "latest") not in ("all", "any", "latest"):
        problems.append(f"{topic}: availability_mode")
    if config.get("qos", 0) not in (0, 1, 2):
        problems.append(f"{topic}: qos")
    return problems


def render(template: str, payload: dict[str, Any]) -> str:
    """A template as Home Assistant renders an MQTT value (``value_json``)."""
    return (
        jinja2.Environment(undefined=jinja2.StrictUndefined)
        .from_string(template)
        .render(value_json=payload, value=json.dumps(payload))
        .strip()
    )


class HomeAssistant:
    """A client with the ``homeassistant`` login reading what HA would subscribe to."""

    def __init__(self, port: int, password: str, client_id: str = "ha-under-test") -> None:
        self.messages: dict[str, tuple[bytes, bool]] = {}
        self._lock = threading.Lock()
        ready = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.client.username_pw_set("homeassistant", password)
        self.client.on_connect = lambda c, *_: c.subscribe(
            [("homeassistant/#", 1), ("pokertable/v1/#", 1)]
        )
        self.client.on_subscribe = lambda *_: ready.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert ready.wait(30), "homeassistant could not subscribe"

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self._lock:
            self.messages[message.topic] = (bytes(message.payload), bool(message.retain))

    def get(self, topic: str) -> tuple[bytes, bool] | None:
        with self._lock:
            return self.messages.get(topic)

    def configs(self) -> dict[str, tuple[bytes, bool]]:
        with self._lock:
            return {t: m for t, m in self.messages.items() if t.startswith("homeassistant/")}

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def test_the_check_catches_what_the_docs_forbid() -> None:
    """The checker itself: a config HA would reject or misread is named."""
    topic, good = table_discovery("club", "t9")[0]
    assert ha_problems(topic, json.dumps(good).encode(), True) == []
    assert ha_problems(topic, json.dumps(good).encode(), False) == [f"{topic}: not retained"]
    assert ha_problems("homeassistant/sensor/a.b/config", b"{}", True)
    no_state = {k: v for k, v in good.items() if k != "state_topic"}
    assert ha_problems(topic, json.dumps(no_state).encode(), True) == [
        f"{topic}: state_topic is required"
    ]
    no_id = {k: v for k, v in good.items() if k != "unique_id"}
    assert ha_problems(topic, json.dumps(no_id).encode(), True) == [
        f"{topic}: a device only works with unique_id"
    ]
    old = {**good, "obj_id": "x"}
    assert "not documented" in ha_problems(topic, json.dumps(old).encode(), True)[0]
    typo = {**good, "stat_topic": "x"}
    assert "not documented" in ha_problems(topic, json.dumps(typo).encode(), True)[0]


@pytest.mark.needs("mosquitto")
def test_clock_announces_tables_and_itself_to_home_assistant(tmp_path: Path) -> None:
    users = {**USERS, "homeassistant": "ha-secret"}
    broker = MosquittoProcess.from_shipped(tmp_path, users=users)
    broker.start(timeout=120)
    ha = bridge = clock = None
    try:
        ha = HomeAssistant(broker.port, users["homeassistant"])
        bridge = TableBridge(
            venue="club",
            table="t9",
            session="s-ha",
            outbox_path=tmp_path / "outbox.sqlite3",
            port=broker.port,
            username=TABLE_LOGIN,
            password=USERS[TABLE_LOGIN],
        )
        bridge.start()
        clock = ClockService(
            host="127.0.0.1",
            port=broker.port,
            venue="club",
            structure_text="[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = 20\n",
            login=("clock", USERS["clock"]),
            ha_prefix="homeassistant",
        )
        clock.start()
        table = Table(((1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000)), first_button=3)
        table.press("hand_start")
        for seat, cards in {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")}.items():
            for card in cards:
                table.card(f"seat{seat}.cards", card)
        table.press("check_call")  # Cat calls the big blind: 100 + 200 + 200 in front
        bridge.publish_state(table_state(table.session, table.t))

        wait_for(
            lambda: ha is not None and len(ha.configs()) == 13,
            "seven table and six clock discovery configs",
            timeout=60,
        )
        # Home Assistant restarts: only retained configs reach it again.
        ha.stop()
        ha = HomeAssistant(broker.port, users["homeassistant"], "ha-restarted")
        wait_for(
            lambda: ha is not None and len(ha.configs()) == 13,
            "the retained discovery configs",
            timeout=60,
        )
        configs = ha.configs()
        problems = [
            p
            for topic, (raw, retained) in configs.items()
            for p in ha_problems(topic, raw, retained)
        ]
        assert problems == []
        parsed = {topic: json.loads(raw) for topic, (raw, _) in configs.items()}
        assert len({c["unique_id"] for c in parsed.values()}) == 13
        devices = {c["device"]["identifiers"][0] for c in parsed.values()}
        assert devices == {"pokertable_club_t9", "pokertable_club_clock"}

        def value(node: str, component: str, object_id: str) -> str:
            config = parsed[f"homeassistant/{component}/pokertable_club_{node}/{object_id}/config"]
            message = wait_for(
                lambda: ha is not None and ha.get(config["state_topic"]),
                f"{config['state_topic']}",
                timeout=60,
            )
            return render(config["value_template"], json.loads(message[0]))

        wait_for(lambda: ha is not None and ha.get("pokertable/v1/club/t9/state"), "the state")
        assert value("t9", "sensor", "level") == "1"
        assert value("t9", "sensor", "blinds") == "100/200"
        assert value("t9", "sensor", "players") == "3"
        assert value("t9", "sensor", "pot") == "500"
        assert value("t9", "sensor", "floor_calls") == "0"
        assert value("t9", "binary_sensor", "floor_call") == "OFF"
        assert value("t9", "binary_sensor", "online") == "ON"
        assert value("clock", "sensor", "level") == "Level 1"
        assert value("clock", "sensor", "blinds") == "100/200"
        assert value("clock", "binary_sensor", "on_break") == "OFF"
        assert value("clock", "binary_sensor", "online") == "ON"

        # A floor call (an alert in the state) turns the binary sensor on.
        state = json.loads(ha.get("pokertable/v1/club/t9/state")[0])  # type: ignore[index]
        alert = {
            "id": "h1/F1",
            "rule_ids": ["TDA2024-56"],
            "kind": "string_bet",
            "text": "string bet",
            "options": ["first_motion", "count_all"],
        }
        floor = parsed["homeassistant/binary_sensor/pokertable_club_t9/floor_call/config"]
        assert render(floor["value_template"], {**state, "alerts": [alert]}) == "ON"

        # Availability follows the table's birth/death: online now, offline once it stops.
        level = parsed["homeassistant/sensor/pokertable_club_t9/level/config"]
        [available] = level["availability"]

        def availability() -> str:
            raw = ha.get(available["topic"]) if ha is not None else None
            return render(available["value_template"], json.loads(raw[0])) if raw else ""

        assert availability() == available["payload_available"] == "online"
        bridge.stop()
        bridge = None
        wait_for(lambda: availability() == "offline", "the table's offline status")
        assert available["payload_not_available"] == "offline"
    finally:
        for part in (clock, bridge, ha):
            if part is not None:
                part.stop()
        broker.stop()


def test_node_red_example_flow_reads_topics_of_the_tree() -> None:
    """The example flow in docs imports (valid JSON, one mqtt-broker) and subscribes only to
    topics the tree has (each with a schema)."""
    from pokertable.mqtt.topics import schema_for_topic

    flow = json.loads(
        (
            Path(__file__).resolve().parents[2] / "docs" / "examples" / "node-red-floor-light.json"
        ).read_text("utf-8")
    )
    ids = {node["id"] for node in flow}
    assert [n["type"] for n in flow].count("mqtt-broker") == 1
    inputs = [n for n in flow if n["type"] == "mqtt in"]
    assert {schema_for_topic(n["topic"].replace("+", "t07")) for n in inputs} == {"state", "status"}
    for node in flow:  # every wire leads to a node of the flow
        assert all(target in ids for out in node.get("wires", []) for target in out)
