"""Hand-for-hand at the table (TDA 2024 RP-8): finish the current hand, then hold up.

While the room plays hand-for-hand, every table finishes the hand it is on and then waits:
the dealer's hand start is held (the state says ``deal_held``) until the room's
``deal_next`` releases one hand at every table together, so no table plays a second hand
while another is still on its first. A held start begins the hand the moment the release
arrives; a release that comes first lets the dealer's next press start at once. Turning
hand-for-hand off releases a held start (and a held all-in runout, RP-8-F:
``runout_hold``). A re-deal after a misdeal is the same hand
(R35-C) and is never held. The room (``room.hand_for_hand``) decides when to release.

Every hand start of the live table goes through ``press_hand_start``, which also counts
the hand for players sitting out a penalty (``penalties``).
"""

from __future__ import annotations

from pokertable.controller.engine.model import Phase, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities.hand import HandStatus
from pokertable.controller.table.hands import start_hand
from pokertable.controller.table.inputs import RoomCommand
from pokertable.controller.table.outputs import event_out, reply, warn
from pokertable.controller.table.penalties import penalty_hand_dealt
from pokertable.controller.table.runout_hold import release_runout
from pokertable.controller.table.state import Output, TableSession


def _between_hands(session: TableSession) -> bool:
    hand = session.hand
    return hand is None or hand.phase is Phase.COMPLETE


def press_hand_start(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    """The dealer starts a hand: held under hand-for-hand until the room releases it."""
    redeal = session.tracked is not None and session.tracked.status is HandStatus.MISDEAL
    if (
        session.hand_for_hand
        and not session.deal_released
        and not redeal
        and _between_hands(session)
        and not session.paused
    ):
        if session.deal_held is None:
            warn(
                out,
                session,
                "hand_for_hand",
                "hand-for-hand: hold the deal until the room starts the next hand at every table",
                "hand_for_hand_hold",
                at_ms,
            )
        return evolve(session, deal_held=at_ms)
    before = session.hand_number
    session = start_hand(session, at_ms, out)
    if session.hand_number == before:
        return session
    return penalty_hand_dealt(
        evolve(session, deal_held=None, deal_released=False, runout_held=False)
    )


def set_hand_for_hand(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    """The director's (or the clock's) ``hand_for_hand`` on or off."""
    enabled = bool(cmd.payload["enabled"])
    reply(session, cmd, out, True)
    if enabled == session.hand_for_hand:
        return session
    rules = session.config.rules
    text = (
        "hand-for-hand: finish the current hand, then hold up"
        if enabled
        else "hand-for-hand is over: deal as usual"
    )
    out.append(
        event_out(
            session,
            "hand_for_hand",
            (
                Ruling(
                    RulingKind.ACCEPTED, (rules.cite("hand_for_hand"),), text, code="hand_for_hand"
                ),
            ),
            {"enabled": enabled},
            cmd.at_ms,
        )
    )
    session = evolve(session, hand_for_hand=enabled, deal_released=False)
    if not enabled:
        session = release_runout(session, cmd.at_ms, out)  # RP-8-F: nothing left to wait for
    if not enabled and session.deal_held is not None:
        return press_hand_start(session, cmd.at_ms, out)
    return session


def deal_next(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    """The room starts the next hand at every table: a held start begins now."""
    if not session.hand_for_hand:
        reply(session, cmd, out, False, "this table is not playing hand-for-hand", "command")
        return session
    if not _between_hands(session):
        reply(
            session,
            cmd,
            out,
            False,
            f"hand {session.hand.hand_id if session.hand else ''} is still in progress",
            "command",
        )
        return session
    reply(session, cmd, out, True)
    session = evolve(session, deal_released=True)
    if session.deal_held is not None:
        return press_hand_start(session, cmd.at_ms, out)
    return session
