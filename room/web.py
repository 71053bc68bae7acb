"""The room's web pages: static files plus a ``config.json`` built from the command line.

The pages (overlay, floor console) talk to the broker themselves over MQTT-over-WebSockets,
so the server only hands out files and where the broker is; it holds no state.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

LOG = logging.getLogger(__name__)
ROOM_DIR = Path(__file__).resolve().parent


class _PageHandler(SimpleHTTPRequestHandler):
    """Static files, plus ``/config.json`` from the process's options."""

    def __init__(self, *args: Any, config: dict[str, Any], **kwargs: Any) -> None:
        self.config = config
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/config.json":
            body = json.dumps(self.config).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        LOG.debug("room http: " + format, *args)


class PageServer:
    """Serves ``directory`` and ``config`` on ``port`` (0: a free port, loopback only)."""

    def __init__(self, directory: Path, config: dict[str, Any], port: int = 0,
                 page: str = "") -> None:
        handler = functools.partial(_PageHandler, config=config, directory=str(directory))
        self.http = ThreadingHTTPServer(("127.0.0.1" if port == 0 else "0.0.0.0", port),
                                        handler)
        self.page = page
        self._thread = threading.Thread(target=self.http.serve_forever, name="room-http",
                                        daemon=True)

    @property
    def url(self) -> str:
        host, port = self.http.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://{name if name != '0.0.0.0' else '127.0.0.1'}:{port}/{self.page}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.http.shutdown()
        self.http.server_close()
