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
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from pokertable.controller.engine.mixed_games import GameFamily, family
from pokertable.controller.engine.model import dealt_game
from pokertable.controller.engine.rotation import Mix, Rotation, mix_named

ANTE_FORMATS = ("none", "per_player", "bb_ante", "button_ante")
"""The tables' ante formats (mqtt/schemas/common.json); a structure may also write ``ante``
for ``per_player``, and a level with an ante and no format has a per-player ante."""
_ALIASES = {"ante": "per_player"}


class StructureError(ValueError):
    """A blind structure that can't be run; the message (one line) names step and field."""


class _LevelStep(BaseModel):
    """A level as the structure file writes it: whole numbers only (strict), no extra key."""

    model_config = ConfigDict(extra="forbid", strict=True)
    small_blind: int = Field(gt=0)
    big_blind: int = Field(gt=0)
    ante: int = Field(default=0, ge=0)
    ante_format: Literal["none", "ante", "per_player", "bb_ante", "button_ante"] | None = None
    minutes: int = Field(ge=1, le=24 * 60)
    # Mixed games (HORSE): the game of this level as a PHH code; its blinds and limits are
    # the level's (fixed limit: the small bet is the big blind). None: the tables' game.
    game: str | None = None
    # Stud games (a stud level, or a mix with stud in it): the bring-in (RP-10-E), and the
    # stud games' ante per player when it differs from ``ante`` (a mix by orbit).
    bring_in: int | None = Field(default=None, gt=0)
    stud_ante: int | None = Field(default=None, ge=0)

    _known_game = field_validator("game")(dealt_game)

    @model_validator(mode="after")
    def _consistent(self) -> _LevelStep:
        if self.small_blind > self.big_blind:
            raise ValueError("small_blind must not be more than big_blind")
        if self.ante and self.ante_format == "none":
            raise ValueError("an ante with ante_format none")
        if not self.ante and self.ante_format not in (None, "none"):
            raise ValueError(f"ante_format {self.ante_format} needs an ante")
        if self.bring_in is not None and self.bring_in > self.big_blind:
            raise ValueError("bring_in must not be more than the small bet (big_blind)")
        return self

    def format(self) -> str:
        if self.ante_format is None:
            return "per_player" if self.ante else "none"
        return _ALIASES.get(self.ante_format, self.ante_format)


class _BreakStep(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    break_minutes: int = Field(ge=1, le=240)
    color_up: list[Annotated[int, Field(gt=0)]] = Field(default_factory=list, max_length=20)


class _MixTable(BaseModel):
    """``[mix]``: the games of a mixed-game event and how they rotate (engine/rotation.py)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    games: str | list[str]  # a named mix (horse, 8-game, dealers-choice) or PHH codes
    rotation: Literal["level", "orbit"] = "level"

    def to_mix(self) -> Mix:
        rotation = Rotation(self.rotation)
        if isinstance(self.games, str):
            return mix_named(self.games, rotation)
        return Mix(tuple(self.games), rotation)


class _Structure(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    step: list[dict[str, Any]] = Field(min_length=1)
    mix: _MixTable | None = None


def _one_line(where: str, error: ValidationError) -> StructureError:
    problems = [
        f"{where}{'.' if where and e['loc'] else ''}{'.'.join(str(p) for p in e['loc'])}: "
        f"{e['msg']}"
        for e in error.errors()
    ]
    return StructureError("; ".join(problems))


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
    game: str | None = None
    """Mixed games: the level's game (PHH code), told to the tables with its blinds."""
    bring_in: int | None = None
    """Stud games: the bring-in of the level (RP-10-E)."""
    stud_ante: int | None = None
    """A mix by orbit: the stud games' ante per player, when not ``ante``."""
    mix: Mix | None = None
    """A mix by orbit: the games the tables rotate through, orbit by orbit."""

    @property
    def is_break(self) -> bool:
        return self.level_number is None

    @property
    def name(self) -> str:
        return "Break" if self.is_break else f"Level {self.level_number}"

    def level_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"number": self.level_number, "small_blind": self.small_blind,
                   "big_blind": self.big_blind, "ante": self.ante, "ante_format": self.ante_format}
        if self.game is not None:
            payload["game"] = self.game
        if self.bring_in is not None:
            payload["bring_in"] = self.bring_in
        if self.stud_ante is not None:
            payload["stud_ante"] = self.stud_ante
        if self.mix is not None:
            payload["rotation"] = {"by": self.mix.rotation.value, "games": list(self.mix.games),
                                   "dealers_choice": self.mix.dealers_choice}
        return payload


def parse_structure(text: str) -> tuple[Step, ...]:
    """Steps from TOML ``[[step]]`` tables, validated as the table's config is (pydantic,
    strict: ``"100"`` or ``100.0`` is not a blind); every problem is a one-line
    StructureError naming the step and the field."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StructureError(f"structure: {error}") from None
    try:
        parsed = _Structure.model_validate(raw)
    except ValidationError as error:
        raise _one_line("", error) from None
    items = parsed.step
    try:
        mix = None if parsed.mix is None else parsed.mix.to_mix()
    except ValueError as error:
        raise StructureError(f"mix.{error}") from None
    steps: list[Step] = []
    number = 0
    for index, item in enumerate(items, 1):
        where = f"step {index}"
        try:
            if "break_minutes" in item:
                pause = _BreakStep.model_validate(item)
                steps.append(Step(pause.break_minutes, color_up=tuple(pause.color_up)))
                continue
            level = _LevelStep.model_validate(item)
        except ValidationError as error:
            raise _one_line(where, error) from None
        number += 1
        game = level.game
        if game is None and mix is not None and mix.rotation is Rotation.LEVEL:
            game = mix.game_of_level(number)  # dealt as if the level named it
        stud = (game is not None and family(game) is GameFamily.STUD) or (
            mix is not None and mix.rotation is Rotation.ORBIT and mix.has_stud)
        if stud and level.bring_in is None:
            raise StructureError(f"{where}.bring_in: a level with a stud game needs a bring-in")
        steps.append(Step(level.minutes, number, level.small_blind, level.big_blind,
                          level.ante, level.format(), game=game, bring_in=level.bring_in,
                          stud_ante=level.stud_ante,
                          mix=mix if mix is not None and mix.rotation is Rotation.ORBIT
                          else None))
    if steps[0].is_break:
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

    def go_to(self, index: int, now_ms: int) -> tuple[TournamentClock, list[Change]]:
        """The director moves the clock to step ``index`` (go to a level, back one step):
        that step starts now with its whole time (a stopped clock stays stopped), and the
        tables are told as when the clock reaches it by itself.

        >>> clock = TournamentClock.start(parse_structure(
        ...     "[[step]]\\nsmall_blind=1\\nbig_blind=2\\nminutes=5\\n"
        ...     "[[step]]\\nsmall_blind=2\\nbig_blind=4\\nminutes=5"), now_ms=0)
        >>> clock, changes = clock.go_to(1, now_ms=1_000)
        >>> clock.current.name, clock.remaining_ms(1_000), [c.kind for c in changes]
        ('Level 2', 300000, ['level'])
        """
        if not 0 <= index < len(self.structure):
            raise ValueError(f"step {index + 1} is not in the structure "
                             f"(1 to {len(self.structure)})")
        ended = self.current
        clock = replace(self, index=index, step_started_ms=now_ms,
                        paused_at_ms=None if self.paused_at_ms is None else now_ms)
        changes = [Change("break_end", ended)] if ended.is_break and index != self.index else []
        if clock.current.is_break:
            changes.append(Change("break_start", clock.current))
        else:
            changes.append(Change("level", clock.current))
        return clock, changes

    def level_index(self, number: int) -> int:
        """The step index of level ``number``; ValueError when there is none."""
        for index, step in enumerate(self.structure):
            if step.level_number == number:
                return index
        raise ValueError(f"the structure has no level {number}")

    def saved(self, wall_offset_ms: int) -> dict[str, Any]:
        """What survives a restart, on the wall clock (``wall_offset_ms``: wall minus this
        clock's milliseconds), so the time the process was down counts as played."""
        return {"index": self.index,
                "step_started_wall_ms": self.step_started_ms + wall_offset_ms,
                "paused_at_wall_ms": (None if self.paused_at_ms is None
                                      else self.paused_at_ms + wall_offset_ms)}

    @classmethod
    def restored(cls, structure: tuple[Step, ...], saved: dict[str, Any],
                 wall_offset_ms: int) -> TournamentClock:
        """The clock ``saved`` wrote, on this process's clock; ValueError when it does not
        fit the structure.

        >>> structure = parse_structure("[[step]]\\nsmall_blind=1\\nbig_blind=2\\nminutes=5")
        >>> before = TournamentClock.start(structure, now_ms=1_000).pause(61_000)
        >>> after = TournamentClock.restored(structure, before.saved(10_000), -50_000)
        >>> after.remaining_ms(now_ms=999_999), after.paused_at_ms is not None
        (240000, True)
        """
        index = saved.get("index")
        started = saved.get("step_started_wall_ms")
        paused = saved.get("paused_at_wall_ms")
        if not (isinstance(index, int) and 0 <= index < len(structure)
                and isinstance(started, int) and (paused is None or isinstance(paused, int))):
            raise ValueError(f"saved clock {saved!r} does not fit the structure "
                             f"({len(structure)} steps)")
        return cls(structure, index, started - wall_offset_ms,
                   None if paused is None else paused - wall_offset_ms)

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
