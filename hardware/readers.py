"""``pokertable readers``: the command line; the work is in :mod:`hardware.reader_diagnostics`,
imported when the command runs so that ``pokertable --help`` imports no serial code."""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

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

    from pokertable.hardware.clock import MonotonicClock
    from pokertable.hardware.reader_diagnostics import DiagnosticSession
    from pokertable.hardware.registry import TagRegistry
    from pokertable.hardware.transport import PortSupervisor

    logging.getLogger("pokertable.hardware.transport").setLevel(logging.ERROR)
    missing = _unopenable(args.port)
    if missing:
        print(f"pokertable readers: {missing}", file=sys.stderr)
        return 69  # EX_UNAVAILABLE: a diagnostic of a port that is not there shows nothing
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


def _unopenable(ports: list[str]) -> str:
    """The first port path that is not there or not ours to open, named in one line ("" when
    every one is). Checked on the path, not by opening it: an open may reset a node, and
    the supervisor opens it next. URLs (rfc2217://, loop://) are left to the supervisor."""
    import os

    for port in ports:
        if "://" in port:
            continue
        if not os.path.exists(port):
            why = "no such device"
        elif not os.access(port, os.R_OK | os.W_OK):
            why = "permission denied: add the user to the dialout group"
        else:
            continue
        return (f"reader port {port} cannot be opened ({why}): check the cable or adapter "
                "and the --port path (ls /dev/serial/by-id/)")
    return ""


def _once(args: argparse.Namespace, session: Any, clock: Any, console: Any) -> int:
    from pokertable.hardware.reader_diagnostics import render

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


def _live(session: Any, clock: Any) -> int:
    from rich.live import Live

    from pokertable.hardware.reader_diagnostics import render

    try:
        with Live(get_renderable=lambda: render(session, clock.ticks_ms()),
                  refresh_per_second=4):
            threading.Event().wait()
    except KeyboardInterrupt:
        return 0
    return 0
