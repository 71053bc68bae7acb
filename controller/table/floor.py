"""Dealer and floor inputs the rules need beyond chips and cards, routed into the live table.

The room's director topic (a floor tablet, a networked dealer console) carries what no
reader sees: a pot count given (R54-A) and found to be wrong (R52-B), a bet below the
minimum that the dealer let stand and its late correction (R52-A), chips found behind an
all-in player during or after the hand (R62), and who was seated while a misdeal was
being re-dealt (R35-C). Each becomes an interpretation event, or, once the hand is over,
a pure ruling (``chips_found``) whose transfers move table stacks.

``room_commands`` routes these commands here (and ``hand_routing`` settles found chips at
the end of a hand); the outputs are built with ``session_outputs``, like every part's.
"""

from __future__ import annotations

from dataclasses import replace

from pokertable.controller.engine.disputes import DisputeFacts, DisputeKind, judge
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.found_chips import FoundChips, rule_found_chips
from pokertable.controller.engine.model import Phase, SeatStatus, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.engine.seating import TableSeat, TableState
from pokertable.controller.interpretation.events import (
    ChipItem,
    ChipsFoundBehind,
    CountErrorNoticed,
    PotCountGiven,
)
from pokertable.controller.interpretation.floor import CHIPS_BEHIND
from pokertable.controller.interpretation.late import ShortBetNoticed
from pokertable.controller.rules import ChipsFoundBehind as ChipsFoundRule
from pokertable.controller.rules import PotCountDisplay
from pokertable.controller.table.hands import run_event
from pokertable.controller.table.inputs import Command, RoomCommand
from pokertable.controller.table.outputs import event_out, raise_floor, reply, warn
from pokertable.controller.table.state import Output, PendingAlert, TableSession

LATE_COMMANDS = frozenset({
    Command.POT_COUNT, Command.COUNT_ERROR, Command.CHIPS_FOUND, Command.SHORT_BET_STANDS,
    Command.SHORT_BET_NOTICED, Command.CLOCK_CALL, Command.CLOCK_EXPIRED, Command.DISPUTE,
})
FOUND_AFTER_HAND = "chips_found_after_hand"  # code prefix of the R62 floor call after the hand


def late_command(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    """Route one of ``LATE_COMMANDS``; bad input is a reply naming the field, nothing else."""
    p = cmd.payload
    hand = session.hand
    if cmd.command in (Command.CLOCK_CALL, Command.CLOCK_EXPIRED):  # R29
        from pokertable.controller.table.player_clock import call_clock, clock_expired

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
        return _found_after_hand(session, cmd, seat, int(p["amount"]), out)
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


def found_not_in_action(
    session: TableSession, pending: PendingAlert, decision: str
) -> TableSession:
    """TDA R62: the floor ruled chips found during the hand not part of the action; what
    becomes of them is settled when the hand ends."""
    floor = session.pending.floor(pending.id) if pending.interpretation else None
    if floor is None or floor.topic != CHIPS_BEHIND or decision != "not_in_action":
        return session
    return evolve(session, found_chips=(*session.found_chips, (floor.seat, floor.excess)))


def settle_found_chips(session: TableSession, out: list[Output], at_ms: int) -> TableSession:
    """At the end of the hand: settle every chip found during it (R62)."""
    hand = session.hand
    assert hand is not None
    found_chips, session = session.found_chips, evolve(session, found_chips=())
    for seat, amount in found_chips:
        found = rule_found_chips(hand, seat, amount, session.config.rules, not_in_action=True)
        if found.refused:
            warn(out, session, "chips_behind", found.text, "chips_found_stale", at_ms, seat)
        elif found.options:
            ruling = Ruling(RulingKind.FLOOR, found.rule_ids, found.text, seat=seat,
                            options=found.options, code=f"{FOUND_AFTER_HAND}:{amount}")
            session = raise_floor(session, ruling, out, at_ms)
            out.append(event_out(session, "chips_found", (ruling,),
                                   {"seat": seat, "amount": amount}, at_ms))
        else:
            session = _settle_found(session, found, found.transfers, found.text, at_ms, out)
    return session


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


def _found_after_hand(
    session: TableSession, cmd: RoomCommand, seat: int, amount: int, out: list[Output]
) -> TableSession:
    hand = session.hand
    assert hand is not None
    found = rule_found_chips(hand, seat, amount, session.config.rules)
    if found.refused:
        reply(session, cmd, out, False, found.text, "seat")
        return session
    reply(session, cmd, out, True)
    if found.options:
        ruling = Ruling(RulingKind.FLOOR, found.rule_ids, found.text, seat=seat,
                        options=found.options, code=f"{FOUND_AFTER_HAND}:{amount}")
        session = raise_floor(session, ruling, out, cmd.at_ms)
        out.append(event_out(session, "chips_found", (ruling,), {"seat": seat,
                                                                   "amount": amount}, cmd.at_ms))
        return session
    return _settle_found(session, found, found.transfers, found.text, cmd.at_ms, out)


def found_chips_decided(
    session: TableSession, pending: PendingAlert, decision: str, at_ms: int, out: list[Output]
) -> TableSession:
    """The TD chose what happens to chips found after the hand (R62)."""
    hand = session.hand
    ruling = pending.ruling
    assert hand is not None and ruling.seat is not None
    if hand.hand_id != pending.hand_id:
        warn(out, session, "chips_behind", f"hand {pending.hand_id} is no longer on the "
                   "table: move the found chips by hand", "chips_found_stale", at_ms, ruling.seat)
        return session
    amount = int(ruling.code.rsplit(":", 1)[1])
    found = rule_found_chips(hand, ruling.seat, amount, session.config.rules)
    transfers = found.outcome(decision, hand)
    return _settle_found(session, found, transfers, f"floor: {decision}", at_ms, out)


def is_found_after_hand(ruling: Ruling) -> bool:
    return ruling.code.startswith(FOUND_AFTER_HAND + ":")


def _settle_found(
    session: TableSession,
    found: FoundChips,
    transfers: tuple[tuple[int | None, int, int], ...],
    text: str,
    at_ms: int,
    out: list[Output],
) -> TableSession:
    hand = session.hand
    assert hand is not None
    table = session.table
    for source, to, amount in transfers:
        if source is not None:
            table = _credit(table, source, -amount, hand.seat(source).player)
        table = _credit(table, to, amount, hand.seat(to).player)
    moves = [{"from": s, "to": t, "amount": a} for s, t, a in transfers]
    ruling = Ruling(RulingKind.BINDING, found.rule_ids, text, seat=found.seat,
                    code="chips_found_settled")
    out.append(event_out(session, "chips_found_settled", (ruling,),
                           {"seat": found.seat, "amount": found.amount, "moves": moves}, at_ms))
    return evolve(session, table=table)


def _credit(table: TableState, seat: int, amount: int, player: str) -> TableState:
    """Move chips on a table seat; a busted player who keeps a found chip is seated again."""
    seats = {s.seat: s for s in table.seats}
    current = seats.get(seat)
    if current is None:
        seats[seat] = TableSeat(seat, player, amount)
    else:
        seats[seat] = replace(current, stack=current.stack + amount)
    kept = tuple(s for _, s in sorted(seats.items()) if s.stack > 0)
    return replace(table, seats=kept)
