"""Game rotations of mixed-game events: which game a hand is dealt in, by level or by orbit.

A mix is a list of games (PHH codes) and how they rotate: ``level`` (each level plays the
next game of the list) or ``orbit`` (the game changes after every orbit, within a level).
HORSE, the 8-game mix and dealer's choice are named mixes; any other order may be listed,
and the rules do not ask for stud and stud/8 to be consecutive (RP-18: they need not be, to
reduce errors), so nothing here checks it. Dealer's choice rotates by orbit and the player
on the button picks each orbit's game from the list (``Orbit.next_game`` is None then).

An orbit is as many hands as players were dealt in on its first hand: a full trip of the
button in the flop and draw games, and for stud (no button, R11-B freezes it) the same
number of hands. The TDA does not define it (RP-19 only names "going orbit for orbit").

>>> horse = mix_named("horse", Rotation.ORBIT)
>>> orbit = Orbit.start(horse)
>>> orbit.game
'FT'
>>> for _ in range(3):
...     orbit = orbit.after_hand(players_dealt=3)
>>> orbit.game, orbit.hands
('FO/8', 0)
>>> mix_named("horse", Rotation.LEVEL).game_of_level(3)
'FR'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from pokertable.controller.engine.mixed_games import GameFamily, family
from pokertable.controller.engine.model import Variant


class Rotation(StrEnum):
    LEVEL = "level"  # the next game of the mix at each new level
    ORBIT = "orbit"  # the next game after each orbit, within a level


HORSE = ("FT", "FO/8", "FR", "F7S", "F7S/8")
"""Limit hold'em, limit Omaha hi-lo, razz, stud, stud hi-lo."""
EIGHT_GAME = ("F2L3D", "FT", "FO/8", "FR", "F7S", "F7S/8", "NT", "PO")
"""2-7 triple draw, limit hold'em, limit Omaha hi-lo, razz, stud, stud hi-lo, no-limit
hold'em, pot-limit Omaha (the usual order)."""
DEALERS_CHOICE = "dealers-choice"
NAMED_MIXES: dict[str, tuple[str, ...]] = {
    "horse": HORSE,
    "8-game": EIGHT_GAME,
    DEALERS_CHOICE: (*EIGHT_GAME, "PO/8", "N2L1D", "FB"),
}
KNOWN_GAMES = frozenset(
    {v.value for v in Variant} | {"F2L3D", "N2L1D", "FB"}
)
"""The games a mix may list: every game the engine rules, and the draw games (house rules,
RP-17), whose tables come with their own branch."""


@dataclass(frozen=True, slots=True)
class Mix:
    games: tuple[str, ...]
    rotation: Rotation
    dealers_choice: bool = False

    def __post_init__(self) -> None:
        """A mix that cannot run names what is wrong (the structure file's field)."""
        if not self.games:
            raise ValueError("games: a mix needs at least one game")
        unknown = [g for g in self.games if g not in KNOWN_GAMES]
        if unknown:
            raise ValueError(f"games: unknown game(s) {unknown} (known: "
                             f"{', '.join(sorted(KNOWN_GAMES))})")
        if len(set(self.games)) != len(self.games):
            raise ValueError("games: a game is listed twice")
        if self.dealers_choice and self.rotation is not Rotation.ORBIT:
            raise ValueError("rotation: dealer's choice is chosen orbit by orbit ('orbit')")

    @property
    def has_stud(self) -> bool:
        return any(family(g) is GameFamily.STUD for g in self.games)

    def game_of_level(self, number: int) -> str:
        """Rotation by level: level ``number`` (from 1) plays the mix's next game."""
        return self.games[(number - 1) % len(self.games)]


def mix_named(name: str, rotation: Rotation) -> Mix:
    """A named mix (``horse``, ``8-game``, ``dealers-choice``)."""
    if name not in NAMED_MIXES:
        raise ValueError(f"games: unknown mix {name!r} (named mixes: "
                         f"{', '.join(NAMED_MIXES)}; or list the games)")
    return Mix(NAMED_MIXES[name], rotation, dealers_choice=name == DEALERS_CHOICE)


@dataclass(frozen=True, slots=True)
class Orbit:
    """Where a table is in an orbit rotation: the game, and hands played of its orbit."""

    mix: Mix
    index: int = 0
    hands: int = 0
    length: int = 0  # hands in this orbit, fixed on its first hand (0: not started)
    chosen: str | None = None  # dealer's choice: the game picked for this orbit

    @classmethod
    def start(cls, mix: Mix, chosen: str | None = None) -> Orbit:
        return cls(mix, chosen=chosen)

    @property
    def game(self) -> str | None:
        """The game of the orbit (None: dealer's choice, not picked yet)."""
        if self.mix.dealers_choice:
            return self.chosen
        return self.mix.games[self.index]

    def after_hand(self, players_dealt: int) -> Orbit:
        """One more hand of the orbit; the orbit's last hand moves to the next game."""
        length = self.length or players_dealt
        if self.hands + 1 < length:
            return replace(self, hands=self.hands + 1, length=length)
        index = (self.index + 1) % len(self.mix.games)
        return replace(self, index=index, hands=0, length=0, chosen=None)

    def choose(self, game: str) -> Orbit:
        """Dealer's choice: the button's player picks the game of the orbit."""
        if not self.mix.dealers_choice:
            raise ValueError("the games rotate by themselves: no choice to make")
        if game not in self.mix.games:
            raise ValueError(f"{game!r} is not one of the games of the mix "
                             f"({', '.join(self.mix.games)})")
        if self.hands:
            raise ValueError("the game is chosen before the orbit's first hand")
        return replace(self, chosen=game)
