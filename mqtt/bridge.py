"""``TableBridge``: the thin adapter between the application and paho-mqtt.

The application hands plain JSON-ready dicts; the bridge stamps venue, table, session,
sequence number and time, stores the message in the SQLite outbox and returns at once.
A worker thread of ours feeds the outbox to paho and deletes each row on PUBACK. paho's
callbacks only put items on our queue; inbound commands are validated on our worker and
reach the application through ``bridge.inbound`` (bad ones are answered on the reply topic).

    bridge = TableBridge(venue="casino", table="t07", session="s-2026-11-26",
                         outbox_path="/var/lib/pokertable/outbox.sqlite")
    bridge.start()
    bridge.publish_state(state_dict)          # retained, seq-numbered
    bridge.publish_event(event_dict)          # QoS 1 stream with rulings
    command = bridge.inbound.get()            # validated clock/director command
    bridge.reply(command.request_id, ok=True, command=command.command)
    bridge.stop()
"""

from __future__ import annotations

import collections
import json
import logging
import os
import queue
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from pokertable.mqtt.errors import MqttBridgeError, PayloadError
from pokertable.mqtt.inbound import (
    InboundCommand,
    RebirthRequest,
    RejectedCommand,
    TlsOptions,
    command_of,
    read_command,
    table_client_id,
)
from pokertable.mqtt.outbox import DEFAULT_MAX_BYTES, Outbox, PayloadSeal
from pokertable.mqtt.paho_client import DirectWriteClient, no_delay
from pokertable.mqtt.patched_json import PatchedEncoder
from pokertable.mqtt.patched_json import dumps as _dumps
from pokertable.mqtt.stamps import Stamps, overflow_event
from pokertable.mqtt.topics import TableTopics, check_name

log = logging.getLogger(__name__)

__all__ = [
    "InboundCommand",
    "RejectedCommand",
    "TableBridge",
    "TlsOptions",
    "table_client_id",
    "wall_clock_ms",
]

QOS = 1
_WINDOW = 100  # messages handed to paho and not yet PUBACKed
_ACK_BATCH = _WINDOW // 4  # PUBACKs that wake our worker before its next round
REBIRTH_MIN_INTERVAL_MS = 1_000  # one full re-publish per second, however many consumers ask


def wall_clock_ms() -> int:
    """Milliseconds since the epoch; injected so tests can control time stamps."""
    return time.time_ns() // 1_000_000


class TableBridge:
    """One table's MQTT voice: retained state, event stream, status, hole cards, commands."""

    def __init__(
        self,
        *,
        venue: str,
        table: str,
        session: str,
        outbox_path: str | Path,
        host: str = "127.0.0.1",
        port: int = 1883,
        username: str | None = None,
        password: str | None = None,
        tls: TlsOptions | None = None,
        secure_delay_s: float = 0.0,
        max_outbox: int = 50_000,
        max_outbox_bytes: int = DEFAULT_MAX_BYTES,
        fsync: bool = False,
        validate_outbound: bool | None = None,
        keepalive_s: int = 10,
        reconnect_delay_s: tuple[int, int] = (1, 4),
        client_id: str | None = None,
        clock_ms: Callable[[], int] = wall_clock_ms,
        sealer: PayloadSeal | None = None,  # hole cards sealed at rest in the outbox
    ) -> None:
        self.topics = TableTopics(check_name("venue", venue), check_name("table", table))
        self.session = session
        self.secure_delay_ms = int(secure_delay_s * 1000)
        self._stamps = Stamps(
            self.topics, session, clock_ms=clock_ms,
            validate_outbound=os.environ.get("POKERTABLE_MQTT_VALIDATE") == "1"
            if validate_outbound is None else validate_outbound,
        )
        self._builder = self._stamps.builder
        self._clock_ms = clock_ms
        self._host, self._port, self._keepalive = host, port, keepalive_s
        self._outbox = Outbox(
            outbox_path,
            session=session,
            max_messages=max_outbox,
            max_bytes=max_outbox_bytes,
            fsync=fsync,
            sealer=sealer,
        )
        self._latest_key = f"{session}:state"
        # The state changes in a seat or two per input: its last text is patched (patched_json)
        self._state_json = PatchedEncoder()
        self.inbound: queue.Queue[InboundCommand] = queue.Queue()
        self.rejected: queue.Queue[RejectedCommand] = queue.Queue()
        self._work: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self._connected = threading.Event()
        self._subscribed = threading.Event()  # the broker acknowledged our commands' topics
        self._idle = threading.Event()
        self._worker: threading.Thread | None = None
        # Rows handed to paho and their cursors, shared by our worker and the publishing
        # thread's fast path (``_send``); both only touch them holding ``_pump_lock``.
        self._pump_lock = threading.Lock()
        self._inflight: dict[int, int] = {}  # paho mid -> outbox row id
        self._acked: collections.deque[int] = collections.deque()  # PUBACKed mids, for our worker
        self._acks_woken = False
        # A state handed to paho since the last CONNACK: the broker holds it as the retained
        # state, so the re-publish on our SUBACK would only send a duplicate (under _pump_lock).
        self._state_handed = False
        self._cursors = {"public": 0, "secure": 0}
        self._bd_seq = 0
        self._stopped = False
        self._last_rebirth_ms = -REBIRTH_MIN_INTERVAL_MS
        self.last_connect_error: str | None = None
        self.faults = 0  # items our worker could not handle (logged); the bridge carried on

        self._client = DirectWriteClient(
            CallbackAPIVersion.VERSION2,
            client_id=client_id or table_client_id(venue, table, password),
            clean_session=True,
        )
        if username is not None:
            self._client.username_pw_set(username, password)
        if tls is not None:
            self._client.tls_set(
                ca_certs=tls.ca_certs,
                certfile=tls.certfile,
                keyfile=tls.keyfile,
                cert_reqs=ssl.CERT_REQUIRED,
            )
            self._client.tls_insecure_set(tls.insecure)
        # A bug in one of our callbacks is logged by paho instead of ending its network thread.
        self._client.suppress_exceptions = True
        self._client.reconnect_delay_set(*reconnect_delay_s)
        self._client.max_inflight_messages_set(_WINDOW)
        self._client.on_connect = self._on_connect
        self._client.on_subscribe = self._on_subscribe
        self._command_subscription: int | None = None
        # "online" (on SUBACK, paho's thread) never lands after stop's "offline"
        self._status_lock = threading.Lock()
        self._stopping = False
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        self._client.on_socket_open = no_delay

    # ---- lifecycle ------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def pending(self) -> int:
        """Messages stored in the outbox and not yet acknowledged by the broker."""
        return len(self._outbox)

    def start(self) -> None:
        """Set the will, connect in the background (retrying) and start our worker."""
        if self._worker is not None or self._stopped:
            raise MqttBridgeError("a bridge starts once; make a new one (same outbox) to restart")
        self._bd_seq = self._outbox.next_seq("status")
        self._client.will_set(self.topics.status, self._status_payload("lost"), QOS, retain=True)
        self._worker = threading.Thread(target=self._run, name="mqtt-bridge", daemon=True)
        self._worker.start()
        self._client.connect_async(self._host, self._port, self._keepalive)
        self._client.loop_start()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def wait_subscribed(self, timeout: float) -> bool:
        """Until the broker has acknowledged the clock and command subscriptions (SUBACK):
        the CONNACK comes first, and a clock level published in between is never routed
        to the table (a command is not retained)."""
        return self._subscribed.wait(timeout)

    def wait_delivered(self, timeout: float) -> bool:
        """Block until the outbox is empty (every message PUBACKed) or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while len(self._outbox) > 0:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            self._idle.clear()
            self._work.put(("wake",))
            self._idle.wait(min(remaining, 0.05))
        return True

    def stop(self, drain_timeout: float = 2.0) -> None:
        """Deliver what we can, publish the clean 'offline' status, disconnect.

        Whatever is still undelivered stays in the outbox for the next start.
        """
        if self._worker is None:
            return
        if self.connected:
            self.wait_delivered(drain_timeout)
            with self._status_lock:
                self._stopping = True
                info = self._client.publish(
                    self.topics.status, self._status_payload("offline"), QOS, retain=True
                )
            try:
                info.wait_for_publish(drain_timeout)
            except (RuntimeError, ValueError):
                log.warning("offline status not acknowledged before disconnect")
        self._client.disconnect()
        self._client.loop_stop()
        self._work.put(("stop",))
        self._worker.join(timeout=5)
        self._worker = None
        self._stopped = True
        self._connected.clear()
        self._subscribed.clear()
        self._outbox.close()

    # ---- outbound -------------------------------------------------------------------------

    def publish_state(self, state: dict[str, Any], *, origin: int | None = None) -> int | None:
        """Queue the full table state (retained); returns its sequence number.

        With ``origin`` (see ``Outbox.append``) a message already queued before a restart
        is skipped and None is returned.
        """
        return self._send(
            "state",
            self.topics.state,
            self._builder("state", state, self._state_json.encode),
            retain=True,
            latest_key=self._latest_key,  # the stored row is the rebirth copy: encoded once
            origin=origin,
        )

    def publish_event(self, event: dict[str, Any], *, origin: int | None = None) -> int | None:
        """Queue one engine event with its rulings (QoS 1, not retained)."""
        return self._send("event", self.topics.events, self._builder("event", event), origin=origin)

    def publish_hole_cards(self, cards: dict[str, Any], *, origin: int | None = None) -> int | None:
        """Queue hole cards for the secure subtree, released after the broadcast delay."""
        seat = cards.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise PayloadError("seat must be an integer", "seat")
        return self._send(
            "hole_cards",
            self.topics.hole_cards(seat),
            self._builder("hole_cards", cards),
            lane="secure",
            release_at_ms=self._clock_ms() + self.secure_delay_ms,
            origin=origin,
        )

    def reply(
        self,
        request_id: str | None,
        *,
        ok: bool,
        command: str | None = None,
        error: str | None = None,
        field: str | None = None,
        origin: int | None = None,
        ts_ms: int | None = None,
    ) -> int | None:
        """Answer a command on the reply topic (the application calls this after applying it)."""
        data: dict[str, Any] = {"request_id": request_id, "ok": ok, "command": command}
        if error is not None:
            data["error"] = error[:500]
        if field is not None:
            data["field"] = field
        if ts_ms is not None:
            data["ts_ms"] = ts_ms
        return self._send("reply", self.topics.reply, self._builder("reply", data), origin=origin)

    def _send(
        self,
        stream: str,
        topic: str,
        build: Callable[[int], bytes],
        *,
        lane: str = "public",
        retain: bool = False,
        release_at_ms: int = 0,
        latest_key: str | None = None,
        origin: int | None = None,
    ) -> int | None:
        """Store one message and hand it to paho from the publishing thread when nobody
        else is pumping; returns its sequence number (None: queued before a restart).

        Waking our worker to do it cost a thread handoff per message (docs/benchmarks.md);
        when the worker holds the lock it is pumping already, and the wake makes it look
        again for the row just stored. A message due now with nothing of its lane ahead of
        it is handed over before its row is written (``Outbox.append_row``): on the wire
        while SQLite writes.
        """
        if not (self.connected and self._worker is not None and self._pump_lock.acquire(False)):
            seq = self._outbox.append(
                stream, topic, build, lane=lane, retain=retain, release_at_ms=release_at_ms,
                latest_key=latest_key, origin=origin,
            )  # fmt: skip
            self._work.put(("wake",))
            return seq
        try:
            inflight, cursors = self._inflight, self._cursors
            direct = len(inflight) < _WINDOW and (
                release_at_ms <= 0 or release_at_ms <= self._clock_ms())  # 0: due now

            def hand(payload: bytes) -> int:
                info = self._client.publish_quiet(topic, payload, QOS, retain)
                self._client.flush()  # on this thread, without waking paho's
                return int(info.mid)

            row = self._outbox.append_row(
                stream, topic, build, lane=lane, retain=retain, release_at_ms=release_at_ms,
                latest_key=latest_key, origin=origin, hand=hand if direct else None,
                handed_up_to=cursors[lane],
            )  # fmt: skip
            if row is not None and row.handed is not None:
                inflight[row.handed] = row.row_id
                cursors[lane] = row.row_id
                self._state_handed |= topic == self.topics.state
            self._pump(inflight, cursors)  # anything else now due (usually nothing)
        finally:
            self._pump_lock.release()
        return None if row is None else row.seq

    def iter_commands(self, timeout: float) -> Iterator[InboundCommand]:
        """Yield validated commands until none arrives for ``timeout`` seconds."""
        while True:
            try:
                yield self.inbound.get(timeout=timeout)
            except queue.Empty:
                return

    def _status_payload(self, state: str) -> bytes:
        return self._stamps.status(state, self._bd_seq)

    # ---- paho callbacks: run on paho's thread, only enqueue (and the birth, per pattern 12) --

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.ConnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason_code.is_failure:
            self.last_connect_error = str(reason_code)
            log.error("broker refused connection: %s", reason_code)
            return
        # "online" waits for the SUBACK (``_on_subscribe``): a client that sends a command
        # the moment it sees the table online must not be lost before the broker routes it.
        self._state_handed = False  # a new connection: the broker may have lost it
        self._subscribed.clear()
        _, self._command_subscription = client.subscribe(
            [(self.topics.clock, QOS), (self.topics.commands, QOS)]
        )
        self._connected.set()
        self._work.put(("connected",))

    def _on_subscribe(
        self, client: mqtt.Client, userdata: Any, mid: int, reason_codes: list[ReasonCode],
        properties: Properties | None,
    ) -> None:
        if mid != self._command_subscription:
            return
        if refused := [str(code) for code in reason_codes if code.is_failure]:
            log.error("broker refused the command subscriptions: %s", ", ".join(refused))
        else:
            self._subscribed.set()
        with self._status_lock:
            if self._stopping:
                return
            client.publish(self.topics.status, self._status_payload("online"), QOS, retain=True)
        # The outbox is read on our worker: a paho callback never takes ``Outbox._lock``,
        # which the publishing thread holds while it hands a message to paho.
        self._work.put(("subscribed",))

    def _republish_latest(self) -> None:
        """A broker restart without persistence forgets retained state: re-publish the last
        one unless a newer one is still queued (then the queue delivers it, in order) or one
        went out on this connection already (the broker retains that one).

        Same seq as when first sent: consumers that saw it drop it as a duplicate. Under
        ``_pump_lock``, so no newer state is handed over meanwhile and overtaken by this one.
        """
        with self._pump_lock:
            if self._state_handed or self._outbox.has_pending("state"):
                return
            latest = self._outbox.get_latest(self._latest_key)
            if latest is None or self._outbox.last_seq("state") <= 0:
                return
            payload = self._stamps.stamp(json.loads(latest), self._outbox.last_seq("state"))
            self._client.publish(self.topics.state, _dumps(payload), QOS, retain=True)

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.DisconnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        self._connected.clear()
        self._subscribed.clear()
        self._work.put(("disconnected",))

    def _on_publish(
        self,
        client: mqtt.Client,
        userdata: Any,
        mid: int,
        reason_code: ReasonCode,
        properties: Properties,
    ) -> None:
        # Our worker deletes acknowledged rows whenever it wakes (at least every 0.5 s), so a
        # PUBACK wakes it only once a batch has gathered, not once per message (a thread
        # wake per message was a good part of our CPU per message, docs/benchmarks.md).
        self._acked.append(mid)
        if len(self._acked) >= _ACK_BATCH and not self._acks_woken:
            self._acks_woken = True
            self._work.put(("acks",))

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self._work.put(("inbound", message.topic, bytes(message.payload), bool(message.retain)))

    # ---- our worker -------------------------------------------------------------------------

    def _run(self) -> None:
        inflight, cursors = self._inflight, self._cursors
        stopping = False
        while not stopping:
            try:
                items = [self._work.get(timeout=self._wait_s(cursors))]
            except queue.Empty:
                items = []
            while True:
                try:
                    items.append(self._work.get_nowait())
                except queue.Empty:
                    break
            try:
                self._drain_acks(inflight)
            except Exception:
                self.faults += 1
                log.exception("MQTT bridge: deleting acknowledged rows failed; retrying")
            for item in items:
                if item[0] == "stop":
                    stopping = True
                    continue
                # One bad message or one failed write must never stop the table's voice:
                # log it with its traceback (a bug to fix) and carry on with the next item.
                try:
                    self._handle_item(item, inflight)
                except Exception:
                    self.faults += 1
                    log.exception("MQTT bridge: %s item failed; the bridge carries on", item[0])
            with self._pump_lock:
                if not stopping and self.connected:
                    try:
                        self._pump(inflight, cursors)
                    except Exception:
                        self.faults += 1
                        log.exception("MQTT bridge: handing the outbox to paho failed; retrying")
                if not inflight:
                    self._idle.set()

    def _handle_item(self, item: tuple[Any, ...], inflight: dict[int, int]) -> None:
        if item[0] == "inbound":
            self._handle_inbound(item[1], item[2], item[3])
        elif item[0] == "subscribed":
            self._republish_latest()

    def _drain_acks(self, inflight: dict[int, int]) -> None:
        """Delete the rows the broker acknowledged since the last time, in one statement."""
        self._acks_woken = False  # before draining: a batch from now on wakes us again
        acked = self._acked
        with self._pump_lock:
            rows = []
            while acked:
                row_id = inflight.pop(acked.popleft(), None)
                if row_id is not None:
                    rows.append(row_id)
        self._outbox.remove_many(rows)
        if rows:
            self._outbox.checkpoint()  # here, not inside a commit on the publishing thread

    def alive(self) -> bool:
        """Our worker and paho's network thread both run (the systemd watchdog asks)."""
        if self._stopped or self._worker is None or not self._worker.is_alive():
            return False
        network = getattr(self._client, "_thread", None)  # paho's loop_start thread
        return network is None or bool(network.is_alive())

    def _wait_s(self, cursors: dict[str, int]) -> float:
        if self.secure_delay_ms <= 0 or not self.connected:
            return 0.5
        due = self._outbox.next_release_ms("secure", cursors["secure"])
        if due is None:
            return 0.5
        return min(0.5, max(0.001, (due - self._clock_ms()) / 1000))

    def _pump(self, inflight: dict[int, int], cursors: dict[str, int]) -> None:
        """Hand due rows to paho in id order, keeping at most _WINDOW unacknowledged."""
        report = self._outbox.take_drop_report()
        if report is not None:
            self._announce_drops(report.streams)
        now = self._clock_ms()
        handed = False
        for lane in ("public", "secure"):
            room = _WINDOW - len(inflight)
            if room <= 0:
                break
            for row in self._outbox.pending(lane, after_id=cursors[lane], now_ms=now, limit=room):
                info = self._client.publish_quiet(row.topic, row.payload, QOS, row.retain)
                # NO_CONN is fine: paho keeps QoS 1 messages and sends them after reconnect.
                inflight[info.mid] = row.id
                cursors[lane] = row.id
                handed = True
                self._state_handed |= row.topic == self.topics.state
        if handed:
            self._client.flush()  # on this thread, without waking paho's

    def _announce_drops(self, streams: dict[str, tuple[int, int, int]]) -> None:
        log.error("outbox full: dropped %s", streams)
        self._outbox.append("event", self.topics.events,
                            self._builder("event", overflow_event(streams)), bounded=False)

    def _handle_inbound(self, topic: str, raw: bytes, retained: bool = False) -> None:
        read = read_command(self.topics, topic, raw, retained)
        if isinstance(read, InboundCommand):
            self.inbound.put(read)
        elif isinstance(read, RebirthRequest):
            self._rebirth(read.request_id)
        elif isinstance(read, RejectedCommand):
            self.rejected.put(read)
            self.reply(read.request_id, ok=False, command=command_of(raw), error=read.error,
                       field=read.field)

    def _rebirth(self, request_id: str) -> None:
        """Full state re-publish with a new seq, queued behind anything still undelivered."""
        latest = self._outbox.get_latest(self._latest_key)
        if latest is None:
            self.reply(request_id, ok=False, command="rebirth", error="no state published yet")
            return
        now = self._clock_ms()
        if now - self._last_rebirth_ms < REBIRTH_MIN_INTERVAL_MS:
            self.reply(
                request_id,
                ok=False,
                command="rebirth",
                error="rate limited: a full state was re-published under 1 s ago",
            )
            return
        self._last_rebirth_ms = now
        self._client.publish(self.topics.status, self._status_payload("online"), QOS, retain=True)
        self.publish_state(json.loads(latest))
        self.reply(request_id, ok=True, command="rebirth")
