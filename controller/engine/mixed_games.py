"""Mixed games (HORSE, 8-game): what a change of game does to the button (TDA R11-B).

A structure level may name its game (``Level.game``); the table deals each hand in the
game of the level it starts under (R23: a new level, and so a new game, applies from the
next hand). Between two flop games (hold'em, Omaha, Omaha hi-lo) the button and the blinds
simply move on as for the next hand: R11-B's freeze is about stud, which has no button.
Hold'em to stud: after the last flop-game hand the button moves to where it would be for
the next hold'em hand and is frozen there during stud; back to a flop game, the button
starts where it was frozen (R11-B). The table deals stud at those frozen positions and a
stud hand leaves them as they were (``table/stud_table.py``), so ``FREEZE`` and ``RESUME``
need no bookkeeping beyond announcing them.

>>> from pokertable.controller.engine.model import Variant
>>> button_at_game_change(Variant.FLHE, Variant.FLO8)
<ButtonPlan.MOVES_ON: 'moves_on'>
>>> button_at_game_change(Variant.FLO8, "F7S")
<ButtonPlan.FREEZE: 'freeze'>
"""

from __future__ import annotations

from enum import StrEnum

from pokertable.controller.engine.model import Variant


class GameFamily(StrEnum):
    FLOP = "flop"  # a button, blinds, a board: hold'em and Omaha, high or hi-lo
    STUD = "stud"  # no button: antes and a bring-in (seven-card stud, stud/8, razz)
    DRAW = "draw"  # a button and blinds, no board (house rules, TDA RP-17)


_STUD = frozenset({"F7S", "F7S/8", "FR"})
_DRAW = frozenset({"F2L3D", "N2L1D", "FB"})


def family(game: Variant | str) -> GameFamily:
    """The family of a game, by its PHH code."""
    code = game.value if isinstance(game, Variant) else game
    if code in _STUD:
        return GameFamily.STUD
    if code in _DRAW:
        return GameFamily.DRAW
    return GameFamily.FLOP


class ButtonPlan(StrEnum):
    MOVES_ON = "moves_on"  # the button and blinds advance as for any next hand
    FREEZE = "freeze"  # R11-B: moved to where the next hold'em hand has it, frozen for stud
    RESUME = "resume"  # R11-B: back from stud, the button starts where it was frozen


def button_at_game_change(previous: Variant | str, following: Variant | str) -> ButtonPlan:
    """What happens to the button when the game of the next hand is ``following`` (R11-B)."""
    before, after = family(previous), family(following)
    if after is GameFamily.STUD and before is not GameFamily.STUD:
        return ButtonPlan.FREEZE
    if before is GameFamily.STUD and after is not GameFamily.STUD:
        return ButtonPlan.RESUME
    return ButtonPlan.MOVES_ON
