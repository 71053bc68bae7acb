"""A message due now, with nothing of its lane ahead of it, leaves before its outbox row is
written (issue #26, goal 5): the row's INSERT no longer sits between a chip and the room.
What the row promises stays: it is written before ``append_row`` returns, it is deleted
only on PUBACK, a message that left is never numbered again, and one that cannot leave
yet (a backlog, a full outbox, a broadcast delay) waits in the outbox as before."""

from __future__ import annotations

import itertools
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from mqtt_samples import sample_event, sample_hole_cards

from pokertable.mqtt.bridge import TableBridge
from pokertable.mqtt.outbox import Outbox, OutboxError
from pokertable.mqtt.topics import TableTopics

T = TableTopics("casino", "t07")


def _payload(seq: int) -> bytes:
    return b"%d" % seq


def _rows(box: Outbox) -> int:
    return int(box._db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])


def test_the_message_is_handed_over_before_its_row_is_written(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite", session="s1")
    seen: list[tuple[bytes, int]] = []

    def hand(payload: bytes) -> int:
        seen.append((payload, _rows(box)))
        return 77

    row = box.append_row("event", "t/e", _payload, hand=hand, handed_up_to=0, origin=5)
    assert row is not None and (row.seq, row.handed) == (1, 77)
    assert seen == [(b"1", 0)]  # on its way while the table had no row for it yet
    assert _rows(box) == 1 and len(box) == 1  # ...and stored before append_row returned
    # Stored as any row: a restart re-sends it until PUBACK, and its origin is known.
    box.close()
    again = Outbox(tmp_path / "o.sqlite", session="s1")
    assert [r.seq for r in again.pending("public", after_id=0, now_ms=0, limit=9)] == [1]
    assert again.append("event", "t/e", _payload, origin=5) is None


def test_a_message_with_rows_of_its_lane_ahead_waits_its_turn(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite", session="s1")
    handed: list[bytes] = []

    def hand(payload: bytes) -> int:
        handed.append(payload)
        return len(handed)

    first = box.append("event", "t/e", _payload)  # stored, not handed over (cursor 0)
    assert first == 1
    waiting = box.append_row("event", "t/e", _payload, hand=hand, handed_up_to=0)
    assert waiting is not None and waiting.handed is None and handed == []
    # Once the cursor is past every stored row of the lane, the next one goes first.
    rows = box.pending("public", after_id=0, now_ms=0, limit=9)
    direct = box.append_row("event", "t/e", _payload, hand=hand, handed_up_to=rows[-1].id)
    assert direct is not None and direct.handed == 1 and handed == [b"3"]
    # Another lane's backlog is not this lane's: the secure lane is empty.
    other = box.append_row("hole_cards", "t/h", _payload, lane="secure", hand=hand,
                           handed_up_to=direct.row_id)
    assert other is not None and other.handed == 2


def test_a_full_outbox_stores_first_and_drops_the_oldest(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite", session="s1", max_messages=1)
    row = box.append_row("event", "t/e", _payload, hand=lambda p: 1, handed_up_to=0)
    assert row is not None and row.handed == 1
    full = box.append_row("event", "t/e", _payload, hand=lambda p: 2, handed_up_to=row.row_id)
    assert full is not None and full.handed is None  # the bound is the old path's business
    assert len(box) == 1 and box.take_drop_report() is not None


def test_a_message_that_left_is_never_numbered_again(tmp_path: Path, monkeypatch: Any) -> None:
    """The row could not be written (a full disk) after the message left: the error is
    raised as before, but the next message does not reuse the number consumers have."""
    box = Outbox(tmp_path / "o.sqlite", session="s1")

    def disk_full(values: tuple[object, ...]) -> int:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(box, "_insert", disk_full)
    with pytest.raises(OutboxError, match="disk is full"):
        box.append_row("event", "t/e", _payload, hand=lambda p: 1, handed_up_to=0, origin=3)
    monkeypatch.undo()
    assert box.append("event", "t/e", _payload, origin=3) is None  # it left: not again
    assert box.append("event", "t/e", _payload, origin=4) == 2
    # Without a hand-over nothing left: the number is free for the next message.
    monkeypatch.setattr(box, "_insert", disk_full)
    with pytest.raises(OutboxError):
        box.append("event", "t/e", _payload, origin=5)
    monkeypatch.undo()
    assert box.append("event", "t/e", _payload, origin=5) == 3

    def broken_hand(payload: bytes) -> int:  # a paho failure after it may have queued it
        raise ValueError("socket gone")

    with pytest.raises(ValueError, match="socket gone"):
        box.append_row("event", "t/e", _payload, hand=broken_hand, handed_up_to=99, origin=6)
    assert box.append("event", "t/e", _payload, origin=7) == 5  # 4 may be out: a gap


def test_the_bridge_publishes_before_it_stores_and_deletes_on_puback(
    broker: Any, subscribers: Any, tmp_path: Path
) -> None:
    """On the publishing thread the message goes to paho, then its row is written. (When
    the bridge's worker happens to hold the hand-over, the row is stored and the worker
    hands it over, and the next message waits behind it if the worker has not yet: the
    path every message took before.)"""
    bridge = TableBridge(venue="casino", table="t07", session="s1", port=broker.port,
                         outbox_path=tmp_path / "outbox.sqlite", validate_outbound=True)
    order: list[tuple[str, int, bool]] = []  # (step, seq, on the publishing thread)
    me = threading.get_ident()
    publish_quiet, insert = bridge._client.publish_quiet, bridge._outbox._insert

    def published(topic: str, payload: bytes, qos: int, retain: bool) -> Any:
        order.append(("publish", json.loads(payload)["seq"], threading.get_ident() == me))
        return publish_quiet(topic, payload, qos, retain)

    def stored(values: tuple[object, ...]) -> int:
        order.append(("row", int(values[2]), threading.get_ident() == me))  # type: ignore[call-overload]
        return insert(values)

    def sent_first() -> list[int]:
        return [n for (step, n, mine), after in itertools.pairwise(order)
                if step == "publish" and mine and after[:2] == ("row", n)]

    bridge._client.publish_quiet = published  # type: ignore[method-assign]
    bridge._outbox._insert = stored  # type: ignore[method-assign]
    watcher = subscribers(broker.port, [T.events]).start()
    try:
        bridge.start()
        assert bridge.wait_connected(5)
        seqs: list[int | None] = []
        while len(seqs) < 50 and len(sent_first()) < 3:  # one at a time, as inputs come
            seqs.append(bridge.publish_event(sample_event(), origin=len(seqs)))
            assert watcher.wait_for(lambda s: len(s.on("/events")) == len(seqs))
        assert seqs == list(range(1, len(seqs) + 1))
        assert watcher.wait_for(lambda s: len(s.on("/events")) == len(seqs))
        assert [m.json()["seq"] for m in watcher.on("/events")] == seqs
        for seq in seqs:
            steps = [(step, mine) for step, n, mine in order if n == seq]
            assert steps in ([("publish", True), ("row", True)],  # sent first
                             [("row", True), ("publish", False)],  # the worker's turn
                             [("row", True), ("publish", True)]), steps  # behind a row
        assert len(sent_first()) >= 3, order
        assert bridge.wait_delivered(5) and bridge.pending() == 0  # rows go on PUBACK
    finally:
        bridge.stop(drain_timeout=0.5)


def test_held_hole_cards_are_stored_and_wait_for_their_release(
    broker: Any, tmp_path: Path
) -> None:
    bridge = TableBridge(venue="casino", table="t07", session="s1", port=broker.port,
                         outbox_path=tmp_path / "outbox.sqlite", secure_delay_s=60.0)
    try:
        bridge.start()
        assert bridge.wait_connected(5)
        assert bridge.publish_hole_cards(sample_hole_cards(), origin=0) == 1
        assert bridge.pending() == 1 and bridge._cursors["secure"] == 0  # not handed over
    finally:
        bridge.stop(drain_timeout=0.1)
