"""The systemd watchdog watches the readers' threads too (issue #11).

A table whose reader thread died reads no chips and no cards; if the engine kept feeding
the watchdog, systemd would never restart it. Here the runtime runs with a real notify
socket, a real mosquitto and one reader port on a real pty; the bus's heartbeat thread is
stopped under it, and the pings must stop with a status naming it.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokertable.controller.config import load_config
from pokertable.controller.inputs import ConsolePress
from pokertable.controller.run import TableRuntime
from pokertable.hardware.registry import TagRegistry
from pokertable.mqtt.mosquitto import MosquittoProcess, find_mosquitto
from tests.reliability.test_mqtt_watchdog import next_message
from tests.waiting import wait_for

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


def test_watchdog_stops_when_a_reader_thread_dies(
    tmp_path: Path, notify_socket: socket.socket
) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path)
    broker.start()
    master, slave = os.openpty()  # the reader node's serial line
    (tmp_path / "table.toml").write_text(
        "\n".join(
            [
                "[table]",
                'venue = "club"',
                'id = "t1"',
                "[[levels]]",
                "number = 1",
                "small_blind = 100",
                "big_blind = 200",
                "[registry]",
                'path = "registry.sqlite3"',
                "[mqtt]",
                f"port = {broker.port}",
                'outbox = "outbox.sqlite3"',
                "[[readers]]",
                f'port = "{os.ttyname(slave)}"',
            ]
        )
        + "\n"
    )
    TagRegistry(tmp_path / "registry.sqlite3").close()
    runtime = TableRuntime(load_config(tmp_path / "table.toml"))
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
        os.close(master)
        os.close(slave)
