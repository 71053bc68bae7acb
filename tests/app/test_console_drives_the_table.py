"""The dealer console on (fake) GPIO pins drives the table: a button press becomes a ruling,
and the table's seat LEDs come back to the console's pins."""

from __future__ import annotations

from pathlib import Path

from pokertable.controller.app.config import parse_config
from pokertable.controller.app.table_app import TableApp, console_to_input
from pokertable.hardware.clock import FakeClock
from pokertable.hardware.console import DEFAULT_PIN_MAP, DealerConsole
from pokertable.hardware.gpio import FakeGpioBackend


def _app(tmp_path: Path, console: DealerConsole) -> TableApp:
    config = parse_config(
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
    return TableApp(config, led_sink=lambda seat, mode: console.set_seat_led(seat, mode))


def _press(pins: FakeGpioBackend, clock: FakeClock, pin: int) -> None:
    pins.press(pin)
    clock.advance(120)
    pins.release(pin)
    clock.advance(120)


def test_fold_button_becomes_a_fold_ruling_and_leds_follow(tmp_path: Path) -> None:
    clock = FakeClock(1_000)
    pins = FakeGpioBackend(clock)
    sent_to_nodes: list[tuple[int, str]] = []
    console = DealerConsole(
        pins, DEFAULT_PIN_MAP, clock, led_sink=lambda seat, mode: sent_to_nodes.append((seat, mode))
    )
    app = _app(tmp_path, console)
    app.recover()

    def drain() -> list:
        outputs = []
        while not console.events.empty():
            item = console_to_input(console.events.get(), clock.ticks_ms())
            assert item is not None
            outputs.extend(app.process(item))
        return outputs

    _press(pins, clock, DEFAULT_PIN_MAP.hand_start)
    drain()
    hand = app.snapshot().hand
    assert hand is not None and hand.action_on == 3
    # Seat 3's LED pin is lit for the action, and the reader nodes were told too.
    assert pins.input(DEFAULT_PIN_MAP.seat_leds[2]) is True
    assert (3, "action") in sent_to_nodes

    _press(pins, clock, DEFAULT_PIN_MAP.fold)
    outputs = drain()
    texts = [
        (r["text"], r["rule_ids"])
        for o in outputs
        if o.channel == "event"
        for r in o.payload["rulings"]
    ]
    assert ("seat 3 folds", ["TDA2024-50A"]) in texts
    hand = app.snapshot().hand
    assert hand is not None and hand.seat(3).status.value == "folded" and hand.action_on == 1
    assert pins.input(DEFAULT_PIN_MAP.seat_leds[2]) is False
    assert pins.input(DEFAULT_PIN_MAP.seat_leds[0]) is True
    # Every press is in the journal before it changed the table.
    assert [r["button"] for r in app.journal.records()] == ["hand_start", "fold"]


class RecordingPublisher:
    """Our own Publisher interface, recording instead of sending (the bridge is tested
    against mosquitto elsewhere); enough to see *what* the application publishes."""

    def __init__(self) -> None:
        self.states: list[dict] = []
        self.events: list[dict] = []

    def publish_state(self, state: dict, *, origin: int | None = None) -> int:
        self.states.append(state)
        return len(self.states)

    def publish_event(self, event: dict, *, origin: int | None = None) -> int:
        self.events.append(event)
        return len(self.events)

    def publish_hole_cards(self, cards: dict, *, origin: int | None = None) -> int:
        return 0

    def reply(self, request_id: str | None, **kwargs: object) -> int:
        return 0


def test_an_input_that_changes_nothing_publishes_no_new_state(tmp_path: Path) -> None:
    from pokertable.controller.table.inputs import CardDetected, ConsolePress

    clock = FakeClock(1_000)
    console = DealerConsole(FakeGpioBackend(clock), DEFAULT_PIN_MAP, clock)
    app = _app(tmp_path, console)
    publisher = RecordingPublisher()
    app.publisher = publisher
    app.recover()
    assert len(publisher.states) == 1  # the table as it starts
    app.process(ConsolePress("hand_start", 2_000))
    app.process(CardDetected("seat1.cards", 1, "As", 2_010, "tag-As"))
    published = len(publisher.states)
    assert published == 3
    app.process(CardDetected("seat1.cards", 1, "As", 2_020, "tag-As"))  # a re-read
    assert len(publisher.states) == published
    app.process(ConsolePress("hand_start", 2_030))  # refused: an alert, same state
    assert len(publisher.states) == published and publisher.events[-1]["kind"] == (
        "hand_in_progress")
