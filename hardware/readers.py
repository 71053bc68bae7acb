"""``pokertable readers``: is each reader node talking, and what does each antenna see?

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

import argparse
import logging
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokertable.firmware import wire
from pokertable.hardware.clock import Clock, MonotonicClock
from pokertable.hardware.events import Alert, HardwareEvent, NodeDown, NodeUp, ZoneSnapshot
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.transport import BusSession, PortSupervisor

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
    uptime_ms: int = 0
    scans_per_s: int = 0
    node_crc_errors: int = 0
    resets: int = 0
    alerts: int = 0


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
        """Every port has a node that has sent its BIRTH and a heartbeat since."""
        with self.changed:
            heard = {n.port for n in self.nodes.values() if n.up and n.heartbeats}
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
                f"{stats.fw_version} {stats.reader_type}", "up" if stats.up else "DOWN", beat,
                f"{stats.uptime_ms // 1000}s", str(stats.scans_per_s),
                f"{stats.node_crc_errors}/{stats.resets}/{pi_errors}",
            )
            for name, zone in sorted(stats.zones.items()):
                zones.add_row(str(stats.node), name, str(zone.tags_now), str(len(zone.seen)),
                              f"{zone.rate(now_ms):.1f}", zone.last_alert[:30] or "-")
    return Group(nodes, zones)


# -- the command -------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Live diagnostic of the reader nodes on the given ports: firmware, heartbeat, scan "
        "rate, error counters, and per antenna zone the tags on it now and seen since start. "
        "Stop the table first (systemctl stop pokertable): a port has one reader at a time."
    )
    parser.add_argument("--port", action="append", required=True, metavar="PORT",
                        help="a reader port (repeat for several), e.g. /dev/serial/by-id/...")
    parser.add_argument("--baudrate", type=int, default=115_200,
                        help="the nodes' UART speed (default: 115200)")
    parser.add_argument("--registry", type=Path, default=None,
                        help="the tag registry, so known tags count (default: none; every tag "
                        "is then foreign, which the zone table says)")
    parser.add_argument("--once", action="store_true",
                        help="print one report when every port's node has sent a heartbeat, "
                        "then exit (0; 1 if a port stays silent for --stall-limit)")
    parser.add_argument("--stall-limit", type=float, default=30.0, metavar="SECONDS",
                        help="with --once: how long to wait for silent ports (default: 30)")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    logging.getLogger("pokertable.hardware.transport").setLevel(logging.ERROR)
    clock = MonotonicClock()
    with tempfile.TemporaryDirectory(prefix="pokertable-readers-") as folder:
        registry = TagRegistry(args.registry or Path(folder) / "empty.sqlite3")
        session = DiagnosticSession(registry, clock)
        supervisors = [PortSupervisor(p, session, baudrate=args.baudrate) for p in args.port]
        for supervisor in supervisors:
            supervisor.start()
        try:
            if args.once:
                return _once(args, session, clock, Console())
            return _live(session, clock)
        finally:
            for supervisor in supervisors:
                supervisor.stop()
            registry.close()


def _once(args: argparse.Namespace, session: DiagnosticSession, clock: Clock,
          console: Any) -> int:
    deadline = time.monotonic() + args.stall_limit
    with session.changed:
        while not session.report_ready(args.port) and time.monotonic() < deadline:
            session.changed.wait(0.1)
    console.print(render(session, clock.ticks_ms()))
    silent = sorted(set(args.port) - {n.port for n in session.nodes.values() if n.heartbeats})
    if silent:
        print(f"readers: no heartbeat in {args.stall_limit:.0f} s on {', '.join(silent)}",
              file=sys.stderr)
        return 1
    return 0


def _live(session: DiagnosticSession, clock: Clock) -> int:
    from rich.live import Live

    try:
        with Live(get_renderable=lambda: render(session, clock.ticks_ms()),
                  refresh_per_second=4):
            threading.Event().wait()
    except KeyboardInterrupt:
        return 0
    return 0
