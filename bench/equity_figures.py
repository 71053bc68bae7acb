"""Exact equities: ours beside eval7's evaluator enumerating the same boards, interleaved.

The peer is what a broadcaster would write with eval7 today: every board of the spot,
each hand scored by ``eval7.evaluate`` (its C evaluator; its ``py_hand_vs_range_exact``
answers 1.0 for AA v KK pre-flop in the installed 0.1.x, so it is not a usable peer).
Omaha's peer evaluates the 60 two-plus-three hands per seat with eval7 as well.

Run alone: ``python -m pokertable.bench.equity_figures`` (prints JSON).
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

SPOTS: dict[str, tuple[str, dict[int, tuple[str, ...]], tuple[str, ...]]] = {
    "equity_headsup_preflop_ms": ("NLHE", {1: ("As", "Ah"), 2: ("Ks", "Kh")}, ()),
    "equity_9way_flop_ms": ("NLHE", {
        seat: cards for seat, cards in enumerate([
            ("As", "Ah"), ("Ks", "Kh"), ("Qs", "Qh"), ("Js", "Jh"), ("Ts", "Th"), ("9s", "9h"),
            ("8s", "8h"), ("7s", "7h"), ("6s", "6h")], 1)}, ("2c", "3d", "4c")),
    "equity_plo4_headsup_flop_ms": ("PLO", {1: ("As", "Ah", "Kd", "Qc"),
                                            2: ("Ks", "Kh", "Jd", "Tc")}, ("2c", "3d", "4c")),
}
BUDGET_MS = {"equity_headsup_preflop_ms": 1000.0, "equity_9way_flop_ms": 2.0,
             "equity_plo4_headsup_flop_ms": 20.0}


def _eval7_enumeration(variant: str, holes: dict[int, tuple[str, ...]],
                       board: Sequence[str]) -> list[float]:
    import eval7

    cards = {text: eval7.Card(text) for text in (r + s for r in "23456789TJQKA" for s in "cdhs")}
    used = {c for hole in holes.values() for c in hole} | set(board)
    rest = [cards[c] for c in cards if c not in used]
    hands = [[cards[c] for c in holes[seat]] for seat in sorted(holes)]
    known = [cards[c] for c in board]
    evaluate = eval7.evaluate
    shares = [0.0] * len(hands)
    boards = 0
    for runout in combinations(rest, 5 - len(board)):
        full = known + list(runout)
        if variant == "PLO":
            values = [max(evaluate([*two, *three]) for two in combinations(hand, 2)
                          for three in combinations(full, 3)) for hand in hands]
        else:
            values = [evaluate(hand + full) for hand in hands]
        best = max(values)
        winners = [i for i, v in enumerate(values) if v == best]
        for i in winners:
            shares[i] += 1 / len(winners)
        boards += 1
    return [s / boards for s in shares]


def _interleaved(ours: Callable[[], object], theirs: Callable[[], object], repeats: int
                 ) -> tuple[list[float], list[float]]:
    """Seconds per run, ours and theirs alternating, so machine load hits both alike."""
    mine: list[float] = []
    peer: list[float] = []
    for _ in range(repeats):
        for fn, into in ((ours, mine), (theirs, peer)):
            start = time.perf_counter()
            fn()
            into.append(time.perf_counter() - start)
    return mine, peer


def figures(repeats: int = 3) -> dict[str, dict[str, Any]]:
    from pokertable.controller.evaluation.equity import equities

    started = time.perf_counter()
    equities("NLHE", {1: ("2c", "2d"), 2: ("3c", "3d")})  # build the tables once
    warm_up_s = time.perf_counter() - started
    result: dict[str, dict[str, Any]] = {}
    for name, (variant, holes, board) in SPOTS.items():
        ours_check = [s.equity for s in equities(variant, holes, board).seats]
        peer_check = _eval7_enumeration(variant, holes, board)
        assert all(abs(a - b) < 1e-9 for a, b in zip(ours_check, peer_check, strict=True)), name
        mine, peer = _interleaved(lambda v=variant, h=holes, b=board: equities(v, h, b),
                                  lambda v=variant, h=holes, b=board: _eval7_enumeration(v, h, b),
                                  repeats)
        ours_ms, peer_ms = statistics.median(mine) * 1e3, statistics.median(peer) * 1e3
        result[name] = {
            "ours": round(ours_ms, 3), "peer": round(peer_ms, 3), "unit": "ms",
            "peer_name": "eval7.evaluate enumerating every board",
            "ratio": round(peer_ms / ours_ms, 2),
            "ours_spread": [round(min(mine) * 1e3, 3), round(max(mine) * 1e3, 3)],
            "peer_spread": [round(min(peer) * 1e3, 3), round(max(peer) * 1e3, 3)],
            "budget": BUDGET_MS[name], "repeats": repeats,
        }
    result["equity_tables_build_ms"] = {
        "ours": round(warm_up_s * 1e3, 1), "peer": None, "unit": "ms", "ratio": None,
        "peer_name": "once per process: 7-card table 15.6 MB + flush table 16 kB (int16)",
    }
    result["load_average"] = {"ours": list(os.getloadavg()), "unit": "1/5/15 min",
                              "peer": None, "ratio": None, "peer_name": "machine load"}
    return result


if __name__ == "__main__":
    print(json.dumps(figures(), indent=2))
