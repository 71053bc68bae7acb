"""Stud hands at the table: who is dealt in and what stud does to the button (R11-B).

Stud has no button and no blinds. In a mixed game, after the last flop-game hand the button
moves to where the next hold'em hand would have it and is frozen there during stud; "the
player moved in stud is the player who would be big blind if the game were hold'em for
that hand"; shifting back to a flop game the button starts where it was frozen (R11-B).

So the table keeps two sets of positions during stud: the table's own go on as if hold'em
were dealt (each stud hand's ``big_blind_seat`` is the would-be big blind, which the room
balances from), and the positions of the last flop-game hand are kept aside
(``TableSession.stud_frozen``): every stud hand's ``button`` is the frozen one, and the first
flop-game hand after stud starts from them again. Every player with chips is dealt in.
"""

from __future__ import annotations

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine.model import Level, Variant, evolve
from pokertable.controller.engine.seating import TableState, next_hand


def stud_setup(table: TableState, frozen: TableState, *, hand_id: str, variant: Variant,
               level: Level, first_button: int | None) -> HandSetup:
    """The would-be hold'em positions of this hand at the frozen button, every player with
    chips dealt in."""
    would_be = next_hand(table, hand_id=hand_id, variant=variant, level=level,
                         first_button=first_button)
    button = next_hand(frozen, hand_id=hand_id, variant=variant, level=level,
                       first_button=first_button).button
    players = tuple((s.seat, s.player, s.stack) for s in table.seats if s.stack > 0)
    return evolve(would_be, button=button, small_blind_seat=None, players=players)


def thawed(table: TableState, frozen: TableState) -> TableState:
    """Back to a flop game: the positions of the last flop-game hand, the seats of now."""
    return evolve(
        table,
        button=frozen.button,
        small_blind_position=frozen.small_blind_position,
        big_blind_seat=frozen.big_blind_seat,
        big_blind_player=frozen.big_blind_player,
    )
