"""Node main loop, point-to-point and RS-485 links under MicroPython (fake clock, no sleeping)."""

import subprocess
from collections.abc import Callable

import pytest

RunMp = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize(
    "case",
    [
        "p2p_birth_snapshots_heartbeat",
        "p2p_commands",  # PING/LED/CONFIGURE/POLL acked, bad CONFIGURE not, junk counted
        "rs485_only_when_polled",  # silent until polled, DE high only for the burst
        "rs485_burst_budget_acks_last",  # fits the master's window; ACK closes it
        "reader_timeout_counts_reset",
    ],
)
def test_node_case(run_mp: RunMp, case: str) -> None:
    assert f"PASS {case}" in run_mp("mp_node_check.py", case).stdout
