"""How every benchmark figure is taken: ours beside its peer, interleaved, repeated.

A shared two-core machine changes speed from one second to the next, so a figure timed
in two halves (all of ours, then all of the peer's) measures the load as much as the
code. Here the two sides alternate on the same inputs (ours, peer, ours, peer, ...) and
each side's figure is the median of at least three rounds, printed with its spread.

    >>> fig = Figure("demo", "ops/s", "peer", higher_is_better=True)
    >>> for ours, peer in ((10.0, 5.0), (12.0, 5.5), (11.0, 4.0)):
    ...     fig.add(ours, peer)
    >>> fig.to_json()["ours"], fig.to_json()["ours_spread"], fig.to_json()["ratio"]
    (11.0, [10.0, 12.0], 2.2)
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MIN_REPEATS = 3


@dataclass
class Figure:
    """One measured quantity: our samples and the peer's, one pair per interleaved round."""

    name: str
    unit: str
    peer_name: str
    higher_is_better: bool
    ours: list[float] = field(default_factory=list)
    peer: list[float] = field(default_factory=list)
    target: str = ""
    note: str = ""

    def add(self, ours: float, peer: float | None = None) -> None:
        self.ours.append(ours)
        if peer is not None:
            self.peer.append(peer)

    def to_json(self) -> dict[str, Any]:
        ours = statistics.median(self.ours) if self.ours else None
        peer = statistics.median(self.peer) if self.peer else None
        ratio = None
        if ours and peer:
            ratio = ours / peer if self.higher_is_better else peer / ours
        return {
            "ours": _round(ours),
            "peer": _round(peer),
            "ours_spread": [_round(min(self.ours)), _round(max(self.ours))] if self.ours else None,
            "peer_spread": [_round(min(self.peer)), _round(max(self.peer))] if self.peer else None,
            "repeats": len(self.ours),
            "unit": self.unit,
            "peer_name": self.peer_name,
            # > 1 means ours is better than the peer (faster, smaller, quicker)
            "ratio": None if ratio is None else round(ratio, 2),
            "target": self.target,
            "note": self.note,
        }


def _round(value: float | None) -> float | None:
    if value is None:
        return None
    return round(value, 4 if abs(value) < 1 else 3 if abs(value) < 100 else 1)


def interleave(
    ours: Callable[[], float], peer: Callable[[], float], repeats: int = MIN_REPEATS
) -> tuple[list[float], list[float]]:
    """Call ours, peer, ours, peer ... ``repeats`` times each; returns both sample lists."""
    ours_samples: list[float] = []
    peer_samples: list[float] = []
    for _ in range(max(repeats, MIN_REPEATS)):
        ours_samples.append(ours())
        peer_samples.append(peer())
    return ours_samples, peer_samples


def seconds(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (no interpolation beyond the samples we have)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))]


def _cpu_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            parts = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = parts[3] + (parts[4] if len(parts) > 4 else 0)
    return sum(parts) - idle, sum(parts)


@dataclass
class LoadMeter:
    """How busy the whole machine was while a group ran (other jobs included)."""

    start_ticks: tuple[int, int] = field(default_factory=_cpu_ticks)

    def report(self) -> dict[str, float]:
        busy0, total0 = self.start_ticks
        busy1, total1 = _cpu_ticks()
        share = (busy1 - busy0) / (total1 - total0) if total1 > total0 else 0.0
        one, five, _ = os.getloadavg()
        return {
            "cores": float(os.cpu_count() or 1),
            "loadavg_1min": round(one, 2),
            "loadavg_5min": round(five, 2),
            "machine_busy_pct": round(100 * share, 1),
        }
