"""The fake pin backend: RPi.GPIO's API (edges, pulls, misuse errors) with rpi-lgpio's debounce,
which is what a Pi runs; RPi.GPIO's own debounce rule on request, for comparison."""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path

import pytest

from pokertable.hardware.clock import FakeClock, MonotonicClock
from pokertable.hardware.gpio import (
    FakeGpioBackend,
    GpioError,
    RpiGpioBackend,
    running_on_pi,
    select_backend,
)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(start_ms=10_000)


@pytest.fixture
def pins(clock: FakeClock) -> FakeGpioBackend:
    return FakeGpioBackend(clock)


@pytest.fixture
def rpi_pins(clock: FakeClock) -> FakeGpioBackend:
    return FakeGpioBackend(clock, debounce="rpi-gpio")


def test_pull_up_idles_high_and_pull_down_idles_low(pins: FakeGpioBackend) -> None:
    pins.setup_input(17, pull_up=True, on_edge=None)
    pins.setup_input(27, pull_up=False, on_edge=None)
    assert pins.input(17) is True
    assert pins.input(27) is False
    pins.press(17)
    pins.press(27)
    assert (pins.input(17), pins.input(27)) == (False, True)
    pins.release(17)
    pins.release(27)
    assert (pins.input(17), pins.input(27)) == (True, False)


@pytest.mark.parametrize(
    ("edge", "expected"),
    [("falling", ["press"]), ("rising", ["release"]), ("both", ["press", "release"])],
)
def test_callback_fires_on_the_selected_edge_only(
    pins: FakeGpioBackend, clock: FakeClock, edge: str, expected: list[str]
) -> None:
    seen: list[str] = []
    pins.setup_input(
        17,
        pull_up=True,
        on_edge=lambda pin: seen.append("press" if not pins.input(pin) else "release"),
        bouncetime_ms=30,
        edge=edge,  # type: ignore[arg-type]
    )
    pins.press(17)
    clock.advance(200)
    pins.release(17)
    clock.advance(200)
    assert seen == expected


# -- rpi-lgpio's debounce (rpi-lgpio docs, "Differences: Debounce") ------------------------


def test_lgpio_reports_an_edge_only_after_the_level_held_for_the_bouncetime(
    pins: FakeGpioBackend, clock: FakeClock
) -> None:
    times: list[int] = []
    pins.setup_input(
        17, pull_up=True, on_edge=lambda pin: times.append(clock.ticks_ms()), bouncetime_ms=30,
        edge="falling",
    )
    start = clock.ticks_ms()
    pins.bounce(17, transitions=7, within_ms=6)  # odd count: chatters, ends pressed
    assert times == []  # still bouncing: nothing reported yet
    clock.advance(100)  # one step: the report still comes at the moment the level settled
    assert times == [start + 6 + 30]
    assert pins.input(17) is False


def test_lgpio_chart_from_its_docs_reports_late_where_rpi_gpio_reports_early(
    clock: FakeClock,
) -> None:
    """The documented waveform: rising edges at 2, 3 and 4 ms, high from 4 ms on; debounce
    3 ms. RPi.GPIO reports the first edge, at 2 ms; rpi-lgpio the stable one, at 7 ms."""
    reports: dict[str, list[int]] = {"lgpio": [], "rpi-gpio": []}
    for kind in reports:
        fake = FakeGpioBackend(clock, debounce=kind)  # type: ignore[arg-type]
        pin, start = 27, clock.ticks_ms()
        fake.setup_input(
            pin, pull_up=False, bouncetime_ms=3, edge="rising",
            on_edge=lambda _, k=kind, t0=start: reports[k].append(clock.ticks_ms() - t0),
        )
        clock.advance(2)
        for level in (True, False, True, False, True):  # up at 2, 3 and 4 ms in the chart
            fake.drive(pin, level)
            if level:
                clock.advance(1)
        clock.advance(10)
        fake.cleanup()
    assert reports == {"lgpio": [7], "rpi-gpio": [2]}


def test_lgpio_never_reports_a_glitch_shorter_than_the_bouncetime(
    pins: FakeGpioBackend, clock: FakeClock
) -> None:
    calls: list[int] = []
    pins.setup_input(17, pull_up=True, on_edge=calls.append, bouncetime_ms=30, edge="both")
    pins.press(17)
    clock.advance(29)
    pins.release(17)
    clock.advance(500)
    assert calls == []


def test_lgpio_equally_spaced_pulses_shorter_than_the_bouncetime_report_nothing(
    pins: FakeGpioBackend, clock: FakeClock
) -> None:
    calls: list[int] = []
    pins.setup_input(17, pull_up=False, on_edge=calls.append, bouncetime_ms=3, edge="rising")
    pins.bounce(17, transitions=12, within_ms=22)  # a level change every 2 ms
    clock.advance(50)
    assert calls == []  # ends low: no level was ever stable for 3 ms while high


# -- RPi.GPIO's debounce, kept for comparison ------------------------------------------------


def test_rpi_gpio_contact_bounce_inside_the_bouncetime_gives_one_callback(
    rpi_pins: FakeGpioBackend, clock: FakeClock
) -> None:
    calls: list[int] = []
    rpi_pins.setup_input(17, pull_up=True, on_edge=calls.append, bouncetime_ms=30, edge="falling")
    start = clock.ticks_ms()
    rpi_pins.bounce(17, transitions=7, within_ms=6)  # odd count: chatters, ends pressed
    assert calls == [17]
    assert rpi_pins.input(17) is False
    assert clock.ticks_ms() == start + 6


def test_rpi_gpio_bounce_longer_than_the_bouncetime_leaks_a_second_callback(
    rpi_pins: FakeGpioBackend, clock: FakeClock
) -> None:
    """The rule is 'ignore edges for bouncetime after the last accepted one', not a filter."""
    calls: list[int] = []
    rpi_pins.setup_input(17, pull_up=True, on_edge=calls.append, bouncetime_ms=5, edge="falling")
    rpi_pins.bounce(17, transitions=5, within_ms=40)  # falling edges at 0, 20 and 40 ms
    assert len(calls) == 3


def test_rpi_gpio_edge_exactly_at_the_bouncetime_is_still_dropped(
    rpi_pins: FakeGpioBackend, clock: FakeClock
) -> None:
    calls: list[int] = []
    rpi_pins.setup_input(17, pull_up=True, on_edge=calls.append, bouncetime_ms=30, edge="both")
    rpi_pins.press(17)
    clock.advance(30)
    rpi_pins.release(17)
    assert len(calls) == 1
    clock.advance(1)
    rpi_pins.press(17)
    assert len(calls) == 2


def test_unknown_debounce_rule_is_refused(clock: FakeClock) -> None:
    with pytest.raises(GpioError, match="debounce: 'pigpio'"):
        FakeGpioBackend(clock, debounce="pigpio")  # type: ignore[arg-type]


def test_zero_bouncetime_reports_every_edge(pins: FakeGpioBackend) -> None:
    calls: list[int] = []
    pins.setup_input(17, pull_up=True, on_edge=calls.append, bouncetime_ms=0, edge="both")
    pins.bounce(17, transitions=4, within_ms=0)
    assert len(calls) == 4


def test_outputs_are_readable_and_keep_their_level(pins: FakeGpioBackend) -> None:
    pins.setup_output(12, initial=True)
    pins.setup_output(16)
    assert (pins.input(12), pins.input(16)) == (True, False)
    pins.output(12, False)
    pins.output(16, True)
    assert (pins.input(12), pins.input(16)) == (False, True)


def test_reading_an_unconfigured_pin_raises_runtime_error(pins: FakeGpioBackend) -> None:
    with pytest.raises(RuntimeError, match=r"pin 5: you must setup\(\) the GPIO channel first"):
        pins.input(5)


def test_configuring_a_pin_twice_raises(pins: FakeGpioBackend) -> None:
    pins.setup_input(17, pull_up=True, on_edge=None)
    with pytest.raises(GpioError, match="pin 17: already set up as an input"):
        pins.setup_output(17)
    pins.setup_output(12)
    with pytest.raises(RuntimeError, match="pin 12: already set up as an output"):
        pins.setup_input(12, pull_up=True, on_edge=None)


def test_writing_an_input_or_driving_an_output_raises(pins: FakeGpioBackend) -> None:
    pins.setup_input(17, pull_up=True, on_edge=None)
    pins.setup_output(12)
    with pytest.raises(GpioError, match="not been set up as an OUTPUT"):
        pins.output(17, True)
    with pytest.raises(GpioError, match="pin 12: is an output"):
        pins.press(12)


@pytest.mark.parametrize("pin", [-1, 28, 40, True])
def test_pin_numbers_outside_bcm_range_are_refused(pins: FakeGpioBackend, pin: int) -> None:
    with pytest.raises(GpioError, match="not a BCM GPIO number"):
        pins.setup_output(pin)


def test_bad_edge_and_bouncetime_name_the_field(pins: FakeGpioBackend) -> None:
    with pytest.raises(GpioError, match="edge: 'up'"):
        pins.setup_input(17, pull_up=True, on_edge=None, edge="up")  # type: ignore[arg-type]
    with pytest.raises(GpioError, match="bouncetime_ms: -1"):
        pins.setup_input(17, pull_up=True, on_edge=None, bouncetime_ms=-1)


def test_cleanup_forgets_every_pin(pins: FakeGpioBackend) -> None:
    pins.setup_output(12, initial=True)
    pins.cleanup()
    with pytest.raises(GpioError, match="setup"):
        pins.input(12)
    pins.setup_input(12, pull_up=True, on_edge=None)  # free again
    assert pins.input(12) is True


def test_select_fake_by_name(clock: FakeClock) -> None:
    backend = select_backend("fake", clock=clock)
    assert isinstance(backend, FakeGpioBackend)


def test_fake_on_the_real_clock_debounces_in_real_time() -> None:
    """A demo presses buttons in software on the monotonic clock; bounce() needs a FakeClock."""
    backend = select_backend("fake", clock=MonotonicClock())
    assert isinstance(backend, FakeGpioBackend)
    reported = threading.Event()
    calls: list[int] = []
    backend.setup_input(17, pull_up=True, on_edge=calls.append, bouncetime_ms=10_000)
    backend.press(17)
    backend.release(17)  # well inside 10 s of the press: never stable, never reported
    backend.setup_input(
        27, pull_up=True, on_edge=lambda pin: reported.set(), bouncetime_ms=1, edge="falling"
    )
    backend.press(27)  # held: lgpio's timer thread reports it once it has been stable
    assert reported.wait(timeout=60), "a held press was never reported"
    assert calls == []
    with pytest.raises(GpioError, match="bounce\\(\\) moves time"):
        backend.bounce(17, transitions=3, within_ms=2)


def test_auto_off_a_pi_refuses_instead_of_faking(tmp_path: Path) -> None:
    with pytest.raises(GpioError, match=r'not a Raspberry Pi.*backend = "fake"'):
        select_backend("auto", model_path=tmp_path / "no-such-model")
    other = tmp_path / "model"
    other.write_bytes(b"Pine64 RockPro64\x00")
    with pytest.raises(GpioError, match="not a Raspberry Pi"):
        select_backend("auto", model_path=other)


def test_auto_on_a_pi_without_rpi_gpio_is_an_error_not_a_fallback(tmp_path: Path) -> None:
    if importlib.util.find_spec("RPi") is not None:
        pytest.skip("RPi.GPIO is installed here")
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert running_on_pi(model) == "Raspberry Pi 5 Model B Rev 1.0"
    with pytest.raises(GpioError, match=r"Raspberry Pi 5 Model B Rev 1\.0.*pip install"):
        select_backend("auto", model_path=model)
    with pytest.raises(GpioError, match="rpi-lgpio"):
        RpiGpioBackend()


def test_unknown_backend_name_is_refused() -> None:
    expected = r"gpio backend: 'pigpio' not one of \('auto', 'rpi', 'fake'\)"
    with pytest.raises(GpioError, match=expected):
        select_backend("pigpio")


class LgpioError(Exception):
    """What lgpio raises (``lgpio.error``): not a RuntimeError, not an OSError."""


class ChiplessGpio:
    """RPi.GPIO as rpi-lgpio behaves when the gpiochip cannot be opened (its docs' example
    with a wrong RPI_LGPIO_CHIP), or when another process holds a pin ('GPIO busy')."""

    BCM, IN, OUT, PUD_UP, PUD_DOWN, HIGH, LOW = 11, 1, 0, 22, 21, 1, 0

    def __init__(self, *, chip_opens: bool) -> None:
        self.chip_opens = chip_opens

    def setwarnings(self, flag: bool) -> None:
        pass

    def setmode(self, mode: int) -> None:
        if not self.chip_opens:
            raise LgpioError("can not open gpiochip")

    def setup(self, pin: int, direction: int, **kwargs: object) -> None:
        raise LgpioError("GPIO busy")


def test_a_gpiochip_that_cannot_open_is_one_gpio_error_naming_the_fix() -> None:
    with pytest.raises(GpioError, match=r"cannot open the GPIO chip: can not open gpiochip.*"
                       r"RPI_LGPIO_CHIP"):
        RpiGpioBackend(ChiplessGpio(chip_opens=False))


def test_a_pin_held_by_another_program_is_a_gpio_error_naming_the_pin() -> None:
    backend = RpiGpioBackend(ChiplessGpio(chip_opens=True))
    with pytest.raises(GpioError, match="pin 17: GPIO busy"):
        backend.setup_input(17, pull_up=True, on_edge=None)
    with pytest.raises(GpioError, match="pin 12: GPIO busy"):
        backend.setup_output(12)
