"""Stud hands at the table: who is dealt in and what a stud hand does to the button (R11-B).

Stud has no button and no blinds. In a mixed game the button moves, after the last flop-game
hand, to where the next hold'em hand would have it and is frozen there during stud; back to
a flop game it starts where it was frozen (R11-B). So a stud hand's setup is the next hold'em
hand's positions (kept for the record and the room's balancing: "the player moved in stud
is the player who would be big blind"), with every player who has chips dealt in, and a
finished stud hand leaves the table's positions as they were: every stud hand of the round
finds the same frozen button, and the first flop-game hand after them starts there.
"""

from __future__ import annotations

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine.model import HandState, Level, Variant, evolve
from pokertable.controller.engine.seating import TableState, after_hand, next_hand


def stud_setup(table: TableState, *, hand_id: str, variant: Variant, level: Level,
               first_button: int | None) -> HandSetup:
    """The frozen positions of the next hold'em hand, every player with chips dealt in."""
    frozen = next_hand(table, hand_id=hand_id, variant=variant, level=level,
                       first_button=first_button)
    players = tuple((s.seat, s.player, s.stack) for s in table.seats if s.stack > 0)
    return evolve(frozen, small_blind_seat=None, players=players)


def after_stud_hand(table: TableState, hand: HandState) -> TableState:
    """New stacks; the button and blind positions stay frozen (R11-B)."""
    moved = after_hand(table, hand)
    return evolve(
        moved,
        button=table.button,
        small_blind_position=table.small_blind_position,
        big_blind_seat=table.big_blind_seat,
        big_blind_player=table.big_blind_player,
    )
