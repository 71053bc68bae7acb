"""Main and side pots, uncalled bets, and splitting a pot with odd chips (R20, R21, R65-A).

Pots are layered by the all-in totals of the players still in the hand; folded players'
chips are dead money in whichever layers they reach. Each pot is split on its own (R21).
"""

from __future__ import annotations

from collections.abc import Sequence

from pokertable.controller.engine.model import Pot, SeatState, SeatStatus, builder
from pokertable.controller.rules import RuleProfile

_FOLDED = SeatStatus.FOLDED  # a module global: an enum member read through its class is slower
_pot = builder(Pot)  # Pot(...) with plain stores (model.builder)


def build_pots(seats: Sequence[SeatState]) -> tuple[Pot, ...]:
    """Layer every chip committed this hand into a main pot and side pots.

    Antes are dead money: all of them go to the main pot, which every live player may
    win, even one who was all in for the ante alone. Bets are layered by the totals of
    the players still in the hand; folded players' bets are dead money in the layers
    they reach.

    >>> from pokertable.controller.engine.model import SeatStatus
    >>> a = SeatState(1, "a", 0, committed=100, status=SeatStatus.ALL_IN)
    >>> b = SeatState(2, "b", 500, committed=300)
    >>> c = SeatState(3, "c", 500, committed=300)
    >>> build_pots([a, b, c])
    (Pot(amount=300, eligible=(1, 2, 3)), Pot(amount=400, eligible=(2, 3)))
    >>> bb_ante = SeatState(3, "c", 0, committed=400, dead=100)
    >>> build_pots([b, bb_ante])
    (Pot(amount=700, eligible=(2, 3)),)
    """
    live = [s for s in seats if s.status is not _FOLDED]
    if not live:
        return ()
    first = live[0].committed - live[0].dead
    for s in live:
        if s.committed - s.dead != first:
            break
    else:  # every live hand put in as much: one pot, the antes and folded chips included
        total = sum([s.committed for s in seats])
        return (_pot(total, tuple([s.seat for s in live])),) if total else ()
    bets = [s.committed - s.dead for s in seats]
    live_bets = [(s.seat, s.committed - s.dead) for s in live]
    levels = sorted({0, *[b for _, b in live_bets]})
    pots: list[Pot] = []
    previous = 0
    carry = sum([s.dead for s in seats])  # the antes open the main pot
    for level in levels:
        amount = carry + sum([(b if b < level else level) - previous for b in bets if b > previous])
        carry = 0
        eligible = tuple([n for n, b in live_bets if b >= level])
        if amount:
            pots.append(_pot(amount, eligible))
        previous = level
    # Dead money above the highest live commitment (cannot happen after uncalled bets are
    # returned, but never lose a chip): it belongs to the last pot.
    top = sum([b - previous for b in bets if b > previous])
    if top and pots:
        pots[-1] = Pot(pots[-1].amount + top, pots[-1].eligible)
    elif top:
        pots.append(Pot(top, tuple(s.seat for s in live)))
    return _merge_same_eligibility(pots)


def _merge_same_eligibility(pots: list[Pot]) -> tuple[Pot, ...]:
    merged: list[Pot] = []
    for pot in pots:
        if merged and merged[-1].eligible == pot.eligible:
            merged[-1] = Pot(merged[-1].amount + pot.amount, pot.eligible)
        else:
            merged.append(pot)
    return tuple(merged)


def uncalled_excess(seats: Sequence[SeatState]) -> tuple[int, int] | None:
    """(seat, amount) of a street bet nobody matched, which goes back to its owner (R65-A).

    >>> a = SeatState(1, "a", 0, bet=900)
    >>> b = SeatState(2, "b", 0, bet=400)
    >>> uncalled_excess([a, b])
    (1, 500)
    """
    if not seats:
        return None
    # One pass, no sort: the first seat with the largest bet, and the largest of the others.
    top = seats[0]
    high = top.bet
    second = 0
    for s in seats[1:]:
        bet = s.bet
        if bet > high:
            top, high, second = s, bet, high
        elif bet > second:
            second = bet
    if high > second:
        return top.seat, high - second
    return None


def split_pot(
    amount: int, winners_clockwise: Sequence[int], unit: int
) -> tuple[tuple[int, int], ...]:
    """Split ``amount`` among tied winners; odd units go clockwise from the button (R20-A).

    ``winners_clockwise`` lists the tied seats starting with the first seat left of the
    button. Several odd units are handed out one per winner in that order (open question A16).

    >>> split_pot(101, [4, 2], 1)
    ((4, 51), (2, 50))
    >>> split_pot(1500, [3, 5, 7], 500)
    ((3, 500), (5, 500), (7, 500))
    >>> split_pot(1000, [3, 5, 7], 100)
    ((3, 400), (5, 300), (7, 300))
    """
    k = len(winners_clockwise)
    units, remainder = divmod(amount, unit)
    share_units, odd_units = divmod(units, k)
    shares = []
    for i, seat in enumerate(winners_clockwise):
        chips = (share_units + (1 if i < odd_units else 0)) * unit
        if i == 0:
            chips += remainder  # chips below the smallest denomination cannot be split further
        shares.append((seat, chips))
    return tuple(shares)


def split_hi_lo(
    amount: int,
    high_clockwise: Sequence[int],
    low_clockwise: Sequence[int],
    unit: int,
    rules: RuleProfile,
) -> tuple[tuple[int, int], ...]:
    """Split a hi/lo pot: halves first, the odd unit of the whole pot to the high (R20-C).

    Each half is then split like any pot (R20-A: odd units clockwise from the button; a
    stud caller lists the winners by high card by suit instead). When the same hands win
    both halves with identical value, Clubs NZ Add. 20-F and TDA 2011 R16 split the whole
    pot as evenly as possible (``odd_chip_identical_split_evenly``); TDA 2024 deleted that
    clause (R20-D), so the halves are split on their own (open question A16).

    >>> from pokertable.controller.rules import TDA_2024
    >>> split_hi_lo(66, [2, 5], [2, 5], 1, TDA_2024)
    ((2, 34), (5, 32))
    >>> from dataclasses import replace
    >>> split_hi_lo(66, [2, 5], [2, 5], 1, replace(TDA_2024, odd_chip_identical_split_evenly=True))
    ((2, 33), (5, 33))
    """
    if rules.odd_chip_identical_split_evenly and list(high_clockwise) == list(low_clockwise):
        return split_pot(amount, high_clockwise, unit)
    units = amount // unit
    low_amount = (units // 2) * unit
    high_amount = amount - low_amount
    totals: dict[int, int] = {}
    for seat, chips in (*split_pot(high_amount, high_clockwise, unit),
                        *split_pot(low_amount, low_clockwise, unit)):
        totals[seat] = totals.get(seat, 0) + chips
    return tuple(totals.items())
