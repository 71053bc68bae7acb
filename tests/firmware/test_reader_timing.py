"""The node timing model behind `pokertable bench --only readers` runs and respects physics.

Figures belong in the bench; this only checks that the model runs the real firmware to
the end (every bet and stack is read and settles, a stack a bet came from is seen without
it) and never beats the ISO 15693 air time.
"""

import json
import subprocess

from .conftest import FIRMWARE, mp_env


def test_the_timing_model_reads_every_bet_and_never_beats_the_air_time(micropython) -> None:  # type: ignore[no-untyped-def]
    proc = subprocess.run(
        [str(micropython), str(FIRMWARE / "host" / "reader_timing.py"), "2"],
        capture_output=True, text=True, env=mp_env(), timeout=900, check=True,
    )
    m = json.loads(proc.stdout.strip().splitlines()[-1])
    assert m["bets"] == 2 and m["settles"] == 3 and m["takes"] == 3
    assert m["bet_min_ms"] >= m["air_floor_bet_ms"] > 0
    assert m["settle_min_ms"] >= m["air_floor_stack_ms"] > m["air_floor_bet_ms"]
    # A chip taken off needs three complete inventories of the 30 left (absent_after 3).
    assert m["take_min_ms"] >= 3 * m["air_floor_stack_ms"] * 30 // 40
