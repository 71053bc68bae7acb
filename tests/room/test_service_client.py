"""A room service's broker connection (issue #27): it says when the broker is unreachable,
connects once the broker is up, and publishes its retained status."""

from __future__ import annotations

import logging
import queue
import signal
import subprocess
import sys
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
        wait_for(lambda: client.failed_attempts >= 3, "three failed connection attempts")
        broker.start()
        assert connected.wait(60), "the service did not connect once the broker was up"
        said = [r.getMessage() for r in caplog.records]
        # One line for the outage however many retries, naming the broker; one when it answers.
        assert said == [
            f"clock: broker 127.0.0.1:{port} unreachable; trying again every 5 s until it answers",
            f"clock: broker 127.0.0.1:{port} answers again",
        ], said
        assert client.failed_attempts == 0
    finally:
        client.say_offline_and_disconnect()
        client.loop_stop()
        broker.stop()


def test_two_venues_relays_of_a_same_named_table_share_a_broker(
    tmp_path: Path, broker: MosquittoProcess
) -> None:
    """The relay's service name carries its venue (``relay-<venue>-<table>``), as the
    archive's does: two venues' relays of table ``t9`` on one broker have distinct names
    and ids, both stay connected, and each venue's status names its own relay."""
    from pokertable.bench.table_rig import USERS
    from pokertable.room.overlay_service import OverlayService
    from tests.room.test_overlay_anonymous import Client

    watcher = Client(broker.port, "director")
    relays = [OverlayService(host="127.0.0.1", port=broker.port, venue=venue, table="t9",
                             delay_s=60, relay_login=("broadcaster", USERS["broadcaster"]),
                             page_config={"ws_url": "ws://127.0.0.1:1"},
                             delay_file=tmp_path / f"{venue}.sqlite3")
              for venue in ("club", "hall")]
    try:
        for relay in relays:
            relay.start()
        statuses = {f"pokertable/v1/{venue}/services/broadcaster/relay-{venue}-t9": venue
                    for venue in ("club", "hall")}

        def online() -> set[str]:
            with watcher.lock:
                return {statuses[t] for t, p in watcher.seen
                        if t in statuses and b'"online"' in p}

        wait_for(lambda: online() == {"club", "hall"}, "both venues' relays online", 60)
        assert [r.client.service for r in relays] == ["relay-club-t9", "relay-hall-t9"]
        ids = [r.client._client_id.decode() for r in relays]
        assert ids[0].startswith("relay-club-t9-") and ids[1].startswith("relay-hall-t9-")
        assert all(r.client.is_connected() for r in relays)
        with watcher.lock:
            assert not [t for t, p in watcher.seen if b'"lost"' in p]
    finally:
        for relay in relays:
            relay.stop()
        watcher.stop()


def test_pokertable_seating_says_in_one_line_which_broker_it_cannot_reach() -> None:
    """The seating desk started before the broker: one line naming host:port on stderr, and
    it keeps running (retrying) until stopped."""
    port = free_port()
    desk = subprocess.Popen(
        [sys.executable, "-m", "pokertable.controller.cli", "seating", "--venue", "club",
         "--broker", f"127.0.0.1:{port}"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert desk.stderr is not None
    reader = threading.Thread(target=lambda: [lines.put(line) for line in desk.stderr],
                              daemon=True)
    reader.start()
    try:
        first = lines.get(timeout=60)  # a bound for a broken desk, not a timing
        assert first.rstrip("\n") == (f"seating: broker 127.0.0.1:{port} unreachable; trying "
                                      "again every 5 s until it answers"), first
        assert desk.poll() is None  # still running: it retries
    finally:
        desk.send_signal(signal.SIGINT)
        desk.wait(60)
    assert desk.returncode in (0, 130)


def test_a_refused_login_is_said_once_by_name_and_the_service_waits_for_a_fixed_one(
    tmp_path: Path, broker: MosquittoProcess, caplog: pytest.LogCaptureFixture
) -> None:
    """The clock with a password the broker does not know: one error naming the login and
    the broker's reason however many retries (not a "lost the broker" line per retry), no
    subscription, no ``online``; once the broker's password file has it, the clock
    subscribes and says the login was accepted."""
    from pokertable.bench.table_rig import USERS
    from pokertable.mqtt.mosquitto import write_password_file
    from pokertable.room.clock_service import ClockService
    from tests.room.test_broker_restart import STRUCTURE

    caplog.set_level(logging.WARNING, logger="pokertable.room.service_client")
    clock = ClockService(host="127.0.0.1", port=broker.port, venue="club",
                         structure_text=STRUCTURE,
                         login=("clock", "not-the-password"))
    clock.start()
    try:
        wait_for(lambda: broker.log_path.read_text().count("not authorised") >= 3,
                 "three refused logins in the broker's log")
        said = [(r.levelname, r.getMessage()) for r in caplog.records]
        assert said == [("ERROR", f"clock: broker 127.0.0.1:{broker.port} refused login "
                                  "'clock': Not authorized; check the service's password_file "
                                  "against the broker's password file (docs/room.md); trying "
                                  "again every 5 s")], said
        assert not clock.subscribed.is_set() and clock.client.refused == "Not authorized"

        broker.stop()  # the installer puts the clock's password in the broker's file
        write_password_file(tmp_path / "passwd", {**USERS, "clock": "not-the-password"})
        broker.start()
        assert clock.subscribed.wait(60), "the clock did not subscribe with its fixed login"
        wait_for(lambda: any("accepted login 'clock'" in r.getMessage()
                             for r in caplog.records), "the accepted login said")
        assert clock.client.refused is None
    finally:
        clock.stop()
