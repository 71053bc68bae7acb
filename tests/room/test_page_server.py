"""The room's page server on a hostile network (issue #27): only the pages' files, loopback
unless told otherwise, and no slow or idle client keeps the others out."""

from __future__ import annotations

import http.client
import socket
from collections.abc import Iterator

import pytest

from pokertable.bench.waiting import wait_for
from pokertable.room import web
from pokertable.room.floor_service import console
from pokertable.room.web import PageServer


@pytest.fixture
def server() -> Iterator[PageServer]:
    pages = console("club", "ws://127.0.0.1:9001")
    pages.start()
    try:
        yield pages
    finally:
        pages.stop()


def _get(server: PageServer, path: str) -> tuple[int, bytes, str | None]:
    """The raw path as sent (http.client does not normalise it), status, body, Location."""
    connection = http.client.HTTPConnection(*server.http.server_address[:2], timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read(), response.getheader("Location")
    finally:
        connection.close()


def test_only_the_pages_files_are_served(server: PageServer) -> None:
    assert _get(server, "/")[::2] == (302, "/floor/")
    status, body, _ = _get(server, "/floor/")
    assert status == 200 and b"<h2>Sign in</h2>" in body
    assert _get(server, "/floor/floor.js")[0] == 200
    assert _get(server, "/overlay/vendor/mqtt-5.16.0.min.js")[0] == 200
    assert _get(server, "/config.json")[0] == 200
    for path in ("/web.py", "/__init__.py", "/floor_service.py", "/overlay/vendor/",
                 "/clock_display/../web.py", "/__pycache__/", "/rulebooks/",
                 "/../../pyproject.toml", "/%2e%2e/%2e%2e/pyproject.toml",
                 "/floor/..%2f..%2fweb.py", "/floor/%2e%2e/web.py", "/etc/passwd",
                 "//etc/passwd"):
        status, body, _ = _get(server, path)
        assert status == 404, path
        assert b"import " not in body and b"<title>Directory listing" not in body, path


def test_the_page_server_listens_on_loopback_unless_told(server: PageServer) -> None:
    assert server.http.server_address[0] == "127.0.0.1"
    fixed = console("club", "ws://127.0.0.1:9001", http_port=0, bind="0.0.0.0")
    try:
        assert fixed.http.server_address[0] == "0.0.0.0"
        assert fixed.url.startswith("http://127.0.0.1:")
    finally:
        fixed.http.server_close()


def _open(server: PageServer, count: int, head: bytes) -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(server.http.server_address[:2], timeout=30)
        if head:
            sock.sendall(head)
        sockets.append(sock)
    return sockets


def test_a_slow_head_is_closed_and_idle_sockets_do_not_keep_a_client_out(
    server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web, "HEAD_TIMEOUT_S", 2.0)
    # A request head that never ends (slowloris) and a silent socket.
    slow, silent = _open(server, 1, b"GET /floor/ HTTP/1.1\r\nHost: x\r\nX-a: "), _open(
        server, 1, b"")
    # Three times the cap of idle sockets, then a real client.
    crowd = _open(server, 3 * web.MAX_CONNECTIONS, b"GET / HTTP/1.1\r\n")
    try:
        status, body, _ = _get(server, "/floor/")
        assert status == 200 and b"Sign in" in body
        # the slow and the silent sockets are closed by the server: EOF (or a reset)
        for sock in (*slow, *silent):
            assert wait_for(lambda s=sock: _closed(s), "the server to close a slow head",
                            timeout=30)
    finally:
        for sock in (*slow, *silent, *crowd):
            sock.close()


def _closed(sock: socket.socket) -> bool:
    try:
        sock.settimeout(5)
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_an_oversized_request_is_refused_and_the_server_goes_on(server: PageServer) -> None:
    for request in (b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n",
                    b"GET / HTTP/1.1\r\nX-Big: " + b"b" * 70_000 + b"\r\n\r\n",
                    b"GET / HTTP/1.1\r\n" + b"X-Many: 1\r\n" * 200 + b"\r\n"):
        with socket.create_connection(server.http.server_address[:2], timeout=30) as sock:
            sock.sendall(request)
            answer = sock.recv(200)
        assert answer.split(b" ", 2)[1] in {b"414", b"431", b"400"}, answer
    assert _get(server, "/floor/")[0] == 200
