"""The table's paho client: its packets leave on the thread that publishes, without delay.

Split from ``bridge`` (the table's MQTT voice); see docs/benchmarks.md for what each of
these changes saved on the path of a chip to a subscriber.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MessageState, MQTTErrorCode, MQTTProtocolVersion

_U16 = struct.Struct("!H")
# paho's own state that ``publish_quiet`` books a message in as paho's ``publish`` does; a
# paho without one of them gets its own ``publish`` back (slower, never wrong)
_PAHO_STATE = ("_out_message_mutex", "_out_messages", "_inflight_messages",
               "_max_inflight_messages", "_max_queued_messages", "_out_packet", "_mid_generate",
               "_sock_send", "_protocol", "_logger")


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
    A QoS 1 message with none of paho's packets queued ahead of it is written to the socket
    at once, and booked in paho's state after the write (``_write_first``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._direct = threading.local()  # before paho's __init__ sets ``_sockpairW``
        self._wake_pair: socket.socket | None = None
        super().__init__(*args, **kwargs)
        self._write_lock = threading.RLock()
        self._lean = all(hasattr(self, name) for name in _PAHO_STATE)

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
        if qos == 1 and self._lean:
            info = self._write_first(topic, payload, retain)
            if info is not None:
                return info
        self._direct.on = True
        try:
            return self.publish(topic, payload, qos, retain=retain)
        finally:
            self._direct.on = False

    def _write_first(self, topic: str, payload: bytes, retain: bool) -> mqtt.MQTTMessageInfo | None:
        """A QoS 1 PUBLISH written to the socket before paho's bookkeeping of it (the
        message, its mid, the in-flight count: paho's ``publish`` from a cold cache cost as
        much as the rest of the state's way to the socket, docs/benchmarks.md), then booked
        as paho books it, so its PUBACK, a resend after a reconnect and ``flush`` are paho's.

        Only on a connected MQTT 3.1.1 session with none of paho's packets waiting (checked
        under ``_write_lock``: a packet half written is still queued), room in flight, and
        no paho logging; otherwise None and paho's ``publish`` runs. ``_out_message_mutex``
        is held from the write to the booking (paho handles a PUBACK under it, never before
        the message is booked), then ``_write_lock``: paho's own order (``flush``).
        """
        topic_bytes = topic.encode("utf-8")
        if (self._protocol == MQTTProtocolVersion.MQTTv5 or self._logger is not None
                or self.on_log is not None or b"+" in topic_bytes or b"#" in topic_bytes
                or not self.is_connected()):
            return None
        with self._out_message_mutex:
            if (0 < self._max_queued_messages <= len(self._out_messages)
                    or 0 < self._max_inflight_messages <= self._inflight_messages):
                return None
            with self._write_lock:
                if self._out_packet:  # paho's packets leave first, in their order
                    return None
                mid = self._mid_generate()
                if mid in self._out_messages:
                    return None  # a mid still in flight after 65535 others: paho's error
                packet = _publish_packet(topic_bytes, payload, mid, retain)
                try:
                    sent = self._sock_send(packet)
                except (AttributeError, ValueError, OSError):
                    # queued below: paho's thread waits for a full socket, and ``flush``
                    # meets any other error as paho's ``loop_write`` would
                    sent = 0
                    self._wake()
                message = mqtt.MQTTMessage(mid, topic_bytes)
                message.timestamp = mqtt.time_func()
                message.payload = payload
                message.qos = 1
                message.retain = retain
                message.state = MessageState.MQTT_MS_WAIT_FOR_PUBACK
                self._out_messages[mid] = message
                self._inflight_messages += 1
                if sent < len(packet):  # the rest waits in paho's queue, for ``flush``
                    self._out_packet.append({
                        "command": mqtt.PUBLISH, "mid": mid, "qos": 1, "pos": sent,
                        "to_process": len(packet) - sent, "packet": packet,
                        "info": message.info})
                return message.info

    def flush(self) -> None:
        """Write what is queued to the socket now, on this thread; paho's network thread is
        woken only when the socket would not take it all.

        Not under ``_write_lock`` with the publishes before it: paho's network thread takes
        its own mutexes and then ``loop_write`` (on CONNACK), so holding ours across a
        ``publish`` would invert that order.
        """
        if not self.want_write():
            return  # ``publish_quiet`` wrote it all
        self.loop_write()
        if self.want_write():
            self._wake()

    def _wake(self) -> None:
        pair = self._wake_pair
        if pair is not None:
            with contextlib.suppress(BlockingIOError, OSError):
                pair.send(b"\0")


def _publish_packet(topic: bytes, payload: bytes, mid: int, retain: bool) -> bytes:
    """An MQTT 3.1.1 PUBLISH at QoS 1, as paho's ``_send_publish`` packs it."""
    length = 2 + len(topic) + 2 + len(payload)
    header = bytearray((int(mqtt.PUBLISH) | 0x02 | int(retain),))
    while True:  # the remaining length, 7 bits a byte, low first
        byte, length = length % 128, length // 128
        header.append(byte | 0x80 if length else byte)
        if not length:
            break
    return b"".join((header, _U16.pack(len(topic)), topic, _U16.pack(mid), payload))


def no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Send each packet at once: with Nagle's algorithm a state queued right behind an event
    waited for the broker's delayed ACK of the event (tens of ms, docs/benchmarks.md)."""
    with contextlib.suppress(AttributeError, OSError):  # not TCP (a websocket, a test's pair)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
