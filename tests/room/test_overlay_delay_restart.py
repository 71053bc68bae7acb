"""The broadcast delay survives a relay restart (issue #27): ``kill -9`` of the relay
process while it holds part of the feed; the restarted relay releases what was held, each
message once, none before its delay, from the file beside it.

Real mosquitto (shipped config and ACL), the real ``pokertable overlay`` process.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX, TABLE_LOGIN, USERS
from pokertable.bench.waiting import wait_for
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.broadcast import BroadcastLane, Outgoing
from tests.room.test_overlay_anonymous import Client

DELAY_S = 6.0
EVENTS, DELAYED_EVENTS = f"{PREFIX}/events", f"{PREFIX}/broadcast/events"
RELAY_STATUS = "pokertable/v1/club/services/broadcaster/relay-club-t9"


class Viewer(Client):
    """The delayed feed as a viewer gets it, with the time each message arrived."""

    def __init__(self, port: int) -> None:
        self.arrived: list[tuple[float, str, dict[str, Any]]] = []
        self.arrivals = threading.Lock()
        super().__init__(port, "broadcast")

    def _on_message(self, c: Any, u: Any, message: Any) -> None:
        with self.arrivals:
            self.arrived.append((time.monotonic(), message.topic, json.loads(message.payload)))

    def seqs(self) -> list[int]:
        with self.arrivals:
            return [p["seq"] for _, t, p in self.arrived if t == DELAYED_EVENTS]

    def relay_states(self) -> list[str]:
        with self.arrivals:
            return [p["state"] for _, t, p in self.arrived if t == RELAY_STATUS]


def _relay(broker: MosquittoProcess, delay_file: Path, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "pokertable.room.overlay_service",
               "--broker", f"127.0.0.1:{broker.port}", "--venue", "club", "--table", "t9",
               "--delay", str(DELAY_S), "--http-port", "0", "--delay-file", str(delay_file)]
    env = {**os.environ, "POKERTABLE_RELAY_PASSWORD": USERS["broadcaster"]}
    with log.open("ab") as out:
        return subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)


def _held(delay_file: Path) -> list[int]:
    """The seqs of the events the relay's file still holds."""
    with sqlite3.connect(delay_file) as db:
        rows = db.execute("SELECT payload FROM held WHERE leaf = 'broadcast/events'").fetchall()
    return sorted(json.loads(payload)["seq"] for (payload,) in rows)


@pytest.mark.needs("mosquitto")
def test_kill_9_of_the_relay_mid_delay_loses_nothing_and_sends_nothing_twice(
    broker: MosquittoProcess, tmp_path: Path
) -> None:
    delay_file, log = tmp_path / "delay.sqlite3", tmp_path / "relay.log"
    viewer = Viewer(broker.port)
    table = Client(broker.port, TABLE_LOGIN)
    sent: dict[int, float] = {}
    relays = [_relay(broker, delay_file, log)]
    try:
        wait_for(lambda: viewer.relay_states()[-1:] == ["online"], "the relay online", 120)
        wait_for(table.subscribed.is_set, "the table connected")

        def send(seq: int) -> None:
            sent[seq] = time.monotonic()
            table.publish(EVENTS, {"seq": seq})

        for seq in (1, 2, 3):
            send(seq)
        wait_for(lambda: viewer.seqs() == [1, 2, 3], "the first events, delayed", 120)
        for seq in (4, 5, 6):
            send(seq)
        wait_for(lambda: _held(delay_file) == [4, 5, 6], "the relay holding 4, 5, 6")
        relays[0].kill()  # SIGKILL, mid-delay
        relays[0].wait()
        assert oct(delay_file.stat().st_mode & 0o777) == "0o600"

        relays.append(_relay(broker, delay_file, log))
        wait_for(lambda: viewer.relay_states()[-2:] == ["lost", "online"],
                 "the relay's will, then online again", 120)
        wait_for(lambda: viewer.seqs() == [1, 2, 3, 4, 5, 6], "the held events after the restart",
                 120)
        send(7)  # the lane releases in order: once 7 is out, nothing else is coming
        wait_for(lambda: 7 in viewer.seqs(), "a later event")
        assert viewer.seqs() == [1, 2, 3, 4, 5, 6, 7], "an event lost or sent twice"
        with viewer.arrivals:
            late = {p["seq"]: at - sent[p["seq"]] for at, t, p in viewer.arrived
                    if t == DELAYED_EVENTS}
        assert all(lag >= DELAY_S for lag in late.values()), late
        wait_for(lambda: _held(delay_file) == [], "the file emptied as the broker acknowledged")
    finally:
        for relay in relays:
            relay.kill()
            relay.wait()
        table.stop()
        viewer.stop()


def test_a_restored_message_keeps_its_release_time_and_order() -> None:
    held: list[tuple[int, float, Outgoing]] = []
    first = BroadcastLane(30, on_hold=lambda key, at, message: held.append((key, at, message)))
    first.on_message("events", {"seq": 1}, now_s=100.0)
    first.on_message("events", {"seq": 2}, now_s=101.0)
    assert [(key, at) for key, at, _ in held] == [(1, 130.0), (2, 131.0)]

    restarted = BroadcastLane(30)
    for key, at, message in reversed(held):
        restarted.restore(key, at, message)
    assert restarted.due(129.9) == []
    assert [m.payload["seq"] for m in restarted.due(131.0)] == [1, 2]
    restarted.on_message("events", {"seq": 3}, now_s=140.0)
    assert restarted.due_keyed(170.0) == [(3, Outgoing("broadcast/events", {"seq": 3}, False))]
