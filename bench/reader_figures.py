"""Reader-node figures: bet latency and stack settle time beside the ISO 15693 air time.

Runs ``firmware/host/reader_timing.py`` (the real node firmware on the datasheet PN5180
fake, on simulated time charged at RP2040 MicroPython costs; its docstring and
docs/wire-protocol.md, "Node timing model", give the calibration) under the MicroPython
unix port. The peer column is the ISO 15693 air-time floor of one inventory of the same
tags (no collisions, no STAY QUIET, no host time): what no reader could beat; a new chip
needs two inventories (present_after 2), a chip taken off three (absent_after 3).
Figures are simulated time, so they do not depend on this machine's load.

    pokertable bench --only readers
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from pokertable.hardware.simulator import default_micropython

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
PEER_NAME = "ISO 15693 air-time floor, one inventory of the same tags (no host time)"


def measure(trials: int = 20) -> dict[str, Any]:
    """One run of the timing model: its JSON line."""
    env = dict(os.environ)
    env["MICROPYPATH"] = f"{FIRMWARE / 'host'}:{FIRMWARE}"
    proc = subprocess.run(
        [str(default_micropython()), str(FIRMWARE / "host" / "reader_timing.py"), str(trials)],
        capture_output=True, text=True, env=env, timeout=3600, check=True,
    )
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def figures(trials: int = 20) -> dict[str, dict[str, Any]]:
    m = measure(trials)

    def figure(
        ours: float, spread: list[float], peer: float, target: str, n: int
    ) -> dict[str, Any]:
        return {"ours": ours, "ours_spread": spread, "peer": peer, "peer_spread": None,
                "repeats": n, "unit": "ms (simulated RP2040)", "peer_name": PEER_NAME,
                "ratio": round(peer / ours, 2) if ours else None, "target": target, "note": ""}

    bets = m["bets"]
    return {
        "readers_bet_latency_p50": figure(m["bet_p50_ms"], [m["bet_min_ms"], m["bet_max_ms"]],
                                          m["air_floor_bet_ms"], "", bets),
        "readers_bet_latency_p95": figure(m["bet_p95_ms"], [m["bet_min_ms"], m["bet_max_ms"]],
                                          m["air_floor_bet_ms"], "<= 250 ms", bets),
        "readers_stack40_settle": figure(m["settle_p50_ms"], [m["settle_min_ms"],
                                                              m["settle_max_ms"]],
                                         m["air_floor_stack_ms"], "<= 1500 ms", m["settles"]),
        # 10 of a 40-chip stack pushed into the seat's bet zone: the stack's settled
        # snapshot without them (three inventories for absent_after 3).
        "readers_stack_after_bet": figure(m["take_p50_ms"], [m["take_min_ms"], m["take_max_ms"]],
                                          m["air_floor_stack_ms"], "", m["takes"]),
    }
