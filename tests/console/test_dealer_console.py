"""The dealer console on fake pins: presses with bounce, undo by hold time, seat LEDs, pin maps.

The fake debounces as rpi-lgpio does (what a Pi runs): a press is reported once the contact
has been still for the bouncetime, so every event time below is the moment the button
settled plus the 30 ms bouncetime. The RPi.GPIO quirks the console also copes with (a
release swallowed by the bouncetime, found by ``tick``) are tested on ``debounce="rpi-gpio"``.
"""

from __future__ import annotations

import doctest
import queue
import threading
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pokertable.hardware.console
from pokertable.firmware import wire
from pokertable.hardware.clock import FakeClock
from pokertable.hardware.console import (
    DEFAULT_PIN_MAP,
    ClockCallPressed,
    ConfirmPressed,
    ConsoleError,
    ConsoleEvent,
    ConsolePinMap,
    DealerConsole,
    DeclarationPressed,
    FloorCallPressed,
    HandStartPressed,
    LedMode,
    UndoPressed,
    led_command,
)
from pokertable.hardware.gpio import FakeGpioBackend, GpioError

PINS = DEFAULT_PIN_MAP


class Table:
    """A console on fake pins with a recording LED sink."""

    def __init__(
        self,
        *,
        bouncetime_ms: int = 30,
        long_press_ms: int = 800,
        debounce: Literal["lgpio", "rpi-gpio"] = "lgpio",
    ) -> None:
        self.clock = FakeClock(start_ms=1_000)
        self.pins = FakeGpioBackend(self.clock, debounce=debounce)
        self.sink: list[tuple[int, LedMode]] = []
        self.console = DealerConsole(
            self.pins,
            PINS,
            self.clock,
            bouncetime_ms=bouncetime_ms,
            long_press_ms=long_press_ms,
            led_sink=lambda seat, mode: self.sink.append((seat, mode)),
        )

    def tap(self, pin: int, hold_ms: int = 120, bounces: int = 5) -> None:
        """A real press: contact bounce going down, held, bounce coming up, then a pause."""
        self.pins.bounce(pin, transitions=bounces, within_ms=4)
        self.clock.advance(hold_ms)
        self.pins.bounce(pin, transitions=bounces, within_ms=4)
        self.clock.advance(200)

    def drain(self) -> list[ConsoleEvent]:
        out = []
        while True:
            try:
                out.append(self.console.events.get_nowait())
            except queue.Empty:
                return out


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def rpi_table() -> Table:
    return Table(debounce="rpi-gpio")


SETTLE = 4 + 30  # a tap's contact bounce lasts 4 ms, then the 30 ms bouncetime


def test_each_button_gives_its_event_once_despite_bounce(table: Table) -> None:
    start = table.clock.ticks_ms()
    for pin in (PINS.hand_start, PINS.floor_call, PINS.clock_call, PINS.confirm):
        table.tap(pin)
    events = table.drain()
    step = 4 + 120 + 4 + 200
    assert events == [
        HandStartPressed(at_ms=start + SETTLE),
        FloorCallPressed(at_ms=start + step + SETTLE),
        ClockCallPressed(at_ms=start + 2 * step + SETTLE),
        ConfirmPressed(at_ms=start + 3 * step + SETTLE),
    ]


@pytest.mark.parametrize(
    ("button", "kind"),
    [
        ("check_call", "check_call"),
        ("bet_raise", "bet_raise"),
        ("all_in", "all_in"),
        ("fold", "fold"),
        ("pot", "pot"),
    ],
)
def test_declarations_carry_the_seat_on_the_action(table: Table, button: str, kind: str) -> None:
    table.console.set_seat_led(4, "action")
    at = table.clock.ticks_ms()
    table.tap(getattr(PINS, button))
    expected = DeclarationPressed(kind=kind, at_ms=at + SETTLE, seat=4)  # type: ignore[arg-type]
    assert table.drain() == [expected]


def test_declaration_with_no_seat_lit_has_no_seat(table: Table) -> None:
    table.console.set_seat_led(2, "action")
    table.console.set_seat_led(2, "all_in")  # seat 2 went all in: nobody is on the action
    table.tap(PINS.fold)
    (event,) = table.drain()
    assert isinstance(event, DeclarationPressed) and event.seat is None


def test_action_moves_with_the_last_seat_lit(table: Table) -> None:
    table.console.set_seat_led(3, "action")
    table.console.set_seat_led(3, "off")
    table.console.set_seat_led(5, "action")
    table.tap(PINS.check_call)
    (event,) = table.drain()
    assert isinstance(event, DeclarationPressed) and event.seat == 5
    assert table.console.action_seat == 5


def test_short_undo_cancels_pending_and_long_undo_undoes_last(table: Table) -> None:
    t0 = table.clock.ticks_ms()
    table.tap(PINS.undo, hold_ms=300)
    t1 = table.clock.ticks_ms()
    table.tap(PINS.undo, hold_ms=900)
    events = table.drain()
    assert events == [
        UndoPressed(scope="cancel_pending", held_ms=4 + 300, at_ms=t0 + 4 + 300 + SETTLE),
        UndoPressed(scope="last_declaration", held_ms=4 + 900, at_ms=t1 + 4 + 900 + SETTLE),
    ]


def test_undo_threshold_is_inclusive(table: Table) -> None:
    table.pins.press(PINS.undo)
    table.clock.advance(800)
    table.pins.release(PINS.undo)
    table.clock.advance(30)
    (event,) = table.drain()
    assert isinstance(event, UndoPressed) and event.scope == "last_declaration"
    assert event.held_ms == 800


def test_undo_sends_nothing_until_released(table: Table) -> None:
    table.pins.press(PINS.undo)
    table.clock.advance(5_000)
    table.console.tick()
    assert table.drain() == []


def _quick_tap_then_press(table: Table, *, tick: bool) -> list[ConsoleEvent]:
    table.pins.press(PINS.confirm)
    table.clock.advance(10)
    table.pins.release(PINS.confirm)  # inside the bouncetime: RPi.GPIO drops this edge
    table.clock.advance(100)
    if tick:
        table.console.tick()  # reads the level: open, so the button is up
    table.pins.press(PINS.confirm)
    return table.drain()


def test_lgpio_a_tap_shorter_than_the_bouncetime_is_never_a_press(table: Table) -> None:
    """rpi-lgpio's difference: a 10 ms tap never held still for 30 ms, so it is not a press
    (RPi.GPIO would report it); the next real press counts."""
    table.pins.press(PINS.confirm)
    table.clock.advance(10)
    table.pins.release(PINS.confirm)
    table.clock.advance(100)
    table.console.tick()
    assert table.drain() == []
    table.tap(PINS.confirm)
    assert [type(e) for e in table.drain()] == [ConfirmPressed]


def test_lgpio_release_chatter_after_a_long_hold_is_not_a_second_press(table: Table) -> None:
    """The RPi.GPIO failure gpiozero#378 describes: after a hold longer than the bouncetime
    the release's bounce can look like a new press. Under lgpio it cannot."""
    table.pins.bounce(PINS.fold, transitions=5, within_ms=4)
    table.clock.advance(2_000)
    table.pins.bounce(PINS.fold, transitions=7, within_ms=8)  # chatters, ends up (open)
    table.clock.advance(200)
    assert [type(e) for e in table.drain()] == [DeclarationPressed]
    assert table.pins.input(PINS.fold) is True


def test_rpi_gpio_a_tap_faster_than_the_bouncetime_loses_its_release_without_tick(
    rpi_table: Table,
) -> None:
    assert [type(e) for e in _quick_tap_then_press(rpi_table, tick=False)] == [ConfirmPressed]


def test_rpi_gpio_tick_resyncs_a_swallowed_release_so_the_next_press_counts(
    rpi_table: Table,
) -> None:
    events = _quick_tap_then_press(rpi_table, tick=True)
    assert [type(e) for e in events] == [ConfirmPressed, ConfirmPressed]
    assert events[1].at_ms - events[0].at_ms == 110


def test_rpi_gpio_quick_undo_release_found_by_tick_is_still_a_short_undo(
    rpi_table: Table,
) -> None:
    table = rpi_table
    table.pins.press(PINS.undo)
    table.clock.advance(10)
    table.pins.release(PINS.undo)  # swallowed by the bouncetime
    table.clock.advance(40)
    table.console.tick()
    (event,) = table.drain()
    assert isinstance(event, UndoPressed) and event.scope == "cancel_pending"
    assert event.held_ms == 50


def test_two_buttons_at_once_are_two_events(table: Table) -> None:
    table.pins.press(PINS.hand_start)
    table.clock.advance(3)
    table.pins.press(PINS.confirm)
    table.clock.advance(30)
    events = table.drain()
    assert [type(e) for e in events] == [HandStartPressed, ConfirmPressed]
    assert events[1].at_ms - events[0].at_ms == 3


def test_presses_from_another_thread_reach_the_queue(table: Table) -> None:
    """On a Pi the callbacks run on RPi.GPIO's thread; the queue hands events across."""

    def dealer() -> None:
        for _ in range(20):
            table.tap(PINS.pot)

    worker = threading.Thread(target=dealer)
    worker.start()
    got = [table.console.events.get(timeout=60) for _ in range(20)]
    worker.join()
    assert all(isinstance(e, DeclarationPressed) and e.kind == "pot" for e in got)
    assert [e.at_ms for e in got] == sorted(e.at_ms for e in got)


# -- LEDs -----------------------------------------------------------------------------


def test_action_led_reaches_the_pin_and_the_sink(table: Table) -> None:
    seat3 = PINS.seat_leds[2]
    table.console.set_seat_led(3, "action")
    assert table.pins.input(seat3) is True
    table.console.set_seat_led(3, "off")
    assert table.pins.input(seat3) is False
    assert table.sink == [(3, "action"), (3, "off")]


def test_all_in_blinks_slowly_and_blink_quickly_as_the_clock_moves(table: Table) -> None:
    table.clock.advance(1_000 - table.clock.ticks_ms() % 1_000)  # on a whole second
    slow, fast = PINS.seat_leds[0], PINS.seat_leds[1]
    table.console.set_seat_led(1, "all_in")
    table.console.set_seat_led(2, "blink")
    levels = []
    for _ in range(8):
        table.console.tick()
        levels.append((table.pins.input(slow), table.pins.input(fast)))
        table.clock.advance(125)
    assert [s for s, _ in levels] == [True] * 4 + [False] * 4
    assert [f for _, f in levels] == [True, False] * 4


def test_seat_beyond_the_pi_leds_goes_only_to_the_sink(table: Table) -> None:
    assert len(PINS.seat_leds) == 7
    table.console.set_seat_led(9, "action")
    assert table.sink == [(9, "action")]
    assert table.console.seat_led(9) == "action"
    assert all(table.pins.input(pin) is False for pin in PINS.seat_leds)


def test_all_leds_off_clears_pins_and_nodes(table: Table) -> None:
    table.console.set_seat_led(2, "action")
    table.console.set_seat_led(9, "all_in")
    table.sink.clear()
    table.console.all_leds_off()
    assert all(table.pins.input(pin) is False for pin in PINS.seat_leds)
    assert (9, "off") in table.sink and (2, "off") in table.sink


def test_led_command_is_a_wire_led_frame_the_node_understands() -> None:
    msg, payload = led_command(6, "all_in")
    assert msg == wire.MSG_CMD_LED
    seat, mode = wire.unpack_led(payload)
    assert (seat, wire.LED_MODE_NAMES[mode]) == (6, "pulse")
    assert wire.LED_MODE_NAMES[wire.unpack_led(led_command(1, "off")[1])[1]] == "off"


def test_console_doctests() -> None:
    result = doctest.testmod(pokertable.hardware.console)
    assert result.attempted > 0 and result.failed == 0


# -- misconfiguration -------------------------------------------------------------------


def test_bad_led_calls_name_the_field(table: Table) -> None:
    with pytest.raises(ConsoleError, match="mode: 'green'"):
        table.console.set_seat_led(1, "green")  # type: ignore[arg-type]
    with pytest.raises(ConsoleError, match="seat: 0"):
        table.console.set_seat_led(0, "action")
    assert table.sink == []


def test_pin_map_refuses_duplicates_and_reserved_pins() -> None:
    with pytest.raises(ConsoleError, match=r"gpio.pins.fold: GPIO17 is already check_call"):
        ConsolePinMap.from_config({"fold": 17})
    with pytest.raises(ConsoleError, match=r"gpio.pins.confirm: GPIO14 is reserved for UART TXD"):
        ConsolePinMap.from_config({"confirm": 14})
    with pytest.raises(ConsoleError, match=r"gpio.pins.seat_leds\[1\] \(seat 2\): GPIO10 .*SPI0"):
        ConsolePinMap.from_config({"seat_leds": [12, 10]})
    with pytest.raises(ConsoleError, match=r"gpio.pins.pot: 31 is not a BCM"):
        ConsolePinMap.from_config({"pot": 31})
    with pytest.raises(ConsoleError, match=r"gpio.pins: seat_led_2 is missing"):
        ConsolePinMap.from_config({"seat_led_1": 12, "seat_led_3": 16})
    with pytest.raises(ConsoleError, match=r"gpio.pins.seat_led_x: not seat_led_<seat"):
        ConsolePinMap.from_config({"seat_led_x": 12})
    with pytest.raises(ConsoleError, match="not both"):
        ConsolePinMap.from_config({"seat_led_1": 12, "seat_leds": [16]})
    with pytest.raises(ConsoleError, match=r"gpio.pins.shuffle: unknown key"):
        ConsolePinMap.from_config({"shuffle": 9})
    with pytest.raises(ConsoleError, match="seat_leds: 12 is not a list"):
        ConsolePinMap.from_config({"seat_leds": 12})


def test_pin_map_from_config_overrides_only_given_keys() -> None:
    pin_map = ConsolePinMap.from_config({"hand_start": 25, "seat_leds": [12, 16]})
    assert pin_map.hand_start == 25 and pin_map.seat_leds == (12, 16)
    assert pin_map.fold == DEFAULT_PIN_MAP.fold
    flat = ConsolePinMap.from_config({"seat_led_2": 16, "seat_led_1": 12, "undo": 25})
    assert flat.seat_leds == (12, 16) and flat.undo == 25


def test_default_pin_map_avoids_uart_and_spi() -> None:
    used = set(DEFAULT_PIN_MAP.buttons()) | set(DEFAULT_PIN_MAP.seat_leds)
    assert len(used) == 17
    assert not used & {7, 8, 9, 10, 11, 14, 15}


def test_a_pin_already_taken_on_the_backend_stops_the_console() -> None:
    clock = FakeClock()
    pins = FakeGpioBackend(clock)
    pins.setup_output(DEFAULT_PIN_MAP.undo)  # someone else holds GPIO24
    with pytest.raises(GpioError, match="pin 24: already set up"):
        DealerConsole(pins, DEFAULT_PIN_MAP, clock)


def test_long_press_must_exceed_bouncetime() -> None:
    clock = FakeClock()
    with pytest.raises(ConsoleError, match=r"gpio\.long_press_ms: 20 must exceed"):
        DealerConsole(FakeGpioBackend(clock), DEFAULT_PIN_MAP, clock, long_press_ms=20)


# -- property: bounce never doubles a press ---------------------------------------------

BUTTON_NAMES = sorted(set(DEFAULT_PIN_MAP.buttons().values()) - {"undo"})


@settings(max_examples=60, deadline=None)
@given(
    taps=st.lists(
        st.tuples(
            st.sampled_from(BUTTON_NAMES),
            st.integers(min_value=0, max_value=7).map(lambda n: 2 * n + 1),  # odd: ends pressed
            st.integers(min_value=0, max_value=30),  # bounce lasts up to the bouncetime
            st.integers(min_value=31, max_value=2_000),  # hold
            st.integers(min_value=31, max_value=2_000),  # pause before the next tap
        ),
        max_size=12,
    )
)
def test_any_bounce_within_the_bouncetime_gives_exactly_one_event_per_tap(
    taps: list[tuple[str, int, int, int, int]],
) -> None:
    table = Table(bouncetime_ms=30)
    expected: list[tuple[str, int]] = []
    for name, bounces, within, hold, pause in taps:
        pin = getattr(PINS, name)
        settled = table.clock.ticks_ms() + (within if bounces > 1 else 0)
        expected.append((name, settled + 30))  # lgpio: reported once still for 30 ms
        table.pins.bounce(pin, transitions=bounces, within_ms=within)
        table.clock.advance(hold)
        table.pins.bounce(pin, transitions=bounces, within_ms=within)
        table.clock.advance(pause)
        table.console.tick()
    names = {HandStartPressed: "hand_start", FloorCallPressed: "floor_call",
             ClockCallPressed: "clock_call", ConfirmPressed: "confirm"}
    got = [(e.kind if isinstance(e, DeclarationPressed) else names[type(e)], e.at_ms)
           for e in table.drain()]
    assert got == expected


@settings(max_examples=60, deadline=None)
@given(hold=st.integers(min_value=31, max_value=3_000), bounces=st.integers(0, 5))
def test_undo_scope_follows_the_hold_time_whatever_the_bounce(hold: int, bounces: int) -> None:
    table = Table(bouncetime_ms=30, long_press_ms=800)
    table.pins.bounce(PINS.undo, transitions=2 * bounces + 1, within_ms=20)
    table.clock.advance(hold)
    table.pins.bounce(PINS.undo, transitions=2 * bounces + 1, within_ms=20)
    table.clock.advance(30)
    (event,) = table.drain()
    assert isinstance(event, UndoPressed)
    bounce_ms = 20 if bounces else 0  # from settling down to settling up
    assert event.held_ms == hold + bounce_ms
    assert event.scope == ("last_declaration" if event.held_ms >= 800 else "cancel_pending")
