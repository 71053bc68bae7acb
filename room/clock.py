"""The tournament clock: a blind structure and the time left, as a pure model.

Time comes in as an argument (milliseconds of a monotonic clock), so the clock is tested
without waiting and replays exactly. ``room.clock_service`` is the process that reads the
real time, tells the tables (``level`` applies from each table's next hand, TDA Rule 23;
``break_start`` / ``break_end``) and publishes what the big clock display shows.

>>> structure = parse_structure('''
... [[step]]
... small_blind = 100
... big_blind = 200
... minutes = 20
... [[step]]
... break_minutes = 10
... color_up = [25]
... [[step]]
... small_blind = 200
... big_blind = 400
... ante = 400
... ante_format = "bb_ante"
... minutes = 20
... ''')
>>> clock = TournamentClock.start(structure, now_ms=0)
>>> clock.display(now_ms=60_000)["remaining_ms"], clock.current.name
(1140000, 'Level 1')
>>> clock, changes = clock.advance(now_ms=20 * 60_000)
>>> [c.kind for c in changes], clock.current.name
(['break_start'], 'Break')
>>> clock, changes = clock.advance(now_ms=30 * 60_000 + 5)
>>> [(c.kind, c.step.level_number) for c in changes]
[('break_end', None), ('level', 2)]
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from typing import Any

ANTE_FORMATS = ("none", "ante", "bb_ante")


class StructureError(ValueError):
    """A blind structure that can't be run; the message names the step and field."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the structure: a level (blinds) or a break."""

    minutes: int
    level_number: int | None = None
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    ante_format: str = "none"
    color_up: tuple[int, ...] = ()
    """Denominations removed at this break (Rule 24's chip race)."""

    @property
    def is_break(self) -> bool:
        return self.level_number is None

    @property
    def name(self) -> str:
        return "Break" if self.is_break else f"Level {self.level_number}"

    def level_payload(self) -> dict[str, Any]:
        return {"number": self.level_number, "small_blind": self.small_blind,
                "big_blind": self.big_blind, "ante": self.ante, "ante_format": self.ante_format}


def parse_structure(text: str) -> tuple[Step, ...]:
    """Steps from TOML ``[[step]]`` tables; every problem is a StructureError naming it."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StructureError(f"structure: {error}") from None
    steps: list[Step] = []
    number = 0
    for index, item in enumerate(raw.get("step", []), 1):
        where = f"step {index}"
        unknown = set(item) - {"small_blind", "big_blind", "ante", "ante_format", "minutes",
                               "break_minutes", "color_up"}
        if unknown:
            raise StructureError(f"{where}: unknown keys {sorted(unknown)}")
        if "break_minutes" in item:
            minutes = item["break_minutes"]
            if not isinstance(minutes, int) or not 1 <= minutes <= 240:
                raise StructureError(f"{where}.break_minutes: 1 to 240, got {minutes!r}")
            steps.append(Step(minutes, color_up=tuple(item.get("color_up", ()))))
            continue
        number += 1
        try:
            step = Step(int(item["minutes"]), number, int(item["small_blind"]),
                        int(item["big_blind"]), int(item.get("ante", 0)),
                        str(item.get("ante_format", "ante" if item.get("ante") else "none")))
        except KeyError as error:
            raise StructureError(f"{where}: missing {error.args[0]}") from None
        if step.minutes < 1 or not 0 < step.small_blind <= step.big_blind:
            raise StructureError(f"{where}: minutes >= 1 and 0 < small_blind <= big_blind")
        if step.ante_format not in ANTE_FORMATS:
            raise StructureError(f"{where}.ante_format: one of {ANTE_FORMATS}")
        steps.append(step)
    if not steps or steps[0].is_break:
        raise StructureError("structure: the first step must be a level")
    return tuple(steps)


@dataclass(frozen=True, slots=True)
class Change:
    """What the tables must be told: ``level``, ``break_start`` or ``break_end``."""

    kind: str
    step: Step


@dataclass(frozen=True, slots=True)
class TournamentClock:
    structure: tuple[Step, ...]
    index: int
    step_started_ms: int
    """When the current step began (shifted forward by pauses)."""
    paused_at_ms: int | None = None

    @classmethod
    def start(cls, structure: tuple[Step, ...], now_ms: int) -> TournamentClock:
        return cls(structure, 0, now_ms)

    @property
    def current(self) -> Step:
        return self.structure[self.index]

    def remaining_ms(self, now_ms: int) -> int:
        at = self.paused_at_ms if self.paused_at_ms is not None else now_ms
        return max(0, self.current.minutes * 60_000 - (at - self.step_started_ms))

    def pause(self, now_ms: int) -> TournamentClock:
        return self if self.paused_at_ms is not None else replace(self, paused_at_ms=now_ms)

    def resume(self, now_ms: int) -> TournamentClock:
        if self.paused_at_ms is None:
            return self
        return replace(self, paused_at_ms=None,
                       step_started_ms=self.step_started_ms + now_ms - self.paused_at_ms)

    def add_time(self, ms: int) -> TournamentClock:
        """The director adds (or, negative, takes) time on the current step."""
        return replace(self, step_started_ms=self.step_started_ms + ms)

    def advance(self, now_ms: int) -> tuple[TournamentClock, list[Change]]:
        """Move past every step whose time ran out by ``now_ms``; what to tell the tables.

        A stopped clock moves on too when time was taken off it (hand-for-hand, RP-8-D:
        blinds go up as the time per hand comes off the clock); it stays stopped.
        """
        clock, changes = self, []
        while clock.remaining_ms(now_ms) == 0 and (
                clock.index + 1 < len(clock.structure)):
            ended = clock.current
            start = clock.step_started_ms + ended.minutes * 60_000
            clock = replace(clock, index=clock.index + 1, step_started_ms=start)
            if ended.is_break:
                changes.append(Change("break_end", ended))
            if clock.current.is_break:
                changes.append(Change("break_start", clock.current))
            else:
                changes.append(Change("level", clock.current))
        return clock, changes

    def display(self, now_ms: int, players_left: int | None = None,
                chips_in_play: int | None = None) -> dict[str, Any]:
        """What the big clock shows (published retained on ``<venue>/clock/status``)."""
        step = self.current
        following = next((s for s in self.structure[self.index + 1:] if not s.is_break), None)
        next_break = next((i for i, s in enumerate(self.structure) if i > self.index
                           and s.is_break), None)
        return {
            "step": step.name,
            "is_break": step.is_break,
            "level": None if step.is_break else step.level_payload(),
            "remaining_ms": self.remaining_ms(now_ms),
            "paused": self.paused_at_ms is not None,
            "next_level": following.level_payload() if following else None,
            "color_up": list(step.color_up),
            "steps_to_break": None if next_break is None else next_break - self.index,
            "players_left": players_left,
            "average_stack": (chips_in_play // players_left
                              if players_left and chips_in_play is not None else None),
        }
