"""GPIO pins behind one small interface, so the dealer console runs on a Pi and in tests alike.

In the spirit of gpiozero's pin factories, the console never imports ``RPi.GPIO``: it takes a
:class:`PinBackend`. Only the composition root picks one, from the ``[gpio] backend`` setting::

    backend = select_backend("auto")    # RPi.GPIO on a Pi (rpi-lgpio on a Pi 5), else an error
    backend.setup_input(17, pull_up=True, on_edge=print, bouncetime_ms=30, edge="falling")

Tests build :class:`FakeGpioBackend` explicitly, with a :class:`~hardware.clock.FakeClock`, and
press buttons on it. The fake debounces as **rpi-lgpio** does, because that is what a Pi
runs (the ``pi`` extra installs rpi-lgpio, the RPi.GPIO drop-in on the kernel's gpiochip
interface; the only one that works on a Pi 5). Its documented difference from RPi.GPIO
(rpi-lgpio docs, "Differences: Debounce"): lgpio reports an edge only once the level has
been **stable for the whole bouncetime**, at the end of that time; RPi.GPIO reports the
first edge at once and drops every edge for the bouncetime after it. So under lgpio a
glitch or a tap shorter than the bouncetime is never reported, and the chatter of a
release after a long hold never leaks a second press. ``debounce="rpi-gpio"`` keeps the
old library's rule for comparison. Everything else follows RPi.GPIO's API (BCM numbers,
edge selection, RuntimeError on a pin that was never set up)::

    clock = FakeClock()
    pins = FakeGpioBackend(clock)
    pins.setup_input(17, pull_up=True, on_edge=seen.append, bouncetime_ms=30, edge="falling")
    pins.bounce(17, transitions=5, within_ms=4)   # contact bounce, pin ends low: no call yet
    clock.advance(30)                             # stable for 30 ms: one callback
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from pokertable.hardware.clock import Clock, FakeClock
from pokertable.hardware.errors import HardwareError

Edge = Literal["falling", "rising", "both"]
Debounce = Literal["lgpio", "rpi-gpio"]
EdgeCallback = Callable[[int], None]
BackendName = Literal["auto", "rpi", "fake"]

EDGES: tuple[Edge, ...] = ("falling", "rising", "both")
BACKEND_NAMES: tuple[BackendName, ...] = ("auto", "rpi", "fake")
# BCM numbers on the 40-pin header of every Pi since the B+ (GPIO0..GPIO27).
BCM_PINS = range(28)
# The board's name from the firmware's device tree; POKERTABLE_MODEL_FILE names another file
# (install.sh reads the same variable) so an emulated Pi (deploy/check-arm.sh) can say which
# board it stands for.
DEVICE_TREE_MODEL = Path(os.environ.get("POKERTABLE_MODEL_FILE", "/proc/device-tree/model"))


class GpioError(HardwareError, RuntimeError):
    """A pin was misused or no backend fits; a RuntimeError, as RPi.GPIO raises for misuse."""


class PinBackend(Protocol):
    """The five operations the console needs from a GPIO library (BCM numbering)."""

    def setup_input(
        self,
        pin: int,
        *,
        pull_up: bool,
        on_edge: EdgeCallback | None,
        bouncetime_ms: int = 0,
        edge: Edge = "both",
    ) -> None: ...

    def setup_output(self, pin: int, *, initial: bool = False) -> None: ...

    def output(self, pin: int, value: bool) -> None: ...

    def input(self, pin: int) -> bool: ...

    def cleanup(self) -> None: ...


def _check_pin(pin: int) -> None:
    if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
        raise GpioError(f"pin: {pin!r} is not a BCM GPIO number 0..27")


def _check_input_args(edge: str, bouncetime_ms: int) -> None:
    if edge not in EDGES:
        raise GpioError(f"edge: {edge!r} not one of {EDGES}")
    if bouncetime_ms < 0:
        raise GpioError(f"bouncetime_ms: {bouncetime_ms} must be >= 0")


@dataclass(slots=True)
class _FakePin:
    is_output: bool
    level: bool
    pull_up: bool = False
    on_edge: EdgeCallback | None = None
    edge: Edge = "both"
    bouncetime_ms: int = 0
    last_call_ms: int | None = None  # rpi-gpio: when the last edge was reported
    reported: bool = False  # lgpio: the level last reported (the idle level at first)
    changed_ms: int = 0  # lgpio: when the level last changed


class FakeGpioBackend:
    """Pins in memory that behave like the real ones, driven by a test through a fake clock.

    Inputs idle at their pull level; :meth:`press` pulls a pull-up pin low (a button to
    ground) or a pull-down pin high. With ``debounce="lgpio"`` (the default, what a Pi
    runs) a level change is reported once it has held for ``bouncetime_ms``: when the
    FakeClock is advanced past that point, or, on a real clock, from a timer thread as
    lgpio's own thread does. With ``debounce="rpi-gpio"`` an edge calls back at once
    unless it comes within ``bouncetime_ms`` of the last accepted one. Either way only
    the selected edge calls back. Callbacks run outside the lock, so a callback may read
    pins, as a real callback does.
    """

    def __init__(self, clock: Clock, *, debounce: Debounce = "lgpio") -> None:
        if debounce not in ("lgpio", "rpi-gpio"):
            raise GpioError(f"debounce: {debounce!r} not one of ('lgpio', 'rpi-gpio')")
        self._clock = clock
        self.debounce = debounce
        self._pins: dict[int, _FakePin] = {}
        self._lock = threading.Lock()

    # -- the PinBackend interface ------------------------------------------------------

    def setup_input(
        self,
        pin: int,
        *,
        pull_up: bool,
        on_edge: EdgeCallback | None,
        bouncetime_ms: int = 0,
        edge: Edge = "both",
    ) -> None:
        _check_pin(pin)
        _check_input_args(edge, bouncetime_ms)
        with self._lock:
            self._refuse_reuse(pin)
            self._pins[pin] = _FakePin(
                is_output=False,
                level=pull_up,
                pull_up=pull_up,
                on_edge=on_edge,
                edge=edge,
                bouncetime_ms=bouncetime_ms,
                reported=pull_up,
                changed_ms=self._clock.ticks_ms(),
            )

    def setup_output(self, pin: int, *, initial: bool = False) -> None:
        _check_pin(pin)
        with self._lock:
            self._refuse_reuse(pin)
            self._pins[pin] = _FakePin(is_output=True, level=bool(initial))

    def output(self, pin: int, value: bool) -> None:
        with self._lock:
            state = self._configured(pin)
            if not state.is_output:
                raise GpioError(f"pin {pin}: the GPIO channel has not been set up as an OUTPUT")
            state.level = bool(value)

    def input(self, pin: int) -> bool:
        """The pin's level; outputs read back what was last written, as on the chip."""
        with self._lock:
            return self._configured(pin).level

    def cleanup(self) -> None:
        """Forget every pin, as ``GPIO.cleanup()`` returns them to unconfigured inputs."""
        with self._lock:
            self._pins.clear()

    # -- what the outside world does to the pins (tests) --------------------------------

    def press(self, pin: int) -> None:
        """Close the button on ``pin``: to ground for a pull-up input, to 3V3 for a pull-down."""
        self.drive(pin, not self._input_state(pin).pull_up)

    def release(self, pin: int) -> None:
        """Open the button: the pull resistor brings the pin back to its idle level."""
        self.drive(pin, self._input_state(pin).pull_up)

    def bounce(self, pin: int, transitions: int, within_ms: int) -> None:
        """Toggle ``pin`` ``transitions`` times spread evenly over ``within_ms``, like a contact.

        The clock advances between toggles (not after the last). An odd count changes the
        level: from idle, ``bounce(pin, 5, 4)`` is a press that chatters and ends pressed.
        """
        clock = self._clock
        if not isinstance(clock, FakeClock):
            raise GpioError("bounce() moves time: build the fake backend with a FakeClock")
        if transitions < 1:
            raise GpioError(f"transitions: {transitions} must be >= 1")
        if within_ms < 0:
            raise GpioError(f"within_ms: {within_ms} must be >= 0")
        start_ms = clock.ticks_ms()
        for i in range(transitions):
            due_ms = start_ms + (within_ms * i) // max(transitions - 1, 1)
            clock.advance(due_ms - clock.ticks_ms())
            self.drive(pin, not self._input_state(pin).level)

    def drive(self, pin: int, level: bool) -> None:
        """Set an input pin's level from outside; report the edge as the library would."""
        callbacks: list[EdgeCallback] = []
        due_ms: int | None = None
        with self._lock:
            state = self._input_state_locked(pin)
            now = self._clock.ticks_ms()
            if self.debounce == "lgpio":
                callbacks += self._due_locked(state, now)  # an earlier, stable change first
            if state.level != level:
                state.level = level
                if self.debounce == "rpi-gpio":
                    callbacks += self._rpi_gpio_edge_locked(state, now)
                else:
                    state.changed_ms = now
                    callbacks += self._due_locked(state, now)  # a bouncetime of 0
                    if state.level != state.reported:
                        due_ms = now + state.bouncetime_ms
        for callback in callbacks:
            callback(pin)
        if due_ms is not None:
            self._poll_at(due_ms)

    def _poll_at(self, due_ms: int) -> None:
        """Look again once the level may have been stable long enough, as lgpio's thread."""
        clock = self._clock
        if isinstance(clock, FakeClock):
            clock.call_at(due_ms, self.poll)
        else:
            delay_s = max(due_ms - clock.ticks_ms(), 0) / 1000
            timer = threading.Timer(delay_s, self.poll)
            timer.daemon = True
            timer.start()

    def poll(self) -> None:
        """Report every level that has now been stable for its bouncetime (lgpio)."""
        if self.debounce != "lgpio":
            return
        calls: list[tuple[EdgeCallback, int]] = []
        with self._lock:
            now = self._clock.ticks_ms()
            for pin, state in self._pins.items():
                if not state.is_output:
                    calls += [(callback, pin) for callback in self._due_locked(state, now)]
        for callback, pin in calls:
            callback(pin)

    @staticmethod
    def _wanted(state: _FakePin, rising: bool) -> bool:
        return state.on_edge is not None and (
            state.edge == "both" or (state.edge == "rising") == rising
        )

    def _due_locked(self, state: _FakePin, now: int) -> list[EdgeCallback]:
        """lgpio: a change that has held for the bouncetime is reported, once."""
        if state.level == state.reported or now - state.changed_ms < state.bouncetime_ms:
            return []
        state.reported = state.level
        if self._wanted(state, rising=state.level):
            assert state.on_edge is not None
            return [state.on_edge]
        return []

    def _rpi_gpio_edge_locked(self, state: _FakePin, now: int) -> list[EdgeCallback]:
        """RPi.GPIO: report at once, unless within the bouncetime of the last report."""
        if not self._wanted(state, rising=state.level):
            return []
        last = state.last_call_ms
        if last is None or state.bouncetime_ms == 0 or now - last > state.bouncetime_ms:
            state.last_call_ms = now
            assert state.on_edge is not None
            return [state.on_edge]
        return []

    def is_configured(self, pin: int) -> bool:
        with self._lock:
            return pin in self._pins

    # -- internals -----------------------------------------------------------------------

    def _refuse_reuse(self, pin: int) -> None:
        if pin in self._pins:
            kind = "an output" if self._pins[pin].is_output else "an input"
            raise GpioError(f"pin {pin}: already set up as {kind}; call cleanup() first")

    def _configured(self, pin: int) -> _FakePin:
        _check_pin(pin)
        state = self._pins.get(pin)
        if state is None:
            raise GpioError(f"pin {pin}: you must setup() the GPIO channel first")
        return state

    def _input_state_locked(self, pin: int) -> _FakePin:
        state = self._configured(pin)
        if state.is_output:
            raise GpioError(f"pin {pin}: is an output; only inputs can be driven from outside")
        return state

    def _input_state(self, pin: int) -> _FakePin:
        with self._lock:
            return self._input_state_locked(pin)


class RpiGpioBackend:
    """The real pins through ``RPi.GPIO`` (rpi-lgpio provides the same module on a Pi 5).

    The module is imported here, not at import time, so nothing off a Pi needs it. Pins
    are BCM numbers. Like the fake, a second setup of a pin is refused instead of
    RPi.GPIO's "channel already in use" warning, because it is always a pin-map mistake.
    """

    def __init__(self, gpio_module: Any | None = None) -> None:
        if gpio_module is None:
            try:
                gpio_module = importlib.import_module("RPi.GPIO")
            except ImportError as exc:
                raise GpioError(
                    "RPi.GPIO is not importable: install the Pi extra (pip install '.[pi]', "
                    "which brings rpi-lgpio) on the Raspberry Pi, in a venv that sees Pi OS's "
                    f"python3-lgpio (docs/packaging.md, GPIO) ({exc})"
                ) from exc
        self._gpio: Any = gpio_module
        try:
            self._gpio.setwarnings(False)
            self._gpio.setmode(self._gpio.BCM)  # rpi-lgpio opens /dev/gpiochipN here
        except Exception as exc:  # lgpio.error or RuntimeError: the libraries share no base
            raise GpioError(
                f"cannot open the GPIO chip: {exc} (no access: add the user to the gpio "
                "group; wrong chip on a Pi 5: set RPI_LGPIO_CHIP, docs/install-pi.md)"
            ) from exc
        self._used: set[int] = set()
        self._lock = threading.Lock()

    def setup_input(
        self,
        pin: int,
        *,
        pull_up: bool,
        on_edge: EdgeCallback | None,
        bouncetime_ms: int = 0,
        edge: Edge = "both",
    ) -> None:
        _check_pin(pin)
        _check_input_args(edge, bouncetime_ms)
        g = self._gpio
        with self._lock:
            if pin in self._used:
                raise GpioError(f"pin {pin}: already set up; call cleanup() first")
            with _pin_errors(pin):
                g.setup(pin, g.IN, pull_up_down=g.PUD_UP if pull_up else g.PUD_DOWN)
            self._used.add(pin)
        if on_edge is not None:
            kind = {"falling": g.FALLING, "rising": g.RISING, "both": g.BOTH}[edge]
            with _pin_errors(pin):
                if bouncetime_ms > 0:  # RPi.GPIO refuses bouncetime=0
                    g.add_event_detect(pin, kind, callback=on_edge, bouncetime=bouncetime_ms)
                else:
                    g.add_event_detect(pin, kind, callback=on_edge)

    def setup_output(self, pin: int, *, initial: bool = False) -> None:
        _check_pin(pin)
        g = self._gpio
        with self._lock:
            if pin in self._used:
                raise GpioError(f"pin {pin}: already set up; call cleanup() first")
            with _pin_errors(pin):
                g.setup(pin, g.OUT, initial=g.HIGH if initial else g.LOW)
            self._used.add(pin)

    def output(self, pin: int, value: bool) -> None:
        self._gpio.output(pin, self._gpio.HIGH if value else self._gpio.LOW)

    def input(self, pin: int) -> bool:
        return bool(self._gpio.input(pin))

    def cleanup(self) -> None:
        """Release only our pins (RPi.GPIO takes a list), then forget them."""
        with self._lock:
            pins = sorted(self._used)
            self._used.clear()
        if pins:
            self._gpio.cleanup(pins)


@contextlib.contextmanager
def _pin_errors(pin: int) -> Iterator[None]:
    """The library's error for one pin (lgpio's 'GPIO busy': another process holds it) as
    a GpioError naming the pin."""
    try:
        yield
    except GpioError:
        raise
    except Exception as exc:  # lgpio.error or RuntimeError: the libraries share no base
        raise GpioError(f"pin {pin}: {exc} (another program may hold it)") from exc


def running_on_pi(model_path: Path = DEVICE_TREE_MODEL) -> str | None:
    """The board's model string when this is a Raspberry Pi, else None."""
    try:
        model = model_path.read_bytes().rstrip(b"\x00\n").decode("utf-8", "replace")
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def select_backend(
    name: str,
    *,
    clock: Clock | None = None,
    model_path: Path = DEVICE_TREE_MODEL,
) -> PinBackend:
    """The backend named by config; ``auto`` never falls back to the fake.

    ``clock`` serves the fake's bouncetime: pass the application's clock for a demo whose
    buttons are pressed in software, or a FakeClock in tests (the default).

    A table that silently ran on fake pins would ignore every button the dealer pressed,
    so ``auto`` on a Pi without RPi.GPIO is an error, and so is ``auto`` off a Pi: ask for
    ``fake`` by name to run without a console (demo, simulator).
    """
    if name == "fake":
        return FakeGpioBackend(clock if clock is not None else FakeClock())
    if name == "rpi":
        return RpiGpioBackend()
    if name == "auto":
        model = running_on_pi(model_path)
        if model is None:
            raise GpioError(
                f'gpio backend "auto": not a Raspberry Pi ({model_path} does not name one); '
                'set [gpio] backend = "fake" to run without a dealer console'
            )
        try:
            return RpiGpioBackend()
        except GpioError as exc:
            raise GpioError(f'gpio backend "auto" on {model}: {exc}') from exc
    raise GpioError(f"gpio backend: {name!r} not one of {BACKEND_NAMES}")
