"""Calling time on a player on the clock (TDA Rule 29), for every table of the room.

A table that puts a player on the clock publishes it in its state (``clock``: seat and
``expires_at_ms`` on the table's own clock, the clock of the state's ``ts_ms``). The table
never reads a clock itself, so the room tells it when the time is up: ``clock_expired``
(the table then rules the hand dead or checked as its profile says). The room counts the
time left from when it received the state (``expires_at_ms - ts_ms``), so the two machines'
clocks need not agree; if the table finds the time not yet up (its clock runs a little
behind), the room asks again a moment later. Time comes in as an argument.

>>> clocks = PlayerClocks()
>>> state = {"ts_ms": 5_000, "clock": {"seat": 3, "expires_at_ms": 35_000}}
>>> clocks = clocks.seen("t1", state, now_ms=100)
>>> clocks.due(now_ms=30_000)
[]
>>> due = clocks.due(now_ms=30_200); due
[('t1', 3)]
>>> clocks = clocks.sent(due, now_ms=30_200)
>>> clocks.due(now_ms=30_400), clocks.due(now_ms=30_800)
([], [('t1', 3)])
>>> clocks.seen("t1", {"ts_ms": 30_300, "clock": None}, now_ms=30_300).due(now_ms=99_000)
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

MARGIN_MS = 100
"""Past the deadline before the room calls time: "a tie goes to the player" (R29)."""
RETRY_MS = 500
"""How long the room waits before asking again when the table found the time not up."""


@dataclass(frozen=True, slots=True)
class _Running:
    seat: int
    expires_at_ms: int  # the table's clock
    due_ms: int  # the room's clock
    countdown: int = 0  # the final count's seconds (R29: 5 in TDA 2024, 10 in TDA 2011)


@dataclass(frozen=True, slots=True)
class PlayerClocks:
    running: tuple[tuple[str, _Running], ...] = ()

    def seen(self, table: str, state: Mapping[str, Any], now_ms: int) -> PlayerClocks:
        """A table's state arrived at ``now_ms``: note a new clock, forget a stopped one."""
        others = tuple((t, r) for t, r in self.running if t != table)
        clock = state.get("clock")
        if not isinstance(clock, dict):
            return replace(self, running=others)
        mine = dict(self.running).get(table)
        seat, expires = int(clock["seat"]), int(clock["expires_at_ms"])
        if mine is not None and (mine.seat, mine.expires_at_ms) == (seat, expires):
            return self
        left = max(0, expires - int(state.get("ts_ms", expires)))
        running = _Running(seat, expires, now_ms + left + MARGIN_MS, int(clock.get("countdown", 0)))
        return replace(
            self, running=tuple(sorted((*others, (table, running)), key=lambda item: item[0]))
        )

    def due(self, now_ms: int) -> list[tuple[str, int]]:
        """Tables whose player's time is up: (table, seat) to send ``clock_expired``."""
        return [(t, r.seat) for t, r in self.running if r.due_ms <= now_ms]

    def sent(self, told: list[tuple[str, int]], now_ms: int) -> PlayerClocks:
        """``clock_expired`` went out: ask again later unless the table's state ends it."""
        tables = {t for t, _ in told}
        return replace(
            self,
            running=tuple(
                (t, replace(r, due_ms=now_ms + RETRY_MS) if t in tables else r)
                for t, r in self.running
            ),
        )

    def next_due_ms(self) -> int | None:
        return min((r.due_ms for _, r in self.running), default=None)

    def countdown(self, now_ms: int) -> list[dict[str, int | str | bool]]:
        """What a display shows: each table's player on the clock, the seconds left and
        whether it is the final count."""
        shown: list[dict[str, int | str | bool]] = []
        for t, r in self.running:
            left = max(0, (r.due_ms - MARGIN_MS - now_ms + 999) // 1000)
            shown.append(
                {"table": t, "seat": r.seat, "seconds_left": left, "final": left <= r.countdown}
            )
        return shown
