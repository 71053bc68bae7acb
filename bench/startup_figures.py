"""Start-up figures: how long a ``pokertable`` command takes before it has done anything.

Every CLI call and every systemd start pays its imports. Ours: ``pokertable --help`` and
``pokertable replay`` of one hand (with a showdown, so the evaluator loads), each a fresh
process. The peer is the floor any Python command pays: a bare ``python -c pass`` with the
same interpreter and site-packages. They alternate, ours then the peer, five times.

Both run with bytecode caching on, as an installed table does (pip compiles on install; an
editable checkout writes ``__pycache__`` on first use): under ``PYTHONDONTWRITEBYTECODE``
every start would compile every module again, a cost no table pays. One untimed run of each
command first writes what is missing.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

from pokertable.bench.measure import MIN_REPEATS, Figure, seconds

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "side-pot.phh"
PEER_NAME = "bare `python -c pass` (same interpreter)"


def _child_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one child process run to completion."""
    cpu = _child_cpu_s()
    wall = seconds(lambda: subprocess.run(argv, check=True, capture_output=True, env=_ENV))
    return wall, _child_cpu_s() - cpu


def figures(repeats: int = 5) -> dict[str, dict[str, Any]]:
    """Wall time and CPU time: on a saturated machine the wall clock is mostly waiting."""
    out = {}
    peer_argv = [sys.executable, "-c", "pass"]
    for name, args in (
        ("startup_help", ("--help",)),
        ("startup_replay_one_hand", ("replay", str(EXAMPLE))),
    ):
        argv = [sys.executable, "-m", "pokertable.controller.cli", *args]
        subprocess.run(argv, check=True, capture_output=True, env=_ENV)  # writes the bytecode
        wall = Figure(f"{name}_wall_s", "s", PEER_NAME, higher_is_better=False)
        cpu = Figure(f"{name}_cpu_s", "s CPU", PEER_NAME, higher_is_better=False,
                     target="<= 0.1 s")  # fmt: skip
        for _ in range(max(repeats, MIN_REPEATS)):
            ours = _timed(argv)
            peer = _timed(peer_argv)
            wall.add(ours[0], peer[0])
            cpu.add(ours[1], peer[1])
        out[wall.name] = wall.to_json()
        out[cpu.name] = cpu.to_json()
    return out
