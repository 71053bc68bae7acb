"""One clock stamps the table's inputs (issue #26): the runtime's.

Reader events come with the readers' own monotonic ``at_ms`` and commands with none; the
runtime stamps every input with the one clock the application also publishes with, so
the journal, the read windows (R35-A2, R38), the player clock (R29) and ``ts_ms`` agree.
Driven through the real runtime, bridge and mosquitto, with a table clock far from the
wall clock so that a second clock would show.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from pokertable.bench.waiting import wait_for
from pokertable.controller.app.runtime import TableRuntime
from pokertable.controller.table.inputs import from_record
from pokertable.hardware.events import NodeRebooted
from pokertable.mqtt.mosquitto import MosquittoProcess
from tests.app.test_retained_commands import Director, _runtime

pytestmark = pytest.mark.needs("mosquitto")
TABLE_TIME = 4_102_444_800_000  # 2100-01-01 UTC


def test_every_input_is_stamped_by_the_runtimes_one_clock(tmp_path: Path) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path)
    broker.start()
    director = Director(broker.port)
    ticks = itertools.count(TABLE_TIME, 10)
    runtime = _runtime(tmp_path, broker.port, clock_ms=lambda: next(ticks))
    try:
        app = director.start_table(runtime)
        director.send("c1", "pause")  # a room command: no time of its own
        reply = wait_for(lambda: director.reply_to("c1"), "the pause's reply")
        # A reader event, stamped by the readers' monotonic clock (a few ms after boot).
        TableRuntime._submit_hardware(app, NodeRebooted(node=1, at_ms=5, last_seq=7, new_seq=0))
        wait_for(lambda: len(list(app.journal.records())) == 2, "both inputs journaled")
        stamps = [from_record(record).at_ms for record in app.journal.records()]
        assert all(TABLE_TIME <= at_ms < TABLE_TIME + 100_000 for at_ms in stamps), stamps
        assert TABLE_TIME <= reply["ts_ms"] < TABLE_TIME + 100_000
    finally:
        runtime.stop()
        director.stop()
        broker.stop()
