"""``pokertable bench``: every figure beside its peer's, measured in the same run.

Each group runs in turn and prints its figures as soon as it finishes, with the machine
load while it ran; a group that fails prints one line and the others still run, so a
finished figure is never lost. Within a group, ours and the peer alternate on the same
inputs and each figure is the median of at least three rounds with its spread
(bench/measure.py). Nothing here is asserted by the test suite.

    pokertable bench                  # every group, readable text, progress as it goes
    pokertable bench --only replay    # one group (repeatable)
    pokertable bench --json           # one JSON object at the end (progress on stderr)
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import sys
import time
from typing import Any, TextIO

from pokertable.bench.measure import LoadMeter

Figures = dict[str, dict[str, Any]]

# group -> (module, function returning Figures), in the order they run
GROUPS: dict[str, tuple[str, str]] = {
    "startup": ("pokertable.bench.startup_figures", "figures"),
    "evaluator": ("pokertable.bench.evaluator_figures", "figures"),
    "equity": ("pokertable.bench.equity_figures", "figures"),
    "replay": ("pokertable.bench.replay_figures", "figures"),
    "interpretation": ("pokertable.bench.interpretation_figures", "figures"),
    "serial": ("pokertable.bench.serial_figures", "figures"),
    "readers": ("pokertable.bench.reader_figures", "figures"),
    "mqtt": ("pokertable.bench.mqtt_figures", "figures"),
    "e2e": ("pokertable.bench.e2e_figures", "figures"),
    "app": ("pokertable.bench.app_figures", "figures"),
    "room": ("pokertable.bench.room_figures", "figures"),
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


def run_group(name: str, out: TextIO) -> tuple[Figures, dict[str, float]]:
    """Run one group; its failure becomes an ``error`` figure, never an exception."""
    module, func = GROUPS[name]
    meter = LoadMeter()
    started = time.monotonic()
    print(f"[{name}] running ...", file=out, flush=True)
    try:
        provider = getattr(importlib.import_module(module), func)
        figures: Figures = provider()
    except ImportError as exc:
        figures = {f"{name}_error": {"error": f"missing ({exc}); pip install -e '.[bench]'"}}
    except Exception as exc:  # a broken group must not hide the others' figures
        figures = {f"{name}_error": {"error": f"{type(exc).__name__}: {exc}"}}
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
        figures, load = run_group(name, progress)
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
