"""Ctrl-C while the caller's thread applies an input inline (``TableApp.submit``).

The demo's main thread submits the dealer's presses, and ``submit`` applies one on the
caller's thread when nothing is queued. A Ctrl-C landing there is the caller's, so it
stops the caller; handed to the engine thread it killed that thread and left the demo
waiting on a table that no longer moved (seen once in CI: the demo did not stop).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pokertable.bench.waiting import wait_for
from pokertable.controller.app.table_app import TableApp
from pokertable.controller.table.inputs import ConsolePress, RoomCommand
from tests.app.test_mutants_request_ids import Replies, _config


def test_ctrl_c_during_an_inline_input_stops_the_caller_not_the_engine(tmp_path: Path) -> None:
    app = TableApp(_config(tmp_path))
    publisher = Replies()
    app.publisher = publisher
    app.recover()
    engine = threading.Thread(target=app.run, kwargs={"tick_s": 0.05}, daemon=True)
    engine.start()
    wait_for(lambda: app._inline, "the engine loop to take inline inputs")
    real_process = app.process

    def interrupted(item: object) -> object:
        if isinstance(item, ConsolePress):
            raise KeyboardInterrupt  # the signal lands while the press is applied
        return real_process(item)  # type: ignore[arg-type]

    app.process = interrupted  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        app.submit(ConsolePress("hand_start", 1_000))
    app.process = real_process  # type: ignore[method-assign]
    # The engine thread lives on and still applies what is submitted.
    app.submit(RoomCommand("pause", "p1", {"command": "pause", "request_id": "p1"}, 2_000))
    wait_for(lambda: any(r["request_id"] == "p1" for r in publisher.replies), "the pause's reply")
    assert engine.is_alive()
    app.stop()
    engine.join(5)
    assert not engine.is_alive()
    app.close()
