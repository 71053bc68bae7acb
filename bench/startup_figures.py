"""Start-up figures: how long a ``pokertable`` command takes before it has done anything.

Every CLI call and every systemd start pays its imports. Ours: ``pokertable --help`` and
``pokertable replay`` of one hand (with a showdown, so the evaluator loads), each a fresh
process. The peer is the floor any Python command pays: a bare ``python -c pass`` with the
same interpreter and site-packages. They alternate, ours then the peer, five times.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from pokertable.bench.measure import Figure, interleave, seconds

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "side-pot.phh"
PEER_NAME = "bare `python -c pass` (same interpreter)"


def _command(*args: str) -> float:
    argv = [sys.executable, "-m", "pokertable.controller.cli", *args]
    return seconds(lambda: subprocess.run(argv, check=True, capture_output=True))


def figures(repeats: int = 5) -> dict[str, dict[str, Any]]:
    def peer() -> float:
        return seconds(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True))

    out = {}
    for name, args in (
        ("startup_help_s", ("--help",)),
        ("startup_replay_one_hand_s", ("replay", str(EXAMPLE))),
    ):
        fig = Figure(name, "s", PEER_NAME, higher_is_better=False, target="<= 0.3 s")
        for o, p in zip(*interleave(lambda a=args: _command(*a), peer, repeats), strict=True):
            fig.add(o, p)
        out[name] = fig.to_json()
    return out
