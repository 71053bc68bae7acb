"""bench/e2e_trace.py at tiny size: the traced ``pokertable run`` serves the e2e rig, and
each frame's steps are stamped in the order the path takes them. Nothing is timed."""

from __future__ import annotations

import statistics

import pytest

from pokertable.bench import e2e_trace

pytestmark = pytest.mark.needs("mosquitto")

# On the thread that reads the port, one after the other for every frame, and the
# subscriber's copy after the session that made it: so their medians are in this order too.
IN_ORDER = ("reader has the bytes", "frame decoded", "interpreted", "session input",
            "journal line written", "session answered", "subscriber has it")
# Stamped, but by whichever thread writes first: under load paho's own thread may write a
# message before the traced flush, so that step's first stamp can belong to a later one.
ANY_THREAD = ("socket write begins",)


@pytest.mark.slow
def test_a_tiny_trace_stamps_every_step_of_a_chips_path() -> None:
    found = e2e_trace.trace(samples=6, hands=1)
    for where, steps in found.items():
        frames = len(steps["subscriber has it"])
        assert frames == (6 if where == "idle" else 5), where
        assert [s for s in IN_ORDER + ANY_THREAD if s not in steps] == [], where
        medians = [statistics.median(steps[s]) for s in IN_ORDER]
        assert medians == sorted(medians), (where, dict(zip(IN_ORDER, medians, strict=True)))
