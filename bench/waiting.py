"""Waiting on a condition, the one way the suite waits for another process or thread, and
the stages a bench group announces so a deadline can say what it was waiting for."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

_stage_sink: Callable[[str], None] | None = None


def report_stages_to(sink: Callable[[str], None] | None) -> None:
    """Where :func:`stage` goes (bench/runner.py's group child sends it to the runner)."""
    global _stage_sink
    _stage_sink = sink


def stage(what: str) -> None:
    """Announce what the group waits for next, e.g. "the controller's first state"."""
    sink = _stage_sink
    if sink is not None:
        sink(what)


def wait_for(condition: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    """Poll ``condition`` until it is truthy and return its value; the limit is a last
    resort for a busy machine, and its failure names what never happened."""
    stage(what)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")
