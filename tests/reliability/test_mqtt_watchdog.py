"""Thread supervision: the systemd watchdog is fed only while every worker thread runs.

A table whose reader thread died reads no chips and no cards either: the readers' own
threads (one per port, the heartbeat watch) are watched too (issue #11), tested with one
reader port on a real pty.

Before issue #12 the engine thread fed the watchdog whatever happened to the MQTT bridge,
so a table whose bridge thread had died stayed "healthy" and silent for good. Here the
runtime runs with a real notify socket (a datagram socket, as systemd's) and a real
mosquitto; the bridge worker is stopped under it, and the pings must stop.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokertable.bench.waiting import wait_for
from pokertable.controller.app.config import load_config
from pokertable.controller.app.runtime import TableRuntime
from pokertable.controller.table.inputs import ConsolePress
from pokertable.hardware.registry import TagRegistry
from pokertable.mqtt.mosquitto import MosquittoProcess

pytestmark = pytest.mark.needs("mosquitto")


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


def assert_no_pings(sock: socket.socket, seen: list[str]) -> None:
    """No ``WATCHDOG=1`` among the datagrams waiting on ``sock`` (after ``seen``)."""
    sock.setblocking(False)
    after = []
    while True:
        try:
            after.append(sock.recv(4096).decode())
        except BlockingIOError:
            break
    assert "WATCHDOG=1" not in after, (seen, after)


def _runtime(tmp_path: Path, port: int, *more: str) -> TableRuntime:
    """A table on the broker at ``port``; ``more`` adds config lines (a reader port)."""
    (tmp_path / "table.toml").write_text(
        "\n".join([
            "[table]", 'venue = "club"', 'id = "t1"',
            "[[levels]]", "number = 1", "small_blind = 100", "big_blind = 200",
            "[registry]", 'path = "registry.sqlite3"',
            "[mqtt]", f"port = {port}", 'outbox = "outbox.sqlite3"',
            *more,
        ]) + "\n"
    )
    TagRegistry(tmp_path / "registry.sqlite3").close()
    return TableRuntime(load_config(tmp_path / "table.toml"))


def test_mqtt_watchdog_stops_when_the_bridge_thread_dies(tmp_path, notify_socket):
    broker = MosquittoProcess.from_shipped(tmp_path)
    broker.start()
    runtime = _runtime(tmp_path, broker.port)
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
        assert_no_pings(notify_socket, seen)
    finally:
        runtime.stop()
        broker.stop()


def test_watchdog_stops_when_a_reader_thread_dies(
    tmp_path: Path, notify_socket: socket.socket
) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path)
    broker.start()
    master, slave = os.openpty()  # the reader node's serial line
    runtime = _runtime(tmp_path, broker.port, "[[readers]]", f'port = "{os.ttyname(slave)}"')
    try:
        app = runtime.start()
        [bus] = runtime.buses
        assert {t.name for t in bus.threads()} == {f"port {os.ttyname(slave)}", "heartbeat watch"}
        next_message(notify_socket, "WATCHDOG=1")  # healthy: the engine loop pings
        bus.watch.stop()  # the heartbeat thread ends, as a crash would
        seen = next_message(notify_socket, "STATUS=worker stopped: heartbeat watch")
        # The engine loop still runs (it takes these inputs), but no longer feeds the watchdog.
        app.submit(ConsolePress("hand_start", 1))
        app.submit(ConsolePress("undo", 2))
        # a full loop turn, watchdog call included, after the thread died
        wait_for(lambda: app.stats.inputs >= 2, "the engine to take both inputs")
        assert_no_pings(notify_socket, seen)
    finally:
        runtime.stop()
        broker.stop()
        os.close(master)
        os.close(slave)
