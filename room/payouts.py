"""Prize pool, payout table, what each finishing place is paid, and ICM deals.

Pure: counts, prices and chip stacks in; amounts out. The clock process
(``room.clock_service``) shows them on the clock display and the leaderboard.

The prize pool is every buy-in, re-entry and add-on sold, less the house's rake, and never
less than the guarantee. The payout table comes from a CSV the tournament director loads
(by number of entrants) or, without one, from the chart below. Players busting on the same
hand-for-hand hand share the places their busts cover (TDA 2024 RP-8-A: "52 players remain
... 3 players bust. All 3 players will share in the 50th place payout").

>>> pool = PrizePool(buy_in=100, re_entry=100, add_on=50, rake_percent=10)
>>> pool.total(entries=18, re_entries=2, add_ons=4)
1980
>>> [(p.place, p.amount) for p in payout_table(20, 1980)]
[(1, 794), (2, 495), (3, 316), (4, 217), (5, 158)]
>>> [round(v, 2) for v in icm([5000, 3000, 2000], [50, 30, 20])]
[38.39, 32.75, 28.86]
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

CHART: tuple[tuple[int, int, tuple[float, ...]], ...] = (
    (1, 3, (100,)),
    (4, 6, (65, 35)),
    (7, 10, (50, 30, 20)),
    (11, 18, (45, 27, 18, 10)),
    (19, 27, (40, 25, 16, 11, 8)),
    (28, 36, (35, 22, 15, 11, 9, 8)),
    (37, 45, (32, 20, 14, 10, 8, 7, 5, 4)),
    (46, 60, (30, 19, 13, 10, 8, 6, 5, 4, 3, 2)),
)
"""The built-in chart (percent of the pool by place) by entrants; above 60 entrants 15 %
of the field is paid on a harmonic curve (``_harmonic``). A venue loads its own CSV."""
ICM_MAX_PLAYERS = 12
"""Malmuth-Harville looks at every order of finish: a final table or two at most."""


class PayoutError(ValueError):
    """A payout table or prize pool that can't be used; the message names the field."""


@dataclass(frozen=True, slots=True)
class PrizePool:
    """Prices of what was sold (whole currency units) and the house's terms."""

    buy_in: int = 0
    re_entry: int = 0
    add_on: int = 0
    rake_percent: float = 0.0
    guarantee: int = 0

    def __post_init__(self) -> None:
        for name in ("buy_in", "re_entry", "add_on", "guarantee"):
            if getattr(self, name) < 0:
                raise PayoutError(f"{name}: {getattr(self, name)} is negative")
        if not 0 <= self.rake_percent < 100:
            raise PayoutError(f"rake_percent: {self.rake_percent} is not 0 to 100")

    def total(self, entries: int, re_entries: int = 0, add_ons: int = 0) -> int:
        sold = entries * self.buy_in + re_entries * self.re_entry + add_ons * self.add_on
        after_rake = int(sold * (100 - self.rake_percent) // 100)
        return max(after_rake, self.guarantee)


@dataclass(frozen=True, slots=True)
class Payout:
    place: int
    amount: int
    percent: float

    def as_json(self) -> dict[str, Any]:
        return {"place": self.place, "amount": self.amount, "percent": self.percent}


@dataclass(frozen=True, slots=True)
class Chart:
    """Payout percentages by place for ranges of entrants (a CSV or the built-in)."""

    rows: tuple[tuple[int, int, tuple[float, ...]], ...] = CHART

    def percents(self, entrants: int) -> tuple[float, ...]:
        for low, high, percents in self.rows:
            if low <= entrants <= high:
                return percents
        if self.rows is CHART and entrants > CHART[-1][1]:
            return _harmonic(entrants)
        raise PayoutError(f"the payout table has no row for {entrants} entrants")


def _harmonic(entrants: int) -> tuple[float, ...]:
    places = max(1, round(entrants * 0.15))
    weights = [1 / (place + 0.5) for place in range(places)]
    return tuple(round(100 * w / sum(weights), 3) for w in weights)


def parse_chart(text: str) -> Chart:
    """A payout table from CSV: columns ``place`` and ``percent``, and optionally
    ``min_entrants`` and ``max_entrants`` (rows of one range are one table). Every problem
    is a PayoutError naming the line and column.

    >>> parse_chart("place,percent\\n1,60\\n2,40\\n").percents(9)
    (60.0, 40.0)
    """
    reader = csv.DictReader(io.StringIO(text.strip()))
    if reader.fieldnames is None or not {"place", "percent"} <= set(reader.fieldnames):
        raise PayoutError("payout CSV: the header needs place and percent columns")
    tables: dict[tuple[int, int], dict[int, float]] = {}
    for line, row in enumerate(reader, 2):
        try:
            low = int(row.get("min_entrants") or 1)
            high = int(row.get("max_entrants") or 100_000)
            place, percent = int(row["place"]), float(row["percent"])
        except (TypeError, ValueError) as error:
            raise PayoutError(f"payout CSV line {line}: {error}") from None
        if place < 1 or not 0 < percent <= 100 or low > high:
            raise PayoutError(
                f"payout CSV line {line}: place {place}, percent {percent}, entrants {low}-{high}"
            )
        tables.setdefault((low, high), {})[place] = percent
    rows = []
    for (low, high), by_place in sorted(tables.items()):
        if sorted(by_place) != list(range(1, len(by_place) + 1)):
            raise PayoutError(
                f"payout CSV entrants {low}-{high}: places must be 1 to "
                f"{len(by_place)} without a gap"
            )
        if abs(sum(by_place.values()) - 100) > 0.01:
            raise PayoutError(
                f"payout CSV entrants {low}-{high}: percents add up to "
                f"{sum(by_place.values()):g}, not 100"
            )
        rows.append((low, high, tuple(by_place[p] for p in sorted(by_place))))
    if not rows:
        raise PayoutError("payout CSV: no rows")
    return Chart(tuple(rows))


def payout_table(entrants: int, pool: int, chart: Chart | None = None) -> list[Payout]:
    """Each paid place's amount: whole units, the rounding remainder to first place."""
    if entrants < 1 or pool <= 0:
        return []
    percents = (chart or Chart()).percents(entrants)[:entrants]
    scale = sum(percents)
    amounts = [int(pool * p // scale) for p in percents]
    amounts[0] += pool - sum(amounts)
    return [
        Payout(place, amount, round(100 * p / scale, 3))
        for place, (amount, p) in enumerate(zip(amounts, percents, strict=True), 1)
    ]


def prizes_for_finishes(rows: Sequence[Mapping[str, Any]], payouts: Sequence[Payout]) -> list[int]:
    """The prize of each eliminated row (``room.finishing``: ``place``, ``tied``): players
    tied on one hand share the places their busts cover equally (RP-8-A), rounded down."""
    by_place = {p.place: p.amount for p in payouts}
    prizes = []
    for row in rows:
        place, tied = int(row["place"]), int(row.get("tied", 1))
        covered = sum(by_place.get(p, 0) for p in range(place, place + tied))
        prizes.append(covered // tied)
    return prizes


def icm(stacks: Sequence[int], prizes: Sequence[float]) -> list[float]:
    """Malmuth-Harville: each player's share of ``prizes`` (first place first) from the
    chips. A player finishes first with the share of the chips he holds; the others'
    orders follow the same rule among those left.

    >>> icm([3000, 1000], [70, 30])
    [60.0, 40.0]
    """
    if not stacks or len(stacks) > ICM_MAX_PLAYERS:
        raise PayoutError(f"ICM needs 1 to {ICM_MAX_PLAYERS} players, not {len(stacks)}")
    if any(s <= 0 for s in stacks):
        raise PayoutError("ICM: every player in the deal needs chips")
    paid = list(prizes)[: len(stacks)] + [0.0] * (len(stacks) - len(prizes))
    n = len(stacks)

    @functools.cache
    def values(left: frozenset[int]) -> tuple[float, ...]:
        """Expected prize per player among ``left`` for the places from n - len(left)."""
        place = n - len(left)
        out = [0.0] * n
        if place >= n:
            return tuple(out)
        total = sum(stacks[i] for i in left)
        for first in left:
            chance = stacks[first] / total
            out[first] += chance * paid[place]
            rest = values(left - {first})
            for other in left - {first}:
                out[other] += chance * rest[other]
        return tuple(out)

    return list(values(frozenset(range(n))))


def icm_deal(players: Sequence[tuple[str, int]], payouts: Sequence[Payout]) -> dict[str, Any]:
    """A final-table deal: the places still to pay split by ICM among ``players`` (name,
    chips), whole units; the table's own prize money, no more."""
    left = len(players)
    prizes = [p.amount for p in sorted(payouts, key=lambda p: p.place)][:left]
    shares = icm([chips for _, chips in players], prizes)
    rows = [
        {"player": name, "stack": chips, "icm": int(share)}
        for (name, chips), share in zip(players, shares, strict=True)
    ]
    return {"method": "ICM (Malmuth-Harville)", "prize_money": sum(prizes), "rows": rows}
