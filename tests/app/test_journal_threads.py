"""The journal between two threads (issue #26): the engine thread commits a group (``sync``)
while a reader thread appends the next chip inline. The appends never wait for the group's
fsync, and a ``close`` while it runs does not pull the file from under it.

The fsync is held open by the test (an event), so every overlap below is one the threads
really had, waited for on conditions, not on the clock.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from pokertable.controller.app import journal as journal_module
from pokertable.controller.app.journal import Journal

LONG = 60.0  # a safety net against a hang, never a timing assertion


def test_appends_go_on_while_a_group_is_fsynced_and_close_waits_for_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_fsync = os.fsync
    in_fsync, release = threading.Event(), threading.Event()
    engine = threading.current_thread()  # replaced by the committing thread below

    def slow_fsync(fd: int) -> None:
        if threading.current_thread() is engine:
            in_fsync.set()
            assert release.wait(LONG)
        real_fsync(fd)

    monkeypatch.setattr(journal_module.os, "fsync", slow_fsync)
    journal = Journal(tmp_path / "journal.jsonl")
    for n in range(2):
        journal.append({"kind": "chips", "n": n}, sync=False)

    failures: list[BaseException] = []

    def commit() -> None:
        try:
            journal.sync()
        except BaseException as exc:  # reported by the assertion below
            failures.append(exc)

    committer = threading.Thread(target=commit, name="engine")
    engine = committer
    committer.start()
    assert in_fsync.wait(LONG)  # the group's fsync is under way, and stays so

    appended = threading.Event()

    def reader() -> None:
        for n in range(2, 5):
            journal.append({"kind": "chips", "n": n}, sync=False)
        appended.set()

    threading.Thread(target=reader, name="port /dev/x").start()
    assert appended.wait(LONG)  # three chips journaled while the fsync had not returned
    assert not release.is_set() and committer.is_alive()
    journal.close()  # shutting down meanwhile: the group's fsync still finishes cleanly
    release.set()
    committer.join(LONG)
    assert not committer.is_alive() and failures == []
    records = list(Journal(tmp_path / "journal.jsonl").records())
    assert [r["n"] for r in records] == [0, 1, 2, 3, 4]
