"""What ``pokertable readers`` shows: each reader node and antenna, from the frames it sends.

(Imported only when the command runs, so ``pokertable --help`` stays light.)

``pokertable readers``: is each reader node talking, and what does each antenna see?

For an installer with a laptop or the Pi itself: open the reader ports, listen, and show
per node its firmware, heartbeat (age, uptime, scans per second, the node's own CRC error
and reset counters) and the Pi-side decode errors; per zone (antenna) the tags on it now,
the distinct tags seen since start, how often it reports and the last alert. It uses the
same serial transport and interpreter as the table, so what it shows is what ``run`` gets::

    pokertable readers --port /dev/serial/by-id/usb-FTDI_FT232R_A10K1234-if00-port0
    pokertable readers --port /dev/ttyAMA0 --registry /var/lib/pokertable/registry.sqlite3 --once

``--once`` prints one report once every node has sent a heartbeat, for scripts and tests.
UART buses only: a node on an RS-485 bus speaks when polled, which ``run`` does.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokertable.firmware import wire
from pokertable.hardware.clock import Clock
from pokertable.hardware.events import Alert, HardwareEvent, NodeDown, NodeUp, ZoneSnapshot
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.transport import BusSession

RATE_WINDOW_MS = 5_000  # reports per second are counted over the last five seconds


@dataclass
class ZoneStats:
    """One antenna's zone as the node reports it."""

    tags_now: int = 0
    seen: set[str] = field(default_factory=set)
    reports: deque[int] = field(default_factory=deque)  # when each snapshot arrived
    last_alert: str = ""

    def rate(self, now_ms: int) -> float:
        while self.reports and now_ms - self.reports[0] > RATE_WINDOW_MS:
            self.reports.popleft()
        return len(self.reports) * 1000 / RATE_WINDOW_MS


@dataclass
class NodeStats:
    """One node: what its BIRTH and HEARTBEAT frames say, and when it was last heard."""

    node: int
    port: str
    fw_version: str = "?"
    reader_type: str = "?"
    zones: dict[str, ZoneStats] = field(default_factory=dict)
    up: bool = False
    born: bool = False  # its BIRTH (firmware, zones) was heard
    heartbeats: int = 0
    last_heard_ms: int | None = None
    last_heartbeat_ms: int | None = None
    first_heartbeat_ms: int | None = None
    """The first heartbeat after the BIRTH: a zone's report after it follows a whole scan
    round (the BIRTH's own snapshots may predate the tags' debounce)."""
    uptime_ms: int = 0
    scans_per_s: int = 0
    node_crc_errors: int = 0
    resets: int = 0
    alerts: int = 0
    faults: dict[str, str] = field(default_factory=dict)
    """What its BIRTH says is out of service: zone -> reason ("" = the reader itself)."""


class DiagnosticSession(BusSession):
    """The table's bus session, recording each node's raw frames before interpreting them."""

    def __init__(self, registry: TagRegistry, clock: Clock) -> None:
        super().__init__(BusInterpreter(registry, emit_snapshots=True), clock, self._on_event)
        self.nodes: dict[int, NodeStats] = {}
        self.decode_errors: dict[str, int] = {}
        self.changed = threading.Condition()

    def deliver(
        self, frames: list[tuple[int, int, int, bytes]], new_errors: int = 0, port: str = ""
    ) -> list[Any]:
        now = self.clock.ticks_ms()
        with self.changed:
            if new_errors:
                self.decode_errors[port] = self.decode_errors.get(port, 0) + new_errors
            for node, msg_type, _seq, payload in frames:
                stats = self.nodes.setdefault(node, NodeStats(node, port))
                stats.port, stats.last_heard_ms = port, now
                if msg_type == wire.MSG_BIRTH:
                    try:
                        _, stats.fw_version, stats.reader_type, zones = wire.unpack_birth(payload)
                        stats.faults = dict(wire.unpack_birth_faults(payload))
                    except ValueError:
                        continue
                    stats.born = True
                    for name in zones:
                        stats.zones.setdefault(name, ZoneStats())
                elif msg_type == wire.MSG_HEARTBEAT:
                    try:
                        uptime, scans, crc, resets = wire.unpack_heartbeat(payload)
                    except ValueError:
                        continue  # the interpreter raises the alert for a bad payload
                    stats.heartbeats += int(stats.born)  # a beat after the BIRTH
                    stats.last_heartbeat_ms = now
                    if stats.born and stats.first_heartbeat_ms is None:
                        stats.first_heartbeat_ms = now
                    stats.uptime_ms, stats.scans_per_s = uptime, scans
                    stats.node_crc_errors, stats.resets = crc, resets
            self.changed.notify_all()
        return super().deliver(frames, new_errors, port)

    def _on_event(self, event: HardwareEvent) -> None:
        with self.changed:
            if isinstance(event, NodeUp):
                self.nodes.setdefault(event.node, NodeStats(event.node, "")).up = True
            elif isinstance(event, NodeDown) and event.node in self.nodes:
                self.nodes[event.node].up = False
            elif isinstance(event, ZoneSnapshot):
                stats = self.nodes.setdefault(event.node, NodeStats(event.node, ""))
                zone = stats.zones.setdefault(event.zone, ZoneStats())
                zone.tags_now = len(event.uids)
                zone.seen.update(event.uids)
                zone.reports.append(event.at_ms)
            elif isinstance(event, Alert) and event.node in self.nodes:
                stats = self.nodes[event.node]
                stats.alerts += 1
                if event.zone is not None:
                    stats.zones.setdefault(event.zone, ZoneStats()).last_alert = event.message
            self.changed.notify_all()

    def report_ready(self, ports: list[str]) -> bool:
        """Every port has a node that has sent its BIRTH, a heartbeat since, and a snapshot
        of each of its zones after that heartbeat (a change or the node's periodic refresh),
        so what each antenna shows has been through the node's debounce."""
        with self.changed:
            heard = {
                n.port for n in self.nodes.values()
                if n.up and n.first_heartbeat_ms is not None and all(
                    z.reports and z.reports[-1] >= n.first_heartbeat_ms
                    for z in n.zones.values())
            }
        return set(ports) <= heard


def render(session: DiagnosticSession, now_ms: int) -> Any:
    """Two narrow tables (fit 80 columns): the nodes, then every zone of every node."""
    from rich.console import Group
    from rich.table import Table

    nodes = Table(title="reader nodes", title_justify="left")
    for column in ("node", "port", "firmware", "state", "beat", "up", "scan/s", "crc/rst/pi"):
        nodes.add_column(column, overflow="fold")
    zones = Table(title="zones (antennas)", title_justify="left")
    for column in ("node", "zone", "now", "seen", "rep/s", "last alert"):
        zones.add_column(column, overflow="fold")
    with session.changed:
        for stats in sorted(session.nodes.values(), key=lambda n: n.node):
            beat = "-" if stats.last_heartbeat_ms is None else (
                f"{(now_ms - stats.last_heartbeat_ms) / 1000:.1f}s ago")
            pi_errors = session.decode_errors.get(stats.port, 0)
            nodes.add_row(
                str(stats.node), Path(stats.port).name or stats.port,
                f"{stats.fw_version} {stats.reader_type}",
                ("up" if stats.up else "DOWN") + (" READER FAULT" if "" in stats.faults else ""),
                beat,
                f"{stats.uptime_ms // 1000}s", str(stats.scans_per_s),
                f"{stats.node_crc_errors}/{stats.resets}/{pi_errors}",
            )
            for name, zone in sorted(stats.zones.items()):
                zones.add_row(str(stats.node), name, str(zone.tags_now), str(len(zone.seen)),
                              f"{zone.rate(now_ms):.1f}", zone.last_alert[:30] or "-")
            for name, reason in sorted(stats.faults.items()):
                zones.add_row(str(stats.node), name or "(reader)", "-", "-", "-",
                              f"FAULT: {reason}"[:60])
    return Group(nodes, zones)


