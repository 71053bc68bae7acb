"""Posting forced bets: antes, small blind and big blind, including short stacks (RP-11, R54-B).

How a big-blind-ante poster's chips are split when he cannot cover both is a profile
parameter (``bba_short_order``): TDA 2024 says big-blind-first, Clubs NZ says ante-first.
Per-player antes are always taken before the blinds, as every room deals them.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine.model import (
    AnteFormat,
    Level,
    SeatState,
    SeatStatus,
    builder,
    evolve,
)
from pokertable.controller.rules import BbaShortOrder, RuleProfile, ShortBlindCallTo

# Enum members as module globals: on CPython 3.11 reading one through its class costs
# ~50 ns, and every hand posts its forced bets here.
_ALL_IN = SeatStatus.ALL_IN
_PER_PLAYER = AnteFormat.PER_PLAYER
_BIG_BLIND_ANTE = AnteFormat.BIG_BLIND_ANTE
_BIG_BLIND_FIRST = BbaShortOrder.BIG_BLIND_FIRST
_FULL_LEVEL_BLIND = ShortBlindCallTo.FULL_LEVEL_BLIND


@dataclass(frozen=True, slots=True)
class Posted:
    seats: tuple[SeatState, ...]
    call_to: int
    missing_dead: int  # a dead small blind that was never posted
    missing_short: int  # what short all-in blinds did not cover
    notes: tuple[str, ...]


_posted = builder(Posted)  # Posted(...) with plain stores (model.builder): every hand


def _take(seat: SeatState, amount: int, *, to_street: bool) -> tuple[SeatState, int]:
    paid = min(amount, seat.stack)
    stack = seat.stack - paid
    return (
        evolve(
            seat,
            stack=stack,
            committed=seat.committed + paid,
            bet=seat.bet + (paid if to_street else 0),
            dead=seat.dead + (0 if to_street else paid),
            status=_ALL_IN if stack == 0 else seat.status,
        ),
        paid,
    )


def post_forced_bets(
    seats: tuple[SeatState, ...],
    level: Level,
    small_blind_seat: int | None,
    big_blind_seat: int,
    rules: RuleProfile,
    antes_by_seat: dict[int, int] | None = None,
) -> Posted:
    """Post antes and blinds; ``antes_by_seat`` overrides the level's ante format (PHH import)."""
    by_seat = {s.seat: s for s in seats}
    notes: list[str] = []
    if antes_by_seat is None:
        antes_by_seat = {}
        if level.ante_format is _PER_PLAYER:
            antes_by_seat = {s.seat: level.ante for s in seats}
        elif level.ante_format is _BIG_BLIND_ANTE:
            antes_by_seat = {big_blind_seat: level.ante}

    bb_ante = antes_by_seat.get(big_blind_seat, 0)
    bb_blind_first = (
        level.ante_format is _BIG_BLIND_ANTE
        and rules.bba_short_order is _BIG_BLIND_FIRST
    )
    # Antes first for everyone except a big-blind-first BB ante poster.
    for seat_no, ante in sorted(antes_by_seat.items()):
        if ante <= 0 or (seat_no == big_blind_seat and bb_blind_first):
            continue
        by_seat[seat_no], paid = _take(by_seat[seat_no], ante, to_street=False)
        if paid < ante:
            notes.append(f"seat {seat_no} is all in for an ante of {paid} (of {ante})")

    sb_posted = 0
    if small_blind_seat is not None:
        by_seat[small_blind_seat], sb_posted = _take(
            by_seat[small_blind_seat], level.small_blind, to_street=True
        )
    by_seat[big_blind_seat], bb_posted = _take(
        by_seat[big_blind_seat], level.big_blind, to_street=True
    )
    if bb_blind_first and bb_ante:
        by_seat[big_blind_seat], paid = _take(by_seat[big_blind_seat], bb_ante, to_street=False)
        if paid < bb_ante:
            notes.append(
                f"big blind seat {big_blind_seat} paid the blind first ({bb_posted}) and "
                f"{paid} of the {bb_ante} ante"
            )

    missing_dead = level.small_blind if small_blind_seat is None else 0
    missing_short = (level.big_blind - bb_posted) + (
        level.small_blind - sb_posted if small_blind_seat is not None else 0
    )
    if rules.short_blind_call_to is _FULL_LEVEL_BLIND:
        call_to = level.big_blind
    else:
        call_to = max(bb_posted, sb_posted)
    return _posted(
        seats=tuple(by_seat[s.seat] for s in seats),
        call_to=call_to,
        missing_dead=missing_dead,
        missing_short=missing_short,
        notes=tuple(notes),
    )
