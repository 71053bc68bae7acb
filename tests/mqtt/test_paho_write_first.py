"""``DirectWriteClient.publish_quiet`` writes a QoS 1 PUBLISH before paho books it (issue
#26, goal 5): what reaches the broker and what paho does after (the PUBACK, the resend with
DUP after a reconnect, the message's info) is exactly paho's own ``publish``.

The broker here is a TCP socket the test answers by hand, so the bytes the client writes
are read as they are: a CONNACK for each connection, PUBACKs when the test says.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.mqtt.paho_client import DirectWriteClient, _publish_packet

TOPIC = "pokertable/v1/casino/t07/state"


def _read_packet(conn: socket.socket) -> bytes:
    """One whole MQTT packet from the client (fixed header, remaining length, body)."""
    head = conn.recv(1, socket.MSG_WAITALL)
    length, shift, raw = 0, 0, b""
    while True:
        byte = conn.recv(1, socket.MSG_WAITALL)
        raw += byte
        length |= (byte[0] & 0x7F) << shift
        shift += 7
        if not byte[0] & 0x80:
            break
    body = conn.recv(length, socket.MSG_WAITALL) if length else b""
    return head + raw + body


class _HandBroker:
    """Accepts connections, answers CONNECT with CONNACK, hands over the rest."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]

    def accept(self) -> socket.socket:
        conn, _ = self.server.accept()
        conn.settimeout(10)
        assert _read_packet(conn)[0] == 0x10  # CONNECT
        conn.sendall(b"\x20\x02\x00\x00")  # CONNACK, accepted
        return conn


@pytest.fixture
def hand_broker() -> Iterator[_HandBroker]:
    broker = _HandBroker()
    yield broker
    broker.server.close()


def _client(port: int, published: list[int]) -> tuple[DirectWriteClient, threading.Event]:
    client = DirectWriteClient(CallbackAPIVersion.VERSION2, client_id="t07", clean_session=True)
    connected = threading.Event()
    client.on_connect = lambda *args: connected.set()
    client.on_publish = lambda c, u, mid, rc, p: published.append(mid)
    client.reconnect_delay_set(1, 1)
    client.connect_async("127.0.0.1", port, keepalive=60)
    client.loop_start()
    return client, connected


@pytest.mark.parametrize("size", [0, 90, 100, 16_300, 16_400, 70_000])
@pytest.mark.parametrize("retain", [False, True])
def test_the_packet_is_paho_s_own(hand_broker: _HandBroker, size: int, retain: bool) -> None:
    """Remaining lengths of one, two and three bytes, retained or not: the written-first
    packet is the one paho's ``publish`` writes, its message id aside."""
    published: list[int] = []
    client, connected = _client(hand_broker.port, published)
    try:
        conn = hand_broker.accept()
        assert connected.wait(10)
        payload = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
        info = client.publish(TOPIC, payload, 1, retain=retain)  # paho's, written by its thread
        theirs = _read_packet(conn)
        mine = client.publish_quiet(TOPIC, payload, 1, retain)
        assert not client.want_write()  # written before it returned, nothing left queued
        client.flush()
        ours = _read_packet(conn)
        assert mine.mid == info.mid + 1
        assert ours == _publish_packet(TOPIC.encode(), payload, mine.mid, retain)
        id_at = len(ours) - len(payload) - 2
        assert ours[:id_at] == theirs[:id_at] and ours[id_at + 2 :] == theirs[id_at + 2 :]
        assert int.from_bytes(ours[id_at : id_at + 2], "big") == mine.mid
        conn.sendall(b"\x40\x02" + mine.mid.to_bytes(2, "big"))  # PUBACK, as a broker would
        mine.wait_for_publish(10)
        assert mine.is_published() and published == [mine.mid]
        assert not info.is_published()  # never acknowledged: still paho's to resend
        conn.close()
    finally:
        client.disconnect()
        client.loop_stop()


def test_a_message_written_first_is_resent_with_dup_after_a_reconnect(
    hand_broker: _HandBroker,
) -> None:
    published: list[int] = []
    client, connected = _client(hand_broker.port, published)
    try:
        conn = hand_broker.accept()
        assert connected.wait(10)
        info = client.publish_quiet(TOPIC, b'{"seq":1}', 1, True)
        client.flush()
        first = _read_packet(conn)
        assert first[0] == 0x33  # PUBLISH, QoS 1, retained
        connected.clear()
        conn.close()  # no PUBACK: the broker went away
        again = hand_broker.accept()
        assert connected.wait(10)
        resent = _read_packet(again)
        assert resent == bytes((first[0] | 0x08,)) + first[1:]  # the same packet, DUP set
        again.sendall(b"\x40\x02" + info.mid.to_bytes(2, "big"))
        info.wait_for_publish(10)
        assert published == [info.mid]
        again.close()
    finally:
        client.disconnect()
        client.loop_stop()


def test_paho_s_queued_packets_leave_first(hand_broker: _HandBroker, monkeypatch: Any) -> None:
    """A packet paho still holds (a socket that took part of it) is ahead of a new message:
    the new one is queued behind it, not written first."""
    published: list[int] = []
    client, connected = _client(hand_broker.port, published)
    try:
        conn = hand_broker.accept()
        assert connected.wait(10)
        monkeypatch.setattr(client, "loop_write", lambda: 0)  # nobody writes for now
        queued = client.publish(TOPIC, b"first", 1)  # in paho's queue, unwritten
        later = client.publish_quiet(TOPIC, b"second", 1, False)
        monkeypatch.undo()
        client.flush()
        assert _read_packet(conn).endswith(b"first") and _read_packet(conn).endswith(b"second")
        assert later.mid == queued.mid + 1
        conn.close()
    finally:
        client.disconnect()
        client.loop_stop()
