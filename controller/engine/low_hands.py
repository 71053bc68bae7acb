"""Eight-or-better low hands and hi/lo split pots (R20-C, R21), for the hi-lo games.

A low qualifies with five cards of different ranks, eight or lower; the ace is low;
straights and flushes do not count against a low. Two lows compare from their highest
card down (8-5-4-3-2 beats 8-6-3-2-A). A low is a tuple of ranks from the highest down,
so a smaller tuple is a better low; ``None`` is no qualifying low.

A hi/lo pot is split in half: the best high hands take the high half, the best qualifying
lows the low half; with no qualifying low the high hands take it all. The odd unit of the
total pot goes to the high half (R20-C); each half is split among its winners like any pot
(R20-A), so a hand that wins one half and ties the other is "quartered". This module is
the engine side of the hi-lo games of issue #30: no variant deals them yet.

>>> omaha_low(("As", "2d", "Kc", "Kd"), ("3h", "4c", "8s", "Qd", "Jc"))
(8, 4, 3, 2, 1)
>>> omaha_low(("Ks", "Qd", "Kc", "3d"), ("Ah", "2c", "3s", "4d", "5c")) is None
True
>>> best_low(("As", "Ad", "2c", "3h", "4d", "7s", "9c"))
(7, 4, 3, 2, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from pokertable.controller.engine.pots import split_hi_lo, split_pot
from pokertable.controller.rules import RuleProfile

Low = tuple[int, ...]
_LOW_RANK = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8}


def best_low(cards: Sequence[str]) -> Low | None:
    """The best eight-or-better low among any five of ``cards`` (stud: five of seven).

    The five lowest different ranks, eight or lower, are the best low there is.
    """
    ranks = sorted({_LOW_RANK[c[0]] for c in cards if c[0] in _LOW_RANK})
    if len(ranks) < 5:
        return None
    return tuple(sorted(ranks[:5], reverse=True))


def omaha_low(hole: Sequence[str], board: Sequence[str]) -> Low | None:
    """Omaha: the best low of exactly two hole cards and three board cards."""
    lows = [
        low
        for pair in combinations(hole, 2)
        for three in combinations(board, 3)
        if (low := best_low((*pair, *three))) is not None
    ]
    return min(lows) if lows else None


def hi_lo_shares(
    amount: int,
    clockwise: Sequence[int],
    high: Mapping[int, int],
    low: Mapping[int, Low | None],
    unit: int,
    rules: RuleProfile,
) -> tuple[tuple[int, int], ...]:
    """Split one pot among its contenders: (seat, chips) for each seat that wins some.

    ``clockwise`` lists the contenders from the first seat left of the button (the R20-A
    order); ``high`` maps each to its high strength (``evaluation.strength``, larger is
    stronger), ``low`` to its low or None. With no qualifying low the high hands take the
    whole pot.

    >>> from pokertable.controller.rules import TDA_2024
    >>> hi_lo_shares(101, [1, 2, 3], {1: 9, 2: 5, 3: 5}, {1: None, 2: (7, 4, 3, 2, 1),
    ...              3: (7, 4, 3, 2, 1)}, 1, TDA_2024)
    ((1, 51), (2, 25), (3, 25))
    """
    best_high = max(high[s] for s in clockwise)
    high_winners = [s for s in clockwise if high[s] == best_high]
    lows = [v for s in clockwise if (v := low[s]) is not None]
    if not lows:
        return split_pot(amount, high_winners, unit)
    best = min(lows)
    low_winners = [s for s in clockwise if low[s] == best]
    return split_hi_lo(amount, high_winners, low_winners, unit, rules)
