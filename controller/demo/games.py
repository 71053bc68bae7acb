"""``pokertable demo --game``: which game the demo table deals, and its levels.

A single game is dealt from the first hand (a board game, a stud game or a draw game);
``horse`` is the HORSE rotation (limit hold'em, Omaha hi-lo, razz, stud, stud hi-lo) and
``8-game`` the 8-game mix (2-7 triple draw, limit hold'em, Omaha hi-lo, razz, stud, stud
hi-lo, no-limit hold'em, pot-limit Omaha), the mixes by the names ``engine/rotation.py``
gives them, one game per clock level as a mixed-game structure says (TDA R11-B;
``Level.game``). The demo's clock announces each level after a number of hands rather than
of minutes (a level applies from the next hand, R23), so that a short run plays every game:
``--hands 10`` of HORSE plays two hands of each. The levels are the clock's own ``level``
payloads and, for ``--floor``, the same levels as the clock's structure file.
``dealers-choice`` is one level whose games rotate by orbit: before each orbit the player
on the button names its game, which the demo's floor sends to the table (``choose_game``).

>>> plan = demo_plan("horse", hands=10, players=6)
>>> [level["game"] for level in plan.levels], plan.hands_per_level
(['FT', 'FO/8', 'FR', 'F7S', 'F7S/8'], 2)
>>> plan.level_before(4)["game"], plan.level_before(3)
('FR', None)
>>> [level["game"] for level in demo_plan("8-game", hands=4, players=3).levels][:4]
['F2L3D', 'FT', 'FO/8', 'FR']
"""

from __future__ import annotations

import argparse
import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pokertable.controller.engine.rotation import DEALERS_CHOICE, EIGHT_GAME, HORSE, NAMED_MIXES

if TYPE_CHECKING:
    from pokertable.controller.table.session import TableSession

MIXES = {"horse": HORSE, "8-game": EIGHT_GAME}
"""The rotations ``--game`` takes, by the names of the engine's named mixes; and
``dealers-choice``: the player on the button picks each orbit's game (``CHOICE``)."""
CHOICE = NAMED_MIXES[DEALERS_CHOICE]

GAMES = {
    "holdem": "NT",
    "limit-holdem": "FT",
    "omaha": "PO",
    "omaha-hi-lo": "FO/8",
    "plo-hi-lo": "PO/8",
    "razz": "FR",
    "stud": "F7S",
    "stud-hi-lo": "F7S/8",
    "2-7-triple-draw": "F2L3D",
    "2-7-single-draw": "N2L1D",
    "badugi": "FB",
}
"""The single games ``--game`` takes, by name (a PHH code such as ``F7S/8`` is taken too)."""

STUD = frozenset({"FR", "F7S", "F7S/8"})
_FIXED_LIMIT = frozenset({"FT", "FO/8", *STUD, "F2L3D", "FB"})
DEFAULT_HANDS_PER_LEVEL = 9  # hold'em as the demo always played it: level 2 from hand 10


def game_name(text: str) -> str:
    """``--game``: a name of ``GAMES`` or ``MIXES``, or a PHH code; anything else is refused
    naming the valid ones (exit 2 before anything starts)."""
    known = [*GAMES, *MIXES, DEALERS_CHOICE]
    if text in known or text in GAMES.values():
        return text
    hint = difflib.get_close_matches(text, known, n=1)
    guess = f"; did you mean {hint[0]!r}?" if hint else ""
    raise argparse.ArgumentTypeError(
        f"unknown game {text!r}{guess} (known: {', '.join(known)}, or a PHH code: "
        f"{', '.join(GAMES.values())})"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", type=game_name, default=None, metavar="GAME",
        help="the game dealt: " + ", ".join(GAMES) + "; or a rotation, one game per level: "
        "horse (HORSE) or 8-game (the 8-game mix); or dealers-choice (the player on the "
        "button picks each orbit's game); default: no-limit hold'em",
    )


def _level(number: int, code: str | None, stakes: int, *, game: bool) -> dict[str, Any]:
    """One level's clock payload. Fixed limit: the small bet is the big blind. Stud: an
    ante from every player and a bring-in of a quarter of the small bet (RP-10-E)."""
    small_bet = 200 * stakes
    level: dict[str, Any] = {"number": number, "small_blind": small_bet // 2,
                             "big_blind": small_bet, "ante": 0, "ante_format": "none"}
    if code in STUD:
        level.update(ante=small_bet // 8, ante_format="per_player", bring_in=small_bet // 4)
    elif number > 1 and code not in _FIXED_LIMIT:
        level.update(ante=small_bet, ante_format="bb_ante")  # the demo's level 2 of old
    if game and code is not None:
        level["game"] = code
    return level


@dataclass(frozen=True, slots=True)
class DemoPlan:
    """The demo's levels and when the clock announces each."""

    levels: tuple[dict[str, Any], ...]
    hands_per_level: int
    rotation: tuple[str, ...] = ()  # mixed games: the games in turn (the levels go on)
    choice: tuple[str, ...] = ()  # dealer's choice: the games the button's player picks from

    def level(self, index: int) -> dict[str, Any]:
        """The level ``index`` (0 = the first); a rotation goes round with doubled stakes,
        a single game stays at its last level."""
        if index < len(self.levels):
            return self.levels[index]
        if not self.rotation:
            return self.levels[-1]
        code = self.rotation[index % len(self.rotation)]
        return _level(index + 1, code, 1 + index // len(self.rotation), game=True)

    def level_before(self, hand: int) -> dict[str, Any] | None:
        """The level the clock announces before hand number ``hand`` (0-based), if any."""
        if hand == 0 and self.choice:
            return self.levels[0]  # the rotation by orbit reaches the table by the clock
        if hand == 0 or hand % self.hands_per_level:
            return None
        index = hand // self.hands_per_level
        if not self.rotation and index >= len(self.levels):
            return None
        return self.level(index)

    @property
    def deals_stud(self) -> bool:
        """Some level deals a stud game: the seats need their upcard pads."""
        return any(level.get("game") in STUD for level in self.levels) or bool(
            STUD & set(self.choice))

    def first_level(self) -> dict[str, Any]:
        """The table config's first level (``LevelSection`` fields but its number)."""
        return {k: v for k, v in self.levels[0].items()
                if k not in ("number", "rotation", "stud_ante")}

    def structure(self) -> str:
        """The levels as the tournament clock's structure file (``--floor``)."""
        lines = [f'[mix]\ngames = "{DEALERS_CHOICE}"\nrotation = "orbit"'] if self.choice else []
        for level in self.levels:
            lines.append("[[step]]")
            for key in ("small_blind", "big_blind", "ante", "ante_format", "game", "bring_in",
                        "stud_ante"):
                value = level.get(key)
                if key == "ante_format" and value == "none":
                    continue
                if value is not None and (value or key not in ("ante", "bring_in", "stud_ante")):
                    lines.append(f"{key} = {value!r}".replace("'", '"'))
            lines.append("minutes = 15")
        return "\n".join(lines) + "\n"


def demo_plan(game: str | None, *, hands: int, players: int) -> DemoPlan:
    """The levels for ``--game`` (None: no-limit hold'em as the demo always dealt it).

    A mix changes game every orbit, or sooner when ``hands`` would not reach every game.
    """
    if game == DEALERS_CHOICE:  # one level, the games by orbit as the button's player picks
        level = _level(1, None, 1, game=False)
        level.update(bring_in=level["big_blind"] // 4, stud_ante=level["big_blind"] // 8,
                     rotation={"by": "orbit", "games": list(CHOICE), "dealers_choice": True})
        return DemoPlan((level,), hands or players, choice=CHOICE)
    mix = MIXES.get(game or "")
    if mix is not None:
        per = max(1, min(players, hands // len(mix))) if hands else players
        levels = tuple(_level(i + 1, code, 1, game=True) for i, code in enumerate(mix))
        return DemoPlan(levels, per, mix)
    code = GAMES.get(game, game) if game is not None else None
    levels = (_level(1, code, 1, game=code is not None), _level(2, code, 2, game=code is not None))
    return DemoPlan(levels, DEFAULT_HANDS_PER_LEVEL)


def has_level(number: int, session: TableSession) -> bool:
    """The table has level ``number``, in play or for its next hand."""
    pending = session.pending_level
    return session.level.number == number or (pending is not None and pending.number == number)


def level_reached(level: dict[str, Any], session: TableSession) -> bool:
    """The table has ``level`` (its number, and a rotation by orbit when it brings one),
    in play or for its next hand."""
    if not has_level(level["number"], session):
        return False
    return "rotation" not in level or (session.pending_rotation or session.rotation) is not None


def to_pick(session: TableSession) -> tuple[str, ...]:
    """Dealer's choice: the games the button's player picks from for the next hand's orbit,
    when it has no game yet (else none)."""
    pending = session.pending_level is not None
    rotation = session.pending_rotation if pending else session.rotation
    if rotation is None or not rotation.orbit.mix.dealers_choice or rotation.orbit.game:
        return ()
    return rotation.orbit.mix.games


def button_picks(dealer: Any, director: Any) -> None:
    """Dealer's choice, before a hand: when its orbit has no game yet, the player on the
    button names one (a bot's random pick) and the floor sends it to the table
    (``SimulatedDirector.choose_game``); the hand starts once the table has it."""
    choices = to_pick(dealer.app.snapshot())
    if choices:
        director.choose_game(dealer.rng.choice(choices))
        dealer.wait(lambda s: not to_pick(s), "the button's pick to reach the table")
