"""Home Assistant MQTT discovery: each table and the clock as a device of sensors.

A venue's Home Assistant (or anything else reading HA discovery, such as Node-RED's HA
nodes) finds the room without hand-written topic parsing: the clock process, run with
``--ha-discovery``, publishes one retained config per entity under
``<prefix>/<component>/<node>/<object>/config``. The entities read our own retained topics
(``state``, ``status``, ``clock/status``) through templates, so nothing new is published
per hand; availability is the table's ``status`` (birth / last will) and the clock's
service status. Pure: names in, (topic, payload) pairs out.

>>> table_discovery("club", "t9")[0][0]
'homeassistant/sensor/pokertable_club_t9/level/config'
>>> table_discovery("club", "t9")[0][1]["availability"][0]["topic"]
'pokertable/v1/club/t9/status'
"""

from __future__ import annotations

from typing import Any

from pokertable.mqtt.topics import ROOT, check_name

DEFAULT_PREFIX = "homeassistant"
ONLINE = "{{ 'online' if value_json.state == 'online' else 'offline' }}"
"""Our status is JSON with ``offline`` and ``lost`` (the will): both mean unavailable."""

Entity = tuple[str, str, str, dict[str, Any]]
"""(component, object id, name, the rest of its config)."""

TABLE_ENTITIES: tuple[Entity, ...] = (
    (
        "sensor",
        "level",
        "Level",
        {"value_template": "{{ value_json.level.number }}", "icon": "mdi:stairs-up"},
    ),
    (
        "sensor",
        "blinds",
        "Blinds",
        {
            "value_template": "{{ value_json.level.small_blind }}/{{ value_json.level.big_blind }}"
            "{{ ' ante ' ~ value_json.level.ante if value_json.level.ante else '' }}",
            "icon": "mdi:poker-chip",
        },
    ),
    (
        "sensor",
        "players",
        "Players",
        {
            "value_template": "{{ value_json.seats | rejectattr('status', 'eq', 'empty') | list"
            " | count }}",
            "state_class": "measurement",
            "icon": "mdi:account-group",
        },
    ),
    (
        "sensor",
        "pot",
        "Pot",
        {
            "value_template": "{{ 0 if value_json.street == 'complete' else"
            " (value_json.pots | sum(attribute='amount'))"
            " + (value_json.seats | sum(attribute='bet')) }}",
            "unit_of_measurement": "chips",
            "state_class": "measurement",
            "icon": "mdi:cash",
        },
    ),
    (
        "sensor",
        "floor_calls",
        "Floor calls open",
        {
            "value_template": "{{ value_json.alerts | count }}",
            "state_class": "measurement",
            "icon": "mdi:hand-back-right",
        },
    ),
    (
        "binary_sensor",
        "floor_call",
        "Floor call",
        {
            "value_template": "{{ 'ON' if value_json.alerts | count > 0 else 'OFF' }}",
            "payload_on": "ON",
            "payload_off": "OFF",
            "device_class": "problem",
        },
    ),
)
CLOCK_ENTITIES: tuple[Entity, ...] = (
    (
        "sensor",
        "level",
        "Level",
        {"value_template": "{{ value_json.step }}", "icon": "mdi:stairs-up"},
    ),
    (
        "sensor",
        "blinds",
        "Blinds",
        {
            "value_template": "{{ '' if value_json.level is none else"
            " value_json.level.small_blind ~ '/' ~ value_json.level.big_blind }}",
            "icon": "mdi:poker-chip",
        },
    ),
    (
        "sensor",
        "time_left",
        "Time left",
        {
            "value_template": "{{ (value_json.remaining_ms / 1000) | round(0) | int }}",
            "unit_of_measurement": "s",
            "device_class": "duration",
            "icon": "mdi:timer-outline",
        },
    ),
    (
        "sensor",
        "players",
        "Players left",
        {
            "value_template": "{{ value_json.players_left if value_json.players_left is not none"
            " else 0 }}",
            "state_class": "measurement",
            "icon": "mdi:account-group",
        },
    ),
    (
        "binary_sensor",
        "on_break",
        "On break",
        {
            "value_template": "{{ 'ON' if value_json.is_break else 'OFF' }}",
            "payload_on": "ON",
            "payload_off": "OFF",
            "icon": "mdi:coffee",
        },
    ),
)


def _node(*parts: str) -> str:
    return "_".join(("pokertable", *parts))


def _device(node: str, name: str, model: str) -> dict[str, Any]:
    return {"identifiers": [node], "name": name, "manufacturer": "pokertable", "model": model}


def _entity(
    prefix: str,
    node: str,
    device: dict[str, Any],
    entity: Entity,
    state_topic: str,
    availability: list[dict[str, str]],
) -> tuple[str, dict[str, Any]]:
    component, object_id, name, rest = entity
    config: dict[str, Any] = {
        "name": name,
        "unique_id": f"{node}_{object_id}",
        # the entity id HA gives it; ``object_id`` did this until HA deprecated it (2025.10)
        "default_entity_id": f"{component}.{node}_{object_id}",
        "state_topic": state_topic,
        "device": device,
        "qos": 1,
        **rest,
    }
    if availability:
        config["availability"] = availability
        config["availability_mode"] = "latest"
    return f"{prefix}/{component}/{node}/{object_id}/config", config


def _available_while_online(status_topic: str) -> list[dict[str, str]]:
    """HA's availability for a device whose retained status says ``online``/``offline``."""
    return [
        {
            "topic": status_topic,
            "value_template": ONLINE,
            "payload_available": "online",
            "payload_not_available": "offline",
        }
    ]


def _online_sensor(
    prefix: str, node: str, device: dict[str, Any], status_topic: str
) -> tuple[str, dict[str, Any]]:
    """The device's Online binary sensor, read from its status topic: always available, so
    it can show the device offline."""
    return _entity(
        prefix,
        node,
        device,
        (
            "binary_sensor",
            "online",
            "Online",
            {
                "value_template": "{{ 'ON' if value_json.state == 'online' else 'OFF' }}",
                "payload_on": "ON",
                "payload_off": "OFF",
                "device_class": "connectivity",
            },
        ),
        status_topic,
        [],
    )


def table_discovery(
    venue: str, table: str, prefix: str = DEFAULT_PREFIX
) -> list[tuple[str, dict[str, Any]]]:
    """One table as an HA device: level, blinds, players, pot, floor calls (sensors), the
    floor call (a binary sensor, for a table light that turns red) and online."""
    base = f"{ROOT}/{check_name('venue', venue)}/{check_name('table', table)}"
    node = _node(venue, table)
    device = _device(node, f"Poker table {venue}/{table}", "smart poker table")
    available = _available_while_online(f"{base}/status")
    out = [_entity(prefix, node, device, e, f"{base}/state", available) for e in TABLE_ENTITIES]
    out.append(_online_sensor(prefix, node, device, f"{base}/status"))
    return out


def clock_discovery(
    venue: str, login: str, prefix: str = DEFAULT_PREFIX
) -> list[tuple[str, dict[str, Any]]]:
    """The tournament clock as an HA device; available while its service status is online."""
    base = f"{ROOT}/{check_name('venue', venue)}"
    node = _node(venue, "clock")
    device = _device(node, f"Tournament clock {venue}", "tournament clock")
    service = f"{base}/services/{login}/clock"
    available = _available_while_online(service)
    out = [
        _entity(prefix, node, device, e, f"{base}/clock/status", available) for e in CLOCK_ENTITIES
    ]
    out.append(_online_sensor(prefix, node, device, service))
    return out
