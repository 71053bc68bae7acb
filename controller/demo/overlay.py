"""``pokertable demo --overlay``: the broadcast overlay page on the demo's table.

A newcomer sees what a broadcaster gets without a broker to configure: the demo's
in-process broker opens a WebSockets listener, the broadcast relay (``room.overlay_service``)
reads the table's feed and republishes it under ``broadcast/`` with exact equities, and the
page's URL is printed to open in any browser (or an OBS browser source, docs/overlay.md).
With ``--broker`` the page expects that broker's WebSockets listener on port 9001 (the shipped
mosquitto config) and the relay's password in POKERTABLE_RELAY_PASSWORD, as ``pokertable
overlay`` does; the page itself connects anonymously and holds no password.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from typing import Any

SHIPPED_WS_PORT = 9001
"""The WebSockets listener of mqtt/broker/mosquitto.conf."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--overlay",
        action="store_true",
        help="also serve the broadcast overlay page (seats, hole cards, win %%, board, pot) "
        "and print its URL to open in a browser",
    )
    parser.add_argument(
        "--overlay-delay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="broadcast delay of the overlay's feed (default: 0; a real broadcast runs "
        "15-60 minutes late)",
    )
    parser.add_argument(
        "--overlay-port",
        type=int,
        default=8080,
        metavar="PORT",
        help="HTTP port of the overlay page (default: 8080; 0 picks a free one)",
    )


def ws_port(args: argparse.Namespace) -> int | None:
    """The in-process broker's WebSockets port: only when the page needs one."""
    if not getattr(args, "overlay", False):
        return None
    from pokertable.mqtt.mosquitto import free_port

    return free_port()


@contextlib.contextmanager
def overlay_page(
    args: argparse.Namespace,
    host: str,
    port: int,
    broker: Any,
    venue: str = "demo",
    table: str = "t1",
) -> Iterator[str | None]:
    """Relay and page for the demo's table while the block runs; yields the page's URL.
    ``broker`` is the demo's in-process broker, or None for the one given by ``--broker``."""
    if not getattr(args, "overlay", False):  # callers that build their own Namespace
        yield None
        return
    from pokertable.room.overlay_service import OverlayService, load_layout, page_config

    if args.overlay_delay < 0:
        raise SystemExit("pokertable demo: --overlay-delay must be 0 or more seconds")
    ws = broker.ws_port if broker is not None else SHIPPED_WS_PORT
    page = page_config(f"ws://{host}:{ws}", load_layout(None))
    try:
        service = OverlayService(
            host=host,
            port=port,
            venue=venue,
            table=table,
            delay_s=args.overlay_delay,
            relay_login=("broadcaster", os.environ.get("POKERTABLE_RELAY_PASSWORD", "")),
            page_config=page,
            http_port=args.overlay_port,
        )  # binds the page's HTTP port
    except OSError as exc:
        from pokertable.controller.demo.room import DemoUnavailable

        raise DemoUnavailable(
            f"overlay page port {args.overlay_port}: {exc.strerror or exc}; another "
            "program holds it: choose another with --overlay-port (0 picks a free one)"
        ) from None
    service.start()
    try:
        if not service.wait_subscribed(args.stall_limit):  # before the first hole card
            raise SystemExit(f"pokertable demo: the overlay relay cannot reach {host}:{port}")
        print(
            f"overlay page: {service.url} (open it in a browser; broadcast delay "
            f"{args.overlay_delay:g} s)",
            flush=True,
        )
        yield service.url
    finally:
        service.stop()
