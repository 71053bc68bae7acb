"""An all-in and call during hand-for-hand (TDA 2024 RP-8-F): the hands stay face down.

Outside hand-for-hand, an all-in with no further betting possible turns every live hand
face up at once (R16) and the board is run out. During hand-for-hand RP-8-F says "the
cards of all players in the hand should remain face down. Dealers should not deal
additional cards until instructed": the table holds the runout (the state says
``runout_held``) instead of calling for the hands, refuses to table them, and alerts if a
board or burn card is read before the instruction. The instruction is the director's (or
the room clock's) ``resume_runout``; turning hand-for-hand off is one too. Then the R16
ruling is published as it would have been, and the dealer tables the hands and deals on.

Profiles without such a rule (TDA 2011) set ``hand_for_hand_runout_held = false``: the
runout goes on as R16 says.
"""

from __future__ import annotations

from pokertable.controller.engine.model import Phase, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.table.inputs import RoomCommand
from pokertable.controller.table.outputs import event_out, reply, warn
from pokertable.controller.table.state import Output, TableSession

FACE_UP = "face_up"  # the engine's R16 ruling: all live hands are tabled now


def hold_runout(
    session: TableSession, rulings: tuple[Ruling, ...]
) -> tuple[TableSession, tuple[Ruling, ...]]:
    """Under hand-for-hand, the engine's R16 face-up call becomes RP-8-F's hold."""
    rules = session.config.rules
    if not (
        session.hand_for_hand
        and rules.hand_for_hand_runout_held
        and any(r.code == FACE_UP for r in rulings)
    ):
        return session, rulings
    held = Ruling(
        RulingKind.INFO,
        (rules.cite("hand_for_hand_runout"),),
        "all in and called during hand-for-hand: the hands stay face down and no more "
        "cards are dealt until the room says so",
        code="runout_held",
    )
    said = tuple(held if r.code == FACE_UP else r for r in rulings)
    return evolve(session, runout_held=True), said


def refuse_while_held(
    session: TableSession, what: str, code: str, at_ms: int, out: list[Output],
    seat: int | None = None,
) -> bool:
    """Tell the dealer the runout is held (RP-8-F); True if it is."""
    if not session.runout_held:
        return False
    warn(
        out,
        session,
        "hand_for_hand_runout",
        f"{what} before the room's instruction: hand-for-hand all-in, the hands stay face "
        "down and no more cards are dealt until the runout is released",
        code,
        at_ms,
        seat=seat,
    )
    return True


def release_runout(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    """The instruction came: publish R16's call for the hands, and deal on."""
    if not session.runout_held:
        return session
    rules = session.config.rules
    hand = session.hand
    session = evolve(session, runout_held=False)
    if hand is None or hand.phase is Phase.COMPLETE:
        return session
    text = "runout released: all live hands are tabled now, then the board is run out"
    out.append(
        event_out(
            session,
            "runout_released",
            (
                Ruling(
                    RulingKind.INFO,
                    (rules.cite("hand_for_hand_runout"), rules.cite("all_in_face_up")),
                    text,
                    code=FACE_UP,
                ),
            ),
            {},
            at_ms,
        )
    )
    return session


def resume_runout(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    """The director's (or the room clock's) ``resume_runout`` (RP-8-F "until instructed")."""
    if not session.runout_held:
        reply(session, cmd, out, False, "no runout is held at this table", "command")
        return session
    reply(session, cmd, out, True)
    return release_runout(session, cmd.at_ms, out)
