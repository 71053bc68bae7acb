"""The table's locks are taken in the documented order (issue #26).

Inputs are applied on whichever thread submits them (a reader, ``mqtt-commands``) or on
the engine thread; ``table_app.LOCK_ORDER`` is the order that keeps that deadlock-free.
A real runtime, bridge and mosquitto run with their locks wrapped by a recorder, and
inputs are applied on all three kinds of thread: every blocking acquire made while
holding another lock must go down the documented order.
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.waiting import wait_for
from pokertable.controller.app.runtime import TableRuntime
from pokertable.controller.app.table_app import LOCK_ORDER, TableApp
from pokertable.controller.table.session import Output, TableSession
from pokertable.hardware.clock import MonotonicClock
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.transport import BusSession
from pokertable.mqtt.mosquitto import MosquittoProcess
from tests.app.test_retained_commands import Director, _runtime

pytestmark = pytest.mark.needs("mosquitto")


class LockLog:
    """Which named locks each thread holds, and every (held, taken) pair seen."""

    def __init__(self) -> None:
        self.pairs: set[tuple[str, str, bool]] = set()  # (held, taken, blocking)
        self._held = threading.local()

    def stack(self) -> list[str]:
        if not hasattr(self._held, "names"):
            self._held.names = []
        names: list[str] = self._held.names
        return names


class RecordedLock:
    """A lock that tells ``LockLog`` when it is taken, and under which others."""

    def __init__(self, name: str, log: LockLog) -> None:
        self.name = name
        self.log = log
        self._inner = threading.Lock()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        held = self.log.stack()
        got = self._inner.acquire(blocking, timeout)
        if got:
            self.log.pairs.update((outer, self.name, blocking) for outer in held)
            held.append(self.name)
        return got

    def release(self) -> None:
        self.log.stack().remove(self.name)
        self._inner.release()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def test_locks_are_taken_in_the_documented_order(tmp_path: Path) -> None:
    log = LockLog()
    broker = MosquittoProcess.from_shipped(tmp_path)
    broker.start()
    director = Director(broker.port)
    runtime = _runtime(tmp_path, broker.port)
    appliers: list[str] = []

    def record_applier(session: TableSession, outputs: tuple[Output, ...]) -> None:
        appliers.append(threading.current_thread().name)

    def wrapped_bridge(session_id: str) -> Any:
        # Called by ``start`` after the app exists and before any thread runs.
        bridge = runtime._bridge_factory(session_id)
        bridge._pump_lock = RecordedLock("TableBridge._pump_lock", log)
        bridge._outbox._lock = RecordedLock("Outbox._lock", log)
        app = runtime.app
        assert app is not None
        app._engine = RecordedLock("TableApp._engine", log)  # type: ignore[assignment]
        app._pending_lock = RecordedLock("TableApp._pending_lock", log)  # type: ignore[assignment]
        app._lock = RecordedLock("TableApp._lock", log)  # type: ignore[assignment]
        app.journal._lock = RecordedLock("Journal._lock", log)  # type: ignore[assignment]
        app.on_output = record_applier
        return bridge

    runtime._publisher_factory = wrapped_bridge
    registry = TagRegistry(tmp_path / "registry.sqlite3")
    try:
        app: TableApp = director.start_table(runtime)
        # A reader's side of the table: the bus session submits under its own lock.
        bus = BusSession(BusInterpreter(registry), MonotonicClock(), lambda event: None)
        bus._lock = RecordedLock("BusSession._lock", log)  # type: ignore[assignment]
        bus.sink = functools.partial(TableRuntime._submit_hardware, app)
        reader = threading.Thread(
            target=bus.alert, args=("port_missing", "reader port gone"), name="port /dev/x"
        )
        reader.start()
        reader.join()
        director.send("c1", "pause")  # applied inline on mqtt-commands
        wait_for(lambda: director.reply_to("c1"), "the pause's reply")
        with app._engine:  # the engine is busy: the next input queues for the engine thread
            queued = threading.Thread(
                target=bus.alert, args=("port_missing", "again"), name="port /dev/y"
            )
            queued.start()
            queued.join()
        wait_for(lambda: len(appliers) == 3, "the three inputs applied")
    finally:
        runtime.stop()
        director.stop()
        broker.stop()
        registry.close()

    assert appliers == ["port /dev/x", "mqtt-commands", "engine"]
    rank = {name: i for i, name in enumerate(LOCK_ORDER)}
    inverted = sorted(
        (held, taken) for held, taken, blocking in log.pairs
        if blocking and rank[held] >= rank[taken]
    )
    assert inverted == [], f"locks taken against LOCK_ORDER {LOCK_ORDER}: {inverted}"
    seen = {(held, taken) for held, taken, _ in log.pairs}
    # The run went through the nestings the order is about, so the check was not vacuous.
    assert ("BusSession._lock", "TableApp._engine") in seen  # a reader applies inline
    assert ("TableApp._engine", "Outbox._lock") in seen  # applying publishes
    assert ("TableApp._engine", "TableApp._lock") in seen
    assert ("TableApp._engine", "Journal._lock") in seen  # applying journals the input
    assert ("TableBridge._pump_lock", "Outbox._lock") in seen
