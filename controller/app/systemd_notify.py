"""Tell systemd we are up and alive (sd_notify), without a dependency.

The unit is ``Type=notify`` with ``WatchdogSec``: systemd waits for ``READY=1`` before it
counts the table as started, and restarts the process if ``WATCHDOG=1`` stops arriving,
which catches a hung main loop that a crash-only restart policy would miss::

    notify_ready()
    interval = watchdog_interval_s()       # None when no watchdog is configured
    while running:
        ...one pass of the main loop...
        notify_watchdog()                  # only from the loop, so a stuck loop stops the pings

Every call is a no-op returning False when ``$NOTIFY_SOCKET`` is unset (tests, a shell).
"""

from __future__ import annotations

import os
import socket


def _address() -> str | None:
    """``$NOTIFY_SOCKET`` as a socket address; a leading '@' names an abstract socket."""
    path = os.environ.get("NOTIFY_SOCKET")
    if not path or path[0] not in "/@":
        return None
    return "\0" + path[1:] if path[0] == "@" else path


def notify(state: str) -> bool:
    """Send one state datagram (e.g. ``READY=1``); True when it was sent.

    A failure to send is reported as False rather than raised: losing a notification must
    not take the table down (systemd will restart it if the watchdog starves anyway).
    """
    address = _address()
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(state.encode("utf-8"), address)
    except OSError:
        return False
    return True


def notify_ready() -> bool:
    """Startup finished: config checked, ports and broker wired, journal replayed."""
    return notify("READY=1")


def notify_watchdog() -> bool:
    """The main loop is alive; call at least every :func:`watchdog_interval_s` seconds."""
    return notify("WATCHDOG=1")


def notify_status(text: str) -> bool:
    """A one-line status shown by ``systemctl status pokertable``."""
    return notify("STATUS=" + " ".join(text.splitlines()))


def notify_stopping() -> bool:
    """Shutdown has begun, so systemd does not mistake it for a hang."""
    return notify("STOPPING=1")


def watchdog_interval_s() -> float | None:
    """Half of ``$WATCHDOG_USEC`` in seconds (the margin sd_watchdog_enabled advises), or None.

    None when no watchdog is set, the value is not a positive integer, or ``$WATCHDOG_PID``
    names another process (the variables were inherited, not meant for us).
    """
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID")
    if pid is not None and pid != str(os.getpid()):
        return None
    if not usec.isdigit() or int(usec) == 0:
        return None
    return int(usec) / 2_000_000
