"""Mixed games (HORSE, 8-game): what a change of game does to the button (TDA R11-B).

A structure level may name its game (``Level.game``), or a mix rotates the games by level
or by orbit (``engine/rotation.py``); the table deals each hand in the game it starts
under (R23: a new level, and so a new game, applies from the next hand). Between two flop
games (hold'em, Omaha, Omaha hi-lo) the button and the blinds simply move on as for the
next hand: R11-B's freeze is about stud, which has no button. Hold'em to stud: after the
last flop-game hand the button moves to where it would be for the next hold'em hand and
is frozen there during stud; the player moved during stud (balancing) is the one who would
be big blind if the game were hold'em for that hand; back to a flop game, the button
starts where it was frozen (R11-B).

The freeze needs no state of its own: the table's positions (``seating.TableState``) stay
those of the last flop-game hand while stud is dealt (``after_stud_hand``), so the frozen
button is the next flop hand's (``frozen_positions``) and the first flop hand after stud
starts there (``seating.next_hand`` as usual).

>>> from pokertable.controller.engine.model import Variant
>>> button_at_game_change(Variant.FLHE, Variant.FLO8)
<ButtonPlan.MOVES_ON: 'moves_on'>
>>> button_at_game_change(Variant.FLO8, "F7S")
<ButtonPlan.FREEZE: 'freeze'>
>>> button_at_game_change("F7S", "FR")
<ButtonPlan.STAYS_FROZEN: 'stays_frozen'>
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine.model import HandState, Level, Phase, Variant
from pokertable.controller.engine.seating import TableSeat, TableState, next_hand


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
    STAYS_FROZEN = "stays_frozen"  # stud to stud (RP-18: in any order): nothing moves


def button_at_game_change(previous: Variant | str, following: Variant | str) -> ButtonPlan:
    """What happens to the button when the game of the next hand is ``following`` (R11-B)."""
    before, after = family(previous), family(following)
    if after is GameFamily.STUD and before is not GameFamily.STUD:
        return ButtonPlan.FREEZE
    if before is GameFamily.STUD and after is not GameFamily.STUD:
        return ButtonPlan.RESUME
    if before is GameFamily.STUD:
        return ButtonPlan.STAYS_FROZEN
    return ButtonPlan.MOVES_ON


# --- R11-B: the frozen button ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FrozenPositions:
    """Where the button and blinds would be for a flop-game hand now (R11-B): the button is
    frozen here during stud, and ``big_blind_seat`` is the player moved to balance."""

    button: int
    small_blind_seat: int | None
    big_blind_seat: int


def frozen_positions(
    table: TableState, level: Level, first_button: int | None = None
) -> FrozenPositions:
    """R11-B: the positions of the next flop-game hand from the table as the last flop hand
    left it (``first_button``: the drawn button when the event starts with stud)."""
    setup = next_hand(table, hand_id="r11b", variant=Variant.FLHE, level=level,
                      first_button=first_button)
    return FrozenPositions(setup.button, setup.small_blind_seat, setup.big_blind_seat)


def stud_hand(
    table: TableState, *, hand_id: str, variant: Variant, level: Level,
    first_button: int | None = None,
) -> HandSetup:
    """A stud hand at a mixed-game table: every player with chips is dealt in (stud has no
    blinds to wait for, R8-A's button rule is a flop-game rule); the setup carries the frozen
    button and, as its big blind, the player who would be big blind if the game were
    hold'em: the one the room moves to balance during stud (R11-B)."""
    if not variant.is_stud:
        raise ValueError(f"{variant.value} is not a stud game")
    frozen = frozen_positions(table, level, first_button)
    return HandSetup(
        hand_id=hand_id, variant=variant, level=level, button=frozen.button,
        small_blind_seat=None, big_blind_seat=frozen.big_blind_seat,
        players=tuple((s.seat, s.player, s.stack) for s in table.seats if s.stack > 0),
    )


def after_stud_hand(table: TableState, hand: HandState) -> TableState:
    """The stacks after a stud hand; the positions stay the last flop hand's, which is what
    keeps the button frozen (R11-B). Players with no chips leave the table."""
    if hand.phase is not Phase.COMPLETE:
        raise ValueError(f"hand {hand.hand_id} is not complete")
    stacks = {s.seat: s.stack for s in hand.seats}
    seats = tuple(
        TableSeat(s.seat, s.player, stacks.get(s.seat, s.stack), new=s.new and s.seat not in stacks)
        for s in table.seats
        if stacks.get(s.seat, s.stack) > 0
    )
    return replace(table, seats=seats)
