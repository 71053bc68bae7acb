"""A page port another program holds: the room service says which port in one line and
exits 69 (EX_UNAVAILABLE), never "a bug" with exit 70."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

STRUCTURE = "[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = 20\n"


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A loopback port held by a listening socket, as another program would hold it."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    try:
        yield holder.getsockname()[1]
    finally:
        holder.close()


def _pokertable(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pokertable.controller.cli", *argv],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )


@pytest.mark.parametrize("service", ["overlay", "floor", "clock"])
def test_a_busy_page_port_is_named_in_one_line_with_exit_69(
    service: str, taken_port: int, tmp_path: Path
) -> None:
    structure = tmp_path / "structure.toml"
    structure.write_text(STRUCTURE)
    extra = {
        "overlay": ["--table", "t1", "--broker", "127.0.0.1:9"],
        "floor": [],
        "clock": ["--structure", str(structure), "--broker", "127.0.0.1:9",
                  "--state-file", str(tmp_path / "clock.json")],
    }[service]
    done = _pokertable(service, "--venue", "club", "--http-port", str(taken_port), *extra)
    assert done.returncode == 69, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"pokertable {service}: HTTP port {taken_port} on 127.0.0.1 "
                               "cannot be opened (Address already in use)"), lines[0]
    assert "a bug" not in done.stderr
