"""sd_notify over a real AF_UNIX datagram socket, as systemd listens for it."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokertable.controller.app import systemd_notify


@pytest.fixture
def listener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_ready_watchdog_status_and_stopping_arrive_in_order(listener: socket.socket) -> None:
    assert systemd_notify.notify_ready()
    assert systemd_notify.notify_watchdog()
    assert systemd_notify.notify_status("hand 12: flop\nseat 3 to act")
    assert systemd_notify.notify_stopping()
    got = [listener.recv(4096) for _ in range(4)]
    assert got == [b"READY=1", b"WATCHDOG=1", b"STATUS=hand 12: flop seat 3 to act", b"STOPPING=1"]


def test_abstract_socket_name_with_at_sign(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"pokertable-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert systemd_notify.notify_ready()
        assert sock.recv(64) == b"READY=1"


def test_not_under_systemd_every_call_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    assert systemd_notify.notify_ready() is False
    assert systemd_notify.notify_watchdog() is False
    assert systemd_notify.watchdog_interval_s() is None


def test_a_vanished_socket_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone.sock"))
    assert systemd_notify.notify_watchdog() is False
    monkeypatch.setenv("NOTIFY_SOCKET", "relative/path")
    assert systemd_notify.notify_ready() is False


def test_watchdog_interval_is_half_of_watchdog_usec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")  # WatchdogSec=10
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert systemd_notify.watchdog_interval_s() == 5.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert systemd_notify.watchdog_interval_s() == 5.0


@pytest.mark.parametrize("usec", ["0", "", "ten", "-5"])
def test_watchdog_interval_ignores_unusable_values(
    monkeypatch: pytest.MonkeyPatch, usec: str
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", usec)
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert systemd_notify.watchdog_interval_s() is None


def test_watchdog_meant_for_another_process_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert systemd_notify.watchdog_interval_s() is None
