"""``pokertable watch`` against a real broker, in its non-interactive --once mode."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

from mqtt_samples import sample_event, sample_state
from rich.console import Console

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


def _busy_table() -> watch.Room:
    """Nine seats, two floor calls and more rulings than an 80x24 terminal holds."""
    room = watch.Room()
    seats = [{"seat": n, "player": f"Player{n}-Longname", "stack": 123_456 + n, "bet": 800 * n,
              "status": "active", "cards_held": 2} for n in range(1, 10)]
    state = sample_state(seats=seats, button=9, action_on=4, paused=True,
                         pots=[{"amount": 26_000, "eligible": [1, 3]},
                               {"amount": 9_600, "eligible": [1]}],
                         alerts=[{"id": f"h-0042/F{n}", "rule_ids": ["TDA2024-45B"],
                                  "kind": "string_bet", "options": ["call", "raise"],
                                  "text": f"seat {n} moved chips twice: the floor decides"}
                                 for n in (1, 2)])
    topics = TableTopics("casino", "t07")
    room.apply(topics.state, json.dumps({**state, "session": "s", "seq": 1}).encode())
    for seq in range(1, 7):
        rulings = [{"rule_ids": ["TDA2024-43", "TDA2024-45B"], "kind": "accepted", "seat": 1,
                    "text": f"ruling {seq}.{k}: seat 1 bets by chips in one motion, a long "
                            "sentence as the floor would read it, wrapped onto a second line"}
                   for k in (1, 2)]
        room.apply(topics.events, json.dumps({**sample_event(seq), "session": "s", "seq": seq,
                                              "rulings": rulings}).encode())
    return room


def test_the_live_view_of_a_busy_table_fits_80x24_with_every_seat_and_the_newest_ruling():
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, force_terminal=True, color_system=None)
    console.print(watch.render(_busy_table(), True, console, console.height))
    lines = out.getvalue().splitlines()
    assert len(lines) <= 24, "\n".join(lines)  # nothing runs off the bottom of the terminal
    text = "\n".join(lines)
    for n in range(1, 10):
        assert f"Player{n}-Longname" in text, text
    assert "FLOOR h-0042/F1" in text and "FLOOR h-0042/F2" in text
    inside = " ".join(" ".join(line.strip("│ ").split()) for line in lines)
    newest = ("ruling 6.2: seat 1 bets by chips in one motion, a long sentence as the floor "
              "would read it, wrapped onto a second line")
    assert newest in inside, text  # the newest ruling, in full
    assert "ruling 1.1" not in text  # the oldest made room
    assert all(len(line) <= 80 for line in lines)
