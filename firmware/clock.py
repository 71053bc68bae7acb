"""Clock injected into every timed part of the firmware (milliseconds and microseconds).

Everything that waits (BUSY deadline, reset pulse, RF guard time, debounce, settle window,
heartbeat) reads time from an object with `ticks_ms()` / `ticks_us()` and waits through
`sleep_us()`, so host tests pass a fake clock and never sleep. `ticks_diff` / `ticks_add`
use MicroPython's wrapping arithmetic when available.
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
    """The real clock (time.ticks_* on MicroPython, monotonic on CPython)."""

    def ticks_ms(self) -> int:
        if _HAS_TICKS:
            return int(_time.ticks_ms())
        return int(_time.monotonic() * 1000)

    def ticks_us(self) -> int:
        if _HAS_TICKS:
            return int(_time.ticks_us())
        return int(_time.monotonic_ns() // 1000)

    def sleep_us(self, us: int) -> None:
        if us <= 0:
            return
        if hasattr(time, "sleep_us"):
            _time.sleep_us(us)
        else:
            _time.sleep(us / 1e6)


class FakeClock:
    """A clock that only moves when told to (tests, the simulated node).

    Time is kept in microseconds; `now_ms` reads and sets it in milliseconds.
    `sleep_us` advances it, so a driver's reset pulse or guard time costs simulated time.
    """

    def __init__(self, start_ms: int = 0) -> None:
        self.now_us = start_ms * 1000

    @property
    def now_ms(self) -> int:
        return self.now_us // 1000

    @now_ms.setter
    def now_ms(self, value: int) -> None:
        self.now_us = value * 1000

    def ticks_ms(self) -> int:
        return self.now_us // 1000

    def ticks_us(self) -> int:
        return self.now_us

    def advance(self, ms: int) -> None:
        self.now_us += ms * 1000

    def advance_us(self, us: int) -> None:
        self.now_us += us

    def sleep_us(self, us: int) -> None:
        if us > 0:
            self.now_us += us


class SteppingClock(FakeClock):
    """A fake clock that advances `step_ms` on every read, so a busy-wait loop ends."""

    def __init__(self, step_ms: int = 1, start_ms: int = 0) -> None:
        super().__init__(start_ms)
        self.step_ms = step_ms

    def ticks_ms(self) -> int:
        self.now_us += self.step_ms * 1000
        return self.now_us // 1000

    def ticks_us(self) -> int:
        self.now_us += self.step_ms * 1000
        return self.now_us
