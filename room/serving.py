"""What every room process shares on its command line: the broker's address, checked when
the arguments are parsed, and running until the operator presses Ctrl-C (or systemd stops
it), stopping what was started in reverse order."""

from __future__ import annotations

import argparse
import threading
from typing import Protocol


class Stoppable(Protocol):
    def stop(self) -> None: ...


def broker_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``:PORT`` for this machine) as an argparse type: a wrong value is
    one usage line naming ``--broker``, not a failure later when the service connects."""
    host, sep, port_text = text.rpartition(":")
    if not sep or not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (e.g. 127.0.0.1:1883)")
    return host or "127.0.0.1", int(port_text)


def add_bind_argument(parser: argparse.ArgumentParser) -> None:
    """``--bind``: where a page server listens. Loopback by default (a page on this
    machine, or behind a reverse proxy); the room's network needs its address or 0.0.0.0."""
    parser.add_argument("--bind", default="127.0.0.1",
                        help="address the page server listens on (default 127.0.0.1; "
                        "0.0.0.0 or this machine's address on the room's network to serve "
                        "tablets and displays, docs/floor.md)")


def run_until_interrupted(*started: Stoppable) -> int:
    """Block until Ctrl-C, then stop ``started`` last-started first; the exit status is 0."""
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        for service in reversed(started):
            service.stop()
    return 0
