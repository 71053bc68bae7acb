"""A room service's broker connection (issue #27): it says when the broker is unreachable,
connects once the broker is up, and publishes its retained status."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.waiting import wait_for
from pokertable.mqtt.mosquitto import MosquittoProcess, free_port
from pokertable.room.service_client import ServiceClient, service_client_id

pytestmark = pytest.mark.needs("mosquitto")


def test_shared_logins_get_distinct_ids_and_a_persistent_one_is_stable() -> None:
    login = ("overlay", "pw")
    assert service_client_id("clock", login, persistent=False) != service_client_id(
        "clock", login, persistent=False)
    stable = service_client_id("archive-v", login, persistent=True)
    assert stable == service_client_id("archive-v", login, persistent=True)
    assert "pw" not in stable and stable != service_client_id("archive-v", ("overlay", "x"),
                                                              persistent=True)


def test_a_service_says_the_broker_is_unreachable_then_connects_when_it_is_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()
    client = ServiceClient("clock", "club", ("clock", ""))
    connected = threading.Event()

    def on_connect(c: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        client.say_online()
        connected.set()

    client.on_connect = on_connect
    caplog.set_level(logging.WARNING, logger="pokertable.room.service_client")
    client.connect_async("127.0.0.1", port)
    client.loop_start()
    broker = MosquittoProcess.from_shipped(tmp_path, port=port)
    try:
        wait_for(lambda: any("unreachable" in r.getMessage() for r in caplog.records),
                 "the warning that the broker is unreachable")
        broker.start()
        assert connected.wait(60), "the service did not connect once the broker was up"
    finally:
        client.say_offline_and_disconnect()
        client.loop_stop()
        broker.stop()
