"""Fixtures that run a real broker for the MQTT tests.

``broker``: our own mosquitto (anonymous, no ACL) on a free port, from the shipped config.
``secure_broker``: the same with the shipped password file roles and ACL.
``mosquitto_broker``: ``broker`` that is always mosquitto (persistent sessions).
Only with POKERTABLE_TEST_BROKER=amqtt does ``broker`` run amqtt in-process, and says so
in the test output; the others stay mosquitto. A missing mosquitto stops the run with one
line (tests/conftest.py), it never falls back on its own.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import paho.mqtt.client as mqtt
import pytest
from mqtt_samples import PASSWORDS
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.mqtt.inprocess_broker import AmqttBroker
from pokertable.mqtt.mosquitto import MosquittoProcess, find_mosquitto, free_port

_FALLBACK_USED: list[str] = []


def _use_amqtt() -> bool:
    return os.environ.get("POKERTABLE_TEST_BROKER") == "amqtt"


def pytest_report_header() -> str:
    if _use_amqtt():
        return "mqtt tests: mosquitto NOT used -> falling back to amqtt in-process broker"
    return f"mqtt tests: real mosquitto at {find_mosquitto()}"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _FALLBACK_USED:
        terminalreporter.write_line(
            "mqtt tests ran against amqtt in-process (POKERTABLE_TEST_BROKER=amqtt)",
            yellow=True,
        )


class Broker(Protocol):
    port: int
    kind: str

    def start(self) -> None: ...
    def stop(self) -> None: ...


class MosquittoBroker:
    kind = "mosquitto"

    def __init__(self, process: MosquittoProcess) -> None:
        self.process = process
        self.port = process.port

    def start(self) -> None:
        self.process.start()

    def stop(self) -> None:
        self.process.stop()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    handle: Broker
    if _use_amqtt():
        print("mosquitto not available: using amqtt in-process broker")
        _FALLBACK_USED.append("amqtt")
        handle = AmqttBroker(free_port())
    else:
        handle = MosquittoBroker(MosquittoProcess.from_shipped(tmp_path))
    handle.start()
    yield handle
    handle.stop()


@pytest.fixture
def mosquitto_broker(tmp_path: Path) -> Iterator[MosquittoBroker]:
    handle = MosquittoBroker(MosquittoProcess.from_shipped(tmp_path))
    handle.start()
    yield handle
    handle.stop()


@pytest.fixture
def secure_broker(tmp_path: Path) -> Iterator[MosquittoBroker]:
    handle = MosquittoBroker(MosquittoProcess.from_shipped(tmp_path, users=PASSWORDS))
    handle.start()
    yield handle
    handle.stop()


@dataclass
class Received:
    topic: str
    payload: bytes
    retain: bool

    def json(self) -> Any:
        return json.loads(self.payload)


@dataclass
class Subscriber:
    """A plain paho client that records everything it receives, for assertions."""

    port: int
    topics: list[str]
    username: str | None = None
    client_id: str = ""
    persistent: bool = False
    messages: list[Received] = field(default_factory=list)
    granted: list[int] = field(default_factory=list)
    connect_result: list[Any] = field(default_factory=list)
    disconnects: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self._connected = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            clean_session=not self.persistent,
        )
        if self.username is not None:
            self.client.username_pw_set(self.username, PASSWORDS.get(self.username, "wrong"))
        self.client.reconnect_delay_set(1, 1)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.client.on_disconnect = self._on_disconnect

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                    props: Any) -> None:
        self.connect_result.append(rc)
        if rc.is_failure:
            return
        self._connected.set()
        if self.topics:
            client.subscribe([(t, 1) for t in self.topics])

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, rcs: Any,
                      props: Any) -> None:
        self.granted = [rc.value for rc in rcs]
        self._subscribed.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                       props: Any) -> None:
        self.disconnects.append(rc)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.messages.append(Received(msg.topic, bytes(msg.payload), bool(msg.retain)))

    def start(self, wait: bool = True) -> Subscriber:
        self.client.connect("127.0.0.1", self.port, keepalive=10)
        self.client.loop_start()
        if wait:
            assert self._connected.wait(5), f"subscriber not connected: {self.connect_result}"
            if self.topics:
                assert self._subscribed.wait(5), "no SUBACK"
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def on(self, suffix: str) -> list[Received]:
        with self._lock:
            return [m for m in self.messages if m.topic.endswith(suffix)]

    def wait_for(self, predicate: Callable[[Subscriber], bool], timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self):
                return True
            time.sleep(0.01)
        return predicate(self)

    def publish(self, topic: str, payload: Any) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        info = self.client.publish(topic, data, qos=1)
        info.wait_for_publish(5)


@pytest.fixture
def subscribers() -> Iterator[Callable[..., Subscriber]]:
    """Factory for Subscriber clients that are all stopped at teardown."""
    made: list[Subscriber] = []

    def make(port: int, topics: list[str], **kwargs: Any) -> Subscriber:
        sub = Subscriber(port, topics, **kwargs)
        made.append(sub)
        return sub

    yield make
    for sub in made:
        sub.stop()
