"""The bet zones at the live table: the readers' chips become bet interpretation's motions,
and chips put out between hands are the next hand's blinds or a dealer's alert.

The session keeps each zone's felt (``Pending.with_felt``, the only writer); a zone the
readers have reported is ``seen``, so a street total no chips were seen for is owed, not
taken to lie there. The chips a hand leaves uncollected stay that hand's
(``Pending.hand_over``): the next hand's blinds are the chips put out after it ended.
"""

from __future__ import annotations

from pokertable.controller.engine.model import Phase, evolve
from pokertable.controller.interpretation.events import ChipItem as ZoneChip
from pokertable.controller.interpretation.events import ChipMotion, PriorChipsPulled
from pokertable.controller.interpretation.hand import TableEvent
from pokertable.controller.irregularities.hand import HandStatus
from pokertable.controller.table.color_up import check_removed
from pokertable.controller.table.hands import planned_setup, run_event
from pokertable.controller.table.inputs import ChipsMoved
from pokertable.controller.table.outputs import warn
from pokertable.controller.table.stack_zones import stack_moved
from pokertable.controller.table.state import Output, TableSession


def chips_moved(session: TableSession, moved: ChipsMoved, out: list[Output]) -> TableSession:
    """A settled chip motion in a bet zone goes to bet interpretation (R40-R46, R56, RP-22).

    Chips leaving a zone are prior chips pulled back (R46-B) or change the dealer takes
    out while betting is open; once the street is over, or when they are the last hand's
    chips left uncollected, they are the dealer collecting them, which decides nothing.
    Between hands, chips put out in the zone of a seat that posts a blind in the next hand
    are his blind, held for it (``Pending.new_hand``); in any other zone they are news.
    """
    if moved.seat is not None and moved.zone.endswith(".stack"):
        return stack_moved(session, moved)  # not action: counted for the room's colour-up
    if moved.seat is None or not moved.zone.endswith(".bet"):
        return session  # the pot is not action
    if session.removed_denominations:
        check_removed(session, moved, session.removed_denominations, out)  # R24
    seat_no = moved.seat
    zone = list(session.zone(seat_no))
    last_hand = session.pending.zone(seat_no).last_hand
    # After a controller restart the readers report every chip afresh: tags the session
    # already holds are not new chips, and tags it never saw cannot leave.
    known = {c.uid for c in zone if c.uid}
    arrived = tuple(c for c in moved.arrived if not c.uid or c.uid not in known)
    left = tuple(c for c in moved.left if c in zone)
    if moved.complete:
        # The readers' full view after a restart: chips we still hold that are not in it
        # left while nobody listened; they leave the zone without a ruling.
        present = {c.uid for c in moved.arrived if c.uid}
        zone = [c for c in zone if not c.uid or c.uid in present]
        session = _felt(session, seat_no, tuple(zone))
    moved = evolve(moved, arrived=arrived, left=left)
    if not arrived and not left:
        return session
    for chip in left:
        zone.remove(chip)
    zone.extend(arrived)
    session = _felt(session, seat_no, tuple(zone))
    hand = session.hand
    if hand is None or hand.phase is Phase.COMPLETE:
        late = session.pending.late_chips(seat_no, moved.arrived) if moved.arrived else None
        if late is not None:  # his declared bet's chips, read after the hand ended
            return evolve(session, pending=late)
        if moved.arrived and seat_no not in blinds_next(session):
            warn(
                out,
                session,
                "rules",
                f"chips arrived in seat {seat_no}'s bet zone with no hand in progress",
                "chips_out_of_round",
                moved.at_ms,
                seat_no,
            )
        return session
    taken = tuple(c for c in moved.left if c not in last_hand)  # not the dealer tidying up
    if taken and hand.phase is Phase.BETTING and hand.has_seat(seat_no):
        # The rules read chips by value (R46: any chip of that value pulled back): no tags.
        # The dealer pulling a posted ante into the pot decides nothing (RP-11).
        pending, pulled = session.pending.ante_collected(
            seat_no, tuple(ZoneChip(c.denomination, c.kind) for c in taken))
        session = evolve(session, pending=pending)
        seat_zone = session.pending.zone(seat_no)
        if seat_zone.prior and pulled:
            event: TableEvent = PriorChipsPulled(
                seat_no, pulled, at_ms=moved.at_ms, by_dealer=seat_zone.change > 0
            )
            session = run_event(session, event, out, moved.at_ms, "chips_pulled")
    # Chips out of turn (R53-A) are interpretation's to read and the irregularities layer's
    # to hold: both say so on the event below. The readers' first view of a zone is all
    # that lies there, so what they report is never on top of chips lying there unseen.
    if moved.arrived:
        chips = tuple(ZoneChip(c.denomination, c.kind) for c in moved.arrived)
        motion = ChipMotion(seat_no, chips, at_ms=moved.at_ms, settled=True, zone_read=True)
        session = run_event(session, motion, out, moved.at_ms, "chips")
    return session


def _felt(session: TableSession, seat: int, chips: tuple[ZoneChip, ...]) -> TableSession:
    return evolve(session, pending=session.pending.with_felt(seat, chips))




def blinds_next(session: TableSession) -> frozenset[int]:
    """The seats that post a blind when the dealer next starts a hand: the misdealt hand's
    blinds for its re-deal (R35-C), else the next hand's; in stud (antes only, RP-11) every
    seat dealt in, for the ante each puts out (``Pending.new_hand``)."""
    tracked = session.tracked
    setup = (tracked.setup if tracked is not None and tracked.status is HandStatus.MISDEAL
             else planned_setup(session))
    if isinstance(setup, str):
        return frozenset()
    if setup.variant.is_stud:
        return frozenset(p[0] for p in setup.players) if setup.level.ante > 0 else frozenset()
    return frozenset(s for s in (setup.small_blind_seat, setup.big_blind_seat) if s is not None)
