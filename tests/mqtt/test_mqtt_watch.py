"""``pokertable watch`` against a real broker, in its non-interactive --once mode."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from mqtt_samples import sample_event, sample_state

from pokertable.mqtt import watch
from pokertable.mqtt.bridge import TableBridge
from pokertable.mqtt.topics import TableTopics


def _args(port: int, **overrides: object) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    watch.add_arguments(parser)
    args = parser.parse_args(["--port", str(port), "--once", "--timeout", "3"])
    for key, value in overrides.items():
        setattr(args, key, value)
    return args


def _bridge(port: int, table: str, tmp_path: Path) -> TableBridge:
    bridge = TableBridge(venue="casino", table=table, session=f"s-{table}", port=port,
                         outbox_path=tmp_path / f"{table}.sqlite", validate_outbound=True)
    bridge.start()
    return bridge


def test_watch_one_table_renders_seats_board_and_floor_alert(broker, tmp_path, capsys):
    bridge = _bridge(broker.port, "t07", tmp_path)
    try:
        bridge.publish_state(sample_state())
        bridge.publish_event(sample_event(3))
        assert bridge.wait_delivered(5)
        assert watch.run(_args(broker.port, venue="casino", table="t07")) == 0
    finally:
        bridge.stop(drain_timeout=0.5)
    out = capsys.readouterr().out
    for text in ("casino / t07", "online", "Ada", "Grace", "31000", "A♠ K♦ 7♣", "2600",
                 "TDA2024-45B", "L7 200/400"):
        assert text in out, text


def test_watch_room_lists_every_table(broker, tmp_path, capsys):
    bridges = [_bridge(broker.port, name, tmp_path) for name in ("t01", "t02")]
    try:
        bridges[0].publish_state(sample_state(hand_number=5))
        bridges[1].publish_state(sample_state(hand_number=77, street=None, board=[]))
        for bridge in bridges:
            assert bridge.wait_delivered(5)
        assert watch.run(_args(broker.port, timeout=1.5)) == 0
    finally:
        for bridge in bridges:
            bridge.stop(drain_timeout=0.5)
    out = capsys.readouterr().out
    assert "t01" in out and "t02" in out and "77" in out


def test_watch_without_state_says_so(broker, capsys):
    assert watch.run(_args(broker.port, venue="casino", table="nobody", timeout=0.5)) == 1
    assert "no table state" in capsys.readouterr().out


def test_room_detects_gap_and_ignores_duplicates():
    room = watch.Room()
    topic = TableTopics("casino", "t07").events

    def event(seq: int) -> bytes:
        return json.dumps({"session": "s1", "seq": seq, "kind": "bet", "rulings": []}).encode()

    assert room.apply(topic, event(1)) is not None
    result = room.apply(topic, event(1))  # QoS 1 duplicate
    assert result is not None and result[1] is False
    result = room.apply(topic, event(3))
    assert result is not None and result[1] is True
    view = room.view("casino", "t07")
    assert view.gaps == 1 and [e["seq"] for e in view.events] == [1, 3]


def test_watch_names_an_unreachable_broker_and_exits_unavailable(capsys):
    """Nothing listens on the port: one line naming host:port, exit 69 (EX_UNAVAILABLE)."""
    from pokertable.mqtt.mosquitto import free_port

    port = free_port()
    assert watch.run(_args(port, venue="casino", table="t07")) == 69
    err = capsys.readouterr().err
    assert err.startswith(f"pokertable watch: broker 127.0.0.1:{port} unreachable: ") and \
        err.count("\n") == 1, err
