"""Games by orbit at the live table: the clock's mix rotates the game after every orbit.

A level of a mix by orbit carries the rotation (``level.rotation``: the games, in order, and
whether the button's player picks each orbit's game) and, for its stud games, the bring-in
and ``stud_ante``. The table counts the orbit with ``engine/rotation.Orbit``: as many hands
as players were dealt in on its first hand, counted when each hand starts, so a misdeal's
re-deal (the same hand, R35-C) is not counted twice. When the hand that starts is the
orbit's last, the table announces the next game with it; the next hand then starts with
the existing game-change ruling (R11-B: the button frozen for stud, resumed after it). A
level that keeps the same mix keeps the orbit where it is; another mix starts over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pokertable.controller.engine.model import AnteFormat, Level, Variant, evolve, game_named
from pokertable.controller.engine.rotation import Mix, Orbit, Rotation
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.errors import ControllerError
from pokertable.controller.rules import RuleProfile


@dataclass(frozen=True, slots=True)
class TableRotation:
    """Where the table is in the clock's rotation by orbit."""

    orbit: Orbit
    stud_ante: int | None = None  # the stud games' ante per player, when not the level's


class RotationRefused(ControllerError, ValueError):
    """A level's rotation the table cannot deal; ``field`` names the level's field."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"{field}: {why}")
        self.field = field


def rotation_of_level(
    level: Mapping[str, Any], current: TableRotation | None
) -> TableRotation | None:
    """The rotation a ``level`` message brings (None: the level's game or the table's); the
    same mix as ``current`` goes on in its orbit. ``RotationRefused`` names the field."""
    rotation = level.get("rotation")
    if rotation is None:
        return None
    if rotation.get("by") != Rotation.ORBIT.value:
        raise RotationRefused("level.rotation.by", "the clock names each level's game when "
                              "the mix rotates by level")
    try:
        mix = Mix(tuple(rotation["games"]), Rotation.ORBIT,
                  bool(rotation.get("dealers_choice", False)))
        games = [game_named(g, "") for g in mix.games]
    except ValueError as exc:  # an unknown game, a bad mix
        raise RotationRefused("level.rotation.games", str(exc).removeprefix("games: ")) from None
    if any(g.is_stud for g in games) and not level.get("bring_in"):
        raise RotationRefused("level.bring_in", "a mix with a stud game needs a bring_in "
                              "(RP-10-E)")
    keep = current is not None and current.orbit.mix == mix
    orbit = current.orbit if current is not None and keep else Orbit.start(mix)
    return TableRotation(orbit, level.get("stud_ante"))


def game_now(rotation: TableRotation) -> Variant | None:
    """The game of the orbit under way (None: dealer's choice, not picked yet)."""
    game = rotation.orbit.game
    return None if game is None else game_named(game, "rotation")


def level_of_hand(rotation: TableRotation | None, level: Level) -> Level | str:
    """The level a hand is dealt at: the orbit's game, and for a stud game its ante per
    player (``stud_ante``, or the level's); a str says why no hand can start."""
    if rotation is None:
        return level
    game = game_now(rotation)
    if game is None:
        return ("dealer's choice: the player on the button names this orbit's game "
                f"({', '.join(rotation.orbit.mix.games)}) before the hand starts")
    if not game.is_stud:
        return evolve(level, game=game)
    ante = level.ante if rotation.stud_ante is None else rotation.stud_ante
    return evolve(level, game=game, ante=ante,
                  ante_format=AnteFormat.PER_PLAYER if ante else AnteFormat.NONE)


def counted(
    rotation: TableRotation | None, players_dealt: int, rules: RuleProfile
) -> tuple[TableRotation | None, tuple[Ruling, ...]]:
    """One more hand of the orbit; when it is the orbit's last, the ruling that announces
    the next game (R11-B for what the button then does)."""
    if rotation is None:
        return None, ()
    before = rotation.orbit
    after = before.after_hand(players_dealt)
    rotation = TableRotation(after, rotation.stud_ante)
    if after.hands or (after.index == before.index and not before.mix.dealers_choice):
        return rotation, ()  # mid-orbit, or a mix of one game
    game = before.game or "the game picked"
    following = (after.game if not after.mix.dealers_choice
                 else "the game the next button's player picks")
    text = (f"last hand of the {game} orbit: the next hand is dealt in {following}")
    return rotation, (Ruling(RulingKind.INFO, (rules.cite("mixed_game_button"),), text,
                             code="orbit_last_hand"),)


def next_game(rotation: TableRotation | None, level: Level, table_game: Variant) -> str | None:
    """The game the next hand is dealt in (public state ``next_game``); None: dealer's
    choice, not picked yet."""
    if rotation is None:
        return (level.game or table_game).value
    game = game_now(rotation)
    return None if game is None else game.value


def orbit_json(rotation: TableRotation | None) -> dict[str, Any] | None:
    """The public state's ``orbit``: the mix, its game now and how far the orbit is."""
    if rotation is None:
        return None
    orbit = rotation.orbit
    return {"games": list(orbit.mix.games), "game": orbit.game,
            "dealers_choice": orbit.mix.dealers_choice,
            "hands_played": orbit.hands, "hands": orbit.length or None}
