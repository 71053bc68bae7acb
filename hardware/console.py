"""The dealer console: buttons in, console events out; seat LEDs on the Pi and on the reader nodes.

Buttons are wired from a GPIO pin to ground (internal pull-up, so a press reads low). Each
press becomes one frozen event on ``console.events``; GPIO callbacks only record the edge
and enqueue, so the application drains the queue on its own thread::

    console = DealerConsole(select_backend("auto"), DEFAULT_PIN_MAP, MonotonicClock(),
                            led_sink=lambda seat, mode: bus.send(node, *led_command(seat, mode)))
    console.set_seat_led(4, "action")         # seat 4 is on the action
    event = console.events.get()              # DeclarationPressed(kind="fold", seat=4, at_ms=...)
    console.tick()                            # call every ~50 ms: blinks LEDs, resyncs buttons

A player who speaks before the action reaches him (TDA Rule 53): the dealer holds that
player's seat button (``seat_buttons``, optional) while pressing the declaration; the event
then names him as ``speaker`` beside the seat on the action.

Undo has two meanings by hold time: a short press cancels the declaration still pending
confirmation; a press held for ``long_press_ms`` or more undoes the last confirmed one.
The event is sent on release, when the hold time is known.
"""

from __future__ import annotations

import difflib
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from pokertable.firmware import wire
from pokertable.hardware.clock import Clock
from pokertable.hardware.errors import HardwareError
from pokertable.hardware.gpio import BCM_PINS, PinBackend

DeclarationKind = Literal["check_call", "bet_raise", "all_in", "fold", "pot"]
LedMode = Literal["off", "action", "all_in", "blink"]
UndoScope = Literal["cancel_pending", "last_declaration"]

DECLARATION_KINDS: tuple[DeclarationKind, ...] = get_args(DeclarationKind)
LED_MODES: tuple[LedMode, ...] = get_args(LedMode)
_DECLARATION_BY_BUTTON: Mapping[str, DeclarationKind] = {kind: kind for kind in DECLARATION_KINDS}

# Pins the console must not take: the reader bus UART (GPIO14/15) and SPI0 (GPIO7..11).
# GPIO0/1 (HAT EEPROM) and GPIO2/3 (I2C, with fixed 1k8 pull-ups) are avoided too.
RESERVED_PINS: Mapping[int, str] = {
    0: "HAT ID EEPROM (ID_SD)",
    1: "HAT ID EEPROM (ID_SC)",
    2: "I2C1 SDA",
    3: "I2C1 SCL",
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI",
    11: "SPI0 SCLK",
    14: "UART TXD (reader bus)",
    15: "UART RXD (reader bus)",
}

# How a console LED mode looks on a reader node's LED (wire.LED_MODE_NAMES).
WIRE_LED_MODE: Mapping[LedMode, str] = {
    "off": "off",
    "action": "on",
    "all_in": "pulse",
    "blink": "blink",
}

# Half-periods of the Pi-driven LEDs: all-in blinks slowly, "blink" (attention) quickly.
_HALF_PERIOD_MS: Mapping[LedMode, int] = {"all_in": 500, "blink": 125}


class ConsoleError(HardwareError):
    """The console's pin map or a call to it is wrong (the message names the field)."""


# -- events -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandStartPressed:
    at_ms: int


@dataclass(frozen=True, slots=True)
class DeclarationPressed:
    """A declaration button; ``seat`` is the seat whose action LED was lit, else None.

    ``speaker`` is the seat whose seat button was held down with it: that player spoke out
    of turn (R53); None when no seat button (or more than one) was held.
    """

    kind: DeclarationKind
    at_ms: int
    seat: int | None = None
    speaker: int | None = None


@dataclass(frozen=True, slots=True)
class FloorCallPressed:
    at_ms: int


@dataclass(frozen=True, slots=True)
class ClockCallPressed:
    at_ms: int


@dataclass(frozen=True, slots=True)
class ConfirmPressed:
    at_ms: int


@dataclass(frozen=True, slots=True)
class UndoPressed:
    """Sent on release; ``at_ms`` is the release time, ``held_ms`` how long it was held."""

    scope: UndoScope
    held_ms: int
    at_ms: int


ConsoleEvent = (
    HandStartPressed
    | DeclarationPressed
    | FloorCallPressed
    | ClockCallPressed
    | ConfirmPressed
    | UndoPressed
)


# -- pin map ------------------------------------------------------------------------------

_BUTTONS = (
    "hand_start",
    "check_call",
    "bet_raise",
    "all_in",
    "fold",
    "pot",
    "floor_call",
    "clock_call",
    "confirm",
    "undo",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsolePinMap:
    """BCM pin of each button, and of each seat's LED (``seat_leds[0]`` is seat 1).

    A seat without a Pi LED (more seats than free pins) still gets its LED on the reader
    node through the sink.
    """

    hand_start: int
    check_call: int
    bet_raise: int
    all_in: int
    fold: int
    pot: int
    floor_call: int
    clock_call: int
    confirm: int
    undo: int
    seat_leds: tuple[int, ...] = ()
    seat_buttons: tuple[int, ...] = ()  # optional: ``seat_buttons[0]`` names seat 1 (R53)

    def __post_init__(self) -> None:
        used: dict[int, str] = {}
        named = [(name, getattr(self, name)) for name in _BUTTONS]
        named += [(f"seat_leds[{i}] (seat {i + 1})", p) for i, p in enumerate(self.seat_leds)]
        named += [(f"seat_buttons[{i}] (seat {i + 1})", p) for i, p in enumerate(self.seat_buttons)]
        for name, pin in named:
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
                raise ConsoleError(f"gpio.pins.{name}: {pin!r} is not a BCM GPIO number 0..27")
            if pin in RESERVED_PINS:
                raise ConsoleError(
                    f"gpio.pins.{name}: GPIO{pin} is reserved for {RESERVED_PINS[pin]}"
                )
            if pin in used:
                raise ConsoleError(f"gpio.pins.{name}: GPIO{pin} is already {used[pin]}")
            used[pin] = name

    def buttons(self) -> dict[int, str]:
        """Pin -> button name."""
        return {getattr(self, name): name for name in _BUTTONS}

    @classmethod
    def from_config(cls, pins: Mapping[str, object]) -> ConsolePinMap:
        """Build from the ``[gpio.pins]`` table; keys not given keep the default map's pin.

        Seat LEDs are ``seat_led_1 = 12``, ``seat_led_2 = 16``, ... (seats 1..N, no gaps),
        or one ``seat_leds = [12, 16]`` list; either replaces all the default seat LEDs.
        """
        buttons = {key: value for key, value in pins.items() if key in _BUTTONS}
        seat_keys = {key: value for key, value in pins.items() if key.startswith("seat_led_")}
        lists = {"seat_leds", "seat_buttons"}
        unknown = sorted(set(pins) - set(buttons) - set(seat_keys) - lists)
        if unknown:
            close = difflib.get_close_matches(unknown[0], [*_BUTTONS, *sorted(lists)], n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ConsoleError(
                f"gpio.pins.{unknown[0]}: unknown key{hint} (known: {', '.join(_BUTTONS)}, "
                "seat_led_1.., seat_leds, seat_buttons)"
            )
        seat_buttons = pins.get("seat_buttons", ())
        if not isinstance(seat_buttons, list | tuple):
            raise ConsoleError(
                f"gpio.pins.seat_buttons: {seat_buttons!r} is not a list of BCM numbers"
            )
        leds: Sequence[object] = DEFAULT_PIN_MAP.seat_leds
        if "seat_leds" in pins:
            if seat_keys:
                raise ConsoleError("gpio.pins: give seat_leds or seat_led_N keys, not both")
            given = pins["seat_leds"]
            if not isinstance(given, list | tuple):
                raise ConsoleError(f"gpio.pins.seat_leds: {given!r} is not a list of BCM numbers")
            leds = given
        elif seat_keys:
            by_seat: dict[int, object] = {}
            for key, value in seat_keys.items():
                number = key.removeprefix("seat_led_")
                if not number.isdigit() or int(number) < 1:
                    raise ConsoleError(f"gpio.pins.{key}: not seat_led_<seat number from 1>")
                by_seat[int(number)] = value
            missing = sorted(set(range(1, max(by_seat) + 1)) - set(by_seat))
            if missing:
                raise ConsoleError(
                    f"gpio.pins: seat_led_{missing[0]} is missing (seat LEDs are seats 1..N)"
                )
            leds = [by_seat[seat] for seat in sorted(by_seat)]
        values: dict[str, object] = {name: getattr(DEFAULT_PIN_MAP, name) for name in _BUTTONS}
        values.update(buttons)
        values["seat_leds"] = tuple(leds)
        values["seat_buttons"] = tuple(seat_buttons)
        return cls(**values)  # type: ignore[arg-type]  # each value is checked in __post_init__


# The default wiring for a Pi (BCM numbers, 40-pin header); docs/install-pi.md has the table.
DEFAULT_PIN_MAP = ConsolePinMap(
    hand_start=4,
    check_call=17,
    bet_raise=27,
    all_in=22,
    fold=5,
    pot=6,
    floor_call=13,
    clock_call=26,
    confirm=23,
    undo=24,
    seat_leds=(12, 16, 18, 19, 20, 21, 25),
)


def led_command(seat: int, mode: LedMode) -> tuple[int, bytes]:
    """(message type, payload) that shows ``mode`` on a reader node's LED for ``seat``.

    >>> led_command(3, "action")
    (16, b'\\x03\\x01')
    """
    return wire.MSG_CMD_LED, wire.pack_led(seat, WIRE_LED_MODE[mode])


# -- the console --------------------------------------------------------------------------

LedSink = Callable[[int, LedMode], object]


class DealerConsole:
    """Buttons to events and seat LEDs, over any :class:`~hardware.gpio.PinBackend`."""

    def __init__(
        self,
        backend: PinBackend,
        pin_map: ConsolePinMap,
        clock: Clock,
        *,
        bouncetime_ms: int = 30,
        long_press_ms: int = 800,
        led_sink: LedSink | None = None,
    ) -> None:
        if bouncetime_ms < 0:
            raise ConsoleError(f"gpio.bouncetime_ms: {bouncetime_ms} must be >= 0")
        if long_press_ms <= bouncetime_ms:
            raise ConsoleError(
                f"gpio.long_press_ms: {long_press_ms} must exceed bouncetime_ms {bouncetime_ms}"
            )
        self.events: queue.Queue[ConsoleEvent] = queue.Queue()
        self._backend = backend
        self._pin_map = pin_map
        self._clock = clock
        self._long_press_ms = long_press_ms
        self._led_sink = led_sink
        self._buttons = pin_map.buttons()
        self._lock = threading.Lock()
        self._down_since: dict[int, int] = {}  # pin -> when the press was seen
        self._led_modes: dict[int, LedMode] = {}
        self._action_seat: int | None = None
        for pin in pin_map.seat_leds:
            backend.setup_output(pin, initial=False)
        self._seat_buttons = {pin: i + 1 for i, pin in enumerate(pin_map.seat_buttons)}
        for pin in (*self._buttons, *self._seat_buttons):
            backend.setup_input(
                pin, pull_up=True, on_edge=self._on_edge, bouncetime_ms=bouncetime_ms, edge="both"
            )

    @property
    def action_seat(self) -> int | None:
        with self._lock:
            return self._action_seat

    def seat_led(self, seat: int) -> LedMode:
        with self._lock:
            return self._led_modes.get(seat, "off")

    # -- buttons --------------------------------------------------------------------------

    def _on_edge(self, pin: int) -> None:
        """Runs on the GPIO library's thread: read the level, update the hold table, enqueue."""
        pressed = not self._backend.input(pin)
        now = self._clock.ticks_ms()
        with self._lock:
            event = self._transition(pin, pressed, now)
        if event is not None:
            self.events.put(event)

    def _transition(self, pin: int, pressed: bool, now: int) -> ConsoleEvent | None:
        since = self._down_since.get(pin)
        if pin in self._seat_buttons:  # held, not an event: it names who spoke (R53)
            if pressed and since is None:
                self._down_since[pin] = now
            elif not pressed and since is not None:
                del self._down_since[pin]
            return None
        name = self._buttons[pin]
        if pressed and since is None:
            self._down_since[pin] = now
            return None if name == "undo" else self._press_event(name, now)
        if not pressed and since is not None:
            del self._down_since[pin]
            if name == "undo":
                held = now - since
                long = held >= self._long_press_ms
                return UndoPressed(
                    scope="last_declaration" if long else "cancel_pending", held_ms=held, at_ms=now
                )
        return None

    def _press_event(self, name: str, now: int) -> ConsoleEvent:
        if name == "hand_start":
            return HandStartPressed(at_ms=now)
        if name == "floor_call":
            return FloorCallPressed(at_ms=now)
        if name == "clock_call":
            return ClockCallPressed(at_ms=now)
        if name == "confirm":
            return ConfirmPressed(at_ms=now)
        held = [seat for pin, seat in self._seat_buttons.items() if pin in self._down_since]
        return DeclarationPressed(
            kind=_DECLARATION_BY_BUTTON[name],
            at_ms=now,
            seat=self._action_seat,
            speaker=held[0] if len(held) == 1 else None,
        )

    def tick(self) -> None:
        """Blink the Pi's seat LEDs and catch releases the bouncetime swallowed.

        RPi.GPIO drops every edge within the bouncetime of the last one, so a very quick tap
        can lose its release; the level read here settles the button so the next press counts.
        """
        now = self._clock.ticks_ms()
        released: list[ConsoleEvent] = []
        with self._lock:
            for pin in list(self._down_since):
                if self._backend.input(pin):  # high = open (pull-up)
                    event = self._transition(pin, False, now)
                    if event is not None:
                        released.append(event)
            for seat, mode in self._led_modes.items():
                led_pin = self._seat_pin(seat)
                if led_pin is not None and mode in _HALF_PERIOD_MS:
                    self._backend.output(led_pin, (now // _HALF_PERIOD_MS[mode]) % 2 == 0)
        for event in released:
            self.events.put(event)

    # -- LEDs -----------------------------------------------------------------------------

    def set_seat_led(self, seat: int, mode: LedMode) -> None:
        """Show ``mode`` for ``seat`` on its Pi LED (if wired) and through the sink (the node)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 255:
            raise ConsoleError(f"seat: {seat!r} is not a seat number 1..255")
        if mode not in LED_MODES:
            raise ConsoleError(f"mode: {mode!r} not one of {LED_MODES}")
        now = self._clock.ticks_ms()
        with self._lock:
            if mode == "off":
                self._led_modes.pop(seat, None)
            else:
                self._led_modes[seat] = mode
            if mode == "action":
                self._action_seat = seat
            elif self._action_seat == seat:
                self._action_seat = None
            pin = self._seat_pin(seat)
            if pin is not None:
                half = _HALF_PERIOD_MS.get(mode)
                lit = mode == "action" or (half is not None and (now // half) % 2 == 0)
                self._backend.output(pin, lit)
        if self._led_sink is not None:
            self._led_sink(seat, mode)

    def all_leds_off(self) -> None:
        """Every lit seat off, on the Pi and the nodes (on shutdown, before GPIO cleanup)."""
        for seat in sorted(set(self._led_modes) | set(range(1, len(self._pin_map.seat_leds) + 1))):
            self.set_seat_led(seat, "off")

    def _seat_pin(self, seat: int) -> int | None:
        leds = self._pin_map.seat_leds
        return leds[seat - 1] if 1 <= seat <= len(leds) else None
