"""What the room reads leaves first (issue #26, goal 5): an input's events and replies,
then the table state, then its hole cards (the secure lane, a stream of its own) and its
seat LEDs (a write to the reader nodes). Hole cards ahead of the state held a dealt
card's state back by a whole message. The origins follow the order of leaving, so the
outbox's skip-what-was-queued still works, and a journal replay repeats them exactly.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from pokertable.controller.app import table_app as app_module
from pokertable.controller.app.config import parse_config
from pokertable.controller.app.table_app import OUTPUTS_PER_INPUT, TableApp
from pokertable.controller.table.inputs import ConsolePress
from pokertable.controller.table.session import Channel, Output


class Recorder:
    """The ``Publisher`` interface and the LED sink, writing one log in call order."""

    def __init__(self) -> None:
        self.log: list[tuple[str, Any]] = []

    def publish_state(self, state: dict[str, Any], *, origin: int | None = None) -> int:
        self.log.append(("state", origin))
        return 0

    def publish_event(self, event: dict[str, Any], *, origin: int | None = None) -> int:
        self.log.append(("event", origin))
        return 0

    def publish_hole_cards(self, cards: dict[str, Any], *, origin: int | None = None) -> int:
        self.log.append(("hole_cards", origin))
        return 0

    def reply(self, request_id: str | None, **kwargs: Any) -> int:
        self.log.append(("reply", kwargs.get("origin")))
        return 0

    def led(self, seat: int, mode: str) -> None:
        self.log.append(("led", seat))


def _app(tmp_path: Path) -> tuple[TableApp, Recorder]:
    config = parse_config({
        "table": {"venue": "club", "id": "t3", "first_button": 1},
        "levels": [{"number": 1, "small_blind": 50, "big_blind": 100}],
        "players": [{"seat": 1, "name": "Ann", "stack": 2000},
                    {"seat": 2, "name": "Bob", "stack": 2000}],
        "journal": {"path": str(tmp_path / "journal.jsonl")},
    })
    recorder = Recorder()
    app = TableApp(config, publisher=recorder, led_sink=recorder.led)
    app.recover()
    return app, recorder


def test_events_and_replies_then_the_state_then_leds_and_hole_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outputs as the session gives them, an LED and hole cards first: the state is
    published right after the event and the reply, before them (they keep their order)."""
    outputs = (
        Output(Channel.LED, {"seat": 2, "mode": "on"}),
        Output(Channel.HOLE_CARDS, {"hand_id": "h1", "seat": 1, "cards": ["Ah", "Kd"]}),
        Output(Channel.EVENT, {"kind": "card_dealt"}),
        Output(Channel.HOLE_CARDS, {"hand_id": "h1", "seat": 2, "cards": ["2c", "2d"]}),
        Output(Channel.REPLY, {"request_id": "r1", "ok": True}),
    )
    counter = itertools.count()
    monkeypatch.setattr(app_module, "apply", lambda session, item: (session, outputs))
    monkeypatch.setattr(app_module, "table_state",  # a new state after every input
                        lambda session, at_ms: {"n": next(counter), "ts_ms": at_ms})
    app, recorder = _app(tmp_path)
    recorder.log.clear()  # the opening state
    app.process(ConsolePress("hand_start", 1_000))  # journal index 0
    app.process(ConsolePress("confirm", 2_000))  # 1
    base = OUTPUTS_PER_INPUT
    assert recorder.log == [
        ("event", 0), ("reply", 1), ("state", 2), ("led", 2), ("hole_cards", 4),
        ("hole_cards", 5),
        ("event", base), ("reply", base + 1), ("state", base + 2), ("led", 2),
        ("hole_cards", base + 4), ("hole_cards", base + 5),
    ]
    first = recorder.log
    app.close()
    counter = itertools.count()
    _, replayed = _app(tmp_path)  # the replay hands the outbox the same origins
    assert replayed.log == first


def test_an_unchanged_state_is_skipped_and_the_origins_still_rise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outputs = (Output(Channel.HOLE_CARDS, {"hand_id": "h1", "seat": 1, "cards": ["Ah", "Kd"]}),)
    monkeypatch.setattr(app_module, "apply", lambda session, item: (session, outputs))
    app, recorder = _app(tmp_path)
    recorder.log.clear()
    app.process(ConsolePress("hand_start", 1_000))
    assert recorder.log == [("hole_cards", 1)]  # origin 0 was the state's place
