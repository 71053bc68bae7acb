"""The reader node's main loop: scanner -> link, plus commands from the Pi.

`Node` is the same object on a Pico, an ESP32 and in the simulated node on the host:
only the link's port, the reader and the clock differ. One `step()` reads incoming
frames, scans one zone, and sends what is due::

    node = Node(link, scanner, clock, cfg, reader_type="PN5180")
    node.boot()                       # BIRTH + every zone's snapshot
    while True:
        node.step()

Messages: BIRTH on boot and on CMD_REBIRTH; SNAPSHOT whenever a zone changes or
settles, again on CMD_SNAPSHOT (the Pi saw a gap or noise) and, one zone in turn, every
`refresh_ms` (anti-entropy: a lost snapshot heals even if nobody noticed the loss);
HEARTBEAT every `heartbeat_ms` with uptime, scans/s, CRC errors and reader resets; ACK
for PING, LED, CONFIGURE and (point to point) POLL.

Faults never stop the node: a zone whose antenna the board cannot reach and a reader
that does not answer are listed in BIRTH (sent again whenever the list changes) while
the other zones, the heartbeat and the link go on; a dead reader is retried every
`READER_RETRY_MS`. A zone bigger than one frame goes out as numbered parts
(`wire.snapshot_parts`), so every frame fits the RS-485 response window.
"""

import json

from micropython import const

import node_config
import wire
from clock import ticks_diff
from reader_errors import ReaderError

try:
    from typing import Any
except ImportError:
    pass

FW_VERSION = "0.1.0"
READER_RETRY_MS = 1000  # a reader that does not answer is reset again this often
_DEBUG = const(False)


class Node:
    def __init__(
        self,
        link: Any,
        scanner: Any,
        clock: Any,
        cfg: dict,
        reader_type: str = "PN5180",
        leds: Any = None,
        recover: Any = None,
        wdt: Any = None,
        reader_fault: str | None = None,
    ) -> None:
        self.link = link
        self.scanner = scanner
        self.clock = clock
        self.cfg = cfg
        self.reader_type = reader_type
        self.leds = leds
        self._recover = recover  # callable that resets the reader chip after an error
        self.wdt = wdt  # machine.WDT on a board: fed once per step()
        self.resets = 0
        self.reader_errors = 0
        self.snapshot_errors = 0
        self.config_errors = 0
        self.led_state: dict[int, int] = {}
        self._hb_ms = clock.ticks_ms()
        # Accumulated per heartbeat: MicroPython ticks wrap after 2**30 ms (12 days)
        # and ticks_diff is only meaningful within half of that.
        self.uptime_ms = 0
        self._hb_scans = scanner.scans
        self._refresh_ms = clock.ticks_ms()
        self._refresh_next = 0
        self.reader_fault = reader_fault  # why the reader is out of service (None = fine)
        self._retry_ms = clock.ticks_ms()
        self._scans_at_fault = scanner.scans
        self._retrying = False  # out of service, but the last reset worked: scanning again
        self._faults_sent: list[tuple[str, str]] = []
        self._gen: dict[str, int] = {}  # snapshot generation per zone, for numbered parts

    def boot(self) -> None:
        """Announce ourselves: BIRTH, then the full state of every zone."""
        self.link.resync()
        self.send_birth()

    def faults(self) -> list[tuple[str, str]]:
        """(zone, reason) for what is out of service; zone "" is the whole node."""
        out: list[tuple[str, str]] = list(self.scanner.faults())
        if self.reader_fault is not None:
            out.insert(0, ("", self.reader_fault))
        return out

    def send_birth(self) -> None:
        faults = self.faults()
        self._faults_sent = faults
        for zone, reason in faults:
            print("node fault: %s: %s" % (zone or "reader", reason))  # the USB console
        self.link.send(
            wire.MSG_BIRTH,
            wire.pack_birth(
                self.cfg["node_id"],
                FW_VERSION,
                self.reader_type,
                self.scanner.zone_names(),
                faults,
            ),
        )
        if self.reader_fault is None:
            for i in self.scanner.live():
                self.send_zone(i)

    def service_link(self) -> None:
        """Read and handle frames from the Pi (POLL is answered inside the link)."""
        for frame in self.link.receive():
            self.handle(frame)

    def step(self) -> None:
        """One loop turn: service the link, one RF exchange of the zone scan, what is due.

        A turn is short (one exchange, ~1-5 ms on a PN5180): a poll from the RS-485 master
        waits at most one turn, however long the zone scan takes (docs/wire-protocol.md,
        bus timing). The hardware watchdog is fed once per turn.
        """
        self.service_link()
        snap = self._scan_step()
        if snap is not None:
            self._send_snapshot(snap)
        if self.faults() != self._faults_sent:
            self.send_birth()  # the Pi learns at once what went out of (or back into) service
        self._heartbeat_if_due()
        self._refresh_if_due()
        if self.wdt is not None:
            self.wdt.feed()

    def _scan_step(self) -> Any:
        """Advance the scan; a reader error is counted and the chip reset, never raised.

        A reader whose reset fails too is out of service: no scan until a retry (every
        READER_RETRY_MS) resets it and a zone scan completes again.
        """
        if self.reader_fault is not None:
            if self.scanner.scans != self._scans_at_fault:
                self.reader_fault = None  # a whole zone scan went through: back in service
            elif self._retrying:
                pass  # the last reset worked: let the scan run to the end
            else:
                due = ticks_diff(self.clock.ticks_ms(), self._retry_ms) >= READER_RETRY_MS
                if not due or not self._reset_reader():
                    return None
                self._retrying = True
        try:
            return self.scanner.step()
        except ReaderError as e:
            self.reader_errors += 1
            self.scanner.abort()
            if _DEBUG:
                print("reader error", e)
            self._reset_reader()
            return None

    def _reset_reader(self) -> bool:
        """Reset the chip; on failure mark the reader out of service (retried later)."""
        self._retry_ms = self.clock.ticks_ms()
        if self._recover is None:
            return True
        self.resets += 1
        self._retrying = False
        try:
            self._recover()
            return True
        except ReaderError as e:
            self.reader_fault = "reader %s: %s" % (self.reader_type, e)
            self._scans_at_fault = self.scanner.scans
            return False

    def _send_snapshot(self, snap: tuple[str, bool, list[bytes]]) -> None:
        zone = snap[0]
        gen = (self._gen.get(zone, -1) + 1) & 0xFF
        self._gen[zone] = gen
        incomplete = self.scanner.is_incomplete(zone)
        try:
            parts = wire.snapshot_parts(snap[0], snap[1], snap[2], incomplete, gen)
        except ValueError:
            self.snapshot_errors += 1  # a name or UID the wire cannot carry
            return
        if len(parts) == 1:
            self.link.send(wire.MSG_SNAPSHOT, parts[0], zone)
        else:  # all parts in one burst: the Pi never waits on a part stuck in the queue
            self.link.send_group(wire.MSG_SNAPSHOT, parts, zone)

    def _heartbeat_if_due(self) -> None:
        now = self.clock.ticks_ms()
        elapsed = ticks_diff(now, self._hb_ms)
        if elapsed < self.cfg["heartbeat_ms"]:
            return
        scans = self.scanner.scans - self._hb_scans
        self._hb_scans = self.scanner.scans
        self._hb_ms = now
        rate = (scans * 1000 + elapsed // 2) // elapsed
        self.uptime_ms += elapsed
        self.link.send(
            wire.MSG_HEARTBEAT,
            wire.pack_heartbeat(self.uptime_ms, rate, self.link.crc_errors, self.resets),
        )

    def handle(self, frame: tuple[int, int, int, bytes]) -> None:
        _node, msg_type, seq, payload = frame
        if msg_type == wire.MSG_CMD_PING:
            self._ack(seq)
        elif msg_type == wire.MSG_CMD_REBIRTH:
            self.send_birth()
        elif msg_type == wire.MSG_CMD_LED:
            try:
                seat, mode = wire.unpack_led(payload)
            except ValueError:
                self.config_errors += 1
                return
            self.led_state[seat] = mode
            if self.leds is not None:
                self.leds.set(seat, mode)
            self._ack(seq)
        elif msg_type == wire.MSG_CMD_CONFIGURE and self.configure(payload):
            self._ack(seq)
        elif msg_type == wire.MSG_CMD_SNAPSHOT:
            self.resend_snapshots(payload)

    # -- self-healing link (issue #12): re-send on request, refresh in turn --------------

    def send_zone(self, index: int) -> None:
        self._send_snapshot(self.scanner.snapshot(index))

    def resend_snapshots(self, payload: bytes) -> None:
        """CMD_SNAPSHOT: the current state of one zone, or of all ("" = every zone).

        Snapshots are full states, so the current one replaces whatever was lost; an
        unknown zone or a bad payload is counted and ignored.
        """
        try:
            zone = wire.unpack_snapshot_request(payload)
        except ValueError:
            self.config_errors += 1
            return
        names = self.scanner.zone_names()
        if zone and zone not in names:
            self.config_errors += 1
            return
        for i in self.scanner.live():
            if not zone or self.scanner.zones[i].name == zone:
                self.send_zone(i)

    def _refresh_if_due(self) -> None:
        """Anti-entropy: one zone's full snapshot every `refresh_ms`, zones in turn."""
        period = self.cfg.get("refresh_ms", 0)
        if not period:
            return
        now = self.clock.ticks_ms()
        if ticks_diff(now, self._refresh_ms) < period:
            return
        self._refresh_ms = now
        live = self.scanner.live()
        if not live or self.reader_fault is not None:
            return
        k = self._refresh_next % len(live)
        self._refresh_next = k + 1
        self.send_zone(live[k])

    def configure(self, payload: bytes) -> bool:
        """Apply timing fields from a CONFIGURE; zone/transport changes need a reboot."""
        try:
            update = json.loads(wire.unpack_configure(payload))
            if not isinstance(update, dict):
                raise ValueError("config: top level must be a JSON object")
            merged = dict(self.cfg)
            merged.update(update)
            cfg = node_config.validate(merged)
            self.scanner.configure(
                cfg["present_after"],
                cfg["absent_after"],
                cfg["settle_ms"],
                bet_settle_ms=cfg["bet_settle_ms"],
            )
        except ValueError:
            self.config_errors += 1
            return False
        self.cfg = cfg
        return True

    def _ack(self, seq: int) -> None:
        self.link.send(wire.MSG_ACK, wire.pack_ack(seq))
