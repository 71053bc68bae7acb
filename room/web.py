"""The room's web pages: static files plus a ``config.json`` built from the command line.

The pages (overlay, floor console, clock display) talk to the broker themselves over
MQTT-over-WebSockets, so the server only hands out files and where the broker is; it holds
no state and no secret.

A venue's network is not a friendly one, so the server:

* serves only the pages' own files (HTML, scripts, styles, images), never a directory
  listing, the Python sources beside them or anything outside its folder;
* listens on loopback unless told ``--bind`` (``0.0.0.0`` or the room network's address,
  docs/floor.md);
* gives every connection ``HEAD_TIMEOUT_S`` to send a request head (a slow or silent
  client is closed, also between keep-alive requests) and holds at most
  ``MAX_CONNECTIONS``: a new connection beyond that closes the oldest one still waiting
  for its request, so thousands of idle sockets do not keep a real client out.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

LOG = logging.getLogger(__name__)
ROOM_DIR = Path(__file__).resolve().parent
STATIC_SUFFIXES = frozenset({".html", ".js", ".css", ".png", ".svg", ".jpg", ".webp", ".ico",
                             ".woff2", ".json", ".txt"})
"""What a page is made of; anything else (``.py``, ``.pyc``, ``.toml``) is not found."""
HEAD_TIMEOUT_S = 10.0
"""A request head (request line and headers) must arrive within this, from the moment the
connection opens or the previous response ends."""
IO_TIMEOUT_S = 30.0
"""No single read or write of a request or response may stall longer."""
MAX_CONNECTIONS = 200
LOOPBACK = "127.0.0.1"
Route = Callable[[dict[str, str]], tuple[str, bytes]]
"""A dynamic page: the request's query in, (content type, body) out, built per request
(the broadcast data feed, the hand replayer's hands). A LookupError is a 404 naming it."""


class _PageHandler(SimpleHTTPRequestHandler):
    """The pages' static files, plus ``/config.json`` from the process's options."""

    server: _GuardedServer
    timeout = IO_TIMEOUT_S

    def __init__(self, *args: Any, config: dict[str, Any], page: str,
                 routes: dict[str, Route], **kwargs: Any) -> None:
        self.config = config
        self.page = page
        self.routes = routes
        super().__init__(*args, **kwargs)

    def handle_one_request(self) -> None:
        self.server.waiting_for_head(self.connection)
        super().handle_one_request()

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        self.server.head_received(self.connection)
        return parsed

    def do_GET(self) -> None:
        path = self.path.split("?")[0].split("#")[0]
        if path == "/config.json":
            body = json.dumps(self.config).encode()
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if path in self.routes:
            query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
            try:
                content_type, body = self.routes[path](query)
            except LookupError as error:
                self.send_error(HTTPStatus.NOT_FOUND, str(error).strip("'\""))
                return
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", content_type)
            self.send_header("Cache-Control", "no-store")
            self.send_header("Access-Control-Allow-Origin", "*")  # graphics tools' pages
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if path == "/" and self.page:
            self.send_response(HTTPStatus.FOUND)
            self.send_header("Location", f"/{self.page}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()

    def send_head(self) -> Any:
        """Only a page's static files: a directory means its ``index.html`` (never a
        listing), and anything else, or anything outside the folder, is not found."""
        target = Path(self.translate_path(self.path))
        root = Path(self.directory).resolve()
        if target.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the redirect to "dir/"
            target = target / "index.html"
        try:
            resolved = target.resolve(strict=True)
        except OSError:
            resolved = None
        if (resolved is None or not resolved.is_file() or not resolved.is_relative_to(root)
                or resolved.suffix not in STATIC_SUFFIXES
                or any(part.startswith((".", "__")) for part in resolved.relative_to(root).parts)):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        return super().send_head()

    def list_directory(self, path: Any) -> None:
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def log_message(self, format: str, *args: Any) -> None:
        LOG.debug("room http: " + format, *args)


class _GuardedServer(ThreadingHTTPServer):
    """A thread per connection, with the head deadline and the connection cap above."""

    request_queue_size = 128  # the listen backlog: a burst of connects is not refused
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: Any) -> None:
        # Before the bind: a port already taken makes TCPServer call server_close().
        self._lock = threading.Lock()
        self._open: dict[socket.socket, float | None] = {}  # waiting for a head since
        self._closed = threading.Event()
        super().__init__(address, handler)
        self._reaper = threading.Thread(target=self._reap, name="room-http-reaper",
                                        daemon=True)
        self._reaper.start()

    def waiting_for_head(self, connection: socket.socket) -> None:
        with self._lock:
            if connection in self._open:
                self._open[connection] = time.monotonic()

    def head_received(self, connection: socket.socket) -> None:
        with self._lock:
            if connection in self._open:
                self._open[connection] = None

    def verify_request(self, request: Any, client_address: Any) -> bool:
        """Room for a new connection: at the cap, the oldest one still waiting for its
        head is closed; when every connection is busy the new one is refused."""
        with self._lock:
            if len(self._open) >= MAX_CONNECTIONS:
                waiting = [(since, c) for c, since in self._open.items() if since is not None]
                if not waiting:
                    return False
                _, oldest = min(waiting, key=lambda item: item[0])
                _close(oldest)
                del self._open[oldest]
            self._open[request] = time.monotonic()
        return True

    def shutdown_request(self, request: Any) -> None:
        with self._lock:
            self._open.pop(request, None)
        super().shutdown_request(request)

    def _reap(self) -> None:
        """Close connections whose head is overdue (slow headers, idle keep-alive)."""
        while not self._closed.wait(0.5):
            now = time.monotonic()
            with self._lock:
                overdue = [c for c, since in self._open.items()
                           if since is not None and now - since > HEAD_TIMEOUT_S]
                for connection in overdue:
                    self._open[connection] = None  # its thread ends it and forgets it
            for connection in overdue:
                _close(connection)

    def server_close(self) -> None:
        self._closed.set()
        super().server_close()


def _close(connection: socket.socket) -> None:
    """End a connection another thread is blocked on: its read returns at once."""
    with contextlib.suppress(OSError):  # already gone
        connection.shutdown(socket.SHUT_RDWR)


class PortTaken(OSError):
    """A page's HTTP port will not open (another program holds it, or the address is not
    this machine's); ``str`` is the one line an installer needs, the port named."""

    def __init__(self, bind: str, port: int, cause: OSError) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause))
        self.bind, self.port = bind, port

    def __str__(self) -> str:
        return (f"HTTP port {self.port} on {self.bind} cannot be opened ({self.strerror}): "
                "another program holds it or the address is not this machine's; choose "
                "another with --http-port (0 picks a free one) or --bind")


class PageServer:
    """Serves the pages under ``directory`` and ``config`` on ``bind``:``port`` (port 0: a
    free one). ``page`` is the folder ``/`` leads to."""

    def __init__(self, directory: Path, config: dict[str, Any], port: int = 0,
                 page: str = "", bind: str = LOOPBACK,
                 routes: dict[str, Route] | None = None) -> None:
        handler = functools.partial(_PageHandler, config=config, page=page,
                                    routes=dict(routes or {}), directory=str(directory))
        try:
            self.http = _GuardedServer((bind, port), handler)
        except OSError as exc:
            raise PortTaken(bind, port, exc) from None
        self.page = page
        self._thread = threading.Thread(target=self.http.serve_forever, name="room-http",
                                        daemon=True)

    @property
    def url(self) -> str:
        """Where to open the page; a server on every interface is also on loopback."""
        host, port = self.http.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://{name if name != '0.0.0.0' else LOOPBACK}:{port}/{self.page}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.http.shutdown()
        self.http.server_close()
