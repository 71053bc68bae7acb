"""The consumer-side dedupe and gap detection (mqtt/watch.py ``TableView.accept``), pinned
for the mutation job (bench/mutation.py target ``dedupe-watch``, issue #20).

docs/mqtt.md: every state and event carries the table's MQTT ``session`` and a per-stream
``seq``; under QoS 1 a message may arrive twice, so a consumer keeps the last seq per
stream, drops a repeat or an older one, counts a jump as a gap (and asks for a rebirth),
and starts over when the session changes (a new journal).
"""

from __future__ import annotations

import json

from pokertable.mqtt import watch
from pokertable.mqtt.topics import TableTopics


def _msg(seq: object, session: object = "s1") -> dict[str, object]:
    return {"session": session, "seq": seq, "kind": "bet", "rulings": []}


def test_the_first_message_of_a_stream_is_fresh_whatever_its_seq() -> None:
    view = watch.TableView("casino", "t07")
    assert view.accept("events", _msg(41)) == (True, False)
    assert view.last_seq == {"events": ("s1", 41)} and view.gaps == 0


def test_a_repeat_and_an_older_message_are_dropped_and_change_nothing() -> None:
    view = watch.TableView("casino", "t07")
    view.accept("events", _msg(5))
    assert view.accept("events", _msg(5)) == (False, False)  # the QoS 1 repeat
    assert view.accept("events", _msg(4)) == (False, False)  # late, older
    assert view.accept("events", _msg(0)) == (False, False)
    assert view.last_seq["events"] == ("s1", 5) and view.gaps == 0
    # The stale ones did not move the mark: 6 follows 5 with no gap.
    assert view.accept("events", _msg(6)) == (True, False)
    assert view.last_seq["events"] == ("s1", 6)


def test_the_next_seq_is_fresh_and_a_jump_is_a_gap_counted_once_each() -> None:
    view = watch.TableView("casino", "t07")
    view.accept("events", _msg(1))
    assert view.accept("events", _msg(2)) == (True, False)
    assert view.accept("events", _msg(4)) == (True, True)  # 3 missing
    assert view.gaps == 1 and view.last_seq["events"] == ("s1", 4)
    assert view.accept("events", _msg(5)) == (True, False)  # counted from 4, not from 2
    assert view.accept("events", _msg(15)) == (True, True)
    assert view.accept("events", _msg(15)) == (False, False)
    assert view.gaps == 2


def test_a_new_session_starts_over_even_with_a_lower_seq() -> None:
    view = watch.TableView("casino", "t07")
    view.accept("state", _msg(90))
    assert view.accept("state", _msg(1, session="s2")) == (True, False)
    assert view.last_seq["state"] == ("s2", 1) and view.gaps == 0
    assert view.accept("state", _msg(1, session="s2")) == (False, False)
    assert view.accept("state", _msg(3, session="s2")) == (True, True)


def test_streams_are_counted_apart() -> None:
    view = watch.TableView("casino", "t07")
    view.accept("state", _msg(10))
    assert view.accept("events", _msg(3)) == (True, False)
    assert view.accept("state", _msg(11)) == (True, False)
    assert view.accept("events", _msg(4)) == (True, False)
    assert view.last_seq == {"state": ("s1", 11), "events": ("s1", 4)}


def test_a_message_without_a_session_or_an_integer_seq_is_ignored() -> None:
    view = watch.TableView("casino", "t07")
    view.accept("events", _msg(3))
    for bad in (_msg("4"), _msg(None), _msg(4.0), _msg(4, session=None), _msg(4, session=7),
                {"seq": 4}, {"session": "s1"}):
        assert view.accept("events", bad) == (False, False)
    assert view.last_seq == {"events": ("s1", 3)} and view.gaps == 0
    assert watch.TableView("casino", "t07").accept("events", {"seq": 1}) == (False, False)


def test_the_room_keeps_one_copy_of_a_repeated_event_and_asks_a_rebirth_on_a_gap() -> None:
    room = watch.Room()
    topic = TableTopics("casino", "t07")

    def raw(seq: int, session: str = "s1") -> bytes:
        return json.dumps(_msg(seq, session)).encode()

    assert room.apply(topic.events, raw(1)) == (room.view("casino", "t07"), False)
    assert room.apply(topic.events, raw(1)) == (room.view("casino", "t07"), False)
    assert room.apply(topic.events, raw(2)) == (room.view("casino", "t07"), False)
    assert room.apply(topic.events, raw(4))[1] is True  # type: ignore[index]
    state = dict(_msg(1), hand_number=7)
    room.apply(topic.state, json.dumps(state).encode())
    room.apply(topic.state, json.dumps(dict(state, hand_number=8)).encode())  # a repeat
    view = room.view("casino", "t07")
    assert [e["seq"] for e in view.events] == [1, 2, 4]
    assert view.state is not None and view.state["hand_number"] == 7
    # A gap in the state stream is counted but asks no rebirth (the next state is whole).
    assert room.apply(topic.state, json.dumps(_msg(5)).encode()) == (view, False)
    assert view.gaps == 2


def test_a_new_session_is_fresh_whichever_way_its_id_sorts() -> None:
    """Session ids are ``<table>-<random hex>``: the next one may sort before the last."""
    view = watch.TableView("casino", "t07")
    view.accept("events", _msg(7, session="t07-ffffffffffff"))
    assert view.accept("events", _msg(1, session="t07-000000000000")) == (True, False)
    assert view.last_seq["events"] == ("t07-000000000000", 1)


def test_sequence_numbers_past_small_integers_still_follow_on() -> None:
    """Seqs grow past 256, where ``is`` and ``==`` part ways on ints."""
    view = watch.TableView("casino", "t07")
    view.accept("events", _msg(100_000))
    assert view.accept("events", _msg(100_001)) == (True, False)
    assert view.accept("events", _msg(100_003)) == (True, True)
    assert view.gaps == 1


def test_the_room_takes_a_status_as_is_and_ignores_what_it_does_not_know() -> None:
    """Status is retained, not sequenced: taken whole, never a gap. Foreign topics, unknown
    leaves and payloads that are not a JSON object change nothing."""
    room = watch.Room()
    topic = TableTopics("casino", "t07")
    view = room.view("casino", "t07")
    assert room.apply(topic.status, json.dumps({"state": "online"}).encode()) == (view, False)
    assert view.status == "online"
    assert room.apply(topic.status, b"{}") == (view, False) and view.status == "unknown"
    for foreign, raw in (
        (topic.clock, json.dumps(_msg(1)).encode()),  # the venue clock: not a table topic
        (f"{topic.base}/zz", json.dumps(_msg(1)).encode()),  # a leaf watch does not read
        (topic.reply, json.dumps(_msg(1)).encode()),
        (topic.events, b"\xff\xfe"),  # not UTF-8
        (topic.events, b"[1, 2]"),  # JSON, but not an object
    ):
        assert room.apply(foreign, raw) is None, foreign
    assert view.status == "unknown" and view.last_seq == {} and not view.events
