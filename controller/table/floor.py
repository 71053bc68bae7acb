"""Dealer and floor inputs the rules need beyond chips and cards, routed into the live table.

The room's director topic (a floor tablet, a networked dealer console) carries what no
reader sees: a pot count given (R54-A) and found to be wrong (R52-B), a bet below the
minimum that the dealer let stand and its late correction (R52-A), chips found behind an
all-in player during or after the hand (R62), and who was seated while a misdeal was
being re-dealt (R35-C). Each becomes an interpretation event, or, once the hand is over,
a pure ruling (``chips_found``) whose transfers move table stacks.

``commands`` routes these commands here; what becomes of found chips once they are the
table's to settle is ``found_chips``. The outputs are built with ``outputs``, like every part's.
"""

from __future__ import annotations

from pokertable.controller.engine.disputes import DisputeFacts, DisputeKind, judge
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import Phase, SeatStatus, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.interpretation.events import (
    ChipItem,
    ChipsFoundBehind,
    CountErrorNoticed,
    PotCountGiven,
)
from pokertable.controller.interpretation.late import ShortBetNoticed
from pokertable.controller.rules import ChipsFoundBehind as ChipsFoundRule
from pokertable.controller.rules import PotCountDisplay
from pokertable.controller.table.found_chips import found_after_hand
from pokertable.controller.table.hands import run_event
from pokertable.controller.table.inputs import Command, RoomCommand
from pokertable.controller.table.outputs import event_out, raise_floor, reply, warn
from pokertable.controller.table.player_clock import call_clock, clock_expired
from pokertable.controller.table.state import Output, TableSession

LATE_COMMANDS = frozenset({
    Command.POT_COUNT, Command.COUNT_ERROR, Command.CHIPS_FOUND, Command.SHORT_BET_STANDS,
    Command.SHORT_BET_NOTICED, Command.CLOCK_CALL, Command.CLOCK_EXPIRED, Command.DISPUTE,
})


def late_command(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    """Route one of ``LATE_COMMANDS``; bad input is a reply naming the field, nothing else."""
    p = cmd.payload
    hand = session.hand
    if cmd.command in (Command.CLOCK_CALL, Command.CLOCK_EXPIRED):  # R29
        reply(session, cmd, out, True)
        run = call_clock if cmd.command == Command.CLOCK_CALL else clock_expired
        return run(session, cmd.at_ms, out)
    if hand is None:
        reply(session, cmd, out, False, "no hand at this table yet", "command")
        return session
    if cmd.command == Command.DISPUTE:
        return _dispute(session, cmd, out)
    seat = int(p.get("seat", 0))
    if cmd.command != Command.COUNT_ERROR and not hand.has_seat(seat):
        reply(session, cmd, out, False, f"seat {seat} is not dealt in to hand "
                    f"{hand.hand_id}", "seat")
        return session
    if cmd.command == Command.CHIPS_FOUND and hand.phase is Phase.COMPLETE:
        return found_after_hand(session, cmd, seat, int(p["amount"]), out)
    if hand.phase is Phase.COMPLETE:
        reply(session, cmd, out, False, f"hand {hand.hand_id} is over", "command")
        return session
    rules = session.config.rules
    if cmd.command == Command.POT_COUNT and rules.pot_count_display is PotCountDisplay.NEVER:
        reply(session, cmd, out, False, f"pot counts are denied at this table "
                    f"({rules.cite('pot_count')}: pot_count_display=never)", "command")
        return session
    reply(session, cmd, out, True)
    at = cmd.at_ms
    if cmd.command == Command.POT_COUNT:
        return run_event(session, PotCountGiven(seat, int(p["amount"]), at), out, at,
                            "pot_count")
    if cmd.command == Command.COUNT_ERROR:
        return run_event(session, CountErrorNoticed(at), out, at, "count_error")
    if cmd.command == Command.CHIPS_FOUND:
        return _found_during_hand(session, seat, int(p["amount"]), at, out)
    if cmd.command == Command.SHORT_BET_STANDS:
        kind = ActionKind.RAISE if hand.call_to else ActionKind.BET
        action = PlayerAction(seat, kind, int(p["amount"]), at, short_stands=True)
        return run_event(session, action, out, at, "short_bet_stands")
    return run_event(session, ShortBetNoticed(seat, at), out, at, "short_bet_corrected")


def _found_during_hand(
    session: TableSession, seat: int, amount: int, at_ms: int, out: list[Output]
) -> TableSession:
    """R62 during the hand: TDA asks the floor now; ACE settles the chips when it ends."""
    rules = session.config.rules
    if rules.chips_found_behind is ChipsFoundRule.TD_DISCRETION:
        found = ChipsFoundBehind(seat, (ChipItem(amount),), at_ms)
        return run_event(session, found, out, at_ms, "chips_found")
    hand = session.hand
    assert hand is not None
    if hand.seat(seat).status is not SeatStatus.ALL_IN:
        warn(out, session, "chips_behind", f"seat {seat} is not all in: nothing to rule",
                   "not_all_in", at_ms, seat)
        return session
    ruling = Ruling(
        RulingKind.ACCEPTED, (rules.cite("chips_behind"),),
        f"{amount} found behind seat {seat}: not part of the action; settled when the hand "
        "ends (not paid if he wins; to the winner who covered him if he loses)", seat=seat,
        code="found_chips_held",
    )
    out.append(event_out(session, "chips_found", (ruling,), {"seat": seat, "amount": amount},
                           at_ms))
    return evolve(session, found_chips=(*session.found_chips, (seat, amount)))


def _dispute(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    """R22: a disputed hand: in time, the TD rules (the journal replays it); late, it stands."""
    hand, finish = session.hand, session.last_finish
    assert hand is not None
    hand_id, kind = str(cmd.payload["hand_id"]), DisputeKind(str(cmd.payload["about"]))
    if hand_id == hand.hand_id and hand.phase is not Phase.COMPLETE:
        reply(session, cmd, out, False, f"hand {hand_id} is still being played: call the "
                    "floor to the table", "hand_id")
        return session
    if finish is None or hand_id not in session.history:
        reply(session, cmd, out, False, f"hand {hand_id} was not played at this table "
                    "this session", "hand_id")
        return session
    newer = session.history[session.history.index(hand_id) + 1 :]
    started = hand.hand_id != hand_id
    tracked = session.tracked
    facts = DisputeFacts(
        hand_id=hand_id,
        finished_at_ms=finish[1] if finish[0] == hand_id else 0,
        finished_in_break=finish[2] if finish[0] == hand_id else False,
        next_hand_started=started,
        next_hand_sa=bool(newer) or (
            started and tracked is not None and tracked.sa(session.config.rules)
        ),
        now_ms=cmd.at_ms,
    )
    verdict = judge(facts, kind, session.config.rules)
    reply(session, cmd, out, True)
    rules = session.config.rules
    if not verdict.in_time:
        warn(out, session, "disputes", verdict.text + " (R22)", "dispute_too_late",
                   cmd.at_ms)
        return session
    text = f"dispute of the {kind} of hand {hand_id}: {verdict.text}; the TD rules"
    if verdict.ask_floor_about_cards:
        text += " (too late if the dealer already picked up the cards)"
    ruling = Ruling(RulingKind.FLOOR, (rules.cite("disputes"),), text,
                    options=("upheld", "rejected"), code="dispute")
    session = raise_floor(session, ruling, out, cmd.at_ms)
    out.append(event_out(session, "dispute", (ruling,), {"hand_id": hand_id,
                                                           "about": str(kind)}, cmd.at_ms))
    return session


def seated_during_misdeal(session: TableSession, seat: int, at_ms: int) -> Output:
    """R35-C: the re-deal is an exact replay: no new players are seated into it."""
    rules = session.config.rules
    ruling = Ruling(
        RulingKind.INFO,
        (rules.cite("redeal"),),
        f"seat {seat} is seated during a misdeal: the re-deal is an exact replay with no new "
        "players, so he is dealt in from the next hand",
        seat=seat,
        code="seated_after_redeal",
    )
    return event_out(session, "seated_after_redeal", (ruling,), {"seat": seat}, at_ms)
