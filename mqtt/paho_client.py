"""The table's paho client: its packets leave on the thread that publishes, without delay.

Split from ``bridge`` (the table's MQTT voice); see docs/benchmarks.md for what each of
these changes saved on the path of a chip to a subscriber.
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

    ``publish_quiet`` then ``flush`` go one step further: the packet is queued without
    paho's wake of its network thread (a byte on a socket pair, then a select, a recv and
    a GIL handoff per message, all for a packet the publisher writes itself right after).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._direct = threading.local()  # before paho's __init__ sets ``_sockpairW``
        self._wake_pair: socket.socket | None = None
        super().__init__(*args, **kwargs)
        self._write_lock = threading.RLock()

    # paho wakes its network thread through ``_sockpairW`` after queueing a packet; on the
    # thread inside ``publish_quiet`` it reads as None, so that wake is skipped (if paho
    # ever renames it, the wake simply happens again: slower, never wrong).
    @property
    def _sockpairW(self) -> socket.socket | None:  # paho's attribute name
        return None if getattr(self._direct, "on", False) else self._wake_pair

    @_sockpairW.setter
    def _sockpairW(self, pair: socket.socket | None) -> None:
        self._wake_pair = pair

    def loop_write(self) -> MQTTErrorCode:
        with self._write_lock:
            return super().loop_write()

    def publish_quiet(
        self, topic: str, payload: bytes, qos: int, retain: bool
    ) -> mqtt.MQTTMessageInfo:
        """``publish`` without waking paho's network thread: call ``flush`` after it."""
        self._direct.on = True
        try:
            return self.publish(topic, payload, qos, retain=retain)
        finally:
            self._direct.on = False

    def flush(self) -> None:
        """Write what is queued to the socket now, on this thread; paho's network thread is
        woken only when the socket would not take it all.

        Not under ``_write_lock`` with the publishes before it: paho's network thread takes
        its own mutexes and then ``loop_write`` (on CONNACK), so holding ours across a
        ``publish`` would invert that order.
        """
        self.loop_write()
        if self.want_write():
            self._wake()

    def _wake(self) -> None:
        pair = self._wake_pair
        if pair is not None:
            with contextlib.suppress(BlockingIOError, OSError):
                pair.send(b"\0")


def no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Send each packet at once: with Nagle's algorithm a state queued right behind an event
    waited for the broker's delayed ACK of the event (tens of ms, docs/benchmarks.md)."""
    with contextlib.suppress(AttributeError, OSError):  # not TCP (a websocket, a test's pair)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
