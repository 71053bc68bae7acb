"""Words out of turn entered on the physical console reach the table with their seat (R53).

The dealer holds the speaker's seat button while pressing the declaration: the GPIO console
(on the fake backend, debounced like rpi-lgpio) names him as ``speaker``, the application
turns that into ``ConsolePress.seat`` and the session holds his action until the action
reaches him (issue #11).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokertable.controller.app.config import (
    AppConfig,
    LevelSection,
    PathSection,
    PlayerSection,
    TableSection,
)
from pokertable.controller.app.table_app import TableApp, console_to_input
from pokertable.controller.table.inputs import CardDetected, ConsolePress
from pokertable.controller.table.session import Output
from pokertable.hardware.clock import FakeClock
from pokertable.hardware.console import (
    ConsolePinMap,
    DealerConsole,
    DeclarationPressed,
)
from pokertable.hardware.gpio import FakeGpioBackend

# Seat buttons on the pins the default map gives the Pi's seat LEDs (the header is full);
# the seat LEDs then show on the reader nodes only.
PINS = ConsolePinMap.from_config({"seat_leds": [], "seat_buttons": [12, 16, 18]})


class Console:
    """The dealer's hands on a console over fake pins."""

    def __init__(self) -> None:
        self.clock = FakeClock(start_ms=1_000)
        self.pins = FakeGpioBackend(self.clock)
        self.console = DealerConsole(self.pins, PINS, self.clock, led_sink=lambda s, m: None)

    def hold(self, pin: int) -> None:
        self.pins.bounce(pin, transitions=5, within_ms=4)  # ends pressed
        self.clock.advance(100)

    def release(self, pin: int) -> None:
        self.pins.bounce(pin, transitions=5, within_ms=4)  # ends released
        self.clock.advance(100)

    def tap(self, pin: int) -> None:
        self.hold(pin)
        self.release(pin)

    def event(self) -> Any:
        event = self.console.events.get_nowait()
        assert self.console.events.empty()
        return event


def _app(tmp_path: Path) -> tuple[TableApp, list[Output]]:
    config = AppConfig(
        table=TableSection(venue="v", id="t1", seats=10, first_button=3),
        levels=[LevelSection(number=1, small_blind=100, big_blind=200, chip_unit=25)],
        players=[
            PlayerSection(seat=s, name=n, stack=5000)
            for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cat"))
        ],
        registry=PathSection(path=str(tmp_path / "reg.sqlite3")),
        journal=PathSection(path=str(tmp_path / "journal.jsonl")),
    )
    outputs: list[Output] = []
    app = TableApp(config, on_output=lambda _s, out: outputs.extend(out))
    app.recover()
    app.process(ConsolePress("hand_start", 1_000))
    for seat, cards in ((1, ("As", "Ad")), (2, ("Ks", "Kd")), (3, ("Qs", "Qd"))):
        for card in cards:
            app.process(CardDetected(f"seat{seat}.cards", seat, card, 1_100))
    return app, outputs


def test_a_seat_button_held_with_a_declaration_names_the_speaker() -> None:
    dealer = Console()
    dealer.console.set_seat_led(3, "action")
    dealer.hold(PINS.seat_buttons[0])  # seat 1's button
    dealer.tap(PINS.check_call)
    dealer.release(PINS.seat_buttons[0])
    event = dealer.event()
    assert isinstance(event, DeclarationPressed)
    assert (event.kind, event.seat, event.speaker) == ("check_call", 3, 1)
    dealer.tap(PINS.check_call)  # no seat button held: the seat on the action speaks
    event = dealer.event()
    assert isinstance(event, DeclarationPressed) and event.speaker is None


def test_two_seat_buttons_held_name_nobody() -> None:
    dealer = Console()
    dealer.hold(PINS.seat_buttons[0])
    dealer.hold(PINS.seat_buttons[1])
    dealer.tap(PINS.fold)
    event = dealer.event()
    assert isinstance(event, DeclarationPressed) and event.speaker is None  # and nothing else


def test_TDA2024_53A_out_of_turn_call_from_the_gpio_console_is_held_and_binds(
    tmp_path: Path,
) -> None:
    app, outputs = _app(tmp_path)
    dealer = Console()
    dealer.console.set_seat_led(3, "action")  # Cat is on the action
    dealer.hold(PINS.seat_buttons[0])  # Ann says "call" before Cat acts
    dealer.tap(PINS.check_call)
    dealer.release(PINS.seat_buttons[0])
    press = console_to_input(dealer.event(), 2_000)
    assert press == ConsolePress("check_call", 2_000, seat=1, lit_seat=3)
    app.process(press)
    [event] = [
        o.payload for o in outputs if o.channel == "event" and o.payload["kind"] == "out_of_turn"
    ]
    assert event["rulings"][0]["rule_ids"] == ["TDA2024-53A"] and event["rulings"][0]["seat"] == 1
    hand = app.snapshot().hand
    assert hand is not None and hand.action_on == 3 and hand.seat(1).bet == 100  # held
    dealer.tap(PINS.check_call)  # Cat calls: the action to Ann did not change
    call = console_to_input(dealer.event(), 2_100)
    assert call is not None and call.seat is None
    app.process(call)
    hand = app.snapshot().hand
    assert hand is not None and hand.seat(1).bet == 200 and hand.action_on == 2  # Ann's call binds
    app.close()
