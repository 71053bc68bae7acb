"""Thread supervision: the systemd watchdog is fed only while every worker thread runs.

Before issue #12 the engine thread fed the watchdog whatever happened to the MQTT bridge,
so a table whose bridge thread had died stayed "healthy" and silent for good. Here the
runtime runs with a real notify socket (a datagram socket, as systemd's) and a real
mosquitto; the bridge worker is stopped under it, and the pings must stop.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokertable.controller.config import load_config
from pokertable.controller.inputs import ConsolePress
from pokertable.controller.run import TableRuntime
from pokertable.hardware.registry import TagRegistry
from pokertable.mqtt.mosquitto import MosquittoProcess, find_mosquitto

pytestmark = pytest.mark.skipif(find_mosquitto() is None, reason="needs mosquitto")


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify.sock"
    sock.bind(str(path))
    sock.settimeout(30)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def next_message(sock: socket.socket, wanted: str) -> list[str]:
    """Datagrams up to and including the first that starts with ``wanted``."""
    seen = []
    while True:
        try:
            message = sock.recv(4096).decode()
        except TimeoutError:
            raise AssertionError(f"no {wanted} datagram; saw {seen}") from None
        seen.append(message)
        if message.startswith(wanted):
            return seen


def test_mqtt_watchdog_stops_when_the_bridge_thread_dies(tmp_path, notify_socket):
    broker = MosquittoProcess.from_shipped(tmp_path)
    broker.start()
    (tmp_path / "table.toml").write_text(
        "\n".join([
            "[table]", 'venue = "club"', 'id = "t1"',
            "[[levels]]", "number = 1", "small_blind = 100", "big_blind = 200",
            "[registry]", 'path = "registry.sqlite3"',
            "[mqtt]", f"port = {broker.port}", 'outbox = "outbox.sqlite3"',
        ]) + "\n"
    )
    TagRegistry(tmp_path / "registry.sqlite3").close()
    runtime = TableRuntime(load_config(tmp_path / "table.toml"))
    try:
        app = runtime.start()
        next_message(notify_socket, "WATCHDOG=1")  # healthy: the engine loop pings
        assert runtime.bridge.alive()
        runtime.bridge._work.put(("stop",))  # the bridge worker ends, as a crash would
        seen = next_message(notify_socket, "STATUS=worker stopped: mqtt-bridge")
        assert not runtime.bridge.alive()
        # The engine loop still runs (it takes this input), but no longer feeds the watchdog.
        app.submit(ConsolePress("hand_start", 1))
        deadline = time.monotonic() + 30
        while app.stats.inputs < 1:
            assert time.monotonic() < deadline, "the engine never took the input"
            time.sleep(0.01)
        app.submit(ConsolePress("undo", 2))
        while app.stats.inputs < 2:  # a full loop turn, watchdog call included, after the first
            assert time.monotonic() < deadline, "the engine never took the second input"
            time.sleep(0.01)
        notify_socket.setblocking(False)
        after = []
        while True:
            try:
                after.append(notify_socket.recv(4096).decode())
            except BlockingIOError:
                break
        assert "WATCHDOG=1" not in after, (seen, after)
    finally:
        runtime.stop()
        broker.stop()
