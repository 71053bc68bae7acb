"""Mixed games by orbit at the table (issue #30): the clock's level names a mix that rotates
orbit by orbit (``engine/rotation.py``); the table deals each hand in the orbit's game.

A level's ``rotation`` (``{"by": "orbit", "games": [...], "dealers_choice": false}``) comes
with the level and applies from the next hand, as the level does (R23). The same mix at the
next level goes on where it is (the orbit does not restart at a level change); another mix
starts at its first game. ``stud_ante`` is the stud games' ante per player when it differs
from the level's. Stud hands keep the button frozen (R11-B, ``mixed_games.stud_hand``).
Dealer's choice (the button's player picks each orbit's game) needs the dealer to enter the
pick: not dealt at the table yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokertable.controller.engine.model import AnteFormat, Level, Variant, evolve, game_named
from pokertable.controller.engine.rotation import Mix, Orbit, Rotation


@dataclass(frozen=True, slots=True)
class LevelRotation:
    """The orbit the table is in, and the stud games' own ante (None: the level's)."""

    orbit: Orbit
    stud_ante: int | None = None


def rotation_of(level: dict[str, Any]) -> LevelRotation | None:
    """The rotation a room ``level`` payload names (None: none); ValueError naming the field."""
    spec = level.get("rotation")
    if spec is None:
        return None
    if spec.get("dealers_choice"):
        raise ValueError("level.rotation: dealer's choice is not dealt at a table yet")
    games = tuple(str(g) for g in spec["games"])
    for game in games:
        game_named(game, "level.rotation.games")
    mix = Mix(games, Rotation.ORBIT)
    if mix.has_stud and not level.get("bring_in"):
        raise ValueError("level.bring_in: a mix with a stud game needs a bring-in (RP-10-E)")
    return LevelRotation(Orbit.start(mix), level.get("stud_ante"))


def carried_on(current: LevelRotation | None, new: LevelRotation | None) -> LevelRotation | None:
    """The next level's rotation: the same mix goes on in its orbit."""
    if new is not None and current is not None and new.orbit.mix == current.orbit.mix:
        return LevelRotation(current.orbit, new.stud_ante)
    return new


def hand_game(rotation: LevelRotation | None, level: Level, table_game: Variant
              ) -> tuple[Variant, Level]:
    """The game of the next hand and its level (a stud game with its own ante)."""
    if rotation is None:
        return level.game or table_game, level
    game = game_named(rotation.orbit.game, "rotation")
    if game.is_stud and rotation.stud_ante is not None:
        fmt = AnteFormat.PER_PLAYER if rotation.stud_ante else AnteFormat.NONE
        level = evolve(level, ante=rotation.stud_ante, ante_format=fmt)
    return game, level


def after_hand(rotation: LevelRotation | None, players_dealt: int) -> LevelRotation | None:
    if rotation is None:
        return None
    return LevelRotation(rotation.orbit.after_hand(players_dealt), rotation.stud_ante)
