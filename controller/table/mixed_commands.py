"""Room commands of the mixed games and stud that no reader can see: the game the button's
player picks under dealer's choice (from the room, or entered by the dealer at the table's
console), and the floor's report that a player picked up his
upcards (R66) where no upcard pad saw it (a pad not fitted, a card slid off its edge)."""

from __future__ import annotations

from pokertable.controller.engine import EngineError
from pokertable.controller.engine.events import UpcardsPickedUp
from pokertable.controller.engine.mixed_games import frozen_positions
from pokertable.controller.engine.model import Phase, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.table.hands import first_button_seat, reader_step
from pokertable.controller.table.inputs import ConsolePress, RoomCommand
from pokertable.controller.table.orbit_rotation import TableRotation
from pokertable.controller.table.outputs import event_out, reply, warn
from pokertable.controller.table.state import Output, TableSession


def game_chosen(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    """Dealer's choice from the room (the director's ``choose_game``): the game the player
    on the button picks for the orbit, before its first hand (``Orbit.choose``); the table
    deals it from its next hand."""
    game = str(cmd.payload["game"])
    chosen = _choose(session, game)
    if isinstance(chosen, tuple):
        reply(session, cmd, out, False, *chosen)
        return session
    reply(session, cmd, out, True)
    out.append(_chosen_event(chosen, game, None, cmd.sender or "director", cmd.at_ms))
    return chosen


def game_picked(session: TableSession, press: ConsolePress, out: list[Output]) -> TableSession:
    """Dealer's choice at the table: the dealer enters the game the button's player names
    (the console word ``choose_game``; ``seat``: the player who named it, held with it).
    The choice is the button's player's: named by another seat, or while a hand is still
    being played (the next button is not known yet), it is refused and the dealer told why;
    taken, it is what the director's ``choose_game`` does, published as the same event."""
    hand = session.hand
    if hand is not None and hand.phase is not Phase.COMPLETE:
        _refuse(session, press, out, f"hand {hand.hand_id} is still being played: the player "
                "on the next button names the game once it is over")
        return session
    chooser = _choosing_seat(session)
    if press.seat is not None and press.seat != chooser:
        whose = f"seat {chooser}'s, on the button" if chooser is not None else "the button's"
        _refuse(session, press, out, f"seat {press.seat} may not pick the game: the choice "
                f"is {whose}")
        return session
    if not press.game:
        _refuse(session, press, out, "no game named: enter the game the player on the "
                "button picks")
        return session
    chosen = _choose(session, press.game)
    if isinstance(chosen, tuple):
        _refuse(session, press, out, chosen[0])
        return session
    out.append(_chosen_event(chosen, press.game, chooser, "dealer", press.at_ms))
    return chosen


def _choose(session: TableSession, game: str) -> TableSession | tuple[str, str]:
    """The session with ``game`` picked for the orbit, or (why not, the field at fault)."""
    pending = session.pending_level is not None  # the next hand's level and its rotation
    rotation = session.pending_rotation if pending else session.rotation
    if rotation is None or not rotation.orbit.mix.dealers_choice:
        return "no dealer's choice at this level: the games rotate by themselves", "command"
    try:
        orbit = rotation.orbit.choose(game)
    except ValueError as exc:  # not a game of the mix, or the orbit is under way
        return str(exc), "game"
    chosen = TableRotation(orbit, rotation.stud_ante)
    if pending:
        return evolve(session, pending_rotation=chosen)
    return evolve(session, rotation=chosen)


def _choosing_seat(session: TableSession) -> int | None:
    """The seat whose choice it is: the next hand's button (a stud hand's is frozen where
    the next hold'em hand has it, R11-B), or None when no hand can be dealt."""
    level = session.pending_level or session.level
    try:
        return frozen_positions(session.table, level, first_button_seat(session)).button
    except EngineError:  # fewer than two players with chips
        return None


def _chosen_event(session: TableSession, game: str, seat: int | None, by: str,
                  at_ms: int) -> Output:
    rules = session.config.rules
    whose = f"seat {seat}, on the button," if seat is not None else "the player on the button"
    ruling = Ruling(RulingKind.INFO, (rules.cite("mixed_game_button"),),
                    f"dealer's choice: {whose} picks {game} for the orbit, dealt from the "
                    "next hand", seat=seat, code="game_chosen")
    return event_out(session, "game_chosen", (ruling,), {"game": game, "seat": seat, "by": by},
                     at_ms)


def _refuse(session: TableSession, press: ConsolePress, out: list[Output], why: str) -> None:
    warn(out, session, "mixed_game_button", why, "choice_refused", press.at_ms, press.seat)


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
