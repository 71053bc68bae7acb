"""MQTT figures: engine event to subscriber latency through our bridge and a real mosquitto.

"Ours" is the whole bridge path: ``publish_event`` (stamp, JSON, SQLite outbox commit),
our worker thread, paho, mosquitto, a subscriber's ``on_message``. The peer, measured in
the same run on the same broker, is mosquitto's own publish-to-subscriber round trip from
a bare paho client (QoS 1, no outbox, no stamping). Each message is sent only after the
previous one arrived, so the figures are latency, not queueing. Targets: p50 <= 1 ms,
p99 <= 3 ms.

    python -m bench.mqtt_figures          # prints the JSON figures (about 10 s)
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.measure import MIN_REPEATS, Figure, percentile
from pokertable.mqtt.bridge import TableBridge
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.mqtt.topics import TableTopics

PEER_NAME = "mosquitto publish->subscribe round trip (bare paho, QoS 1)"
WARMUP = 200
_TIMEOUT_S = 2.0


class _Stopwatch:
    """Subscriber side: stamps the arrival of each message on paho's network thread."""

    def __init__(self, port: int, topic: str) -> None:
        self.arrived = threading.Event()
        self.arrived_ns = 0
        self._ready = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(topic, 1)
        self.client.on_subscribe = lambda c, u, mid, rcs, p: self._ready.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port, keepalive=30)
        self.client.loop_start()
        if not self._ready.wait(5):
            raise RuntimeError("benchmark subscriber did not subscribe")

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.arrived_ns = time.perf_counter_ns()
        self.arrived.set()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _ping_pong(watch: _Stopwatch, send: Callable[[int], None], messages: int) -> list[float]:
    latencies = []
    for n in range(WARMUP + messages):
        watch.arrived.clear()
        start = time.perf_counter_ns()
        send(n)
        if not watch.arrived.wait(_TIMEOUT_S):
            raise RuntimeError(f"message {n} did not arrive within {_TIMEOUT_S} s")
        if n >= WARMUP:
            latencies.append((watch.arrived_ns - start) / 1e6)
    return latencies


def _ours(port: int, workdir: Path, messages: int) -> list[float]:
    workdir.mkdir(parents=True, exist_ok=True)
    topics = TableTopics("bench", "t1")
    watch = _Stopwatch(port, topics.events)
    bridge = TableBridge(
        venue="bench",
        table="t1",
        session="bench",
        port=port,
        outbox_path=workdir / "outbox.sqlite",
        validate_outbound=False,
    )
    bridge.start()
    try:
        if not bridge.wait_connected(5):
            raise RuntimeError("bridge did not connect to the benchmark broker")

        def send(n: int) -> None:
            bridge.publish_event(
                {
                    "hand_id": "h-1",
                    "kind": "bet",
                    "rulings": [
                        {
                            "rule_ids": ["TDA2024-43"],
                            "kind": "accepted",
                            "seat": 1,
                            "text": "Seat 1 bets 400",
                        }
                    ],
                    "data": {"seat": 1, "amount": 400, "n": n},
                }
            )

        return _ping_pong(watch, send, messages)
    finally:
        bridge.stop(drain_timeout=2)
        watch.close()


def _peer(port: int, messages: int) -> list[float]:
    topic = "bench/peer"
    watch = _Stopwatch(port, topic)
    publisher = mqtt.Client(CallbackAPIVersion.VERSION2)
    publisher.connect("127.0.0.1", port, keepalive=30)
    publisher.loop_start()
    payload = json.dumps(
        {
            "session": "bench",
            "seq": 1,
            "kind": "bet",
            "rulings": [],
            "data": {"seat": 1, "amount": 400},
        }
    ).encode()

    def send(n: int) -> None:
        publisher.publish(topic, payload, 1)

    try:
        return _ping_pong(watch, send, messages)
    finally:
        publisher.disconnect()
        publisher.loop_stop()
        watch.close()


def figures(messages: int = 3_000, repeats: int = 3) -> dict[str, dict[str, Any]]:
    """p50 and p99 latency (ms), ours and the broker's own alternating round by round."""
    p50 = Figure(
        "mqtt_bridge_latency_p50_ms",
        "ms",
        PEER_NAME,
        higher_is_better=False,
        note="from publish_event to the subscriber: the bridge alone, no engine",
    )
    p99 = Figure("mqtt_bridge_latency_p99_ms", "ms", PEER_NAME, higher_is_better=False)
    with tempfile.TemporaryDirectory(prefix="pokertable-bench-mqtt-") as tmp:
        workdir = Path(tmp)
        with MosquittoProcess.from_shipped(workdir) as broker:
            for r in range(max(repeats, MIN_REPEATS)):
                ours = _ours(broker.port, workdir / f"r{r}", messages)
                peer = _peer(broker.port, messages)
                p50.add(percentile(ours, 50), percentile(peer, 50))
                p99.add(percentile(ours, 99), percentile(peer, 99))
    return {p50.name: p50.to_json(), p99.name: p99.to_json()}


if __name__ == "__main__":
    print(json.dumps(figures(), indent=2))
