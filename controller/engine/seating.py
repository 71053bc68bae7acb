"""The table between hands: who sits where, where button and blinds go next (R32, R34-B, R8-A).

Tournament play uses a dead button (R32). The TDA never spells out the mechanics, so we
use the conventional algorithm (docs/engine.md, dead button): the big blind always
advances exactly one active player; the small blind goes to last hand's big-blind seat
(dead small blind if that player is gone); the button goes to last hand's small-blind
position, which may be an empty seat (dead button). Heads-up, the button posts the small
blind and nobody posts the big blind twice in a row (R34-B).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pokertable.controller.engine import MAX_SEATS, EngineError, HandSetup
from pokertable.controller.engine.model import HandState, Level, Phase, Variant


@dataclass(frozen=True, slots=True)
class TableSeat:
    seat: int
    player: str
    stack: int
    new: bool = False  # seated since the last hand (R8-A / R10-A deal-in rule applies)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableState:
    seats: tuple[TableSeat, ...]  # occupied seats, in seat order
    max_seats: int = MAX_SEATS
    button: int | None = None  # last hand's button position
    small_blind_position: int | None = None  # last hand's small-blind position (even if dead)
    big_blind_seat: int | None = None
    big_blind_player: str | None = None

    def occupied(self, seat: int) -> TableSeat | None:
        return next((s for s in self.seats if s.seat == seat), None)

    def seat_player(self, seat: int, player: str, stack: int) -> TableState:
        """Seat a player (alternate, late entry, moved from a broken table)."""
        if not 1 <= seat <= self.max_seats:
            raise EngineError(f"seat {seat} does not exist at a {self.max_seats}-seat table")
        if self.occupied(seat):
            raise EngineError(f"seat {seat} is taken")
        if stack <= 0:
            raise EngineError(f"player {player} needs chips to be seated")
        new = TableSeat(seat, player, stack, new=self.big_blind_seat is not None)
        return replace(self, seats=tuple(sorted((*self.seats, new), key=lambda s: s.seat)))

    def unseat_player(self, seat: int, player: str) -> tuple[TableState, int]:
        """Take a player away with his chips (moved to balance or break tables, R10/R11);
        the stack he takes. The name must match, so a stale move cannot take someone else."""
        occupant = self.occupied(seat)
        if occupant is None:
            raise EngineError(f"seat {seat} is empty")
        if occupant.player != player:
            raise EngineError(f"seat {seat} is {occupant.player}, not {player}")
        return replace(self, seats=tuple(s for s in self.seats if s.seat != seat)), occupant.stack


def _clockwise(start: int, max_seats: int) -> list[int]:
    """Seat numbers clockwise after ``start`` (exclusive), wrapping once."""
    return [((start + i - 1) % max_seats) + 1 for i in range(1, max_seats + 1)]


def _next_active(table: TableState, after: int, active: set[int]) -> int:
    for seat in _clockwise(after, table.max_seats):
        if seat in active:
            return seat
    raise EngineError("no active player at the table")


def _strictly_between(start: int, end: int, seat: int, max_seats: int) -> bool:
    """Is ``seat`` strictly between ``start`` and ``end`` going clockwise?"""
    for s in _clockwise(start, max_seats):
        if s == end:
            return False
        if s == seat:
            return True
    return False


def next_hand(
    table: TableState,
    *,
    hand_id: str,
    variant: Variant,
    level: Level,
    first_button: int | None = None,
) -> HandSetup:
    """Positions and dealt-in players for the next hand."""
    active = {s.seat for s in table.seats if s.stack > 0}
    if len(active) < 2:
        raise EngineError("a hand needs at least two players with chips")
    if table.big_blind_seat is None:
        if first_button is None or first_button not in active:
            raise EngineError("the first hand needs the button on an occupied seat (draw for it)")
        button = first_button
        if len(active) == 2:
            small: int | None = button
            big = _next_active(table, button, active)
        else:
            small = _next_active(table, button, active)
            big = _next_active(table, small, active)
        sb_position = small
    elif len(active) == 2:
        # R34-B: the button posts the small blind; the big blind goes to whoever did not
        # post it last hand, so nobody has the big blind twice in a row.
        previous_bb = next(
            (
                s.seat
                for s in table.seats
                if s.player == table.big_blind_player and s.seat in active
            ),
            None,
        )
        if previous_bb is None:
            big = _next_active(table, table.big_blind_seat, active)
        else:
            big = next(s for s in active if s != previous_bb)
        button = small = next(s for s in active if s != big)
        sb_position = small
    else:
        big = _next_active(table, table.big_blind_seat, active)
        small = table.big_blind_seat if table.big_blind_seat in active else None
        sb_position = table.big_blind_seat
        button = (
            table.small_blind_position
            if table.small_blind_position is not None
            else (table.button or big)
        )
    dealt = []
    for s in table.seats:
        if s.seat not in active:
            continue
        if (
            s.new
            and s.seat not in (small, big)
            and sb_position is not None
            and _strictly_between(button, sb_position, s.seat, table.max_seats)
        ):
            continue  # R8-A/R10-A: wait until the button has passed
        dealt.append((s.seat, s.player, s.stack))
    return HandSetup(
        hand_id=hand_id,
        variant=variant,
        level=level,
        button=button,
        small_blind_seat=small,
        big_blind_seat=big,
        players=tuple(dealt),
    )


def after_hand(table: TableState, hand: HandState) -> TableState:
    """Record positions and new stacks; players with no chips leave the table."""
    if hand.phase is not Phase.COMPLETE:
        raise EngineError(f"hand {hand.hand_id} is not complete")
    stacks = {s.seat: s.stack for s in hand.seats}
    seats = []
    for s in table.seats:
        stack = stacks.get(s.seat, s.stack)
        if stack > 0:
            seats.append(TableSeat(s.seat, s.player, stack, new=s.new and s.seat not in stacks))
    sb_position = hand.small_blind_seat
    if sb_position is None:
        sb_position = table.big_blind_seat  # a dead small blind still has a position
    return replace(
        table,
        seats=tuple(seats),
        button=hand.button,
        small_blind_position=sb_position,
        big_blind_seat=hand.big_blind_seat,
        big_blind_player=hand.seat(hand.big_blind_seat).player,
    )
