"""Room commands of the mixed games and stud that no reader can see: the game the button's
player picks under dealer's choice, and the floor's report that a player picked up his
upcards (R66) where no upcard pad saw it (a pad not fitted, a card slid off its edge)."""

from __future__ import annotations

from pokertable.controller.engine.events import UpcardsPickedUp
from pokertable.controller.engine.model import Phase, evolve
from pokertable.controller.table.hands import reader_step
from pokertable.controller.table.inputs import RoomCommand
from pokertable.controller.table.orbit_rotation import TableRotation
from pokertable.controller.table.outputs import reply
from pokertable.controller.table.state import Output, TableSession


def game_chosen(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    """Dealer's choice: the game the player on the button picks for the orbit, before its
    first hand (``Orbit.choose``); the table deals it from its next hand."""
    pending = session.pending_level is not None  # the next hand's level and its rotation
    rotation = session.pending_rotation if pending else session.rotation
    if rotation is None or not rotation.orbit.mix.dealers_choice:
        reply(session, cmd, out, False, "no dealer's choice at this level: the games rotate "
              "by themselves", "command")
        return session
    try:
        orbit = rotation.orbit.choose(str(cmd.payload["game"]))
    except ValueError as exc:  # not a game of the mix, or the orbit is under way
        reply(session, cmd, out, False, str(exc), "game")
        return session
    reply(session, cmd, out, True)
    chosen = TableRotation(orbit, rotation.stud_ante)
    if pending:
        return evolve(session, pending_rotation=chosen)
    return evolve(session, rotation=chosen)


def upcards_reported(session: TableSession, cmd: RoomCommand, out: list[Output]
                     ) -> TableSession:
    """R66 reported by the floor: the engine rules whether he faced action (his hand is
    dead), asks the floor when he was on the action with nothing to call, or keeps it live."""
    hand = session.hand
    if hand is None or hand.phase is Phase.COMPLETE or session.tracked is None:
        reply(session, cmd, out, False, "no hand in progress", "command")
        return session
    if not hand.variant.is_stud:
        reply(session, cmd, out, False, f"{hand.variant.value} has no upcards (R66 is stud)",
              "command")
        return session
    seat = int(cmd.payload["seat"])
    if not hand.has_seat(seat) or not hand.seat(seat).in_hand:
        reply(session, cmd, out, False, f"seat {seat} has no live hand", "seat")
        return session
    reply(session, cmd, out, True)
    picked = UpcardsPickedUp(seat, None, cmd.at_ms)
    return reader_step(session, picked, out, cmd.at_ms, "upcards_picked_up")
