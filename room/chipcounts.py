"""Chip counts for the room: a leaderboard from the tables' own states, and an audit of the
chips in play against the entries the director recorded.

Pure: table states in, a leaderboard out. The clock process (``room.clock_service``)
already hears every table's state, so it publishes this too, retained on
``<venue>/leaderboard``, and writes it to CSV and JSON at every break and on request.

>>> states = {"t1": {"level": {"big_blind": 200}, "pots": [{"amount": 300, "eligible": [1]}],
...                  "seats": [{"seat": 1, "player": "Ann", "stack": 9000, "bet": 0,
...                             "status": "active"},
...                            {"seat": 2, "player": "Bob", "stack": 700, "bet": 0,
...                             "status": "active"}]}}
>>> board = leaderboard(states, entries=Entries(players=2, starting_stack=5000))
>>> [(r["rank"], r["player"], r["stack"], r["big_blinds"]) for r in board["rows"]]
[(1, 'Ann', 9000, 45.0), (2, 'Bob', 700, 3.5)]
>>> board["audit"]
{'expected': 10000, 'counted': 10000, 'difference': 0, 'ok': True}
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

COLUMNS = ("rank", "player", "table", "seat", "stack", "big_blinds")


@dataclass(frozen=True, slots=True)
class Entries:
    """What the director recorded: every buy-in and re-entry brings ``starting_stack``."""

    players: int = 0
    re_entries: int = 0
    starting_stack: int = 0
    add_on_chips: int = 0
    # Chips the seating desk's rulings added or removed: late-arrival reductions (ACE R8)
    # and colour-ups (R24), as ``adjustments`` on ``<venue>/seating`` shows them.
    adjustments: int = 0

    @property
    def expected_chips(self) -> int:
        sold = (self.players + self.re_entries) * self.starting_stack + self.add_on_chips
        return sold + self.adjustments


def leaderboard(states: Mapping[str, Mapping[str, Any]], entries: Entries | None = None
                ) -> dict[str, Any]:
    """Rank every seated player with chips; count every chip in stacks, bets and pots."""
    rows: list[dict[str, Any]] = []
    counted = 0
    for table, state in sorted(states.items()):
        big_blind = (state.get("level") or {}).get("big_blind") or 0
        if state.get("street") != "complete":  # a finished hand's pots are in the stacks
            counted += sum(pot.get("amount", 0) for pot in state.get("pots", ()))
        for seat in state.get("seats", ()):
            chips = seat.get("stack", 0) + seat.get("bet", 0)
            counted += chips
            alive = chips > 0 or seat.get("status") == "all_in"  # all in: chips in the pot
            if seat.get("status") == "empty" or not alive:
                continue
            rows.append({"player": seat.get("player") or f"{table} seat {seat['seat']}",
                         "table": table, "seat": seat["seat"], "stack": chips,
                         "big_blinds": round(chips / big_blind, 1) if big_blind else None})
    rows.sort(key=lambda row: (-row["stack"], row["player"]))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    players = len(rows)
    board: dict[str, Any] = {
        "rows": [{column: row[column] for column in COLUMNS} for row in rows],
        "players_left": players,
        "chips_in_play": counted,
        "average_stack": counted // players if players else None,
        "audit": None,
    }
    if entries is not None and entries.expected_chips:
        difference = counted - entries.expected_chips
        board["audit"] = {"expected": entries.expected_chips, "counted": counted,
                          "difference": difference, "ok": difference == 0}
    return board


def as_csv(board: Mapping[str, Any]) -> str:
    """The leaderboard as CSV, one row per player, for the reporting team."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(board["rows"])
    return out.getvalue()
