"""Millisecond clock injected into every timed part of the firmware.

Everything that waits (BUSY deadline, debounce, settle window, heartbeat) reads time
from an object with `ticks_ms()`, so host tests pass a fake clock and never sleep.
`ticks_diff` / `ticks_add` use MicroPython's wrapping arithmetic when available.
"""

import time

try:
    from typing import Any
except ImportError:
    pass

# The two interpreters' `time` modules differ (ticks_* vs monotonic): go through Any.
_time: Any = time
_HAS_TICKS = hasattr(time, "ticks_diff")


def ticks_diff(a: int, b: int) -> int:
    """a - b, correct across the MicroPython ticks wrap-around."""
    if _HAS_TICKS:
        return int(_time.ticks_diff(a, b))
    return a - b


def ticks_add(a: int, delta: int) -> int:
    """a + delta in the ticks domain."""
    if _HAS_TICKS:
        return int(_time.ticks_add(a, delta))
    return a + delta


class SystemClock:
    """The real clock (time.ticks_ms on MicroPython, monotonic ms on CPython)."""

    def ticks_ms(self) -> int:
        if _HAS_TICKS:
            return int(_time.ticks_ms())
        return int(_time.monotonic() * 1000)


class FakeClock:
    """A clock that only moves when told to (tests, the simulated node)."""

    def __init__(self, start_ms: int = 0) -> None:
        self.now_ms = start_ms

    def ticks_ms(self) -> int:
        return self.now_ms

    def advance(self, ms: int) -> None:
        self.now_ms += ms


class SteppingClock(FakeClock):
    """A fake clock that advances `step_ms` on every read, so a busy-wait loop ends."""

    def __init__(self, step_ms: int = 1, start_ms: int = 0) -> None:
        super().__init__(start_ms)
        self.step_ms = step_ms

    def ticks_ms(self) -> int:
        self.now_ms += self.step_ms
        return self.now_ms
