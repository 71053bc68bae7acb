"""Every ``pokertable bench`` group runs once at its smallest size, as from CI or cron: no
terminal (stdin is /dev/null, a session of its own). Nothing is timed; the runner's own
deadline per group is what ends a broken rig, and its failure line is the message here."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pokertable.bench import runner


@pytest.mark.slow
@pytest.mark.parametrize("group", list(runner.GROUPS))
def test_every_bench_group_runs_at_tiny_size_without_a_terminal(group: str) -> None:
    bench = subprocess.Popen(
        [sys.executable, "-m", "pokertable.controller.cli", "bench", "--tiny", "--json",
         "--only", group],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # no controlling terminal, as under cron or a CI runner
    )
    # A last resort only: the runner ends the group at a third of this and says why.
    out, err = bench.communicate(timeout=runner.GROUPS[group].deadline_s)
    assert bench.returncode == 0, err.decode()[-2000:]
    figures = json.loads(out)[group]["figures"]
    assert figures, err.decode()[-2000:]
    assert not [name for name, fig in figures.items() if "error" in fig], figures
    # Every frame the e2e rig times must cause a message (the blinds go out as chips, the
    # node answers the controller's REBIRTH): a silent one is a rig or table fault.
    assert not [fig["note"] for fig in figures.values() if "no message" in fig.get("note", "")]
