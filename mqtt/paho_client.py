"""The table's paho client: its packets leave on the thread that publishes, without delay.

Split from ``bridge`` (the table's MQTT voice); see docs/benchmarks.md for what each of
these two changes saved on the path of a chip to a subscriber.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode


class DirectWriteClient(mqtt.Client):
    """paho's client, whose socket writes may also come from the thread that publishes.

    With ``loop_start`` paho leaves every write to its network thread: a publish wakes it,
    a thread handoff per message that cost more than the rest of the path on a busy
    machine (docs/benchmarks.md). Every paho write goes through ``loop_write``, so one lock
    there lets the publishing thread write its packets at once, in order, never
    interleaved with the network thread's (PINGREQ, PUBACK of a command).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._write_lock = threading.RLock()

    def loop_write(self) -> MQTTErrorCode:
        with self._write_lock:
            return super().loop_write()


def no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Send each packet at once: with Nagle's algorithm a state queued right behind an event
    waited for the broker's delayed ACK of the event (tens of ms, docs/benchmarks.md)."""
    with contextlib.suppress(AttributeError, OSError):  # not TCP (a websocket, a test's pair)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
