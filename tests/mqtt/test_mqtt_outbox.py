"""The SQLite outbox on its own: atomic numbering, order, bounds, durability on reopen."""

from __future__ import annotations

import sqlite3

import pytest

from pokertable.mqtt.errors import PayloadError
from pokertable.mqtt.outbox import Outbox


def _payload(seq: int) -> bytes:
    return b"%d" % seq


def test_numbers_survive_reopen_and_rows_stay_until_removed(tmp_path):
    box = Outbox(tmp_path / "o.sqlite", session="s1")
    assert [box.append("event", "t/e", _payload) for _ in range(3)] == [1, 2, 3]
    first = box.pending("public", after_id=0, now_ms=0, limit=10)[0]
    box.remove(first.id)
    box.close()
    again = Outbox(tmp_path / "o.sqlite", session="s1")
    assert [r.payload for r in again.pending("public", after_id=0, now_ms=0, limit=10)] == [
        b"2", b"3"]
    assert again.append("event", "t/e", _payload) == 4
    assert again.last_seq("state") == 0


def test_new_session_starts_its_own_sequence(tmp_path):
    Outbox(tmp_path / "o.sqlite", session="s1").append("event", "t/e", _payload)
    assert Outbox(tmp_path / "o.sqlite", session="s2").append("event", "t/e", _payload) == 1


def test_failed_build_consumes_no_number():
    box = Outbox(":memory:")

    def broken(seq: int) -> bytes:
        raise PayloadError("bad", "seats")

    with pytest.raises(PayloadError):
        box.append("event", "t/e", broken)
    assert len(box) == 0
    assert box.append("event", "t/e", _payload) == 1


def test_lanes_and_release_times_keep_public_flowing():
    box = Outbox(":memory:")
    box.append("hole_cards", "t/s/1", _payload, lane="secure", release_at_ms=5_000)
    box.append("event", "t/e", _payload)
    assert [r.topic for r in box.pending("public", after_id=0, now_ms=0, limit=10)] == ["t/e"]
    assert box.pending("secure", after_id=0, now_ms=4_999, limit=10) == []
    assert box.next_release_ms("secure", 0) == 5_000
    assert len(box.pending("secure", after_id=0, now_ms=5_000, limit=10)) == 1


def test_bound_drops_oldest_and_reports_once():
    box = Outbox(":memory:", max_messages=3)
    for _ in range(5):
        box.append("event", "t/e", _payload)
    assert len(box) == 3
    rows = box.pending("public", after_id=0, now_ms=0, limit=10)
    assert [r.seq for r in rows] == [3, 4, 5]
    report = box.take_drop_report()
    assert report is not None and report.streams == {"event": (2, 1, 2)} and report.total == 2
    assert box.take_drop_report() is None


def test_restart_skips_every_origin_already_queued_and_queues_the_next(tmp_path):
    """A controller replaying its journal after ``kill -9`` re-offers origins 1..3: the
    outbox must recognise all three, the last one included, and publish each once."""
    box = Outbox(tmp_path / "o.sqlite", session="s1")
    assert [box.append("event", "t/e", _payload, origin=n) for n in (1, 2, 3)] == [1, 2, 3]
    box.close()
    again = Outbox(tmp_path / "o.sqlite", session="s1")
    assert [again.append("event", "t/e", _payload, origin=n) for n in (1, 2, 3)] == [
        None, None, None]
    assert again.append("event", "t/e", _payload, origin=4) == 4
    rows = again.pending("public", after_id=0, now_ms=0, limit=10)
    assert [r.seq for r in rows] == [1, 2, 3, 4]  # nothing queued twice


def test_the_same_origin_twice_in_one_run_is_queued_once():
    box = Outbox(":memory:", session="s1")
    assert box.append("event", "t/e", _payload, origin=7) == 1
    assert box.append("event", "t/e", _payload, origin=7) is None
    assert box.append("event", "t/e", _payload, origin=6) is None
    assert len(box) == 1


def test_origins_belong_to_their_session(tmp_path):
    Outbox(tmp_path / "o.sqlite", session="s1").append("event", "t/e", _payload, origin=5)
    other = Outbox(tmp_path / "o.sqlite", session="s2")
    assert other.append("event", "t/e", _payload, origin=1) == 1  # a new session starts over


def test_marks_outlive_the_rows_that_carried_them(tmp_path):
    """One INSERT per message: the counter, the origin and the latest state live in the
    rows until they are acknowledged; deleting the rows keeps them for the next start."""
    box = Outbox(tmp_path / "o.sqlite", session="s1")
    box.append("state", "t/s", _payload, latest_key="s1:state", origin=1)
    box.append("event", "t/e", _payload, origin=2)
    box.append("state", "t/s", _payload, latest_key="s1:state", origin=3)
    rows = box.pending("public", after_id=0, now_ms=0, limit=10)
    box.remove_many(row.id for row in rows)
    assert len(box) == 0 and box.payload_bytes == 0
    box.close()
    again = Outbox(tmp_path / "o.sqlite", session="s1")
    assert again.last_seq("state") == 2 and again.last_seq("event") == 1
    assert again.get_latest("s1:state") == b"2"
    assert again.append("event", "t/e", _payload, origin=3) is None  # queued before
    assert again.append("state", "t/s", _payload, origin=4) == 3


def test_marks_of_rows_still_waiting_are_recovered_from_the_rows(tmp_path):
    box = Outbox(tmp_path / "o.sqlite", session="s1")
    for origin in (1, 2):
        box.append("state", "t/s", _payload, latest_key="k", origin=origin)
    box.close()  # nothing acknowledged: only the rows know seq 2, origin 2, latest "2"
    again = Outbox(tmp_path / "o.sqlite", session="s1")
    assert again.last_seq("state") == 2 and again.get_latest("k") == b"2"
    assert again.append("state", "t/s", _payload, origin=2) is None


def test_an_outbox_written_by_the_older_layout_is_carried_on(tmp_path):
    """Before one INSERT per message, counters and origins were written with every row."""
    import sqlite3

    path = tmp_path / "o.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, lane TEXT NOT NULL,
            stream TEXT NOT NULL, seq INTEGER NOT NULL, topic TEXT NOT NULL,
            payload BLOB NOT NULL, retain INTEGER NOT NULL, release_at_ms INTEGER NOT NULL);
        CREATE TABLE counters (session TEXT NOT NULL, stream TEXT NOT NULL,
            value INTEGER NOT NULL, PRIMARY KEY (session, stream));
        CREATE TABLE latest (key TEXT PRIMARY KEY, value BLOB NOT NULL);
        CREATE TABLE origins (session TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT INTO outbox (lane, stream, seq, topic, payload, retain, release_at_ms)
            VALUES ('public', 'event', 7, 't/e', X'37', 0, 0);
        INSERT INTO counters VALUES ('s1', 'event', 7);
        INSERT INTO origins VALUES ('s1', 40);
        INSERT INTO latest VALUES ('s1:state', X'7B7D');
        """
    )
    db.commit()
    db.close()
    box = Outbox(path, session="s1")
    assert [r.seq for r in box.pending("public", after_id=0, now_ms=0, limit=10)] == [7]
    assert box.get_latest("s1:state") == b"{}"
    assert box.append("event", "t/e", _payload, origin=40) is None
    assert box.append("event", "t/e", _payload, origin=41) == 8
    box.remove_many(r.id for r in box.pending("public", after_id=0, now_ms=0, limit=10))
    box.close()
    assert Outbox(path, session="s1").append("event", "t/e", _payload) == 9


def test_rows_handed_from_memory_match_the_table_after_drops():
    """``pending`` serves this process's rows without a SELECT; dropped rows never come out."""
    box = Outbox(":memory:", max_messages=4)
    cursor = 0
    seen = []
    for n in range(12):
        box.append("event", "t/e", _payload)
        if n % 5 == 4:  # a slow consumer: some rows are dropped before it looks
            rows = box.pending("public", after_id=cursor, now_ms=0, limit=100)
            seen += [r.seq for r in rows]
            cursor = rows[-1].id
    rows = box.pending("public", after_id=cursor, now_ms=0, limit=100)
    seen += [r.seq for r in rows]
    assert seen == [2, 3, 4, 5, 7, 8, 9, 10, 11, 12]
    assert [r.seq for r in box.pending("public", after_id=0, now_ms=0, limit=100)] == [
        9, 10, 11, 12]


@pytest.mark.parametrize("reopened", [False, True], ids=["in-memory rows", "from the file"])
def test_a_delayed_lane_is_released_in_order_when_the_clock_stepped_back(tmp_path, reopened):
    """Release times come from the wall clock; when it steps back under a broadcast delay a
    later row can come due first. It waits for the earlier one instead of being handed out
    past it (which moved the bridge's cursor beyond the earlier row, never to be sent)."""
    box = Outbox(tmp_path / "o.sqlite")
    box.append("hole_cards", "t/s/1", _payload, lane="secure", release_at_ms=10_000)
    box.append("hole_cards", "t/s/2", _payload, lane="secure", release_at_ms=8_000)
    if reopened:
        box.close()
        box = Outbox(tmp_path / "o.sqlite")
    assert box.pending("secure", after_id=0, now_ms=9_000, limit=10) == []
    assert box.next_release_ms("secure", 0) == 10_000  # not 8,000: nothing would be due then
    rows = box.pending("secure", after_id=0, now_ms=10_000, limit=10)
    assert [r.topic for r in rows] == ["t/s/1", "t/s/2"]
    assert [r.topic for r in box.pending("secure", after_id=0, now_ms=10_000, limit=1)] == [
        "t/s/1"
    ]


def test_a_checkpoint_empties_the_log_into_the_file_and_loses_nothing(tmp_path):
    """The bridge's worker checkpoints after its deletes, so SQLite's own checkpoint (two
    fsyncs) never falls inside an append; what is stored stays stored, in order."""
    path = tmp_path / "box.sqlite"
    box = Outbox(path, session="s")
    for n in range(40):
        box.append("event", "t/events", lambda seq: b'{"seq":%d}' % seq, origin=n)
    box.remove_many(range(1, 21))
    assert box.checkpoint() is None  # too few rows yet to be worth two fsyncs
    for n in range(40, 240):  # enough rows: a checkpoint
        box.append("event", "t/events", lambda seq: b'{"seq":%d}' % seq, origin=n)
    box.remove_many(range(21, 221))
    assert box.checkpoint() > 0
    box.append("event", "t/events", lambda seq: b'{"seq":%d}' % seq, origin=240)
    look = sqlite3.connect(path)
    _, frames, _ = look.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    look.close()
    assert frames <= 4  # the log started again from its beginning: only the last append
    box.close()
    again = Outbox(path, session="s")
    rows = again.pending("public", after_id=0, now_ms=0, limit=100)
    assert [r.seq for r in rows] == list(range(221, 242))
    assert again.next_seq("event") == 242
    Outbox(":memory:").checkpoint(force=True)  # nothing to copy: a no-op
