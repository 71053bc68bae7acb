"""Chips found behind an all-in player (R62) once they are the table's to settle: at the end
of the hand, or found after it, and the TD's choice on them.

``hands`` settles what was found during the hand when it ends; ``floor`` routes chips found
after it; ``commands`` brings the TD's decision.
"""

from __future__ import annotations

from dataclasses import replace

from pokertable.controller.engine.found_chips import FoundChips, rule_found_chips
from pokertable.controller.engine.model import evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.engine.seating import TableSeat, TableState
from pokertable.controller.interpretation.floor import CHIPS_BEHIND
from pokertable.controller.table.inputs import RoomCommand
from pokertable.controller.table.outputs import event_out, raise_floor, reply, warn
from pokertable.controller.table.state import Output, PendingAlert, TableSession

FOUND_AFTER_HAND = "chips_found_after_hand"  # code prefix of the R62 floor call after the hand


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
            session = _ask_the_floor(session, found, out, at_ms)
        else:
            session = _settle_found(session, found, found.transfers, found.text, at_ms, out)
    return session


def found_after_hand(
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
        return _ask_the_floor(session, found, out, cmd.at_ms)
    return _settle_found(session, found, found.transfers, found.text, cmd.at_ms, out)


def found_chips_decided(
    session: TableSession, pending: PendingAlert, decision: str, at_ms: int, out: list[Output]
) -> TableSession:
    """The TD chose what happens to chips found after the hand (R62)."""
    hand = session.hand
    ruling = pending.ruling
    assert hand is not None and ruling.seat is not None
    if hand.hand_id != pending.hand_id:
        warn(
            out,
            session,
            "chips_behind",
            f"hand {pending.hand_id} is no longer on the table: move the found chips by hand",
            "chips_found_stale",
            at_ms,
            ruling.seat,
        )
        return session
    amount = int(ruling.code.rsplit(":", 1)[1])
    found = rule_found_chips(hand, ruling.seat, amount, session.config.rules)
    transfers = found.outcome(decision, hand)
    return _settle_found(session, found, transfers, f"floor: {decision}", at_ms, out)


def is_found_after_hand(ruling: Ruling) -> bool:
    return ruling.code.startswith(FOUND_AFTER_HAND + ":")


def _ask_the_floor(
    session: TableSession, found: FoundChips, out: list[Output], at_ms: int
) -> TableSession:
    """R62 leaves found chips to the TD here: a floor call with the options, and the
    ``chips_found`` event that names them."""
    seat, amount = found.seat, found.amount
    ruling = Ruling(
        RulingKind.FLOOR,
        found.rule_ids,
        found.text,
        seat=seat,
        options=found.options,
        code=f"{FOUND_AFTER_HAND}:{amount}",
    )
    session = raise_floor(session, ruling, out, at_ms)
    out.append(
        event_out(session, "chips_found", (ruling,), {"seat": seat, "amount": amount}, at_ms)
    )
    return session


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
    ruling = Ruling(
        RulingKind.BINDING, found.rule_ids, text, seat=found.seat, code="chips_found_settled"
    )
    out.append(
        event_out(
            session,
            "chips_found_settled",
            (ruling,),
            {"seat": found.seat, "amount": found.amount, "moves": moves},
            at_ms,
        )
    )
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
