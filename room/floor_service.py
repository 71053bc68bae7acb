"""``pokertable floor``: the floor console, a web page for the director and floor staff.

One per room, on any machine of the room's network. The page signs in to the broker with
the person's own login (``director`` or ``floor``, over MQTT-over-WebSockets) and from then
on talks to the tables directly: the room's state live, every open floor call with its
options as buttons (``floor_decision``), pause/resume, hand-for-hand, seating, absent and
present, penalties and an on-screen dealer console. The broker's ACL is the authorisation;
each command carries ``note: "by <login> (floor console)"`` and the table journals it with
the time, so every decision is on record with who and when (docs/floor.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pokertable.room.serving import add_bind_argument, run_until_interrupted
from pokertable.room.web import LOOPBACK, ROOM_DIR, PageServer

DESCRIPTION = (
    "Serve the floor console (a web page for the tournament director and floor staff) for "
    "one venue; it signs in to the broker over MQTT-over-WebSockets with each person's own "
    "login (docs/floor.md).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
    parser.add_argument("--venue", required=True, help="venue name in the topic tree")
    parser.add_argument("--ws-url", default="ws://127.0.0.1:9001",
                        help="the broker's WebSockets URL as the console's browser reaches it")
    parser.add_argument("--http-port", type=int, default=8081,
                        help="port of the console (default 8081; 0 picks a free one)")
    parser.add_argument("--replayer-url",
                        help="the hand replayer's address (python -m pokertable.room.replayer "
                        "--db ...): the console links to it")
    add_bind_argument(parser)


def console(venue: str, ws_url: str, http_port: int = 0, bind: str = LOOPBACK,
            replayer_url: str | None = None) -> PageServer:
    """The console's page server (not started)."""
    from pokertable.mqtt.topics import check_name
    from pokertable.room.rule_texts import rule_texts

    # the rule text beside each rule id of a floor call, from the shipped rulebooks
    config = {"venue": check_name("venue", venue), "ws_url": ws_url, "rules": rule_texts(),
              "replayer_url": replayer_url}
    return PageServer(ROOM_DIR, config, http_port, page="floor/", bind=bind)


def run(args: argparse.Namespace) -> int:
    try:
        server = console(args.venue, args.ws_url, args.http_port, args.bind,
                         getattr(args, "replayer_url", None))
    except ValueError as error:
        print(f"pokertable floor: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # the page's port (room/web.py PortTaken names it)
        print(f"pokertable floor: {error}", file=sys.stderr)
        return 69  # EX_UNAVAILABLE
    server.start()
    print(f"floor console: {server.url}", flush=True)
    return run_until_interrupted(server)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pokertable floor")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
