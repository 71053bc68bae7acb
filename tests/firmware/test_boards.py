"""Each board's pin map builds a working node through firmware/main.py (under MicroPython)."""

import subprocess
from collections.abc import Callable

import pytest

RunMp = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize("board", ["rp2040_pico", "esp32_devkit"])
@pytest.mark.parametrize("transport", ["uart", "rs485"])
def test_board_builds_and_reads_a_tag(run_mp: RunMp, board: str, transport: str) -> None:
    assert f"PASS board {board} {transport}" in run_mp("mp_board_check.py", board, transport).stdout


def _host_machine():  # type: ignore[no-untyped-def]
    """The host `machine` shim, loaded under another name (CPython has no `machine`)."""
    import importlib.util

    from .conftest import FIRMWARE

    spec = importlib.util.spec_from_file_location("host_machine", FIRMWARE / "host" / "machine.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _board_pins(board: dict[str, object]) -> list[int]:
    pins: list[int] = []
    for value in board.values():
        if isinstance(value, dict):
            pins += [v for k, v in value.items() if k not in ("id", "baudrate")]
        elif isinstance(value, list):
            pins += value
        elif isinstance(value, int):
            pins.append(value)
    return pins


@pytest.mark.parametrize("board", ["rp2040_pico", "esp32_devkit"])
def test_board_map_uses_no_strapping_flash_or_psram_pin(board: str) -> None:
    import json

    from .conftest import FIRMWARE

    machine = _host_machine()
    machine.sim_board(board)
    for pin in _board_pins(json.loads((FIRMWARE / "boards" / f"{board}.json").read_text())):
        machine._check_pin(pin, machine.Pin.IN)
    assert machine.sim_hazards() == []


def test_the_wave1_esp32_pins_are_flagged() -> None:
    """PN5180 CS on GPIO5, the LED on GPIO2, UART2 on 16/17: what the fake must catch."""
    machine = _host_machine()
    machine.sim_board("esp32_devkit")
    for pin in (5, 2, 16, 17):
        machine._check_pin(pin, machine.Pin.OUT)
    hazards = " ".join(machine.sim_hazards())
    assert "GPIO5" in hazards and "GPIO2" in hazards and "PSRAM" in hazards
    with pytest.raises(ValueError, match="input only"):
        machine.Pin(34, machine.Pin.OUT)
    with pytest.raises(ValueError, match="invalid pin"):
        machine.Pin(7)  # SPI flash
