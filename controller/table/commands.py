"""Room commands from MQTT: the clock's levels and breaks, the director's pauses, seating,
penalties and floor decisions, and a networked dealer console."""

from __future__ import annotations

from pokertable.controller.engine import EngineError
from pokertable.controller.engine.events import (
    CardExposed,
    DeadAtDeal,
    KillAtDeal,
    PlayerAction,
    UpcardsPickedUp,
)
from pokertable.controller.engine.model import (
    AnteFormat,
    Level,
    Phase,
    evolve,
    game_named,
)
from pokertable.controller.engine.rulings import (
    FloorDecision,
    Ruling,
    RulingKind,
)
from pokertable.controller.irregularities.events import (
    ConfirmMisdeal,
    DealerExposure,
    KillHand,
)
from pokertable.controller.irregularities.events import TableEvent as ReaderEvent
from pokertable.controller.irregularities.hand import HandStatus
from pokertable.controller.table.clock_requests import request_refusal
from pokertable.controller.table.console import console_press
from pokertable.controller.table.floor import LATE_COMMANDS, late_command, seated_during_misdeal
from pokertable.controller.table.found_chips import (
    found_chips_decided,
    found_not_in_action,
    is_found_after_hand,
)
from pokertable.controller.table.hand_for_hand import deal_next, set_hand_for_hand
from pokertable.controller.table.hands import reader_step, run_event
from pokertable.controller.table.inputs import (
    Command,
    ConsolePress,
    RoomCommand,
)
from pokertable.controller.table.mixed_commands import game_chosen, upcards_reported
from pokertable.controller.table.oot_answers import answer_action
from pokertable.controller.table.orbit_rotation import RotationRefused, rotation_of_level
from pokertable.controller.table.outputs import event_out, reply
from pokertable.controller.table.penalties import record_penalty
from pokertable.controller.table.runout_hold import resume_runout
from pokertable.controller.table.state import Output, TableSession


def room_command(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    p = cmd.payload
    if cmd.command == Command.LEVEL:
        lv = p["level"]
        fmt = {
            "none": AnteFormat.NONE,
            "bb_ante": AnteFormat.BIG_BLIND_ANTE,
            "per_player": AnteFormat.PER_PLAYER,
        }.get(lv["ante_format"])
        if fmt is None:
            reply(
                session,
                cmd,
                out,
                False,
                f"ante format {lv['ante_format']!r} is not supported at this table",
                "level.ante_format",
            )
            return session
        try:
            game = None if lv.get("game") is None else game_named(lv["game"], "level.game")
        except ValueError as exc:  # a game of the protocol this engine does not deal
            reply(session, cmd, out, False, str(exc), "level.game")
            return session
        try:  # a mix by orbit; the same mix goes on in its orbit
            rotation = rotation_of_level(lv, session.rotation)
        except RotationRefused as exc:
            reply(session, cmd, out, False, str(exc), exc.field)
            return session
        if (game or session.config.variant).is_stud and not lv.get("bring_in"):
            reply(session, cmd, out, False, "a stud level needs a bring_in (RP-10-E)",
                  "level.bring_in")
            return session
        try:
            # The chip unit belongs to the chip set in play, not to the clock's level.
            level = Level(
                number=lv["number"],
                small_blind=lv["small_blind"],
                big_blind=lv["big_blind"],
                ante=lv["ante"],
                ante_format=fmt,
                chip_unit=session.level.chip_unit,
                bring_in=lv.get("bring_in", 0),  # stud: RP-10-E
                game=game,
            )
        except ValueError as exc:
            reply(session, cmd, out, False, str(exc), "level")
            return session
        in_hand = session.hand is not None and session.hand.phase is not Phase.COMPLETE
        reply(session, cmd, out, True)
        if in_hand or session.hand is not None:
            return evolve(session, pending_level=level, pending_rotation=rotation)
        return evolve(session, level=level, pending_level=None, rotation=rotation,
                      pending_rotation=None)
    if cmd.command in (Command.PAUSE, Command.RESUME):
        reply(session, cmd, out, True)
        return evolve(session, paused=cmd.command == Command.PAUSE)
    if cmd.command == Command.HAND_FOR_HAND:  # RP-8: finish this hand, then hold up
        return set_hand_for_hand(session, cmd, out)
    if cmd.command == Command.DEAL_NEXT:  # RP-8: the room starts the next hand everywhere at once
        return deal_next(session, cmd, out)
    if cmd.command == Command.RESUME_RUNOUT:  # RP-8-F: the held all-in runout goes on
        return resume_runout(session, cmd, out)
    if cmd.command in (Command.BREAK_START, Command.BREAK_END):
        reply(session, cmd, out, True)
        return evolve(session, paused=cmd.command == Command.BREAK_START)
    if cmd.command == Command.SEAT_PLAYER:
        try:
            table = session.table.seat_player(int(p["seat"]), str(p["player"]), int(p["stack"]))
        except EngineError as exc:
            reply(session, cmd, out, False, str(exc), "seat")
            return session
        reply(session, cmd, out, True)
        if session.tracked is not None and session.tracked.status is HandStatus.MISDEAL:
            out.append(seated_during_misdeal(session, int(p["seat"]), cmd.at_ms))  # R35-C
        return evolve(session, table=table)
    if cmd.command == Command.UNSEAT_PLAYER:  # R10/R11: moved by the room, with his chips
        return _unseat(session, cmd, out)
    if cmd.command == Command.COLOR_UP:  # R24: these denominations left play at the colour-up
        reply(session, cmd, out, True)
        removed = frozenset(int(d) for d in p["removed"])
        return evolve(session, removed_denominations=session.removed_denominations | removed)
    if cmd.command == Command.PLAYERS_LEFT:
        reply(session, cmd, out, True)
        return evolve(session, event_players_left=int(p["count"]))
    if cmd.command == Command.CLOCK_CALL and (why := request_refusal(session, p)) is not None:
        reply(session, cmd, out, False, why, "requested_by_seat")  # R29: a player's request
        return session
    if cmd.command in LATE_COMMANDS:  # R22, R29, R52-A, R52-B, R54-A, R62: floor entries
        return late_command(session, cmd, out)
    if cmd.command in (Command.PLAYER_ABSENT, Command.PLAYER_PRESENT):
        seat = int(p["seat"])
        if session.table.occupied(seat) is None:
            reply(session, cmd, out, False, f"seat {seat} is empty", "seat")
            return session
        absent = (
            (session.absent | {seat})
            if cmd.command == Command.PLAYER_ABSENT
            else (session.absent - {seat})
        )
        reply(session, cmd, out, True)
        return evolve(session, absent=frozenset(absent))
    if cmd.command == Command.FLOOR_DECISION:
        return _floor_decision(session, cmd, out)
    if cmd.command == Command.CARD_EXPOSED:  # R35-A7: what no reader sees, entered by the dealer
        if session.tracked is None or session.tracked.over:
            reply(session, cmd, out, False, "no hand in progress", "command")
            return session
        reply(session, cmd, out, True)
        exposed = DealerExposure(int(p["seat"]), int(p["card_index"]), cmd.at_ms)
        return reader_step(session, exposed, out, cmd.at_ms, "card_exposed")
    if cmd.command == Command.UPCARDS_PICKED_UP:  # R66, reported by the floor
        return upcards_reported(session, cmd, out)
    if cmd.command == Command.CHOOSE_GAME:  # dealer's choice, a mix by orbit
        return game_chosen(session, cmd, out)
    if cmd.command == Command.DEALER_BUTTON:
        # A networked dealer console (a tablet at the dealer's seat) instead of GPIO buttons.
        reply(session, cmd, out, True)
        amount, speaker = p.get("amount"), p.get("seat")  # seat: words out of turn (R53)
        lit = p.get("lit_seat")  # the seat the tablet showed on the action (issue #12)
        press = ConsolePress(
            str(p["button"]),
            cmd.at_ms,
            int(amount) if amount else None,
            int(speaker) if speaker is not None else None,
            int(lit) if lit is not None else None,
            str(p["game"]) if p.get("game") else None,  # choose_game: dealer's choice
        )
        return console_press(session, press, out)
    if cmd.command == Command.PENALTY:  # R71: a warning, missed hands or rounds, DQ
        return record_penalty(session, cmd, out)
    reply(
        session, cmd, out, False, f"command {cmd.command!r} is not handled by this table", "command"
    )
    return session


def _unseat(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    seat = int(cmd.payload["seat"])
    hand = session.hand
    if hand is not None and hand.phase is not Phase.COMPLETE and hand.has_seat(seat):
        reply(session, cmd, out, False, f"seat {seat} is in the hand: move after it", "seat")
        return session
    try:
        table, stack = session.table.unseat_player(seat, str(cmd.payload["player"]))
    except EngineError as exc:
        reply(session, cmd, out, False, str(exc), "player")
        return session
    expected = cmd.payload.get("stack")
    if expected is not None and int(expected) != stack:
        reply(session, cmd, out, False, f"seat {seat} has {stack}, not {expected}", "stack")
        return session
    reply(session, cmd, out, True)
    return evolve(session, table=table, absent=session.absent - {seat})


_DEALING_FLOORS = frozenset({"card_count_floor", "button_short_floor", "draw_deal_exposed",
                             "draw_discard_after_served"})


# The engine's stud floor calls (engine/stud_procedures.py): the event comes again with
# the floor's choice (RP-10-A/B, R30/R71-C where the profile leaves it to the floor).
_STUD_FLOORS = frozenset({"seventh_exposed", "dead_bring_in", "both_downcards_exposed"})


def _stud_floor(session: TableSession, kind: str, seat: int, decision: str, cmd: RoomCommand,
                out: list[Output]) -> TableSession:
    tracked = session.tracked
    assert tracked is not None
    event: ReaderEvent
    if kind == "both_downcards_exposed":
        if decision != "misdeal":
            return session  # play on with the cards as they lie
        event = ConfirmMisdeal(cmd.at_ms)
    elif kind == "seventh_exposed":
        card = tracked.hand.seat(seat).hole[-1]
        event = CardExposed(seat, card, replace=decision == "replace", at_ms=cmd.at_ms)
    else:
        reason = DeadAtDeal.ABSENT if seat in tracked.absent else DeadAtDeal.PENALTY
        event = KillAtDeal(seat, reason, posts_bring_in=decision == "posts_bring_in",
                           at_ms=cmd.at_ms)
    return reader_step(session, event, out, cmd.at_ms, "floor_applied")


def _floor_decision(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    alert_id = str(cmd.payload["alert_id"])
    decision = str(cmd.payload["decision"])
    pending = next((a for a in session.alerts if a.id == alert_id), None)
    if pending is None:
        reply(session, cmd, out, False, f"no pending alert {alert_id!r}", "alert_id")
        return session
    answer: PlayerAction | str | None = None
    if pending.kind == "oot_void" and pending.ruling.seat is not None:
        # R53-B, action changed: the answer is the seat's action (a raise names its amount).
        answer = answer_action(pending.ruling.options, pending.ruling.seat, decision, cmd.at_ms)
    elif pending.ruling.options and decision not in pending.ruling.options:
        answer = f"decision must be one of {list(pending.ruling.options)}"
    if isinstance(answer, str):
        reply(session, cmd, out, False, answer, "decision")
        return session
    session = evolve(session, alerts=tuple(a for a in session.alerts if a.id != alert_id))
    reply(session, cmd, out, True)
    by = f" (by {cmd.sender})" if cmd.sender else ""
    ruling = Ruling(
        RulingKind.BINDING,
        pending.ruling.rule_ids,
        f"floor decision on {alert_id}: {decision}{by}",
        seat=pending.ruling.seat,
        code="floor_decision",
    )
    out.append(
        event_out(
            session,
            "floor_decision",
            (ruling,),
            {"alert_id": alert_id, "decision": decision, "by": cmd.sender},
            cmd.at_ms,
        )
    )
    if is_found_after_hand(pending.ruling):  # R62: chips found after the hand
        return found_chips_decided(session, pending, decision, cmd.at_ms, out)
    if pending.ruling.code == "reopen_floor" and decision == "allow the raise":
        seat = pending.ruling.seat
        assert seat is not None
        # The dealer re-enters the raise; it now carries the floor's approval.
        return evolve(session, floor_approved=session.floor_approved | {seat})
    if pending.kind in ("upcards_lifted", "upcards_picked_up") and pending.ruling.seat:
        # R66 from the upcard pads: did he pick them up (the table's call), and was that
        # facing action (the engine's call, when he had nothing to call)
        seat = pending.ruling.seat
        if decision in ("picked_up", "dead_hand"):
            dead = True if decision == "dead_hand" else None
            picked = UpcardsPickedUp(seat, dead, cmd.at_ms)
            return reader_step(session, picked, out, cmd.at_ms, "floor_applied")
        return session
    if pending.kind == "draw_exposed" and pending.ruling.seat and session.tracked is not None:
        # a draw card the dealer exposed, where the house leaves it to the floor (R35-A7)
        exposed = CardExposed(pending.ruling.seat, "", replace=decision == "replace",
                              at_ms=cmd.at_ms)
        return reader_step(session, exposed, out, cmd.at_ms, "floor_applied")
    if pending.kind in _STUD_FLOORS and pending.ruling.seat and session.tracked is not None:
        return _stud_floor(session, pending.kind, pending.ruling.seat, decision, cmd, out)
    if pending.kind in _DEALING_FLOORS and session.tracked is not None:
        # R35-A5 / R37 / draw house rules left to the TD: a misdeal or a dead hand is
        # applied; "keep", "play_on", "take_back" are the dealer's to carry out.
        seat = pending.ruling.seat
        if decision == "misdeal":
            return reader_step(session, ConfirmMisdeal(cmd.at_ms), out, cmd.at_ms, "misdeal")
        if decision == "dead_hand" and seat is not None:
            return reader_step(session, KillHand(seat, cmd.at_ms), out, cmd.at_ms, "floor_applied")
        return session
    if answer is not None and session.hand is not None:
        # A bound R53-B action whose action then changed: the floor's choice is his action.
        return run_event(session, answer, out, cmd.at_ms, "floor_applied")
    if pending.kind == "skipped_player" and session.tracked is not None:
        # R53-B: the irregularities layer rules on the skipped seat, then held actions go on.
        choice = FloorDecision(pending.id, decision, at_ms=cmd.at_ms)
        return reader_step(session, choice, out, cmd.at_ms, "floor_applied")
    if pending.interpretation and session.hand is not None:
        session = found_not_in_action(session, pending, decision)  # R62: kept for the end
        # The interpretation layer applies the chosen option (call, raise, forfeit...).
        choice = FloorDecision(pending.id, decision, at_ms=cmd.at_ms)
        return run_event(session, choice, out, cmd.at_ms, "floor_applied")
    return session
