"""``pokertable rules show PROFILE`` and ``pokertable rules diff A B``.

A tournament director checks what a table will apply before the first hand: every
parameter with its value and the rulebook passage it comes from, and where two
rulebooks differ (including the rule numbers rulings will cite).
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table

from pokertable.controller.rules.profiles import (
    ProfileError,
    available_profiles,
    diff,
    effective_parameters,
    load,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="rules_command", required=True)
    show = sub.add_parser("show", help="effective parameters of a profile, with sources")
    show.add_argument("profile", help=f"one of: {', '.join(available_profiles())}")
    show.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a parameter, as a table config would",
    )
    show.add_argument("--json", action="store_true", help="print JSON instead of a table")
    cmp = sub.add_parser("diff", help="where two profiles differ")
    cmp.add_argument("a", help="the first profile")
    cmp.add_argument("b", help="the profile to compare it with")
    cmp.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _overrides(pairs: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ProfileError(f"--set {pair!r}: expected KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    try:
        if args.rules_command == "show":
            loaded = load(args.profile, _overrides(args.set))
            params = effective_parameters(loaded.profile)
            if args.json:
                print(
                    json.dumps(
                        {
                            "profile": args.profile,
                            "title": loaded.title,
                            "parameters": params,
                            "sources": dict(loaded.sources),
                        }
                    )
                )
                return 0
            table = Table(title=f"{args.profile}: {loaded.title}")
            for column in ("parameter", "value", "source"):
                table.add_column(column, overflow="fold")
            for key, value in params.items():
                table.add_row(key, str(value), loaded.sources.get(key, "tda-2024 default"))
            console.print(table)
            return 0
        a, b = load(args.a).profile, load(args.b).profile
        delta = diff(a, b)
        if args.json:
            print(json.dumps({k: list(v) for k, v in delta.items()}))
            return 0
        table = Table(title=f"{args.a} vs {args.b}")
        for column in ("parameter", args.a, args.b):
            table.add_column(column, overflow="fold")
        for key, (va, vb) in delta.items():
            table.add_row(key, str(va), str(vb))
        console.print(table)
        return 0
    except ProfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
