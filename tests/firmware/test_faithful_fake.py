"""The PN5180 driver and node loop against the datasheet-faithful fake (simulated time).

The wave-1 driver (kept unchanged in fixtures/wave1/) must fail against the fake: it never
arms TIMER1, so its first silent slot never ends. The fixed driver reads 1-30 tags with
the scan times real chips show, and the node answers every poll while it scans.
"""

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import HERE, mp_env

RunMp = Callable[..., subprocess.CompletedProcess[str]]


def test_wave1_driver_fails_against_the_faithful_fake(micropython: Path) -> None:
    env = mp_env()
    env["MICROPYPATH"] = os.pathsep.join([str(HERE / "fixtures" / "wave1"), env["MICROPYPATH"]])
    proc = subprocess.run(
        [str(micropython), str(HERE / "mp_faithful_check.py"), "wave1_driver_fails"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS wave1_driver_fails" in proc.stdout
    assert "no RX/timer IRQ" in proc.stdout


@pytest.mark.parametrize(
    "case",
    [
        "reset_sequence",  # >= 10 us pulse, 2.5 ms start-up, IDLE_IRQ, no SPI during boot
        "reads_1_to_30_tags",  # complete inventories, realistic simulated scan times
        "back_to_back_scans_see_everyone",  # minimum field-off time
        "rf_on_collision_avoidance",  # RF_ACTIVE_ERROR is a busy field, not an empty zone
        "general_error_is_not_an_empty_slot",
        "inventory_bounded_by_time",
        "150_chip_zone_completes_and_reports_removals",  # resumed across scans (issue #28)
        "150_chip_zone_completes_in_a_three_seat_node",  # 60 ms slices between bet sweeps
        "a_collided_slot_split_at_its_collision_bit_loses_no_tag",  # RX_COLL_POS, right or not
        "a_zone_that_cannot_complete_is_flagged",
        "crc_only_collisions_and_crc_errors_lose_no_tag",  # goal 5: CRC error != empty slot
        "a_late_answer_is_not_an_empty_zone",  # SOF seen as TIMER1 ran out
        "busy_rise_and_length_swept",  # goal 5: BUSY high after a frame, then low
        "tag_hold_times_swept",  # goal 5: STAY QUIET kept across short field gaps
        "node_answers_polls_while_scanning_20_chip_stacks",
        "node_survives_reader_faults",
        "trace_record_and_replay",  # a recorded SPI session replayed as the chip
        "main_never_stops_at_the_repl",
    ],
)
def test_faithful_case(run_mp: RunMp, case: str) -> None:
    assert f"PASS {case}" in run_mp("mp_faithful_check.py", case, timeout=300).stdout


def _spi_trace():  # type: ignore[no-untyped-def]
    import importlib.util

    from .conftest import FIRMWARE

    spec = importlib.util.spec_from_file_location("spi_trace", FIRMWARE / "host" / "spi_trace.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _logic_csv(frames: list[tuple[bytes, bytes]]) -> str:
    """What a logic analyser exports for these SPI mode-0 frames (one sample per edge)."""
    rows = ["Time [s],NSS,SCK,MOSI,MISO"]
    t = 0.0
    for mosi, miso in frames:
        rows.append(f"{t:.7f},1,0,1,1")
        t += 1e-6
        for o, i in zip(mosi, miso, strict=True):
            for bit in range(7, -1, -1):
                bo, bi = (o >> bit) & 1, (i >> bit) & 1
                rows.append(f"{t:.7f},0,0,{bo},{bi}")
                t += 2.5e-7
                rows.append(f"{t:.7f},0,1,{bo},{bi}")
                t += 2.5e-7
        rows.append(f"{t:.7f},0,0,0,0")
        t += 1e-6
    rows.append(f"{t:.7f},1,0,1,1")
    return "\n".join(rows)


def test_logic_analyser_csv_decodes_to_spi_frames() -> None:
    trace = _spi_trace()
    frames = [
        (bytes.fromhex("0402"), b"\xff\xff"),
        (bytes.fromhex("ffffffff"), bytes.fromhex("04000000")),
    ]
    got = trace.from_logic_csv(_logic_csv(frames))
    assert [(bytes.fromhex(f["mosi"]), bytes.fromhex(f["miso"])) for f in got] == frames
    with pytest.raises(ValueError, match="needs columns"):
        trace.from_logic_csv("Time,D0,D1\n0,1,1")
    with pytest.raises(ValueError, match="trace line 2"):
        trace.loads('{"t_us": 0, "mosi": "04", "miso": "ff"}\nnot json')
