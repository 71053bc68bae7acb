"""Millisecond clocks, injected so heartbeat and settle logic run in tests without sleeping.

Only the composition root (the CLI, the simulator) builds a :class:`MonotonicClock`;
everything else takes any object with ``ticks_ms()``::

    clock = FakeClock()
    interpreter = BusInterpreter(registry, clock=clock)
    clock.advance(2_000)          # two seconds pass, instantly
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """Anything that tells the time in whole milliseconds from an arbitrary origin."""

    def ticks_ms(self) -> int: ...


class MonotonicClock:
    """The real clock: ``time.monotonic`` in milliseconds (never jumps with NTP)."""

    def ticks_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000


class FakeClock:
    """A clock that moves only when told to; thread-safe because readers run on threads."""

    def __init__(self, start_ms: int = 0) -> None:
        self._now_ms = start_ms
        self._lock = threading.Lock()

    def ticks_ms(self) -> int:
        with self._lock:
            return self._now_ms

    def advance(self, ms: int) -> None:
        """Move time forward by ``ms`` (never backward: monotonic clocks do not)."""
        if ms < 0:
            raise ValueError(f"advance: ms must be >= 0, got {ms}")
        with self._lock:
            self._now_ms += ms
