"""``pokertable bench`` keeps every finished figure: a failing group costs only its own line.

The groups here are tiny modules written for the test; no speed is asserted anywhere.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sys
from pathlib import Path

import pytest

from pokertable.bench import runner
from pokertable.bench.measure import Figure, interleave
from pokertable.bench.waiting import wait_for

GOOD = """
from pokertable.bench.measure import Figure
def figures():
    fig = Figure("good_ops", "ops/s", "the peer", higher_is_better=True)
    for ours, peer in ((3.0, 1.0), (4.0, 2.0), (5.0, 1.0)):
        fig.add(ours, peer)
    return {fig.name: fig.to_json()}
"""
BAD = """
def figures():
    return {"ratio_less": {"ours": 1.0, "unit": "x"}} | {}[0]
"""
# A rig that broke: a helper process started, then a wait that never ends.
HANGS = """
import subprocess, sys, threading
from pathlib import Path
from pokertable.bench.waiting import stage
def figures(pid_file):
    helper = subprocess.Popen(
        [sys.executable, "-c", "import threading; threading.Event().wait()"],
        stdin=subprocess.DEVNULL,
    )
    Path(pid_file).write_text(str(helper.pid))
    stage("the moon to rise")
    threading.Event().wait()
"""
DIES = """
import os
def figures():
    os._exit(3)
"""


@pytest.fixture
def groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bench_good_group.py").write_text(GOOD)
    (tmp_path / "bench_bad_group.py").write_text(BAD)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "bench_hangs_group.py").write_text(HANGS)
    (tmp_path / "bench_dies_group.py").write_text(DIES)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(
        runner,
        "GROUPS",
        {
            "bad": ("bench_bad_group", "figures"),
            "good": ("bench_good_group", "figures"),
            # the deadline is the behaviour under test; 15 s is a lifetime for a fork
            "hangs": runner.Group(
                "bench_hangs_group", tiny={"pid_file": str(tmp_path / "helper.pid")},
                deadline_s=45,
            ),
            "dies": runner.Group("bench_dies_group"),
        },
    )
    for name in ("bench_good_group", "bench_bad_group", "bench_hangs_group", "bench_dies_group"):
        sys.modules.pop(name, None)


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    runner.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_a_failing_group_does_not_lose_the_next_groups_figures(
    groups: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.run(_args("--only", "bad", "--only", "good")) == 1
    out = capsys.readouterr().out
    assert "[bad] running" in out and "bad_error: FAILED KeyError" in out
    assert "good_ops: ours 4.0 ops/s [3.0..5.0] | the peer 1.0 ops/s [1.0..2.0]" in out
    assert "machine busy" in out


def test_only_runs_the_named_group_and_json_keeps_the_load(
    groups: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.run(_args("--only", "good", "--json")) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert list(result) == ["good"]
    assert result["good"]["figures"]["good_ops"]["ratio"] == 4.0
    assert result["good"]["load"]["cores"] >= 1
    assert "[good] running" in captured.err


def _gone(pid: int) -> bool:
    """Ended (a zombie awaiting its reaper counts: it runs nothing)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "State:\tZ" in status


def test_a_group_whose_rig_hangs_fails_at_its_deadline_naming_what_it_waited_for(
    groups: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.run(_args("--only", "hangs", "--only", "good", "--tiny")) == 1
    out = capsys.readouterr().out
    assert (
        "hangs_error: FAILED no figures after the group's 15 s deadline; "
        "it was waiting for the moon to rise" in out
    )
    assert "good_ops: ours" in out  # the next group still ran
    helper = int((tmp_path / "helper.pid").read_text())
    wait_for(lambda: _gone(helper), "the hung group's helper process to be killed with it")


def _run_in_a_runner(argv: list[str]) -> None:
    sys.exit(runner.run(_args(*argv)))


def test_a_runner_killed_outright_takes_its_groups_processes_along(
    groups: None, tmp_path: Path
) -> None:
    """CI's timeout or kill -9 on ``pokertable bench``: nothing it started keeps running
    (the e2e group's controller used to retry a vanished pty forever)."""
    bench = multiprocessing.get_context("fork").Process(
        target=_run_in_a_runner, args=(["--only", "hangs", "--tiny"],)
    )
    bench.start()
    pid_file = tmp_path / "helper.pid"
    wait_for(lambda: pid_file.exists() and pid_file.read_text(), "the group's helper process")
    helper = int(pid_file.read_text())
    assert not _gone(helper)
    os.kill(bench.pid or 0, signal.SIGKILL)
    bench.join()
    wait_for(lambda: _gone(helper), "the helper to end with the killed runner")


def test_a_group_whose_process_dies_says_so(
    groups: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.run(_args("--only", "dies")) == 1
    out = capsys.readouterr().out
    assert "dies_error: FAILED the group's process ended (exit 3) while waiting for its " \
        "first figure" in out


def test_figures_without_a_peer_or_a_ratio_still_print() -> None:
    line = runner.format_figure("lonely", {"ours": 2.0, "unit": "MB", "peer_name": "(none)"})
    assert line == "  lonely: ours 2.0 MB | (none)"


def test_interleave_alternates_ours_and_the_peer() -> None:
    calls: list[str] = []
    ours, peer = interleave(lambda: calls.append("o") or 1.0, lambda: calls.append("p") or 2.0)
    assert calls == ["o", "p", "o", "p", "o", "p"]
    assert (ours, peer) == ([1.0] * 3, [2.0] * 3)
    fig = Figure("x", "ms", "peer", higher_is_better=False)
    fig.add(2.0, 1.0)
    assert fig.to_json()["ratio"] == 0.5  # lower is better: ours twice the peer's time
