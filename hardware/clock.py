"""Millisecond clocks, injected so heartbeat and settle logic run in tests without sleeping.

Only the composition root (the CLI, the simulator) builds a :class:`MonotonicClock`;
everything else takes any object with ``ticks_ms()``::

    clock = FakeClock()
    interpreter = BusInterpreter(registry, clock=clock)
    clock.advance(2_000)          # two seconds pass, instantly
"""

from __future__ import annotations

import heapq
import threading
import time
from collections.abc import Callable
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
        self._timers: list[tuple[int, int, Callable[[], None]]] = []  # (due, order, call)
        self._order = 0

    def call_at(self, due_ms: int, call: Callable[[], None]) -> None:
        """Run ``call`` when an advance reaches ``due_ms``, with the clock reading exactly
        ``due_ms``: how a fake part that acts after time passes (a debounce filter's
        thread) acts at the right moment although a test advances in one step."""
        with self._lock:
            self._order += 1
            heapq.heappush(self._timers, (due_ms, self._order, call))

    def ticks_ms(self) -> int:
        with self._lock:
            return self._now_ms

    def advance(self, ms: int) -> None:
        """Move time forward by ``ms`` (never backward: monotonic clocks do not)."""
        if ms < 0:
            raise ValueError(f"advance: ms must be >= 0, got {ms}")
        with self._lock:
            target = self._now_ms + ms
        while True:
            with self._lock:
                if not self._timers or self._timers[0][0] > target:
                    self._now_ms = target
                    return
                due, _, call = heapq.heappop(self._timers)
                self._now_ms = max(self._now_ms, due)
            call()  # outside the lock: it reads the clock
