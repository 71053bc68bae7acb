"""The SQLite outbox: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to mqtt/outbox.py got past the outbox tests:
the status sequence, the exact bounds, every field of a stored row, the rebirth state, the
drop report's ranges and the file given back after an outage (docs/testing.md).
"""

from __future__ import annotations

import sqlite3
import threading

import pytest

from pokertable.mqtt.outbox import Outbox, OutboxError, OutboxRow


def _payload(seq: int) -> bytes:
    return b"%d" % seq


def _rows(box: Outbox, lane: str = "public") -> list[OutboxRow]:
    return box.pending(lane, after_id=0, now_ms=10**12, limit=1000)


def test_status_numbers_count_up_per_stream_and_survive_a_restart(tmp_path):
    box = Outbox(tmp_path / "o.sqlite", session="s1")
    assert [box.next_seq("status") for _ in range(3)] == [1, 2, 3]
    assert box.last_seq("status") == 3
    assert box.next_seq("other") == 1  # streams count on their own
    assert box.append("status", "t/status", _payload) == 4  # queued and direct share numbers
    box.close()
    again = Outbox(tmp_path / "o.sqlite", session="s1")
    assert again.last_seq("status") == 4
    assert again.next_seq("status") == 5
    assert len(again) == 1  # next_seq queues nothing


def test_a_stored_row_keeps_every_field(tmp_path):
    box = Outbox(tmp_path / "o.sqlite")
    box.append("hole_cards", "t/secure/3", _payload, lane="secure", retain=True, release_at_ms=1234)
    box.append("event", "t/events", _payload)
    box.close()
    again = Outbox(tmp_path / "o.sqlite")
    (secure,) = again.pending("secure", after_id=0, now_ms=1234, limit=10)
    assert (
        secure.lane,
        secure.stream,
        secure.seq,
        secure.topic,
        secure.payload,
        secure.retain,
        secure.release_at_ms,
    ) == ("secure", "hole_cards", 1, "t/secure/3", b"1", True, 1234)
    (public,) = again.pending("public", after_id=0, now_ms=0, limit=10)
    assert (public.lane, public.stream, public.seq, public.retain, public.release_at_ms) == (
        "public",
        "event",
        1,
        False,
        0,
    )
    assert public.id > secure.id
    assert again.pending("public", after_id=public.id, now_ms=0, limit=10) == []


def test_a_retained_state_is_still_retained_when_read_back_after_a_restart(tmp_path):
    # Released at once (0) yet retained, and delayed (1234) yet not: the flag is its own
    # column, not the release time's truth value (mqtt/outbox.py's SELECT path).
    box = Outbox(tmp_path / "o.sqlite")
    box.append("state", "t/state", _payload, retain=True)
    box.append("hole_cards", "t/secure/3", _payload, lane="secure", release_at_ms=1234)
    box.close()
    again = Outbox(tmp_path / "o.sqlite")
    (state,) = again.pending("public", after_id=0, now_ms=0, limit=10)
    (cards,) = again.pending("secure", after_id=0, now_ms=1234, limit=10)
    assert (state.retain, state.release_at_ms) == (True, 0)
    assert (cards.retain, cards.release_at_ms) == (False, 1234)


def test_pending_pages_by_id_and_limit():
    box = Outbox(":memory:")
    for _ in range(5):
        box.append("event", "t/e", _payload)
    first_two = box.pending("public", after_id=0, now_ms=0, limit=2)
    assert [r.seq for r in first_two] == [1, 2]
    rest = box.pending("public", after_id=first_two[-1].id, now_ms=0, limit=10)
    assert [r.seq for r in rest] == [3, 4, 5]


def test_the_row_bound_keeps_exactly_max_messages():
    box = Outbox(":memory:", max_messages=2)
    box.append("event", "t/e", _payload)
    box.append("event", "t/e", _payload)
    assert len(box) == 2 and box.take_drop_report() is None  # full, nothing dropped yet
    box.append("event", "t/e", _payload)
    assert len(box) == 2
    assert [r.seq for r in _rows(box)] == [2, 3]
    report = box.take_drop_report()
    assert report is not None and report.streams == {"event": (1, 1, 1)}


def test_the_byte_bound_is_inclusive_and_drops_only_what_it_must():
    box = Outbox(":memory:", max_bytes=30)
    for size in (10, 10, 10):
        box.append("event", "t/e", lambda seq, n=size: b"x" * n)
    assert len(box) == 3 and box.payload_bytes == 30  # exactly at the bound fits
    assert box.take_drop_report() is None
    box.append("event", "t/e", lambda seq: b"y" * 15)  # needs two of the oldest to go
    assert len(box) == 2 and box.payload_bytes == 25
    assert [r.seq for r in _rows(box)] == [3, 4]
    report = box.take_drop_report()
    assert report is not None and report.streams == {"event": (2, 1, 2)}


def test_the_drop_report_gives_each_stream_its_first_and_last_dropped_seq():
    box = Outbox(":memory:", max_messages=3)
    box.append("event", "t/e", _payload)  # event 1
    box.append("state", "t/s", _payload)  # state 1
    box.append("event", "t/e", _payload)  # event 2
    box.append("state", "t/s", _payload)  # state 2
    for _ in range(3):
        box.append("event", "t/e", _payload)  # event 3..5
    report = box.take_drop_report()
    assert report is not None
    assert report.streams == {"event": (2, 1, 2), "state": (2, 1, 2)}
    assert report.total == 4


def test_an_unbounded_notice_never_evicts():
    box = Outbox(":memory:", max_messages=1)
    box.append("event", "t/e", _payload)
    box.append("event", "t/e", _payload, bounded=False)
    assert len(box) == 2 and box.take_drop_report() is None


def test_the_latest_state_is_stored_with_its_message_and_only_when_asked(tmp_path):
    box = Outbox(tmp_path / "o.sqlite")
    box.append("state", "t/s", lambda seq: b"{1}", latest_key="state")
    assert box.get_latest("state") == b"{1}"
    box.append("state", "t/s", lambda seq: b"{not latest}")
    assert box.get_latest("state") == b"{1}"
    assert box.get_latest("") is None and box.get_latest("None") is None
    box.put_latest("state", b"{2}")
    assert box.get_latest("state") == b"{2}"
    box.append("state", "t/s", lambda seq: b"{3}", latest_key="state")
    box.close()
    assert Outbox(tmp_path / "o.sqlite").get_latest("state") == b"{3}"  # kept over a restart


def test_removal_counts_down_and_ignores_an_unknown_row():
    box = Outbox(":memory:")
    box.append("event", "t/e", lambda seq: b"abcd")
    box.append("event", "t/e", lambda seq: b"ef")
    assert (len(box), box.payload_bytes) == (2, 6)
    first = _rows(box)[0]
    box.remove(first.id)
    assert (len(box), box.payload_bytes) == (1, 2)
    box.remove(first.id)
    box.remove(10_000)
    assert (len(box), box.payload_bytes) == (1, 2)
    assert box.has_pending("event") and not box.has_pending("state")


def test_next_release_is_that_of_the_next_row_in_order():
    # the lane is released in order (pending), so the next wake-up is the next row's time,
    # not the earliest of all: at 300 nothing could be handed out yet
    box = Outbox(":memory:")
    assert box.next_release_ms("secure", 0) is None
    box.append("hole_cards", "t/x", _payload, lane="secure", release_at_ms=900)
    box.append("hole_cards", "t/x", _payload, lane="secure", release_at_ms=300)
    assert box.next_release_ms("secure", 0) == 900
    first = _rows(box, "secure")[0]
    assert box.next_release_ms("secure", first.id) == 300
    assert box.next_release_ms("public", 0) is None


def test_a_drained_outbox_gives_the_space_of_an_outage_back(tmp_path):
    path = tmp_path / "o.sqlite"
    box = Outbox(path)
    for _ in range(400):  # ~2.4 MB: far more than the 256 free pages that trigger VACUUM
        box.append("event", "t/e", lambda seq: b"z" * 6000)
    for row in _rows(box):
        box.remove(row.id)
    assert len(box) == 0 and box.payload_bytes == 0
    (free,) = sqlite3.connect(path).execute("PRAGMA freelist_count").fetchone()
    (pages,) = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()
    assert free == 0 and pages < 50  # vacuumed: no free pages left behind, file small


def test_a_second_outage_in_the_same_run_is_given_back_too(tmp_path):
    # The first drain after opening always checks (an earlier run may have left free
    # pages); a later outage must ask for the check itself, by its backlog.
    path = tmp_path / "o.sqlite"
    box = Outbox(path)
    box.append("event", "t/e", _payload)
    (row,) = _rows(box)
    box.remove(row.id)  # the check at open is spent on a small drain
    for _ in range(400):
        box.append("event", "t/e", lambda seq: b"z" * 6000)
    for row in _rows(box):
        box.remove(row.id)
    (free,) = sqlite3.connect(path).execute("PRAGMA freelist_count").fetchone()
    assert len(box) == 0 and free == 0  # vacuumed again


def test_a_small_drain_does_not_vacuum(tmp_path):
    path = tmp_path / "o.sqlite"
    box = Outbox(path)
    for _ in range(20):
        box.append("event", "t/e", lambda seq: b"z" * 6000)
    for row in _rows(box):
        box.remove(row.id)
    (free,) = sqlite3.connect(path).execute("PRAGMA freelist_count").fetchone()
    assert 0 < free <= 256  # below the threshold the pages are kept for reuse


@pytest.mark.parametrize(
    ("field", "kwargs"), [("max_messages", {"max_messages": 0}), ("max_bytes", {"max_bytes": 0})]
)
def test_a_bound_below_one_is_refused_naming_it(field, kwargs):
    with pytest.raises(ValueError, match=field):
        Outbox(":memory:", **kwargs)


def test_bounds_of_one_are_accepted():
    box = Outbox(":memory:", max_messages=1, max_bytes=1)
    box.append("event", "t/e", lambda seq: b"a")
    assert len(box) == 1


def test_a_file_that_is_not_a_database_is_refused_with_the_way_out(tmp_path):
    path = tmp_path / "o.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(OutboxError, match=r"move it aside \(mv "):
        Outbox(path)


def test_the_first_origin_of_a_session_may_be_zero():
    box = Outbox(":memory:")
    assert box.append("event", "t/e", _payload, origin=0) == 1
    assert box.append("event", "t/e", _payload, origin=0) is None


def test_one_message_larger_than_the_byte_bound_is_still_queued_alone():
    # Nothing is dropped for room that dropping cannot make: the message waits on its own.
    box = Outbox(":memory:", max_bytes=10)
    assert box.append("state", "t/s", lambda seq: b"x" * 25) == 1
    assert (len(box), box.payload_bytes) == (1, 25)
    assert box.append("state", "t/s", lambda seq: b"y" * 25) == 2  # the first one goes
    assert [r.seq for r in _rows(box)] == [2]


def test_dropping_stops_as_soon_as_the_new_message_fits_exactly():
    box = Outbox(":memory:", max_bytes=30)
    for _ in range(3):
        box.append("event", "t/e", lambda seq: b"x" * 10)
    box.append("event", "t/e", lambda seq: b"y" * 10)  # 20 + 10 = 30: one drop is enough
    assert [r.seq for r in _rows(box)] == [2, 3, 4]
    report = box.take_drop_report()
    assert report is not None and report.total == 1


def test_the_default_byte_bound_is_16_mib_of_payloads():
    box = Outbox(":memory:")
    mib = b"m" * (1024 * 1024)
    for _ in range(16):
        box.append("state", "t/s", lambda seq: mib)
    assert len(box) == 16 and box.take_drop_report() is None  # exactly 16 MiB fits
    box.append("state", "t/s", lambda seq: b"!")
    assert len(box) == 16 and box.payload_bytes == 15 * len(mib) + 1


def test_the_row_bound_holds_for_bounds_beyond_small_numbers():
    box = Outbox(":memory:", max_messages=300)
    for _ in range(301):
        box.append("event", "t/e", _payload)
    assert len(box) == 300
    assert [r.seq for r in _rows(box)][:2] == [2, 3]


def test_a_batch_of_acknowledgements_larger_than_one_statement_removes_every_row(tmp_path):
    box = Outbox(tmp_path / "o.sqlite")
    for _ in range(1203):
        box.append("event", "t/e", _payload)
    rows = box.pending("public", after_id=0, now_ms=0, limit=5000)
    assert len(rows) == 1203
    box.remove_many(r.id for r in rows[:1201])
    assert [r.seq for r in _rows(box)] == [1202, 1203]
    assert len(box) == 2 and box.payload_bytes == 8
    box.close()
    again = Outbox(tmp_path / "o.sqlite")
    assert len(again) == 2 and again.append("event", "t/e", _payload) == 1204


def test_the_bridge_thread_may_use_the_outbox_the_controller_opened(tmp_path):
    # The controller appends on its thread; the bridge numbers, reads and removes on its own.
    box = Outbox(tmp_path / "o.sqlite")
    box.append("event", "t/e", _payload)
    errors: list[BaseException] = []

    def bridge() -> None:
        try:
            box.next_seq("status")
            box.append("event", "t/e", _payload)
            box.remove_many(r.id for r in _rows(box))
        except BaseException as exc:  # reported to the test thread
            errors.append(exc)

    worker = threading.Thread(target=bridge)
    worker.start()
    worker.join(timeout=30)
    assert errors == [] and len(box) == 0
    assert box.last_seq("status") == 1


def test_a_database_error_while_appending_is_an_outbox_error_naming_the_file(tmp_path):
    # A full disk or a file changed under the process surfaces as SQLite's error; the
    # bridge catches OutboxError (naming the file), so no sqlite3 error may leak past it.
    box = Outbox(tmp_path / "o.sqlite")
    box.close()  # any SQLite failure will do: a closed connection is the portable one
    with pytest.raises(OutboxError, match=r"outbox .*o\.sqlite: "):
        box.append("event", "t/events", _payload)


def test_a_delayed_row_read_back_from_the_file_waits_for_its_release_time(tmp_path):
    # After a restart the rows come from the file (the SELECT path), not from memory: a
    # hole-card row under the broadcast delay is still not due a millisecond early, and the
    # row behind it (its release time came out earlier: the clock stepped back) waits too.
    box = Outbox(tmp_path / "o.sqlite")
    box.append("hole_cards", "t/secure/3", _payload, lane="secure", retain=True,
               release_at_ms=5_000)
    box.append("hole_cards", "t/secure/4", _payload, lane="secure", release_at_ms=3_000)
    box.close()
    again = Outbox(tmp_path / "o.sqlite")
    assert again.pending("secure", after_id=0, now_ms=4_999, limit=10) == []
    assert again.next_release_ms("secure", 0) == 5_000
    due = again.pending("secure", after_id=0, now_ms=5_000, limit=10)
    assert [(r.topic, r.release_at_ms) for r in due] == [("t/secure/3", 5_000),
                                                          ("t/secure/4", 3_000)]
