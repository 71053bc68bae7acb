"""``pokertable bench``: every figure beside its peer's, measured in the same run.

Figures are printed as one JSON object ``{name: {"ours", "peer", "peer_name", "unit",
"ratio"}}``. Nothing here is asserted by the test suite: these machines are shared and
noisy, so a figure only means something next to its peer from the same run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
import tomllib
from collections.abc import Callable
from typing import Any

Figures = dict[str, dict[str, Any]]

# Optional figure providers owned by other packages: module -> function returning Figures.
PROVIDERS: tuple[tuple[str, str], ...] = (
    ("pokertable.bench.serial_figures", "measure"),
    ("pokertable.bench.mqtt_figures", "figures"),
    ("pokertable.bench.interpretation_figures", "figures"),
    ("pokertable.bench.app_figures", "figures"),
)


def figure(
    ours: float, peer: float, unit: str, peer_name: str, higher_is_better: bool
) -> dict[str, Any]:
    ratio = (ours / peer if higher_is_better else peer / ours) if ours and peer else None
    return {
        "ours": round(ours, 3),
        "peer": round(peer, 3),
        "unit": unit,
        "peer_name": peer_name,
        "ratio": None if ratio is None else round(ratio, 2),
    }


def replay_figures(hands: int = 300, seed: int = 7) -> Figures:
    """Hands per second replaying the same PHH hands: our engine vs PokerKit."""
    import pokerkit

    from pokertable.bench.phh_corpus import generate
    from pokertable.controller.phh import parse_hand
    from pokertable.controller.replay import replay_hand

    docs = generate(hands, seed=seed).hands

    def ours() -> None:  # parsing included, as PokerKit's loads() parses too
        for i, doc in enumerate(docs):
            replay_hand(parse_hand(tomllib.loads(doc), f"bench#{i}"))

    def theirs() -> None:
        for doc in docs:
            for _ in pokerkit.HandHistory.loads(doc):
                pass

    ours_rate = hands / _best_of(ours)
    peer_rate = hands / _best_of(theirs)
    return {
        "replay_hands_per_s": figure(
            ours_rate,
            peer_rate,
            "hands/s",
            f"PokerKit {getattr(pokerkit, '__version__', '')} HandHistory replay".replace(
                "  ", " "
            ),
            higher_is_better=True,
        )
    }


def _best_of(fn: Callable[[], None], repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def collect(only: set[str] | None = None) -> Figures:
    figures: Figures = {}
    if only is None or "replay" in only:
        figures.update(replay_figures())
    for module, func in PROVIDERS:
        short = module.rsplit(".", 1)[-1].removesuffix("_figures")
        if only is not None and short not in only:
            continue
        try:
            provider = getattr(importlib.import_module(module), func)
        except (ImportError, AttributeError):
            continue
        try:
            figures.update(provider())
        except Exception as exc:  # a broken provider must not hide the others' figures
            figures[f"{short}_error"] = {"error": f"{type(exc).__name__}: {exc}"}
    return figures


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--only",
        action="append",
        metavar="GROUP",
        help="replay, serial, mqtt, interpretation or app (repeatable); default: all; "
        "'drills' runs the reliability drills instead (bench/drills.py, 20-40 min)",
    )


def run(args: argparse.Namespace) -> int:
    if args.only and "drills" in args.only:  # counts, not timings: a runner of their own
        from pokertable.bench import drills

        return drills.main(["--json"] if args.json else [])
    try:
        figures = collect(set(args.only) if args.only else None)
    except ImportError as exc:
        print(
            f"error: benchmark peers are missing ({exc}); pip install -e '.[bench]'",
            file=sys.stderr,
        )
        return 2
    if args.json:
        print(json.dumps(figures))
    else:
        for name, fig in figures.items():
            if "error" in fig:
                print(f"{name}: {fig['error']}")
            else:
                print(
                    f"{name}: ours {fig['ours']} {fig['unit']}, {fig['peer_name']} "
                    f"{fig['peer']} {fig['unit']} (x{fig['ratio']})"
                )
    return 0
