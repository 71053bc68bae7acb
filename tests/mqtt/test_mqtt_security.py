"""Roles and ACL on the shipped mosquitto config: hole cards and commands stay protected."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mqtt_samples import PASSWORDS, TABLE, sample_event, sample_hole_cards, sample_state

from pokertable.mqtt.bridge import TableBridge, TlsOptions
from pokertable.mqtt.mosquitto import MosquittoProcess, TlsFiles
from pokertable.mqtt.topics import TableTopics

T = TableTopics("casino", "t07")
EVERYTHING = "pokertable/v1/#"


@pytest.fixture
def table(secure_broker: Any, tmp_path: Path) -> Iterator[TableBridge]:
    bridge = TableBridge(venue="casino", table="t07", session="s1", port=secure_broker.port,
                         username=TABLE, password=PASSWORDS[TABLE],
                         outbox_path=tmp_path / "outbox.sqlite", validate_outbound=True)
    bridge.start()
    assert bridge.wait_subscribed(5), bridge.last_connect_error
    yield bridge
    bridge.stop(drain_timeout=0.5)


def test_anonymous_client_is_refused(secure_broker, subscribers):
    anonymous = subscribers(secure_broker.port, [EVERYTHING]).start(wait=False)
    assert anonymous.wait_for(lambda s: bool(s.connect_result), timeout=60)
    assert anonymous.connect_result[0].is_failure
    assert not anonymous.messages


def test_wrong_password_is_refused(secure_broker, subscribers):
    intruder = subscribers(secure_broker.port, [EVERYTHING], username="intruder").start(
        wait=False)
    assert intruder.wait_for(lambda s: bool(s.connect_result), timeout=60)
    assert intruder.connect_result[0].is_failure


def test_public_overlay_never_receives_hole_cards(secure_broker, table, subscribers):
    public = subscribers(secure_broker.port, [EVERYTHING, T.hole_cards("+")],
                         username="overlay").start()
    secure = subscribers(secure_broker.port, [T.hole_cards("+")],
                         username="overlay-secure").start()
    table.publish_hole_cards(sample_hole_cards(1, ("Ah", "Qh")))
    table.publish_hole_cards(sample_hole_cards(3, ("7d", "7s")))
    table.publish_state(sample_state())
    table.publish_event(sample_event())
    assert table.wait_delivered(5)
    assert secure.wait_for(lambda s: len(s.on("/hole_cards/1") + s.on("/hole_cards/3")) == 2)
    assert public.wait_for(lambda s: bool(s.on("/state")) and bool(s.on("/events")))
    # A barrier instead of a pause: the broker routed the hole cards before ``secure`` got
    # them; an event published after that reaches ``public`` behind anything routed to it.
    table.publish_event(sample_event(2))
    assert public.wait_for(lambda s: len(s.on("/events")) >= 2)
    assert [m.topic for m in public.messages if "/secure/" in m.topic] == []
    assert all(b"Qh" not in m.payload for m in public.messages)


def test_public_overlay_cannot_command_but_director_can(secure_broker, table, subscribers):
    overlay = subscribers(secure_broker.port, [], username="overlay").start()
    director = subscribers(secure_broker.port, [T.reply], username="director").start()
    overlay.publish(T.director, {"command": "pause", "request_id": "evil-1"})
    overlay.publish(T.clock, {"command": "break_start", "request_id": "evil-2", "minutes": 60})
    # Each publish returned on its PUBACK, which mosquitto sends after routing (or refusing)
    # the message; so the director's command reaches the table behind anything the overlay
    # got through. No pause needed: the first command in must be the director's.
    director.publish(T.director, {"command": "pause", "request_id": "td-1"})
    command = table.inbound.get(timeout=60)
    assert command.request_id == "td-1"
    assert table.inbound.empty()


def test_clock_role_sets_levels_public_overlay_can_request_rebirth(secure_broker, table,
                                                                    subscribers):
    clock = subscribers(secure_broker.port, [], username="clock").start()
    clock.publish(T.clock, {"command": "break_end", "request_id": "clk-1"})
    assert table.inbound.get(timeout=60).request_id == "clk-1"
    table.publish_state(sample_state())
    overlay = subscribers(secure_broker.port, [T.state, T.reply], username="overlay").start()
    assert overlay.wait_for(lambda s: bool(s.on("/state")))
    overlay.publish(T.rebirth, {"command": "rebirth", "request_id": "gap"})
    assert overlay.wait_for(lambda s: len(s.on("/state")) >= 2 and bool(s.on("/reply")))
    assert overlay.on("/reply")[0].json()["ok"] is True


def _make_certs(directory: Path) -> TlsFiles:
    """A throwaway CA and a server certificate for 127.0.0.1, made with the openssl CLI."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=test-ca",
        "-keyout", "ca.key", "-out", "ca.crt")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
        "-keyout", "server.key", "-out", "server.csr")
    (directory / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.crt")
    return TlsFiles(directory / "ca.crt", directory / "server.crt", directory / "server.key")


@pytest.mark.needs("mosquitto", "openssl")
def test_tls_variant_accepts_bridge_and_refuses_plain_tcp(tmp_path, subscribers):
    certs = _make_certs(tmp_path)
    broker = MosquittoProcess.from_shipped(tmp_path, users=PASSWORDS,
                                           name="mosquitto-tls.conf", tls=certs)
    broker.start()
    bridge = TableBridge(venue="casino", table="t07", session="s1", port=broker.port,
                         username=TABLE, password=PASSWORDS[TABLE],
                         tls=TlsOptions(ca_certs=str(certs.cafile)),
                         outbox_path=tmp_path / "outbox.sqlite", validate_outbound=True)
    try:
        bridge.start()
        assert bridge.wait_connected(10), bridge.last_connect_error
        bridge.publish_state(sample_state())
        assert bridge.wait_delivered(5)
        plain = subscribers(broker.port, [T.state], username="overlay").start(wait=False)
        # The TLS listener drops a plain-TCP client at its first bytes: wait for that drop.
        assert plain.wait_for(lambda s: bool(s.disconnects)), "plain client was never dropped"
        assert not plain.messages and not plain.connect_result  # never connected, got nothing
    finally:
        bridge.stop(drain_timeout=0.5)
        broker.stop()
