"""The table's request_id idempotence (controller/app/table_app.py ``process``/``_answer_again``),
pinned for the mutation job (bench/mutation.py target ``dedupe-app``, issue #20).

A room command whose request_id was already applied (the sender retried, or QoS 1
delivered it again) is answered again with the very same reply and not applied again,
also after a restart (the journal replay rebuilds what was answered); a request_id reused
with another payload is refused naming ``request_id``. Driven through ``TableApp`` with a
journal on disk and a publisher that records every call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokertable.controller.app.config import AppConfig, parse_config
from pokertable.controller.app.table_app import TableApp
from pokertable.controller.table.inputs import RoomCommand


class Replies:
    """The ``Publisher`` interface, recording each reply with every keyword it was given,
    and the origin of every publish: the outbox keeps one message per origin, so a replay
    that hands it the same origins again publishes nothing twice."""

    def __init__(self) -> None:
        self.replies: list[dict[str, Any]] = []
        self.origins: list[tuple[str, int | None]] = []

    def publish_state(self, state: dict[str, Any], *, origin: int | None = None) -> int:
        self.origins.append(("state", origin))
        return 0

    def publish_event(self, event: dict[str, Any], *, origin: int | None = None) -> int:
        self.origins.append(("event", origin))
        return 0

    def publish_hole_cards(self, cards: dict[str, Any], *, origin: int | None = None) -> int:
        return 0

    def reply(self, request_id: str | None, **kwargs: Any) -> int:
        # The first answer has a journal origin, a repeat none.
        self.origins.append(("reply", kwargs.pop("origin", None)))
        self.replies.append({"request_id": request_id, **kwargs})
        return len(self.replies)


def _config(tmp_path: Path) -> AppConfig:
    return parse_config(
        {
            "table": {"venue": "club", "id": "t3", "first_button": 3},
            "levels": [{"number": 1, "small_blind": 50, "big_blind": 100}],
            "players": [
                {"seat": 1, "name": "Ann", "stack": 2000},
                {"seat": 2, "name": "Bob", "stack": 2000},
                {"seat": 3, "name": "Cat", "stack": 2000},
            ],
            "journal": {"path": str(tmp_path / "journal.jsonl")},
        }
    )


def _app(tmp_path: Path) -> tuple[TableApp, Replies]:
    app = TableApp(_config(tmp_path))
    publisher = Replies()
    app.publisher = publisher
    app.recover()
    return app, publisher


def _seat(request_id: str, seat: int, player: str, at_ms: int) -> RoomCommand:
    payload = {"command": "seat_player", "request_id": request_id, "seat": seat,
               "player": player, "stack": 500}
    return RoomCommand("seat_player", request_id, payload, at_ms)


def _players(app: TableApp) -> dict[int, str | None]:
    return {s.seat: s.player for s in app.snapshot().table.seats}


def test_a_repeated_command_gets_the_same_reply_and_is_not_applied_again(
    tmp_path: Path,
) -> None:
    app, publisher = _app(tmp_path)
    app.process(_seat("r1", 4, "Dan", 1_000))
    assert publisher.replies == [
        {"request_id": "r1", "ok": True, "command": "seat_player", "error": None,
         "field": None, "ts_ms": 1_000}
    ]
    after_first = app.snapshot()
    journalled = len(app.journal)
    app.process(_seat("r1", 4, "Dan", 2_000))  # the retry, later
    app.process(_seat("r1", 4, "Dan", 3_000))
    # Applied again, the second seating of seat 4 would be refused ("seat 4 is taken").
    assert publisher.replies == [publisher.replies[0]] * 3
    assert app.snapshot() == after_first and len(app.journal) == journalled
    assert _players(app)[4] == "Dan"


def test_a_refused_command_repeated_gets_the_same_refusal(tmp_path: Path) -> None:
    app, publisher = _app(tmp_path)
    app.process(_seat("r2", 1, "Dan", 1_000))  # seat 1 is Ann's
    first = publisher.replies[0]
    assert (first["ok"], first["error"], first["field"]) == (False, "seat 1 is taken", "seat")
    app.process(_seat("r2", 1, "Dan", 1_500))
    assert publisher.replies == [first, first]
    assert len(app.journal) == 1


def test_a_request_id_reused_for_another_command_is_refused_naming_it(tmp_path: Path) -> None:
    app, publisher = _app(tmp_path)
    app.process(_seat("r3", 4, "Dan", 1_000))
    before = app.snapshot()
    app.process(_seat("r3", 5, "Eve", 2_000))  # another payload under the same id
    assert publisher.replies[1] == {
        "request_id": "r3",
        "ok": False,
        "command": "seat_player",
        "error": "request_id was already used by another command; use a new one",
        "field": "request_id",
        "ts_ms": 2_000,
    }
    assert len(publisher.replies) == 2
    assert app.snapshot() == before and _players(app).get(5) is None
    # The control: the same seating under a new id does act.
    app.process(_seat("r4", 5, "Eve", 3_000))
    assert publisher.replies[2]["ok"] is True and _players(app)[5] == "Eve"


def test_after_a_restart_a_repeat_is_answered_and_a_reuse_refused(tmp_path: Path) -> None:
    first, _ = _app(tmp_path)
    first.process(_seat("r5", 4, "Dan", 1_000))
    first.process(_seat("r6", 1, "Zed", 1_100))  # refused: seat taken
    first.journal.close()

    again, publisher = _app(tmp_path)  # the replay rebuilds what was answered
    journalled = len(again.journal)
    assert journalled == 2
    # The replay hands the two replies to the publisher again (its outbox skips what was
    # already queued, by origin); what counts here is what the repeats get.
    assert len(publisher.replies) == 2
    publisher.replies.clear()
    again.process(_seat("r5", 4, "Dan", 5_000))
    again.process(_seat("r6", 1, "Zed", 5_100))
    again.process(_seat("r5", 5, "Eve", 5_200))
    assert publisher.replies == [
        {"request_id": "r5", "ok": True, "command": "seat_player", "error": None,
         "field": None, "ts_ms": 1_000},
        {"request_id": "r6", "ok": False, "command": "seat_player",
         "error": "seat 1 is taken", "field": "seat", "ts_ms": 1_100},
        {"request_id": "r5", "ok": False, "command": "seat_player",
         "error": "request_id was already used by another command; use a new one",
         "field": "request_id", "ts_ms": 5_200},
    ]
    assert len(again.journal) == journalled
    assert _players(again)[4] == "Dan" and _players(again).get(5) is None


def test_without_a_publisher_a_repeat_is_still_not_applied(tmp_path: Path) -> None:
    app = TableApp(_config(tmp_path))
    app.recover()
    app.process(_seat("r7", 4, "Dan", 1_000))
    app.process(_seat("r7", 4, "Dan", 2_000))
    app.process(_seat("r7", 5, "Eve", 3_000))
    assert len(app.journal) == 1 and _players(app).get(5) is None


def test_only_room_commands_are_remembered_with_their_own_replies(tmp_path: Path) -> None:
    """Two commands answered one after the other: each repeat gets its own reply only."""
    app, publisher = _app(tmp_path)
    app.process(_seat("r8", 4, "Dan", 1_000))
    app.process(_seat("r9", 4, "Eve", 1_100))  # refused: Dan sits there now
    app.process(_seat("r8", 4, "Dan", 2_000))
    app.process(_seat("r9", 4, "Eve", 2_100))
    assert publisher.replies[2:] == publisher.replies[:2]
    assert publisher.replies[1]["ok"] is False and publisher.replies[1]["field"] == "seat"



def test_each_input_publishes_under_its_own_origins_and_a_replay_repeats_them(
    tmp_path: Path,
) -> None:
    from pokertable.controller.app.table_app import OUTPUTS_PER_INPUT
    from pokertable.controller.table.inputs import ConsolePress

    app, publisher = _app(tmp_path)
    publisher.origins.clear()  # the opening state (no origin: nothing journalled yet)
    app.process(_seat("r1", 4, "Dan", 1_000))  # journal index 0
    app.process(ConsolePress("hand_start", 2_000))  # 1
    app.process(ConsolePress("fold", 2_100))  # 2
    app.process(ConsolePress("fold", 2_200))  # 3
    app.process(ConsolePress("fold", 2_300))  # 4: the fold and the hand's end, two events
    app.process(_seat("r2", 5, "Eve", 3_000))  # 5
    app.process(_seat("r2", 5, "Eve", 3_500))  # a repeat: answered, under no origin
    first = publisher.origins
    assert app.stats.inputs == 6
    for index in range(6):
        base = index * OUTPUTS_PER_INPUT
        mine = [(c, o) for c, o in first if o is not None and base <= o < base + OUTPUTS_PER_INPUT]
        origins = [o for _, o in mine]
        # in the order they leave, each input's own origins, rising from its base
        assert origins == sorted(set(origins)) and origins[0] == base, index
        channels = [c for c, _ in mine]
        assert channels[-1] == "state", index  # after the events and replies it follows
        assert "state" not in channels[:-1] and len(channels) > 1, index
    two = [o for c, o in first if c == "event" and o and o // OUTPUTS_PER_INPUT == 4]
    assert two == [4 * OUTPUTS_PER_INPUT, 4 * OUTPUTS_PER_INPUT + 1]
    assert first[-1] == ("reply", None)
    assert len(first) == len({o for _, o in first[:-1]}) + 1  # no origin used twice
    app.journal.close()

    again, replayed = _app(tmp_path)
    assert again.stats.replayed == 6 and again.stats.inputs == 0
    assert replayed.origins == first[:-1]


def test_an_input_with_too_many_outputs_for_its_origins_is_refused(
    tmp_path: Path, monkeypatch: Any
) -> None:
    from pokertable.controller.app import table_app as app_module
    from pokertable.controller.app.table_app import OUTPUTS_PER_INPUT
    from pokertable.controller.table.session import Channel, Output

    app, _ = _app(tmp_path)
    led = Output(Channel.LED, {"seat": 1, "mode": "off"})
    for count, refused in ((OUTPUTS_PER_INPUT - 2, False), (OUTPUTS_PER_INPUT - 1, True),
                           (OUTPUTS_PER_INPUT + 44, True)):
        monkeypatch.setattr(app_module, "apply", lambda s, item, n=count: (s, (led,) * n))
        try:
            app.process(_seat(f"x{count}", 4, "Dan", 1_000 + count))
        except RuntimeError as exc:
            assert refused and f"produced {count} outputs" in str(exc)
        else:
            assert not refused, count


def test_a_repeated_command_that_also_made_an_event_repeats_only_its_reply(
    tmp_path: Path,
) -> None:
    """Hand-for-hand is answered and announced; a repeat is answered, never re-announced."""
    app, publisher = _app(tmp_path)
    payload = {"command": "hand_for_hand", "request_id": "h1", "enabled": True}
    outputs = app.process(RoomCommand("hand_for_hand", "h1", payload, 1_000))
    assert sorted(o.channel for o in outputs) == ["event", "reply"]
    events = [c for c, _ in publisher.origins if c == "event"]
    app.process(RoomCommand("hand_for_hand", "h1", dict(payload), 2_000))
    assert [c for c, _ in publisher.origins if c == "event"] == events
    assert publisher.replies == [publisher.replies[0]] * 2
    assert publisher.replies[0]["ok"] is True and publisher.replies[0]["command"] == "hand_for_hand"
