"""``pokertable bench``: every figure beside its peer's, measured in the same run.

Each group runs in turn, in a child process of its own session, and prints its figures as
soon as it finishes, with the machine load while it ran; a group that fails prints one line
and the others still run, so a finished figure is never lost. A group whose rig breaks
fails fast: past its deadline the whole session (its controller, broker, nodes) is killed
and the failure names what the group was waiting for (``bench.waiting.stage``). Within a
group, ours and the peer alternate on the same inputs and each figure is the median of at
least three rounds with its spread (bench/measure.py). No speed is asserted by the test
suite; it runs every group once at ``--tiny`` to keep the rigs working.

    pokertable bench                  # every group, readable text, progress as it goes
    pokertable bench --only replay    # one group (repeatable)
    pokertable bench --json           # one JSON object at the end (progress on stderr)
    pokertable bench --tiny           # every group once at its smallest size: checks the rigs
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import multiprocessing
import os
import platform
import signal
import sys
import threading
import time
from collections.abc import Mapping
from multiprocessing.connection import Connection
from types import MappingProxyType
from typing import Any, NamedTuple, TextIO

from pokertable.bench import waiting
from pokertable.bench.measure import LoadMeter

Figures = dict[str, dict[str, Any]]


class Group(NamedTuple):
    """Where a group's figures come from, its smallest size, and how long it may take."""

    module: str
    func: str = "figures"
    tiny: Mapping[str, Any] = MappingProxyType({})  # ``--tiny``: a check of the rig
    deadline_s: float = 1800.0  # at full size on a busy Pi; ``--tiny`` allows a third


# in the order they run
GROUPS: dict[str, Group] = {
    "startup": Group("pokertable.bench.startup_figures", tiny={"repeats": 3}, deadline_s=600),
    "evaluator": Group(
        "pokertable.bench.evaluator_figures", tiny={"count": 200, "repeats": 3}, deadline_s=900
    ),
    "equity": Group("pokertable.bench.equity_figures", tiny={"repeats": 3}, deadline_s=900),
    "replay": Group(
        "pokertable.bench.replay_figures", tiny={"hands": 10, "repeats": 3}, deadline_s=900
    ),
    "interpretation": Group(
        "pokertable.bench.interpretation_figures", tiny={"hands": 10, "repeats": 3},
        deadline_s=900,
    ),
    "serial": Group(
        "pokertable.bench.serial_figures", tiny={"frames": 30, "latency_samples": 10},
        deadline_s=900,
    ),
    "readers": Group("pokertable.bench.reader_figures", tiny={"trials": 3}, deadline_s=900),
    "mqtt": Group("pokertable.bench.mqtt_figures", tiny={"messages": 30, "repeats": 3},
                  deadline_s=900),
    "e2e": Group("pokertable.bench.e2e_figures", tiny={"samples": 5, "hands": 1},
                 deadline_s=1200),
    "app": Group("pokertable.bench.app_figures", tiny={"hands": 5}, deadline_s=1200),
    "room": Group(
        "pokertable.bench.room_figures", tiny={"tables": 5, "seconds": 1.0}, deadline_s=1200
    ),
}


def format_figure(name: str, fig: dict[str, Any]) -> str:
    """One readable line; tolerant of figures without a peer or a ratio."""
    if "error" in fig:
        return f"  {name}: FAILED {fig['error']}"
    unit = fig.get("unit", "")

    def side(value: Any, spread: Any) -> str:
        if value is None:
            return "-"
        text = f"{value} {unit}"
        if spread:
            text += f" [{spread[0]}..{spread[1]}]"
        return text

    line = f"  {name}: ours {side(fig.get('ours'), fig.get('ours_spread'))}"
    if fig.get("peer") is not None:
        line += f" | {fig.get('peer_name', 'peer')} {side(fig.get('peer'), fig.get('peer_spread'))}"
        if fig.get("ratio") is not None:
            line += f" | ours/peer advantage x{fig['ratio']}"
    elif fig.get("peer_name"):
        line += f" | {fig['peer_name']}"
    if fig.get("repeats"):
        line += f" | n={fig['repeats']}"
    if fig.get("target"):
        line += f" | target {fig['target']}"
    return line


def markdown(everything: dict[str, Any]) -> str:
    """The run as the table in docs/benchmarks.md: one row per figure, load per group."""
    rows = [
        "| group (machine load while it ran) | figure | ours [spread] | peer [spread] | "
        "ours/peer | target |",
        "|---|---|---|---|---|---|",
    ]

    def cell(fig: dict[str, Any], side: str) -> str:
        value, spread = fig.get(side), fig.get(f"{side}_spread")
        if value is None:
            return "-"
        return f"{value} [{spread[0]}..{spread[1]}]" if spread else f"{value}"

    for name, group in everything.items():
        load = group["load"]
        where = (
            f"{name} ({load['machine_busy_pct']} % busy, load {load['loadavg_1min']}, "
            f"{load['seconds']} s)"
        )
        for figure_name, fig in group["figures"].items():
            if "error" in fig:
                rows.append(f"| {where} | {figure_name} | FAILED: {fig['error']} | | | |")
                continue
            unit = fig.get("unit", "")
            peer = cell(fig, "peer")
            if fig.get("peer") is not None:
                peer += f" {fig.get('peer_name', '')}"
            ratio = fig.get("ratio")
            rows.append(
                f"| {where} | {figure_name} ({unit}) | {cell(fig, 'ours')} | {peer} | "
                f"{'' if ratio is None else f'x{ratio}'} | {fig.get('target', '')} |"
            )
            where = ""
    return "\n".join(rows)


def _group_child(
    name: str, group: Group, tiny: bool, conn: Connection, lifeline: tuple[int, int]
) -> None:
    """In the child: a session of its own, so a deadline kills everything the group started,
    and a lifeline to the runner, so a runner killed outright (CI's timeout, kill -9) takes
    the group's controller, broker and nodes with it instead of leaving them running."""
    os.setsid()
    os.close(lifeline[1])
    threading.Thread(target=_end_with_the_runner, args=(lifeline[0],), daemon=True).start()
    waiting.report_stages_to(lambda text: conn.send(("stage", text)))
    try:
        provider = getattr(importlib.import_module(group.module), group.func)
        figures: Figures = provider(**(group.tiny if tiny else {}))
    except ImportError as exc:
        figures = {f"{name}_error": {"error": f"missing ({exc}); pip install -e '.[bench]'"}}
    except BaseException as exc:  # a broken group must not hide the others' figures
        figures = {f"{name}_error": {"error": f"{type(exc).__name__}: {exc}"}}
    conn.send(("figures", figures))
    conn.close()


def _end_with_the_runner(lifeline: int) -> None:
    """Blocks until the runner's end of the lifeline closes (only its exit or its
    ``finally`` closes it), then ends this whole session."""
    os.read(lifeline, 1)
    os.killpg(0, signal.SIGKILL)


def _kill_session(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def run_group(name: str, out: TextIO, tiny: bool = False) -> tuple[Figures, dict[str, float]]:
    """Run one group in a child process; its failure or its deadline becomes an ``error``
    figure naming the last thing it waited for, never an exception or a hang."""
    group = Group(*GROUPS[name])
    deadline_s = group.deadline_s / 3 if tiny else group.deadline_s
    meter = LoadMeter()
    started = time.monotonic()
    print(f"[{name}] running ...", file=out, flush=True)
    receiver, sender = multiprocessing.Pipe(duplex=False)
    lifeline = os.pipe()  # (child's end, runner's end)
    child = multiprocessing.get_context("fork").Process(
        target=_group_child, args=(name, group, tiny, sender, lifeline),
        name=f"bench {name}",
    )
    child.start()
    sender.close()
    os.close(lifeline[0])
    assert child.pid is not None  # started
    stage = "its first figure"
    figures: Figures | None = None
    try:
        while figures is None:
            left = started + deadline_s - time.monotonic()
            if left <= 0:
                figures = {f"{name}_error": {"error": (
                    f"no figures after the group's {deadline_s:.0f} s deadline; "
                    f"it was waiting for {stage}")}}
            elif receiver.poll(min(left, 1.0)):
                try:
                    kind, value = receiver.recv()
                except EOFError:  # died without a word: a crash in C, a kill
                    child.join(5)
                    figures = {f"{name}_error": {"error": (
                        f"the group's process ended (exit {child.exitcode}) while waiting "
                        f"for {stage}")}}
                    continue
                if kind == "stage":
                    stage = value
                else:
                    figures = value
    finally:
        _kill_session(child.pid)  # its controller, broker and nodes too
        child.join(10)
        receiver.close()
        os.close(lifeline[1])
    load = meter.report()
    load["seconds"] = round(time.monotonic() - started, 1)
    return figures, load


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    parser.add_argument(
        "--markdown", action="store_true", help="also print the run as a markdown table at the end"
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="GROUP",
        choices=[*GROUPS, "drills"],
        help=f"{', '.join(GROUPS)} (repeatable); default: all; 'drills' runs the "
        "reliability drills instead (bench/drills.py, 20-40 min)",
    )
    parser.add_argument(
        "--tiny",
        action="store_true",
        help="each group once at its smallest size: checks that every rig works (the "
        "figures mean nothing)",
    )


def run(args: argparse.Namespace) -> int:
    if args.only and "drills" in args.only:  # counts, not timings: a runner of their own
        from pokertable.bench import drills

        return drills.main(["--json"] if args.json else [])
    names = [g for g in GROUPS if not args.only or g in args.only]
    progress = sys.stderr if args.json else sys.stdout
    print(
        f"pokertable bench: {platform.python_implementation()} {platform.python_version()}, "
        f"{LoadMeter().report()['cores']:.0f} cores, groups: {', '.join(names)}",
        file=progress,
        flush=True,
    )
    everything: dict[str, Any] = {}
    for name in names:
        figures, load = run_group(name, progress, tiny=getattr(args, "tiny", False))
        everything[name] = {"figures": figures, "load": load}
        print(
            f"[{name}] {load['seconds']} s; machine busy {load['machine_busy_pct']} % of "
            f"{load['cores']:.0f} cores, load average {load['loadavg_1min']}",
            file=progress,
        )
        for figure_name, fig in figures.items():
            print(format_figure(figure_name, fig), file=progress, flush=True)
    if args.json:
        print(json.dumps(everything))
    if args.markdown:
        print(markdown(everything), file=progress)
    failed = any("error" in f for g in everything.values() for f in g["figures"].values())
    return 1 if failed else 0
