"""``pokertable overlay``: the broadcast relay and the overlay page for OBS/vMix.

One process per broadcast table, on any machine of the room's network (not the table's
Pi: equities cost CPU the Pi's hot path should keep). It reads the table's live and secure
feed with the ``broadcaster`` login, publishes ``secure/equities`` at once, republishes the
whole feed ``--delay`` seconds late under ``broadcast/`` (``room.broadcast``), and serves
the overlay page over HTTP. The page connects to the broker over MQTT-over-WebSockets
anonymously: its ``config.json`` holds no login, and the broker's ACL lets an anonymous page
read only the delayed subtree (docs/overlay.md).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pokertable.mqtt.payloads import SCHEMA_VERSION
from pokertable.room.broadcast_feed import BroadcastFeed
from pokertable.room.inbound import message_object
from pokertable.room.serving import add_bind_argument, broker_address, run_until_interrupted
from pokertable.room.web import LOOPBACK, ROOM_DIR, PageServer, PortTaken

PAGE_DIR = ROOM_DIR / "overlay"
LOG = logging.getLogger(__name__)
DEFAULT_LAYOUT: dict[str, Any] = {
    "seats": None,  # every seat; or a list such as [1, 2, 3]
    "colours": {"panel": "rgba(12, 16, 24, 0.86)", "accent": "#f2c14e", "text": "#ffffff",
                "win": "#5fd38d"},
    "logo": None,  # a URL or a path served beside the page
    "stale_after_s": 10,
}
PUBLIC_AFTER_S = 60.0
"""Below this delay the relay warns: the delayed feed, hole cards included, is readable by
anyone who reaches the broker's WebSocket listener, so it must be too late to help a player."""


class OverlayService:
    """The relay (MQTT in, MQTT out, delayed) and the page server, each on its own thread."""

    def __init__(self, *, host: str, port: int, venue: str, table: str, delay_s: float,
                 relay_login: tuple[str, str], page_config: dict[str, Any],
                 http_port: int = 0, heartbeat_s: float = 2.0,
                 http_bind: str = LOOPBACK, delay_file: Path | None = None) -> None:
        from pokertable.mqtt.topics import TableTopics
        from pokertable.room.broadcast import BroadcastLane
        from pokertable.room.delay_store import DelayStore
        from pokertable.room.service_client import ServiceClient

        self.topics = TableTopics(venue, table)
        self.lane = BroadcastLane(delay_s)
        # the held feed on disk (docs/overlay.md): a restart releases it on its own time
        self.store = DelayStore(delay_file) if delay_file is not None else None
        if self.store is not None:
            for key, release_s, message in self.store.pending():
                self.lane.restore(key, release_s, message)
            self.lane.on_hold = self.store.add
        self.heartbeat_s = heartbeat_s
        self._inbox: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue()
        self._acked: queue.Queue[int] = queue.Queue()
        self._unacked: dict[int, int] = {}  # paho's message id -> the held message's key
        self._subscribed = threading.Event()
        self.client = ServiceClient(f"relay-{venue}-{table}", venue, relay_login)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_: self._subscribed.set()
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self.client.connect_async(host, port)
        # the delayed feed as flat JSON and CSV for vMix, Singular, OBS (docs/overlay.md)
        self.feed = BroadcastFeed(delay_s, table)
        self._feed_lock = threading.Lock()
        self.pages = PageServer(PAGE_DIR, {**page_config, "base": self.topics.base}, http_port,
                                bind=http_bind, routes={
                                    "/feed.json": self._feed_json,
                                    "/feed/seats.json": self._feed_seats,
                                    "/feed.csv": self._feed_csv})
        self._worker = threading.Thread(target=self._run, name="broadcast-lane", daemon=True)

    @property
    def url(self) -> str:
        return self.pages.url

    def start(self) -> None:
        self.client.loop_start()
        self._worker.start()
        self.pages.start()

    def wait_subscribed(self, timeout_s: float = 30.0) -> bool:
        return self._subscribed.wait(timeout_s)

    def stop(self) -> None:
        self._inbox.put(None)
        self._worker.join(timeout=5)
        self.pages.stop()
        self.client.say_offline_and_disconnect()
        self.client.loop_stop()
        if self.store is not None:
            self.store.close()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
                    ) -> None:
        if not self.client.accepted(reason):
            return
        base = self.topics.base
        client.subscribe([(f"{base}/state", 1), (f"{base}/events", 1), (f"{base}/status", 1),
                          (f"{base}/secure/hole_cards/+", 1)])
        self.client.say_online()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        """Never lets a bad payload kill paho's thread: it is logged and dropped."""
        payload = message_object(message, LOG, "overlay")
        if payload is None:
            return
        self._inbox.put((message.topic.removeprefix(self.topics.base + "/"), payload))

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, props: Any
                    ) -> None:
        """The broker has a released message: the worker may forget it (paho's thread
        must not touch the worker's SQLite connection)."""
        self._acked.put(mid)
        self._inbox.put(("", {}))

    def _run(self) -> None:
        """Feed the lane, publish what is due, beat the heart; wake on a message, an
        acknowledgement or a due time, whichever is first. The lane runs on the wall
        clock: held messages keep their release time across a restart."""
        next_beat = time.time()
        while True:
            self._forget_acknowledged()
            now = time.time()
            if now >= next_beat:
                self._publish("broadcast/heartbeat", {"delay_s": self.lane.delay_s}, False)
                next_beat = now + self.heartbeat_s
            release = self.lane.next_release_s()
            wait = min(next_beat, release if release is not None else next_beat) - now
            try:
                item = self._inbox.get(timeout=max(0.0, wait))
            except queue.Empty:
                item = ("", {})
            if item is None:
                return
            leaf, payload = item
            try:
                if leaf:
                    for out in self.lane.on_message(leaf, payload, time.time()):
                        self._publish(out.leaf, out.payload, out.retain)
                for key, out in self.lane.due_keyed(time.time()):
                    self._unacked[self._publish(out.leaf, out.payload, out.retain)] = key
                    with self._feed_lock:
                        self.feed.released(out.leaf, out.payload)
            except Exception:  # a bad message must not stop the broadcast
                LOG.exception("overlay: could not relay %s", leaf)

    def _feed_json(self, query: dict[str, str]) -> tuple[str, bytes]:
        with self._feed_lock:
            return "application/json", json.dumps(self.feed.as_flat()).encode()

    def _feed_seats(self, query: dict[str, str]) -> tuple[str, bytes]:
        with self._feed_lock:
            return "application/json", json.dumps(self.feed.rows()).encode()

    def _feed_csv(self, query: dict[str, str]) -> tuple[str, bytes]:
        with self._feed_lock:
            return "text/csv; charset=utf-8", self.feed.as_csv().encode()

    def _forget_acknowledged(self) -> None:
        while True:
            try:
                mid = self._acked.get_nowait()
            except queue.Empty:
                return
            key = self._unacked.pop(mid, None)
            if key is not None and self.store is not None:
                self.store.remove(key)

    def _publish(self, leaf: str, payload: dict[str, Any], retain: bool) -> int:
        """Hands the message to paho (queued while the broker is away); its message id.
        The relay's own payloads (equities, heartbeat) get the tree's ``schema_version``;
        the table's carry theirs."""
        payload = {"schema_version": SCHEMA_VERSION, **payload}
        info = self.client.publish(f"{self.topics.base}/{leaf}", json.dumps(payload), qos=1,
                                   retain=retain)
        return info.mid


def page_config(ws_url: str, layout: dict[str, Any]) -> dict[str, Any]:
    """What the page's ``config.json`` says: where the broker is and how to draw. Never a
    login or password: whatever is served here, every viewer of the page can read."""
    return {"ws_url": ws_url, "layout": layout}


class LayoutError(ValueError):
    """A layout file that cannot be read or has keys the page does not know."""


def load_layout(path: Path | None) -> dict[str, Any]:
    """The default layout with a JSON file's keys over it; unknown keys are an error."""
    layout: dict[str, Any] = json.loads(json.dumps(DEFAULT_LAYOUT))
    if path is None:
        return layout
    try:
        given: dict[str, Any] = json.loads(path.read_text("utf-8"))
    except OSError as error:
        raise LayoutError(f"{path}: {error.strerror or error}") from None
    except ValueError as error:
        raise LayoutError(f"{path}: {error}") from None
    if not isinstance(given, dict):
        raise LayoutError(f"{path}: not a JSON object")
    unknown = set(given) - set(DEFAULT_LAYOUT)
    if unknown:
        raise LayoutError(f"{path}: unknown keys {sorted(unknown)}; known: "
                          f"{sorted(DEFAULT_LAYOUT)}")
    for key, value in given.items():
        layout[key] = {**layout[key], **value} if isinstance(layout[key], dict) else value
    return layout


DESCRIPTION = (
    "Relay one table's feed to the delayed broadcast subtree (with equities) and serve the "
    "overlay page for an OBS/vMix browser source (docs/overlay.md). The relay's password "
    "comes from POKERTABLE_RELAY_PASSWORD; the page needs none.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = DESCRIPTION
    parser.add_argument("--broker", default="127.0.0.1:1883", type=broker_address,
                        help="MQTT broker HOST:PORT for the relay (default 127.0.0.1:1883)")
    parser.add_argument("--ws-url", default="ws://127.0.0.1:9001",
                        help="the broker's WebSockets URL as the page's browser reaches it")
    parser.add_argument("--venue", required=True, help="venue name in the topic tree")
    parser.add_argument("--table", required=True, help="table id in the topic tree")
    parser.add_argument("--delay", type=float, default=1800.0,
                        help="broadcast delay in seconds for the whole feed (default 1800)")
    parser.add_argument("--http-port", type=int, default=8080,
                        help="port of the page (default 8080; 0 picks a free one)")
    add_bind_argument(parser)
    parser.add_argument("--layout", type=Path, help="JSON file: seats, colours, logo, "
                        "stale_after_s (see docs/overlay.md)")
    parser.add_argument("--delay-file", type=Path,
                        help="SQLite file holding the delayed feed across restarts (default "
                        "broadcast-<venue>-<table>.sqlite3 in $STATE_DIRECTORY, else the "
                        "working directory; 0600)")
    parser.add_argument("--relay-user", default="broadcaster",
                        help="login that reads the secure feed and writes broadcast/")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pokertable overlay")
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    host, port = args.broker
    if args.delay < 0:
        print("pokertable overlay: --delay must be 0 or more seconds", file=sys.stderr)
        return 2
    try:
        page = page_config(args.ws_url, load_layout(args.layout))
    except LayoutError as error:
        print(f"pokertable overlay: --layout {error}", file=sys.stderr)
        return 78
    if args.delay < PUBLIC_AFTER_S:
        print(f"pokertable overlay: warning: --delay {args.delay:g} s; the page is public "
              "(anonymous on the broker's WebSocket listener) and shows hole cards this late "
              "(docs/overlay.md)", file=sys.stderr)
    from pokertable.room.delay_store import DelayStoreError

    delay_file = args.delay_file or Path(os.environ.get("STATE_DIRECTORY", ".")) / (
        f"broadcast-{args.venue}-{args.table}.sqlite3")
    try:
        service = OverlayService(
            host=host, port=port, venue=args.venue, table=args.table,
            delay_s=args.delay, page_config=page, http_port=args.http_port,
            http_bind=args.bind, delay_file=delay_file,
            relay_login=(args.relay_user, os.environ.get("POKERTABLE_RELAY_PASSWORD", "")))
    except DelayStoreError as error:
        print(f"pokertable overlay: --delay-file: {error}", file=sys.stderr)
        return 78
    except PortTaken as taken:
        print(f"pokertable overlay: {taken}", file=sys.stderr)
        return 69  # EX_UNAVAILABLE
    service.start()
    print(f"overlay page: {service.url} (broadcast delay {args.delay:g} s)", flush=True)
    return run_until_interrupted(service)


if __name__ == "__main__":
    raise SystemExit(main())
