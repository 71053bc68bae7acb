"""The dealer console's words: hand start, declarations for the seat on the action,
confirm (misdeal or showdown), floor and clock calls, the game picked under dealer's
choice."""

from __future__ import annotations

from pokertable.controller.engine import betting
from pokertable.controller.engine.events import Discard
from pokertable.controller.engine.model import (
    Phase,
    Street,
)
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.interpretation.events import (
    Declaration,
    DeclKind,
)
from pokertable.controller.irregularities.events import ConfirmMisdeal, DealerFirstCard
from pokertable.controller.table.hand_for_hand import press_hand_start
from pokertable.controller.table.hands import confirm_showdown, reader_step, run_event
from pokertable.controller.table.inputs import (
    ConsoleButton,
    ConsolePress,
)
from pokertable.controller.table.mixed_commands import game_picked
from pokertable.controller.table.outputs import event_out, warn
from pokertable.controller.table.player_clock import call_clock
from pokertable.controller.table.state import Output, TableSession


def console_press(session: TableSession, press: ConsolePress, out: list[Output]) -> TableSession:
    rules = session.config.rules
    if press.button == ConsoleButton.HAND_START:
        return press_hand_start(session, press.at_ms, out)  # held under hand-for-hand (RP-8)
    if press.button in (ConsoleButton.FLOOR, ConsoleButton.CLOCK):
        floor = press.button == ConsoleButton.FLOOR
        text = "floor called to the table" if floor else "clock called"
        concept = "rules"
        out.append(
            event_out(
                session,
                f"{press.button}_call",
                (Ruling(RulingKind.ALERT, (rules.cite(concept),), text),),
                {},
                press.at_ms,
            )
        )
        if press.button == ConsoleButton.CLOCK:
            return call_clock(session, press.at_ms, out)  # R29
        return session
    if press.button == ConsoleButton.CHOOSE_GAME:  # dealer's choice, between hands
        return game_picked(session, press, out)
    hand = session.hand
    if hand is None or hand.phase is Phase.COMPLETE:
        warn(
            out,
            session,
            "rules",
            f"'{press.button}' pressed with no hand in progress",
            "no_hand",
            press.at_ms,
        )
        return session
    if press.button == ConsoleButton.CONFIRM:
        tracked = session.tracked
        if (
            tracked is not None
            and tracked.misdeal is not None
            and not tracked.over
            and not tracked.sa(session.config.rules)  # no misdeal after SA (R35-D)
        ):
            # The table proved a misdeal (R35-A): the dealer's confirm declares it.
            return reader_step(session, ConfirmMisdeal(press.at_ms), out, press.at_ms, "misdeal")
        if (
            tracked is not None
            and tracked.misdeal is None
            and not tracked.over
            and not hand.board
            and not hand.face_up
            # stud has no board: its deal is third street (a showdown may come from it)
            and not (hand.variant.is_stud
                     and (hand.street is not Street.THIRD or hand.phase is Phase.SHOWDOWN))
            # nor board in a draw game: its deal is before the first draw
            and not (hand.variant.is_draw
                     and (hand.draw is not None or hand.phase is Phase.SHOWDOWN))
        ):
            # Before any board card, the dealer's confirm is the first card he saw go to the
            # wrong seat (R35-A2), which the readers cannot order heads-up at dealing speed:
            # the layer declares it, or says why not (after substantial action, R35-D).
            return reader_step(session, DealerFirstCard(press.at_ms), out, press.at_ms, "misdeal")
        return confirm_showdown(session, press.at_ms, out)
    if press.button == ConsoleButton.UNDO:
        warn(
            out,
            session,
            "in_turn_binding",
            "an action in turn is binding (R50-A): the floor corrects errors",
            "undo_refused",
            press.at_ms,
        )
        return session
    if hand.variant.is_draw and hand.draw is not None and hand.phase is Phase.DEALING and (
        press.button == ConsoleButton.CHECK_CALL and hand.draw.order
    ):
        # The player on the draw is done: he drew the cards read in the muck for him, or
        # stands pat (knocks) if none were (docs/floor.md).
        seat = hand.draw.order[0]
        return reader_step(session, Discard(seat, (), press.at_ms), out, press.at_ms, "draw")
    seat_no = hand.action_on
    opts = betting.options_for(hand, rules)
    if press.lit_seat is not None and press.lit_seat != seat_no:
        _warn_action_moved(out, session, press, seat_no)
        return session
    if press.seat is not None and press.seat != seat_no and hand.has_seat(press.seat):
        return _out_of_turn_words(session, press, out)
    if seat_no is None or opts is None:
        warn(
            out,
            session,
            "in_turn_binding",
            f"'{press.button}' pressed but nobody is on the action",
            "no_action",
            press.at_ms,
        )
        return session
    kind_of: dict[str, DeclKind] = {  # a ConsoleButton is its str
        ConsoleButton.CHECK_CALL: DeclKind.CHECK if opts.can_check else DeclKind.CALL,
        ConsoleButton.FOLD: DeclKind.FOLD,
        ConsoleButton.ALL_IN: DeclKind.ALL_IN,
        ConsoleButton.BET_RAISE: DeclKind.RAISE if hand.call_to else DeclKind.BET,
        ConsoleButton.POT: DeclKind.POT,
    }
    if press.button not in kind_of:
        return _unknown_button(session, press, out)
    # The dealer enters what the player said; the chips that follow fulfil it (R40-A: the
    # declaration came first). "Raise" with no amount waits for the chips (R51-A).
    amount = press.amount if press.button == ConsoleButton.BET_RAISE else None
    declaration = Declaration(seat_no, kind_of[press.button], amount, at_ms=press.at_ms)
    return run_event(session, declaration, out, press.at_ms, "declaration")


def _warn_action_moved(
    out: list[Output], session: TableSession, press: ConsolePress, on_action: int | None
) -> None:
    """The press was meant for the seat whose LED was lit, and the table's action has moved
    since (a late reader, a stale LED): nothing is applied, so a press never lands on a
    seat the dealer did not mean (issue #12)."""
    now = f"seat {on_action}" if on_action is not None else "nobody"
    warn(
        out,
        session,
        "in_turn_binding",
        f"'{press.button}' pressed for seat {press.lit_seat} but the table has the action "
        f"on {now}: not applied; check the seat's chips and press again",
        "press_wrong_seat",
        press.at_ms,
        seat=press.lit_seat,
    )


def _out_of_turn_words(
    session: TableSession, press: ConsolePress, out: list[Output]
) -> TableSession:
    """Words of a seat the action has not reached (R53-A): interpretation reads them as the
    action they would be now; the irregularities layer holds it until his turn."""
    hand = session.hand
    assert hand is not None and press.seat is not None
    facing = hand.call_to > hand.seat(press.seat).bet
    kind_of: dict[str, DeclKind] = {  # a ConsoleButton is its str
        ConsoleButton.CHECK_CALL: DeclKind.CALL if facing else DeclKind.CHECK,
        ConsoleButton.FOLD: DeclKind.FOLD,
        ConsoleButton.ALL_IN: DeclKind.ALL_IN,
        ConsoleButton.BET_RAISE: DeclKind.RAISE if hand.call_to else DeclKind.BET,
        ConsoleButton.POT: DeclKind.POT,
    }
    kind = kind_of.get(press.button)
    if kind is None:
        return _unknown_button(session, press, out)
    amount = press.amount if press.button == ConsoleButton.BET_RAISE else None
    declaration = Declaration(press.seat, kind, amount, at_ms=press.at_ms)
    return run_event(session, declaration, out, press.at_ms, "declaration")


def _unknown_button(session: TableSession, press: ConsolePress, out: list[Output]) -> TableSession:
    """A word the console does not know: an alert that names it, and nothing else changes."""
    warn(out, session, "rules", f"unknown console button {press.button!r}", "unknown_button",
         press.at_ms)
    return session
