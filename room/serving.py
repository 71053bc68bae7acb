"""What every room process shares on its command line: the broker's address, checked when
the arguments are parsed, and running until the operator presses Ctrl-C (or systemd stops
it), stopping what was started in reverse order; and, for the services that survive a
restart (clock, seating desk), where their state file is and how it is read and written."""

from __future__ import annotations

import argparse
import json
import os
import threading
from pathlib import Path
from typing import Any, Protocol


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


def service_state_file(args: argparse.Namespace, service: str) -> Path:
    """Where ``service`` keeps its state (``--state-file``, or ``<service>-<venue>.json`` in
    systemd's STATE_DIRECTORY); with ``--fresh`` the old state is set aside."""
    path: Path = args.state_file or Path(os.environ.get("STATE_DIRECTORY", ".")) / (
        f"{service}-{args.venue}.json")
    if args.fresh and path.exists():
        path.replace(path.with_name(path.name + ".old"))
    return path


def load_state(path: Path, what: str) -> dict[str, Any]:
    """A service's saved state; a ValueError naming ``what`` and the file when it is not one."""
    try:
        saved = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{what} state {path}: {error} (move it aside to start afresh)"
                         ) from None
    if not isinstance(saved, dict):
        raise ValueError(f"{what} state {path}: not a JSON object (move it aside to start "
                         "afresh)")
    return saved


def save_state(path: Path, text: str, mode: int = 0o666) -> None:
    """Write (a new file gets ``mode``, less the umask), flush to disk, then rename over the
    old file: a kill leaves one or the other."""
    partial = path.with_name(path.name + ".tmp")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)
